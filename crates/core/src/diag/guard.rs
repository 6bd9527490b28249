//! The last line of defence at the session boundary: a panic inside an evaluation becomes an
//! internal-error diagnostic (asking for a bug report) instead of ending the session, and a
//! table that would outgrow its `u32` indices stops the computation with a diagnostic of its own.

use super::{Error, ErrorKind};
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// How many [`catch`] calls are active on this thread (the hook stays quiet inside them).
    static GUARDED: Cell<u32> = const { Cell::new(0) };
    /// The message and place of the last panic caught on this thread.
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// A payload unwound by [`fail`]: a limit that is not a bug, reported as its own diagnostic.
struct Limit(ErrorKind);

static HOOK: Once = Once::new();

/// Inside [`catch`], a panic's message is kept for the diagnostic instead of being printed;
/// elsewhere (tests, other threads) the previous hook runs as before.
fn install_hook() {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if GUARDED.with(Cell::get) == 0 {
                previous(info);
                return;
            }
            let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
                (*s).to_string()
            } else if let Some(s) = info.payload().downcast_ref::<String>() {
                s.clone()
            } else {
                "unknown panic".to_string()
            };
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            LAST.with(|l| *l.borrow_mut() = Some(format!("{msg}{at}")));
        }));
    });
}

/// Runs `f`; a panic in it becomes [`ErrorKind::Internal`] (or the diagnostic [`fail`] gave).
pub fn catch<T>(f: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    install_hook();
    GUARDED.with(|g| g.set(g.get() + 1));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(g.get() - 1));
    match r {
        Ok(r) => r,
        Err(payload) => Err(match payload.downcast::<Limit>() {
            Ok(limit) => Error::new(limit.0),
            Err(_) => {
                let message = LAST
                    .with(|l| l.borrow_mut().take())
                    .unwrap_or_else(|| "a panic without a message".to_string());
                Error::new(ErrorKind::Internal { message })
            }
        }),
    }
}

/// Stops the computation with the diagnostic `kind`, from code too deep to return a `Result`
/// (e.g. the store's interning). Caught by the nearest [`catch`].
pub fn fail(kind: ErrorKind) -> ! {
    panic::resume_unwind(Box::new(Limit(kind)))
}
