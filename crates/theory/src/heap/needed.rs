//! The values a settle scan (see `record`) still needs, as a bit set over a window of 255
//! values, and the scan of pairs `(i, s − i)` against it.
//!
//! The scan is most of the record kernel's work (Grundy's game: 32 needed values at the
//! start, the last few found after some 1 000 pairs taken in a scattered order, 3 000 in
//! order). Looking each pair's value up in a byte table costs a load and a store a pair; with
//! AVX2 the set is two 16-byte shuffle tables and 32 pairs are tested in a few vector
//! instructions, with AVX-512 (byte permutes) it is one register and 64 pairs are, the pairs
//! that make a needed value found from a mask. Without AVX2 (or off x86-64) the scan looks
//! pairs up one at a time.
//!
//! Slots: value `v` is slot `v − base`, saturated to `0..=255`. `base` is one below the mex
//! `m` the scan starts from (marked, so never needed): slot 0 then also stands for every value
//! below the window, and slot 255 for every value above it; neither is ever needed.

/// Pairs in a run, and the pairs a long scan takes first in a scattered order (see `scan`).
const RUN: usize = 64;
pub(super) const WINDOW: usize = 1 << 15;

/// The starts of the runs of `run` pairs (a power of two) of the `WINDOW` pairs from `from`,
/// in a scattered order: run `k` is the `k · stride`-th modulo the runs' number, for an odd
/// stride near that number over the golden ratio (a permutation that never stays near).
pub(super) fn window_runs(from: usize, run: usize) -> impl Iterator<Item = usize> {
    let runs = WINDOW / run;
    let stride = (runs * 618 / 1000) | 1;
    (0..runs).map(move |k| from + k * stride % runs * run)
}

/// Row `k` is the 256-bit set holding slot `k` alone (the wide scan clears a hit with it).
#[cfg(target_arch = "x86_64")]
static CLEAR: [[u64; 4]; 256] = {
    let mut rows = [[0u64; 4]; 256];
    let mut k = 0;
    while k < 256 {
        rows[k][k / 64] = 1 << (k % 64);
        k += 1;
    }
    rows
};

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
        }
        set.count = set.bits.iter().map(|w| w.count_ones() as usize).sum();
        Some(set)
    }

    /// The set of slots `bits` above `base` (slot 255, every value above the window, must be
    /// clear; slot 0 may be set only for value 0, with `base` 0).
    pub fn from_bits(base: u32, bits: [u64; 4]) -> Needed {
        debug_assert!(bits[3] >> 63 == 0 && (base == 0 || bits[0] & 1 == 0));
        Needed {
            base,
            bits,
            count: bits.iter().map(|w| w.count_ones() as usize).sum(),
        }
    }

    /// The slots still needed.
    pub fn bits(&self) -> [u64; 4] {
        self.bits
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
        Level::best() != Level::Scalar
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
    /// the values they make off the set, until none is left; returns whether it looked at
    /// every pair.
    ///
    /// Neighbouring pairs make much the same values (Grundy's game: the last few needed values
    /// took some 3 000 pairs in order, about 1 000 in runs spread over the first 32 768). So a
    /// long scan first takes the runs of its first `WINDOW` pairs in a scattered order (see
    /// `window_runs`): both heaps of every pair stay within two windows of 64 KiB, in cache.
    /// The rest goes in order.
    pub fn scan(&mut self, g: &[u16], s: usize, from: usize, to: usize) -> bool {
        self.scan_at(Level::best(), g, s, from, to)
    }

    fn scan_at(&mut self, level: Level, g: &[u16], s: usize, from: usize, to: usize) -> bool {
        let mut i = from;
        if to.saturating_sub(from) >= WINDOW {
            if !self.scan_runs(level, g, s, window_runs(from, RUN)) {
                return false;
            }
            i += WINDOW;
        }
        let whole = to.saturating_sub(i) / RUN;
        if !self.scan_runs(level, g, s, (0..whole).map(|k| i + k * RUN)) {
            return false;
        }
        i += whole * RUN;
        while self.count > 0 && i < to {
            self.take_slot(self.slot(g[i] ^ g[s - i]));
            i += 1;
        }
        i >= to
    }

    /// The runs of `RUN` pairs from each of `starts` until the set is empty; whether it went
    /// through them all.
    fn scan_runs(
        &mut self,
        level: Level,
        g: &[u16],
        s: usize,
        starts: impl Iterator<Item = usize>,
    ) -> bool {
        match level {
            // SAFETY: `Level::best` checked that the CPU has these features.
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => unsafe { self.runs_avx512(g, s, starts) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => unsafe { self.runs_avx2(g, s, starts) },
            Level::Scalar => {
                for from in starts {
                    if self.count == 0 {
                        return false;
                    }
                    for i in from..from + RUN {
                        self.take_slot(self.slot(g[i] ^ g[s - i]));
                    }
                }
                true
            }
        }
    }

    /// Runs of 64 pairs, each tested in one go. The set's 32 bytes fit one register, so a
    /// pair's byte of it is one byte permute and its bit another: about 19 instructions a run
    /// against 31 for 32 pairs with AVX2 (on cores that split 512-bit work in two halves,
    /// still about 1.6 times fewer micro-operations a pair).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
    fn runs_avx512(&mut self, g: &[u16], s: usize, starts: impl Iterator<Item = usize>) -> bool {
        use std::arch::x86_64::*;
        let reverse = _mm512_set_epi16(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, //
            16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
        );
        let base = _mm512_set1_epi16(self.base as i16);
        // Entry `k` of a 64-byte permute table is the bit `k % 8` of a byte: the permute reads
        // only an index's low six bits, so a slot indexes it as it is.
        let bit_of = _mm512_set1_epi64(0x8040_2010_0804_0201_u64 as i64);
        // The set's 32 bytes, twice: a slot's byte index `slot >> 3` picks up the next byte's
        // low bit as its bit 5 under a 16-bit shift, and both halves answer alike.
        let twice = |words: *const [u64; 4]| {
            // SAFETY: `words` points to four readable words (the set, or a row of `CLEAR`).
            unsafe { _mm512_broadcast_i64x4(_mm256_loadu_si256(words.cast())) }
        };
        let mut set = twice(&self.bits);
        let mut empty = self.count == 0;
        let mut all = true;
        for i in starts {
            if empty {
                all = false;
                break;
            }
            let low: &[u16; 64] = g[i..i + 64].try_into().expect("a run");
            let high: &[u16; 64] = g[s + 1 - i - 64..=s - i].try_into().expect("a run");
            // SAFETY: each load reads 32 values inside `low` or `high`.
            let [l0, l1, h0, h1] = unsafe {
                [
                    _mm512_loadu_si512(low.as_ptr().cast()),
                    _mm512_loadu_si512(low[32..].as_ptr().cast()),
                    _mm512_loadu_si512(high.as_ptr().cast()),
                    _mm512_loadu_si512(high[32..].as_ptr().cast()),
                ]
            };
            // `low[k]` pairs with `high[63 − k]`.
            let x0 = _mm512_xor_si512(l0, _mm512_permutexvar_epi16(reverse, h1));
            let x1 = _mm512_xor_si512(l1, _mm512_permutexvar_epi16(reverse, h0));
            // Slots, saturated, as in `runs_avx2` (the pack interleaves lanes; order is free).
            let slots =
                _mm512_packus_epi16(_mm512_subs_epu16(x0, base), _mm512_subs_epu16(x1, base));
            let byte = _mm512_permutexvar_epi8(_mm512_srli_epi16::<3>(slots), set);
            let bit = _mm512_permutexvar_epi8(slots, bit_of);
            let hits = _mm512_test_epi8_mask(byte, bit);
            if hits != 0 {
                // The hits' slots, packed at the bottom: up to eight come out through a
                // register (a byte load just after storing the vector waits for the store).
                let packed = _mm512_maskz_compress_epi8(hits, slots);
                let n = hits.count_ones() as usize;
                let mut bytes = [0u8; 64];
                if n <= 8 {
                    bytes[..8].copy_from_slice(
                        &(_mm_cvtsi128_si64(_mm512_castsi512_si128(packed)) as u64).to_le_bytes(),
                    );
                } else {
                    // SAFETY: `bytes` is 64 writable bytes.
                    unsafe { _mm512_storeu_si512(bytes.as_mut_ptr().cast(), packed) };
                }
                // Each hit clears its bit with a row of `CLEAR` (a pair making a value already
                // taken in this run clears it again).
                for &slot in &bytes[..n] {
                    set = _mm512_andnot_si512(twice(&CLEAR[usize::from(slot)]), set);
                }
                empty = _mm512_test_epi64_mask(set, set) == 0;
            }
        }
        let mut words = [0u64; 8];
        // SAFETY: `words` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), set) };
        self.bits = [words[0], words[1], words[2], words[3]];
        self.count = self.bits.iter().map(|w| w.count_ones() as usize).sum();
        all
    }

    /// Runs of 64 pairs, tested 32 at a time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn runs_avx2(&mut self, g: &[u16], s: usize, starts: impl Iterator<Item = usize>) -> bool {
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
        let mut all = true;
        for i in starts.flat_map(|i| [i, i + 32]) {
            if count == 0 {
                all = false;
                break;
            }
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
        all
    }
}

/// The vector instructions a scan may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// AVX-512 with byte permutes and compression (F, BW, VBMI, VBMI2).
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Level {
    fn best() -> Level {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512bw") && has!("avx512vbmi") && has!("avx512vbmi2") {
                return Level::Avx512;
            }
            if has!("avx2") {
                return Level::Avx2;
            }
        }
        Level::Scalar
    }

    /// This one and those below it.
    #[cfg(test)]
    fn available() -> Vec<Level> {
        let best = Level::best();
        let mut all = vec![Level::Scalar];
        #[cfg(target_arch = "x86_64")]
        all.extend([Level::Avx2, Level::Avx512]);
        let upto = all.iter().position(|&l| l == best).expect("a level");
        all.truncate(upto + 1);
        all
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

    /// The scan against the values the pairs make, computed pair by pair, at every level
    /// this machine has: it takes exactly the wanted values some pair makes, and stops early
    /// only when it has taken them all. Windows low and high, wide and narrow; ranges cut
    /// anywhere (whole runs, the rest one pair at a time), some long enough for the scattered
    /// start, some with wanted values no pair makes (the scan then looks at every pair).
    #[test]
    fn scan_takes_what_the_pairs_make() {
        for level in Level::available() {
            for seed in 1..200u64 {
                let below = [40u16, 300, 600, 4000][seed as usize % 4];
                let long = seed % 5 == 0;
                let g = values(seed, if long { 80_000 } else { 3000 }, below);
                let s = g.len() - 1000 + (seed as usize * 7) % 900;
                let from = 1 + seed as usize % 40;
                let span = if long {
                    WINDOW + (seed as usize * 977) % 4000
                } else {
                    0
                };
                let to = from + span + (seed as usize * 13) % 600;
                let m = (seed as u32 * 11) % u32::from(below);
                let c = (m + 1 + (seed as u32 * 5) % 300).min(m.saturating_sub(1) + 255);
                let wanted = |v: u32| !(v * 7 + seed as u32).is_multiple_of(3);
                let mut set = Needed::new(m, c, wanted).expect("fits the window");
                let all = set.scan_at(level, &g, s, from, to);
                // By brute force: the wanted values no pair makes.
                let made: std::collections::HashSet<u32> =
                    (from..to).map(|i| u32::from(g[i] ^ g[s - i])).collect();
                let left: Vec<u32> = (m..c)
                    .filter(|&v| wanted(v) && !made.contains(&v))
                    .collect();
                let what = format!("{level:?}, seed {seed}");
                assert_eq!(set.count(), left.len(), "{what}");
                for v in m.saturating_sub(3)..c + 3 {
                    assert_eq!(set.contains(v), left.contains(&v), "{what}, value {v}");
                }
                assert!(all || left.is_empty(), "{what}: stopped with values left");
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
