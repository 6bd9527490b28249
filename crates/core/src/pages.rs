//! Values kept by `u32` id in pages made where ids are met: what a search reads for every
//! position it lists (an exact nimber, a weight, a ruleset's hints) costs one load there,
//! where a hash table costs a probe. A page is made only while the memory budget has room
//! for it ([`crate::memory::room_for`]); where there is none, nothing is kept, and the caller
//! works the value out again. The array is never copied to grow.

/// Ids a page covers.
const PAGE_BITS: u32 = 12;

/// A value for each id, `empty` where none was set.
pub struct Pages<T: Copy> {
    pages: Vec<Option<Box<[T]>>>,
    empty: T,
}

impl<T: Copy> Pages<T> {
    /// No value set; `empty` is what an id of a page made reads before it is set.
    pub const fn new(empty: T) -> Self {
        Pages {
            pages: Vec::new(),
            empty,
        }
    }

    /// The value of `id`: `None` where its page was never made.
    pub fn get(&self, id: u32) -> Option<&T> {
        let page = self.pages.get((id >> PAGE_BITS) as usize)?.as_ref()?;
        Some(&page[(id & ((1 << PAGE_BITS) - 1)) as usize])
    }

    /// The value of `id` to set, its page made if the memory budget has room (else `None`).
    pub fn get_mut(&mut self, id: u32) -> Option<&mut T> {
        let i = (id >> PAGE_BITS) as usize;
        if self.pages.len() <= i {
            self.pages.resize_with(i + 1, || None);
        }
        if self.pages[i].is_none() {
            if !crate::memory::room_for((1 << PAGE_BITS) * std::mem::size_of::<T>()) {
                return None;
            }
            self.pages[i] = Some(vec![self.empty; 1 << PAGE_BITS].into_boxed_slice());
        }
        let page = self.pages[i].as_mut()?;
        Some(&mut page[(id & ((1 << PAGE_BITS) - 1)) as usize])
    }

    /// Forgets every value.
    pub fn clear(&mut self) {
        self.pages.clear();
    }

    /// Whether no page was made.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::Pages;
    use std::collections::HashMap;

    /// Against a hash map: ids spread over pages, set and read back, the unset ones empty.
    #[test]
    fn pages_read_back_what_a_map_holds() {
        let mut pages = Pages::new(u32::MAX);
        let mut map = HashMap::new();
        let mut seed = 7u64;
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let id = (seed >> 40) as u32;
            let v = (seed >> 20) as u32 & 0xFFFF;
            *pages.get_mut(id).expect("room") = v;
            map.insert(id, v);
        }
        for (&id, &v) in &map {
            assert_eq!(pages.get(id), Some(&v));
        }
        let unset = (0..1 << 16)
            .find(|id| !map.contains_key(id))
            .expect("an unset id");
        assert!(pages.get(unset).is_none_or(|&v| v == u32::MAX));
        assert_eq!(pages.get(u32::MAX), None, "no page there");
        pages.clear();
        assert!(pages.is_empty() && pages.get(0).is_none());
    }
}
