//! A dense row's rules as a fixed list of moves: each a guard (comparisons of affine forms in
//! the coordinates) and an affine map of the coordinates. Rules whose loops run over constants
//! or over lists passed on unchanged, whose guards compare sums of multiples of coordinates and
//! whose options' coordinates are such sums (`for k in 1..=3 if k <= a => s(a - k, b, c)`,
//! `r(y, x + 1)`) compile to them once per row (see [`super::intcode`]); a position's options are then a
//! few multiplications each, where the register code ran its loops, guards and arithmetic for
//! every option of every position (most of a three-heap game's time).

use loony_core::positions::PosTable;
use loony_graph::row::RowOptions;

/// `Σ coef·x + c` compared with zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Guard {
    pub coef: Vec<i64>,
    pub c: i64,
    pub op: Sign,
}

/// How a guard's form compares with zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sign {
    NonNegative,
    Positive,
    Zero,
    NonZero,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Move {
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
pub(crate) struct Moves {
    pub moves: Vec<Move>,
}

impl Guard {
    pub fn holds(&self, at: &[i64]) -> bool {
        // Coordinates are below 2^31 and the forms' terms below 2^63: no sum overflows.
        let v = self
            .coef
            .iter()
            .zip(at)
            .fold(i128::from(self.c), |s, (&a, &x)| {
                s + i128::from(a) * i128::from(x)
            });
        match self.op {
            Sign::NonNegative => v >= 0,
            Sign::Positive => v > 0,
            Sign::Zero => v == 0,
            Sign::NonZero => v != 0,
        }
    }
}

impl Moves {
    /// The options of the position at `at`, as the register code writes them (one part
    /// each); `false`, as there, for a coordinate a key cannot hold.
    pub fn list(&self, at: &[i64], out: &mut RowOptions) -> bool {
        for m in &self.moves {
            if !m.guards.iter().all(|g| g.holds(at)) {
                continue;
            }
            out.words.push(1);
            if m.shifts {
                for (&x, &d) in at.iter().zip(&m.shift) {
                    match x
                        .checked_add(d)
                        .filter(|&y| PosTable::int_word(y).is_some())
                    {
                        Some(y) => out.words.push(y),
                        None => return false,
                    }
                }
                continue;
            }
            let k = at.len();
            for (j, &d) in m.shift.iter().enumerate() {
                let row = &m.to[j * k..(j + 1) * k];
                let y = row.iter().zip(at).fold(i128::from(d), |s, (&a, &x)| {
                    s + i128::from(a) * i128::from(x)
                });
                match i64::try_from(y)
                    .ok()
                    .filter(|&y| PosTable::int_word(y).is_some())
                {
                    Some(y) => out.words.push(y),
                    None => return false,
                }
            }
        }
        true
    }
}
