//! The REPL core: a plain session API (text in, results and diagnostics out), driven by the
//! rustyline front end on a terminal and by a line reader for piped input and tests.

pub mod commands;
pub mod complete;
pub mod error;
pub mod help;
pub mod line_editor;

pub use commands::COMMANDS;
use error::SessionError;
use loony_core::diag::{Diagnose, Error, guard};
use loony_lang::Interp;
use loony_lang::error::EvalError;
use std::ops::Range;
use std::sync::atomic::Ordering;

/// One thing the session says back.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A result line, for stdout.
    Value(String),
    /// A rendered diagnostic, for stderr.
    Error(String),
    /// A rendered warning, for stderr (the input still ran).
    Warning(String),
    /// Informational text from a `:command`, for stdout.
    Info(String),
    Quit,
}

/// The REPL commands and the defaults, for `loony --help`.
pub fn commands_help() -> String {
    let mut s = String::from("REPL commands (without FILE or -e, or with input piped in):\n");
    for c in COMMANDS {
        s.push_str(&c.help_line());
    }
    s.push_str(&format!(
        "\nDefaults: --budget {}; Unicode output (--ascii for ASCII); plain text (--json for JSON).",
        loony_lang::DEFAULT_BUDGET
    ));
    s
}

/// A position budget as `:budget N` and `--budget N` take it: a whole number, at least 1.
pub fn parse_budget(s: &str) -> Result<usize, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("the budget must be at least 1".to_string()),
        Ok(n) => usize::try_from(n).map_err(|_| format!("the budget {n} is too large")),
        Err(_) => Err(format!(
            "the budget must be a whole number of positions (1 or more), not `{s}`"
        )),
    }
}

pub struct Session {
    pub interp: Interp,
    /// Diagnostics with ANSI colour codes (the notebook kernel's tracebacks); plain otherwise.
    pub ansi: bool,
    inputs: usize,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

impl Session {
    pub fn new() -> Self {
        Session {
            interp: Interp::new(),
            ansi: false,
            inputs: 0,
        }
    }

    /// True when `src` is an unfinished program (an open bracket, a dangling operator): the
    /// front end should read another line before evaluating.
    pub fn is_incomplete(src: &str) -> bool {
        !src.trim_start().starts_with(':')
            && matches!(loony_syntax::parse_program(src), Err(e) if e.is_incomplete(src))
    }

    /// Names a user may want completed: bindings, built-ins and keywords.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.interp.cx.globals.keys().cloned().collect();
        v.extend(loony_lang::catalog::names().map(str::to_string));
        v.extend(complete::KEYWORDS.iter().map(|s| s.to_string()));
        v.sort();
        v.dedup();
        v
    }

    /// What Tab can complete now: the names, and the fields of the records bound to names.
    pub fn completions(&self) -> complete::Completions {
        let fields = self
            .interp
            .cx
            .globals
            .iter()
            .filter_map(|(name, v)| match v {
                loony_lang::Value::Record(r) => {
                    Some((name.clone(), r.fields.iter().map(|(f, _)| *f).collect()))
                }
                _ => None,
            })
            .collect();
        complete::Completions {
            names: self.names(),
            fields,
        }
    }

    /// Runs one input (a program or a `:command`). A panic inside (a bug) becomes an
    /// internal-error diagnostic and the session goes on.
    pub fn eval(&mut self, input: &str) -> Vec<Reply> {
        let mut replies = Vec::new();
        let r = guard::catch(|| {
            replies = self.eval_input(input);
            Ok(())
        });
        if let Err(e) = r {
            replies.push(Reply::Error(self.render(&e)));
        }
        // Warnings (of a program or a `:load`ed file) go before the error that ended the
        // input, if any.
        let warnings: Vec<Reply> = std::mem::take(&mut self.interp.cx.out.warnings)
            .iter()
            .map(|w| Reply::Warning(self.render_warning(w)))
            .collect();
        let at = replies
            .iter()
            .position(|r| matches!(r, Reply::Error(_)))
            .unwrap_or(replies.len());
        replies.splice(at..at, warnings);
        self.interp
            .cx
            .limits
            .interrupt
            .store(false, Ordering::Relaxed);
        replies
    }

    /// A line of piped input that is not UTF-8 (the caller checked): a diagnostic naming the
    /// line (`number` counts the input's lines from 1).
    pub fn invalid_line(&mut self, number: usize, bytes: Vec<u8>) -> Reply {
        self.inputs += 1;
        let name = format!("<stdin:{number}>");
        let mut e = match self.interp.add_source(&name, bytes) {
            Err(e) => e,
            Ok(_) => unreachable!("the line is not UTF-8"),
        };
        if let Some(EvalError::InvalidUtf8 { line, .. }) = e.kind_mut() {
            *line = number;
        }
        Reply::Error(self.render(&e))
    }

    fn eval_input(&mut self, input: &str) -> Vec<Reply> {
        let trimmed = input.trim();
        if trimmed.starts_with(':') {
            let mut replies = self.command(trimmed);
            // Under `:ascii on` a command's own text (help, messages) is ASCII too.
            if self.interp.cx.out.notation.ascii {
                for r in &mut replies {
                    if let Reply::Info(s) = r {
                        *s = loony_core::game::display::ascii_text(s);
                    }
                }
            }
            return replies;
        }
        if trimmed.is_empty() {
            return Vec::new();
        }
        self.inputs += 1;
        let name = format!("<repl:{}>", self.inputs);
        let mut replies = Vec::new();
        let r = self
            .interp
            .run(&name, input, &mut |s| replies.push(Reply::Value(s)));
        if let Err(e) = r {
            replies.push(Reply::Error(self.render(&e)));
        }
        self.interp
            .cx
            .limits
            .interrupt
            .store(false, Ordering::Relaxed);
        replies
    }

    /// A diagnostic as the session shows it: ASCII under `:ascii on`, JSON under `--json`.
    pub fn render(&self, e: &Error) -> String {
        let cx = &self.interp.cx;
        if cx.out.json {
            format!("{}\n", e.to_json(&cx.files, cx.out.notation.ascii))
        } else if self.ansi {
            e.render_ansi(&cx.files, cx.out.notation.ascii)
        } else {
            e.render(&cx.files, cx.out.notation.ascii)
        }
    }

    /// A warning as the session shows it (ASCII, JSON as for errors).
    pub fn render_warning(&self, w: &loony_core::diag::Warning) -> String {
        let cx = &self.interp.cx;
        if cx.out.json {
            format!("{}\n", w.to_json(&cx.files, cx.out.notation.ascii))
        } else {
            w.render(&cx.files, cx.out.notation.ascii)
        }
    }

    /// Runs `line`, a `:command` with its arguments.
    fn command(&mut self, line: &str) -> Vec<Reply> {
        let cmd = &line[1..];
        let (typed, rest) = cmd.split_once(char::is_whitespace).unwrap_or((cmd, ""));
        let arg = rest.trim();
        // Where the argument starts in `line`, for diagnostics.
        let at = 1 + typed.len() + (rest.len() - rest.trim_start().len());
        let arg_span = at..at + arg.len();
        let Some(command) = commands::find(typed) else {
            let names = COMMANDS.iter().map(|c| c.name);
            let usage = match loony_core::diag::did_you_mean(typed, names) {
                Some(s) => format!("did you mean :{s}? :help lists the commands"),
                None => ":help lists the commands".to_string(),
            };
            let message = format!("unknown command `:{typed}`");
            return vec![self.command_error(
                line,
                0..1 + typed.len(),
                message,
                "not a command",
                &usage,
            )];
        };
        let call = commands::Call {
            line,
            typed,
            arg,
            arg_span,
        };
        (command.run)(self, &call)
    }

    fn command_error(
        &mut self,
        line: &str,
        span: Range<usize>,
        message: String,
        label: &str,
        usage: &str,
    ) -> Reply {
        let kind = SessionError::BadCommand {
            message,
            label: label.to_string(),
            usage: usage.to_string(),
        };
        self.located_error(line, span, kind)
    }

    /// An error about the command line `line`, which becomes a file of the session so that the
    /// diagnostic can point into it.
    fn located_error(&mut self, line: &str, span: Range<usize>, kind: impl Diagnose) -> Reply {
        self.inputs += 1;
        let name = format!("<repl:{}>", self.inputs);
        let file = self.interp.cx.files.add(name, line.to_string());
        Reply::Error(self.render(&Error::at(kind, file, span)))
    }
}

/// A file that cannot be read, as a diagnostic (it has a code like every other error).
pub fn io_error(path: &str, e: &std::io::Error) -> Error {
    Error::new(EvalError::Io {
        path: path.to_string(),
        message: e.to_string(),
    })
}

/// Collects lines until they make a complete program, without parsing the whole buffer again
/// for every line of a long one: while brackets are open and the buffer is long, it is parsed
/// only when its line count doubles (so a pasted 40 000-line list costs a few parses, not one
/// per line).
#[derive(Default)]
pub struct Pending {
    buf: String,
    lines: usize,
    /// Open `(`, `[`, `{` minus closed ones, outside strings and comments.
    depth: i64,
    next_parse: usize,
}

/// Buffers this short are parsed on every line, as the terminal REPL does.
const SHORT: usize = 64;

impl Pending {
    /// Adds a line; returns the buffered program once it is complete.
    pub fn push(&mut self, line: &str) -> Option<String> {
        self.buf.push_str(line);
        self.buf.push('\n');
        self.lines += 1;
        self.depth += bracket_depth(line);
        if self.lines > SHORT && self.depth > 0 && self.lines < self.next_parse {
            return None;
        }
        if Session::is_incomplete(&self.buf) {
            self.next_parse = self.lines * 2;
            return None;
        }
        Some(self.take())
    }

    /// What is left at the end of the input (an unfinished program, to be reported).
    pub fn take(&mut self) -> String {
        let out = std::mem::take(&mut self.buf);
        *self = Pending::default();
        out
    }
}

/// The change in bracket depth over one line (strings and `#` comments do not span lines).
fn bracket_depth(line: &str) -> i64 {
    let mut d = 0;
    let mut in_str = false;
    for c in line.chars() {
        match c {
            '"' => in_str = !in_str,
            _ if in_str => {}
            '#' => break,
            '(' | '[' | '{' => d += 1,
            ')' | ']' | '}' => d -= 1,
            _ => {}
        }
    }
    d
}

/// Feeds lines to a session the way the terminal REPL would: a line that leaves a program
/// unfinished waits for the next. Used for piped stdin and transcript tests.
pub fn run_lines(
    session: &mut Session,
    lines: impl Iterator<Item = String>,
    out: &mut dyn FnMut(Reply),
) {
    run_byte_lines(session, lines.map(|l| Ok(l.into_bytes())), out)
}

/// Like [`run_lines`] for raw input: a line that is not UTF-8 gets a diagnostic naming it and
/// the lines after it still run; a read error ends the input with a diagnostic.
pub fn run_byte_lines(
    session: &mut Session,
    lines: impl Iterator<Item = std::io::Result<Vec<u8>>>,
    out: &mut dyn FnMut(Reply),
) {
    run_byte_lines_while(session, lines, &mut |r| {
        out(r);
        true
    })
}

/// [`run_byte_lines`], stopping as soon as `out` returns `false` (its output cannot be
/// written).
pub fn run_byte_lines_while(
    session: &mut Session,
    lines: impl Iterator<Item = std::io::Result<Vec<u8>>>,
    out: &mut dyn FnMut(Reply) -> bool,
) {
    let mut pending = Pending::default();
    for (i, line) in lines.enumerate() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                out(Reply::Error(session.render(&io_error("<stdin>", &e))));
                return;
            }
        };
        let line = match String::from_utf8(line) {
            Ok(l) => l,
            Err(e) => {
                if !out(session.invalid_line(i + 1, e.into_bytes())) {
                    return;
                }
                continue;
            }
        };
        let mut line = line.strip_suffix('\r').unwrap_or(&line);
        if i == 0 {
            line = line.strip_prefix('\u{feff}').unwrap_or(line);
        }
        let Some(input) = pending.push(line) else {
            continue;
        };
        for r in session.eval(&input) {
            let quit = r == Reply::Quit;
            if !out(r) || quit {
                return;
            }
        }
    }
    let rest = pending.take();
    if !rest.trim().is_empty() {
        for r in session.eval(&rest) {
            if !out(r) {
                return;
            }
        }
    }
}

/// Writes `s` in pieces and stops between two when `stop` is raised (Ctrl-C while a long
/// result prints): `Ok(false)` when the rest was left out.
pub fn write_interruptible(
    out: &mut dyn std::io::Write,
    s: &str,
    stop: &std::sync::atomic::AtomicBool,
) -> std::io::Result<bool> {
    const PIECE: usize = 1 << 16;
    for piece in s.as_bytes().chunks(PIECE) {
        if stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        out.write_all(piece)?;
    }
    Ok(true)
}
