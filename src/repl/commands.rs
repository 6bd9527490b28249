//! The REPL's `:commands`, in one table: name, aliases, argument, a line of documentation and
//! the function that runs it. Dispatch, Tab completion, `:help`, `:help NAME` and
//! `loony --help` all read it, so a command cannot exist without its documentation.

use super::{Reply, Session, complete, help, parse_budget};
use loony_lang::error::EvalError;
use std::ops::Range;

/// One command: one row of [`COMMANDS`].
#[derive(Debug)]
pub struct Command {
    /// Its name, typed after the colon.
    pub name: &'static str,
    /// Other names it answers to (`:q` for `:quit`).
    pub aliases: &'static [&'static str],
    /// Its argument as `:help` shows it (`[NAME]`, `FILE`); empty when it takes none.
    pub args: &'static str,
    /// Whether its argument is a file, which Tab completes as a path.
    pub file_arg: bool,
    /// What it does, in a line.
    pub doc: &'static str,
    /// What it runs.
    pub run: fn(&mut Session, &Call) -> Vec<Reply>,
}

/// A command as it was typed: the whole line, the name as typed, and its argument (trimmed)
/// with where it lies in the line, for diagnostics.
#[derive(Debug)]
pub struct Call<'a> {
    pub line: &'a str,
    pub typed: &'a str,
    pub arg: &'a str,
    pub arg_span: Range<usize>,
}

impl Command {
    /// `:help [NAME]`: how it is written, as the help texts show it.
    pub fn synopsis(&self) -> String {
        if self.args.is_empty() {
            format!(":{}", self.name)
        } else {
            format!(":{} {}", self.name, self.args)
        }
    }

    /// Its line of the command lists in `:help` and `loony --help`.
    pub fn help_line(&self) -> String {
        format!("  {:<16} {}\n", self.synopsis(), self.doc)
    }
}

/// Every command, in the order `:help` lists them.
pub static COMMANDS: &[Command] = &[
    Command {
        name: "help",
        aliases: &["h"],
        args: "[NAME]",
        file_arg: false,
        doc: "show this help, or the help of one built-in, module, command or binding",
        run: run_help,
    },
    Command {
        name: "load",
        aliases: &["l"],
        args: "FILE",
        file_arg: true,
        doc: "run a script file in this session (FILE may be quoted and start with ~)",
        run: run_load,
    },
    Command {
        name: "memory",
        aliases: &[],
        args: "[SIZE]",
        file_arg: false,
        doc: "show, or set (e.g. 4G, 512M), the session's memory budget",
        run: run_memory,
    },
    Command {
        name: "budget",
        aliases: &[],
        args: "[N]",
        file_arg: false,
        doc: "show, or set (N >= 1), how many ruleset positions one query may explore",
        run: run_budget,
    },
    Command {
        name: "table",
        aliases: &[],
        args: "[clear|capacity N]",
        file_arg: false,
        doc: "show pruned search's table (size, capacity, fill, hit rate), clear it, or cap it",
        run: run_table,
    },
    Command {
        name: "ascii",
        aliases: &[],
        args: "[on|off]",
        file_arg: false,
        doc: "ASCII output (moon, inf, -inf) on or off; without an argument, toggle it",
        run: run_ascii,
    },
    Command {
        name: "quit",
        aliases: &["q", "exit"],
        args: "",
        file_arg: false,
        doc: "leave (also :q, :exit, Ctrl-D)",
        run: run_quit,
    },
];

/// The command named `typed` (what follows the colon), by its name or an alias.
pub fn find(typed: &str) -> Option<&'static Command> {
    COMMANDS
        .iter()
        .find(|c| c.name == typed || c.aliases.contains(&typed))
}

fn run_quit(s: &mut Session, c: &Call) -> Vec<Reply> {
    if c.arg.is_empty() {
        return vec![Reply::Quit];
    }
    let message = format!("`:{}` takes no arguments", c.typed);
    vec![s.command_error(
        c.line,
        c.arg_span.clone(),
        message,
        "not expected",
        "usage: :quit",
    )]
}

fn run_help(s: &mut Session, c: &Call) -> Vec<Reply> {
    let arg = c.arg;
    if arg.is_empty() {
        return vec![Reply::Info(help::general())];
    }
    let binding = s.interp.cx.globals.get(arg);
    if let Some(text) = help::lookup(arg, binding) {
        return vec![Reply::Info(text)];
    }
    let names = s.names();
    let modules = loony_lang::modules::STD
        .iter()
        .map(|(n, _)| n.trim_start_matches("std/"));
    let known = names.iter().map(String::as_str).chain(modules);
    let usage = match loony_core::diag::did_you_mean(arg, known) {
        Some(s) => format!("did you mean `{s}`? :help lists what there is"),
        None => ":help lists what there is".to_string(),
    };
    let message = format!("no built-in, module, command or binding is named `{arg}`");
    vec![s.command_error(c.line, c.arg_span.clone(), message, "unknown name", &usage)]
}

fn run_load(s: &mut Session, c: &Call) -> Vec<Reply> {
    if c.arg.is_empty() {
        let message = "`:load` needs a file".to_string();
        return vec![s.command_error(
            c.line,
            c.arg_span.clone(),
            message,
            "a file goes here",
            "usage: :load FILE",
        )];
    }
    let mut path = load_path(c.arg);
    // As `import` does: `:load graph` finds `graph.cgt` when there is no `graph`.
    let with_ext = format!("{path}.cgt");
    if !path.ends_with(".cgt")
        && !std::path::Path::new(&path).exists()
        && std::path::Path::new(&with_ext).is_file()
    {
        path = with_ext;
    }
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            let kind = EvalError::Io {
                path,
                message: e.to_string(),
            };
            return vec![s.located_error(c.line, c.arg_span.clone(), kind)];
        }
    };
    let mut replies = Vec::new();
    let r = s.interp.add_source(&path, bytes).and_then(|file| {
        s.interp
            .run_file(file, &mut |v| replies.push(Reply::Value(v)))
    });
    if let Err(e) = r {
        replies.push(Reply::Error(s.render(&e)));
    }
    replies
}

/// `:load`'s argument as a path: surrounding quotes dropped, a leading `~` made the home
/// folder.
fn load_path(arg: &str) -> String {
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|q| arg.strip_prefix(*q).and_then(|a| a.strip_suffix(*q)))
        .unwrap_or(arg);
    complete::expand_home(unquoted)
}

fn run_budget(s: &mut Session, c: &Call) -> Vec<Reply> {
    if c.arg.is_empty() {
        return vec![Reply::Info(format!(
            "position budget: {} (set it with :budget N, N >= 1)",
            s.interp.cx.limits.budget
        ))];
    }
    match parse_budget(c.arg) {
        Ok(n) => {
            s.interp.cx.limits.budget = n;
            vec![Reply::Info(format!("position budget: {n}"))]
        }
        Err(message) => vec![s.command_error(
            c.line,
            c.arg_span.clone(),
            message,
            "not a budget",
            "usage: :budget N, N >= 1",
        )],
    }
}

fn run_memory(s: &mut Session, c: &Call) -> Vec<Reply> {
    use loony_core::memory::{hard_limit, in_use, parse_size, show_size};
    let arg = c.arg;
    if let (Some(n), Some((hard, what))) = (parse_size(arg), hard_limit())
        && n > hard
    {
        let message = format!(
            "{} is more than this process may use: {what} leaves {}",
            show_size(n),
            show_size(hard)
        );
        return vec![s.command_error(
            c.line,
            c.arg_span.clone(),
            message,
            "past the process's limit",
            "usage: :memory SIZE, e.g. 4G or 512M",
        )];
    }
    if let Some(n) = parse_size(arg) {
        s.interp.cx.limits.memory = n;
        return vec![Reply::Info(format!("memory budget: {}", show_size(n)))];
    }
    if !arg.is_empty() {
        let message = format!("`{arg}` is not a size like 4G or 512M");
        return vec![s.command_error(
            c.line,
            c.arg_span.clone(),
            message,
            "not a size",
            "usage: :memory SIZE, e.g. 4G or 512M",
        )];
    }
    vec![Reply::Info(format!(
        "memory budget: {} ({} in use; set it with :memory SIZE, e.g. 4G or 512M)",
        show_size(s.interp.cx.limits.memory),
        show_size(in_use())
    ))]
}

fn run_ascii(s: &mut Session, c: &Call) -> Vec<Reply> {
    let arg = c.arg;
    let ascii = match arg {
        "" => !s.interp.cx.out.notation.ascii,
        "on" => true,
        "off" => false,
        _ => {
            let message = format!("`:ascii` takes `on` or `off`, not `{arg}`");
            return vec![s.command_error(
                c.line,
                c.arg_span.clone(),
                message,
                "not on or off",
                "usage: :ascii [on|off]",
            )];
        }
    };
    s.interp.cx.out.notation.ascii = ascii;
    vec![Reply::Info(format!(
        "ascii output {}",
        if ascii { "on" } else { "off" }
    ))]
}

fn run_table(s: &mut Session, c: &Call) -> Vec<Reply> {
    let usage = "usage: :table, :table clear, :table capacity N (N >= 4, or `budget`)";
    let mut words = c.arg.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (None, _, _) => {}
        (Some("clear"), None, _) => {
            s.interp.cx.clear_table();
            return vec![Reply::Info("pruned search's table cleared".to_string())];
        }
        (Some("capacity"), Some(n), None) => {
            let asked = match n {
                "budget" => None,
                n => match n.parse::<usize>() {
                    Ok(k) if k >= loony_theory::pruned::WAYS => Some(k),
                    _ => {
                        let message = format!(
                            "`{n}` is not a capacity: a whole number of entries, 4 or more"
                        );
                        return vec![s.command_error(
                            c.line,
                            c.arg_span.clone(),
                            message,
                            "not a capacity",
                            usage,
                        )];
                    }
                },
            };
            s.interp.cx.set_table_capacity(asked);
        }
        _ => {
            let message = format!("`:table` takes `clear` or `capacity N`, not `{}`", c.arg);
            return vec![s.command_error(
                c.line,
                c.arg_span.clone(),
                message,
                "not a table command",
                usage,
            )];
        }
    }
    vec![Reply::Info(format!(
        "pruned search's table: {}",
        s.interp.cx.table_summary()
    ))]
}
