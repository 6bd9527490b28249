//! How much native stack the current thread has left. The evaluator's recursion (nested
//! expressions, rules that ask about other positions) checks this before going deeper, so a deep
//! computation ends in a diagnostic however large each level's frames are, not in a stack
//! overflow that kills the process.

use std::cell::Cell;

thread_local! {
    /// The lowest stack address this thread may reach before stopping (0: not known yet).
    static FLOOR: Cell<usize> = const { Cell::new(0) };
}

/// Where the stack pointer is, near enough.
#[inline(always)]
fn here() -> usize {
    let probe = 0u8;
    std::hint::black_box(&probe) as *const u8 as usize
}

/// True when the thread is within its reserve of the end of its stack: the caller should
/// stop with an error instead of recursing further. Cheap: one thread-local read.
#[inline]
pub fn exhausted() -> bool {
    let floor = FLOOR.with(|f| {
        let v = f.get();
        if v != 0 {
            return v;
        }
        let v = floor();
        f.set(v);
        v
    });
    here() < floor
}

/// What is kept in reserve: room for the frames between two checks (the engines, printing).
fn reserve(size: usize) -> usize {
    (size / 8).clamp(64 << 10, 4 << 20)
}

#[cfg(target_os = "linux")]
fn floor() -> usize {
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
        low + reserve(size)
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
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn release_unused() {}

#[cfg(target_os = "macos")]
fn floor() -> usize {
    // SAFETY: these return the calling thread's stack top and size.
    unsafe {
        let t = libc::pthread_self();
        let top = libc::pthread_get_stackaddr_np(t) as usize;
        let size = libc::pthread_get_stacksize_np(t);
        top.saturating_sub(size) + reserve(size)
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn floor() -> usize {
    fallback()
}

/// Without a way to ask: assume the platform's default thread stack (2 MiB) below here.
fn fallback() -> usize {
    here().saturating_sub(2 << 20) + reserve(2 << 20)
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
