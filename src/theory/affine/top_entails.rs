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

use super::nimset::NimSet;
use super::value::AffineValue;

/// One stack: its immediate and protected nimbers and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopEntailsRow {
    pub immediate_nimbers: NimSet,
    pub protected_nimbers: NimSet,
    pub value: AffineValue,
}

/// The search was interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

/// `g(n)` is stored as `u16`; this marks `☾` (nim-values stay far below it:
/// the largest for n ≤ 600 000 is 1808). The recurrence stops with `☾` for
/// all larger stacks rather than overflow (see `immediate_pairs`).
const MOON: u16 = 1 << 15;
const MOON_BIT: u16 = MOON;

/// Values `g(0), …, g(limit)` of Top Entails stacks.
pub fn top_entails_values(limit: usize) -> Vec<AffineValue> {
    match top_entails_with(limit, false, || false) {
        Ok((values, _)) => values,
        Err(Interrupted) => Vec::new(),
    }
}

/// Rows (`S_n`, `P_n`, value) for `n = 0..=limit`.
pub fn top_entails_rows(limit: usize) -> Vec<TopEntailsRow> {
    match top_entails_with(limit, true, || false) {
        Ok((_, rows)) => rows,
        Err(Interrupted) => Vec::new(),
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

/// The recurrence up to `limit`, polling `interrupted` once per block of
/// stacks. Rows are only built when `with_rows` (they cost memory).
///
/// Cost: `n²/4` pair look-ups in total (≈ 9·10¹⁰ for 600 000), spread
/// over the available cores.
pub fn top_entails_with(
    limit: usize,
    with_rows: bool,
    mut interrupted: impl FnMut() -> bool,
) -> Result<(Vec<AffineValue>, Vec<TopEntailsRow>), Interrupted> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .clamp(1, 8);
    let mut g: Vec<u16> = Vec::with_capacity(limit + 1);
    let mut rows = Vec::new();
    // Nim-values (and their nim-sums) stay below `cap`, a power of two.
    let mut cap = 64usize;
    let mut words = 1usize;
    let mut s_prev = vec![0u64; words];
    let mut p_prev = vec![0u64; words];
    let mut p_prev_cofinite = false;
    let mut s_cur = vec![0u64; words];
    let mut p_cur = vec![0u64; words];
    let mut partial: Vec<u64> = Vec::new();
    let mut n0 = 0;
    while n0 <= limit {
        if interrupted() {
            return Err(Interrupted);
        }
        let n1 = (n0 + BLOCK).min(limit + 1);
        let bw = words;
        old_pairs(&g, n0, n1, bw, threads, &mut partial);
        for n in n0..n1 {
            // S_n: the old pairs found above, plus those reaching into the block.
            let pw = &partial[(n - n0) * bw..(n - n0 + 1) * bw];
            s_cur.fill(0);
            s_cur[..pw.len()].copy_from_slice(pw);
            for l in 1..=(n / 2).min(n - n0) {
                let (a, b) = (g[l], g[n - l]);
                if (a | b) & MOON_BIT == 0 {
                    let x = (a ^ b) as usize;
                    s_cur[x / 64] |= 1 << (x % 64);
                }
            }
            // P_n = nim ∖ (S_{n−1} ∪ P_{n−1}); P_0 = ∅.
            let p_cofinite = if n == 0 {
                p_cur.fill(0);
                false
            } else if p_prev_cofinite {
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
                    .map_or((words * 64) as u16, |(i, w)| {
                        (i * 64) as u16 + (!w).trailing_zeros() as u16
                    })
            };
            if with_rows {
                rows.push(TopEntailsRow {
                    immediate_nimbers: NimSet::from_words(&s_cur, false),
                    protected_nimbers: NimSet::from_words(&p_cur, p_cofinite),
                    value: to_value(value),
                });
            }
            g.push(value);
            std::mem::swap(&mut s_prev, &mut s_cur);
            std::mem::swap(&mut p_prev, &mut p_cur);
            p_prev_cofinite = p_cofinite;
            // Keep every value and nim-sum of values below `cap`.
            if value != MOON && value as usize >= cap / 2 && cap < MOON as usize {
                cap *= 2;
                words = cap / 64;
                for v in [&mut s_prev, &mut p_prev, &mut s_cur, &mut p_cur] {
                    v.resize(words, 0);
                }
            }
        }
        n0 = n1;
    }
    Ok((g.into_iter().map(to_value).collect(), rows))
}

/// For each `n` in `n0..n1`, the bitset (`words` wide) of `g(ℓ) ⊕ g(n−ℓ)`
/// over the splits with both parts below `n0`, computed by `threads` workers
/// (stack `n0 + i` goes to worker `i mod threads`).
fn old_pairs(g: &[u16], n0: usize, n1: usize, words: usize, threads: usize, out: &mut Vec<u64>) {
    out.clear();
    out.resize((n1 - n0) * words, 0);
    let work = |rows: &mut [(usize, &mut [u64])]| {
        let mut stamp: Box<[u32; 1 << 16]> = match vec![0u32; 1 << 16].into_boxed_slice().try_into()
        {
            Ok(b) => b,
            Err(_) => return,
        };
        for (n, bits) in rows.iter_mut() {
            let n = *n;
            let mark = n as u32 + 1;
            // ℓ > n − n0 keeps n − ℓ below n0.
            let lo = (n + 1).saturating_sub(n0).max(1);
            immediate_pairs(g, n, lo, &mut stamp, mark);
            for (w, word) in bits.iter_mut().enumerate() {
                let mut acc = 0u64;
                for (b, &s) in stamp[w * 64..(w + 1) * 64].iter().enumerate() {
                    acc |= ((s == mark) as u64) << b;
                }
                *word = acc;
            }
        }
    };
    let mut per_thread: Vec<Vec<(usize, &mut [u64])>> = (0..threads).map(|_| Vec::new()).collect();
    for (i, chunk) in out.chunks_mut(words).enumerate() {
        per_thread[i % threads].push((n0 + i, chunk));
    }
    if threads == 1 || n1 - n0 < 64 || n0 < 4096 {
        for rows in per_thread.iter_mut() {
            work(rows);
        }
    } else {
        std::thread::scope(|scope| {
            for rows in per_thread.iter_mut() {
                scope.spawn(move || work(rows));
            }
        });
    }
}

fn to_value(v: u16) -> AffineValue {
    if v & MOON_BIT != 0 {
        AffineValue::Moon
    } else {
        AffineValue::Nimber(v as u32)
    }
}

/// Marks `stamp[g(ℓ) ⊕ g(n−ℓ)] = mark` for `lo ≤ ℓ ≤ n/2` with no ☾ part.
///
/// Branch-free: a pair with a ☾ part lands at an index with the ☾ bit set,
/// which is never read back as a nim-value.
#[inline(never)]
fn immediate_pairs(g: &[u16], n: usize, lo: usize, stamp: &mut [u32; 1 << 16], mark: u32) {
    let half = n / 2;
    if lo > half {
        return;
    }
    // ℓ runs up over lo..=half while n−ℓ runs down from n−lo.
    let left = &g[lo..=half];
    let right = &g[n - half..=n - lo];
    for (&a, &b) in left.iter().zip(right.iter().rev()) {
        stamp[((a ^ b) | ((a | b) & MOON_BIT)) as usize] = mark;
    }
}
