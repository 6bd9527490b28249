//! Misère quotients against MisereSolver's published timings (issue 9; MisereSolver cannot run
//! here, so its CPU seconds from the issue are printed beside ours, with the ratio).
//!
//! - Kayles (0.77) solved: certified at heap 169. MisereSolver: 0.3–0.4 s. Target ≤ 50 ms.
//! - 0.123 solved. MisereSolver: 0.25 s.
//! - Q_30(0.07), order 360. MisereSolver: 5.6–6.8 s.
//! - Q_33(0.07), order 638. MisereSolver: 16.6–17.2 s and 183 MB. Target ≤ 4 s and ≤ 100 MB;
//!   its peak RSS is measured in a child process (VmHWM), alone.
//!
//! Every result is checked against its published order before timing.
//!
//! `QUOTIENT_BENCH_WILD=1` (alone, outside criterion's sampling: a run takes minutes) runs
//! MisereSolver's frontier on wild games once each, in a child process of its own for its
//! peak memory, under the ceilings a 4 GiB budget gives: Q_114(0.54) (order 646), Q_44(4.7)
//! (770), Q_79(0.57) (622), Q_40(0.142) (1 324), and the deepest 0.07 run within 4 GiB
//! (Q_34, which stops at a ceiling, saying which); `QUOTIENT_BENCH_WILD_CASES=0.54,4.7` picks.
//! 2026-12-04 (one 2 GHz core), every order agreeing: 0.54 19 s and 10 MB, 4.7 100 s and
//! 384 MB, 0.57 242 s and 343 MB, 0.142 8.5 s and 56 MB (0.142 and 0.57 stopped at heaps 37
//! and 69 before recalibration reset heaps first; earlier the same day 27 s, 135 s, 308 s,
//! 11 s). The deepest 0.07 run: Q_33, then at heap 34 the N-side search passed its 1 GiB
//! ceiling at 67 179 pairs after 89 s, 1.26 GB peak.

/// Allocations are counted as in the `loony` binary, so timings include what it pays.
#[global_allocator]
static GLOBAL: loony::memory::Counting = loony::memory::Counting;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, criterion_group};
use loony::theory::heap::{Code, HeapRules};
use loony::theory::quotient::{Control, Limits, Quotient, Stop, solve};

fn quotient(code: &str, bound: Option<usize>) -> Quotient {
    let mut g = HeapRules::from(Code::parse(code).expect("valid code"));
    solve(&mut g, bound, Limits::default(), &Control::default()).expect("computes")
}

/// (name, code, bound, order, MisereSolver's seconds).
const CASES: [(&str, &str, Option<usize>, usize, f64); 4] = [
    ("kayles solved", "0.77", None, 40, 0.35),
    ("0.123 solved", "0.123", None, 20, 0.25),
    ("Q_30(0.07)", "0.07", Some(30), 360, 6.2),
    ("Q_33(0.07)", "0.07", Some(33), 638, 16.9),
];

const CHILD: &str = "LOONY_QUOTIENT_BENCH_CHILD";
const WILD_CHILD: &str = "LOONY_QUOTIENT_BENCH_WILD_CHILD";

/// MisereSolver's frontier: (code, heap, order it publishes); and the deepest 0.07 run within
/// 4 GiB (order 0: Q_34(0.07) is unknown, and the run is expected to stop, saying where).
const WILD: [(&str, usize, usize); 5] = [
    ("0.54", 114, 646),
    ("4.7", 44, 770),
    ("0.57", 79, 622),
    ("0.142", 40, 1324),
    ("0.07", 34, 0),
];

/// One wild case in this (child) process: order, |P|, seconds, peak RSS in kB.
fn wild_child(code: &str, heap: usize) {
    let mut g = HeapRules::from(Code::parse(code).expect("valid code"));
    let t = Instant::now();
    let q = solve(
        &mut g,
        Some(heap),
        Limits::within(4 << 30),
        &Control::default(),
    );
    let secs = t.elapsed().as_secs_f64();
    match q {
        Ok(q) => println!(
            "{} {} {secs} {}",
            q.order(),
            q.bipartite.p.iter().filter(|&&p| p).count(),
            vm_hwm_kb().unwrap_or(0)
        ),
        Err(h) => {
            let what = match h.stop {
                Stop::TooLarge { elements, grew } => format!("{grew:?} {elements}"),
                other => format!("{other}"),
            };
            println!(
                "stopped {} {} {secs} {} {what}",
                h.heap,
                h.order,
                vm_hwm_kb().unwrap_or(0)
            )
        }
    }
}

/// The wild cases, each in a child of its own.
fn wild_runs() {
    let only = std::env::var("QUOTIENT_BENCH_WILD_CASES").ok();
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    for (code, heap, order) in WILD {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|c| c == code))
        {
            continue;
        }
        let out = std::process::Command::new(&exe)
            .env(WILD_CHILD, format!("{code}:{heap}"))
            .output();
        let text = out.map(|o| String::from_utf8_lossy(&o.stdout).to_string());
        let text = text.unwrap_or_default();
        let f: Vec<&str> = text.split_whitespace().collect();
        match f[..] {
            [o, p, secs, kb] => println!(
                "Q_{heap}({code}): order {o} (MisereSolver {order}{}), |P| = {p}, {secs:.5} s, peak RSS {:.0} MB",
                if o == order.to_string() {
                    ", agrees"
                } else {
                    ", DIFFERS"
                },
                kb.parse::<f64>().unwrap_or(0.0) / 1024.0
            ),
            ["stopped", at, below, secs, kb, ref what @ ..] => println!(
                "Q_{heap}({code}): stopped at heap {at} (Q_{} of order {below} computed): {}, \
                 {secs:.5} s, peak RSS {:.0} MB",
                at.parse::<usize>().unwrap_or(1) - 1,
                match what {
                    [grew, elements] =>
                        format!("the {grew} grew past its ceiling at {elements} elements"),
                    _ => what.join(" "),
                },
                kb.parse::<f64>().unwrap_or(0.0) / 1024.0
            ),
            _ => println!("Q_{heap}({code}): {}", text.trim()),
        }
    }
}

/// Peak resident set of this process, from /proc (kB).
fn vm_hwm_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Q_33(0.07) alone in a fresh process: its peak RSS is not mixed with the other cases'.
fn peak_rss_of_q33() -> Option<(u64, f64)> {
    let exe = std::env::current_exe().ok()?;
    let out = std::process::Command::new(exe)
        .env(CHILD, "1")
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace();
    Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
}

fn quotients(c: &mut Criterion) {
    for (name, code, bound, order, _) in CASES {
        assert_eq!(quotient(code, bound).order(), order, "{name}");
    }
    match peak_rss_of_q33() {
        Some((kb, secs)) => println!(
            "Q_33(0.07) alone: {secs:.2} s, peak RSS {:.1} MB (MisereSolver: 16.9 s, 183 MB; target ≤ 4 s, ≤ 100 MB)",
            kb as f64 / 1024.0
        ),
        None => println!("Q_33(0.07): peak RSS not measured (no /proc?)"),
    }
    for (name, code, bound, _, peer) in CASES {
        let mut group = c.benchmark_group(name);
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(Duration::from_secs(2));
        group.bench_function("loony", |b| b.iter(|| quotient(black_box(code), bound)));
        group.finish();
        let t = Instant::now();
        let runs = 3;
        for _ in 0..runs {
            black_box(quotient(code, bound));
        }
        let ours = t.elapsed().as_secs_f64() / runs as f64;
        println!(
            "{name}: {:.1} ms; MisereSolver {peer} s (issue 9): {:.0}× faster",
            ours * 1e3,
            peer / ours
        );
    }
}

criterion_group!(benches, quotients);

fn main() {
    if let Ok(case) = std::env::var(WILD_CHILD) {
        let (code, heap) = case.split_once(':').expect("code:heap");
        wild_child(code, heap.parse().expect("a heap"));
        return;
    }
    if std::env::var_os("QUOTIENT_BENCH_WILD").is_some() {
        wild_runs();
        return;
    }
    if std::env::var_os(CHILD).is_some() {
        let t = Instant::now();
        let q = quotient("0.07", Some(33));
        let secs = t.elapsed().as_secs_f64();
        assert_eq!(q.order(), 638);
        println!("{} {secs}", vm_hwm_kb().unwrap_or(0));
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
