//! `loony sweep`: a census over a family of games, one child process a job, one JSON line a
//! result, sharded by code so that any scheduler (GNU parallel, Slurm arrays) can spread it.
//!
//! - `family`: the codes of `octal:D`, `hex:D`, `subtraction:MAX:K`, `@FILE`, and the shards;
//! - `job`: one task on one game in a child `loony`, with its time and memory limits;
//! - `lines`: the output file, `--resume`, `merge` and `report`.

pub mod family;
pub mod job;
pub mod lines;

use serde_json::Value;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

/// The version every line carries (merge refuses to mix versions).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(clap::Parser)]
#[command(
    name = "loony sweep",
    about = "Runs a task on every game of a family, one JSON line a game",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
    /// octal:D, hex:D, subtraction:MAX:K, @FILE (one heap code a line), cram:ROWS:COLS (each
    /// N or A-B) or node-kayles:N:M:SEEDS (random graphs of N vertices and M edges)
    family: Option<String>,
    /// periodicity[:HEAPS], quotient[:HEAP] or misere-outcomes[:HEAPS] for heap families;
    /// value, outcome or misere-outcome for board and graph families
    #[arg(long)]
    task: Option<String>,
    /// This machine's share, I/N (0 ≤ I < N), by a hash of each code
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Append the lines to this file (stdout without it)
    #[arg(long, value_name = "FILE.jsonl")]
    out: Option<String>,
    /// Skip the codes already in --out
    #[arg(long, requires = "out")]
    resume: bool,
    /// Jobs at once [default: the cores]
    #[arg(long)]
    jobs: Option<usize>,
    /// Time limit of one job, e.g. 60s, 5m
    #[arg(long, default_value = "60s", value_parser = duration)]
    job_time: Duration,
    /// Memory budget of one job, e.g. 2G
    #[arg(long, default_value = "2G", value_parser = size)]
    job_memory: usize,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Joins shards' lines: checks version and task agree, drops duplicates, reports missing
    /// codes (on stderr), writes the lines sorted by code to stdout
    Merge { files: Vec<String> },
    /// A table of a sweep's lines, sorted by code, with counts by status
    Report {
        file: String,
        /// CSV instead of Markdown
        #[arg(long)]
        csv: bool,
    },
}

fn duration(s: &str) -> Result<Duration, String> {
    let (n, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = n
        .parse()
        .map_err(|_| format!("`{s}` is not a duration like 60s or 5m"))?;
    Ok(Duration::from_secs(match unit {
        "" | "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        _ => return Err(format!("`{s}` is not a duration like 60s or 5m")),
    }))
}

fn size(s: &str) -> Result<usize, String> {
    loony_core::memory::parse_size(s).ok_or_else(|| format!("`{s}` is not a size like 2G"))
}

/// `loony sweep ARGS`: `args` without the program name and `sweep`.
pub fn main(args: Vec<std::ffi::OsString>) -> ExitCode {
    let cli: Cli = match crate::parse_subcommand("sweep", args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let r = match cli.command {
        Some(Sub::Merge { files }) => lines::merge(&files),
        Some(Sub::Report { file, csv }) => lines::report(&file, csv),
        None => sweep(&cli),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            let _ = writeln!(std::io::stderr(), "error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn sweep(cli: &Cli) -> Result<(), String> {
    let family = cli
        .family
        .as_deref()
        .ok_or("a family is needed, e.g. octal:3")?;
    let task = job::Task::parse(cli.task.as_deref().ok_or("--task is needed")?)?;
    let (i, n) = match &cli.shard {
        None => (0, 1),
        Some(s) => s
            .split_once('/')
            .and_then(|(i, n)| Some((i.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
            .filter(|&(i, n)| n >= 1 && i < n)
            .ok_or_else(|| format!("--shard {s}: expected I/N with 0 ≤ I < N"))?,
    };
    let mut games = family::games(family).map_err(|e| e.to_string())?;
    if let Some(g) = games.first()
        && g.is_heap() != task.on_heaps()
    {
        return Err(format!(
            "the task `{}` does not apply to the family `{family}`: {}",
            task.name(),
            job::TASKS
        ));
    }
    games.retain(|g| family::in_shard(&g.code, i, n));
    let mut out: Box<dyn Write> = match &cli.out {
        Some(path) => {
            let done = if cli.resume {
                lines::finished(path, &task.name())?
            } else {
                Default::default()
            };
            games.retain(|g| !done.contains(&g.code));
            Box::new(lines::open_for_append(path, cli.resume)?)
        }
        None => Box::new(std::io::stdout()),
    };
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the loony binary: {e}"))?;
    let jobs = cli
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let limits = job::Limits {
        time: cli.job_time,
        memory: cli.job_memory,
    };
    let total = games.len();
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games (eta {eta}) {msg}")
        {
            b.set_style(style.progress_chars("=> "));
        }
        b
    });
    let games = Arc::new(games);
    let next = Arc::new(AtomicUsize::new(0));
    let (send, recv) = mpsc::channel::<serde_json::Map<String, Value>>();
    let workers: Vec<_> = (0..jobs.min(total.max(1)))
        .map(|_| {
            let (games, next, send, exe, task) = (
                games.clone(),
                next.clone(),
                send.clone(),
                exe.clone(),
                task.clone(),
            );
            std::thread::spawn(move || {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(g) = games.get(k) else { break };
                    if send.send(job::run(&exe, &task, g, limits)).is_err() {
                        break;
                    }
                }
            })
        })
        .collect();
    drop(send);
    let mut written = 0usize;
    let mut failure = None;
    for mut line in recv {
        line.insert("task".into(), Value::String(task.name()));
        line.insert("family".into(), Value::String(family.to_string()));
        line.insert("loony_version".into(), Value::String(VERSION.into()));
        // One write of a whole line, flushed: a killed sweep loses only the jobs in flight.
        let mut text = serde_json::to_string(&Value::Object(line)).map_err(|e| e.to_string())?;
        text.push('\n');
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            failure = Some(format!("cannot write the results: {e}"));
            // Stop handing out jobs; the ones running finish and are dropped.
            next.store(usize::MAX / 2, Ordering::Relaxed);
            break;
        }
        written += 1;
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    for w in workers {
        let _ = w.join();
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(f) = failure {
        return Err(f);
    }
    debug_assert_eq!(written, total);
    Ok(())
}
