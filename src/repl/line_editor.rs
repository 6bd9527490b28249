//! The terminal front end: rustyline with parser-driven multi-line input, completion (see
//! [`super::complete`]), and history kept between runs.

use super::complete::Completions;
use super::{Reply, Session};
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{CompletionType, Config, Context, Editor, Helper, Highlighter, Hinter};
use std::cell::RefCell;
use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;

#[derive(Helper, Highlighter, Hinter)]
struct LoonyHelper {
    completions: Rc<RefCell<Completions>>,
}

impl Validator for LoonyHelper {
    fn validate(&self, ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        if Session::is_incomplete(ctx.input()) {
            Ok(ValidationResult::Incomplete)
        } else {
            Ok(ValidationResult::Valid(None))
        }
    }
}

impl Completer for LoonyHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (start, found) = self.completions.borrow().complete(line, pos);
        let out = found
            .into_iter()
            .map(|c| Pair {
                display: c.display,
                replacement: c.replacement,
            })
            .collect();
        Ok((start, out))
    }
}

fn history_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    let dir = base.join("loony");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history"))
}

/// Runs the interactive REPL until `:quit` or Ctrl-D.
pub fn run(session: &mut Session) -> rustyline::Result<()> {
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .history_ignore_space(true)
        .auto_add_history(true)
        .build();
    let completions = Rc::new(RefCell::new(session.completions()));
    let mut ed: Editor<LoonyHelper, rustyline::history::DefaultHistory> =
        Editor::with_config(config)?;
    ed.set_helper(Some(LoonyHelper {
        completions: completions.clone(),
    }));
    let history = history_path();
    if let Some(h) = &history {
        let _ = ed.load_history(h);
    }
    let banner = format!(
        "Loony {} — impartial games. :help for help, :quit to leave.\n",
        env!("CARGO_PKG_VERSION")
    );
    if session.interp.cx.out.notation.ascii {
        say(&loony_core::game::display::ascii_text(&banner));
    } else {
        say(&banner);
    }
    loop {
        match ed.readline("loony> ") {
            Ok(line) => {
                // Written now, not at exit, so a crash or a closed terminal keeps the session.
                if let Some(h) = &history {
                    let _ = ed.append_history(h);
                }
                let mut quit = false;
                let stop = session.interp.cx.limits.interrupt.clone();
                for r in session.eval(&line) {
                    match r {
                        Reply::Value(s) | Reply::Info(s) => {
                            // Ctrl-C while a long result prints cuts it; the session goes on.
                            let mut out = std::io::stdout().lock();
                            let shown =
                                super::write_interruptible(&mut out, &s, &stop).and_then(|all| {
                                    out.write_all(b"\n").and(out.flush()).map(|()| all)
                                });
                            match shown {
                                Ok(true) => {}
                                Ok(false) => {
                                    stop.store(false, std::sync::atomic::Ordering::Relaxed);
                                    let _ = std::io::stderr()
                                        .lock()
                                        .write_all(b"^C: the rest of this result is not shown\n");
                                }
                                Err(e) => {
                                    // The terminal is gone or full: nothing more can be shown.
                                    let e = loony_core::diag::Error::new(
                                        super::error::SessionError::output(&e),
                                    );
                                    let shown = session.render(&e);
                                    let _ = std::io::stderr().lock().write_all(shown.as_bytes());
                                    return Ok(());
                                }
                            }
                        }
                        Reply::Error(e) | Reply::Warning(e) => {
                            let _ = std::io::stderr().lock().write_all(e.as_bytes());
                        }
                        Reply::Quit => quit = true,
                    }
                }
                *completions.borrow_mut() = session.completions();
                if quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Writes to stdout; a closed terminal is not a reason to panic.
fn say(s: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(s.as_bytes());
    let _ = out.flush();
}
