//! Genus (§3): `g^{γ0 γ1 γ2 …}` with `g = G⁺` and `γn = G⁻(G + *2 + … + *2)` (n copies of `*2`).
//!
//! The sequence is eventually periodic with period 2, so a genus is stored finitely. Nim heaps,
//! tame and restive games have closed forms (one digit of superscript, as CGSuite prints them);
//! every other game stores the digits up to where the period starts, computed from its options'
//! genera by `γn = mex({γn(G')} ∪ {γ(n−1), γ(n−1) ⊕ 1})`. Computed once per game when it is
//! interned.

use super::canonical::{Mid, MisereStore};
use super::mex;
use super::phylum::Phylum;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    NimHeap,
    Tame,
    Restive,
    Computed,
}

#[derive(Clone, Copy)]
struct Rec {
    kind: Kind,
    g: u32,
    /// γ0 for tame and restive games.
    m: u32,
    start: u32,
    len: u32,
}

#[derive(Default)]
pub struct GenusTable {
    recs: Vec<Rec>,
    digits: Vec<u32>,
}

/// A genus as CGSuite prints it: the base, and the superscript digits it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genus {
    pub base: u32,
    /// Empty for nim heaps (CGSuite prints the bare base).
    pub superscript: Vec<u32>,
}

impl fmt::Display for Genus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.base)?;
        if self.superscript.is_empty() {
            return Ok(());
        }
        if self.superscript.iter().any(|&d| d >= 10) {
            let parts: Vec<String> = self.superscript.iter().map(u32::to_string).collect();
            write!(f, "^({})", parts.join(","))
        } else {
            f.write_str("^")?;
            for d in &self.superscript {
                write!(f, "{d}")?;
            }
            Ok(())
        }
    }
}

impl MisereStore {
    /// `γi(x)`, for any `i`.
    pub fn gamma(&self, x: Mid, i: usize) -> u32 {
        let r = self.genera.recs[x.index()];
        let g = r.g;
        let alternate = |c: u32| if i % 2 == 1 { c ^ 2 } else { c };
        match r.kind {
            Kind::NimHeap if i == 0 => {
                if g <= 1 {
                    1 - g
                } else {
                    g
                }
            }
            Kind::NimHeap => alternate(g),
            Kind::Tame | Kind::Restive if i == 0 => r.m,
            Kind::Tame => alternate(g),
            Kind::Restive => alternate(if r.m < 4 { r.m } else { g }),
            Kind::Computed => {
                let s = self.digits(r);
                let l = s.len();
                if i < l {
                    s[i]
                } else if i % 2 == l % 2 {
                    s[l - 2]
                } else {
                    s[l - 1]
                }
            }
        }
    }

    /// Index from which `γ` alternates with period 2.
    fn stabilisation(&self, x: Mid) -> usize {
        let r = self.genera.recs[x.index()];
        match r.kind {
            Kind::NimHeap => {
                if r.g <= 1 {
                    2
                } else {
                    1
                }
            }
            Kind::Tame => {
                if r.g <= 1 && r.m != r.g {
                    2
                } else {
                    1
                }
            }
            Kind::Restive => {
                if r.m < 4 {
                    1
                } else {
                    2
                }
            }
            Kind::Computed => r.len as usize - 1,
        }
    }

    fn digits(&self, r: Rec) -> &[u32] {
        &self.genera.digits[r.start as usize..(r.start + r.len) as usize]
    }

    /// The genus as CGSuite prints it.
    pub fn genus(&self, x: Mid) -> Genus {
        let r = self.genera.recs[x.index()];
        let superscript = match r.kind {
            Kind::NimHeap => Vec::new(),
            Kind::Tame | Kind::Restive => vec![r.m],
            Kind::Computed => self.digits(r).to_vec(),
        };
        Genus {
            base: r.g,
            superscript,
        }
    }

    /// Stores the genus of `x`; its options' genera are known.
    pub(super) fn compute_genus(&mut self, x: Mid) {
        debug_assert_eq!(self.genera.recs.len(), x.index());
        let g = self.nim_plus(x);
        let m = self.nim_minus(x);
        let kind = match self.phylum(x) {
            Phylum::NimHeap => Kind::NimHeap,
            Phylum::HalfTame | Phylum::ReversiblyTame => Kind::Tame,
            Phylum::HalfRestive | Phylum::ReversiblyRestive => Kind::Restive,
            Phylum::Tameable | Phylum::Restless | Phylum::Wild => Kind::Computed,
        };
        let (start, len) = if kind == Kind::Computed {
            let s = self.computed_digits(x);
            let start = self.genera.digits.len() as u32;
            self.genera.digits.extend_from_slice(&s);
            (start, s.len() as u32)
        } else {
            (0, 0)
        };
        self.genera.recs.push(Rec {
            kind,
            g,
            m,
            start,
            len,
        });
    }

    fn computed_digits(&self, x: Mid) -> Vec<u32> {
        let opts = self.options(x);
        let d = opts
            .iter()
            .map(|&o| self.stabilisation(o))
            .max()
            .unwrap_or(0)
            .max(1)
            + 2;
        let mut values: Vec<u32> = opts.iter().map(|&o| self.gamma(o, 0)).collect();
        let mut s = vec![if opts.is_empty() { 1 } else { mex(&mut values) }];
        for i in 1..=d {
            values.clear();
            values.extend(opts.iter().map(|&o| self.gamma(o, i)));
            values.push(s[i - 1]);
            values.push(s[i - 1] ^ 1);
            s.push(mex(&mut values));
        }
        let mut k = d;
        while k > 1 && s[k] == s[k - 2] {
            k -= 1;
        }
        s.truncate(k + 1);
        s
    }
}
