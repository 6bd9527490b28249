//! Finite or cofinite sets of naturals (nim-values), bit-packed.
//!
//! Immediate and protected nimbers are always finite or cofinite, so a set is
//! stored as its finite "listed" part plus a flag saying whether the set is
//! that part or everything except it. Nothing is ever enumerated to a bound.

use std::fmt;

/// A finite set `{…}` or a cofinite set `nim∖{…}` of naturals.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct NimSet {
    /// The listed elements; no trailing zero words, so equality is structural.
    words: Vec<u64>,
    /// `true`: the set is `ℕ ∖ listed`.
    cofinite: bool,
}

impl NimSet {
    /// `∅`.
    pub fn empty() -> Self {
        NimSet::default()
    }

    /// `nim`, all naturals.
    pub fn all() -> Self {
        NimSet {
            words: Vec::new(),
            cofinite: true,
        }
    }

    pub fn singleton(n: u32) -> Self {
        let mut s = NimSet::empty();
        s.insert(n);
        s
    }

    /// `nim∖{n}`.
    pub fn all_except(n: u32) -> Self {
        NimSet::singleton(n).complement()
    }

    /// Builds a set from raw words (bit `i` of word `w` is `64 w + i`).
    pub fn from_words(words: &[u64], cofinite: bool) -> Self {
        let mut s = NimSet {
            words: words.to_vec(),
            cofinite,
        };
        s.trim();
        s
    }

    fn trim(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }

    fn listed(&self, n: u32) -> bool {
        let w = (n / 64) as usize;
        w < self.words.len() && self.words[w] >> (n % 64) & 1 == 1
    }

    fn set_listed(&mut self, n: u32, on: bool) {
        let w = (n / 64) as usize;
        if on {
            if w >= self.words.len() {
                self.words.resize(w + 1, 0);
            }
            self.words[w] |= 1 << (n % 64);
        } else if w < self.words.len() {
            self.words[w] &= !(1 << (n % 64));
            self.trim();
        }
    }

    pub fn contains(&self, n: u32) -> bool {
        self.listed(n) != self.cofinite
    }

    pub fn insert(&mut self, n: u32) {
        let c = self.cofinite;
        self.set_listed(n, !c);
    }

    pub fn remove(&mut self, n: u32) {
        let c = self.cofinite;
        self.set_listed(n, c);
    }

    pub fn is_empty(&self) -> bool {
        !self.cofinite && self.words.is_empty()
    }

    /// Is this all of `nim`?
    pub fn is_all(&self) -> bool {
        self.cofinite && self.words.is_empty()
    }

    pub fn is_finite(&self) -> bool {
        !self.cofinite
    }

    pub fn is_cofinite(&self) -> bool {
        self.cofinite
    }

    /// The finitely many listed naturals: the elements of a finite set, or
    /// the missing ones of a cofinite set.
    pub fn listed_elements(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(i as u32 * 64 + b)
            })
        })
    }

    pub fn complement(&self) -> Self {
        NimSet {
            words: self.words.clone(),
            cofinite: !self.cofinite,
        }
    }

    pub fn complement_in_place(&mut self) {
        self.cofinite = !self.cofinite;
    }

    /// Combines listed parts word by word; `f(a, b)` gets the listed words.
    fn combine(&mut self, other: &NimSet, f: impl Fn(u64, u64) -> u64, cofinite: bool) {
        let n = self.words.len().max(other.words.len());
        self.words.resize(n, 0);
        for (i, w) in self.words.iter_mut().enumerate() {
            *w = f(*w, other.words.get(i).copied().unwrap_or(0));
        }
        self.cofinite = cofinite;
        self.trim();
    }

    pub fn union_with(&mut self, other: &NimSet) {
        match (self.cofinite, other.cofinite) {
            (false, false) => self.combine(other, |a, b| a | b, false),
            (false, true) => self.combine(other, |a, b| b & !a, true),
            (true, false) => self.combine(other, |a, b| a & !b, true),
            (true, true) => self.combine(other, |a, b| a & b, true),
        }
    }

    pub fn intersect_with(&mut self, other: &NimSet) {
        match (self.cofinite, other.cofinite) {
            (false, false) => self.combine(other, |a, b| a & b, false),
            (false, true) => self.combine(other, |a, b| a & !b, false),
            (true, false) => self.combine(other, |a, b| b & !a, false),
            (true, true) => self.combine(other, |a, b| a | b, true),
        }
    }

    pub fn union(&self, other: &NimSet) -> NimSet {
        let mut s = self.clone();
        s.union_with(other);
        s
    }

    pub fn intersection(&self, other: &NimSet) -> NimSet {
        let mut s = self.clone();
        s.intersect_with(other);
        s
    }

    /// The minimum excluded natural, or `None` when the set is all of `nim`.
    pub fn mex(&self) -> Option<u32> {
        if self.cofinite {
            // The smallest missing natural is the smallest listed one.
            self.listed_elements().next()
        } else {
            let i = self.words.iter().position(|&w| w != u64::MAX);
            Some(match i {
                Some(i) => i as u32 * 64 + (!self.words[i]).trailing_zeros(),
                None => self.words.len() as u32 * 64,
            })
        }
    }

    /// Displays with ASCII only: `{}`, `{0, 2}`, `nim`, `nim\{0, 1}`.
    pub fn ascii(&self) -> impl fmt::Display + '_ {
        Ascii(self)
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, ascii: bool) -> fmt::Result {
        if self.cofinite {
            f.write_str("nim")?;
            if self.words.is_empty() {
                return Ok(());
            }
            f.write_str(if ascii { "\\" } else { "∖" })?;
        } else if self.words.is_empty() {
            return f.write_str(if ascii { "{}" } else { "∅" });
        }
        f.write_str("{")?;
        for (i, n) in self.listed_elements().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{n}")?;
        }
        f.write_str("}")
    }
}

struct Ascii<'a>(&'a NimSet);

impl fmt::Display for Ascii<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f, true)
    }
}

/// `{0, 2}`, `∅`, `nim`, `nim∖{0, 1}`; the alternate flag (`{:#}`) gives ASCII.
impl fmt::Display for NimSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, f.alternate())
    }
}

impl fmt::Debug for NimSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, false)
    }
}

impl FromIterator<u32> for NimSet {
    fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> Self {
        let mut s = NimSet::empty();
        for n in iter {
            s.insert(n);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[u32]) -> NimSet {
        v.iter().copied().collect()
    }

    #[test]
    fn display_forms() {
        assert_eq!(set(&[2, 0]).to_string(), "{0, 2}");
        assert_eq!(set(&[0, 1]).complement().to_string(), "nim∖{0, 1}");
        assert_eq!(
            format!("{}", set(&[0, 1]).complement().ascii()),
            "nim\\{0, 1}"
        );
        assert_eq!(format!("{:#}", set(&[0, 1]).complement()), "nim\\{0, 1}");
        assert_eq!(NimSet::empty().to_string(), "∅");
        assert_eq!(NimSet::all().to_string(), "nim");
        assert_eq!(set(&[70]).to_string(), "{70}");
    }

    #[test]
    fn algebra_matches_membership() {
        // Compare with explicit membership on a window; beyond it both sides
        // are constant, so the window decides equality.
        let samples = [
            NimSet::empty(),
            NimSet::all(),
            set(&[0, 3, 64, 65]),
            set(&[1, 3, 130]).complement(),
            set(&[0]),
            NimSet::all_except(3),
        ];
        for a in &samples {
            for b in &samples {
                let u = a.union(b);
                let i = a.intersection(b);
                for n in 0..200 {
                    assert_eq!(u.contains(n), a.contains(n) || b.contains(n));
                    assert_eq!(i.contains(n), a.contains(n) && b.contains(n));
                }
                assert_eq!(
                    u.is_all(),
                    (0..200).all(|n| u.contains(n)) && u.is_cofinite()
                );
            }
        }
    }

    #[test]
    fn mex_and_edges() {
        assert_eq!(NimSet::empty().mex(), Some(0));
        assert_eq!(set(&[0, 1, 3]).mex(), Some(2));
        assert_eq!(NimSet::all().mex(), None);
        assert_eq!(set(&[0, 5]).complement().mex(), Some(0));
        assert_eq!(NimSet::all_except(7).mex(), Some(7));
        assert_eq!((0..64).collect::<NimSet>().mex(), Some(64));
        let mut s = set(&[100]);
        s.remove(100);
        assert!(s.is_empty());
        assert_eq!(s, NimSet::empty());
        let mut c = NimSet::all();
        c.remove(4);
        c.insert(4);
        assert!(c.is_all());
    }
}
