//! Nim-sequence kernels: Loony against the `ogs` crate's solvers (naive, RC, RC2).
//!
//! Before timing, each game's sequence is checked against ogs's, value for value.
//!
//! - default: 0.07, 0.77 to 100 000 and 0.6 to 2^20, each against ogs's best solver;
//!   2026-12-03 (two 2 GHz cores): 0.07 259 ms against ogs naive 7.07 s (0.037×; 1.17 s,
//!   0.17×, while the record kernel was taken for every long sequence), 0.77 19.9 ms against
//!   RC2 4.49 s, 0.6 2.92 s against RC 11.9 s (0.24×);
//! - `HEAP_BENCH_RECORD=1` (alone, without the default set): 0.6 to 2^23, Loony's record
//!   kernel against ogs RC2 (about 10 minutes, nearly all of it ogs: criterion takes ten
//!   samples of each);
//! - `HEAP_BENCH_HUGE=1`: one run each (outside criterion's sampling: a sample takes
//!   minutes) of 0.6 and Grundy's game 4!.0 to 2^26 heaps (`HEAP_BENCH_HUGE_LOG2` changes
//!   the size), with a progress bar and Ctrl-C, printing the time at each power of two (how
//!   the time grows with n), the peak memory per heap, and the rare values found.
//!   Grundy's game to 2^32 (`HEAP_BENCH_HUGE_CODES=4!.0 HEAP_BENCH_HUGE_LOG2=32`, 2026-12-02):
//!   7 162 s wall, 155 CPU-minutes, on two cores shared at low priority with other work,
//!   8 595 MB peak (2.00 bytes a heap); mask 0x3fc, 1 286 rare heaps (none new past 2^26),
//!   largest value 287. On 2026-12-03's host (2 GHz EPYC, two idle cores), after the scan
//!   became look-ups against the values still needed: 2^23 19.4 s (30.5 s before), 2^28
//!   602 s wall, 1 104 CPU-s, 531 MB (from `rare_values` in the language). 2026-12-05, after
//!   the scan became a 32-pair vector test (AVX2): from the language,
//!   `rare_values(heap("4!.0"), 2^32)` in 3 989 s wall, 7 846 CPU-s, 8.4 GB, ×1.98–2.02 a
//!   doubling from 2^24 (15 s) to 2^32; 1 286 rare heaps, largest value 287. The same day,
//!   after the scan took its first runs scattered and 64 pairs at a time (AVX-512, 9585a7d):
//!   3 082 s wall, 6 034 CPU-s, 8.4 GB, ×1.96–2.01 a doubling from 2^24 (12 s); the same rare
//!   heaps. 0.6 to 2^32 from the language (`rare_values(heap("0.6"), 2^32)`, 985881f): 3 842 s
//!   of running (pauses taken out), 7 413 CPU-s, 8.4 GB, ×1.98–2.03 a doubling from 2^24
//!   (15 s); mask 0x3dc, 1 583 rare heaps (none new past heap 20 627), largest value 335.
//!   These counts leave heap 0 out; `rare_values` now counts it (rare under every mask), as
//!   the published tables do: 1 287 for Grundy's game, 1 584 for 0.6.

/// Allocations are counted as in the `loony` binary, so timings include what it pays.
#[global_allocator]
static GLOBAL: loony::memory::Counting = loony::memory::Counting;

use std::hint::black_box;
use std::str::FromStr;
use std::time::Duration;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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

#[derive(Clone, Copy, PartialEq)]
enum Ogs {
    Naive,
    Rc,
    Rc2,
}

impl Ogs {
    fn name(self) -> &'static str {
        match self {
            Ogs::Naive => "ogs naive",
            Ogs::Rc => "ogs RC",
            Ogs::Rc2 => "ogs RC2",
        }
    }

    fn run(self, code: &str, n_max: usize) -> Vec<u16> {
        match self {
            Ogs::Naive => ogs_naive(code, n_max),
            Ogs::Rc => ogs_rc(code, n_max),
            Ogs::Rc2 => ogs_rc2(code, n_max),
        }
    }
}

/// (code, largest heap, ogs's fastest solver for it). Every ogs solver takes seconds here
/// and criterion insists on 10 samples, so by default only ogs's best one is timed (naive
/// for 0.07, where its RC split does not pay; RC2 for 0.77; RC for 0.6); set
/// `HEAP_BENCH_ALL=1` to time all of them (about 12 minutes; ogs naive on 0.6 is left out,
/// being quadratic: hours).
const GAMES: [(&str, usize, Ogs); 3] = [
    ("0.07", 100_000, Ogs::Naive),
    ("0.77", 100_000, Ogs::Rc2),
    ("0.6", 1 << 20, Ogs::Rc),
];

fn nim_sequences(c: &mut Criterion) {
    // The long runs are asked for alone.
    if std::env::var_os("HEAP_BENCH_RECORD").is_some()
        || std::env::var_os("HEAP_BENCH_HUGE").is_some()
    {
        return;
    }
    let all = std::env::var_os("HEAP_BENCH_ALL").is_some();
    for (code, n_max, best) in GAMES {
        let ours = loony(code, n_max);
        assert!(
            same(&ours, &best.run(code, n_max)),
            "{code}: Loony differs from {}",
            best.name()
        );
    }

    for (code, n_max, best) in GAMES {
        let mut group = c.benchmark_group(format!("{code} to {n_max}"));
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        group.bench_function("loony", |b| b.iter(|| loony(black_box(code), n_max)));
        for solver in [Ogs::Naive, Ogs::Rc, Ogs::Rc2] {
            let quadratic = solver == Ogs::Naive && n_max > 100_000;
            if solver == best || (all && !quadratic) {
                group.bench_function(solver.name(), |b| {
                    b.iter(|| solver.run(black_box(code), n_max))
                });
            }
        }
        group.finish();
    }
}

fn record(code: &str, n_max: usize) -> loony::theory::heap::RecordRun {
    let rules = HeapRules::from(Code::parse(code).expect("valid code"));
    rules
        .record_sequence(n_max, &Control::default())
        .expect("one splitting move")
        .expect("not cancelled")
}

/// 0.6 to 2^23: the record kernel against ogs RC2 (ogs's best at this scale).
fn record_scale(c: &mut Criterion) {
    if std::env::var_os("HEAP_BENCH_RECORD").is_none() {
        return;
    }
    let (code, n_max) = ("0.6", 1 << 23);
    let ours = record(code, n_max);
    let theirs = ogs_rc2(code, n_max);
    assert!(
        ours.values.len() == theirs.len() && ours.values.iter().zip(&theirs).all(|(a, b)| a == b),
        "{code}: Loony differs from ogs RC2"
    );
    let mut group = c.benchmark_group(format!("{code} to 2^23"));
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(1));
    group.bench_function("loony record", |b| {
        b.iter(|| record(black_box(code), n_max))
    });
    group.bench_function("ogs RC2", |b| b.iter(|| ogs_rc2(black_box(code), n_max)));
    group.finish();
}

/// Peak resident memory of this process in bytes (Linux), if known.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// One run each of 0.6 and Grundy's game to 2^26 heaps (see the module notes).
fn huge_runs() {
    if std::env::var_os("HEAP_BENCH_HUGE").is_none() {
        return;
    }
    let log2: u32 = std::env::var("HEAP_BENCH_HUGE_LOG2")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(26);
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let cancel = cancel.clone();
        let _ = ctrlc::set_handler(move || cancel.store(true, Ordering::Relaxed));
    }
    let only = std::env::var("HEAP_BENCH_HUGE_CODES").unwrap_or_else(|_| "0.6,4!.0".into());
    for code in only.split(',') {
        let n_max = (1usize << log2) - 1;
        let rules = HeapRules::from(Code::parse(code).expect("valid code"));
        let bar = indicatif::ProgressBar::new(n_max as u64 + 1);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{msg} {bar:40} {pos}/{len} heaps ({elapsed}, eta {eta})",
            )
            .expect("template"),
        );
        bar.set_message(code.to_string());
        let start = Instant::now();
        let passed = std::cell::RefCell::new(Vec::<(u32, f64)>::new());
        let report = |done: usize, _total: usize| {
            bar.set_position(done as u64);
            let mut passed = passed.borrow_mut();
            let next = passed.last().map_or(16, |p| p.0 + 1);
            if next <= log2 && done >= 1 << next {
                passed.push((next, start.elapsed().as_secs_f64()));
            }
        };
        let ctl = Control::default()
            .with_cancel(&cancel)
            .with_progress(&report);
        let result = rules
            .record_sequence(n_max, &ctl)
            .expect("one splitting move");
        bar.finish_and_clear();
        let elapsed = start.elapsed().as_secs_f64();
        let memory = peak_memory();
        println!("{code} to 2^{log2} heaps:");
        let passed = passed.into_inner();
        for w in passed.windows(2) {
            let ((a, ta), (b, tb)) = (w[0], w[1]);
            println!(
                "  2^{b} heaps at {tb:.1} s (x{:.2} over 2^{a}: time ~ n^{:.2})",
                tb / ta,
                (tb / ta).log2() / f64::from(b - a)
            );
        }
        match result {
            Ok(run) => {
                println!("  done in {elapsed:.1} s");
                if let Some(bytes) = memory {
                    println!(
                        "  peak memory {:.0} MB, {:.2} bytes a heap",
                        bytes as f64 / 1e6,
                        bytes as f64 / (n_max + 1) as f64
                    );
                }
                let rare = run.rare_values();
                println!(
                    "  sparse mask {:#x}: {} rare heaps, rare values {:?}",
                    run.mask,
                    run.rare_heaps.len(),
                    rare
                );
                println!(
                    "  largest value {}",
                    run.values.iter().copied().max().unwrap_or(0)
                );
            }
            Err(stopped) => {
                println!(
                    "  interrupted after {} heaps, {elapsed:.1} s",
                    stopped.values.len()
                );
                cancel.store(false, Ordering::Relaxed);
            }
        }
    }
}

fn huge(_: &mut Criterion) {
    huge_runs();
}

criterion_group!(benches, nim_sequences, record_scale, huge);
criterion_main!(benches);
