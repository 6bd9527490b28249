//! Heap games: take-and-break codes, subtraction and all-but games, their nim-sequences,
//! periodicity and plots.
//!
//! Self-contained (only `std`), so it can be mounted anywhere.
//!
//! Modules: `code` (CGSuite take-and-break codes), `rules` (the game on one heap and its
//! options), `kernel` (nim-sequences of hexadecimal codes and subtraction games), `general`
//! (every other code: periods, added tokens, many heaps), `record` (the parallel two-byte
//! kernel for one splitting move, at record scale), `needed` (its scan of pairs for the values
//! a heap still needs, 32 pairs at a time), `sparse` (rare/common value split),
//! `positions` (bit-parallel splits for games with few values), `periodicity`, `plot`.
//!
//! ```text
//! let kayles = HeapRules::from(Code::parse("0.77")?);
//! kayles.nim_sequence(11, &Control::default())?  // [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
//! kayles.periodicity(10_000, &Control::default()) // period 12, preperiod 71, certified
//! ```

mod code;
mod general;
mod kernel;
mod needed;
mod periodicity;
mod plot;
mod positions;
mod record;
mod rules;
mod sparse;

use loony_core::packed::Packed;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

pub use code::{Code, CodeError, Constraint, Digit, MAX_COUNT};
pub use periodicity::{Bound, Period, Periodicity, apparent_periodicity};
pub use plot::{DEFAULT_SIZE, FONT_FAMILY, Layout, MAX_SIZE, MIN_SIZE, Plot, escape};
pub use record::RecordRun;
pub use rules::HeapRules;

/// How a long computation is steered: an optional cancel flag (set by Ctrl-C), an optional
/// progress callback `(done, total)` and an optional sink that sees the values as they are
/// computed. All are polled every few thousand heaps.
#[derive(Clone, Copy, Default)]
pub struct Control<'a> {
    pub cancel: Option<&'a AtomicBool>,
    pub progress: Option<&'a dyn Fn(usize, usize)>,
    /// Called with every value computed so far (the sink keeps count of what it has seen);
    /// `false` stops the computation as a cancel does (a file that cannot be written).
    pub sink: Option<&'a dyn Fn(Values<'_>) -> bool>,
}

/// The nim-values of heaps `0..len` at the width the kernel keeps them.
pub use loony_core::packed::PackedRef as Values;

impl<'a> Control<'a> {
    pub fn with_cancel(mut self, flag: &'a AtomicBool) -> Self {
        self.cancel = Some(flag);
        self
    }

    pub fn with_progress(mut self, progress: &'a dyn Fn(usize, usize)) -> Self {
        self.progress = Some(progress);
        self
    }

    pub fn with_sink(mut self, sink: &'a dyn Fn(Values<'_>) -> bool) -> Self {
        self.sink = Some(sink);
        self
    }

    /// Hands the values so far to the sink: `false` if it asks to stop.
    fn emit(&self, values: Values<'_>) -> bool {
        self.sink.is_none_or(|sink| sink(values))
    }

    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    fn report(&self, done: usize, total: usize) {
        if let Some(progress) = self.progress {
            progress(done, total);
        }
    }
}

impl fmt::Debug for Control<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Control")
            .field("cancel", &self.cancel)
            .field("progress", &self.progress.is_some())
            .field("sink", &self.sink.is_some())
            .finish()
    }
}

/// The computation was cancelled; `values` holds the nim-values of heaps `0..values.len()`
/// computed before it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interrupted {
    pub values: Vec<u32>,
}

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "interrupted after {} heaps", self.values.len())
    }
}

impl std::error::Error for Interrupted {}

/// A streamed computation stopped by a cancel or by its sink; the values went to the sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// The rare heaps of a sparse game (see [`HeapRules::rare_values`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RareValues {
    /// A heap `n` is common when `(g(n) << 1 | n & 1) & mask` has an odd number of bits; 0
    /// when no mask splits the values (every heap is then rare, and none is listed).
    pub mask: u64,
    /// The rare heaps and their values, ascending. Heap 0 is judged by the same criterion
    /// as the others: its augmented value `0 << 1 | 0` has no bit under any mask, so it is
    /// rare whenever there is a mask (the published counts, such as Grundy's game's 1 287
    /// rare heaps to 2^32, include it). The kernels' own lists leave it out, since heap 0
    /// is in no split's pair.
    pub heaps: Vec<(usize, u32)>,
    /// The largest value of any heap.
    pub largest: u32,
}

/// The rare heaps `rare` (heaps from 1, as the kernels keep them) with their values, and heap
/// 0 first where the criterion calls it rare (with a mask, always: its augmented value is 0).
/// No mask, no split: nothing is listed.
fn with_heap_zero(
    mask: u64,
    g0: u32,
    rare: &[usize],
    value: impl Fn(usize) -> u32,
) -> Vec<(usize, u32)> {
    let zero = mask != 0 && !sparse::is_common(sparse::augmented(0, g0), mask);
    let mut heaps = Vec::with_capacity(rare.len() + usize::from(zero));
    if zero {
        heaps.push((0, g0));
    }
    heaps.extend(rare.iter().map(|&n| (n, value(n))));
    heaps
}

/// From this many heaps on, `nim_sequence` uses the record kernel where it pays.
const RECORD_FROM: usize = 1 << 16;
/// The heaps the sparse kernel computes before the record kernel is chosen: Grundy's game
/// and 0.6 show their sparse split by 2^14 (not yet at 2^12).
const PROBE: usize = 1 << 14;

/// Whether the record kernel pays for heaps `0..=n_max`: only for a long sequence with a
/// sparse split that has rare heaps (Grundy's game, 0.6: 1.6× the sparse kernel at 2^16);
/// without one (0.07, 0.71, 0.35, whose heaps are all common) it is 5–12× slower. The
/// sparse kernel `solver` computes the first [`PROBE`] heaps to see (its values are kept
/// when it goes on; the sink sees them, and again from 0 if the record kernel runs, which it
/// counts). `Err` on a cancel.
fn record_pays(solver: &mut kernel::Solver, n_max: usize, ctl: &Control) -> Result<bool, ()> {
    if n_max < RECORD_FROM {
        return Ok(false);
    }
    // The bar is the kernel's that runs to the end.
    let quiet = Control {
        progress: None,
        ..*ctl
    };
    solver.extend_to(PROBE, &quiet)?;
    Ok(solver
        .sparse()
        .is_some_and(|(mask, rare)| mask != 0 && !rare.is_empty()))
}

/// A long sequence as its kernel leaves it.
enum Long {
    Record(Vec<u16>),
    Sparse(Vec<u32>),
}

impl HeapRules {
    /// Nim-values of heaps `0..=n_max`, two bytes each, by the parallel record kernel (with
    /// the sparse split it ended with); `None`
    /// unless the rules have exactly one move that splits into two heaps (besides moves that
    /// leave at most one heap) and every value fits in 16 bits.
    pub fn record_sequence(
        &self,
        n_max: usize,
        ctl: &Control,
    ) -> Option<Result<RecordRun, Interrupted>> {
        let shape = record::Shape::of(&rules::Moves::new(self))?;
        match record::nim_sequence(&shape, n_max, ctl) {
            Ok(values) => Some(Ok(values)),
            Err(record::Stop::Cancelled(values)) => Some(Err(Interrupted {
                values: values.into_iter().map(u32::from).collect(),
            })),
            Err(record::Stop::TooLarge) => None,
        }
    }

    /// Nim-values of heaps `0..=n_max`, packed: the record kernel's two bytes a heap are
    /// kept as they are (or narrowed to one), never widened.
    pub fn nim_sequence_packed(&self, n_max: usize, ctl: &Control) -> Result<Packed, Interrupted> {
        Ok(match self.long_sequence(n_max, ctl)? {
            Long::Record(values) => Packed::from_u16(values),
            Long::Sparse(values) => Packed::from_u32(values),
        })
    }

    /// Nim-values of heaps `0..=n_max`.
    pub fn nim_sequence(&self, n_max: usize, ctl: &Control) -> Result<Vec<u32>, Interrupted> {
        Ok(match self.long_sequence(n_max, ctl)? {
            Long::Record(values) => values.into_iter().map(u32::from).collect(),
            Long::Sparse(values) => values,
        })
    }

    /// The sequence by the kernel that pays for it. The record kernel pays only where the
    /// sequence has a sparse split with rare heaps (Grundy's game, 0.6: 1.6× the sparse
    /// kernel at 2^16); without one (0.07, 0.71, 0.35, whose values are all common) it is
    /// 5–12× slower. The sparse kernel's first [`PROBE`] heaps show which, and are kept when
    /// it goes on.
    fn long_sequence(&self, n_max: usize, ctl: &Control) -> Result<Long, Interrupted> {
        let moves = rules::Moves::new(self);
        let mut solver = kernel::Solver::new(&moves);
        let stopped = |solver: kernel::Solver| Interrupted {
            values: solver.into_values(),
        };
        match record_pays(&mut solver, n_max, ctl) {
            Err(()) => return Err(stopped(solver)),
            Ok(true) => {
                if let Some(result) = self.record_sequence(n_max, ctl) {
                    return result.map(|run| Long::Record(run.values));
                }
            }
            Ok(false) => {}
        }
        match solver.extend_to(n_max, ctl) {
            Ok(()) => Ok(Long::Sparse(solver.into_values())),
            Err(()) => Err(stopped(solver)),
        }
    }

    /// The heaps `0..=n_max` outside the common class of the sparse split (Gangolli–Plambeck,
    /// Flammenkamp) and their values, with the mask that defines the class: `None` when the
    /// sparse argument does not apply (no move splits into two heaps, a move leaves three, or a
    /// code beyond the fast kernels). The record kernel's two bytes a heap are all it holds, and
    /// they are dropped before returning; an interrupted run gives back no values.
    pub fn rare_values(
        &self,
        n_max: usize,
        ctl: &Control,
    ) -> Option<Result<RareValues, Interrupted>> {
        let moves = rules::Moves::new(self);
        if let Some(shape) = record::Shape::of(&moves) {
            match record::nim_sequence(&shape, n_max, ctl) {
                Ok(run) => {
                    let values = |n: usize| u32::from(run.values[n]);
                    return Some(Ok(RareValues {
                        mask: run.mask,
                        heaps: with_heap_zero(run.mask, values(0), &run.rare_heaps, values),
                        largest: run.values.iter().copied().max().map_or(0, u32::from),
                    }));
                }
                // The heaps done are dropped, not widened to words: at 2^31 heaps that would
                // be 8 GB more at the moment of stopping.
                Err(record::Stop::Cancelled(_)) => {
                    return Some(Err(Interrupted { values: Vec::new() }));
                }
                Err(record::Stop::TooLarge) => {}
            }
        }
        let mut solver = kernel::Solver::new(&moves);
        solver.sparse()?;
        if solver.extend_to(n_max, ctl).is_err() {
            return Some(Err(Interrupted {
                values: solver.into_values(),
            }));
        }
        let (mask, rare) = solver.sparse()?;
        let values = solver.values();
        Some(Ok(RareValues {
            mask,
            heaps: with_heap_zero(mask, values[0], rare, |n| values[n]),
            largest: values.iter().copied().max().unwrap_or(0),
        }))
    }

    /// The bytes a heap that a long run (`rare_values`, `stream_sequence`) holds: two where
    /// the record kernel can take it (one move that splits a heap in two), else four. (The
    /// record kernel hands over to the four-byte kernels if a value reaches 2^14.)
    pub fn bytes_per_heap(&self) -> usize {
        if record::Shape::of(&rules::Moves::new(self)).is_some() {
            2
        } else {
            4
        }
    }

    /// Computes heaps `0..=n_max` for the sink of `ctl` and keeps none of them: the kernel's
    /// own array (two bytes a heap for the record kernel) is freed on return. `Err` if
    /// cancelled or the sink stopped it.
    pub fn stream_sequence(&self, n_max: usize, ctl: &Control) -> Result<(), Stopped> {
        let moves = rules::Moves::new(self);
        let mut solver = kernel::Solver::new(&moves);
        if record_pays(&mut solver, n_max, ctl).map_err(|()| Stopped)?
            && let Some(shape) = record::Shape::of(&moves)
        {
            // Dropped as they are on a stop: a cancelled run's values are not widened.
            match record::nim_sequence(&shape, n_max, ctl) {
                Ok(_) => return Ok(()),
                Err(record::Stop::Cancelled(_)) => return Err(Stopped),
                // A value past 16 bits: the u32 kernel goes on from its probe, and the sink
                // sees heaps again from 0 (it keeps count, so it writes each once).
                Err(record::Stop::TooLarge) => {}
            }
        }
        solver.extend_to(n_max, ctl).map_err(|()| Stopped)
    }

    /// Computes values up to heap `bound.heaps` at most (or `bound.dense_heaps` for a
    /// sequence whose heaps are all common), stopping as soon as periodicity is certified
    /// (Guy–Smith for octal codes, the linear bound for pure take-away games); otherwise
    /// reports the apparent period, if any. A cancel stops early, with `interrupted` set and
    /// what was found so far.
    pub fn periodicity(&self, bound: impl Into<Bound>, ctl: &Control) -> Periodicity {
        periodicity::search(&rules::Moves::new(self), bound.into(), ctl)
    }

    /// The period that a theorem certifies from the nim-values of heaps `0..values.len()`
    /// (computed elsewhere, e.g. cached), with the heap it is certified at; nothing is
    /// computed beyond them.
    /// Whether the periodicity theorem applies to this game at all (so a period may be
    /// certified from enough of its values).
    pub fn has_certificate(&self) -> bool {
        periodicity::has_certificate(&rules::Moves::new(self))
    }

    pub fn certified_period(&self, values: &[u32], ctl: &Control) -> Option<(Period, usize)> {
        periodicity::certify(&rules::Moves::new(self), values, ctl)
    }
}

#[cfg(test)]
mod rare_tests {
    use super::sparse::{augmented, is_common};
    use super::*;

    /// The values by plain pair scans: no sparse space, no record kernel.
    fn plain(rules: &HeapRules, n: usize) -> Vec<u32> {
        let moves = rules::Moves::new(rules);
        let mut solver = kernel::Solver::plain(&moves);
        solver.extend_to(n, &Control::default()).unwrap();
        solver.into_values()
    }

    /// `rare_values` against a scan of the whole sequence under the mask it gives, and that
    /// mask against every mask: none leaves fewer heaps rare (the kernel re-chooses it when
    /// the heap count doubles, so at `2^k - 1` it was chosen from all the heaps).
    fn check(code: &str, values: &[u32]) {
        let rules = HeapRules::from(Code::parse(code).unwrap());
        let n = values.len() - 1;
        let rare = rules.rare_values(n, &Control::default()).unwrap().unwrap();
        assert_ne!(rare.mask, 0, "{code}: a split exists");
        let scan: Vec<(usize, u32)> = (0..=n)
            .filter(|&m| !is_common(augmented(m, values[m]), rare.mask))
            .map(|m| (m, values[m]))
            .collect();
        assert_eq!(rare.heaps, scan, "{code}");
        assert_eq!(rare.largest, *values.iter().max().unwrap());
        let mut histogram = vec![0u64; 1 << 12];
        for (m, &v) in values.iter().enumerate().skip(1) {
            histogram[augmented(m, v) as usize] += 1;
        }
        let rare_under = |mask: u64| -> u64 {
            (0..histogram.len())
                .filter(|&a| !is_common(a as u64, mask))
                .map(|a| histogram[a])
                .sum()
        };
        let best = (1..histogram.len() as u64).map(rare_under).min().unwrap();
        assert_eq!(rare_under(rare.mask), best, "{code}: mask {:#x}", rare.mask);
    }

    #[test]
    fn rare_values_match_a_scan_of_plain_values() {
        // The record kernel (one split) and the general one (two splits: 0.56, 0.166).
        for code in ["0.6", "4!.0", "0.36", "0.56", "0.166"] {
            let rules = HeapRules::from(Code::parse(code).unwrap());
            check(code, &plain(&rules, (1 << 14) - 1));
        }
    }

    #[test]
    #[ignore = "slow tier: .ci/run runs it; cargo test -- --ignored"]
    fn rare_values_to_2_20() {
        for code in ["0.6", "4!.0"] {
            let rules = HeapRules::from(Code::parse(code).unwrap());
            let values = rules
                .nim_sequence((1 << 20) - 1, &Control::default())
                .unwrap();
            check(code, &values);
        }
    }

    #[test]
    fn no_split_for_three_heaps_or_takes_only() {
        for code in ["0.8", "0.77", "0.33"] {
            let rules = HeapRules::from(Code::parse(code).unwrap());
            let r = rules.rare_values(100, &Control::default());
            assert_eq!(r.is_none(), code != "0.77", "{code}");
        }
        let sub = HeapRules::subtraction(vec![1, 2]);
        assert!(sub.rare_values(100, &Control::default()).is_none());
    }
}
