//! The record-scale kernel: codes with one two-heap splitting move (0.6, Grundy's game
//! `4!.0`, …) to tens of millions of heaps, two bytes a heap, on every core.
//!
//! The sparse-space method (see `sparse`) decides almost every heap from the pairs with a
//! rare heap. Heap `n`'s pairs `(i, s − i)` with both heaps below a block start `n₀` do not
//! depend on the heaps of the block `[n₀, n₀ + B)`, so a block is done in two phases:
//! 1. in parallel, each heap scans its rare pairs below `n₀` and, where the mex they give
//!    could still come from two common heaps, the scan of pairs below `n₀` (the larger
//!    heap below `n₀` means `i > s − n₀`) for the values below the least one two common
//!    heaps cannot make, stopping when all are made;
//! 2. in order, each heap adds its take moves and the pairs that reach into the block
//!    (`i <= s − n₀`, fewer than `B`), and scans the pairs below `n₀` again if these moved
//!    the mex past phase 1's candidate, back within reach of two common heaps.
//!
//! A change of the sparse mask inside a block voids phase 1 for the rest of it, which is then
//! done one heap at a time (phase 1 with `n₀ = n`).
//!
//! Phase 1 runs on groups of `LANES` consecutive heaps whose marks are interleaved, so a
//! rare heap's pairs with the whole group are one contiguous load and fixed-offset stores;
//! scans test runs of pairs against the values still needed, the first runs scattered (see
//! `needed`; without AVX2, they xor a run in vector code and look the pairs up one by one).

use rayon::prelude::*;

use super::Control;
use super::needed::{Needed, WINDOW, window_runs};
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

/// Heaps whose marks phase 1 keeps interleaved (one parallel task): a rare heap `i` pairs
/// with the run of heaps `s − i` of `LANES` consecutive heaps, so its pairs are contiguous
/// loads and stores at fixed offsets, with the loads of `i` and its value done once.
const LANES: usize = 8;

/// How few needed values a scan compares with each pair rather than looking each pair up,
/// and the filler (no xor of two values below 2^15 is `u16::MAX`).
const FEW: usize = 4;
const NONE: u16 = u16::MAX;

/// Pairs a scan xors before it looks them up (a run the compiler turns
/// into vector loads and xors).
const SCAN_RUN: usize = 32;

/// The marks of one heap's option values among those of `L` heaps, one byte per value
/// below the block's bound, value-major (value `v` of lane `k` at `v * L + k`): marking is
/// a plain store, with no read-modify-write chain through a word as a bit set would have
/// (that chain costs a store-to-load round trip whenever consecutive marks share a word).
struct Marks<'a, const L: usize> {
    /// One row per value, one byte per lane.
    rows: &'a mut [[u8; L]],
    lane: usize,
}

impl<'a, const L: usize> Marks<'a, L> {
    fn new(data: &'a mut [u8], lane: usize) -> Self {
        assert!(lane < L);
        Marks {
            rows: data.as_chunks_mut().0,
            lane,
        }
    }

    #[inline]
    fn mark(&mut self, v: u32) {
        if let Some(row) = self.rows.get_mut(v as usize) {
            // `lane < L`: the remainder only spares a bounds check.
            row[self.lane % L] = 1;
        }
    }

    /// Values below the bound, a power of two.
    fn bound(&self) -> usize {
        self.rows.len()
    }

    fn is_marked(&self, v: u32) -> bool {
        self.rows
            .get(v as usize)
            .is_some_and(|row| row[self.lane % L] != 0)
    }

    /// The least value `>= from` not marked (the bound if all below it are).
    #[inline]
    fn mex_from(&self, from: u32) -> u32 {
        let mut v = from as usize;
        while self.rows.get(v).is_some_and(|row| row[self.lane % L] != 0) {
            v += 1;
        }
        v as u32
    }
}

/// The pairs of the rare heaps `rare` (each the smaller heap, `2i < s₀`) with `LANES`
/// consecutive heaps from `s₀` tokens, into the rows of their interleaved marks. Kept out
/// of line: inlined, it ran short of registers.
#[inline(never)]
fn rare_lanes(g: &[u16], rare: &[usize], s0: usize, rows: &mut [[u8; LANES]]) {
    // Values are below half the bound, a power of two, and so are their xors: `& wrap`
    // only spares the bounds checks.
    assert!(rows.len().is_power_of_two());
    let wrap = rows.len() - 1;
    for &i in rare {
        let v = g[i];
        let high: &[u16; LANES] = g[s0 - i..s0 - i + LANES].try_into().expect("LANES heaps");
        let mut xs = [0u16; LANES];
        for (x, &h) in xs.iter_mut().zip(high) {
            *x = v ^ h;
        }
        for (k, &x) in xs.iter().enumerate() {
            // SAFETY: `x & wrap < rows.len()`, a power of two (asserted above). With the
            // bounds checks the compiler keeps, this loop did a third more instructions.
            unsafe { rows.get_unchecked_mut(usize::from(x) & wrap)[k] = 1 };
        }
    }
}

/// The marks of a lane group as one bit set per lane (value `v` is bit `v % 64` of word
/// `v / 64`), transposed from the rows a word (64 values) at a time as the lanes' searches
/// reach them: the mex, the candidate and the needed values are then found a word at a time,
/// where walking the rows took a load, a test and a branch a value for each of them.
struct Columns {
    /// Lane `k`'s word `w` at `k * per_lane + w`.
    words: Vec<u64>,
    per_lane: usize,
    /// Words done in every lane.
    filled: usize,
}

// A row of the lane group's marks is read as one little-endian word.
const _: () = assert!(LANES == 8);

impl Columns {
    fn new(bound: usize) -> Columns {
        let per_lane = bound.div_ceil(64);
        Columns {
            words: vec![0; LANES * per_lane],
            per_lane,
            filled: 0,
        }
    }

    /// Lane `lane`'s word `w` (`w < per_lane`), transposing the rows up to it first.
    fn word(&mut self, rows: &[[u8; LANES]], lane: usize, w: usize) -> u64 {
        while self.filled <= w {
            let f = self.filled;
            let mut lanes = [0u64; LANES];
            for b in 0..8 {
                // Marks are 0 or 1, so bit `t` of each byte is value `8b + t`'s mark.
                let mut eight = 0u64;
                for t in 0..8 {
                    let row = rows.get(64 * f + 8 * b + t).copied().unwrap_or([0; LANES]);
                    eight |= u64::from_le_bytes(row) << t;
                }
                for (k, word) in lanes.iter_mut().enumerate() {
                    *word |= (eight >> (8 * k) & 0xff) << (8 * b);
                }
            }
            for (k, word) in lanes.into_iter().enumerate() {
                self.words[k * self.per_lane + f] = word;
            }
            self.filled += 1;
        }
        self.words[lane * self.per_lane + w]
    }

    /// The least unmarked value `>= from` of lane `lane` whose bit is also set in `also`
    /// (all ones if `None`), or `bound` if there is none below it.
    fn first_unmarked(
        &mut self,
        rows: &[[u8; LANES]],
        lane: usize,
        from: usize,
        also: Option<&[u64]>,
    ) -> usize {
        let bound = rows.len();
        let mut w = from / 64;
        while w < self.per_lane {
            let mut free = !self.word(rows, lane, w) & also.map_or(u64::MAX, |a| a[w]);
            if w == from / 64 {
                free &= u64::MAX << (from % 64);
            }
            if free != 0 {
                return (64 * w + free.trailing_zeros() as usize).min(bound);
            }
            w += 1;
        }
        bound
    }

    /// The 256 bits of lane `lane` from bit `start` (`start + 256` within the filled words
    /// or past the bound, where the bits are 0).
    fn window(&self, lane: usize, start: usize) -> [u64; 4] {
        let lane_words = &self.words[lane * self.per_lane..][..self.filled];
        let at = |w: usize| lane_words.get(w).copied().unwrap_or(0);
        let (w, shift) = (start / 64, start % 64);
        std::array::from_fn(|q| {
            let low = at(w + q) >> shift;
            if shift == 0 {
                low
            } else {
                low | at(w + q + 1) << (64 - shift)
            }
        })
    }

    fn mark(&mut self, lane: usize, v: usize) {
        self.words[lane * self.per_lane + v / 64] |= 1 << (v % 64);
    }
}

/// Where phase 1 left a heap: every value below `mex` is marked; `complete` if its scan
/// looked at every pair below `n₀` for the values below `candidate` (so those it left
/// unmarked are made by none of them).
#[derive(Clone, Copy, Default)]
struct Left {
    mex: u32,
    candidate: u32,
    complete: bool,
}

struct Kernel<'a> {
    shape: &'a Shape,
    g: &'a [u16],
    sparse: &'a SparseSpace,
    /// For a heap of parity `p`, the values below the bound beyond two common heaps, as a bit
    /// set (see `Columns`) at `common[p]`.
    common: &'a [Vec<u64>; 2],
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

    /// The xors of the pairs `(i, s − i)` for `i` in `i..i + len` (`len <= SCAN_RUN`) into
    /// `xs[..len]`; a full run is fixed-length array code, which the compiler vectorises.
    #[inline(always)]
    fn xors(&self, s: usize, i: usize, len: usize, xs: &mut [u16; SCAN_RUN]) {
        let g = self.g;
        if len == SCAN_RUN {
            let low: &[u16; SCAN_RUN] = g[i..i + SCAN_RUN].try_into().expect("a run");
            let high: &[u16; SCAN_RUN] = g[s + 1 - i - SCAN_RUN..=s - i].try_into().expect("a run");
            for (k, x) in xs.iter_mut().enumerate() {
                *x = low[k] ^ high[SCAN_RUN - 1 - k];
            }
        } else {
            let low = &g[i..i + len];
            let high = &g[s + 1 - i - len..=s - i];
            for ((x, &l), &r) in xs.iter_mut().zip(low).zip(high.iter().rev()) {
                *x = l ^ r;
            }
        }
    }

    /// Marks every pair `(i, s − i)` for `i` in `from..to`.
    fn mark_pairs<const L: usize>(&self, s: usize, from: usize, to: usize, marks: &mut Marks<L>) {
        let mut xs = [0u16; SCAN_RUN];
        let mut i = from;
        while i < to {
            let len = (to - i).min(SCAN_RUN);
            self.xors(s, i, len, &mut xs);
            for &x in &xs[..len] {
                marks.mark(u32::from(x));
            }
            i += len;
        }
    }

    /// The scan of the pairs `(i, s − i)`, `i` in `from..to`, for the mex: it can be no
    /// more than the least unmarked value `c` beyond two common heaps (no pair of them makes
    /// it), so the pairs only have to make the unmarked values below `c` — the *needed* ones,
    /// each marked when a pair makes it. The scan stops when none is left (the mex is `c`).
    ///
    /// Most pairs make nothing needed, so a pair costs a load from `need`, not a store:
    /// marking every pair's value was most of the kernel's time (Grundy's game scans about
    /// 2 700 pairs a heap, with some hundred needed values at the start and a few at the end).
    /// Values the scan does not need stay unmarked, so a later scan of these pairs starts
    /// over from `from` (see `phase2`). `need` is zero, as long as the marks, and is left so.
    fn settle<const L: usize>(
        &self,
        s: usize,
        from: usize,
        to: usize,
        marks: &mut Marks<L>,
        need: &mut [u8],
    ) -> Left {
        let bound = marks.bound();
        assert!(need.len() == bound && bound.is_power_of_two());
        let wrap = bound - 1;
        let lane = marks.lane % L;
        let m = marks.mex_from(0);
        let mut c = m;
        // `|`, not `||`: whether a value is marked is a coin toss, one branch fewer a value.
        while (c as usize) < bound && (marks.is_marked(c) | !self.beyond(c, s)) {
            c += 1;
        }
        if Needed::vectorised()
            && let Some(mut needed) = Needed::new(m, c, |v| !marks.is_marked(v))
        {
            let complete = needed.scan(self.g, s, from, to);
            // Every unmarked value was needed: mark those no longer needed (a store whose
            // value varies, not a branch).
            for v in m..c {
                marks.rows[v as usize][lane] |= u8::from(!needed.contains(v));
            }
            return Left {
                mex: marks.mex_from(m),
                candidate: c,
                complete,
            };
        }
        let mut count = 0usize;
        for v in m..c {
            if !marks.is_marked(v) {
                need[v as usize] = 1;
                count += 1;
            }
        }
        // The last few needed values (most of the scan looks for them) are compared in
        // vector code, `NONE` filling the rest.
        let few_of = |need: &[u8]| {
            let mut few = [NONE; FEW];
            let mut k = 0;
            for v in m..c {
                if need[v as usize] != 0 {
                    few[k] = v as u16;
                    k += 1;
                }
            }
            few
        };
        let mut few = (count <= FEW).then(|| few_of(need));
        let mut xs = [0u16; SCAN_RUN];
        // The runs in `needed::scan`'s order: a long scan's first runs scattered.
        let scattered = to.saturating_sub(from) >= WINDOW;
        let rest = if scattered { from + WINDOW } else { from };
        let runs = scattered
            .then(|| window_runs(from, SCAN_RUN).map(|i| (i, SCAN_RUN)))
            .into_iter()
            .flatten()
            .chain(
                (rest..to)
                    .step_by(SCAN_RUN)
                    .map(|i| (i, (to - i).min(SCAN_RUN))),
            );
        let mut all = true;
        // The least and the greatest value still needed (`lo > hi` once none is).
        let (mut lo, mut hi) = (m as usize, (c as usize).saturating_sub(1));
        let vectorised = Needed::vectorised();
        for (i, len) in runs {
            if count == 0 {
                all = false;
                break;
            }
            if vectorised && few.is_none() {
                while lo <= hi && need[lo] == 0 {
                    lo += 1;
                }
                while lo <= hi && need[hi] == 0 {
                    hi -= 1;
                }
                // The values still needed fit `Needed`'s window now (0.6: the first few
                // hundred pairs of one heap in twelve narrow 260 values to it). Its scan goes
                // over the range from the start: the pairs seen so far make no value needed.
                if let Some(mut needed) =
                    Needed::new(lo as u32, hi as u32 + 1, |v| need[v as usize] != 0)
                {
                    all = needed.scan(self.g, s, from, to);
                    for (v, flag) in (lo..).zip(&mut need[lo..=hi]) {
                        *flag &= u8::from(needed.contains(v as u32));
                    }
                    break;
                }
            }
            self.xors(s, i, len, &mut xs);
            // Values below half the bound, a power of two, xor to values below it: `& wrap`
            // only spares the bounds checks.
            let take = |need: &mut [u8], count: &mut usize| {
                for &x in &xs[..len] {
                    let v = usize::from(x) & wrap;
                    *count -= usize::from(need[v]);
                    need[v] = 0;
                }
            };
            match &mut few {
                // Many values needed: nearly every run makes one, so each pair takes its
                // value off the list without looking first (no branch to mispredict).
                None => {
                    take(need, &mut count);
                    if count <= FEW {
                        few = Some(few_of(need));
                    }
                }
                Some(f) => {
                    let hit = if len == SCAN_RUN {
                        xs.iter().fold(false, |h, &x| h | f.contains(&x))
                    } else {
                        xs[..len].iter().any(|x| f.contains(x))
                    };
                    if hit {
                        take(need, &mut count);
                        for y in f.iter_mut() {
                            if *y != NONE && need[usize::from(*y)] == 0 {
                                *y = NONE;
                            }
                        }
                    }
                }
            }
        }
        // The needed values made are marked now; the others are clear again in `need`.
        for v in m..c {
            let v = v as usize;
            if need[v] == 0 {
                marks.rows[v][lane] = 1;
            }
            need[v] = 0;
        }
        Left {
            mex: marks.mex_from(m),
            candidate: c,
            complete: all,
        }
    }

    /// Heap `n`'s pairs with a rare heap in `rare` and both heaps below `n0`.
    fn rare_pairs<const L: usize>(
        &self,
        n: usize,
        n0: usize,
        rare: &[usize],
        marks: &mut Marks<L>,
    ) {
        let (g, s) = (self.g, n - self.shape.d);
        // Pairs (i, s - i) with s - i < n0 have i > s - n0.
        let first = (s + 1).saturating_sub(n0).max(1);
        for &i in rare {
            if i >= s {
                break;
            }
            let j = s - i;
            if i.min(j) < first || (self.shape.differ && i == j) {
                continue;
            }
            marks.mark(u32::from(g[i] ^ g[j]));
        }
    }

    /// Phase 1 for heap `n >= d + 2` after its rare pairs: the scan of pairs below `n0`.
    ///
    /// The whole scan, not a bounded one: the mex from the rare pairs can almost always
    /// still come from two common heaps (0.6: 1 047 685 of the first 2^20 heaps), and the
    /// scan is the bulk of the work. Left to phase 2 it ran on one core. The pairs reaching
    /// into the block rarely move the mex back within reach of two common heaps (6 187 of
    /// those heaps), and then phase 2 scans again.
    fn scan_below<const L: usize>(
        &self,
        n: usize,
        n0: usize,
        marks: &mut Marks<L>,
        need: &mut [u8],
    ) -> Left {
        let s = n - self.shape.d;
        let first = (s + 1).saturating_sub(n0).max(1);
        self.settle(s, first, self.half(s) + 1, marks, need)
    }

    /// Phase 1 for the heaps `nc..nc + lefts.len()` (at most `LANES`, all `>= d + 2`),
    /// whose interleaved marks are `data`.
    fn phase1(&self, nc: usize, n0: usize, data: &mut [u8], lefts: &mut [Left]) {
        data.fill(0);
        let (g, rare, width) = (self.g, &self.sparse.rare[..], lefts.len());
        let s0 = nc - self.shape.d;
        // The rare heaps `i` of `a..b` pair with every heap of the lane group, as its
        // smaller heap (`2i < s`), the larger one below `n0` (`i >= first`).
        let first_last = (s0 + width).saturating_sub(n0).max(1);
        let (a, b) = if width == LANES {
            let a = rare.partition_point(|&i| i < first_last);
            (a, rare.partition_point(|&i| 2 * i < s0).max(a))
        } else {
            (0, 0)
        };
        rare_lanes(g, &rare[a..b], s0, data.as_chunks_mut().0);
        for k in 0..lefts.len() {
            let n = nc + k;
            let mut marks = Marks::<LANES>::new(&mut *data, k);
            self.rare_pairs(n, n0, &rare[..a], &mut marks);
            self.rare_pairs(n, n0, &rare[b..], &mut marks);
        }
        let mut need = vec![0u8; data.len() / LANES];
        let mut columns = Needed::vectorised().then(|| Columns::new(data.len() / LANES));
        for (k, left) in lefts.iter_mut().enumerate() {
            let n = nc + k;
            let mut marks = Marks::<LANES>::new(&mut *data, k);
            let s = n - self.shape.d;
            let first = (s + 1).saturating_sub(n0).max(1);
            let to = self.half(s) + 1;
            *left = match columns
                .as_mut()
                .and_then(|columns| self.settle_columns(s, first, to, &mut marks, columns))
            {
                Some(left) => left,
                None => self.settle(s, first, to, &mut marks, &mut need),
            };
        }
    }

    /// `settle` for lane `marks.lane` of a lane group, a word at a time over its `columns`,
    /// if the needed values fit the window of `Needed` (otherwise `None`, nothing changed).
    fn settle_columns(
        &self,
        s: usize,
        from: usize,
        to: usize,
        marks: &mut Marks<LANES>,
        columns: &mut Columns,
    ) -> Option<Left> {
        let lane = marks.lane;
        let rows = &*marks.rows;
        let m = columns.first_unmarked(rows, lane, 0, None);
        let c = columns.first_unmarked(rows, lane, m, Some(&self.common[s & 1]));
        let base = m.saturating_sub(1);
        if c > base + 255 {
            return None;
        }
        // The needed values: those unmarked in `m..c`, as slots above `base`.
        let unmarked = columns.window(lane, base).map(|w| !w);
        let mut wanted = [0u64; 4];
        for (q, word) in wanted.iter_mut().enumerate() {
            let clamp = |slot: usize| slot.clamp(64 * q, 64 * q + 64);
            let (lo, hi) = (clamp(m - base), clamp(c - base));
            let span = if hi > lo {
                (u64::MAX >> (64 - (hi - lo))) << (lo - 64 * q)
            } else {
                0
            };
            *word = unmarked[q] & span;
        }
        let mut needed = Needed::from_bits(base as u32, wanted);
        let complete = needed.scan(self.g, s, from, to);
        // The needed values made are marked now, in the rows and the columns.
        let left = needed.bits();
        for (q, (&w, &l)) in wanted.iter().zip(&left).enumerate() {
            let mut made = w & !l;
            while made != 0 {
                let v = base + 64 * q + made.trailing_zeros() as usize;
                made &= made - 1;
                marks.rows[v][lane] = 1;
                columns.mark(lane, v);
            }
        }
        let mex = columns.first_unmarked(&*marks.rows, lane, m, None);
        Some(Left {
            mex: mex as u32,
            candidate: c as u32,
            complete,
        })
    }

    /// Phase 2: the value of heap `n`, the heaps below it known.
    fn phase2<const L: usize>(&self, n: usize, n0: usize, marks: &mut Marks<L>, left: Left) -> u32 {
        let g = self.g;
        for &(d, bits) in &self.shape.take {
            if d > n {
                break;
            }
            if bits & 1 != 0 && n == d {
                marks.mark(0);
            }
            if bits & 2 != 0 && n > d {
                marks.mark(u32::from(g[n - d]));
            }
        }
        if n < self.shape.d + 2 {
            return marks.mex_from(left.mex);
        }
        let s = n - self.shape.d;
        let half = self.half(s);
        let first = (s + 1).saturating_sub(n0).max(1);
        self.mark_pairs(s, 1, first.min(half + 1), marks);
        // Marks only grow: phase 1's mex is where this one starts (a walk from 0 over
        // some hundred values, one heap after another, was most of this serial phase).
        let m = marks.mex_from(left.mex);
        // Final if no pair below `n₀` can make it: two common heaps cannot, or phase 1
        // looked at them all for the values up to its candidate. (Above the candidate,
        // values those pairs make were left unmarked.)
        if self.beyond(m, s) || (left.complete && m <= left.candidate) {
            return m;
        }
        // The pairs into the block made phase 1's candidate: scan again for the new one.
        let mut need = vec![0u8; marks.bound()];
        self.settle(s, first, half + 1, marks, &mut need).mex
    }

    /// Both phases for one heap on its own (`n₀ = n`).
    fn alone(&self, n: usize, data: &mut [u8]) -> u32 {
        data.fill(0);
        let mut marks = Marks::<1>::new(data, 0);
        let left = if n >= self.shape.d + 2 {
            let mut need = vec![0u8; marks.bound()];
            self.rare_pairs(n, n, &self.sparse.rare, &mut marks);
            self.scan_below(n, n, &mut marks, &mut need)
        } else {
            Left::default()
        };
        self.phase2(n, n, &mut marks, left)
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

/// Heaps between two looks at the cancel flag and two progress reports.
const REPORT_EVERY: usize = 1 << 14;

/// The state of a record run between segments.
struct Run<'a> {
    shape: &'a Shape,
    g: Vec<u16>,
    sparse: SparseSpace,
    /// The blocks' marks, and where phase 1 left each heap.
    arena: Vec<u8>,
    lefts: Vec<Left>,
    max_value: u32,
    /// `Kernel::common`, for the mask generation and value bound in the pair.
    common: [Vec<u64>; 2],
    common_of: (u32, usize),
}

impl Run<'_> {
    /// Extends the values to heaps `0..until`.
    fn extend(&mut self, until: usize) -> Result<(), Stop> {
        let shape = self.shape;
        while self.g.len() < until {
            let n0 = self.g.len();
            // Xors of values below a power of two stay below it, and a mex is at most one
            // more than the values marked: twice the power above every value bounds both.
            let bound = 2 * (self.max_value as usize + 1).next_power_of_two();
            if bound > MAX_VALUES {
                return Err(Stop::TooLarge);
            }
            let parallel = n0 >= PARALLEL_FROM.max(shape.d + 2);
            let n1 = if parallel {
                (n0 + BLOCK).min(until)
            } else {
                n0 + 1
            };
            let generation = self.sparse.generation;
            if self.common_of != (generation, bound) {
                self.common = [0, 1].map(|p| {
                    let mut words = vec![0u64; bound.div_ceil(64)];
                    for v in 0..bound as u32 {
                        let beyond =
                            self.sparse.mask != 0 && is_common(augmented(p, v), self.sparse.mask);
                        words[v as usize / 64] |= u64::from(beyond) << (v % 64);
                    }
                    words
                });
                self.common_of = (generation, bound);
            }
            // Each lane group's marks are zeroed by its own task, in parallel.
            let group = LANES * bound;
            let size = (n1 - n0).div_ceil(LANES) * group;
            if self.arena.len() < size {
                self.arena.resize(size, 0);
            }
            self.lefts.clear();
            self.lefts.resize(n1 - n0, Left::default());
            if parallel {
                let kernel = Kernel {
                    shape,
                    g: &self.g,
                    sparse: &self.sparse,
                    common: &self.common,
                };
                self.arena[..size]
                    .par_chunks_mut(group)
                    .zip(self.lefts.par_chunks_mut(LANES))
                    .enumerate()
                    .for_each(|(c, (data, lefts))| {
                        kernel.phase1(n0 + c * LANES, n0, data, lefts);
                    });
            }
            let block_max = self.max_value;
            for (k, n) in (n0..n1).enumerate() {
                let kernel = Kernel {
                    shape,
                    g: &self.g,
                    sparse: &self.sparse,
                    common: &self.common,
                };
                // Phase 1 holds if the mask and the value bound are those it ran under.
                let value = if parallel
                    && self.sparse.generation == generation
                    && self.max_value == block_max
                {
                    let c = k / LANES;
                    let data = &mut self.arena[c * group..(c + 1) * group];
                    kernel.phase2(
                        n,
                        n0,
                        &mut Marks::<LANES>::new(data, k % LANES),
                        self.lefts[k],
                    )
                } else {
                    let mut own = vec![0u8; 2 * (self.max_value as usize + 1).next_power_of_two()];
                    kernel.alone(n, &mut own)
                };
                if value as usize >= MAX_VALUES / 2 {
                    return Err(Stop::TooLarge);
                }
                self.max_value = self.max_value.max(value);
                self.g.push(value as u16);
                self.sparse.record(n, &self.g);
            }
        }
        Ok(())
    }
}

/// Nim-values of heaps `0..=n_max`, two bytes each.
pub(super) fn nim_sequence(shape: &Shape, n_max: usize, ctl: &Control) -> Result<RecordRun, Stop> {
    let total = n_max + 1;
    let mut run = Run {
        shape,
        g: Vec::with_capacity(total),
        sparse: SparseSpace::new(true),
        arena: Vec::new(),
        lefts: Vec::with_capacity(BLOCK),
        max_value: 0,
        common: [Vec::new(), Vec::new()],
        common_of: (u32::MAX, 0),
    };
    while run.g.len() < total {
        if ctl.cancelled() {
            return Err(Stop::Cancelled(run.g));
        }
        let until = (run.g.len() + REPORT_EVERY).min(total);
        // A segment runs on a pool thread, so each block's parallel phase 1 starts and ends
        // there; called from this thread, outside the pool, it would sleep and wake for
        // every block.
        rayon::scope(|_| run.extend(until))?;
        ctl.report(run.g.len(), total);
        if !ctl.emit(super::Values::U16(&run.g)) {
            return Err(Stop::Cancelled(run.g));
        }
    }
    Ok(RecordRun {
        values: run.g,
        mask: run.sparse.mask,
        rare_heaps: std::mem::take(&mut run.sparse.rare),
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
    #[ignore = "slow tier (19 s in a test build): .ci/run runs it; cargo test -- --ignored"]
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

    /// The lane group's columns against its rows read value by value: every bit, the first
    /// unmarked value (alone and with a filter) from every start, and 256-bit windows.
    #[test]
    fn columns_are_the_rows_transposed() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (round, bound) in [2usize, 16, 64, 256, 1024]
            .into_iter()
            .cycle()
            .take(20)
            .enumerate()
        {
            // Dense marks at the bottom, sparse above, as a heap's marks are.
            let rows: Vec<[u8; LANES]> = (0..bound)
                .map(|v| std::array::from_fn(|_| u8::from(next() % 97 > (v * 200 / bound) as u64)))
                .collect();
            let filter: Vec<u64> = (0..bound.div_ceil(64)).map(|_| next()).collect();
            let marked = |lane: usize, v: usize| rows.get(v).is_some_and(|r| r[lane] != 0);
            let mut columns = Columns::new(bound);
            for lane in [round % LANES, (round + 3) % LANES] {
                for from in 0..bound {
                    let plain = (from..bound).find(|&v| !marked(lane, v)).unwrap_or(bound);
                    assert_eq!(columns.first_unmarked(&rows, lane, from, None), plain);
                    let filtered = (from..bound)
                        .find(|&v| !marked(lane, v) && filter[v / 64] >> (v % 64) & 1 == 1)
                        .unwrap_or(bound);
                    assert_eq!(
                        columns.first_unmarked(&rows, lane, from, Some(&filter)),
                        filtered
                    );
                }
                for v in 0..bound {
                    let bit = columns.words[lane * columns.per_lane + v / 64] >> (v % 64) & 1;
                    assert_eq!(bit == 1, marked(lane, v), "bound {bound}, lane {lane}, {v}");
                }
                for start in (0..bound).step_by(7) {
                    let window = columns.window(lane, start);
                    for k in 0..256 {
                        let bit = window[k / 64] >> (k % 64) & 1 == 1;
                        assert_eq!(bit, marked(lane, start + k), "window {start} + {k}");
                    }
                }
            }
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
