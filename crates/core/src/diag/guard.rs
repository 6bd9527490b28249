//! The last line of defence at the session boundary: a panic inside an evaluation (a bug)
//! becomes an internal-error diagnostic asking for a bug report, instead of ending the session.
//! Nothing unwinds on purpose: limits are `Result`s (a full table of the store is reported by
//! `Store::check_full`).

use super::{CoreError, Error};
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// How many [`catch`] calls are active on this thread (the hook stays quiet inside them).
    static GUARDED: Cell<u32> = const { Cell::new(0) };
    /// The message and place of the last panic caught on this thread.
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

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

/// Runs `f`; a panic in it becomes [`CoreError::Internal`].
pub fn catch<T>(f: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    install_hook();
    GUARDED.with(|g| g.set(g.get() + 1));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(g.get() - 1));
    match r {
        Ok(r) => r,
        Err(_) => {
            let message = LAST
                .with(|l| l.borrow_mut().take())
                .unwrap_or_else(|| "a panic without a message".to_string());
            Err(Error::new(CoreError::Internal { message }))
        }
    }
}
