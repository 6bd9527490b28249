//! A dense row's rules as a fixed list of moves: each a guard (comparisons of affine forms in
//! the coordinates) and an affine map of the coordinates. The language compiles rules whose
//! loops run over constants or over lists passed on unchanged, whose guards compare sums of
//! multiples of coordinates and whose options' coordinates are such sums
//! (`for k in 1..=3 if k <= a => s(a - k, b, c)`, `r(y, x + 1)`) to them once per row; the
//! walk of the row ([`crate::row::explore`]) then finds most options by cell arithmetic (a
//! move that shifts the coordinates moves the cell by a constant), where the register code
//! ran its loops, guards and arithmetic for every option of every position.

use crate::row::RowOptions;
use loony_core::positions::PosTable;

/// The largest coefficient, and constant, a move may have: with coordinates below 2^31 and at
/// most 15 of them, every form is then computed in `i64` without overflow.
pub const MOST_COEF: i64 = 1 << 24;
pub const MOST_CONST: i64 = 1 << 60;

/// `Σ coef·x + c` compared with zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    pub coef: Vec<i64>,
    pub c: i64,
    pub op: Sign,
}

/// How a guard's form compares with zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    NonNegative,
    Positive,
    Zero,
    NonZero,
}

impl Sign {
    /// Whether `v` compares with zero this way.
    #[inline]
    pub fn holds(self, v: i64) -> bool {
        match self {
            Sign::NonNegative => v >= 0,
            Sign::Positive => v > 0,
            Sign::Zero => v == 0,
            Sign::NonZero => v != 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub guards: Vec<Guard>,
    /// Coordinate `j` of the option is `Σ_t to[j][t]·x_t + shift[j]` (`to` row-major, `k × k`;
    /// most moves shift: `to` is the identity)…
    pub to: Vec<i64>,
    pub shift: Vec<i64>,
    /// …taken modulo `modulus[j]` (Euclidean, as the language's `%`) where that is not zero:
    /// WindUp's `(i - m + n) % n` with `n` fixed for the row.
    pub modulus: Vec<i64>,
    /// `to` is the identity and no coordinate is reduced: the option is the position shifted
    /// (no products to form).
    pub shifts: bool,
}

/// `Σ coef·x + c`, an affine form in the coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    pub coef: Vec<i64>,
    pub c: i64,
}

impl Form {
    #[inline]
    pub fn at(&self, at: &[i64]) -> i64 {
        form(&self.coef, self.c, at)
    }
}

/// A family of options, one for each value of a loop variable `v` whose range depends on the
/// coordinates, each option a sum of parts of the same row
/// (`for a in 0..=(n - t) => kayles(a) + kayles(n - t - a)`); a sum of parts with no such
/// loop is a family of one (`lo = hi = 0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    /// Guards on the coordinates alone.
    pub guards: Vec<Guard>,
    /// `v` runs over `lo..=hi`…
    pub lo: Form,
    pub hi: Form,
    /// …where each `a·v + form ≥ 0` (`a ≠ 0`) holds.
    pub bounds: Vec<(i64, Form)>,
    pub parts: Vec<Part>,
}

/// One part of a family's option: coordinate `j` is `Σ_t to[j][t]·x_t + step[j]·v + shift[j]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Row-major, `k × k`.
    pub to: Vec<i64>,
    pub step: Vec<i64>,
    pub shift: Vec<i64>,
}

impl Part {
    /// Coordinate `j` at `at` with `v = 0`.
    #[inline]
    pub fn base(&self, j: usize, at: &[i64]) -> i64 {
        let k = at.len();
        form(&self.to[j * k..(j + 1) * k], self.shift[j], at)
    }
}

impl Family {
    /// The values of `v` at `at`, as `lo..=hi` (empty when `lo > hi`); `None` for a range
    /// past `±2^31`, whose options a key could not hold.
    #[inline]
    pub fn range(&self, at: &[i64]) -> Option<(i64, i64)> {
        let (mut lo, mut hi) = (self.lo.at(at), self.hi.at(at));
        for (a, f) in &self.bounds {
            // a·v + b ≥ 0.
            let b = f.at(at);
            if *a > 0 {
                lo = lo.max((-b).div_euclid(*a) + i64::from((-b).rem_euclid(*a) != 0));
            } else {
                hi = hi.min(b.div_euclid(-*a));
            }
        }
        const MOST: i64 = 1 << 31;
        (lo > hi || (-MOST..=MOST).contains(&lo) && (-MOST..=MOST).contains(&hi))
            .then_some((lo, hi))
    }

    fn small(&self) -> bool {
        let k = self.lo.coef.len();
        self.guards.iter().all(Guard::small)
            && small(&self.lo.coef, self.lo.c)
            && small(&self.hi.coef, self.hi.c)
            && self
                .bounds
                .iter()
                .all(|(a, f)| a.abs() <= MOST_COEF && small(&f.coef, f.c))
            && self.parts.iter().all(|p| {
                (0..k).all(|j| small(&p.to[j * k..(j + 1) * k], p.shift[j]))
                    && p.step.iter().all(|s| s.abs() <= MOST_COEF)
            })
    }
}

/// The moves of one row (its fixed arguments bound).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    pub moves: Vec<Move>,
    /// Options that are sums, or that a loop over a range of the coordinates lists: only a
    /// box ([`crate::row_box`]) reads them; a row with any is walked by its register code.
    pub families: Vec<Family>,
}

fn form(coef: &[i64], c: i64, at: &[i64]) -> i64 {
    // Bounded by `MOST_COEF` and `MOST_CONST`: no sum overflows.
    coef.iter().zip(at).fold(c, |s, (&a, &x)| s + a * x)
}

fn small(coef: &[i64], c: i64) -> bool {
    c.abs() <= MOST_CONST && coef.iter().all(|a| a.abs() <= MOST_COEF)
}

impl Guard {
    /// Whether the guard can be evaluated in `i64` ([`MOST_COEF`], [`MOST_CONST`]).
    pub fn small(&self) -> bool {
        small(&self.coef, self.c)
    }

    /// Whether the guard holds at `at` (coordinates in `0..2^31`).
    #[inline]
    pub fn holds(&self, at: &[i64]) -> bool {
        self.op.holds(form(&self.coef, self.c, at))
    }
}

impl Move {
    /// Whether the move's forms can be evaluated in `i64` ([`MOST_COEF`], [`MOST_CONST`]).
    pub fn small(&self) -> bool {
        let k = self.shift.len();
        self.guards.iter().all(Guard::small)
            && (0..k).all(|j| small(&self.to[j * k..(j + 1) * k], self.shift[j]))
            && self.modulus.iter().all(|&m| (0..=MOST_CONST).contains(&m))
    }

    /// Whether the position at `at` has this move.
    #[inline]
    pub fn allowed(&self, at: &[i64]) -> bool {
        self.guards.iter().all(|g| g.holds(at))
    }

    /// A shift whose first nonzero step is down: its option is lexicographically smaller.
    pub fn lowers(&self) -> bool {
        self.shifts && self.shift.iter().find(|&&d| d != 0).is_some_and(|&d| d < 0)
    }

    /// The option's coordinates from `at` into `out`; `false` for one a key cannot hold.
    #[inline]
    pub fn apply(&self, at: &[i64], out: &mut [i64]) -> bool {
        let k = at.len();
        for (j, (&d, y)) in self.shift.iter().zip(out.iter_mut()).enumerate() {
            *y = if self.shifts {
                at[j] + d
            } else {
                let y = form(&self.to[j * k..(j + 1) * k], d, at);
                match self.modulus[j] {
                    0 => y,
                    m => y.rem_euclid(m),
                }
            };
            if PosTable::int_word(*y).is_none() {
                return false;
            }
        }
        true
    }
}

impl Moves {
    /// Every move evaluable in `i64`: the only moves a row takes.
    pub fn small(&self) -> bool {
        self.moves.iter().all(Move::small) && self.families.iter().all(Family::small)
    }

    /// No families: every option is one move, as the row's walk reads them.
    pub fn plain(&self) -> bool {
        self.families.is_empty()
    }

    /// The options of the position at `at`, as the register code writes them (one part
    /// each); `false`, as there, for a coordinate a key cannot hold.
    pub fn list(&self, at: &[i64], out: &mut RowOptions) -> bool {
        if !self.plain() {
            return false;
        }
        let mut y = vec![0; at.len()];
        for m in &self.moves {
            if !m.allowed(at) {
                continue;
            }
            if !m.apply(at, &mut y) {
                return false;
            }
            out.words.push(1);
            out.words.extend_from_slice(&y);
        }
        true
    }
}
