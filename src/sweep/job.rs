//! One job of a sweep: a task on one game, run as a child `loony` process with its own time
//! limit and memory budget, so a job that hangs, crashes or grows is one line and the sweep
//! goes on.

use super::family::Game;
use crate::repl::error::OUTPUT;
use loony_core::diag::core_error::{INTERNAL, MEMORY_BUDGET};
use loony_theory::error::QUOTIENT_TOO_LARGE;
use serde_json::{Map, Value, json};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a sweep computes for each game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Task {
    /// Period, preperiod, certificate, the largest value seen and the first values; searched
    /// up to `heaps` (the language's default budget when `None`).
    Periodicity { heaps: Option<u64> },
    /// Order, |P|, presentation, period and preperiod; to heap `heap`, or until certified.
    Quotient { heap: Option<u64> },
    /// The misère outcomes of single heaps 0..=heaps.
    MisereOutcomes { heaps: u64 },
    /// A game's value (normal play), as the language prints it.
    Value,
    /// A game's outcome (normal play): pruned search asks one question of it.
    Outcome,
    /// A game's misère outcome.
    MisereOutcome,
}

/// The tasks, as the help and errors name them.
pub const TASKS: &str = "periodicity[:HEAPS], quotient[:HEAP] or misere-outcomes[:HEAPS] \
     (heap families); value, outcome or misere-outcome (board and graph families)";

/// How many first values a periodicity line keeps.
const FIRST_VALUES: u64 = 40;

impl Task {
    pub fn parse(s: &str) -> Result<Task, String> {
        let (name, arg) = match s.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (s, None),
        };
        let number = |a: Option<&str>| -> Result<Option<u64>, String> {
            a.map(|a| {
                a.parse::<u64>()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| format!("`{a}` is not a positive number of heaps"))
            })
            .transpose()
        };
        match name {
            "periodicity" => Ok(Task::Periodicity {
                heaps: number(arg)?,
            }),
            "quotient" => Ok(Task::Quotient { heap: number(arg)? }),
            "misere-outcomes" => Ok(Task::MisereOutcomes {
                heaps: number(arg)?.unwrap_or(100),
            }),
            "value" if arg.is_none() => Ok(Task::Value),
            "outcome" if arg.is_none() => Ok(Task::Outcome),
            "misere-outcome" if arg.is_none() => Ok(Task::MisereOutcome),
            _ => Err(format!("unknown task `{s}`: {TASKS}")),
        }
    }

    /// The task as lines name it (`periodicity:65536`).
    pub fn name(&self) -> String {
        match self {
            Task::Periodicity { heaps: None } => "periodicity".into(),
            Task::Periodicity { heaps: Some(h) } => format!("periodicity:{h}"),
            Task::Quotient { heap: None } => "quotient".into(),
            Task::Quotient { heap: Some(h) } => format!("quotient:{h}"),
            Task::MisereOutcomes { heaps } => format!("misere-outcomes:{heaps}"),
            Task::Value => "value".into(),
            Task::Outcome => "outcome".into(),
            Task::MisereOutcome => "misere-outcome".into(),
        }
    }

    /// Whether the task takes heap games (a heap code's game) or game values (a board's).
    pub fn on_heaps(&self) -> bool {
        matches!(
            self,
            Task::Periodicity { .. } | Task::Quotient { .. } | Task::MisereOutcomes { .. }
        )
    }

    /// The Loony program a job runs: one JSON result a line, read back by [`Task::result`].
    fn program(&self, g: &str) -> String {
        match self {
            Task::Periodicity { heaps } => {
                let budget = heaps.map_or(String::new(), |h| format!(", {h}"));
                format!(
                    "let p = periodicity({g}{budget})\np\n\
                     let s = nim_sequence({g}, p.checked_up_to)\n\
                     max([v for (n, v) in s])\n\
                     [v for (n, v) in s[0..min([len(s), {FIRST_VALUES}])]]"
                )
            }
            Task::Quotient { heap } => {
                let bound = heap.map_or(String::new(), |h| format!(", {h}"));
                format!(
                    "let q = quotient({g}{bound})\n\
                     [q.order, len(q.p_portion), q.presentation, q.period, q.preperiod, \
                     q.certified, q.certified_at, q.heap, q.p_portion, q.name]"
                )
            }
            Task::MisereOutcomes { heaps } => {
                format!("[misere_outcome({g}(n)) for n in 0..={heaps}]")
            }
            Task::Value => g.to_string(),
            Task::Outcome => format!("outcome({g})"),
            Task::MisereOutcome => format!("misere_outcome({g})"),
        }
    }

    /// The `result` object from the program's output lines.
    fn result(&self, lines: &[Value]) -> Option<Value> {
        match self {
            Task::Periodicity { .. } => {
                let [p, largest, first] = lines else {
                    return None;
                };
                let mut m = p.as_object()?.clone();
                m.insert("largest_value".into(), largest.clone());
                m.insert("first_values".into(), first.clone());
                Some(Value::Object(m))
            }
            Task::Quotient { .. } => {
                let [Value::Array(v)] = lines else {
                    return None;
                };
                let keys = [
                    "order",
                    "p_count",
                    "presentation",
                    "period",
                    "preperiod",
                    "certified",
                    "certified_at",
                    "heap",
                    "p_portion",
                    "name",
                ];
                let m: Map<String, Value> = keys
                    .iter()
                    .zip(v)
                    .map(|(k, x)| (k.to_string(), x.clone()))
                    .collect();
                Some(Value::Object(m))
            }
            Task::MisereOutcomes { .. } => {
                let [outcomes] = lines else {
                    return None;
                };
                Some(json!({ "outcomes": outcomes }))
            }
            Task::Value | Task::Outcome | Task::MisereOutcome => {
                let [v] = lines else {
                    return None;
                };
                let key = match self {
                    Task::Value => "value",
                    Task::Outcome => "outcome",
                    _ => "misere_outcome",
                };
                Some(json!({ key: v }))
            }
        }
    }
}

/// A job's limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Duration,
    pub memory: usize,
}

/// Runs `task` on `game` in a child process: the line's fields but the version and task.
pub fn run(exe: &std::path::Path, task: &Task, game: &Game, limits: Limits) -> Map<String, Value> {
    let started = Instant::now();
    let mut out = Map::new();
    out.insert("code".into(), Value::String(game.code.clone()));
    let child = Command::new(exe)
        .args(["--json", "--memory", &limits.memory.to_string(), "-e"])
        .arg(match game.import {
            Some(m) => format!("import \"{m}\"\n{}", task.program(&game.expr)),
            None => task.program(&game.expr),
        })
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            return finish(
                out,
                "error",
                None,
                Some((
                    OUTPUT.code(),
                    format!("cannot start `{}`: {e}", exe.display()),
                )),
                started,
                0,
            );
        }
    };
    // Both pipes are drained while the child runs, so a large result cannot block it.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let pid = child.id() as libc::pid_t;
    let (status, peak) = wait(pid, started, limits.time);
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let Some(code) = status else {
        return finish(out, "timeout", None, None, started, peak);
    };
    if code == 0 {
        let lines: Result<Vec<Value>, _> = stdout.lines().map(serde_json::from_str).collect();
        return match lines.ok().and_then(|l| task.result(&l)) {
            Some(r) => finish(out, "ok", Some(r), None, started, peak),
            None => finish(
                out,
                "error",
                None,
                Some((
                    INTERNAL.code(),
                    format!("unexpected output: {}", clip(&stdout)),
                )),
                started,
                peak,
            ),
        };
    }
    // The diagnostic: one JSON object on stderr, its code deciding the status.
    let diag: Option<Value> = stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v.get("code").is_some());
    let (code, message) = match &diag {
        Some(d) => (
            d["code"].as_str().unwrap_or(INTERNAL.code()).to_string(),
            d["message"].as_str().unwrap_or("").to_string(),
        ),
        None => (
            INTERNAL.code().to_string(),
            format!("exit status {code}: {}", clip(&stderr)),
        ),
    };
    // The memory budget, or a quotient's ceilings, which follow it.
    let status = if code == MEMORY_BUDGET.code() || code == QUOTIENT_TOO_LARGE.code() {
        "memory"
    } else {
        "error"
    };
    finish(out, status, None, Some((&code, message)), started, peak)
}

fn clip(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn finish(
    mut out: Map<String, Value>,
    status: &str,
    result: Option<Value>,
    error: Option<(&str, String)>,
    started: Instant,
    peak: u64,
) -> Map<String, Value> {
    out.insert("status".into(), Value::String(status.into()));
    out.insert("result".into(), result.unwrap_or(Value::Null));
    out.insert(
        "error".into(),
        error.map_or(Value::Null, |(c, m)| json!({ "code": c, "message": m })),
    );
    let secs = (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0;
    out.insert("seconds".into(), json!(secs));
    out.insert("peak_bytes".into(), json!(peak));
    out
}

/// Waits for the child, killing it at `limit`: its exit code (`None` if killed for time) and
/// its peak resident bytes.
fn wait(pid: libc::pid_t, started: Instant, limit: Duration) -> (Option<i32>, u64) {
    let mut killed = false;
    loop {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid out-parameter for wait4.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if killed { 0 } else { libc::WNOHANG };
        // SAFETY: wait4 on our own child with valid pointers.
        let r = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if r == pid {
            let peak = usage.ru_maxrss.max(0) as u64 * 1024;
            if killed {
                return (None, peak);
            }
            let code = if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else {
                // Killed by a signal (a crash, or the system's out-of-memory killer).
                128 + libc::WTERMSIG(status)
            };
            return (Some(code), peak);
        }
        if r < 0 {
            return (Some(-1), 0);
        }
        if started.elapsed() >= limit {
            // SAFETY: signalling our own child, which has not been reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed = true;
            continue;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
