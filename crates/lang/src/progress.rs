//! Progress bars for long computations, drawn on stderr (only when a terminal watches it).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Where a front end without a terminal shows bars (the notebook kernel): called with a bar's
/// line each time it is drawn, and with `None` when it is cleared.
pub type Sink = Arc<dyn Fn(Option<&str>) + Send + Sync>;

/// Bars are drawn for the whole process, as stderr is the whole process's.
static SINK: OnceLock<Sink> = OnceLock::new();

/// Draws every bar of this process through `sink` instead of on stderr, from now on; `false`
/// when a sink was already set (the first stays).
pub fn draw_to(sink: Sink) -> bool {
    SINK.set(sink).is_ok()
}

/// How often a sink is sent a bar's line: a notebook needs no 20 frames a second.
const SINK_HZ: u8 = 4;

/// A one-line "terminal" that hands what is drawn on it to a [`Sink`].
struct SinkTerm {
    sink: Sink,
    line: Mutex<String>,
}

impl std::fmt::Debug for SinkTerm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SinkTerm")
    }
}

impl SinkTerm {
    fn line(&self) -> std::sync::MutexGuard<'_, String> {
        // A poisoned line is still a line.
        self.line.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl TermLike for SinkTerm {
    fn width(&self) -> u16 {
        100
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.write_str(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.line().push_str(s);
        Ok(())
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.line().clear();
        Ok(())
    }
    fn flush(&self) -> std::io::Result<()> {
        let line = self.line().trim_end().to_string();
        (self.sink)((!line.is_empty()).then_some(line.as_str()));
        Ok(())
    }
}

/// A bar of `len` steps; `template` is an indicatif template such as
/// `"{bar:40} {pos}/{len} heaps (eta {eta})"`. Bars and spinners are drawn in ASCII, so `--ascii`
/// holds on every terminal without the setting reaching each engine.
pub(super) fn bar(len: u64, template: &str) -> ProgressBar {
    let target = match SINK.get() {
        Some(sink) => ProgressDrawTarget::term_like_with_hz(
            Box::new(SinkTerm {
                sink: sink.clone(),
                line: Mutex::new(String::new()),
            }),
            SINK_HZ,
        ),
        None => ProgressDrawTarget::stderr(),
    };
    let b = ProgressBar::with_draw_target(Some(len), target);
    b.set_style(
        ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ")
            .tick_chars("-\\|/ "),
    );
    b
}

/// Off a terminal, where no bar is drawn, a long run writes a line to stderr now and then
/// (at most every [`log_every`]), so a log never sits silent for minutes.
pub(super) struct Log {
    what: String,
    started: std::time::Instant,
    last: std::cell::Cell<std::time::Instant>,
}

/// How often a long run writes a line off a terminal: 10 s, or `LOONY_LOG_EVERY` seconds
/// (a log that wants more, or a test that cannot wait).
pub(super) fn log_every() -> std::time::Duration {
    static EVERY: OnceLock<std::time::Duration> = OnceLock::new();
    *EVERY.get_or_init(|| {
        std::env::var("LOONY_LOG_EVERY")
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e6)
            .map_or(std::time::Duration::from_secs(10), |s| {
                std::time::Duration::from_secs_f64(s)
            })
    })
}

/// Milliseconds since the first call, the clock the lines of this process share.
fn now_ms() -> u64 {
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_millis() as u64
}

/// When any progress line was last written ([`now_ms`]): the watch of a statement stays
/// quiet while a run's own log speaks.
static LAST_LINE: AtomicU64 = AtomicU64::new(0);

impl Log {
    /// A log for a run of `what` (`"quotient of 0.07"`), starting now.
    pub(super) fn new(what: impl Into<String>) -> Log {
        let now = std::time::Instant::now();
        Log {
            what: what.into(),
            started: now,
            last: std::cell::Cell::new(now),
        }
    }

    /// Writes `what: at (N s)` if [`log_every`] has passed since the last line (or the start).
    pub(super) fn line(&self, at: impl FnOnce() -> String) {
        let now = std::time::Instant::now();
        if now.duration_since(self.last.get()) < log_every() {
            return;
        }
        self.last.set(now);
        LAST_LINE.store(now_ms(), Ordering::Relaxed);
        // Best effort: a closed stderr must not stop the computation.
        let _ = writeln!(
            std::io::stderr(),
            "{}: {} ({} s)",
            self.what,
            at(),
            self.started.elapsed().as_secs()
        );
    }
}

/// The watch over the statement being run, off a terminal: one that runs one and a half
/// times [`log_every`] with no other progress line (a large game's graph, a long loop) writes
/// `file:line: still running (N s, M MB resident; Ctrl-C stops it)` now and then, so a
/// script's log never sits silent. A thread of its own sees every kind of work, including
/// loops that poll no context.
pub struct Watch {
    state: Arc<WatchState>,
    /// The thread's line: dropping it (with the session) ends the thread at once, not after
    /// its nap (the language server makes a session per hover).
    quit: Option<std::sync::mpsc::Sender<()>>,
}

struct WatchState {
    /// When the statement began ([`now_ms`] + 1), or 0 while none runs.
    began: AtomicU64,
    place: Mutex<String>,
}

impl Default for Watch {
    fn default() -> Self {
        Watch {
            state: Arc::new(WatchState {
                began: AtomicU64::new(0),
                place: Mutex::new(String::new()),
            }),
            quit: None,
        }
    }
}

impl Watch {
    /// A statement at `place` (`script.cgt:3`) begins.
    pub fn begin(&mut self, place: String) {
        *self.state.place.lock().unwrap_or_else(|e| e.into_inner()) = place;
        self.state.began.store(now_ms() + 1, Ordering::Relaxed);
        if self.quit.is_none() {
            let (quit, wait) = std::sync::mpsc::channel();
            self.quit = Some(quit);
            let state = self.state.clone();
            // Without the thread, only the lines stop: the statement runs as before.
            let _ = std::thread::Builder::new()
                .name("loony-watch".into())
                .spawn(move || watch(&state, &wait));
        }
    }

    /// The statement ended.
    pub fn end(&self) {
        self.state.began.store(0, Ordering::Relaxed);
    }
}

fn watch(state: &WatchState, quit: &std::sync::mpsc::Receiver<()>) {
    let every = log_every();
    let nap = (every / 4).min(std::time::Duration::from_secs(1));
    // Ends when the session drops its sender.
    while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = quit.recv_timeout(nap) {
        let began = state.began.load(Ordering::Relaxed);
        let now = now_ms();
        // Half a period more than a run's own log waits, so the two do not take turns.
        let quiet = every.as_millis() as u64 * 3 / 2;
        if began == 0 || now + 1 < began + quiet || now < LAST_LINE.load(Ordering::Relaxed) + quiet
        {
            continue;
        }
        LAST_LINE.store(now, Ordering::Relaxed);
        let place = state
            .place
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let resident = resident_mb().map_or(String::new(), |mb| format!(", {mb} MB resident"));
        // Best effort, as every progress line.
        let ms = now + 1 - began;
        let secs = if ms < 10_000 {
            format!("{:.1}", ms as f64 / 1000.0)
        } else {
            (ms / 1000).to_string()
        };
        let _ = writeln!(
            std::io::stderr(),
            "{place}: still running ({secs} s{resident}; Ctrl-C stops it)"
        );
    }
}

/// The process's resident memory in MB, where `/proc` says (Linux).
fn resident_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// How a heap kernel's run shows how far it is: a bar on a terminal, else (for a run long
/// enough to watch) a [`Log`] line now and then, else nothing.
pub(super) enum Meter {
    Bar(indicatif::ProgressBar),
    Log(Log, u64),
    Quiet,
}

impl Meter {
    /// For a run of `heaps` heaps of `what` (`"rare_values of 4!.0"`), on a terminal or not.
    pub(super) fn heaps(terminal: bool, heaps: u64, what: impl FnOnce() -> String) -> Meter {
        match (terminal, heaps >= 200_000) {
            (_, false) => Meter::Quiet,
            (true, true) => Meter::Bar(bar(heaps, NIM_SEQUENCE)),
            (false, true) => Meter::Log(Log::new(what()), heaps),
        }
    }

    pub(super) fn set(&self, done: u64) {
        match self {
            Meter::Bar(b) => b.set_position(done),
            Meter::Log(log, total) => log.line(|| format!("{done} of {total} heaps")),
            Meter::Quiet => {}
        }
    }

    pub(super) fn finish(&self) {
        if let Meter::Bar(b) = self {
            b.finish_and_clear();
        }
    }
}

/// The bars Loony draws. A time is always labelled (`eta 12s` counts down, `elapsed 3s` up),
/// so two bars of one session never show an unlabelled number in the same place.
pub(super) const NIM_SEQUENCE: &str = "{bar:40} {pos}/{len} heaps (eta {eta})";
pub(super) const PERIODICITY: &str =
    "{bar:40} {pos}/{len} heaps searched for a period (elapsed {elapsed})";
pub(super) const TOP_ENTAILS: &str =
    "{bar:40} {percent_precise}% of Top Entails splits (eta {eta})";
pub(super) const QUOTIENT_TO: &str = "{bar:40} heap {pos}/{len}: {msg} (elapsed {elapsed})";
pub(super) const QUOTIENT: &str =
    "{spinner} heap {pos}: {msg}, until certified (elapsed {elapsed})";
pub(super) const PRUNED: &str = "{spinner} pruned search: {msg} (elapsed {elapsed})";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_time_is_labelled() {
        for t in [
            NIM_SEQUENCE,
            PERIODICITY,
            TOP_ENTAILS,
            QUOTIENT_TO,
            QUOTIENT,
            PRUNED,
        ] {
            assert!(ProgressStyle::with_template(t).is_ok(), "{t}");
            let times = t.matches("{eta}").count() + t.matches("{elapsed}").count();
            let labelled = t.matches("eta {eta}").count() + t.matches("elapsed {elapsed}").count();
            assert_eq!((times, labelled), (1, 1), "{t}");
        }
    }

    /// A heap run long enough to watch shows a bar on a terminal and logs off one; a short
    /// one shows nothing either way.
    #[test]
    fn a_long_heap_run_is_watched_on_a_terminal_or_not() {
        let what = || "rare_values of 4!.0".to_string();
        assert!(
            matches!(Meter::heaps(false, 1 << 20, what), Meter::Log(_, total) if total == 1 << 20)
        );
        assert!(matches!(Meter::heaps(true, 1 << 20, what), Meter::Bar(_)));
        assert!(matches!(Meter::heaps(false, 1000, what), Meter::Quiet));
        assert!(matches!(Meter::heaps(true, 1000, what), Meter::Quiet));
    }
}
