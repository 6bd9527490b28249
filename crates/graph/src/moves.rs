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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub guards: Vec<Guard>,
    /// Coordinate `j` of the option is `Σ_t to[j][t]·x_t + shift[j]` (`to` row-major, `k × k`;
    /// most moves shift: `to` is the identity).
    pub to: Vec<i64>,
    pub shift: Vec<i64>,
    /// `to` is the identity: the option is the position shifted (no products to form).
    pub shifts: bool,
}

/// The moves of one row (its fixed arguments bound).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    pub moves: Vec<Move>,
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
        let v = form(&self.coef, self.c, at);
        match self.op {
            Sign::NonNegative => v >= 0,
            Sign::Positive => v > 0,
            Sign::Zero => v == 0,
            Sign::NonZero => v != 0,
        }
    }
}

impl Move {
    /// Whether the move's forms can be evaluated in `i64` ([`MOST_COEF`], [`MOST_CONST`]).
    pub fn small(&self) -> bool {
        let k = self.shift.len();
        self.guards.iter().all(Guard::small)
            && (0..k).all(|j| small(&self.to[j * k..(j + 1) * k], self.shift[j]))
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
                form(&self.to[j * k..(j + 1) * k], d, at)
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
        self.moves.iter().all(Move::small)
    }

    /// The options of the position at `at`, as the register code writes them (one part
    /// each); `false`, as there, for a coordinate a key cannot hold.
    pub fn list(&self, at: &[i64], out: &mut RowOptions) -> bool {
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
