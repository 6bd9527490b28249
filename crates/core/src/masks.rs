//! A map from bit masks of at most 128 bits, each in a family (a `u32` naming what the bits are
//! of), to `u32` values: open addressing with linear probing in one flat array.
//!
//! A position listing its options looks up one mask an option, each likely in another cache
//! line of a table larger than the cache. [`MaskMap::prefetch`] asks for a mask's line before
//! its lookup, so that the lookups of one listing wait for memory together rather than one
//! after another (a general hash map offers no such call). [`prefetch`] does the same for any
//! table's slot.

/// Asks the processor for the cache line holding `x`, to be read soon (nothing on targets
/// without a prefetch instruction).
#[inline]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let p = x as *const T as *const i8;
        // SAFETY: a prefetch only hints the cache (it never faults, even on a bad address),
        // and every x86-64 processor has SSE.
        unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// One slot: a mask, its family and its value ([`MaskMap::EMPTY`] for none).
#[derive(Clone, Copy)]
struct Slot {
    bits: [u64; 2],
    family: u32,
    value: u32,
}

#[derive(Default)]
pub struct MaskMap {
    slots: Vec<Slot>,
    len: usize,
}

impl MaskMap {
    /// The value no entry holds (an empty slot).
    pub const EMPTY: u32 = u32::MAX;
    const FIRST: usize = 1 << 12;

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes the map holds.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    fn home(&self, family: u32, mask: u128) -> usize {
        let mix = |h: u64, x: u64| (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        let h = mix(
            mix(mix(0, u64::from(family)), mask as u64),
            (mask >> 64) as u64,
        );
        let h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// Asks the processor for the cache line where `mask` would be looked up (no effect on
    /// the map; nothing on targets without a prefetch).
    #[inline]
    pub fn prefetch(&self, family: u32, mask: u128) {
        if !self.slots.is_empty() {
            prefetch(&self.slots[self.home(family, mask)]);
        }
    }

    pub fn get(&self, family: u32, mask: u128) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let bits = [mask as u64, (mask >> 64) as u64];
        let last = self.slots.len() - 1;
        let mut i = self.home(family, mask);
        loop {
            let s = &self.slots[i];
            if s.value == Self::EMPTY {
                return None;
            }
            if s.bits == bits && s.family == family {
                return Some(s.value);
            }
            i = (i + 1) & last;
        }
    }

    /// Sets the value of `mask` in `family` (`value` not [`MaskMap::EMPTY`]). `false`, and
    /// nothing kept, when the map is full and `room(bytes)` refuses the bytes it would grow to.
    pub fn insert(
        &mut self,
        family: u32,
        mask: u128,
        value: u32,
        room: impl Fn(usize) -> bool,
    ) -> bool {
        debug_assert!(value != Self::EMPTY);
        // At most three quarters full: probes stay short.
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            let n = (2 * self.slots.len()).max(Self::FIRST);
            if !room(n * std::mem::size_of::<Slot>()) {
                return false;
            }
            self.grow(n);
        }
        let bits = [mask as u64, (mask >> 64) as u64];
        let last = self.slots.len() - 1;
        let mut i = self.home(family, mask);
        loop {
            let s = &mut self.slots[i];
            if s.value == Self::EMPTY {
                *s = Slot {
                    bits,
                    family,
                    value,
                };
                self.len += 1;
                return true;
            }
            if s.bits == bits && s.family == family {
                s.value = value;
                return true;
            }
            i = (i + 1) & last;
        }
    }

    /// Forgets every entry and gives back the memory.
    pub fn clear(&mut self) {
        *self = MaskMap::default();
    }

    fn grow(&mut self, n: usize) {
        let empty = Slot {
            bits: [0; 2],
            family: 0,
            value: Self::EMPTY,
        };
        let old = std::mem::replace(&mut self.slots, vec![empty; n]);
        self.len = 0;
        for s in old.into_iter().filter(|s| s.value != Self::EMPTY) {
            let mask = u128::from(s.bits[0]) | u128::from(s.bits[1]) << 64;
            self.insert(s.family, mask, s.value, |_| true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Against a standard map, over masks that share low or high words and families.
    #[test]
    fn agrees_with_a_map() {
        let mut m = MaskMap::default();
        let mut want = HashMap::new();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for k in 0..50_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mask = match k % 3 {
                0 => u128::from(x % 1000),
                1 => u128::from(x % 1000) << 64,
                _ => u128::from(x) << 32 | u128::from(k),
            };
            let family = (x >> 60) as u32;
            m.prefetch(family, mask);
            assert_eq!(m.get(family, mask), want.get(&(family, mask)).copied());
            assert!(m.insert(family, mask, k, |_| true));
            want.insert((family, mask), k);
        }
        assert_eq!(m.len(), want.len());
        for (&(f, mask), &v) in &want {
            assert_eq!(m.get(f, mask), Some(v));
        }
        assert_eq!(m.get(99, 5), None);
    }

    /// A map refused room keeps what it has and takes nothing more.
    #[test]
    fn refused_room_keeps_what_it_has() {
        let mut m = MaskMap::default();
        let mut k = 0;
        while m.insert(0, k, k as u32, |bytes| bytes <= 1 << 16) {
            k += 1;
        }
        assert_eq!(m.len(), k as usize);
        assert!((0..k).all(|j| m.get(0, j) == Some(j as u32)));
        assert!(m.bytes() <= 1 << 16);
    }
}
