//! Core benchmarks: interning throughput of the game store, and nimbers through the ruleset
//! path (the interpreter exploring user rulesets), with one-shot timings of the large targets.

/// Allocations are counted as in the `loony` binary, so timings include what it pays.
#[global_allocator]
static GLOBAL: loony::memory::Counting = loony::memory::Counting;

use criterion::{Criterion, criterion_group, criterion_main};
use loony::eval::Interp;
use loony::game::{GameId, Store};
use std::hint::black_box;
use std::time::Instant;

/// Interns `n` forms whose options are drawn from earlier forms (a cache-hostile workload).
fn intern_forms(n: usize) -> usize {
    let mut s = Store::new();
    let mut ids: Vec<GameId> = vec![s.zero()];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut opts = Vec::with_capacity(4);
    for _ in 0..n {
        opts.clear();
        for _ in 0..4 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            opts.push(ids[(x % ids.len() as u64) as usize]);
        }
        let g = s.form(&opts, &opts[..2]);
        ids.push(g);
    }
    s.len()
}

fn run(src: &str) -> String {
    let src = src.to_string();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = Interp::new();
            let mut out = String::new();
            interp
                .run("bench.cgt", &src, &mut |s| out = s)
                .expect("bench program runs");
            out
        })
        .expect("spawn")
        .join()
        .expect("join")
}

const KAYLES: &str = "ruleset kayles(n) {\n  for t in [1, 2] if t <= n for a in 0..=(n - t) => kayles(a) + kayles(n - t - a)\n}\n";
const TOP_ENTAILS: &str = "ruleset te(n) {\n  for a in 1..n if a <= n - a => te(a) + te(n - a)\n  if n >= 1 => entail te(n - 1)\n}\n";

fn bench(c: &mut Criterion) {
    c.bench_function("store: intern 100k forms", |b| {
        b.iter(|| black_box(intern_forms(100_000)))
    });

    let mut g = c.benchmark_group("ruleset path");
    g.sample_size(10);
    g.bench_function("kayles(n) for all n <= 500", |b| {
        b.iter(|| black_box(run(&format!("{KAYLES}[kayles(n) for n in 0..=500]"))))
    });
    g.bench_function("top_entails(n) for all n <= 300", |b| {
        b.iter(|| black_box(run(&format!("{TOP_ENTAILS}[te(n) for n in 0..=300]"))))
    });
    g.finish();

    // The large targets, timed once each (too long for criterion's ten samples).
    static ONCE: std::sync::Once = std::sync::Once::new();
    let mut first = false;
    ONCE.call_once(|| first = true);
    if !first {
        return;
    }
    let t = Instant::now();
    // The nim-sum forces every value to be computed.
    let out = run(&format!("{KAYLES}sum([kayles(n) for n in 0..=3000])"));
    println!(
        "one-shot: kayles(n) for all n <= 3000 via the ruleset path: {:.2?} (their nim-sum: {out})",
        t.elapsed()
    );
    let t = Instant::now();
    let out = run(&format!("{TOP_ENTAILS}te(2000)"));
    println!(
        "one-shot: top_entails(2000) via the ruleset path (generic affine engine): {:.2?} (value {out})",
        t.elapsed()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
