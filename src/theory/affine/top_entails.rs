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

/// `g(n)` is stored as `u16`; this marks `☾`.
const MOON: u16 = u16::MAX;
/// Any stored value with this bit set is `☾` (values stay far below it).
const MOON_BIT: u16 = 1 << 15;

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

/// The recurrence up to `limit`, polling `interrupted` every 1024 stacks.
/// Rows are only built when `with_rows` (they cost memory).
pub fn top_entails_with(
    limit: usize,
    with_rows: bool,
    mut interrupted: impl FnMut() -> bool,
) -> Result<(Vec<AffineValue>, Vec<TopEntailsRow>), Interrupted> {
    let mut g: Vec<u16> = Vec::with_capacity(limit + 1);
    let mut rows = Vec::new();
    // Nim-values (and their nim-sums) stay below `cap`, a power of two.
    let mut cap = 64usize;
    let mut words = 1usize;
    // stamp[x] == n + 1  ⇔  x ∈ S_n: no clearing between stacks.
    let mut stamp: Vec<u32> = vec![0; cap];
    let mut s_prev = vec![0u64; words];
    let mut p_prev = vec![0u64; words];
    let mut p_prev_cofinite = false;
    let mut s_cur = vec![0u64; words];
    let mut p_cur = vec![0u64; words];
    for n in 0..=limit {
        if n % 1024 == 0 && interrupted() {
            return Err(Interrupted);
        }
        // S_n from the pairs ℓ + m = n.
        let mark = n as u32 + 1;
        immediate_pairs(&g, n, &mut stamp, mark);
        for (w, word) in s_cur.iter_mut().enumerate() {
            let mut bits = 0u64;
            for (b, &s) in stamp[w * 64..(w + 1) * 64].iter().enumerate() {
                bits |= ((s == mark) as u64) << b;
            }
            *word = bits;
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
        if value != MOON && value as usize >= cap / 2 {
            cap *= 2;
            words = cap / 64;
            stamp.resize(cap, 0);
            for v in [&mut s_prev, &mut p_prev, &mut s_cur, &mut p_cur] {
                v.resize(words, 0);
            }
        }
    }
    Ok((g.into_iter().map(to_value).collect(), rows))
}

fn to_value(v: u16) -> AffineValue {
    if v & MOON_BIT != 0 {
        AffineValue::Moon
    } else {
        AffineValue::Nimber(v as u32)
    }
}

/// Marks `stamp[g(ℓ) ⊕ g(n−ℓ)] = mark` for every split with no ☾ part.
#[inline(never)]
fn immediate_pairs(g: &[u16], n: usize, stamp: &mut [u32], mark: u32) {
    let half = n / 2;
    if half == 0 {
        return;
    }
    // ℓ runs up over 1..=half while n−ℓ runs down over n−half..=n−1.
    let left = &g[1..=half];
    let right = &g[n - half..n];
    for (&a, &b) in left.iter().zip(right.iter().rev()) {
        // Sums with a ☾ part are ☾ and give no immediate nimber.
        if (a | b) & MOON_BIT == 0 {
            stamp[(a ^ b) as usize] = mark;
        }
    }
}
