//! Sparse space (Gangolli–Plambeck, Flammenkamp): split nim-values into *common* and *rare*
//! by the parity of `augmented(v) & mask`, where `augmented(n) = g(n) << 1 | (n & 1)`.
//!
//! Common values have odd parity, so the xor of two common augmented values has even
//! parity. For a split of `n - d` tokens into heaps `i + j`,
//! `augmented(i) ^ augmented(j) = (g(i) ^ g(j)) << 1 | ((n - d) & 1)`: a candidate value `m`
//! whose `m << 1 | ((n - d) & 1)` has odd parity can never come from two common heaps.
//! So only pairs with a rare heap need scanning, as long as the mex they give passes that
//! test, which it does for almost every heap of a sparse game. The heap-parity bit may
//! only be in the mask when every splitting move removes tokens of one parity.
//!
//! The mask is chosen to minimise the number of rare heaps seen so far, for all masks at
//! once with a Walsh–Hadamard transform of the histogram of augmented values.

/// Largest histogram (in augmented values) the mask search handles; beyond, stay dense.
const MAX_SPACE: usize = 1 << 22;

/// A stored nim-value: the kernels keep `u32`, the record kernel `u16` (two bytes a heap).
pub(super) trait Value: Copy + Send + Sync {
    fn get(self) -> u32;
}

impl Value for u32 {
    #[inline]
    fn get(self) -> u32 {
        self
    }
}

impl Value for u16 {
    #[inline]
    fn get(self) -> u32 {
        u32::from(self)
    }
}

pub(super) struct SparseSpace {
    /// 0 means "no useful split": every heap would be rare, so the kernel scans densely.
    pub mask: u64,
    /// Heaps `n >= 1` whose augmented value has even parity, ascending.
    pub rare: Vec<usize>,
    /// `histogram[a]` = number of heaps with augmented value `a`.
    histogram: Vec<u64>,
    parity_bit_allowed: bool,
    next_rebuild: usize,
    rare_limit: usize,
    /// Counts mask changes, so work done under an older mask can be recognised.
    pub generation: u32,
}

#[inline]
pub(super) fn augmented(n: usize, value: u32) -> u64 {
    (u64::from(value) << 1) | (n as u64 & 1)
}

#[inline]
pub(super) fn is_common(augmented: u64, mask: u64) -> bool {
    (augmented & mask).count_ones() & 1 == 1
}

impl SparseSpace {
    pub fn new(parity_bit_allowed: bool) -> SparseSpace {
        SparseSpace {
            mask: 0,
            rare: Vec::new(),
            histogram: Vec::new(),
            parity_bit_allowed,
            next_rebuild: 64,
            rare_limit: usize::MAX,
            generation: 0,
        }
    }

    /// Records the value of heap `n` (heaps arrive in order) and re-chooses the mask when
    /// the heap count doubles or the rare heaps pile up.
    pub fn record<V: Value>(&mut self, n: usize, values: &[V]) {
        let a = augmented(n, values[n].get()) as usize;
        if a >= self.histogram.len() {
            self.histogram.resize(a + 1, 0);
        }
        self.histogram[a] += 1;
        if self.mask != 0 && n > 0 && !is_common(a as u64, self.mask) {
            self.rare.push(n);
        }
        if n + 1 >= self.next_rebuild || self.rare.len() > self.rare_limit {
            self.rebuild(values);
        }
    }

    fn rebuild<V: Value>(&mut self, values: &[V]) {
        let heaps = values.len();
        self.generation += 1;
        self.next_rebuild = heaps.saturating_mul(2);
        self.mask = 0;
        self.rare.clear();
        self.rare_limit = usize::MAX;
        let size = self.histogram.len().next_power_of_two();
        if size > MAX_SPACE {
            return;
        }
        let Some((mask, rare)) = best_mask(&self.histogram, size, self.parity_bit_allowed) else {
            return;
        };
        // A split pays only while rare heaps stay a small minority.
        if rare.saturating_mul(8) > heaps as u64 {
            return;
        }
        self.mask = mask;
        self.rare
            .extend((1..heaps).filter(|&n| !is_common(augmented(n, values[n].get()), mask)));
        self.rare_limit = self.rare.len() * 2 + 64;
    }
}

/// The nonzero mask with the fewest rare (even-parity) heaps, and that number.
fn best_mask(histogram: &[u64], size: usize, parity_bit_allowed: bool) -> Option<(u64, u64)> {
    let total: u64 = histogram.iter().sum();
    let mut w: Vec<i64> = vec![0; size];
    for (slot, &count) in w.iter_mut().zip(histogram) {
        *slot = count as i64;
    }
    // After the transform, w[mask] = (#even parity) - (#odd parity).
    let mut half = 1;
    while half < size {
        for block in w.chunks_exact_mut(2 * half) {
            let (lo, hi) = block.split_at_mut(half);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (a, b) = (*x, *y);
                *x = a + b;
                *y = a - b;
            }
        }
        half *= 2;
    }
    let step = if parity_bit_allowed { 1 } else { 2 };
    (step..size)
        .step_by(step)
        .min_by_key(|&mask| w[mask])
        .map(|mask| (mask as u64, ((total as i64 + w[mask]) / 2) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_mask_counts_even_parity() {
        // Augmented values 2, 4, 8 (g = 1, 2, 4 on even heaps) are all odd under mask 14.
        let mut histogram = vec![0u64; 16];
        histogram[2] = 5;
        histogram[4] = 5;
        histogram[8] = 5;
        histogram[6] = 1; // g = 3: even under 14
        let (mask, rare) = best_mask(&histogram, 16, false).unwrap();
        assert_eq!(rare, 1);
        assert_eq!(mask & 1, 0);
        for a in [2u64, 4, 8] {
            assert!(is_common(a, mask));
        }
    }
}
