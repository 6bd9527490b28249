//! Top Entails by the Theorem-41 recurrence (Larsson–Nowakowski–Santos).
//!
//! A move splits a stack in two, or removes the top coin and entails the
//! opponent to reply in that stack. For the literal form
//! `n = { ℓ+m, {∞ | (n−1)^R} | ℓ+m, {(n−1)^L | ∞̄} }`:
//!
//! ```text
//! S_n = { g(ℓ) ⊕ g(m) : ℓ+m = n, ℓ,m ≥ 1, neither ☾ }
//! P_n = nim ∖ (S_{n−1} ∪ P_{n−1}),   P_0 = S_0 = ∅
//! g(n) = ☾ if S_n ∪ P_n = nim, else mex(S_n ∪ P_n)
//! ```
//!
//! The entailing move protects Left exactly against what `n−1` neither
//! offers immediately (`S_{n−1}`) nor protects Right against (`P_{n−1}`).
//! All sets are bitsets over nim-values; `P_n` alternates finite/cofinite.

use super::value::AffineValue;
use loony_core::nimset::NimSet;

/// One stack: its immediate and protected nimbers and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopEntailsRow {
    pub immediate_nimbers: NimSet,
    pub protected_nimbers: NimSet,
    pub value: AffineValue,
}

/// Why the recurrence stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The caller's interrupt flag was raised.
    Interrupted,
    /// Stack `n` reached a nim-value that no longer fits the packed
    /// 14-bit table (16384 or more); never seen below millions of coins.
    ValueTooLarge(usize),
}

/// `g(n)` is stored as `u16` with `☾` marked by a high bit; nim-values stay
/// below `LIMIT` (the largest for n ≤ 600 000 is 1808).
const MOON: u16 = 1 << 15;
const LIMIT: usize = 1 << 14;
/// How a `☾` part is encoded in the forward and the reversed copy of `g`: a
/// pair with a `☾` part then xors to an index at or above `LIMIT`, which is
/// never read back as a nim-value, so the hot loop needs no test.
const MOON_FWD: u16 = 1 << 15;
const MOON_REV: u16 = 1 << 14;

/// Values `g(0), …, g(limit)` of Top Entails stacks (empty if a nim-value
/// outgrows the table; `top_entails_with` says where).
pub fn top_entails_values(limit: usize) -> Vec<AffineValue> {
    match top_entails_with(limit, false, |_| false) {
        Ok((values, _)) => values,
        Err(_) => Vec::new(),
    }
}

/// Rows (`S_n`, `P_n`, value) for `n = 0..=limit` (empty as above).
pub fn top_entails_rows(limit: usize) -> Vec<TopEntailsRow> {
    match top_entails_with(limit, true, |_| false) {
        Ok((_, rows)) => rows,
        Err(_) => Vec::new(),
    }
}

/// The loony stacks (value `☾`) of size at most `limit`.
pub fn top_entails_moons(limit: usize) -> Vec<usize> {
    top_entails_values(limit)
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_moon())
        .map(|(n, _)| n)
        .collect()
}

/// Stacks per block: pairs whose parts both precede a block are found in
/// parallel; only pairs reaching into the block are done sequentially.
const BLOCK: usize = 2048;

type Stamp = Box<[u32; 1 << 16]>;

fn new_stamp() -> Stamp {
    vec![u32::MAX; 1 << 16]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the length is 1 << 16"))
}

/// `g` twice: forward, and reversed so that the parts `n − ℓ` of the splits
/// of `n` also run forward in memory (both sides load as vectors).
struct Table {
    limit: usize,
    fwd: Vec<u16>,
    rev: Vec<u16>,
}

impl Table {
    /// Lays the reversed copy out for a `limit` at least `limit` (it is indexed from the
    /// end, so any larger limit serves). It at least doubles when it grows: a session that
    /// asks stack after stack relays O(log n) times, not once a stack (which was quadratic).
    fn relay(&mut self, limit: usize) {
        if limit <= self.limit && self.rev.len() == self.limit + 1 {
            return;
        }
        let limit = if self.fwd.is_empty() {
            limit
        } else {
            limit.max(self.limit.saturating_mul(2))
        };
        self.limit = limit;
        self.rev = vec![0; limit + 1];
        for (n, &v) in self.fwd.iter().enumerate() {
            self.rev[limit - n] = if v & MOON_FWD != 0 { MOON_REV } else { v };
        }
    }

    fn push(&mut self, n: usize, v: u16) {
        let moon = v & MOON != 0;
        self.fwd.push(if moon { MOON_FWD } else { v });
        self.rev[self.limit - n] = if moon { MOON_REV } else { v };
    }

    /// The aligned halves `g(ℓ)` and `g(n − ℓ)` for `lo ≤ ℓ ≤ hi`.
    fn splits(&self, n: usize, lo: usize, hi: usize) -> (&[u16], &[u16]) {
        let base = self.limit - n;
        (&self.fwd[lo..=hi], &self.rev[base + lo..=base + hi])
    }
}

/// The recurrence up to `limit`, calling `interrupted` with the number of
/// stacks done once per block (it may report progress; `true` stops the
/// run). Rows are only built when `with_rows` (they cost memory).
///
/// Cost: `n²/4` pair look-ups in total (≈ 9·10¹⁰ for 600 000), at about one
/// store each, spread over the available cores.
pub fn top_entails_with(
    limit: usize,
    with_rows: bool,
    interrupted: impl FnMut(usize) -> bool,
) -> Result<(Vec<AffineValue>, Vec<TopEntailsRow>), Stop> {
    let mut run = TopEntails::new();
    let mut rows = Vec::new();
    run.extend_to(limit, with_rows.then_some(&mut rows), interrupted)?;
    Ok(((0..=limit).map(|n| run.value(n)).collect(), rows))
}

/// The recurrence as a resumable run: `extend_to` carries on from the last
/// stack reached, so asking for stacks 0, 1, 2, … one at a time costs what
/// one run to the largest costs (a session keeps one of these).
pub struct TopEntails {
    table: Table,
    g: Vec<u16>,
    /// Nim-values (and their nim-sums) stay below `cap`, a power of two.
    cap: usize,
    words: usize,
    s_prev: Vec<u64>,
    p_prev: Vec<u64>,
    p_prev_cofinite: bool,
    s_cur: Vec<u64>,
    p_cur: Vec<u64>,
    partial: Vec<u64>,
    stamps: Vec<Stamp>,
}

impl Default for TopEntails {
    fn default() -> Self {
        Self::new()
    }
}

impl TopEntails {
    /// An empty run (allocation waits for the first stack, since a session makes many).
    pub fn new() -> Self {
        TopEntails {
            table: Table {
                limit: 0,
                fwd: Vec::new(),
                rev: vec![0],
            },
            g: Vec::new(),
            cap: 64,
            words: 1,
            s_prev: vec![0; 1],
            p_prev: vec![0; 1],
            p_prev_cofinite: false,
            s_cur: vec![0; 1],
            p_cur: vec![0; 1],
            partial: Vec::new(),
            stamps: Vec::new(),
        }
    }

    /// How many stacks (0, 1, …) are known.
    pub fn len(&self) -> usize {
        self.g.len()
    }

    pub fn is_empty(&self) -> bool {
        self.g.is_empty()
    }

    /// The value of stack `n` (`n < len()`).
    pub fn value(&self, n: usize) -> AffineValue {
        to_value(self.g[n])
    }

    /// Computes stacks up to `limit`, pushing their rows into `rows` if given. Stopping
    /// (interrupt or overflow) leaves every stack finished so far known.
    pub fn extend_to(
        &mut self,
        limit: usize,
        mut rows: Option<&mut Vec<TopEntailsRow>>,
        mut interrupted: impl FnMut(usize) -> bool,
    ) -> Result<(), Stop> {
        if limit < self.g.len() {
            return Ok(());
        }
        if self.stamps.is_empty() {
            let threads = std::thread::available_parallelism()
                .map_or(1, |t| t.get())
                .clamp(1, 8);
            self.stamps = (0..threads).map(|_| new_stamp()).collect();
        }
        self.table.relay(limit);
        let mut n0 = self.g.len();
        while n0 <= limit {
            if interrupted(n0) {
                return Err(Stop::Interrupted);
            }
            let n1 = (n0 + BLOCK).min(limit + 1);
            let bw = self.words;
            old_pairs(&self.table, n0, n1, bw, &mut self.stamps, &mut self.partial);
            for n in n0..n1 {
                self.step(n, n0, bw, rows.as_deref_mut())?;
            }
            n0 = n1;
        }
        Ok(())
    }

    /// Stack `n` of the block starting at `n0` (whose old pairs are in `partial`, `bw` wide).
    fn step(
        &mut self,
        n: usize,
        n0: usize,
        bw: usize,
        rows: Option<&mut Vec<TopEntailsRow>>,
    ) -> Result<(), Stop> {
        let words = self.words;
        // S_n: the old pairs found above, plus those reaching into the block.
        let pw = &self.partial[(n - n0) * bw..(n - n0 + 1) * bw];
        self.s_cur.fill(0);
        self.s_cur[..pw.len()].copy_from_slice(pw);
        let hi = (n / 2).min(n - n0);
        if hi >= 1 {
            let stamp = &mut self.stamps[0];
            let mark = n as u32;
            let (left, right) = self.table.splits(n, 1, hi);
            mark_splits(left, right, stamp, mark);
            read_marks(stamp, mark, &mut self.s_cur);
        }
        let (s_cur, p_cur, s_prev, p_prev) =
            (&mut self.s_cur, &mut self.p_cur, &self.s_prev, &self.p_prev);
        // P_n = nim ∖ (S_{n−1} ∪ P_{n−1}); P_0 = ∅.
        let p_cofinite = if n == 0 {
            p_cur.fill(0);
            false
        } else if self.p_prev_cofinite {
            for i in 0..words {
                p_cur[i] = p_prev[i] & !s_prev[i];
            }
            false
        } else {
            for i in 0..words {
                p_cur[i] = p_prev[i] | s_prev[i];
            }
            true
        };
        // g(n) = mex(S_n ∪ P_n), or ☾ when that union is everything.
        let value = if p_cofinite {
            // S ∪ P = nim ∖ (listed(P) ∖ S): its mex is the least such element.
            (0..words)
                .map(|i| p_cur[i] & !s_cur[i])
                .enumerate()
                .find(|&(_, w)| w != 0)
                .map_or(MOON, |(i, w)| (i * 64) as u16 + w.trailing_zeros() as u16)
        } else {
            (0..words)
                .map(|i| p_cur[i] | s_cur[i])
                .enumerate()
                .find(|&(_, w)| w != u64::MAX)
                .map_or(self.cap as u16, |(i, w)| {
                    (i * 64) as u16 + (!w).trailing_zeros() as u16
                })
        };
        if value != MOON && value as usize >= LIMIT {
            return Err(Stop::ValueTooLarge(n));
        }
        if let Some(rows) = rows {
            rows.push(TopEntailsRow {
                immediate_nimbers: NimSet::from_words(s_cur, false),
                protected_nimbers: NimSet::from_words(p_cur, p_cofinite),
                value: to_value(value),
            });
        }
        self.g.push(value);
        self.table.push(n, value);
        std::mem::swap(&mut self.s_prev, &mut self.s_cur);
        std::mem::swap(&mut self.p_prev, &mut self.p_cur);
        self.p_prev_cofinite = p_cofinite;
        // Keep every value and nim-sum of values below `cap`.
        if value != MOON && value as usize >= self.cap / 2 && self.cap < LIMIT {
            self.cap *= 2;
            self.words = self.cap / 64;
            for v in [
                &mut self.s_prev,
                &mut self.p_prev,
                &mut self.s_cur,
                &mut self.p_cur,
            ] {
                v.resize(self.words, 0);
            }
        }
        Ok(())
    }
}

/// For each `n` in `n0..n1`, the bitset (`words` wide) of `g(ℓ) ⊕ g(n−ℓ)`
/// over the splits with both parts below `n0`, computed by one worker per
/// stamp (stack `n0 + i` goes to worker `i mod workers`).
fn old_pairs(
    table: &Table,
    n0: usize,
    n1: usize,
    words: usize,
    stamps: &mut [Stamp],
    out: &mut Vec<u64>,
) {
    out.clear();
    out.resize((n1 - n0) * words, 0);
    let work = |stamp: &mut Stamp, rows: &mut [(usize, &mut [u64])]| {
        for (n, bits) in rows.iter_mut() {
            let n = *n;
            let mark = n as u32;
            // ℓ > n − n0 keeps n − ℓ below n0.
            let lo = (n + 1).saturating_sub(n0).max(1);
            let hi = n / 2;
            if lo <= hi {
                let (left, right) = table.splits(n, lo, hi);
                mark_splits(left, right, stamp, mark);
                read_marks(stamp, mark, bits);
            }
        }
    };
    let workers = stamps.len();
    let mut per_worker: Vec<Vec<(usize, &mut [u64])>> = (0..workers).map(|_| Vec::new()).collect();
    for (i, chunk) in out.chunks_mut(words).enumerate() {
        per_worker[i % workers].push((n0 + i, chunk));
    }
    if workers == 1 || n1 - n0 < 64 || n0 < 4096 {
        for (stamp, rows) in stamps.iter_mut().zip(per_worker.iter_mut()) {
            work(stamp, rows);
        }
    } else {
        std::thread::scope(|scope| {
            for (stamp, rows) in stamps.iter_mut().zip(per_worker.iter_mut()) {
                scope.spawn(move || work(stamp, rows));
            }
        });
    }
}

/// Marks `stamp[a ⊕ b] = mark` for the aligned pairs of `left` and `right`.
///
/// The xors are formed 64 at a time into a buffer (the compiler vectorises
/// that), then scattered: about one store per pair, three times faster than
/// a loop that loads, xors and stores one pair at a time.
#[inline(never)]
fn mark_splits(left: &[u16], right: &[u16], stamp: &mut [u32; 1 << 16], mark: u32) {
    let mut buf = [0u16; 64];
    let mut lc = left.chunks_exact(64);
    let mut rc = right.chunks_exact(64);
    for (a, b) in (&mut lc).zip(&mut rc) {
        for k in 0..64 {
            buf[k] = a[k] ^ b[k];
        }
        for &x in &buf {
            stamp[x as usize] = mark;
        }
    }
    for (&a, &b) in lc.remainder().iter().zip(rc.remainder()) {
        stamp[(a ^ b) as usize] = mark;
    }
}

/// Ors into `bits` the nim-values stamped with `mark` (one bit per value).
fn read_marks(stamp: &[u32; 1 << 16], mark: u32, bits: &mut [u64]) {
    for (w, word) in bits.iter_mut().enumerate() {
        let mut acc = 0u64;
        for (b, &s) in stamp[w * 64..(w + 1) * 64].iter().enumerate() {
            acc |= ((s == mark) as u64) << b;
        }
        *word |= acc;
    }
}

fn to_value(v: u16) -> AffineValue {
    if v & MOON != 0 {
        AffineValue::Moon
    } else {
        AffineValue::Nimber(v as u32)
    }
}
