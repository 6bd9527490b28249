//! Misère canonical forms: Kayles and Grundy's game heaps (canonical form and genus), the
//! 4 171 780 games born by day 5, and printing a 20 000-character form.
//!
//! CGSuite's Java classes, on this kind of machine (issue 11): Kayles 0..40 under 1 s, Grundy
//! 0..60 under 0.5 s, day 5 in 17 s. Targets: 0.2 s, 0.2 s, 5 s.

/// Allocations are counted as in the `loony` binary, so timings include what it pays.
#[global_allocator]
static GLOBAL: loony::memory::Counting = loony::memory::Counting;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use loony::eval::Interp;
use loony::theory::misere::{Mid, MisereStore};

/// Canonical forms of heaps 0..=n from the moves of a heap game (each move lists the heaps left),
/// with each heap's genus read once.
fn heaps(n: usize, moves: fn(usize) -> Vec<Vec<usize>>) -> (MisereStore, Vec<Mid>) {
    let mut s = MisereStore::new();
    let mut out: Vec<Mid> = Vec::with_capacity(n + 1);
    let mut opts = Vec::new();
    for k in 0..=n {
        opts.clear();
        for m in moves(k) {
            let parts: Vec<Mid> = m.iter().map(|&h| out[h]).collect();
            opts.push(s.sum(&parts).expect("not cancelled"));
        }
        let g = s.construct(&opts);
        black_box(s.genus(g));
        out.push(g);
    }
    (s, out)
}

fn kayles(n: usize) -> Vec<Vec<usize>> {
    let mut v = Vec::new();
    for t in 1..=2usize.min(n) {
        for a in 0..=(n - t) {
            if a <= n - t - a {
                v.push(vec![a, n - t - a]);
            }
        }
    }
    v
}

fn grundy(n: usize) -> Vec<Vec<usize>> {
    (1..n)
        .filter(|&a| 2 * a < n)
        .map(|a| vec![a, n - a])
        .collect()
}

/// The same through the language: heap positions converted by the evaluator glue.
fn language(src: &str) -> String {
    let mut interp = Interp::new();
    let mut out = String::new();
    interp
        .run("bench.cgt", src, &mut |s| out.push_str(&s))
        .expect("runs");
    out
}

const KAYLES_SRC: &str = "len([genus(heap(\"0.77\")(n)) for n in 0..=40])";
const GRUNDY_SRC: &str = "len([genus(heap(\"4!.0\")(n)) for n in 0..=60])";

fn once(label: &str, f: impl FnOnce()) {
    let t = Instant::now();
    f();
    eprintln!("{label}: {:.3} s (one cold run)", t.elapsed().as_secs_f64());
}

fn bench(c: &mut Criterion) {
    once("kayles 0..40, canonical form + genus", || {
        black_box(heaps(40, kayles));
    });
    once("grundy 0..60, canonical form + genus", || {
        black_box(heaps(60, grundy));
    });
    once("language: kayles 0..40 genus", || {
        assert_eq!(language(KAYLES_SRC), "41");
    });
    once("language: grundy 0..60 genus", || {
        assert_eq!(language(GRUNDY_SRC), "61");
    });
    once("day 5 enumeration", || {
        let n = MisereStore::new().count_born_by(5).expect("not cancelled");
        assert_eq!(n, 4_171_780);
    });
    once("print grundy(30)", || {
        let (mut s, g) = heaps(30, grundy);
        let text = s.to_cgsuite(g[30]).expect("printable");
        assert_eq!(text.len(), 20_821);
    });

    let mut group = c.benchmark_group("misere");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("kayles 0..40", |b| b.iter(|| black_box(heaps(40, kayles))));
    group.bench_function("grundy 0..60", |b| b.iter(|| black_box(heaps(60, grundy))));
    group.bench_function("language: kayles 0..40 genus", |b| {
        b.iter(|| black_box(language(KAYLES_SRC)))
    });
    group.bench_function("language: grundy 0..60 genus", |b| {
        b.iter(|| black_box(language(GRUNDY_SRC)))
    });
    group.bench_function("print grundy(30)", |b| {
        b.iter_batched(
            || heaps(30, grundy),
            |(mut s, g)| black_box(s.to_cgsuite(g[30]).expect("printable")),
            criterion::BatchSize::PerIteration,
        )
    });
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("day 5", |b| {
        b.iter(|| black_box(MisereStore::new().count_born_by(5).expect("not cancelled")))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
