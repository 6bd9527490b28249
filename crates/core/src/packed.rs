//! Nim-values packed at the width their largest needs: one byte a heap below 256, two below
//! 65 536, four beyond. A nim-sequence of 2^24 heaps of Grundy's game is 32 MB, not the 384 MB
//! a list of values would take.

use std::ops::Range;

/// Owned values, widened as larger ones are pushed.
#[derive(Clone, Debug)]
pub enum Packed {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

/// Borrowed values at the width they are kept (the kernels hand theirs over this way).
#[derive(Clone, Copy, Debug)]
pub enum PackedRef<'a> {
    U8(&'a [u8]),
    U16(&'a [u16]),
    U32(&'a [u32]),
}

impl Default for Packed {
    fn default() -> Self {
        Packed::U8(Vec::new())
    }
}

impl Packed {
    pub fn new() -> Packed {
        Packed::default()
    }

    /// `values` at the narrowest width that holds them all.
    pub fn from_u32(values: Vec<u32>) -> Packed {
        match values.iter().copied().max().unwrap_or(0) {
            0..=0xff => Packed::U8(values.iter().map(|&v| v as u8).collect()),
            0x100..=0xffff => Packed::U16(values.iter().map(|&v| v as u16).collect()),
            _ => Packed::U32(values),
        }
    }

    /// The record kernel's two-byte values, kept as they are unless one byte holds them.
    pub fn from_u16(values: Vec<u16>) -> Packed {
        if values.iter().all(|&v| v <= 0xff) {
            Packed::U8(values.iter().map(|&v| v as u8).collect())
        } else {
            Packed::U16(values)
        }
    }

    pub fn as_ref(&self) -> PackedRef<'_> {
        match self {
            Packed::U8(v) => PackedRef::U8(v),
            Packed::U16(v) => PackedRef::U16(v),
            Packed::U32(v) => PackedRef::U32(v),
        }
    }

    pub fn len(&self) -> usize {
        self.as_ref().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value at `i` (`i < len()`).
    pub fn get(&self, i: usize) -> u32 {
        self.as_ref().get(i)
    }

    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.as_ref().iter()
    }

    pub fn reserve(&mut self, more: usize) {
        match self {
            Packed::U8(v) => v.reserve(more),
            Packed::U16(v) => v.reserve(more),
            Packed::U32(v) => v.reserve(more),
        }
    }

    /// Appends `value`, widening every value first if it needs more bytes.
    pub fn push(&mut self, value: u32) {
        match self {
            Packed::U8(v) if value <= 0xff => v.push(value as u8),
            Packed::U16(v) if value <= 0xffff => v.push(value as u16),
            Packed::U32(v) => v.push(value),
            _ => {
                let values = self.to_vec();
                *self = if value <= 0xffff {
                    Packed::U16(values.iter().map(|&v| v as u16).collect())
                } else {
                    Packed::U32(values)
                };
                self.push(value);
            }
        }
    }

    /// The values of `range`, copied at the same width.
    pub fn slice(&self, range: Range<usize>) -> Packed {
        match self {
            Packed::U8(v) => Packed::U8(v[range].to_vec()),
            Packed::U16(v) => Packed::U16(v[range].to_vec()),
            Packed::U32(v) => Packed::U32(v[range].to_vec()),
        }
    }

    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }

    /// Bytes a value takes.
    pub fn width(&self) -> usize {
        match self {
            Packed::U8(_) => 1,
            Packed::U16(_) => 2,
            Packed::U32(_) => 4,
        }
    }
}

impl PackedRef<'_> {
    pub fn len(&self) -> usize {
        match self {
            PackedRef::U8(v) => v.len(),
            PackedRef::U16(v) => v.len(),
            PackedRef::U32(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> u32 {
        match self {
            PackedRef::U8(v) => u32::from(v[i]),
            PackedRef::U16(v) => u32::from(v[i]),
            PackedRef::U32(v) => v[i],
        }
    }

    pub fn iter(self) -> impl Iterator<Item = u32> {
        let (a, b, c) = match self {
            PackedRef::U8(v) => (v, &[][..], &[][..]),
            PackedRef::U16(v) => (&[][..], v, &[][..]),
            PackedRef::U32(v) => (&[][..], &[][..], v),
        };
        a.iter()
            .map(|&x| u32::from(x))
            .chain(b.iter().map(|&x| u32::from(x)))
            .chain(c.iter().copied())
    }
}

impl From<Vec<u32>> for Packed {
    fn from(values: Vec<u32>) -> Packed {
        Packed::from_u32(values)
    }
}

/// Equal when the values are, whatever their width.
impl PartialEq for Packed {
    fn eq(&self, other: &Packed) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Packed {}

/// As a JSON array of numbers, as a list of values was.
impl serde::Serialize for Packed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_the_largest_value() {
        assert_eq!(Packed::from_u32(vec![0, 255]).width(), 1);
        assert_eq!(Packed::from_u32(vec![0, 256]).width(), 2);
        assert_eq!(Packed::from_u32(vec![70_000]).width(), 4);
        assert_eq!(Packed::from_u16(vec![3, 300]).width(), 2);
        assert_eq!(Packed::from_u16(vec![3, 30]).width(), 1);
    }

    #[test]
    fn push_widens_and_keeps_the_values() {
        let mut p = Packed::new();
        let values = [0u32, 7, 255, 256, 65_535, 65_536, 3, u32::MAX];
        for (i, &v) in values.iter().enumerate() {
            p.push(v);
            assert_eq!(p.to_vec(), values[..=i], "after {v}");
        }
        assert_eq!(p.width(), 4);
        assert_eq!(p.slice(2..5).to_vec(), vec![255, 256, 65_535]);
        assert_eq!(p.get(5), 65_536);
    }

    #[test]
    fn equal_across_widths_and_json_as_numbers() {
        let a = Packed::U16(vec![1, 2, 3]);
        let b = Packed::U8(vec![1, 2, 3]);
        assert_eq!(a, b);
        assert_ne!(a, Packed::U8(vec![1, 2]));
        assert_eq!(serde_json::to_string(&a).unwrap(), "[1,2,3]");
    }
}
