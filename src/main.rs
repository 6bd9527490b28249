//! The `loony` command: REPL, script runner, and `-e` for a source string.

use clap::Parser;
use loony::diag::guard;
use loony::eval::Interp;
use loony::repl::{self, Reply, Session};
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "loony",
    version,
    about = "A language, interpreter and REPL for impartial combinatorial games"
)]
struct Cli {
    /// A .cgt script to run (without one, the REPL starts)
    file: Option<String>,
    /// Run this source text instead of a file
    #[arg(
        short = 'e',
        long = "eval",
        value_name = "SOURCE",
        conflicts_with = "file"
    )]
    source: Option<String>,
    /// Print moon, inf and -inf instead of ☾, ∞ and ∞̄
    #[arg(long)]
    ascii: bool,
    /// How many ruleset positions one query may explore
    #[arg(long, value_name = "N")]
    budget: Option<usize>,
    /// The session's memory budget, e.g. 4G or 512M (default: half of the machine's memory)
    #[arg(long, value_name = "SIZE", value_parser = memory_size)]
    memory: Option<usize>,
    /// Print each result as JSON (sequences as {"start": n, "values": [...]}) for pipelines
    #[arg(long)]
    json: bool,
}

/// The interpreter checks how much of its stack is left before recursing deeper (see
/// `eval::stack`), so this size only decides how deep a computation may go before it ends in
/// a diagnostic.
const STACK: usize = 4 << 30;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let worker = std::thread::Builder::new()
        .name("loony".into())
        .stack_size(STACK)
        .spawn(move || run(cli));
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            say_err("error[E0901]: internal error: the interpreter thread failed\n");
            ExitCode::FAILURE
        }
    }
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
        interp.cx.memory = m;
    }
    interp.cx.notation.ascii = cli.ascii;
    interp.cx.json = cli.json;
    interp.cx.set_progress(std::io::stderr().is_terminal());
    if let Some(b) = cli.budget {
        interp.cx.budget = b.max(1);
    }
}

fn run(cli: Cli) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    if let Some(src) = &cli.source {
        return run_source(&cli, "<-e>", src.as_bytes().to_vec(), color);
    }
    if let Some(path) = &cli.file {
        return match std::fs::read(path) {
            Ok(src) => run_source(&cli, path, src, color),
            Err(e) => {
                let interp = Interp::new();
                say_err(&repl::io_error(path, &e).render_plain(&interp.cx.files));
                ExitCode::FAILURE
            }
        };
    }
    let mut session = Session::new();
    configure(&mut session.interp, &cli);
    if std::io::stdin().is_terminal() {
        let flag = session.interp.cx.interrupt.clone();
        // Ctrl-C during a computation stops it; at the prompt rustyline handles the key itself.
        let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed));
        match repl::line_editor::run(&mut session) {
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
        let mut out = std::io::stdout().lock();
        repl::run_byte_lines(&mut session, lines, &mut |r| match r {
            Reply::Value(s) | Reply::Info(s) => {
                let _ = writeln!(out, "{s}");
            }
            Reply::Error(e) => {
                failed = true;
                let _ = out.flush();
                say_err(&e);
            }
            Reply::Quit => {}
        });
        let _ = out.flush();
        if failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}

fn run_source(cli: &Cli, name: &str, src: Vec<u8>, color: bool) -> ExitCode {
    let mut interp = Interp::new();
    configure(&mut interp, cli);
    let mut out = std::io::stdout().lock();
    // Each statement is guarded inside `run_file`; this catches what lies outside (parsing).
    let r = guard::catch(|| {
        let file = interp.add_source(name, src)?;
        interp.run_file(file, &mut |s| {
            let _ = writeln!(out, "{s}");
        })
    });
    let _ = out.flush();
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            e.emit_stderr(&interp.cx.files, color);
            ExitCode::FAILURE
        }
    }
}
