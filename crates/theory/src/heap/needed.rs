//! The values a settle scan (see `record`) still needs, as a bit set over a window of 255
//! values, and the scan of pairs `(i, s − i)` against it.
//!
//! The scan is most of the record kernel's work (Grundy's game: some 3 000 pairs a heap,
//! 32 needed values at the start). Looking each pair's value up in a byte table costs a load
//! and a store a pair; with AVX2 the set is two 16-byte shuffle tables and 32 pairs are tested
//! in a few vector instructions, the pairs that make a needed value found from a mask. Without
//! AVX2 (or off x86-64) the scan looks pairs up one at a time.
//!
//! Slots: value `v` is slot `v − base`, saturated to `0..=255`. `base` is one below the mex
//! `m` the scan starts from (marked, so never needed): slot 0 then also stands for every value
//! below the window, and slot 255 for every value above it; neither is ever needed.

/// Needed values as slots of a 256-bit set.
pub(super) struct Needed {
    base: u32,
    /// Slot `k` is bit `k % 64` of word `k / 64`.
    bits: [u64; 4],
    count: usize,
}

impl Needed {
    /// The values `v` in `m..c` with `needed(v)`, if they fit the window above `m − 1`
    /// (`m` must be the least unmarked value, so `m − 1` is marked).
    pub fn new(m: u32, c: u32, needed: impl Fn(u32) -> bool) -> Option<Needed> {
        let base = m.saturating_sub(1);
        if c > base + 255 {
            return None;
        }
        let mut set = Needed {
            base,
            bits: [0; 4],
            count: 0,
        };
        for v in m..c {
            // Branch-free: whether a value is needed is a coin toss.
            let (slot, wanted) = ((v - base) as usize, needed(v));
            set.bits[slot / 64] |= u64::from(wanted) << (slot % 64);
            set.count += usize::from(wanted);
        }
        Some(set)
    }

    #[cfg(test)]
    fn count(&self) -> usize {
        self.count
    }

    /// Whether `v` is still needed.
    pub fn contains(&self, v: u32) -> bool {
        v >= self.base && {
            let slot = (v - self.base).min(255) as usize;
            self.bits[slot / 64] & (1 << (slot % 64)) != 0
        }
    }

    /// Whether this machine scans 32 pairs at a time (otherwise a caller may prefer a scan
    /// of its own).
    pub fn vectorised() -> bool {
        #[cfg(target_arch = "x86_64")]
        return std::arch::is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        return false;
    }

    /// Takes slot `slot` off the set if it is there.
    #[inline]
    fn take_slot(&mut self, slot: usize) {
        let bit = 1 << (slot % 64);
        if self.bits[slot / 64] & bit != 0 {
            self.bits[slot / 64] &= !bit;
            self.count -= 1;
        }
    }

    #[inline]
    fn slot(&self, x: u16) -> usize {
        (u32::from(x).saturating_sub(self.base)).min(255) as usize
    }

    /// Scans the pairs `(i, s − i)` of `g` for `i` in `from..to` (`to <= s − from + 1`), taking
    /// the values they make off the set, until none is left; returns where it stopped (`to`
    /// if it looked at every pair).
    pub fn scan(&mut self, g: &[u16], s: usize, from: usize, to: usize) -> usize {
        let mut i = from;
        #[cfg(target_arch = "x86_64")]
        if Needed::vectorised() {
            // SAFETY: the CPU has AVX2, checked just above.
            i = unsafe { self.scan_avx2(g, s, from, to) };
        }
        while self.count > 0 && i < to {
            self.take_slot(self.slot(g[i] ^ g[s - i]));
            i += 1;
        }
        i
    }

    /// The scan 32 pairs at a time, as far as whole runs of 32 go.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn scan_avx2(&mut self, g: &[u16], s: usize, from: usize, to: usize) -> usize {
        use std::arch::x86_64::*;
        // Reverses the eight 16-bit values of each 128-bit lane.
        let reverse = _mm256_setr_epi8(
            14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, //
            14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,
        );
        let base = _mm256_set1_epi16(self.base as i16);
        let low_nibble = _mm256_set1_epi8(0x0f);
        let high_bit = _mm256_set1_epi8(i8::MIN);
        let seven = _mm256_set1_epi8(7);
        let bit_of = _mm256_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, //
            1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
        );
        // The set lives in four words in registers while the scan runs, and the tables are
        // made from them: loaded from memory just after the stores that changed the set,
        // they waited for the stores to drain (a tenth of the scan's time).
        let [mut b0, mut b1, mut b2, mut b3] = self.bits;
        let half =
            |lo: u64, hi: u64| _mm256_broadcastsi128_si256(_mm_set_epi64x(hi as i64, lo as i64));
        let (mut low_table, mut high_table) = (half(b0, b1), half(b2, b3));
        let mut count = self.count;
        let mut i = from;
        while count > 0 && i + 32 <= to {
            let low: &[u16; 32] = g[i..i + 32].try_into().expect("a run");
            let high: &[u16; 32] = g[s + 1 - i - 32..=s - i].try_into().expect("a run");
            // SAFETY: each load reads 16 values inside `low` or `high`.
            let [l0, l1, h0, h1] = unsafe {
                [
                    _mm256_loadu_si256(low.as_ptr().cast()),
                    _mm256_loadu_si256(low[16..].as_ptr().cast()),
                    _mm256_loadu_si256(high.as_ptr().cast()),
                    _mm256_loadu_si256(high[16..].as_ptr().cast()),
                ]
            };
            // `low[k]` pairs with `high[31 − k]`: reverse each high half and swap its lanes.
            let flip = |h| _mm256_permute4x64_epi64::<0x4e>(_mm256_shuffle_epi8(h, reverse));
            let x0 = _mm256_xor_si256(l0, flip(h1));
            let x1 = _mm256_xor_si256(l1, flip(h0));
            // Slots, saturated: values below 2^15 stay non-negative as `i16`, so the pack's
            // signed saturation leaves them as they are up to 255. (The pack interleaves the
            // lanes: the order of the pairs does not matter here.)
            let slots =
                _mm256_packus_epi16(_mm256_subs_epu16(x0, base), _mm256_subs_epu16(x1, base));
            // The slot's byte of the set: the low table for slots below 128 (a set high bit
            // makes the shuffle give 0), the high table for the others.
            let index = _mm256_and_si256(_mm256_srli_epi16::<3>(slots), low_nibble);
            let high_half = _mm256_and_si256(slots, high_bit);
            let byte = _mm256_or_si256(
                _mm256_shuffle_epi8(low_table, _mm256_or_si256(index, high_half)),
                _mm256_shuffle_epi8(
                    high_table,
                    _mm256_xor_si256(_mm256_or_si256(index, high_bit), high_half),
                ),
            );
            let bit = _mm256_shuffle_epi8(bit_of, _mm256_and_si256(slots, seven));
            let hit = _mm256_and_si256(byte, bit);
            i += 32;
            let zero = _mm256_cmpeq_epi8(hit, _mm256_setzero_si256());
            let mut hits = !(_mm256_movemask_epi8(zero) as u32);
            if hits != 0 {
                let mut bytes = [0u8; 32];
                // SAFETY: `bytes` is 32 writable bytes.
                unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), slots) };
                while hits != 0 {
                    let slot = bytes[hits.trailing_zeros() as usize];
                    hits &= hits - 1;
                    // Branch-free, so the words stay in registers.
                    let (word, bit) = (slot >> 6, 1u64 << (slot & 63));
                    let of = |k: u8, b: u64| if word == k { b & bit } else { 0 };
                    let taken = [of(0, b0), of(1, b1), of(2, b2), of(3, b3)];
                    (b0, b1, b2, b3) = (b0 ^ taken[0], b1 ^ taken[1], b2 ^ taken[2], b3 ^ taken[3]);
                    count -= usize::from(taken != [0; 4]);
                }
                (low_table, high_table) = (half(b0, b1), half(b2, b3));
            }
        }
        self.bits = [b0, b1, b2, b3];
        self.count = count;
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift generator: the test needs varied values, not good randomness.
    fn values(seed: u64, len: usize, below: u16) -> Vec<u16> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % u64::from(below)) as u16
            })
            .collect()
    }

    /// The scan against the set of values the pairs make, computed pair by pair: where it
    /// stops, and what it leaves, for windows low and high, wide and narrow, and runs cut
    /// anywhere (the vector scan does whole runs of 32, the rest one pair at a time).
    #[test]
    fn scan_takes_what_the_pairs_make() {
        for seed in 1..200u64 {
            let below = [40u16, 300, 600, 4000][seed as usize % 4];
            let g = values(seed, 3000, below);
            let s = 2000 + (seed as usize * 7) % 900;
            let from = 1 + seed as usize % 40;
            let to = from + (seed as usize * 13) % 600;
            let m = (seed as u32 * 11) % u32::from(below);
            let c = (m + 1 + (seed as u32 * 5) % 300).min(m.saturating_sub(1) + 255);
            let wanted = |v: u32| !(v * 7 + seed as u32).is_multiple_of(3);
            let mut set = Needed::new(m, c, wanted).expect("fits the window");
            let stop = set.scan(&g, s, from, to);
            // By brute force: the first `i` after which every wanted value has been made.
            let mut left: Vec<u32> = (m..c).filter(|&v| wanted(v)).collect();
            let mut i = from;
            while !left.is_empty() && i < to {
                let x = u32::from(g[i] ^ g[s - i]);
                left.retain(|&v| v != x);
                i += 1;
            }
            // The vector scan looks at whole runs, so it may stop up to 31 pairs later.
            assert!(
                stop >= i && stop <= (i + 31).min(to.max(i)),
                "seed {seed}: {stop} vs {i}"
            );
            assert_eq!(set.count(), left.len(), "seed {seed}");
            for v in m.saturating_sub(3)..c + 3 {
                assert_eq!(set.contains(v), left.contains(&v), "seed {seed}, value {v}");
            }
        }
    }

    #[test]
    fn a_window_too_wide_is_refused() {
        assert!(Needed::new(10, 9 + 255, |_| true).is_some());
        assert!(Needed::new(10, 10 + 255, |_| true).is_none());
        assert!(Needed::new(0, 255, |_| true).is_some());
        assert!(Needed::new(0, 256, |_| true).is_none());
    }
}
