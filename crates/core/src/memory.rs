//! The session memory budget.
//!
//! Every allocation goes through [`Counting`], which keeps, per thread, the bytes that thread
//! holds (one thread-local add per allocation; no locks, no atomics). A session arms a budget on
//! its thread ([`arm`]); the allocation that first passes it raises the session's interrupt
//! flag, so every loop that already polls for Ctrl-C (the evaluator, list building, the
//! explorer, the exact solver, the heap engine) stops at its next poll, and the statement
//! reports the budget ([`crate::diag::CoreError::MemoryBudget`]) instead of Ctrl-C. A single
//! allocation sized by the program (a range's list, a nim-sequence) is checked before it is
//! made ([`would_exceed`]), so it never has to happen to be caught.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// The system's allocator, counting bytes per thread. A program installs it as its global
/// allocator (`loony`'s `main.rs`, the test and benchmark binaries): a library does not choose
/// the allocator of the programs that link it. Without it nothing is counted and no budget
/// trips.
pub struct Counting;

/// This crate's own unit tests count allocations as the binary does.
#[cfg(test)]
#[global_allocator]
static GLOBAL: Counting = Counting;

thread_local! {
    /// Bytes allocated minus bytes freed by this thread (frees of memory allocated elsewhere
    /// can make it dip below zero).
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The armed budget (`isize::MAX` when none).
    static LIMIT: Cell<isize> = const { Cell::new(isize::MAX) };
    /// The flag to raise when the budget is passed (null when none is armed).
    static FLAG: Cell<*const AtomicBool> = const { Cell::new(std::ptr::null()) };
    /// Set once the budget was passed, until [`disarm`].
    static OVER: Cell<bool> = const { Cell::new(false) };
    /// What the thread held when the budget was armed.
    static HELD: Cell<usize> = const { Cell::new(0) };
    /// What the evaluator is building now, for the diagnostic.
    static WHAT: Cell<&'static str> = const { Cell::new("the values of this statement") };
    /// What it was building when the budget was passed.
    static WHAT_OVER: Cell<&'static str> = const { Cell::new("") };
    /// The bytes of this thread's stack counted in `LIVE` (see [`stack_touched`]).
    static STACK: Cell<usize> = const { Cell::new(0) };
}

/// Tells the budget how much of this thread's stack is touched (resident): a deep recursion
/// holds gigabytes of stack, which count as the heap does. Called by the evaluator's stack
/// check as it goes deeper, and after it gives unused stack pages back.
pub fn stack_touched(bytes: usize) {
    let before = STACK.with(|s| s.replace(bytes));
    let _what = building("deeply nested calls (the interpreter's stack)");
    count(bytes as isize - before as isize);
}

#[inline]
fn count(delta: isize) {
    // `try_with`: during thread teardown the slots may be gone; then nothing is counted.
    let _ = LIVE.try_with(|l| {
        let v = l.get() + delta;
        l.set(v);
        if delta > 0 && v > LIMIT.with(Cell::get) {
            passed();
        }
    });
}

#[cold]
fn passed() {
    if OVER.with(Cell::get) {
        return;
    }
    OVER.with(|o| o.set(true));
    WHAT_OVER.with(|w| w.set(WHAT.with(Cell::get)));
    let flag = FLAG.with(Cell::get);
    if !flag.is_null() {
        // SAFETY: `arm` keeps the flag alive until `disarm` clears the pointer.
        unsafe { (*flag).store(true, Ordering::Relaxed) };
    }
}

/// What an allocation of `size` bytes costs the process: the system allocator adds a header
/// and rounds to 16 bytes with a 32-byte minimum (glibc), which doubles the cost of the many
/// tiny allocations of nested tuples; counting requested bytes alone let resident memory
/// reach twice the budget.
#[inline]
fn charged(size: usize) -> isize {
    ((size + 8 + 15) & !15).max(32) as isize
}

/// Blocks from this size up are mapped alone (see [`keep_freed`]) and asked for in huge pages.
const HUGE: usize = 4 << 20;

/// Asks the system to back the block `p..p + size` with 2 MB pages where it can (Linux's
/// transparent huge pages, in their `madvise` mode): a large array is then faulted in 2 MB at a
/// time. A printed table of 10⁶ WindUp positions spent a fifth of its time faulting 4 KB
/// pages (21 000 faults); advised, it takes 13 000 faults and 8% less time. Only advice:
/// where it is refused, pages stay small.
#[inline]
fn advise_huge(p: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    if size >= HUGE && !p.is_null() {
        // The pages the block lies on: a large block is mapped alone (its header in its first
        // page), so these are its own mapping; were it in the heap, advice on the neighbours
        // sharing its end pages would change nothing they hold.
        let start = p as usize & !4095;
        let end = (p as usize + size + 4095) & !4095;
        // SAFETY: advice on pages of a mapping this process holds; the result is ignored
        // (a kernel without huge pages refuses, and nothing changes).
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

// SAFETY: every call is forwarded to the system allocator unchanged; only sizes are counted
// (and large blocks advised into huge pages, which changes no byte of them).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(charged(layout.size()));
            advise_huge(p, layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            count(charged(layout.size()));
            advise_huge(p, layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        count(-charged(layout.size()));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(charged(new_size) - charged(layout.size()));
            // A block that grew past `HUGE` may have moved to a mapping of its own.
            advise_huge(p, new_size);
        }
        p
    }
}

/// Lets the allocator keep up to 32 MB of freed heap for reuse. glibc's default (128 KB in
/// the interpreter thread's arena) hands the pages back after nearly every query, and the next
/// query faults them in again: 3001 Kayles queries took 50 000 page faults and a third of
/// their time that way. What is kept stays bounded, and [`release_freed`] still gives it all
/// back after an error. Setting the trim threshold turns off glibc's own tuning of the size
/// past which blocks are mapped alone, so that is fixed too, at 4 MB: smaller blocks come from
/// the reused heap, the large arrays of a big graph are mapped and given back whole.
pub fn keep_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        // SAFETY: mallopt only sets a parameter of the allocator.
        ONCE.call_once(|| unsafe {
            libc::mallopt(libc::M_TRIM_THRESHOLD, 32 << 20);
            libc::mallopt(libc::M_MMAP_THRESHOLD, HUGE as libc::c_int);
        });
    }
}

/// Returns memory freed by the allocator to the system (glibc keeps freed heap pages for
/// reuse, so a process stays at its peak size after a large computation ends).
pub fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The bytes this thread holds now.
pub fn in_use() -> usize {
    LIVE.with(Cell::get).max(0) as usize
}

/// Arms `budget` (bytes held by this thread) until the guard is dropped: passing it raises
/// `flag`. The flag must outlive the guard.
pub fn arm(budget: usize, flag: &AtomicBool) -> Armed {
    OVER.with(|o| o.set(false));
    HELD.with(|h| h.set(in_use()));
    LIMIT.with(|l| l.set(budget.min(isize::MAX as usize) as isize));
    FLAG.with(|f| f.set(flag as *const AtomicBool));
    if LIVE.with(Cell::get) > budget.min(isize::MAX as usize) as isize {
        passed();
    }
    Armed(())
}

/// The armed budget of [`arm`]; dropping it disarms.
pub struct Armed(());

impl Drop for Armed {
    fn drop(&mut self) {
        LIMIT.with(|l| l.set(isize::MAX));
        FLAG.with(|f| f.set(std::ptr::null()));
    }
}

/// Did this thread pass its budget since it was armed? Returns what was being built then.
pub fn passed_while() -> Option<&'static str> {
    OVER.with(Cell::get).then(|| WHAT_OVER.with(Cell::get))
}

/// Would `bytes` more pass the armed budget? (Asked before an allocation whose size comes
/// from the program.) Passing it also marks the budget as passed.
pub fn would_exceed(bytes: usize) -> bool {
    let limit = LIMIT.with(Cell::get);
    let over = (LIVE.with(Cell::get).max(0) as usize).saturating_add(bytes) > limit as usize;
    if over {
        passed();
    }
    over
}

/// Would `bytes` more still fit in the armed budget? (Asked by a path that has another way to
/// go when it would not; nothing is marked.)
pub fn room_for(bytes: usize) -> bool {
    let limit = LIMIT.with(Cell::get);
    (LIVE.with(Cell::get).max(0) as usize).saturating_add(bytes) <= limit as usize
}

/// The diagnostic for passing the armed budget while building `what`.
pub fn exceeded(what: &str) -> crate::diag::CoreError {
    crate::diag::CoreError::MemoryBudget {
        budget: LIMIT.with(Cell::get).max(0) as usize,
        what: what.to_string(),
        held: HELD.with(Cell::get),
    }
}

/// [`would_exceed`] as a `Result` with the diagnostic, for code that builds something sized
/// by the program.
pub fn reserve(bytes: usize, what: &str) -> Result<(), crate::diag::Error> {
    if would_exceed(bytes) {
        return Err(crate::diag::Error::new(exceeded(what)));
    }
    Ok(())
}

/// Names what is being built until the guard is dropped (nested guards restore the outer).
pub fn building(what: &'static str) -> Building {
    Building(WHAT.with(|w| w.replace(what)))
}

pub struct Building(&'static str);

impl Drop for Building {
    fn drop(&mut self) {
        WHAT.with(|w| w.set(self.0));
    }
}

/// Address space the program set aside beside the heap (the interpreter's stack), which an
/// address-space limit (`ulimit -v`) counts too.
static SET_ASIDE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Tells the budget that `bytes` of address space are set aside (the interpreter thread's
/// stack), so the default budget under `ulimit -v` leaves room for them.
pub fn set_aside(bytes: usize) {
    SET_ASIDE.store(bytes, Ordering::Relaxed);
}

/// What the process may use for its heap at most, and what says so: an address-space limit
/// (`ulimit -v`, less what is set aside and a fixed overhead), a data limit (`ulimit -d`), or
/// the memory limit of its cgroup (a container, a batch scheduler). `None` when nothing
/// limits it below the machine.
pub fn hard_limit() -> Option<(usize, String)> {
    const OVERHEAD: usize = 256 << 20;
    let mut best: Option<(usize, String)> = None;
    let mut offer = |bytes: usize, what: String| {
        if best.as_ref().is_none_or(|(b, _)| bytes < *b) {
            best = Some((bytes, what));
        }
    };
    if let Some(v) = rlimit(Rlimit::AddressSpace) {
        let set_aside = SET_ASIDE.load(Ordering::Relaxed);
        offer(
            v.saturating_sub(set_aside).saturating_sub(OVERHEAD),
            format!("the address-space limit (ulimit -v) of {}", show_size(v)),
        );
    }
    if let Some(v) = rlimit(Rlimit::Data) {
        offer(
            v.saturating_sub(OVERHEAD),
            format!("the data limit (ulimit -d) of {}", show_size(v)),
        );
    }
    if let Some(v) = cgroup_limit() {
        offer(
            v.saturating_sub(OVERHEAD / 4),
            format!(
                "the memory limit of this process's cgroup, {}",
                show_size(v)
            ),
        );
    }
    best
}

/// A default budget: half of the machine's memory (4 GiB where it cannot be read), and no
/// more than half of what a limit of the process leaves for its heap (room for a growing
/// array's old and new copies, and for the allocator's own).
pub fn default_budget() -> usize {
    let machine = machine().map_or(4 << 30, |m| m / 2);
    let hard = hard_limit().map_or(usize::MAX, |(b, _)| b / 2);
    machine.min(hard).max(64 << 20)
}

enum Rlimit {
    AddressSpace,
    Data,
}

/// A soft resource limit of the process in bytes, if one is set.
#[cfg(unix)]
fn rlimit(which: Rlimit) -> Option<usize> {
    let resource = match which {
        Rlimit::AddressSpace => libc::RLIMIT_AS,
        Rlimit::Data => libc::RLIMIT_DATA,
    };
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one `rlimit` through a valid pointer.
    if unsafe { libc::getrlimit(resource, &mut r) } != 0 || r.rlim_cur == libc::RLIM_INFINITY {
        return None;
    }
    usize::try_from(r.rlim_cur).ok()
}

#[cfg(not(unix))]
fn rlimit(_: Rlimit) -> Option<usize> {
    None
}

/// The smallest memory limit on the path of this process's cgroup (v2 `memory.max`, or v1
/// `memory.limit_in_bytes`), if any.
fn cgroup_limit() -> Option<usize> {
    let cgroups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let read = |file: &str| -> Option<usize> {
        let text = std::fs::read_to_string(file).ok()?;
        let v: u64 = text.trim().parse().ok()?;
        // cgroup v1 says "no limit" with a number near 2^63.
        (v < 1 << 60).then(|| usize::try_from(v).ok()).flatten()
    };
    let mut best: Option<usize> = None;
    for line in cgroups.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let (root, file) = match controllers {
            "" => ("/sys/fs/cgroup", "memory.max"),
            c if c.split(',').any(|c| c == "memory") => {
                ("/sys/fs/cgroup/memory", "memory.limit_in_bytes")
            }
            _ => continue,
        };
        // The limit of every ancestor applies too.
        let mut dir = std::path::PathBuf::from(format!("{root}{path}"));
        loop {
            if let Some(v) = read(&format!("{}/{file}", dir.display())) {
                best = Some(best.map_or(v, |b| b.min(v)));
            }
            if dir.as_os_str().len() <= root.len() || !dir.pop() {
                break;
            }
        }
    }
    best
}

/// The machine's memory in bytes, where the system says.
pub fn machine() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// Parses a size: `4G`, `512M`, `1.5GB`, `64KiB`, `1000000` (bytes).
pub fn parse_size(s: &str) -> Option<usize> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: f64 = num.parse().ok()?;
    let unit = unit.trim().to_ascii_lowercase();
    let mult: f64 = match unit.trim_end_matches("ib").trim_end_matches('b') {
        "" => 1.0,
        "k" => 1024.0,
        "m" => 1024.0 * 1024.0,
        "g" => 1024.0 * 1024.0 * 1024.0,
        "t" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    let bytes = n * mult;
    (bytes.is_finite() && bytes >= 1.0 && bytes < usize::MAX as f64).then_some(bytes as usize)
}

/// A size for people: `1.5 GiB`, `300 MiB`.
pub fn show_size(bytes: usize) -> String {
    let b = bytes as f64;
    let (v, u) = if b >= (1u64 << 30) as f64 {
        (b / (1u64 << 30) as f64, "GiB")
    } else if b >= (1 << 20) as f64 {
        (b / (1 << 20) as f64, "MiB")
    } else if b >= 1024.0 {
        (b / 1024.0, "KiB")
    } else {
        return format!("{bytes} bytes");
    };
    if v >= 100.0 || (v - v.round()).abs() < 0.05 {
        format!("{v:.0} {u}")
    } else {
        format!("{v:.1} {u}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4G"), Some(4 << 30));
        assert_eq!(parse_size("512MiB"), Some(512 << 20));
        assert_eq!(parse_size("1.5gb"), Some(3 << 29));
        assert_eq!(parse_size("1000"), Some(1000));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("0"), None);
        assert_eq!(show_size(3 << 29), "1.5 GiB");
        assert_eq!(show_size(300 << 20), "300 MiB");
    }

    #[test]
    fn passing_the_budget_raises_the_flag() {
        std::thread::spawn(|| {
            let flag = AtomicBool::new(false);
            let base = in_use();
            let armed = arm(base + (8 << 20), &flag);
            let small = vec![0u8; 1 << 20];
            assert!(!flag.load(Ordering::Relaxed));
            assert!(passed_while().is_none());
            let big = {
                let _b = building("a test buffer");
                vec![1u8; 16 << 20]
            };
            assert!(flag.load(Ordering::Relaxed));
            assert_eq!(passed_while(), Some("a test buffer"));
            drop((small, big));
            assert!(in_use() < base + (1 << 20));
            drop(armed);
            assert!(!would_exceed(1 << 40), "disarmed, nothing is too large");
        })
        .join()
        .unwrap();
    }
}
