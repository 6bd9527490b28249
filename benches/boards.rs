//! Board and graph games written in Loony (`std/cram`, `std/node_kayles`: rulesets that split
//! into parts and name their symmetries) on the targets of their issue, beside their peers in
//! the same run:
//! - Cram 4 × 6 and 5 × 5 against a Python memo over the bit mask (`peers/cram.py`, run as
//!   `python3`; target: a tenth of its time) and hand-written Rust doing the same (target:
//!   within 5×), with peak memory;
//! - Cram 5 × 6 (published value *2) once, with its time and memory;
//! - `outcome(cram(5, 6))`, one question of pruned search;
//! - Node Kayles on random graphs of 40 vertices and 60 edges (five fixed seeds);
//! - Cram 3 × 13, 4 × 9 and 5 × 7 (outcome and nimber) beside igsolve, the fastest dedicated
//!   Cram solver (Beling & Rogalski 2020), run as a program installed by
//!   `scripts/install-peers.sh` (target: within 5× its time), with both peaks of memory.
//!
//! `cargo bench --bench boards -- --test` runs each once and prints the figures.

/// Allocations are counted as in the `loony` binary, so timings include what it pays.
#[global_allocator]
static GLOBAL: loony::memory::Counting = loony::memory::Counting;

use criterion::{Criterion, criterion_group, criterion_main};
use loony::eval::Interp;
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};

/// Runs a program on a big stack and returns its last printed line and the time it took.
fn run(src: &str) -> (String, Duration) {
    let src = src.to_string();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = Interp::new();
            interp.cx.limits.budget = usize::MAX / 4;
            let mut out = String::new();
            let t = Instant::now();
            interp
                .run("bench.cgt", &src, &mut |s| out = s)
                .expect("bench program runs");
            (out, t.elapsed())
        })
        .expect("spawn")
        .join()
        .expect("join")
}

/// A memory figure of this process from `/proc/self/status`, in bytes (Linux).
fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Resets the peak resident memory to what the process holds now (Linux), so the next
/// `VmHWM` is the peak of what follows.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Peak memory of `f` above what the process held before it, in MB, where Linux tells.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    let base = status_bytes("VmRSS:");
    let reset = reset_peak();
    let out = f();
    let peak = status_bytes("VmHWM:");
    let mb = match (reset, base, peak) {
        (true, Some(b), Some(p)) => Some(p.saturating_sub(b) / 1_000_000),
        _ => None,
    };
    (out, mb)
}

fn mb(m: Option<u64>) -> String {
    m.map_or("?".into(), |m| format!("{m} MB"))
}

/// Hand-written Rust for Cram, as a researcher writes it first: the free cells as a bit
/// mask, a memo over the whole mask (a fast hash), the mex of the options' values.
fn cram_by_hand(rows: usize, cols: usize) -> (u32, usize) {
    let mut moves = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let i = r * cols + c;
            if c + 1 < cols {
                moves.push(1u64 << i | 1 << (i + 1));
            }
            if r + 1 < rows {
                moves.push(1u64 << i | 1 << (i + cols));
            }
        }
    }
    fn g(free: u64, moves: &[u64], memo: &mut FxHashMap<u64, u32>) -> u32 {
        if let Some(&v) = memo.get(&free) {
            return v;
        }
        let mut seen = 0u64;
        for &m in moves {
            if free & m == m {
                let v = g(free ^ m, moves, memo);
                if v < 64 {
                    seen |= 1 << v;
                }
            }
        }
        let v = seen.trailing_ones();
        memo.insert(free, v);
        v
    }
    let mut memo = FxHashMap::default();
    let v = g((1u64 << (rows * cols)) - 1, &moves, &mut memo);
    (v, memo.len())
}

/// The Python peer's value, seconds and peak memory (kB), or why it did not run.
fn cram_in_python(rows: usize, cols: usize) -> Result<(u32, f64, u64), String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/peers/cram.py");
    let out = std::process::Command::new("python3")
        .args([script, &rows.to_string(), &cols.to_string()])
        .output()
        .map_err(|e| format!("python3 did not start: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let f: Vec<&str> = text.split_whitespace().collect();
    let parse = || -> Option<(u32, f64, u64)> {
        Some((
            f.first()?.parse().ok()?,
            f.get(2)?.parse().ok()?,
            f.get(3)?.parse().ok()?,
        ))
    };
    parse().ok_or_else(|| format!("unexpected output {text:?}"))
}

fn nim(v: u32) -> String {
    match v {
        0 => "0".into(),
        1 => "*".into(),
        v => format!("*{v}"),
    }
}

/// The random graphs of `loony sweep node-kayles:N:M:SEEDS`.
use loony::sweep::family::random_graph;

fn igsolve() -> Result<std::path::PathBuf, String> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let bin = std::path::Path::new(root).join("target/peers/bin/igsolve");
    if !bin.exists() {
        let status = std::process::Command::new("bash")
            .arg(format!("{root}/scripts/install-peers.sh"))
            .status()
            .map_err(|e| format!("the install script did not start: {e}"))?;
        if !status.success() {
            return Err(format!("scripts/install-peers.sh failed ({status})"));
        }
    }
    Ok(bin)
}

/// igsolve's nimber of Cram `rows × cols`, its wall time and its peak resident memory (kB,
/// from `wait4`), or why it did not run.
fn cram_in_igsolve(rows: usize, cols: usize) -> Result<(u32, Duration, u64), String> {
    use std::io::Read;
    let bin = igsolve()?;
    let t = Instant::now();
    let mut child = std::process::Command::new(bin)
        .args(["cram", "-r", &rows.to_string(), "-c", &cols.to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("igsolve did not start: {e}"))?;
    let mut text = String::new();
    child
        .stdout
        .take()
        .expect("piped")
        .read_to_string(&mut text)
        .map_err(|e| format!("igsolve's output: {e}"))?;
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    // SAFETY: waits for our own child, whose pid is live until reaped here; `usage` is a
    // plain struct the call fills.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let took = t.elapsed();
    if pid < 0 || !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        return Err(format!("igsolve failed: {text}"));
    }
    let value = text
        .lines()
        .find_map(|l| l.strip_prefix("Nimber of initial position: "))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| format!("unexpected output {text:?}"))?;
    Ok((value, took, usage.ru_maxrss as u64))
}

/// Cram beside igsolve: one question (`outcome`) and the whole nimber, each against igsolve's
/// nimber (it has no outcome-only mode).
fn against_igsolve() {
    // Published values (Uiterwijk's Cram tables; igsolve agrees).
    for (rows, cols, value) in [(3, 13, 2), (4, 9, 1), (5, 7, 1)] {
        let (theirs, their_kb) = match cram_in_igsolve(rows, cols) {
            Ok((v, took, kb)) => {
                assert_eq!(v, value, "igsolve's Cram {rows} x {cols}");
                (took, kb)
            }
            Err(why) => {
                println!("boards: Cram {rows}x{cols}: igsolve not run: {why}");
                continue;
            }
        };
        let src = format!("import \"std/cram\"\noutcome(cram({rows}, {cols}))\n");
        let ((out, ask), ask_mb) = peak_of(|| run(&src));
        assert_eq!(out, "N", "Cram {rows} x {cols} is a first-player win");
        let ((out, val), val_mb) = peak_of(|| run(&cram_src(rows, cols)));
        assert_eq!(out, nim(value), "Cram {rows} x {cols}");
        let ratio = |d: Duration| d.as_secs_f64() / theirs.as_secs_f64().max(1e-9);
        println!(
            "boards: Cram {rows}x{cols} = {out}: igsolve {theirs:.2?} ({} MB); Loony outcome \
             {ask:.2?} ({}, ratio {:.1}), nimber {val:.2?} ({}, ratio {:.1}) (target <= 5)",
            their_kb / 1000,
            mb(ask_mb),
            ratio(ask),
            mb(val_mb),
            ratio(val),
        );
    }
}

fn cram_src(rows: usize, cols: usize) -> String {
    format!("import \"std/cram\"\ncram({rows}, {cols})\n")
}

fn against_peers() {
    for (rows, cols) in [(4, 6), (5, 5)] {
        let ((out, ours), our_mb) = peak_of(|| {
            (0..3)
                .map(|_| run(&cram_src(rows, cols)))
                .min_by_key(|r| r.1)
                .expect("three runs")
        });
        let ((value, positions), theirs) = {
            let t = Instant::now();
            let r = cram_by_hand(rows, cols);
            (r, t.elapsed())
        };
        assert_eq!(out, nim(value), "Cram {rows} x {cols}");
        let rust_ratio = ours.as_secs_f64() / theirs.as_secs_f64().max(1e-9);
        println!(
            "boards: Cram {rows}x{cols} = {out}: Loony {ours:.2?} (peak {}), hand-written Rust \
             {theirs:.2?} ({positions} positions), ratio {rust_ratio:.2} (target <= 5)",
            mb(our_mb)
        );
        match cram_in_python(rows, cols) {
            Ok((v, secs, kb)) => {
                assert_eq!(nim(v), out, "Python's Cram {rows} x {cols}");
                let share = ours.as_secs_f64() / secs;
                println!(
                    "boards: Cram {rows}x{cols}: Python memo {secs:.2} s ({} MB), Loony takes \
                     {share:.3} of it (target <= 0.1) {}",
                    kb / 1000,
                    if share <= 0.1 { "ok" } else { "over" }
                );
            }
            Err(why) => println!("boards: Cram {rows}x{cols}: Python peer not run: {why}"),
        }
    }
    // Published: 5 x 6 Cram is *2 (Uiterwijk's tables; igsolve agrees).
    let ((out, took), peak) = peak_of(|| run(&cram_src(5, 6)));
    assert_eq!(out, "*2");
    println!("boards: Cram 5x6 = {out} in {took:.2?} (peak {})", mb(peak));
    // One question of the sum (pruned search), not the whole nimber.
    let src = "import \"std/cram\"\noutcome(cram(5, 6))\n";
    let ((out, took), peak) = peak_of(|| run(src));
    assert_eq!(out, "N");
    println!(
        "boards: outcome(cram(5, 6)) = {out} in {took:.2?} (peak {})",
        mb(peak)
    );
    for seed in [1, 2, 3, 4, 5] {
        let edges = random_graph(40, 60, seed);
        let shown: Vec<String> = edges.iter().map(|(a, b)| format!("({a}, {b})")).collect();
        let src = format!(
            "import \"std/node_kayles\"\nnode_kayles(40, [{}])\n",
            shown.join(", ")
        );
        let ((out, took), peak) = peak_of(|| run(&src));
        println!(
            "boards: Node Kayles, random graph 40 vertices 60 edges (seed {seed}) = {out} in \
             {took:.2?} (peak {})",
            mb(peak)
        );
    }
}

fn bench(c: &mut Criterion) {
    against_peers();
    against_igsolve();
    let mut g = c.benchmark_group("boards");
    g.sample_size(10);
    g.bench_function("cram 4x6", |b| b.iter(|| run(&cram_src(4, 6))));
    g.bench_function("cram 4x6 by hand", |b| b.iter(|| cram_by_hand(4, 6)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
