//! The REPL core: a plain session API (text in, results and diagnostics out), driven by the
//! rustyline front end on a terminal and by a line reader for piped input and tests.

pub mod line_editor;

use crate::diag::Error;
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
            && matches!(crate::syntax::parse_program(src), Err(e) if e.is_incomplete(src))
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
                "carry", "true", "false", "and", "or", "not", "inf", "moon", "none",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        v.sort();
        v.dedup();
        v
    }

    pub fn eval(&mut self, input: &str) -> Vec<Reply> {
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

    /// A diagnostic as the session shows it: ASCII under `:ascii on`, JSON under `--json`.
    pub fn render(&self, e: &Error) -> String {
        let cx = &self.interp.cx;
        if cx.json {
            format!("{}\n", e.to_json(&cx.files, cx.notation.ascii))
        } else {
            e.render(&cx.files, cx.notation.ascii)
        }
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
                match std::fs::read_to_string(arg) {
                    Ok(src) => {
                        let mut replies = Vec::new();
                        let r = self
                            .interp
                            .run(arg, &src, &mut |s| replies.push(Reply::Value(s)));
                        if let Err(e) = r {
                            replies.push(Reply::Error(self.render(&e)));
                        }
                        replies
                    }
                    Err(e) => vec![Reply::Error(format!("error: cannot read `{arg}`: {e}\n"))],
                }
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

/// Feeds lines to a session the way the terminal REPL would: a line that leaves a program
/// unfinished waits for the next. Used for piped stdin and transcript tests.
pub fn run_lines(
    session: &mut Session,
    lines: impl Iterator<Item = String>,
    out: &mut dyn FnMut(Reply),
) {
    let mut buf = String::new();
    for line in lines {
        buf.push_str(&line);
        buf.push('\n');
        if Session::is_incomplete(&buf) {
            continue;
        }
        let input = std::mem::take(&mut buf);
        for r in session.eval(&input) {
            let quit = r == Reply::Quit;
            out(r);
            if quit {
                return;
            }
        }
    }
    if !buf.trim().is_empty() {
        for r in session.eval(&buf) {
            out(r);
        }
    }
}
