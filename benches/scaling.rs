//! How each path the documentation calls fast grows with its work: every query is timed at n
//! and at 4n (best of three, each in a fresh session, so no cache carries over), and the
//! growth exponent is printed beside the target, time ×≤ 2.3 per doubling (exponent ≤ 1.2).
//! `cargo bench --bench scaling`.

/// Allocations are counted as in the `loony` binary, so timings include what it pays.
#[global_allocator]
static GLOBAL: loony::memory::Counting = loony::memory::Counting;

use loony::eval::Interp;
use std::time::{Duration, Instant};

/// The exponent the target allows: ×2.3 per doubling.
const TARGET: f64 = 1.2;

/// The best of three runs of `src` in a fresh interpreter each, on a big stack as `loony` has.
fn time(src: String) -> Duration {
    (0..3)
        .map(|_| {
            let src = src.clone();
            std::thread::Builder::new()
                .stack_size(1 << 30)
                .spawn(move || {
                    let mut interp = Interp::new();
                    let started = Instant::now();
                    interp
                        .run("scaling.cgt", &src, &mut |s| {
                            std::hint::black_box(s);
                        })
                        .expect("the query runs");
                    started.elapsed()
                })
                .expect("spawn")
                .join()
                .expect("join")
        })
        .min()
        .expect("three runs")
}

fn main() {
    // (what, query with N, n): each is also run at 4n.
    let paths: [(&str, &str, u64); 6] = [
        (
            "nim_sequence(heap(\"0.07\"), 0..N)",
            "len(nim_sequence(heap(\"0.07\"), 0..N))",
            200_000,
        ),
        ("heap(\"0.6\")(N), one value", "heap(\"0.6\")(N)", 1 << 18),
        (
            "nim_sequence(heap(\"0.6\"), N)",
            "len(nim_sequence(heap(\"0.6\"), N))",
            1 << 18,
        ),
        (
            "periodicity(subtraction([N]), 5N)",
            "periodicity(subtraction([N]), 5 * N).period",
            250_000,
        ),
        (
            "quotient(subtraction([N]))",
            "quotient(subtraction([N])).order",
            750,
        ),
        ("top_entails_moons(N)", "top_entails_moons(N)", 50_000),
    ];
    println!(
        "{:<38} {:>10} {:>10} {:>9}  target",
        "path", "n", "4n", "exponent"
    );
    for (what, query, n) in paths {
        let t1 = time(query.replace('N', &n.to_string()));
        let t4 = time(query.replace('N', &(4 * n).to_string()));
        let e = (t4.as_secs_f64() / t1.as_secs_f64().max(1e-6)).ln() / 4f64.ln();
        let verdict = if e <= TARGET { "ok" } else { "over" };
        println!(
            "{what:<38} {:>10.3?} {:>10.3?} {e:>9.2}  <= {TARGET} {verdict} (n = {n})",
            t1, t4
        );
    }
    // A session asking Top Entails stack after stack extends one run: it must cost what one
    // call for the last stack costs (it relaid the table once a stack, which was quadratic on
    // top of the recurrence's own n²).
    let n = 60_000;
    let one = time(format!("top_entails_value({n})"));
    let each = time(format!("len([top_entails_value(n) for n in 0..={n}])"));
    println!(
        "top_entails_value(n) for n in 0..=N, against top_entails_value(N): {each:.3?} / {one:.3?} \
         = {:.2} (N = {n}; the stack-by-stack run has one core, the single call all)",
        each.as_secs_f64() / one.as_secs_f64().max(1e-6)
    );
}
