//! The `loony` command: REPL, script runner, and `-e` for a source string.

use clap::Parser;
use loony::diag::{Error, ErrorKind, Files};
use loony::eval::Interp;
use loony::repl::{self, Reply, Session};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

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
    /// Print each result as JSON (sequences as {"start": n, "values": [...]}, none as null) and
    /// each error as a JSON object on stderr, for pipelines [default: off]
    #[arg(long)]
    json: bool,
    /// Print each input (`> input`) before its result, as a transcript [default: off]
    #[arg(long)]
    echo: bool,
}

/// The interpreter's recursion is bounded (see `eval::MAX_DEPTH`); this stack is big enough for
/// that bound, so deep games end in an answer or a diagnostic, never a stack overflow.
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
            eprintln!("error: the interpreter thread failed");
            ExitCode::FAILURE
        }
    }
}

fn configure(interp: &mut Interp, cli: &Cli) {
    interp.cx.notation.ascii = cli.ascii;
    interp.cx.json = cli.json;
    interp.cx.set_progress(std::io::stderr().is_terminal());
    interp.cx.budget = cli.budget;
}

/// An error on stderr: a diagnostic, or a JSON object under `--json`.
fn report(e: &Error, files: &Files, cli: &Cli, color: bool) {
    if cli.json {
        eprintln!("{}", e.to_json(files, cli.ascii));
    } else {
        e.emit_stderr(files, color, cli.ascii);
    }
}

fn run(cli: Cli) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    if let Some(src) = &cli.source {
        return run_source(&cli, "<-e>", src, color);
    }
    if let Some(path) = &cli.file {
        return match std::fs::read_to_string(path) {
            Ok(src) => run_source(&cli, path, &src, color),
            Err(e) => {
                let e = Error::new(ErrorKind::Io {
                    path: path.clone(),
                    message: e.to_string(),
                });
                report(&e, &Files::new(), &cli, color);
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
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        }
    } else {
        let stdin = std::io::stdin();
        let lines = stdin.lines().map_while(Result::ok);
        let mut failed = false;
        let mut out = std::io::stdout().lock();
        repl::run_lines(&mut session, lines, &mut |r| match r {
            Reply::Value(s) | Reply::Info(s) => {
                let _ = writeln!(out, "{s}");
            }
            Reply::Error(e) => {
                failed = true;
                let _ = out.flush();
                eprint!("{e}");
            }
            Reply::Quit => {}
        });
        if failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}

fn run_source(cli: &Cli, name: &str, src: &str, color: bool) -> ExitCode {
    let mut interp = Interp::new();
    configure(&mut interp, cli);
    let mut out = std::io::stdout().lock();
    let echo = cli.echo;
    let r = interp.run_echo(name, src, &mut |input, s| {
        if echo {
            for line in input.lines() {
                let _ = writeln!(out, "> {line}");
            }
        }
        let _ = writeln!(out, "{s}");
    });
    let _ = out.flush();
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            report(&e, &interp.cx.files, cli, color);
            ExitCode::FAILURE
        }
    }
}
