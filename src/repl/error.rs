//! The REPL's own errors: a `:command` that cannot run as written.

use loony_core::diag::{Code, Diagnose, Report};

#[derive(Debug, Clone, PartialEq)]
pub enum CommandError {
    /// Unknown, or given a bad argument; `usage` shows how it is written.
    BadCommand {
        message: String,
        label: String,
        usage: String,
    },
}

impl Diagnose for CommandError {
    fn report(&self) -> Report {
        match self {
            CommandError::BadCommand {
                message,
                label,
                usage,
            } => Report::new("E0701", message, label).note(usage),
        }
    }
}

/// The `--explain` texts of the REPL's codes.
pub const CODES: &[Code] = &[Code(
    "E0701",
    "A REPL `:command` that is unknown or has a bad argument (`:budget abc`, `:quit now`).\n\n\
         The note shows the command's usage; `:help` lists the commands.",
)];
