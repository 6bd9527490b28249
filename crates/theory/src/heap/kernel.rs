//! Nim-sequence kernels: a mex over the options of each heap, with two-heap splits
//! scanned densely (xor of the two halves, bit-parallel when values are small) or through
//! the sparse space, three-heap splits through a table of two-heap xor sets, and a
//! counting kernel for all-but games.

use super::code::Constraint;
use super::general::General;
use super::positions::PositionSets;
use super::rules::Moves;
use super::sparse::{SparseSpace, augmented, is_common};
use super::{Control, Values};

/// Poll the cancel flag after this many heaps, or this much work, whichever comes first.
const HEAPS_PER_POLL: usize = 4096;
const WORK_PER_POLL: u64 = 1 << 24;

/// Dense games switch to bit-parallel splits from this heap on, while they have at most
/// `POSITION_VALUES` distinct values; a probe of `PROBE` pairs per split finds the values
/// that are present before the bit sets prove the mex absent.
const POSITIONS_FROM: usize = 2048;
const POSITION_VALUES: usize = 24;
const PROBE: usize = 192;

/// The option values of one heap, as generation stamps: clearing is one increment, and
/// marking is a plain store, with no read-modify-write chain as a bit set would have.
#[derive(Default)]
pub(super) struct Marks {
    stamp: Vec<u32>,
    generation: u32,
}

impl Marks {
    /// Empties the set, with room for values below `bound`.
    pub(super) fn clear(&mut self, bound: usize) {
        if self.stamp.len() < bound {
            self.stamp.resize(bound, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
    }

    #[inline]
    pub(super) fn insert(&mut self, value: u32) {
        let v = value as usize;
        if v >= self.stamp.len() {
            self.stamp.resize(v + 1, 0);
        }
        self.stamp[v] = self.generation;
    }

    #[inline]
    pub(super) fn contains(&self, value: u32) -> bool {
        self.stamp.get(value as usize) == Some(&self.generation)
    }

    /// The smallest value `>= from` not in the set: the mex, when all below `from` are in.
    #[inline]
    pub(super) fn mex_from(&self, mut from: u32) -> u32 {
        while self.contains(from) {
            from += 1;
        }
        from
    }
}

/// Bit set of `g(b) ^ g(t - b)` for `1 <= b < t`, in `words` u64 words.
fn pair_xor_bits(g: &[u32], t: usize, words: usize) -> Vec<u64> {
    let mut bits = vec![0u64; words];
    for b in 1..t {
        let x = (g[b] ^ g[t - b]) as usize;
        if let Some(word) = bits.get_mut(x / 64) {
            *word |= 1 << (x % 64);
        }
    }
    bits
}

/// Scratch for [`mark_triples`]: for each value `u` seen among the heaps `a`, a row holding
/// the union of the pair-xor sets of `s − a` over the `a` with `g(a) = u`.
#[derive(Default)]
struct Triples {
    /// `slot[u]`: the row of value `u`, or `u32::MAX`.
    slot: Vec<u32>,
    /// The values with a row, in row order.
    touched: Vec<usize>,
    rows: Vec<u64>,
    union: Vec<u64>,
}

/// Marks `g(a) ^ x` for every free split of `s` tokens into three heaps, `x` running over the
/// two-heap xors of `s − a`. Heaps with equal values share one union of pair-xor sets, and
/// each union is moved by `xor g(a)` a word at a time, so a heap costs `s + distinct values`
/// word passes instead of one step per set bit per `a`.
fn mark_triples(
    g: &[u32],
    s: usize,
    pair_xors: &[Vec<u64>],
    words: usize,
    t: &mut Triples,
    marks: &mut Marks,
    work: &mut u64,
) {
    // Values and xors stay below `words * 64`, a power of two (or below 64).
    if t.slot.len() < words * 64 {
        t.slot.resize(words * 64, u32::MAX);
    }
    for a in 1..=s - 2 {
        let u = g[a] as usize;
        if t.slot[u] == u32::MAX {
            t.slot[u] = t.touched.len() as u32;
            t.touched.push(u);
            t.rows.resize(t.touched.len() * words, 0);
        }
        let r = t.slot[u] as usize * words;
        for (r, &w) in t.rows[r..r + words].iter_mut().zip(&pair_xors[s - a]) {
            *r |= w;
        }
    }
    t.union.clear();
    t.union.resize(words, 0);
    for (row, &u) in t.rows.chunks_exact(words).zip(&t.touched) {
        let (hi, lo) = (u / 64, (u % 64) as u32);
        for (w, &r) in row.iter().enumerate() {
            if r != 0 {
                t.union[w ^ hi] |= xor_bit_positions(r, lo);
            }
        }
        t.slot[u] = u32::MAX;
    }
    *work += ((s + t.touched.len()) * words) as u64;
    t.touched.clear();
    t.rows.clear();
    for (w, &word) in t.union.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            marks.insert((w as u32) * 64 + bits.trailing_zeros());
            bits &= bits - 1;
        }
    }
}

/// Moves bit `b` of `word` to bit `b ^ k` (`k < 64`): one block swap per set bit of `k`.
#[inline]
pub(super) fn xor_bit_positions(mut word: u64, k: u32) -> u64 {
    const LOW: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    for (j, &low) in LOW.iter().enumerate() {
        if k >> j & 1 != 0 {
            let shift = 1 << j;
            word = ((word & low) << shift) | ((word >> shift) & low);
        }
    }
    word
}

/// Computes values heap by heap and can be extended later (periodicity search does).
pub(super) struct Solver<'m> {
    moves: &'m Moves,
    values: Vec<u32>,
    max_value: u32,
    marks: Marks,
    /// Two-heap splits that scan pairs (all but the `=` ones), as `(d, must_differ)`.
    pair_splits: Vec<(usize, bool)>,
    /// Two-heap `=` splits: their only option is a pair of equal heaps, value 0.
    equal_splits: Vec<usize>,
    sparse: Option<SparseSpace>,
    /// `pair_xors[t]` = bit set of `g(b) ^ g(t - b)` for `1 <= b < t`, for free
    /// three-heap splits.
    pair_xors: Option<Vec<Vec<u64>>>,
    /// Scratch for free three-heap splits.
    triples: Triples,
    /// Bit-parallel splits for dense games with few values (`None` until worth it).
    positions: Option<PositionSets>,
    /// Too many distinct values for `positions`; never try again.
    positions_off: bool,
    /// All-but games: how many heaps below the current one have each value.
    counts: Vec<u32>,
    prefix_mex: u32,
    /// Codes beyond the fast paths: everything goes to the general kernel.
    general: Option<General>,
}

impl<'m> Solver<'m> {
    pub fn new(moves: &'m Moves) -> Solver<'m> {
        Self::with_methods(moves, true)
    }

    /// Only plain pair scans, no sparse space or bit-parallel splits: the reference the
    /// faster methods are tested against.
    #[cfg(test)]
    pub fn plain(moves: &'m Moves) -> Solver<'m> {
        Self::with_methods(moves, false)
    }

    fn with_methods(moves: &'m Moves, fast: bool) -> Solver<'m> {
        let sparse = fast;
        let pair_splits: Vec<(usize, bool)> = moves
            .split2
            .iter()
            .filter(|m| m.1 != Constraint::AllEqual)
            .map(|&(d, c)| (d, c != Constraint::Free))
            .collect();
        let equal_splits = moves
            .split2
            .iter()
            .filter(|m| m.1 == Constraint::AllEqual)
            .map(|m| m.0)
            .collect();
        // Three heaps of common values xor to a common value, so the sparse argument
        // holds only when moves leave at most two heaps.
        let sparse = (sparse && !pair_splits.is_empty() && moves.split3.is_empty()).then(|| {
            let parity = pair_splits[0].0 & 1;
            SparseSpace::new(pair_splits.iter().all(|m| m.0 & 1 == parity))
        });
        let pair_xors = moves
            .split3
            .iter()
            .any(|m| m.1 == Constraint::Free)
            .then(|| vec![Vec::new()]);
        Solver {
            moves,
            values: Vec::new(),
            max_value: 0,
            marks: Marks::default(),
            pair_splits,
            equal_splits,
            sparse,
            pair_xors,
            triples: Triples::default(),
            positions: None,
            positions_off: !fast,
            counts: Vec::new(),
            prefix_mex: 0,
            general: moves.general.as_ref().map(General::new),
        }
    }

    pub fn values(&self) -> &[u32] {
        match &self.general {
            Some(general) => general.values(),
            None => &self.values,
        }
    }

    /// The sparse split's mask and rare heaps, where the sparse method applies.
    pub fn sparse(&self) -> Option<(u64, &[usize])> {
        if self.general.is_some() {
            return None;
        }
        self.sparse.as_ref().map(|s| (s.mask, &s.rare[..]))
    }

    pub fn into_values(self) -> Vec<u32> {
        match self.general {
            Some(general) => general.into_values(),
            None => self.values,
        }
    }

    /// Computes values up to heap `n_max`; `Err` if cancelled (values so far are kept).
    pub fn extend_to(&mut self, n_max: usize, ctl: &Control) -> Result<(), ()> {
        if let Some(general) = &mut self.general {
            return general.extend_to(n_max, ctl);
        }
        if ctl.cancelled() {
            return Err(());
        }
        let total = n_max.saturating_add(1);
        let mut work = 0u64;
        let mut since_poll = 0usize;
        while self.values.len() < total {
            let n = self.values.len();
            let value = self.step(n, &mut work);
            self.push(n, value);
            since_poll += 1;
            if since_poll >= HEAPS_PER_POLL || work >= WORK_PER_POLL {
                if ctl.cancelled() {
                    return Err(());
                }
                ctl.report(n + 1, total);
                if !ctl.emit(Values::U32(&self.values)) {
                    return Err(());
                }
                since_poll = 0;
                work = 0;
            }
        }
        ctl.report(self.values.len(), total);
        if !ctl.emit(Values::U32(&self.values)) {
            return Err(());
        }
        Ok(())
    }

    fn push(&mut self, n: usize, value: u32) {
        self.values.push(value);
        self.max_value = self.max_value.max(value);
        if let Some(sparse) = &mut self.sparse {
            sparse.record(n, &self.values);
        }
        if self.moves.all_but.is_some() {
            let v = value as usize;
            if v >= self.counts.len() {
                self.counts.resize(v + 1, 0);
            }
            self.counts[v] += 1;
            while self
                .counts
                .get(self.prefix_mex as usize)
                .is_some_and(|&c| c > 0)
            {
                self.prefix_mex += 1;
            }
        }
        if let Some(positions) = &mut self.positions {
            positions.push(n, &self.values);
            if positions.value_count() > POSITION_VALUES {
                self.positions = None;
                self.positions_off = true;
            }
        }
        let bound = self.xor_bound();
        if let Some(pair_xors) = &mut self.pair_xors {
            // All values for t = n + 1 are now known.
            pair_xors.push(pair_xor_bits(&self.values, n + 1, bound.div_ceil(64)));
        }
    }

    /// A power of two above every xor of known values.
    fn xor_bound(&self) -> usize {
        (self.max_value as usize + 1).next_power_of_two()
    }

    fn step(&mut self, n: usize, work: &mut u64) -> u32 {
        *work += 1;
        let moves = self.moves;
        if let Some(excluded) = &moves.all_but {
            return self.all_but_value(n, excluded);
        }
        let g = &self.values;
        let bound = self.xor_bound();
        let marks = &mut self.marks;
        marks.clear(bound);
        for &(d, bits) in &moves.take {
            if d > n {
                break;
            }
            if bits & 1 != 0 && n == d {
                marks.insert(0);
            }
            if bits & 2 != 0 && n > d {
                marks.insert(g[n - d]);
            }
        }
        for &d in &self.equal_splits {
            if n >= d + 2 && (n - d).is_multiple_of(2) {
                marks.insert(0);
            }
        }
        for &(d, constraint) in &moves.split3 {
            if n < d + 3 {
                continue;
            }
            let s = n - d;
            match (&self.pair_xors, constraint) {
                (Some(pair_xors), Constraint::Free) => {
                    let words = bound.div_ceil(64);
                    mark_triples(g, s, pair_xors, words, &mut self.triples, marks, work);
                }
                _ => {
                    for a in 1..=s / 3 {
                        for b in a..=(s - a) / 2 {
                            let c = s - a - b;
                            if constraint.allows(&[a, b, c]) {
                                marks.insert(g[a] ^ g[b] ^ g[c]);
                            }
                        }
                        *work += (s / 2) as u64;
                    }
                }
            }
        }
        if self.pair_splits.is_empty() {
            return marks.mex_from(0);
        }
        match &self.sparse {
            Some(sparse) if sparse.mask != 0 => {
                sparse_value(g, n, &self.pair_splits, sparse, marks, work)
            }
            _ if n >= POSITIONS_FROM && !self.positions_off => {
                let positions = self.positions.get_or_insert_with(|| PositionSets::new(g));
                bit_parallel_value(g, n, &self.pair_splits, positions, marks, work)
            }
            _ => {
                for &(d, differ) in &self.pair_splits {
                    if n >= d + 2 {
                        *work += ((n - d) / 2) as u64;
                        scan_pairs(g, n - d, differ, marks, bound <= 64);
                    }
                }
                marks.mex_from(0)
            }
        }
    }

    /// All-but games: every smaller heap is an option except `n - k` for excluded `k`, so the
    /// mex is the smallest value that is either absent below `n` or present only at the
    /// excluded heaps.
    fn all_but_value(&self, n: usize, excluded: &[usize]) -> u32 {
        let mut hidden: Vec<u32> = excluded
            .iter()
            .take_while(|&&k| k <= n)
            .map(|&k| self.values[n - k])
            .collect();
        hidden.sort_unstable();
        let mut best = self.prefix_mex;
        for run in hidden.chunk_by(|a, b| a == b) {
            let v = run[0];
            if v < best && self.counts.get(v as usize).copied() == Some(run.len() as u32) {
                best = v;
            }
        }
        best
    }
}

/// Half-range of a two-heap split of `s` tokens: pairs `(i, s - i)` for `i` in `1..=half`.
#[inline]
fn half(s: usize, differ: bool) -> usize {
    if differ && s.is_multiple_of(2) {
        s / 2 - 1
    } else {
        s / 2
    }
}

/// Marks `g(i) ^ g(s - i)` for every split of `s` tokens into two nonempty heaps.
fn scan_pairs(g: &[u32], s: usize, differ: bool, marks: &mut Marks, small: bool) {
    let h = half(s, differ);
    if h == 0 {
        return;
    }
    let low = &g[1..=h];
    let high = &g[s - h..s];
    if small {
        // Every xor is below 64: collect bits in registers, four chains for throughput.
        let mut acc = [0u64; 4];
        let mut lows = low.chunks_exact(4);
        let mut highs = high.rchunks_exact(4);
        for (l, r) in (&mut lows).zip(&mut highs) {
            acc[0] |= 1 << ((l[0] ^ r[3]) & 63);
            acc[1] |= 1 << ((l[1] ^ r[2]) & 63);
            acc[2] |= 1 << ((l[2] ^ r[1]) & 63);
            acc[3] |= 1 << ((l[3] ^ r[0]) & 63);
        }
        for (l, r) in lows.remainder().iter().zip(highs.remainder().iter().rev()) {
            acc[0] |= 1 << ((l ^ r) & 63);
        }
        let mut bits = acc[0] | acc[1] | acc[2] | acc[3];
        while bits != 0 {
            marks.insert(bits.trailing_zeros());
            bits &= bits - 1;
        }
    } else {
        for (l, r) in low.iter().zip(high.iter().rev()) {
            marks.insert(l ^ r);
        }
    }
}

/// The value of heap `n` with bit-parallel splits: a short probe of each split marks the
/// values that are plainly there, then each candidate mex is looked up in the bit sets,
/// which costs a full pass only for the one value that is really absent.
fn bit_parallel_value(
    g: &[u32],
    n: usize,
    pair_splits: &[(usize, bool)],
    positions: &PositionSets,
    marks: &mut Marks,
    work: &mut u64,
) -> u32 {
    let splits = pair_splits
        .iter()
        .filter(|m| n >= m.0 + 2)
        .map(|&(d, differ)| (n - d, half(n - d, differ)));
    for (s, h) in splits.clone() {
        for i in 1..=h.min(PROBE) {
            marks.insert(g[i] ^ g[s - i]);
        }
    }
    let mut m = marks.mex_from(0);
    loop {
        *work += (positions.value_count() * n / 64) as u64;
        if !splits.clone().any(|(s, h)| positions.has_split(s, h, m)) {
            return m;
        }
        marks.insert(m);
        m = marks.mex_from(m + 1);
    }
}

/// Whether no pair of common heaps can give `m` for any splitting move from heap `n`.
#[inline]
fn beyond_common_pairs(m: u32, n: usize, pair_splits: &[(usize, bool)], mask: u64) -> bool {
    pair_splits
        .iter()
        .filter(|m| n >= m.0 + 2)
        .all(|&(d, _)| is_common(augmented(n - d, m), mask))
}

/// The value of heap `n` by the sparse-space method (see `sparse`): pairs with a rare heap
/// first, then, only if the mex could still be hit by two common heaps, a scan of all
/// pairs that stops as soon as the mex is out of their reach.
fn sparse_value(
    g: &[u32],
    n: usize,
    pair_splits: &[(usize, bool)],
    sparse: &SparseSpace,
    marks: &mut Marks,
    work: &mut u64,
) -> u32 {
    // Locals, so the hot loops keep the stamp slice in registers.
    let generation = marks.generation;
    let stamp = marks.stamp.as_mut_slice();
    let mut mark = |x: u32| {
        if let Some(slot) = stamp.get_mut(x as usize) {
            *slot = generation;
        }
    };
    for &(d, differ) in pair_splits {
        if n < d + 2 {
            continue;
        }
        let s = n - d;
        for &i in &sparse.rare {
            if i >= s {
                break;
            }
            let j = s - i;
            if !(differ && i == j) {
                mark(g[i] ^ g[j]);
            }
        }
        *work += sparse.rare.len() as u64;
    }
    let stamp = marks.stamp.as_mut_slice();
    let mex_from = |stamp: &[u32], mut v: u32| {
        while stamp.get(v as usize) == Some(&generation) {
            v += 1;
        }
        v
    };
    let mut m = mex_from(stamp, 0);
    if beyond_common_pairs(m, n, pair_splits, sparse.mask) {
        return m;
    }
    if let [(d, differ)] = *pair_splits {
        // One splitting move (0.6 and friends): the tight loop.
        let s = n - d;
        let h = half(s, differ);
        *work += h as u64;
        let low = &g[1..=h];
        let high = &g[s - h..s];
        for (&l, &r) in low.iter().zip(high.iter().rev()) {
            let x = l ^ r;
            if let Some(slot) = stamp.get_mut(x as usize) {
                *slot = generation;
            }
            if x == m {
                m = mex_from(stamp, m + 1);
                if beyond_common_pairs(m, n, pair_splits, sparse.mask) {
                    return m;
                }
            }
        }
        return m;
    }
    // Several splitting moves: scan them side by side, since a value missing from one
    // move's pairs is often found early among another's.
    let splits: Vec<(usize, usize)> = pair_splits
        .iter()
        .filter(|m| n >= m.0 + 2)
        .map(|&(d, differ)| (n - d, half(n - d, differ)))
        .collect();
    let longest = splits.iter().map(|sh| sh.1).max().unwrap_or(0);
    *work += (longest * splits.len()) as u64;
    for i in 1..=longest {
        for &(s, h) in &splits {
            if i > h {
                continue;
            }
            let x = g[i] ^ g[s - i];
            if let Some(slot) = stamp.get_mut(x as usize) {
                *slot = generation;
            }
            if x == m {
                m = mex_from(stamp, m + 1);
                if beyond_common_pairs(m, n, pair_splits, sparse.mask) {
                    return m;
                }
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::super::{Code, Control, HeapRules};
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// The definition: mex over the xor of every option's heaps.
    fn naive(rules: &HeapRules, n_max: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::new();
        let mut options = Vec::new();
        for n in 0..=n_max {
            rules.options(n, &mut options);
            let mut seen = vec![false; options.len() + 1];
            for option in &options {
                let v = option.iter().fold(0, |acc, &h| acc ^ g[h]) as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
            }
            g.push(seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32);
        }
        g
    }

    fn code(text: &str) -> HeapRules {
        HeapRules::from(Code::parse(text).unwrap())
    }

    fn fast(rules: &HeapRules, n_max: usize) -> Vec<u32> {
        rules.nim_sequence(n_max, &Control::default()).unwrap()
    }

    fn dense(rules: &HeapRules, n_max: usize) -> Vec<u32> {
        let moves = Moves::new(rules);
        let mut solver = Solver::plain(&moves);
        solver.extend_to(n_max, &Control::default()).unwrap();
        solver.into_values()
    }

    /// xorshift64*: deterministic randomness without a dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn kayles() {
        assert_eq!(
            fast(&code("0.77"), 11),
            [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
        );
    }

    #[test]
    fn dawsons_kayles() {
        let expected = [
            0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
            0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2,
        ];
        let rules = code("0.07");
        assert_eq!(naive(&rules, 52), expected);
        assert_eq!(fast(&rules, 52), expected);
    }

    #[test]
    fn officers_first_values() {
        let rules = code("0.6");
        assert_eq!(fast(&rules, 6), [0, 0, 1, 2, 0, 1, 2]);
        assert_eq!(fast(&rules, 400), naive(&rules, 400));
    }

    #[test]
    fn grundys_game() {
        // 4!.0: split a heap into two unequal heaps.
        let expected = [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0,
        ];
        assert_eq!(fast(&code("4!.0"), 20), expected);
    }

    #[test]
    fn subtraction_134() {
        let rules = HeapRules::subtraction([1, 3, 4]);
        assert_eq!(fast(&rules, 9), [0, 1, 0, 1, 2, 3, 2, 0, 1, 0]);
    }

    #[test]
    fn all_but_matches_naive() {
        for set in [
            vec![],
            vec![1],
            vec![2],
            vec![1, 2],
            vec![2, 3, 7],
            vec![1, 4, 5, 9],
        ] {
            let rules = HeapRules::all_but(set);
            assert_eq!(fast(&rules, 200), naive(&rules, 200), "{rules}");
        }
    }

    #[test]
    fn sparse_equals_dense_on_long_runs() {
        for text in [
            "0.6", "0.07", "0.77", "4.7", "0.137", "0.4", "0.16", "4!.0", "0.37",
        ] {
            let rules = code(text);
            assert_eq!(fast(&rules, 6000), dense(&rules, 6000), "{text}");
        }
    }

    #[test]
    fn random_octal_codes_match_naive() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..120 {
            let mut text = String::from(if rng.below(3) == 0 { "4." } else { "0." });
            for _ in 0..=rng.below(4) {
                text.push(char::from(b'0' + rng.below(8) as u8));
            }
            let rules = code(&text);
            assert_eq!(fast(&rules, 300), naive(&rules, 300), "{text}");
        }
    }

    #[test]
    fn xor_bit_positions_moves_every_bit() {
        for k in 0..64 {
            for b in 0..64 {
                assert_eq!(xor_bit_positions(1 << b, k), 1 << (b ^ k));
            }
        }
    }

    /// Free three-heap splits long enough for values past 64, where the word-level move
    /// of pair-xor sets crosses words.
    #[test]
    fn three_heap_codes_match_naive_on_long_runs() {
        for text in ["0.8", "0.9", "0.C", "0.E", "0.39"] {
            let rules = code(text);
            let (f, n) = (fast(&rules, 300), naive(&rules, 300));
            assert!(f.iter().any(|&v| v >= 64), "{text}: values stay small");
            assert_eq!(f, n, "{text}");
        }
    }

    #[test]
    fn random_hex_codes_with_constraints_match_naive() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let suffixes = ["", "", "!", "?", "="];
        for _ in 0..60 {
            let first = ["0", "4", "8", "C"][rng.below(4) as usize];
            let mut text = format!("{first}{}.", suffixes[rng.below(5) as usize]);
            for _ in 0..=rng.below(3) {
                text.push_str(&format!("{:X}", rng.below(16)));
                text.push_str(suffixes[rng.below(5) as usize]);
            }
            let rules = code(&text);
            assert_eq!(fast(&rules, 70), naive(&rules, 70), "{text}");
        }
    }

    #[test]
    fn cancel_and_progress() {
        let flag = AtomicBool::new(false);
        let stop_late = |done: usize, _total: usize| {
            if done > 8000 {
                flag.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        };
        let ctl = Control::default()
            .with_cancel(&flag)
            .with_progress(&stop_late);
        let err = code("0.6").nim_sequence(100_000, &ctl).unwrap_err();
        assert!(err.values.len() > 8000 && err.values.len() < 100_000);
        assert_eq!(err.values, fast(&code("0.6"), err.values.len() - 1));

        let last = std::cell::Cell::new((0, 0));
        let report = |done, total| last.set((done, total));
        fast_with(
            &code("0.77"),
            10_000,
            &Control::default().with_progress(&report),
        );
        assert_eq!(last.get(), (10_001, 10_001));
    }

    fn fast_with(rules: &HeapRules, n: usize, ctl: &Control) -> Vec<u32> {
        rules.nim_sequence(n, ctl).unwrap()
    }
}
