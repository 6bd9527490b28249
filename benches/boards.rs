//! Board and graph games written in Loony (`std/cram`, `std/node_kayles`: rulesets that split
//! into parts and name their symmetries) on the targets of their issue, beside their peers in
//! the same run:
//! - Cram 4 × 6, 3 × 8 and 5 × 5 against a Python memo over the bit mask (`peers/cram.py`,
//!   run as `python3`; target: a tenth of its time) and hand-written Rust doing the same
//!   (target: within 5×), with peak memory (4 × 6 is 0 by the half-turn strategy, which the
//!   search knows of every domino rule, as igsolve knows it of boards with both sides even;
//!   3 × 8 has as many cells and needs the search);
//! - Cram 5 × 6 (published value *2) once, with its time and memory;
//! - `outcome(cram(5, 6))`, one question of pruned search;
//! - Node Kayles on random graphs of 40 vertices and 60 edges (five fixed seeds);
//! - Cram 3 × 13, 4 × 9 and 5 × 7 (outcome and nimber) beside igsolve, the fastest dedicated
//!   Cram solver (Beling & Rogalski 2020), run as a program installed by
//!   `scripts/install-peers.sh` (target: within 5× its time), with both peaks of memory;
//! - Chomp 8 × 8, 10 × 10, 11 × 11 and 9 × 13 beside `igsolve chomp` likewise (the last two
//!   take igsolve about a second);
//! - the frontier (see [`frontier`]): half-blocked 7 × 7 Cram, and with `LOONY_BENCH_SLOW=1`
//!   `outcome(cram(5, 9))` and Node Kayles on 60 vertices and 90 edges, each within its limit;
//! - with `LOONY_BENCH_RECORDS=SECONDS`, the records (see [`records`]): Cram 6 × 7 and 7 × 7,
//!   resumed from run to run through their table files, beside igsolve with as much memory.
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
    run_within(src, Duration::MAX).expect("bench program runs")
}

/// Raises `flag` (as Ctrl-C does) once `limit` has passed, unless the flag it returns is
/// raised first (the run is done; then a save after it is not stopped).
fn stop_after(
    limit: Duration,
    flag: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use std::sync::atomic::Ordering::Relaxed;
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watch = done.clone();
    std::thread::spawn(move || {
        let t = Instant::now();
        while t.elapsed() < limit {
            if watch.load(Relaxed) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        flag.store(true, Relaxed);
    });
    done
}

/// [`run`] stopped after `limit` (as Ctrl-C stops it): `None` if it did not finish in time.
fn run_within(src: &str, limit: Duration) -> Option<(String, Duration)> {
    let src = src.to_string();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = Interp::new();
            interp.cx.limits.budget = usize::MAX / 4;
            let done = stop_after(limit, interp.cx.limits.interrupt.clone());
            let mut out = String::new();
            let t = Instant::now();
            let r = interp.run("bench.cgt", &src, &mut |s| out = s);
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            r.ok().map(|()| (out, t.elapsed()))
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

/// Peak memory of `f` in MB: the larger of the peak resident memory above what the process
/// held before (where Linux tells; memory freed earlier and reused does not show there) and
/// the peak of the bytes Loony's allocator counts in use, sampled every millisecond.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    let base = status_bytes("VmRSS:");
    let reset = reset_peak();
    let heap = Sampler::start(|| Some(loony::memory::in_use() as u64));
    let out = f();
    let heap = heap.stop();
    let peak = status_bytes("VmHWM:");
    let rss = match (reset, base, peak) {
        (true, Some(b), Some(p)) => Some(p.saturating_sub(b)),
        _ => None,
    };
    (out, rss.max(Some(heap)).map(|b| b / 1_000_000))
}

/// The largest value a reading gives, read every millisecond on its own thread until stopped.
struct Sampler {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<u64>,
}

impl Sampler {
    fn start(read: impl Fn() -> Option<u64> + Send + 'static) -> Sampler {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut most = 0;
            while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                most = most.max(read().unwrap_or(0));
                std::thread::sleep(Duration::from_millis(1));
            }
            most.max(read().unwrap_or(0))
        });
        Sampler { stop, thread }
    }

    fn stop(self) -> u64 {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.join().expect("the sampler does not panic")
    }
}

/// A memory figure (`VmHWM:`, the peak resident memory) of process `pid`, in bytes. It is
/// the peak of the program the process runs now: `exec` starts it afresh, where `wait4`'s
/// `ru_maxrss` keeps the peak of the process before `exec` (a copy of this one's).
fn peak_of_pid(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn mb(m: Option<u64>) -> String {
    m.map_or("?".into(), |m| format!("{m} MB"))
}

/// Hand-written Rust for Cram, as a researcher writes it first: the free cells as a bit
/// mask, a memo over the whole mask (a fast hash), the mex of the options' values.
fn cram_by_hand(rows: usize, cols: usize) -> (u32, usize) {
    let moves = cram_moves(rows, cols);
    let mut memo = FxHashMap::default();
    let v = grundy((1u64 << (rows * cols)) - 1, &moves, &mut memo);
    (v, memo.len())
}

/// Cram's moves on a `rows × cols` board: a mask of two adjacent cells each.
fn cram_moves(rows: usize, cols: usize) -> Vec<u64> {
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
    moves
}

/// The nimber of the free cells `free`: the mex of its options', memoised by mask.
fn grundy(free: u64, moves: &[u64], memo: &mut FxHashMap<u64, u32>) -> u32 {
    if let Some(&v) = memo.get(&free) {
        return v;
    }
    let mut seen = 0u64;
    for &m in moves {
        if free & m == m {
            let v = grundy(free ^ m, moves, memo);
            if v < 64 {
                seen |= 1 << v;
            }
        }
    }
    let v = seen.trailing_ones();
    memo.insert(free, v);
    v
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

/// igsolve's nimber of `game` (`cram`, `chomp`) on `rows × cols`, its wall time and its peak
/// resident memory (kB, sampled from `/proc` while it runs), or why it did not run.
fn in_igsolve(game: &str, rows: usize, cols: usize) -> Result<(u32, Duration, u64), String> {
    in_igsolve_within(game, rows, cols, &[], Duration::MAX).map(|r| r.expect("no time limit"))
}

/// [`in_igsolve`] with igsolve's `options` (`--tt_size 14`), killed after `limit`: `None`
/// if it did not finish by then.
fn in_igsolve_within(
    game: &str,
    rows: usize,
    cols: usize,
    options: &[&str],
    limit: Duration,
) -> Result<Option<(u32, Duration, u64)>, String> {
    use std::io::Read;
    let bin = igsolve()?;
    let t = Instant::now();
    let mut child = std::process::Command::new(bin)
        .args(options)
        .args([game, "-r", &rows.to_string(), "-c", &cols.to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("igsolve did not start: {e}"))?;
    let child_id = child.id();
    let peak = Sampler::start(move || peak_of_pid(child_id));
    let stopped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    if limit != Duration::MAX {
        let stopped = stopped.clone();
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            stopped.store(true, std::sync::atomic::Ordering::Relaxed);
            // SAFETY: a signal to the child this bench started (gone already is harmless).
            unsafe { libc::kill(child_id as i32, libc::SIGKILL) };
        });
    }
    let mut text = String::new();
    child
        .stdout
        .take()
        .expect("piped")
        .read_to_string(&mut text)
        .map_err(|e| format!("igsolve's output: {e}"))?;
    let status = child.wait().map_err(|e| format!("igsolve's exit: {e}"))?;
    let took = t.elapsed();
    let peak = peak.stop();
    if stopped.load(std::sync::atomic::Ordering::Relaxed) && !status.success() {
        return Ok(None);
    }
    if !status.success() {
        return Err(format!("igsolve failed: {text}"));
    }
    let value = text
        .lines()
        .find_map(|l| l.strip_prefix("Nimber of initial position: "))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| format!("unexpected output {text:?}"))?;
    Ok(Some((value, took, peak / 1000)))
}

/// Cram beside igsolve: one question (`outcome`) and the whole nimber, each against igsolve's
/// nimber (it has no outcome-only mode).
fn against_igsolve() {
    // Published values (Uiterwijk's Cram tables; igsolve agrees).
    for (rows, cols, value) in [(3, 13, 2), (4, 9, 1), (5, 7, 1)] {
        let (theirs, their_kb) = match in_igsolve("cram", rows, cols) {
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
            "boards: Cram {rows}x{cols} = {out}: igsolve {theirs:.2?} ({} MB); Loony's search \
             outcome {ask:.2?} ({}, ratio {:.1}), nimber {val:.2?} ({}, ratio {:.1}) (target <= 5)",
            their_kb / 1000,
            mb(ask_mb),
            ratio(ask),
            mb(val_mb),
            ratio(val),
        );
    }
}

/// Chomp (`std/chomp`, a ruleset over boards that does not split, its bites found on bit
/// masks and valued by the plain memo) beside `igsolve chomp`, on rectangles igsolve solves
/// in milliseconds up to about a second: every rectangle but 1 × 1 is a first-player win, so
/// the value checked is igsolve's nimber.
fn chomp_against_igsolve() {
    for (rows, cols) in [(8, 8), (10, 10), (11, 11), (9, 13)] {
        let (value, theirs, their_kb) = match in_igsolve("chomp", rows, cols) {
            Ok(r) => r,
            Err(why) => {
                println!("boards: Chomp {rows}x{cols}: igsolve not run: {why}");
                continue;
            }
        };
        let src = format!("import \"std/chomp\"\nchomp({rows}, {cols})\n");
        let ((out, took), peak) = peak_of(|| run(&src));
        assert_eq!(out, nim(value), "Chomp {rows} x {cols} beside igsolve");
        println!(
            "boards: Chomp {rows}x{cols} = {out}: igsolve {theirs:.2?} ({} MB); Loony {took:.2?} \
             ({}, ratio {:.0}) (target <= 5)",
            their_kb / 1000,
            mb(peak),
            took.as_secs_f64() / theirs.as_secs_f64().max(1e-9),
        );
    }
}

fn cram_src(rows: usize, cols: usize) -> String {
    format!("import \"std/cram\"\ncram({rows}, {cols})\n")
}

fn against_peers() {
    for (rows, cols) in [(4, 6), (3, 8), (5, 5)] {
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

/// Cram's nimber on the free cells `free` of a `rows × cols` board, by the hand-written memo.
fn cram_mask(rows: usize, cols: usize, free: u64) -> u32 {
    grundy(free, &cram_moves(rows, cols), &mut FxHashMap::default())
}

/// The issue's frontier: 7 × 7 Cram boards with about half their cells blocked (each
/// checked against the hand-written memo; target: under a minute each) always; with
/// `LOONY_BENCH_SLOW=1` also `outcome(cram(5, 9))` (target: under two minutes) and Node
/// Kayles on random graphs of 60 vertices and 90 edges (target: under a minute each), each
/// stopped at its target's limit and reported as not done if it ran past it.
fn frontier() {
    let mut seed = 0x5eed_u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    for board in 1..=10 {
        let mut free = (1u64 << 49) - 1;
        while free.count_ones() > 25 {
            free &= !(1 << (next() % 49));
        }
        let picture: Vec<String> = (0..7)
            .map(|r| {
                (0..7)
                    .map(|c| {
                        if free >> (r * 7 + c) & 1 == 1 {
                            '.'
                        } else {
                            '#'
                        }
                    })
                    .collect()
            })
            .collect();
        let src = format!(
            "import \"std/cram\"\ncram_board(board(\"{}\"))\n",
            picture.join("|")
        );
        let want = cram_mask(7, 7, free);
        match run_within(&src, Duration::from_secs(60)) {
            Some((out, took)) => {
                assert_eq!(out, nim(want), "half-blocked 7 x 7 board {board}");
                println!("boards: Cram 7x7 half blocked (board {board}) = {out} in {took:.2?}");
            }
            None => println!("boards: Cram 7x7 half blocked (board {board}): not done in 60 s"),
        }
    }
    if std::env::var_os("LOONY_BENCH_SLOW").is_none() {
        println!("boards: LOONY_BENCH_SLOW=1 for cram(5, 9) and Node Kayles 60/90");
        return;
    }
    let src = "import \"std/cram\"\noutcome(cram(5, 9))\n";
    match peak_of(|| run_within(src, Duration::from_secs(120))) {
        (Some((out, took)), peak) => {
            // 5 × 9 Cram is *1, a first-player win: igsolve's nimber (`igsolve cram -r 5 -c 9`,
            // 125 s and 8 GB on this machine, 2026-12-06). Both sides are odd, so no symmetry
            // strategy settles it.
            assert_eq!(out, "N");
            println!(
                "boards: outcome(cram(5, 9)) = N in {took:.2?} ({})",
                mb(peak)
            );
        }
        (None, peak) => println!(
            "boards: outcome(cram(5, 9)): not done in 120 s ({})",
            mb(peak)
        ),
    }
    for seed in 1..=6 {
        let edges = random_graph(60, 90, seed);
        let shown: Vec<String> = edges.iter().map(|(a, b)| format!("({a}, {b})")).collect();
        let src = format!(
            "import \"std/node_kayles\"\noutcome(node_kayles(60, [{}]))\n",
            shown.join(", ")
        );
        match peak_of(|| run_within(&src, Duration::from_secs(60))) {
            (Some((out, took)), peak) => println!(
                "boards: Node Kayles 60 vertices 90 edges (seed {seed}): {out} in {took:.2?} ({})",
                mb(peak)
            ),
            (None, peak) => println!(
                "boards: Node Kayles 60 vertices 90 edges (seed {seed}): not done in 60 s ({})",
                mb(peak)
            ),
        }
    }
}

/// The published records, with `LOONY_BENCH_RECORDS=SECONDS` (a slow benchmark, never CI):
/// `nimber(cram(6, 7))` (*5) and `nimber(cram(7, 7))` (*1), each for at most SECONDS under a
/// memory budget of `LOONY_BENCH_RECORD_GB` (14 unless set), its table in
/// `target/records/cramRxC.tbl` (saved every ten minutes and at the stop, so that each run
/// resumes where the last stopped), and then igsolve with a table of as many GB for as long.
fn records() {
    let Some(secs) = std::env::var("LOONY_BENCH_RECORDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    else {
        println!("boards: LOONY_BENCH_RECORDS=SECONDS for cram(6, 7) and cram(7, 7)");
        return;
    };
    let gb: u64 = std::env::var("LOONY_BENCH_RECORD_GB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(14);
    let limit = Duration::from_secs(secs);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/records");
    std::fs::create_dir_all(dir).expect("target/records");
    let dir = std::fs::canonicalize(dir).expect("target/records");
    let dir = dir.display();
    // Published values (Lemoine & Viennot's table; the issue quotes them).
    for (rows, cols, value) in [(6, 7, 5), (7, 7, 1)] {
        let file = format!("{dir}/cram{rows}x{cols}.tbl");
        let src = format!("import \"std/cram\"\nnimber(cram({rows}, {cols}))\n");
        match peak_of(|| run_record(&src, &file, gb << 30, limit)) {
            (Ok(Some((out, took))), peak) => {
                assert_eq!(out, value.to_string(), "Cram {rows} x {cols}");
                println!(
                    "boards: Cram {rows}x{cols} = *{value} in {took:.2?} this run ({}; {file})",
                    mb(peak)
                );
            }
            (Ok(None), peak) => println!(
                "boards: Cram {rows}x{cols}: not done in {secs} s ({}); its table is saved in \
                 {file}, and the next run resumes it",
                mb(peak)
            ),
            (Err(e), _) => println!("boards: Cram {rows}x{cols}: {e}"),
        }
        let tt = gb.to_string();
        match in_igsolve_within("cram", rows, cols, &["--tt_size", &tt], limit) {
            Ok(Some((v, took, kb))) => println!(
                "boards: Cram {rows}x{cols}: igsolve --tt_size {gb} = *{v} in {took:.2?} ({} MB)",
                kb / 1000
            ),
            Ok(None) => {
                println!("boards: Cram {rows}x{cols}: igsolve --tt_size {gb}: not done in {secs} s")
            }
            Err(why) => println!("boards: Cram {rows}x{cols}: igsolve not run: {why}"),
        }
    }
}

/// [`run_within`] under `--table FILE` and a memory budget of `memory` bytes: the table file
/// is read first, saved every ten minutes and at the end (also when the limit stops it).
fn run_record(
    src: &str,
    file: &str,
    memory: u64,
    limit: Duration,
) -> Result<Option<(String, Duration)>, String> {
    let (src, file) = (src.to_string(), file.to_string());
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = Interp::new();
            interp.cx.limits.budget = usize::MAX / 4;
            interp.cx.limits.memory = usize::try_from(memory).unwrap_or(usize::MAX);
            interp
                .cx
                .open_table_file(&file)
                .map_err(|e| format!("{file}: {}", e.message()))?;
            interp.cx.save_every(Duration::from_secs(600));
            let done = stop_after(limit, interp.cx.limits.interrupt.clone());
            let mut out = String::new();
            let t = Instant::now();
            let r = interp.run("record.cgt", &src, &mut |s| out = s);
            let took = t.elapsed();
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            interp
                .cx
                .save_table_file(&mut interp.store)
                .map_err(|e| format!("saving {file}: {}", e.message()))?;
            Ok(r.ok().map(|()| (out, took)))
        })
        .expect("spawn")
        .join()
        .expect("join")
}

fn bench(c: &mut Criterion) {
    records();
    frontier();
    against_peers();
    against_igsolve();
    chomp_against_igsolve();
    let mut g = c.benchmark_group("boards");
    g.sample_size(10);
    g.bench_function("cram 3x8", |b| b.iter(|| run(&cram_src(3, 8))));
    g.bench_function("cram 3x8 by hand", |b| b.iter(|| cram_by_hand(3, 8)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
