//! The record-scale kernel: codes with one two-heap splitting move (0.6, Grundy's game
//! `4!.0`, …) to tens of millions of heaps, two bytes a heap, on every core.
//!
//! The sparse-space method (see `sparse`) decides almost every heap from the pairs with a
//! rare heap. Heap `n`'s pairs `(i, s − i)` with both heaps below a block start `n₀` do not
//! depend on the heaps of the block `[n₀, n₀ + B)`, so a block is done in two phases:
//! 1. in parallel, each heap scans its rare pairs below `n₀` and, where the mex they give
//!    could still come from two common heaps, the full scan of pairs below `n₀` (the larger
//!    heap below `n₀` means `i > s − n₀`), stopping as soon as it cannot;
//! 2. in order, each heap adds its take moves and the pairs that reach into the block
//!    (`i <= s − n₀`, fewer than `B`), and resumes the full scan where phase 1 stopped if the
//!    mex moved back within reach of two common heaps.
//!
//! A change of the sparse mask inside a block voids phase 1 for the rest of it, which is then
//! done one heap at a time (phase 1 with `n₀ = n`).

use rayon::prelude::*;

use super::Control;
use super::rules::Moves;
use super::sparse::{SparseSpace, augmented, is_common};

/// Heaps per parallel block, and the heap from which blocks start (before it, one by one).
const BLOCK: usize = 128;
const PARALLEL_FROM: usize = 1 << 14;

/// The moves the kernel handles: `take` = `(d, bits)` as in `Moves`, one split.
#[derive(Clone, Debug)]
pub(super) struct Shape {
    take: Vec<(usize, u8)>,
    /// Remove `d`, split the rest into two heaps, unequal if `differ`.
    d: usize,
    differ: bool,
}

impl Shape {
    pub fn of(moves: &Moves) -> Option<Shape> {
        if moves.general.is_some() || moves.all_but.is_some() || !moves.split3.is_empty() {
            return None;
        }
        let [(d, c)] = moves.split2[..] else {
            return None;
        };
        let differ = match c {
            super::Constraint::Free => false,
            super::Constraint::Distinct | super::Constraint::NotAllEqual => true,
            super::Constraint::AllEqual => return None,
        };
        Some(Shape {
            take: moves.take.clone(),
            d,
            differ,
        })
    }
}

/// Values the kernel's marks hold; a larger value sends the caller to the `u32` kernels.
const MAX_VALUES: usize = 1 << 15;

/// Marks of one heap's option values, one byte per value below the block's bound: marking
/// is a plain store, with no read-modify-write chain through a word as a bit set would have
/// (that chain costs a store-to-load round trip whenever consecutive marks share a word).
type Marks = [u8];

#[inline]
fn mark(marks: &mut Marks, v: u32) {
    if let Some(slot) = marks.get_mut(v as usize) {
        *slot = 1;
    }
}

/// The least value `>= from` not marked (the bound if all below it are).
#[inline]
fn mex_from(marks: &Marks, from: u32) -> u32 {
    let mut v = from as usize;
    while v < marks.len() && marks[v] != 0 {
        v += 1;
    }
    v as u32
}

struct Kernel<'a> {
    shape: &'a Shape,
    g: &'a [u16],
    sparse: &'a SparseSpace,
}

impl Kernel<'_> {
    fn beyond(&self, m: u32, s: usize) -> bool {
        self.sparse.mask != 0 && is_common(augmented(s, m), self.sparse.mask)
    }

    /// The two-heap splits of `s` tokens: pairs `(i, s − i)` for `i` in `1..=half`.
    fn half(&self, s: usize) -> usize {
        if self.shape.differ && s.is_multiple_of(2) {
            s / 2 - 1
        } else {
            s / 2
        }
    }

    /// Phase 1 for heap `n >= d + 2`: pairs with both heaps below `n0` (`marks` zeroed).
    /// Returns where a full scan should resume (`None`: it is complete).
    fn phase1(&self, n: usize, n0: usize, marks: &mut Marks) -> Option<usize> {
        let (g, s) = (self.g, n - self.shape.d);
        let half = self.half(s);
        // Pairs (i, s - i) with s - i < n0 have i > s - n0.
        let first = (s + 1).saturating_sub(n0).max(1);
        for &i in &self.sparse.rare {
            if i >= s {
                break;
            }
            let j = s - i;
            if i.min(j) < first || (self.shape.differ && i == j) {
                continue;
            }
            mark(marks, u32::from(g[i] ^ g[j]));
        }
        let mut m = mex_from(marks, 0);
        if self.beyond(m, s) {
            return Some(first);
        }
        // The whole scan, not a bounded one: the mex from the rare pairs can almost always
        // still come from two common heaps (0.6: 1 047 685 of the first 2^20 heaps), and
        // the scan, about 2 700 pairs a heap there against 1 583 rare ones, is the bulk of
        // the work. Left to phase 2 it ran on one core. The pairs reaching into the block
        // rarely move the mex back within reach of two common heaps (6 187 of those
        // heaps), and then phase 2 resumes the scan where this one stopped.
        if first > half {
            return None;
        }
        let low = &g[first..=half];
        let high = &g[s - half..=s - first];
        for (k, (&l, &r)) in low.iter().zip(high.iter().rev()).enumerate() {
            let x = u32::from(l ^ r);
            mark(marks, x);
            if x == m {
                m = mex_from(marks, m + 1);
                if self.beyond(m, s) {
                    return Some(first + k + 1);
                }
            }
        }
        None
    }

    /// Phase 2: the value of heap `n`, the heaps below it known.
    fn phase2(&self, n: usize, n0: usize, marks: &mut Marks, resume: Option<usize>) -> u32 {
        let g = self.g;
        for &(d, bits) in &self.shape.take {
            if d > n {
                break;
            }
            if bits & 1 != 0 && n == d {
                mark(marks, 0);
            }
            if bits & 2 != 0 && n > d {
                mark(marks, u32::from(g[n - d]));
            }
        }
        if n < self.shape.d + 2 {
            return mex_from(marks, 0);
        }
        let s = n - self.shape.d;
        let half = self.half(s);
        let first = (s + 1).saturating_sub(n0).max(1);
        for i in 1..first.min(half + 1) {
            mark(marks, u32::from(g[i] ^ g[s - i]));
        }
        let mut m = mex_from(marks, 0);
        if self.beyond(m, s) {
            return m;
        }
        let Some(from) = resume else { return m };
        if from > half {
            return m;
        }
        let low = &g[from..=half];
        let high = &g[s - half..=s - from];
        for (&l, &r) in low.iter().zip(high.iter().rev()) {
            let x = u32::from(l ^ r);
            mark(marks, x);
            if x == m {
                m = mex_from(marks, m + 1);
                if self.beyond(m, s) {
                    return m;
                }
            }
        }
        m
    }

    /// Both phases for one heap on its own (`n₀ = n`).
    fn alone(&self, n: usize, marks: &mut Marks) -> u32 {
        marks.fill(0);
        let resume = if n >= self.shape.d + 2 {
            self.phase1(n, n, marks)
        } else {
            None
        };
        self.phase2(n, n, marks, resume)
    }
}

/// Why the record kernel stopped early.
pub(super) enum Stop {
    Cancelled(Vec<u16>),
    /// A value passed the kernel's range: the caller falls back to the `u32` kernels.
    TooLarge,
}

/// A finished record run: the values, and the sparse split it ended with.
#[derive(Clone, Debug)]
pub struct RecordRun {
    /// Nim-values of heaps `0..=n_max`, two bytes each.
    pub values: Vec<u16>,
    /// The sparse-space mask (0: no split was worth it) and the heaps it calls rare.
    pub mask: u64,
    pub rare_heaps: Vec<usize>,
}

impl RecordRun {
    /// The distinct values of the rare heaps, ascending.
    pub fn rare_values(&self) -> Vec<u16> {
        let mut seen: Vec<u16> = self.rare_heaps.iter().map(|&n| self.values[n]).collect();
        seen.sort_unstable();
        seen.dedup();
        seen
    }
}

/// Nim-values of heaps `0..=n_max`, two bytes each.
pub(super) fn nim_sequence(shape: &Shape, n_max: usize, ctl: &Control) -> Result<RecordRun, Stop> {
    let total = n_max + 1;
    let mut g: Vec<u16> = Vec::with_capacity(total);
    let mut sparse = SparseSpace::new(true);
    let mut arena: Vec<u8> = Vec::new();
    let mut resumes: Vec<Option<usize>> = Vec::with_capacity(BLOCK);
    let mut since = 0usize;
    let mut max_value = 0u32;
    while g.len() < total {
        if ctl.cancelled() {
            return Err(Stop::Cancelled(g));
        }
        let n0 = g.len();
        // Xors of values below a power of two stay below it, and a mex is at most one
        // more than the values marked: twice the power above every value bounds both.
        let bound = 2 * (max_value as usize + 1).next_power_of_two();
        if bound > MAX_VALUES {
            return Err(Stop::TooLarge);
        }
        let parallel = n0 >= PARALLEL_FROM;
        let n1 = if parallel {
            (n0 + BLOCK).min(total)
        } else {
            n0 + 1
        };
        let generation = sparse.generation;
        arena.clear();
        arena.resize((n1 - n0) * bound, 0);
        resumes.clear();
        resumes.resize(n1 - n0, None);
        if parallel {
            let kernel = Kernel {
                shape,
                g: &g,
                sparse: &sparse,
            };
            arena
                .par_chunks_mut(bound)
                .zip(resumes.par_iter_mut())
                .enumerate()
                .for_each(|(k, (marks, resume))| {
                    let n = n0 + k;
                    if n >= shape.d + 2 {
                        *resume = kernel.phase1(n, n0, marks);
                    }
                });
        }
        let block_max = max_value;
        for (k, n) in (n0..n1).enumerate() {
            let kernel = Kernel {
                shape,
                g: &g,
                sparse: &sparse,
            };
            let marks = &mut arena[k * bound..(k + 1) * bound];
            // Phase 1 holds if the mask and the value bound are those it ran under.
            let value = if parallel && sparse.generation == generation && max_value == block_max {
                kernel.phase2(n, n0, marks, resumes[k])
            } else {
                let mut own = vec![0u8; 2 * (max_value as usize + 1).next_power_of_two()];
                kernel.alone(n, &mut own)
            };
            if value as usize >= MAX_VALUES / 2 {
                return Err(Stop::TooLarge);
            }
            max_value = max_value.max(value);
            g.push(value as u16);
            sparse.record(n, &g);
        }
        since += n1 - n0;
        if since >= 1 << 14 {
            ctl.report(g.len(), total);
            since = 0;
        }
    }
    ctl.report(g.len(), total);
    Ok(RecordRun {
        values: g,
        mask: sparse.mask,
        rare_heaps: std::mem::take(&mut sparse.rare),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Code, Control, HeapRules};
    use super::*;

    fn sequential(rules: &HeapRules, n: usize) -> Vec<u32> {
        let moves = Moves::new(rules);
        let mut solver = super::super::kernel::Solver::new(&moves);
        solver.extend_to(n, &Control::default()).unwrap();
        solver.into_values()
    }

    fn record(code: &str, n: usize) -> Vec<u16> {
        let rules = HeapRules::from(Code::parse(code).unwrap());
        let moves = Moves::new(&rules);
        nim_sequence(&Shape::of(&moves).unwrap(), n, &Control::default())
            .ok()
            .unwrap()
            .values
    }

    /// The parallel kernel against the sequential one, well past the parallel threshold and
    /// several mask rebuilds, on games of both kinds (free and unequal splits, with takes).
    #[test]
    fn agrees_with_the_sequential_kernel() {
        for code in ["0.6", "4!.0", "0.16", "0.26", "4!.3", "0.4", "0.06"] {
            let rules = HeapRules::from(Code::parse(code).unwrap());
            let n = 70_000;
            let plain = sequential(&rules, n);
            let fast = record(code, n);
            assert!(
                plain.iter().zip(&fast).all(|(&a, &b)| a == u32::from(b)),
                "{code}"
            );
            assert_eq!(plain.len(), fast.len());
        }
    }

    #[test]
    fn shapes() {
        let shape = |c: &str| Shape::of(&Moves::new(&HeapRules::from(Code::parse(c).unwrap())));
        assert!(shape("0.6").is_some());
        assert!(shape("4!.0").is_some());
        assert!(shape("0.77").is_none()); // two splitting moves
        assert!(shape("0.8").is_none()); // three heaps
        assert!(shape("4=.0").is_none());
    }

    #[test]
    fn cancel_returns_the_values_so_far() {
        let flag = std::sync::atomic::AtomicBool::new(false);
        let stop = |done: usize, _: usize| {
            if done > 40_000 {
                flag.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        };
        let ctl = Control::default().with_cancel(&flag).with_progress(&stop);
        let rules = HeapRules::from(Code::parse("0.6").unwrap());
        let shape = Shape::of(&Moves::new(&rules)).unwrap();
        match nim_sequence(&shape, 10_000_000, &ctl) {
            Err(Stop::Cancelled(values)) => {
                assert!(values.len() > 40_000 && values.len() < 10_000_000);
                let plain = sequential(&rules, values.len() - 1);
                assert!(plain.iter().zip(&values).all(|(&a, &b)| a == u32::from(b)));
            }
            _ => panic!("not cancelled"),
        }
    }
}
