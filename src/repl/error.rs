//! The front end's own errors: a REPL `:command` that cannot run as written, and results that
//! cannot be written out.

use loony_core::diag::{Diagnose, Report};

#[derive(Debug, Clone, PartialEq)]
pub enum SessionError {
    /// Unknown, or given a bad argument; `usage` shows how it is written.
    BadCommand {
        message: String,
        label: String,
        usage: String,
    },
    /// Standard output refused a write (a full disk, `/dev/full`, a lost terminal).
    Output { message: String },
    /// The reader of standard output went away (`loony … | head -1`): the run ends quietly.
    ClosedPipe,
}

impl SessionError {
    /// The error for a failed write to standard output.
    pub fn output(e: &std::io::Error) -> Self {
        match e.kind() {
            std::io::ErrorKind::BrokenPipe => SessionError::ClosedPipe,
            _ => SessionError::Output {
                message: e.to_string(),
            },
        }
    }
}

impl Diagnose for SessionError {
    fn report(&self) -> Report {
        match self {
            SessionError::BadCommand {
                message,
                label,
                usage,
            } => Report::new(BAD_COMMAND, message, label).note(usage),
            SessionError::Output { message } => Report::new(
                OUTPUT,
                format!("cannot write the results to standard output: {message}"),
                "",
            )
            .note("the run stops at the first result that cannot be written")
            .bare(),
            SessionError::ClosedPipe => Report::new(
                OUTPUT,
                "cannot write the results to standard output: its reader has gone",
                "",
            )
            .bare(),
        }
    }
}

loony_core::codes! {
    /// The `--explain` texts of the front end's codes.
    pub CODES;
    BAD_COMMAND = "E0701",
        "A REPL `:command` that is unknown or has a bad argument (`:budget abc`, `:quit now`).\n\n\
         The note shows the command's usage; `:help` lists the commands.";
    OUTPUT = "E0702",
        "Loony could not write a result to standard output: the disk is full, the output is \
         `/dev/full`, or the terminal went away.\n\n\
         The run stops at the first result that cannot be written, with this error on stderr \
         and exit code 1, so a script's output is never lost without a word. Free some space, \
         or send the output elsewhere (`loony FILE.cgt > results.txt`).\n\n\
         When the reader of a pipe stops early (`loony FILE.cgt | head -1`), Loony ends quietly \
         instead, as Unix tools do.";
}
