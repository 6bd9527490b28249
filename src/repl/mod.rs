//! The REPL core: a plain session API (text in, results and diagnostics out), driven by the
//! rustyline front end on a terminal and by a line reader for piped input and tests.

pub mod line_editor;

use crate::diag::{Error, guard};
use crate::eval::Interp;
use std::sync::atomic::Ordering;

/// One thing the session says back.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A result line, for stdout.
    Value(String),
    /// A rendered diagnostic, for stderr.
    Error(String),
    /// Informational text from a `:command`, for stdout.
    Info(String),
    Quit,
}

pub const COMMANDS: &[(&str, &str)] = &[
    (":help", "show this help"),
    (":load FILE", "run a script file in this session"),
    (
        ":budget N",
        "set how many ruleset positions one query may explore",
    ),
    (
        ":memory SIZE",
        "set the session's memory budget (e.g. 4G, 512M)",
    ),
    (":ascii", "toggle ASCII output (moon, inf, -inf)"),
    (":quit", "leave (also Ctrl-D)"),
];

pub struct Session {
    pub interp: Interp,
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
            inputs: 0,
        }
    }

    /// True when `src` is an unfinished program (an open bracket, a dangling operator): the
    /// front end should read another line before evaluating.
    pub fn is_incomplete(src: &str) -> bool {
        !src.trim_start().starts_with(':')
            && matches!(crate::syntax::parse_program(src), Err(e) if e.is_incomplete())
    }

    /// Names a user may want completed: bindings, built-ins and keywords.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.interp.cx.globals.keys().cloned().collect();
        v.extend(
            crate::eval::builtins::NAMES
                .iter()
                .chain(crate::eval::heaps::NAMES)
                .chain(crate::eval::misere::NAMES)
                .map(|s| s.to_string()),
        );
        v.extend(
            [
                "let", "fn", "ruleset", "import", "for", "in", "if", "then", "else", "entail",
                "carry", "true", "false", "and", "or", "not", "inf", "moon",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        v.sort();
        v.dedup();
        v
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
        self.interp.cx.interrupt.store(false, Ordering::Relaxed);
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
        if let crate::diag::ErrorKind::InvalidUtf8 { line, .. } = &mut e.kind {
            *line = number;
        }
        Reply::Error(self.render(&e))
    }

    fn eval_input(&mut self, input: &str) -> Vec<Reply> {
        let trimmed = input.trim();
        if let Some(cmd) = trimmed.strip_prefix(':') {
            return self.command(cmd);
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
        self.interp.cx.interrupt.store(false, Ordering::Relaxed);
        replies
    }

    pub fn render(&self, e: &Error) -> String {
        e.render_plain(&self.interp.cx.files)
    }

    fn command(&mut self, cmd: &str) -> Vec<Reply> {
        let (name, arg) = cmd.split_once(char::is_whitespace).unwrap_or((cmd, ""));
        let arg = arg.trim();
        match name {
            "q" | "quit" | "exit" => vec![Reply::Quit],
            "h" | "help" => {
                let mut s = String::from(
                    "Type a game or an expression to see its value; `let`, `fn`, `ruleset` and `import` bind names.\nCommands:\n",
                );
                for (c, what) in COMMANDS {
                    s.push_str(&format!("  {c:<12} {what}\n"));
                }
                s.push_str("Misère play (the player who cannot move wins):\n");
                for (f, what) in crate::eval::misere::HELP {
                    s.push_str(&format!("  {f:<46} {what}\n"));
                }
                s.push_str("Misère quotients of heap games:\n");
                for (f, what) in crate::eval::quotient::HELP {
                    s.push_str(&format!("  {f:<46} {what}\n"));
                }
                s.push_str("Examples: *2 + *3   {0, * | 0, *}   outcome(*3 + *3)   [kayles(n) for n in 0..12] after import \"std/kayles\"");
                vec![Reply::Info(s)]
            }
            "load" | "l" => {
                if arg.is_empty() {
                    return vec![Reply::Info("usage: :load FILE".into())];
                }
                let bytes = match std::fs::read(arg) {
                    Ok(b) => b,
                    Err(e) => return vec![Reply::Error(self.render(&io_error(arg, &e)))],
                };
                let mut replies = Vec::new();
                let r = self.interp.add_source(arg, bytes).and_then(|file| {
                    self.interp
                        .run_file(file, &mut |s| replies.push(Reply::Value(s)))
                });
                if let Err(e) = r {
                    replies.push(Reply::Error(self.render(&e)));
                }
                replies
            }
            "budget" => match arg.parse::<usize>() {
                Ok(n) if n > 0 => {
                    self.interp.cx.budget = n;
                    vec![Reply::Info(format!("position budget: {n}"))]
                }
                _ => vec![Reply::Info(format!(
                    "position budget: {} (set it with :budget N, N > 0)",
                    self.interp.cx.budget
                ))],
            },
            "memory" => {
                use crate::memory::{in_use, parse_size, show_size};
                if let Some(n) = parse_size(arg) {
                    self.interp.cx.memory = n;
                    return vec![Reply::Info(format!("memory budget: {}", show_size(n)))];
                }
                vec![Reply::Info(format!(
                    "memory budget: {} ({} in use; set it with :memory SIZE, e.g. 4G or 512M)",
                    show_size(self.interp.cx.memory),
                    show_size(in_use())
                ))]
            }
            "ascii" => {
                let nt = &mut self.interp.cx.notation;
                nt.ascii = !nt.ascii;
                vec![Reply::Info(format!(
                    "ascii output {}",
                    if nt.ascii { "on" } else { "off" }
                ))]
            }
            other => {
                let names: Vec<&str> = COMMANDS
                    .iter()
                    .map(|(c, _)| c.trim_start_matches(':').split(' ').next().unwrap_or(""))
                    .collect();
                let hint = crate::diag::did_you_mean(other, names.into_iter())
                    .map(|s| format!(" (did you mean :{s}?)"))
                    .unwrap_or_default();
                vec![Reply::Error(format!(
                    "error: unknown command `:{other}`{hint}; :help lists them\n"
                ))]
            }
        }
    }
}

/// A file that cannot be read, as a diagnostic (it has a code like every other error).
pub fn io_error(path: &str, e: &std::io::Error) -> Error {
    Error::new(crate::diag::ErrorKind::Io {
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
    let mut pending = Pending::default();
    for (i, line) in lines.enumerate() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                out(Reply::Error(session.render(&io_error("<stdin>", &e))));
                break;
            }
        };
        let line = match String::from_utf8(line) {
            Ok(l) => l,
            Err(e) => {
                out(session.invalid_line(i + 1, e.into_bytes()));
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
            out(r);
            if quit {
                return;
            }
        }
    }
    let rest = pending.take();
    if !rest.trim().is_empty() {
        for r in session.eval(&rest) {
            out(r);
        }
    }
}
