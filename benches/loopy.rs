//! Loopy games: γ labelling throughput on explicit graphs, the exact solver on seed 001's
//! Figure 1 with real pieces, and WindUp as a Loony ruleset against cgt-tools' solver.

/// Allocations are counted as in the `loony` binary, so timings include what it pays.
#[global_allocator]
static GLOBAL: loony::memory::Counting = loony::memory::Counting;

use criterion::{Criterion, criterion_group, criterion_main};
use loony::eval::{Interp, Value};
use loony::graph::Csr;
use loony::theory::loopy::gamma;
use std::hint::black_box;
use std::time::Instant;

/// A random graph with `n` vertices and about `d` options each (cycles everywhere), plus
/// terminal vertices so that finite values occur.
fn random_graph(n: usize, d: usize, seed: u64) -> Csr {
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let lists: Vec<Vec<u32>> = (0..n)
        .map(|i| {
            if i % 7 == 0 {
                return Vec::new();
            }
            let k = 1 + (next() % (2 * d as u64 - 1)) as usize;
            (0..k).map(|_| (next() % n as u64) as u32).collect()
        })
        .collect();
    Csr::from_lists(&lists)
}

/// WindUp(n, S) as an explicit graph: from i ≠ 0 move to (i − m) mod n (written straight
/// into the arrays, as cgt computes its followers, with no list per vertex).
fn windup_graph(n: u32, s: &[u32]) -> Csr {
    let mut g = Csr {
        start: Vec::with_capacity(n as usize + 1),
        succ: Vec::with_capacity(n as usize * s.len()),
    };
    for i in 0..n {
        g.start.push(g.succ.len() as u32);
        if i != 0 {
            g.succ.extend(s.iter().map(|&m| (i + n - m % n) % n));
        }
    }
    g.start.push(g.succ.len() as u32);
    g
}

fn with_interp<T: Send + 'static>(f: impl FnOnce(&mut Interp) -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = Interp::new();
            f(&mut interp)
        })
        .expect("spawn")
        .join()
        .expect("join")
}

fn figure1_exact() -> String {
    with_interp(|interp| {
        interp
            .run("bench.cgt", "import \"std/tripiece\"", &mut |_| {})
            .expect("module loads");
        let Some(Value::Game(g)) = interp.cx.globals.get("figure1").cloned() else {
            panic!("figure1 is a game")
        };
        let o = interp
            .cx
            .exact_outcome(&mut interp.store, g, true)
            .expect("solves");
        o.to_string()
    })
}

const WINDUP: &str = "ruleset wu(n, s, i) { if i != 0 for m in s => wu(n, s, (i - m + n) % n) }";

/// All values of WindUp(n, {1, 3, 4}) through the ruleset path, as printed strings.
fn windup_loony(n: u32) -> Vec<String> {
    with_interp(move |interp| {
        let mut out = String::new();
        let src = format!("{WINDUP}\n[wu({n}, [1, 3, 4], i) for i in 0..{n}]");
        interp
            .run("bench.cgt", &src, &mut |s| out = s)
            .expect("runs");
        out.trim_matches(|c| c == '[' || c == ']')
            .split(", ")
            .map(str::to_string)
            .collect()
    })
}

fn windup_cgt(n: u32) -> Vec<String> {
    let w = cgt::loopy::impartial::games::wind_up::WindUp::new_using_graph(n, vec![1, 3, 4]);
    w.graph()
        .iter()
        .map(|v| {
            use cgt::loopy::impartial::vertex::Vertex;
            match v {
                Vertex::Value(k) => match k.value() {
                    0 => "0".to_string(),
                    1 => "*".to_string(),
                    k => format!("*{k}"),
                },
                Vertex::Loop(a) if a.is_empty() => "∞(∅)".to_string(),
                Vertex::Loop(a) => format!(
                    "∞({})",
                    a.iter()
                        .map(|x| x.value().to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let g = random_graph(1_000_000, 10, 0x9E37_79B9_7F4A_7C15);
    let edges = g.succ.len();
    let mut group = c.benchmark_group("loopy");
    group.sample_size(10);
    group.throughput(criterion::Throughput::Elements(edges as u64));
    group.bench_function("gamma: random graph, 10^6 vertices", |b| {
        b.iter(|| black_box(gamma(&g, &mut || false).expect("labels").label.len()))
    });
    let w = windup_graph(1_000_000, &[1, 3, 4]);
    group.throughput(criterion::Throughput::Elements(w.succ.len() as u64));
    group.bench_function("gamma: WindUp(10^6, {1,3,4}) graph", |b| {
        b.iter(|| black_box(gamma(&w, &mut || false).expect("labels").label.len()))
    });
    group.finish();

    let mut group = c.benchmark_group("exact solver");
    group.sample_size(10);
    group.bench_function("Figure 1, real pieces (rounds folded to *2)", |b| {
        b.iter(|| black_box(figure1_exact()))
    });
    group.finish();
    println!("edges in the random graph: {edges}");

    let mut group = c.benchmark_group("WindUp(10^5, {1,3,4}), all values");
    group.sample_size(10);
    group.bench_function("Loony ruleset", |b| {
        b.iter(|| black_box(windup_loony(100_000).len()))
    });
    group.bench_function("cgt WindUp::new_using_graph", |b| {
        b.iter(|| black_box(windup_cgt(100_000).len()))
    });
    group.finish();

    // The size, once each in this run, with the ratio.
    let t = Instant::now();
    let ours = windup_loony(1_000_000);
    let ours_t = t.elapsed();
    let t = Instant::now();
    let theirs = windup_cgt(1_000_000);
    let theirs_t = t.elapsed();
    assert_eq!(
        ours, theirs,
        "Loony and cgt agree on WindUp(10^6, {{1,3,4}})"
    );
    println!(
        "one-shot WindUp(10^6, {{1,3,4}}), all values: Loony ruleset {ours_t:.2?}, cgt \
         {theirs_t:.2?}, ratio {:.1}",
        ours_t.as_secs_f64() / theirs_t.as_secs_f64()
    );
    // What no exploration can beat: the graph built from WindUp's formula (as cgt builds its
    // followers) and labelled by the same γ labeller the ruleset path uses.
    // Both without printing: cgt's solver alone against it.
    let t = Instant::now();
    let n = black_box(
        cgt::loopy::impartial::games::wind_up::WindUp::new_using_graph(1_000_000, vec![1, 3, 4])
            .graph()
            .len(),
    );
    let bare_t = t.elapsed();
    let t = Instant::now();
    let w = windup_graph(1_000_000, &[1, 3, 4]);
    let built = t.elapsed();
    let labelled = black_box(gamma(&w, &mut || false).expect("labels").label.len());
    let floor_t = t.elapsed();
    println!(
        "one-shot WindUp(10^6, {{1,3,4}}), no printing: cgt's solver {bare_t:.2?} ({n} values); \
         the explicit graph from the formula built in {built:.2?}, built and labelled by γ in \
         {floor_t:.2?} ({labelled} vertices), ratio {:.1}",
        floor_t.as_secs_f64() / bare_t.as_secs_f64()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
