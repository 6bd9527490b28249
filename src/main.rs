//! The `loony` command: REPL, script runner, and `-e` for a source string.

use clap::Parser;
use loony::diag::{Error, Files, guard};
use loony::eval::Interp;
use loony::repl::error::SessionError;
use loony::repl::{self, Reply, Session};
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

/// Every allocation is counted, so the session memory budget holds (`loony::memory`).
#[global_allocator]
static GLOBAL: loony::memory::Counting = loony::memory::Counting;

#[derive(Parser)]
#[command(
    name = "loony",
    version,
    about = "A language, interpreter and REPL for impartial combinatorial games",
    after_help = repl::commands_help()
)]
struct Cli {
    /// A .cgt script to run (without one, the REPL starts)
    file: Option<String>,
    /// Run this source text instead of a file (it may start with `-`: -e '-*3')
    #[arg(
        short = 'e',
        long = "eval",
        value_name = "SOURCE",
        conflicts_with = "file",
        allow_hyphen_values = true
    )]
    source: Option<String>,
    /// Print moon, inf and -inf instead of ☾, ∞ and ∞̄, in results, explanations and
    /// diagnostics [default: off]
    #[arg(long)]
    ascii: bool,
    /// How many ruleset positions one query may explore, and how many games one misère
    /// computation may create (N ≥ 1)
    #[arg(
        long,
        value_name = "N",
        default_value_t = loony::eval::DEFAULT_BUDGET,
        value_parser = repl::parse_budget,
        allow_negative_numbers = true
    )]
    budget: usize,
    /// The session's memory budget, e.g. 4G or 512M, stack included [default: half of the
    /// machine's memory, at most half of what ulimit -v, ulimit -d or the cgroup leave]
    #[arg(long, value_name = "SIZE", value_parser = memory_size)]
    memory: Option<usize>,
    /// Print each result as JSON (sequences as {"start": n, "values": [...]}, none as null) and
    /// each error as a JSON object on stderr, for pipelines [default: off]
    #[arg(long)]
    json: bool,
    /// Print each input (`> input`) before its result, as a transcript [default: off]
    #[arg(long)]
    echo: bool,
    /// Pruned search's table file: read at start if it exists (its rulesets loaded as they are
    /// defined), written at exit, also when Ctrl-C stopped a script (save_table's format)
    #[arg(long, value_name = "FILE")]
    table: Option<String>,
    /// With --table, also save the table every SECONDS while a search runs, so that a process
    /// killed without warning (kill -9, a lost machine) loses at most that much work; SIGTERM
    /// (a batch system's time limit) saves at once, as Ctrl-C does [default: 600]
    #[arg(long, value_name = "SECONDS", requires = "table",
          value_parser = clap::value_parser!(u64).range(1..))]
    save_every: Option<u64>,
    /// Explain a diagnostic code (E0110, W0001) at length, then exit
    #[arg(long, value_name = "CODE", conflicts_with_all = ["file", "source"])]
    explain: Option<String>,
}

/// The interpreter checks how much of its stack is left before recursing deeper (see
/// `eval::stack`), so this size only decides how deep a computation may go before it ends in
/// a diagnostic.
const STACK: usize = 4 << 30;

/// Smaller stacks to fall back on when the process may not reserve [`STACK`] (`ulimit -v`).
const SMALLER_STACKS: [usize; 3] = [1 << 30, 256 << 20, 64 << 20];

fn main() -> ExitCode {
    // `loony sweep …` runs a census, `loony kernel …` is the Jupyter kernel and `loony lsp` the
    // language server; a file of any of these names in the working folder is still a script,
    // so a subcommand never changes how a file argument is read.
    let mut args = std::env::args_os().skip(1);
    let first = args.next();
    let subcommand = |name: &str| {
        first.as_ref().is_some_and(|a| a == name) && !std::path::Path::new(name).exists()
    };
    if subcommand("sweep") {
        return loony::sweep::main(args.collect());
    }
    if subcommand("lsp") {
        let stacks: Vec<usize> = std::iter::once(STACK).chain(SMALLER_STACKS).collect();
        return loony::lsp::main(args.collect(), &stacks);
    }
    if subcommand("kernel") {
        let stacks: Vec<usize> = std::iter::once(STACK).chain(SMALLER_STACKS).collect();
        return loony::kernel::main(args.collect(), &stacks);
    }
    for size in std::iter::once(STACK).chain(SMALLER_STACKS) {
        let cli = Cli::parse();
        loony::memory::set_aside(size);
        let worker = std::thread::Builder::new()
            .name("loony".into())
            .stack_size(size)
            .spawn(move || start(cli, size));
        if let Ok(h) = worker {
            return match h.join() {
                Ok(code) => code,
                Err(_) => {
                    say_err("error[E0901]: internal error: the interpreter thread failed\n");
                    ExitCode::FAILURE
                }
            };
        }
    }
    say_err(
        "error[E0901]: internal error: the interpreter thread could not start, not even on a \
         64 MiB stack\n",
    );
    ExitCode::FAILURE
}

/// The interpreter thread, on a stack of `size`: says so when it is smaller than asked for,
/// refuses a `--memory` past what the process may use, and runs.
fn start(cli: Cli, size: usize) -> ExitCode {
    use loony::memory::{hard_limit, show_size};
    if size < STACK {
        say_err(&format!(
            "warning: the address-space limit leaves no room for the interpreter's {} stack; it \
             runs on {}, so deep recursions stop sooner\n",
            show_size(STACK),
            show_size(size)
        ));
    }
    if let (Some(m), Some((hard, what))) = (cli.memory, hard_limit())
        && m > hard
    {
        say_err(&format!(
            "error: --memory {} is more than this process may use: {what} leaves {} for Loony's \
             values\n",
            show_size(m),
            show_size(hard)
        ));
        return ExitCode::from(2);
    }
    run(cli)
}

/// Writes to stderr; a closed or full stderr is not a reason to fail differently.
fn say_err(s: &str) {
    let _ = std::io::stderr().lock().write_all(s.as_bytes());
}

fn memory_size(s: &str) -> Result<usize, String> {
    loony::memory::parse_size(s).ok_or_else(|| format!("`{s}` is not a size like 4G or 512M"))
}

fn configure(interp: &mut Interp, cli: &Cli) {
    if let Some(m) = cli.memory {
        interp.cx.limits.memory = m;
    }
    interp.cx.out.notation.ascii = cli.ascii;
    interp.cx.out.json = cli.json;
    interp.cx.set_progress(std::io::stderr().is_terminal());
    interp.cx.limits.budget = cli.budget;
}

/// An error on stderr: a diagnostic, or a JSON object under `--json`.
fn report(e: &Error, files: &Files, cli: &Cli, color: bool) {
    if cli.json {
        say_err(&format!("{}\n", e.to_json(files, cli.ascii)));
    } else {
        e.emit_stderr(files, color, cli.ascii);
    }
}

fn run(cli: Cli) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    if let Some(code) = &cli.explain {
        return explain(&cli, code);
    }
    if let Some(src) = &cli.source {
        return run_source(&cli, "<-e>", src.as_bytes().to_vec(), color);
    }
    if let Some(path) = &cli.file {
        return match std::fs::read(path) {
            Ok(src) => run_source(&cli, path, src, color),
            Err(e) => {
                report(&repl::io_error(path, &e), &Files::new(), &cli, color);
                ExitCode::FAILURE
            }
        };
    }
    let mut session = Session::new();
    configure(&mut session.interp, &cli);
    if let Err(code) = open_table(&mut session.interp, &cli, color) {
        return code;
    }
    let code = repl_session(&cli, &mut session, color);
    save_table(&mut session.interp, &cli, color, code)
}

/// The REPL on a terminal, or reading piped input.
fn repl_session(cli: &Cli, session: &mut Session, color: bool) -> ExitCode {
    if std::io::stdin().is_terminal() {
        let flag = session.interp.cx.limits.interrupt.clone();
        // Ctrl-C during a computation stops it; at the prompt rustyline handles the key itself.
        let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed));
        match repl::line_editor::run(session) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                say_err(&format!("error: {e}\n"));
                ExitCode::FAILURE
            }
        }
    } else {
        let stdin = std::io::stdin().lock();
        let lines = stdin.split(b'\n');
        let mut failed = false;
        let mut lost: Option<Error> = None;
        let mut out = std::io::stdout().lock();
        repl::run_byte_lines_while(session, lines, &mut |r| {
            let written = match r {
                Reply::Value(s) | Reply::Info(s) => {
                    put(&mut out, &s).and_then(|()| put(&mut out, "\n"))
                }
                Reply::Warning(w) => flush(&mut out).map(|()| say_err(&w)),
                Reply::Error(e) => {
                    failed = true;
                    flush(&mut out).map(|()| say_err(&e))
                }
                Reply::Quit => Ok(()),
            };
            // Output that cannot be written ends the session: nothing after it would be seen.
            written.map_err(|e| lost = Some(e)).is_ok()
        });
        let lost = lost.or_else(|| flush(&mut out).err());
        match lost {
            Some(e) => written_out(&e, &session.interp.cx.files, cli, color),
            None if failed => ExitCode::FAILURE,
            None => ExitCode::SUCCESS,
        }
    }
}

/// Writes to stdout; a failure is an error to report ([`SessionError::output`]).
fn put(out: &mut impl Write, s: &str) -> Result<(), Error> {
    out.write_all(s.as_bytes())
        .map_err(|e| Error::new(SessionError::output(&e)))
}

fn flush(out: &mut impl Write) -> Result<(), Error> {
    out.flush()
        .map_err(|e| Error::new(SessionError::output(&e)))
}

/// The exit for output that could not be written: quietly when the reader of a pipe went away
/// (as Unix tools end), otherwise the diagnostic and a failure.
fn written_out(e: &Error, files: &Files, cli: &Cli, color: bool) -> ExitCode {
    if matches!(e.kind(), Some(SessionError::ClosedPipe)) {
        return ExitCode::SUCCESS;
    }
    report(e, files, cli, color);
    ExitCode::FAILURE
}

/// `--explain CODE`: the code's explanation on stdout; an unknown code is an error (exit 2, as
/// for a bad command-line argument).
fn explain(cli: &Cli, code: &str) -> ExitCode {
    use loony::diag::explain;
    match explain::explain(code, loony::codes()) {
        Some((code, text)) => {
            let mut shown = explain::render(code, text, 88);
            if cli.ascii {
                shown = loony::game::display::ascii_text(&shown);
            }
            let mut out = std::io::stdout().lock();
            match put(&mut out, &shown).and_then(|()| flush(&mut out)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => written_out(&e, &Files::new(), cli, std::io::stderr().is_terminal()),
            }
        }
        None => {
            say_err(&format!(
                "error: `{code}` is not a Loony diagnostic code (codes look like E0110 or W0001; \
                 every diagnostic shows its code in brackets)\n"
            ));
            ExitCode::from(2)
        }
    }
}

/// `--table FILE`: reads the file (an error now, before anything could overwrite it) and
/// lets Ctrl-C stop the running statement rather than the process, so the table is saved
/// (a second Ctrl-C ends the process at once).
fn open_table(interp: &mut Interp, cli: &Cli, color: bool) -> Result<(), ExitCode> {
    let Some(path) = &cli.table else {
        return Ok(());
    };
    if let Err(e) = interp.cx.open_table_file(path) {
        report(&e, &interp.cx.files, cli, color);
        return Err(ExitCode::from(2));
    }
    interp.cx.save_every(std::time::Duration::from_secs(
        cli.save_every.unwrap_or(DEFAULT_SAVE_EVERY),
    ));
    let flag = interp.cx.limits.interrupt.clone();
    let presses = std::sync::atomic::AtomicUsize::new(0);
    // On a terminal the REPL sets its own handler (which also stops the statement).
    let _ = ctrlc::set_handler(move || {
        if presses.fetch_add(1, std::sync::atomic::Ordering::Relaxed) > 0 {
            std::process::exit(130);
        }
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    on_sigterm_stop(interp.cx.limits.interrupt.clone());
    Ok(())
}

/// `--save-every`'s default, in seconds.
const DEFAULT_SAVE_EVERY: u64 = 600;

/// The flag SIGTERM raises under `--table`.
static TERM_FLAG: std::sync::OnceLock<std::sync::Arc<std::sync::atomic::AtomicBool>> =
    std::sync::OnceLock::new();
static TERMS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Under `--table`, SIGTERM (what a batch system sends at a job's time limit, before
/// SIGKILL) stops the running statement as Ctrl-C does, so the table is saved; a second one
/// ends the process at once.
fn on_sigterm_stop(flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
    extern "C" fn on_term(_: libc::c_int) {
        // Only atomics here: a signal handler may do nothing else safely.
        if TERMS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) > 0 {
            // SAFETY: `_exit` is async-signal-safe and ends the process.
            unsafe { libc::_exit(143) };
        }
        if let Some(f) = TERM_FLAG.get() {
            f.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
    if TERM_FLAG.set(flag).is_err() {
        return;
    }
    // SAFETY: installs a handler that only touches atomics (see `on_term`).
    unsafe {
        libc::signal(libc::SIGTERM, on_term as *const () as libc::sighandler_t);
    }
}

/// `--table FILE` at the end: saves the table; a failure to write it fails the run.
fn save_table(interp: &mut Interp, cli: &Cli, color: bool, code: ExitCode) -> ExitCode {
    match interp.cx.save_table_file(&mut interp.store) {
        Ok(_) => code,
        Err(e) => {
            report(&e, &interp.cx.files, cli, color);
            ExitCode::FAILURE
        }
    }
}

fn run_source(cli: &Cli, name: &str, src: Vec<u8>, color: bool) -> ExitCode {
    let mut interp = Interp::new();
    configure(&mut interp, cli);
    if let Err(code) = open_table(&mut interp, cli, color) {
        return code;
    }
    // Warnings go to stderr as they are found; the program goes on.
    let (json, ascii) = (cli.json, cli.ascii);
    interp.cx.out.on_warning = Some(Box::new(move |w, files| {
        let _ = std::io::stdout().flush();
        if json {
            say_err(&format!("{}\n", w.to_json(files, ascii)));
        } else {
            w.emit_stderr(files, color, ascii);
        }
    }));
    let mut out = std::io::stdout().lock();
    let echo = cli.echo;
    // Each statement is guarded inside the run; this catches what lies outside (parsing).
    let r = guard::catch(|| {
        let file = interp.add_source(name, src)?;
        interp.run_file_echo(file, &mut |input, shown| {
            if echo {
                for line in input.lines() {
                    put(&mut out, &format!("> {line}\n"))?;
                }
            }
            match shown {
                Some(s) => put(&mut out, &s).and_then(|()| put(&mut out, "\n")),
                None => Ok(()),
            }
        })
    });
    let r = r.and_then(|()| flush(&mut out));
    let code = match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind::<SessionError>().is_some() => {
            written_out(&e, &interp.cx.files, cli, color)
        }
        Err(e) => {
            // The results before the error are out before its diagnostic.
            let _ = flush(&mut out);
            report(&e, &interp.cx.files, cli, color);
            ExitCode::FAILURE
        }
    };
    drop(out);
    save_table(&mut interp, cli, color, code)
}
