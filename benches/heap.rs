//! Nim-sequence kernels: Loony against the `ogs` crate's solvers (naive, RC, RC2).
//!
//! Before timing, each game's sequence is checked against ogs's, value for value.

use std::hint::black_box;
use std::str::FromStr;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use loony::theory::heap::{Code, Control, HeapRules};
use ogs::{NaiveSolver, RC2Solver, RCSolver, Solver};

fn loony(code: &str, n_max: usize) -> Vec<u32> {
    let rules = HeapRules::from(Code::parse(code).expect("valid code"));
    rules
        .nim_sequence(n_max, &Control::default())
        .expect("not cancelled")
}

fn ogs_run<S: Solver>(solver: S, n_max: usize) -> Vec<u16> {
    solver.take(n_max + 1).collect()
}

fn ogs_naive(code: &str, n_max: usize) -> Vec<u16> {
    let game = ogs::Game::from_str(code).expect("valid code");
    ogs_run(NaiveSolver::<()>::with_capacity(game, n_max + 1), n_max)
}

fn ogs_rc(code: &str, n_max: usize) -> Vec<u16> {
    let game = ogs::Game::from_str(code).expect("valid code");
    ogs_run(RCSolver::<true, ()>::with_capacity(game, n_max + 1), n_max)
}

fn ogs_rc2(code: &str, n_max: usize) -> Vec<u16> {
    let game = ogs::Game::from_str(code).expect("valid code");
    ogs_run(RC2Solver::<true, ()>::with_capacity(game, n_max + 1), n_max)
}

fn same(ours: &[u32], theirs: &[u16]) -> bool {
    ours.len() == theirs.len() && ours.iter().zip(theirs).all(|(&a, &b)| a == u32::from(b))
}

/// (code, largest heap, whether ogs's quadratic naive solver is worth timing)
const GAMES: [(&str, usize, bool); 3] = [
    ("0.07", 100_000, true),
    ("0.77", 100_000, true),
    ("0.6", 1 << 20, false),
];

fn nim_sequences(c: &mut Criterion) {
    for (code, n_max, _) in GAMES {
        let ours = loony(code, n_max);
        assert!(same(&ours, &ogs_rc2(code, n_max)), "{code}: Loony differs from ogs RC2");
        assert!(same(&ours, &ogs_rc(code, n_max)), "{code}: Loony differs from ogs RC");
    }
    assert!(same(&loony("0.77", 20_000), &ogs_naive("0.77", 20_000)));

    for (code, n_max, naive) in GAMES {
        let mut group = c.benchmark_group(format!("{code} to {n_max}"));
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        group.bench_function("loony", |b| b.iter(|| loony(black_box(code), n_max)));
        group.bench_function("ogs RC", |b| b.iter(|| ogs_rc(black_box(code), n_max)));
        group.bench_function("ogs RC2", |b| b.iter(|| ogs_rc2(black_box(code), n_max)));
        if naive {
            group.bench_function("ogs naive", |b| b.iter(|| ogs_naive(black_box(code), n_max)));
        }
        group.finish();
    }
}

criterion_group!(benches, nim_sequences);
criterion_main!(benches);
