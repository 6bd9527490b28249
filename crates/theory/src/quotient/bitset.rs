//! Sets of monoid elements as bit rows of a fixed width, stored back to back in one `Vec<u64>`.
//!
//! Transition sets and the translates `P_e = {y : e·y ∈ P}` are such rows; subset tests and
//! unions then run a word (64 elements) at a time.

/// Number of `u64` words in a row of `n` bits.
pub fn words(n: usize) -> usize {
    n.div_ceil(64)
}

#[inline]
pub fn get(row: &[u64], i: usize) -> bool {
    row[i >> 6] >> (i & 63) & 1 != 0
}

#[inline]
pub fn set(row: &mut [u64], i: usize) {
    row[i >> 6] |= 1 << (i & 63);
}

/// `a ⊆ b`.
#[inline]
pub fn subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & !y == 0)
}

/// `a ∩ b ≠ ∅`.
#[inline]
pub fn meets(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// `a |= b`.
#[inline]
pub fn union(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= y;
    }
}

/// The least element of a row, if any.
pub fn first(row: &[u64]) -> Option<usize> {
    row.iter()
        .enumerate()
        .find(|(_, w)| **w != 0)
        .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
}

/// The elements of a row, in increasing order.
#[cfg(test)]
pub fn iter(row: &[u64]) -> impl Iterator<Item = usize> + '_ {
    row.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let b = w.trailing_zeros() as usize;
            w &= w - 1;
            Some(i * 64 + b)
        })
    })
}

/// Rows of equal width in one allocation.
#[derive(Clone, Debug, Default)]
pub struct Rows {
    pub width: usize,
    pub data: Vec<u64>,
}

impl Rows {
    pub fn new(bits: usize) -> Rows {
        Rows {
            width: words(bits),
            data: Vec::new(),
        }
    }

    pub fn zeroed(bits: usize, rows: usize) -> Rows {
        let width = words(bits);
        Rows {
            width,
            data: vec![0; width * rows],
        }
    }

    #[inline]
    pub fn row(&self, i: usize) -> &[u64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    #[inline]
    pub fn row_mut(&mut self, i: usize) -> &mut [u64] {
        &mut self.data[i * self.width..(i + 1) * self.width]
    }

    pub fn push(&mut self, row: &[u64]) {
        self.data.extend_from_slice(row);
    }

    pub fn truncate(&mut self, rows: usize) {
        self.data.truncate(rows * self.width);
    }

    /// Heap bytes held.
    pub fn bytes(&self) -> usize {
        self.data.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_ops() {
        let mut r = Rows::zeroed(130, 2);
        set(r.row_mut(0), 3);
        set(r.row_mut(0), 129);
        set(r.row_mut(1), 3);
        assert!(get(r.row(0), 129) && !get(r.row(0), 128));
        assert!(subset(r.row(1), r.row(0)) && !subset(r.row(0), r.row(1)));
        assert!(meets(r.row(0), r.row(1)));
        assert_eq!(iter(r.row(0)).collect::<Vec<_>>(), vec![3, 129]);
        assert_eq!(first(r.row(1)), Some(3));
        assert_eq!(first(&[0, 0]), None);
    }
}
