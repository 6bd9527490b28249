//! How much native stack the current thread has left. The evaluator's recursion (nested
//! expressions, rules that ask about other positions) checks this before going deeper, so a deep
//! computation ends in a diagnostic however large each level's frames are, not in a stack
//! overflow that kills the process.

use std::cell::Cell;

/// Where this thread's stack ends, and how much of it the memory budget has been told of.
#[derive(Clone, Copy)]
struct Bounds {
    /// The lowest address this thread may reach before stopping (0: not known yet).
    floor: usize,
    /// The stack's highest address (where it starts growing down from).
    top: usize,
    /// Going below this counts the next step of touched stack against the budget.
    mark: usize,
}

thread_local! {
    static BOUNDS: Cell<Bounds> = const { Cell::new(Bounds { floor: 0, top: 0, mark: 0 }) };
}

/// The touched stack is counted against the memory budget in steps this large (so the check
/// between steps is one comparison).
const STEP: usize = 1 << 20;

/// Where the stack pointer is, near enough.
#[inline(always)]
fn here() -> usize {
    let probe = 0u8;
    std::hint::black_box(&probe) as *const u8 as usize
}

/// True when the thread is within its reserve of the end of its stack: the caller should
/// stop with an error instead of recursing further. Going deeper than ever before also counts
/// the stack's touched pages against the memory budget ([`loony_core::memory::stack_touched`]),
/// since they stay resident. Cheap: one thread-local read and two comparisons.
#[inline]
pub fn exhausted() -> bool {
    let b = BOUNDS.with(Cell::get);
    let sp = here();
    if sp < b.mark || b.floor == 0 {
        deeper(sp);
    }
    sp < b.floor
}

#[cold]
fn deeper(sp: usize) {
    let mut b = BOUNDS.with(Cell::get);
    if b.floor == 0 {
        let (floor, top) = bounds();
        b = Bounds {
            floor,
            top,
            mark: usize::MAX,
        };
    }
    if sp < b.mark {
        b.mark = sp.saturating_sub(STEP);
        loony_core::memory::stack_touched(b.top.saturating_sub(b.mark));
    }
    BOUNDS.with(|c| c.set(b));
}

/// What is kept in reserve: room for the frames between two checks (the engines, printing).
fn reserve(size: usize) -> usize {
    (size / 8).clamp(64 << 10, 4 << 20)
}

/// The stack's floor (its low end plus the reserve) and its top.
#[cfg(target_os = "linux")]
fn bounds() -> (usize, usize) {
    // SAFETY: pthread_getattr_np fills `attr` for the calling thread; it is destroyed after use.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return fallback();
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        if !ok || addr.is_null() {
            return fallback();
        }
        // The main thread's reported size is its rlimit; only what lies below us is usable.
        let low = addr as usize;
        (low + reserve(size), low + size)
    }
}

/// Gives the pages of the stack below the current frame back to the system. A deep
/// computation touches gigabytes of the (4 GiB) stack and those pages stay resident after it
/// ends, so a REPL would keep its peak size after one deep error; they are untouched below
/// here, so the system may drop them (they read as zeros if touched again).
#[cfg(target_os = "linux")]
pub fn release_unused() {
    // SAFETY: as in `floor`; madvise(MADV_DONTNEED) on pages of this thread's stack below the
    // live frames (with a 64 KiB margin) discards memory nothing uses.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        if !ok || addr.is_null() {
            return;
        }
        let page = 4096usize;
        let low = (addr as usize).div_ceil(page) * page;
        let high = here().saturating_sub(64 << 10) / page * page;
        if high > low + (1 << 20) {
            libc::madvise(low as *mut libc::c_void, high - low, libc::MADV_DONTNEED);
            // Only the live frames stay resident: the budget counts from here again.
            let mut b = BOUNDS.with(Cell::get);
            if b.floor != 0 {
                b.mark = high.saturating_sub(STEP);
                loony_core::memory::stack_touched(b.top.saturating_sub(b.mark));
                BOUNDS.with(|c| c.set(b));
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn release_unused() {}

#[cfg(target_os = "macos")]
fn bounds() -> (usize, usize) {
    // SAFETY: these return the calling thread's stack top and size.
    unsafe {
        let t = libc::pthread_self();
        let top = libc::pthread_get_stackaddr_np(t) as usize;
        let size = libc::pthread_get_stacksize_np(t);
        (top.saturating_sub(size) + reserve(size), top)
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn bounds() -> (usize, usize) {
    fallback()
}

/// Without a way to ask: assume the platform's default thread stack (2 MiB) below here.
fn fallback() -> (usize, usize) {
    (here().saturating_sub(2 << 20) + reserve(2 << 20), here())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_until_exhausted(n: usize) -> usize {
        if exhausted() {
            return n;
        }
        let pad = std::hint::black_box([0u8; 512]);
        depth_until_exhausted(n + 1) + pad[n % 512] as usize
    }

    #[test]
    fn a_small_stack_is_reported_before_it_overflows() {
        // 512 KiB: recursion with 512-byte frames stops at the reserve instead of crashing.
        let n = std::thread::Builder::new()
            .stack_size(512 << 10)
            .spawn(|| depth_until_exhausted(0))
            .unwrap()
            .join()
            .unwrap();
        // No upper bound: glibc may hand the thread a larger cached stack than asked for.
        assert!(n > 100, "{n}");
    }
}
