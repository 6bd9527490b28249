//! Where a job's reply waits for the Python thread that asked for it: a slot per Python
//! thread, reused by each of its calls (a channel made per call cost about a tenth of a small
//! call's trip), with the caller spinning on a flag before it sleeps.

use super::SPIN;
use std::any::Any;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// What a job left in its slot.
pub(crate) enum Posted {
    /// The job's result.
    Reply(Box<dyn Any + Send>),
    /// The job was dropped without a reply: the session's thread stopped, or a panic outside
    /// a statement's guard (a bug).
    Lost,
}

pub(crate) struct Slot {
    /// Raised once `posted` holds something: what the caller spins on.
    full: AtomicBool,
    posted: Mutex<Option<Posted>>,
    /// The caller, woken (unparked) by the post.
    caller: Thread,
}

thread_local! {
    /// Slots of this thread not waiting for a reply. A thread waits for one reply at a time,
    /// but a signal handler run while it waits may call a session again: that call takes
    /// another slot.
    static FREE: RefCell<Vec<Arc<Slot>>> = const { RefCell::new(Vec::new()) };
}

impl Slot {
    /// An empty slot for a call of this thread (given back by [`Slot::done`]).
    pub(crate) fn take() -> Arc<Slot> {
        FREE.with(|f| f.borrow_mut().pop()).unwrap_or_else(|| {
            Arc::new(Slot {
                full: AtomicBool::new(false),
                posted: Mutex::new(None),
                caller: std::thread::current(),
            })
        })
    }

    /// Gives an emptied slot back for this thread's next call. Its job posted once and has
    /// nothing more to do with it than let go of it (which may come later).
    pub(crate) fn done(self: Arc<Self>) {
        if !self.full.load(Ordering::Acquire) {
            FREE.with(|f| f.borrow_mut().push(self));
        }
    }

    fn post(&self, p: Posted) {
        *self.posted.lock().unwrap_or_else(|e| e.into_inner()) = Some(p);
        self.full.store(true, Ordering::Release);
        // Costs nothing unless the caller sleeps.
        self.caller.unpark();
    }

    /// What was posted, if anything, emptying the slot.
    fn taken(&self) -> Option<Posted> {
        if !self.full.load(Ordering::Acquire) {
            return None;
        }
        let p = self.posted.lock().unwrap_or_else(|e| e.into_inner()).take();
        self.full.store(false, Ordering::Release);
        p
    }

    /// The post, if one comes within `poll`: spinning for up to [`SPIN`] (yielding the core
    /// now and then), then sleeping. Only the thread that took the slot waits on it.
    pub(crate) fn wait(&self, poll: Duration) -> Option<Posted> {
        let start = Instant::now();
        loop {
            for _ in 0..64 {
                if let Some(p) = self.taken() {
                    return Some(p);
                }
                std::hint::spin_loop();
            }
            if start.elapsed() >= SPIN {
                break;
            }
            // On a busy machine the session's thread may be waiting for this core.
            std::thread::yield_now();
        }
        loop {
            if let Some(p) = self.taken() {
                return Some(p);
            }
            let left = poll.saturating_sub(start.elapsed());
            if left.is_zero() {
                return None;
            }
            // Woken by the post (or spuriously: the flag says which).
            std::thread::park_timeout(left);
        }
    }
}

/// The job's side of a slot: posts the reply once, or [`Posted::Lost`] if dropped first.
pub(crate) struct Replier(Option<Arc<Slot>>);

impl Replier {
    pub(crate) fn new(slot: &Arc<Slot>) -> Self {
        Replier(Some(slot.clone()))
    }

    pub(crate) fn send<T: Send + 'static>(mut self, x: T) {
        if let Some(s) = self.0.take() {
            s.post(Posted::Reply(Box::new(x)));
        }
    }
}

impl Drop for Replier {
    fn drop(&mut self) {
        if let Some(s) = self.0.take() {
            s.post(Posted::Lost);
        }
    }
}
