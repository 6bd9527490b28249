//! Bit-parallel splits for games with few distinct nim-values: for each value `v`, the set
//! of heaps with value `v`, kept forward and mirrored. "Does some split of `s` tokens into
//! `i + (s - i)` give xor `w`?" is then, for each `v`, a word-wise AND of the forward set of
//! `v` with the mirrored set of `v ^ w` shifted by `s`: 64 splits per word operation, which
//! is what proving a value *absent* (the expensive part of a mex) costs.

pub(super) struct PositionSets {
    /// Bits per set; heap `i` sits at bit `i` forward and at bit `capacity - 1 - i` mirrored.
    capacity: usize,
    forward: Vec<Vec<u64>>,
    mirrored: Vec<Vec<u64>>,
}

impl PositionSets {
    /// Sets holding heaps `0..values.len()`.
    pub fn new(values: &[u32]) -> PositionSets {
        let mut sets = PositionSets {
            capacity: 0,
            forward: Vec::new(),
            mirrored: Vec::new(),
        };
        sets.rebuild(values, (values.len() * 2).max(1024).next_multiple_of(64));
        sets
    }

    fn rebuild(&mut self, values: &[u32], capacity: usize) {
        self.capacity = capacity;
        self.forward.clear();
        self.mirrored.clear();
        for (n, &v) in values.iter().enumerate() {
            self.set(n, v);
        }
    }

    fn set(&mut self, n: usize, v: u32) {
        let v = v as usize;
        let words = self.capacity / 64;
        if v >= self.forward.len() {
            self.forward.resize_with(v + 1, || vec![0; words]);
            self.mirrored.resize_with(v + 1, || vec![0; words + 1]);
        }
        let m = self.capacity - 1 - n; // the mirrored sets carry one zero word of padding
        self.forward[v][n / 64] |= 1 << (n % 64);
        self.mirrored[v][m / 64] |= 1 << (m % 64);
    }

    /// Records `values[n]`, the newest value.
    pub fn push(&mut self, n: usize, values: &[u32]) {
        if n >= self.capacity {
            self.rebuild(
                &values[..n],
                (self.capacity * 2).max(n + 1).next_multiple_of(64),
            );
        }
        self.set(n, values[n]);
    }

    /// Number of distinct values recorded so far (the cost factor of `has_split`).
    pub fn value_count(&self) -> usize {
        self.forward.len()
    }

    /// Whether some `i` in `1..=h` has `g(i) ^ g(s - i) == w` (needs `s < capacity`).
    pub fn has_split(&self, s: usize, h: usize, w: u32) -> bool {
        if h == 0 || s >= self.capacity {
            return false;
        }
        // Mirrored bit of heap s - i is (capacity - 1 - s) + i: a fixed shift from bit i.
        let offset = self.capacity - 1 - s;
        let (q, r) = (offset / 64, (offset % 64) as u32);
        let last = h / 64;
        let first_mask = !1u64; // i >= 1
        let last_mask = if h % 64 == 63 {
            u64::MAX
        } else {
            (1u64 << (h % 64 + 1)) - 1 // i <= h
        };
        // Bits 64k.. of the mirrored set shifted by `offset`; (x << 1) << (63 - r) is
        // x << (64 - r) without overflow when r = 0.
        let shifted = |m: &[u64], k: usize| (m[q + k] >> r) | ((m[q + k + 1] << 1) << (63 - r));
        for (v, forward) in self.forward.iter().enumerate() {
            let Some(mirrored) = self.mirrored.get(v ^ w as usize) else {
                continue;
            };
            if last == 0 {
                if forward[0] & first_mask & last_mask & shifted(mirrored, 0) != 0 {
                    return true;
                }
                continue;
            }
            if forward[0] & first_mask & shifted(mirrored, 0) != 0
                || forward[last] & last_mask & shifted(mirrored, last) != 0
            {
                return true;
            }
            // The middle words, in chunks so the OR-reduction vectorises.
            let middle = &forward[1..last];
            let low = &mirrored[q + 1..q + last];
            let high = &mirrored[q + 2..q + last + 1];
            let chunks = middle.chunks(32).zip(low.chunks(32)).zip(high.chunks(32));
            for ((fwd, lo), hi) in chunks {
                let mut acc = 0u64;
                for ((&a, &l), &h) in fwd.iter().zip(lo).zip(hi) {
                    acc |= a & ((l >> r) | ((h << 1) << (63 - r)));
                }
                if acc != 0 {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_split_matches_brute_force() {
        let values: Vec<u32> = (0..3000u32).map(|n| (n * 7 + n / 13) % 11).collect();
        let mut sets = PositionSets::new(&values[..10]);
        for n in 10..values.len() {
            sets.push(n, &values[..=n]);
        }
        for s in [2, 3, 64, 65, 127, 128, 129, 1000, 2999] {
            for h in [s / 2, s / 2 - 1, 1, 63.min(s / 2), 64.min(s / 2)] {
                for w in 0..16 {
                    let brute = (1..=h).any(|i| values[i] ^ values[s - i] == w);
                    assert_eq!(sets.has_split(s, h, w), brute, "s={s} h={h} w={w}");
                }
            }
        }
    }
}
