//! Ctrl-C during the loopy engine's long phases: the exploration, the labelling and the exact
//! solver stop with the interrupt diagnostic, and the session goes on.

use loony::eval::Interp;
use std::sync::atomic::Ordering;
use std::time::Duration;

fn interrupted_after(setup: &str, long: &str, millis: u64) -> (String, String) {
    let (setup, long) = (setup.to_string(), long.to_string());
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = Interp::new();
            interp.cx.limits.budget = 100_000_000;
            interp
                .run("setup.cgt", &setup, &mut |_| {})
                .expect("setup runs");
            let flag = interp.cx.limits.interrupt.clone();
            let waker = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(millis));
                flag.store(true, Ordering::Relaxed);
            });
            let err = interp
                .run("long.cgt", &long, &mut |_| {})
                .expect_err("interrupted");
            waker.join().expect("waker");
            let mut after = String::new();
            interp
                .run("after.cgt", "w(3, 1)", &mut |s| after = s)
                .expect("the session goes on");
            (err.render_plain(&interp.cx.files), after)
        })
        .expect("spawn")
        .join()
        .expect("join")
}

#[test]
fn ctrl_c_stops_the_exact_solver() {
    let setup = "ruleset w(n, i) { if i != 0 for m in [1, 2] => w(n, (i - m + n) % n) }\n\
                 let g = {*2, *3, {∞ | *2, *3} | *2, *3, {*2, *3 | ∞̄}}";
    let (err, after) = interrupted_after(setup, "outcome(g + w(3000, 5) + w(3000, 7))", 300);
    assert!(err.contains("E0501"), "{err}");
    assert_eq!(after, "∞(0)");
}

#[test]
fn ctrl_c_stops_exploring_a_large_loopy_ruleset() {
    let setup = "ruleset w(n, i) { if i != 0 for m in [1, 2] => w(n, (i - m + n) % n) }";
    let (err, after) = interrupted_after(setup, "w(50000000, 5)", 300);
    assert!(err.contains("E0501"), "{err}");
    assert_eq!(after, "∞(0)");
}

#[test]
fn ctrl_c_stops_a_box_of_long_families() {
    // 101 positions with 10^7·x options each (5·10^10 in all, about a minute): the box polls
    // by options read, not only by positions, so it stops within a position or two.
    let setup = "ruleset w(n, i) { if i != 0 for m in [1, 2] => w(n, (i - m + n) % n) }\n\
                 ruleset big(x) { for a in 0..(10000000 * x) => big(0) }";
    let t = std::time::Instant::now();
    let (err, after) = interrupted_after(setup, "big(100)", 300);
    assert!(err.contains("E0501"), "{err}");
    assert_eq!(after, "∞(0)");
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
}

/// Ctrl-C during plain evaluation (no engine involved), and the session goes on.
fn interrupted_plain(long: &str, millis: u64) -> (String, String) {
    let long = long.to_string();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = Interp::new();
            let flag = interp.cx.limits.interrupt.clone();
            let waker = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(millis));
                flag.store(true, Ordering::Relaxed);
            });
            let err = interp
                .run("long.cgt", &long, &mut |_| {})
                .expect_err("interrupted");
            waker.join().expect("waker");
            let mut after = String::new();
            interp
                .run("after.cgt", "*2 + *3", &mut |s| after = s)
                .expect("the session goes on");
            (err.render_plain(&interp.cx.files), after)
        })
        .expect("spawn")
        .join()
        .expect("join")
}

#[test]
fn ctrl_c_stops_building_ranges_in_a_short_loop() {
    // 100 iterations only, each building a 10-million-element range: once unpolled.
    let (err, after) = interrupted_plain("sum([len(0..10000000) for i in 0..100])", 300);
    assert!(err.contains("E0501"), "{err}");
    assert_eq!(after, "*");
}

#[test]
fn ctrl_c_stops_listing_a_nimbers_options() {
    let (err, after) = interrupted_plain("len(options(*40000000))", 300);
    assert!(err.contains("E0501"), "{err}");
    assert_eq!(after, "*");
}

#[test]
fn ctrl_c_stops_deep_plain_recursion() {
    let (err, after) = interrupted_plain(
        "fn f(n) = if n == 0 then 0 else f(n - 1) + 0 * 1\nf(1000000000)",
        300,
    );
    assert!(err.contains("E0501") || err.contains("E0206"), "{err}");
    assert_eq!(after, "*");
}

#[test]
fn ctrl_c_stops_the_periodicity_scans() {
    // Searching 0.6 for a period up to heap 10^6 takes seconds: the values and, after each
    // doubling, the certificate scan both poll. (subtraction([1000000]), once > 100 s here, is
    // now answered at once: tests/robustness.rs.)
    let (err, after) = interrupted_plain("periodicity(heap(\"0.6\"), 1000000)", 1000);
    assert!(err.contains("E0501"), "{err}");
    assert_eq!(after, "*");
}

#[test]
fn ctrl_c_stops_a_ruleset_whose_options_fold_to_values() {
    // r(n) has the n options r(0) … r(n - 1): 5·10⁹ options in all, each folded to the value
    // already known, so nothing grows that the memory budget would catch.
    let (err, after) = interrupted_plain("ruleset r(n) { for k in 0..n => r(k) }\nr(100000)", 300);
    assert!(err.contains("E0501"), "{err}");
    assert_eq!(after, "*");
}

#[test]
fn ctrl_c_stops_a_position_with_a_huge_range_of_options() {
    let (err, after) =
        interrupted_plain("ruleset r(n) { for k in 0..1000000000000 => * }\nr(1)", 300);
    assert!(err.contains("E0501"), "{err}");
    assert_eq!(after, "*");
}
