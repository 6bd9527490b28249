//! A row on a torus: every move shifts the coordinates by constants and reduces some of them
//! modulo fixed arguments (WindUp's `wu(n, s, (i - m + n) % n)`: a subtraction game on a
//! circle of `n`). The positions then lie in a box whose side along a reduced coordinate is its
//! modulus, and the graph need not be stored at all: a position's options are its cell shifted
//! (and wrapped), and so are its predecessors, since a shift followed by a reduction is undone
//! by the opposite shift and the same reduction. The labeller reads both straight from the
//! rules ([`Torus::options`], [`Torus::preds`]), so the only memory per position is the
//! labeller's own state.
//!
//! Which positions the root reaches is found first (a bit per cell). A coordinate that no
//! move reduces spans `0..=root`; a move that does not reduce a coordinate only shifts it,
//! and an option so shifted out of the box (below zero, say) ends the walk with
//! [`RowEnd::Outside`]: the caller walks the row instead, as for a root outside the box.

use crate::moves::{Guard, Moves};
use crate::row::RowEnd;

/// Most coordinates a torus holds (a move's forms have at most 15).
const MOST_K: usize = 16;

/// One move: its guards, and the shift of each coordinate.
struct Shift {
    guards: Vec<Guard>,
    /// Coordinate `j` of the option is `x_j + d[j]`, reduced modulo `modulus[j]` where that
    /// is not zero (then it is the side of the box).
    d: Vec<i64>,
    modulus: Vec<i64>,
}

/// The positions of a row on a torus that one position reaches.
pub struct Torus {
    /// The box: coordinate `j` runs over `0..side[j]`; the cell of `x` is `Σ x_j·stride[j]`.
    pub side: Vec<i64>,
    stride: Vec<i64>,
    shifts: Vec<Shift>,
    /// The cells the root reaches, the root first.
    pub members: Vec<u32>,
}

impl Torus {
    /// The torus of a row's moves from `root`, if every move is a shift with its reductions
    /// (the same modulus for a coordinate in every move that reduces it; such a coordinate
    /// spans that modulus, the others `0..=root`) and the box holds the root and at most
    /// `most_cells` cells.
    pub fn new(moves: &Moves, root: &[i64], most_cells: usize) -> Option<Torus> {
        let k = root.len();
        if !moves.plain() || moves.moves.is_empty() || k == 0 || k > MOST_K || !moves.small() {
            return None;
        }
        let mut modulus = vec![0i64; k];
        for mv in &moves.moves {
            // The identity map plus a shift.
            let identity = (0..k).all(|j| (0..k).all(|t| mv.to[j * k + t] == i64::from(j == t)));
            if !identity {
                return None;
            }
            for (j, &m) in mv.modulus.iter().enumerate() {
                match (m, modulus[j]) {
                    (0, _) => {}
                    (m, 0) => modulus[j] = m,
                    (m, n) if m != n => return None,
                    _ => {}
                }
            }
        }
        let mut side = vec![0i64; k];
        for j in 0..k {
            side[j] = match modulus[j] {
                0 => root[j] + 1,
                m if (0..m).contains(&root[j]) => m,
                _ => return None,
            };
            if root[j] < 0 {
                return None;
            }
        }
        let mut stride = vec![0i64; k];
        let mut cells: i64 = 1;
        for j in (0..k).rev() {
            stride[j] = cells;
            cells = cells.checked_mul(side[j])?;
            if cells as u128 > most_cells.min(u32::MAX as usize) as u128 {
                return None;
            }
        }
        let shifts = moves
            .moves
            .iter()
            .map(|mv| Shift {
                guards: mv.guards.clone(),
                d: mv.shift.clone(),
                modulus: mv.modulus.clone(),
            })
            .collect();
        let mut t = Torus {
            side,
            stride,
            shifts,
            members: Vec::new(),
        };
        t.members.push(t.cell(root) as u32);
        Some(t)
    }

    /// Cells in the box.
    pub fn cells(&self) -> usize {
        self.side.iter().product::<i64>() as usize
    }

    fn cell(&self, at: &[i64]) -> usize {
        at.iter().zip(&self.stride).map(|(x, s)| x * s).sum::<i64>() as usize
    }

    /// The coordinates of `cell` into `at`.
    #[inline]
    pub fn coords(&self, cell: u32, at: &mut [i64]) {
        if let [_] = at {
            at[0] = cell as i64;
            return;
        }
        let mut rest = cell as i64;
        for (j, a) in at.iter_mut().enumerate() {
            *a = rest / self.stride[j];
            rest %= self.stride[j];
        }
    }

    /// Finds every cell the root reaches (in [`Torus::members`]); at most `budget` of them.
    /// `poll` is called now and then; `true` stops the walk.
    pub fn reach(&mut self, budget: usize, poll: &mut dyn FnMut() -> bool) -> Result<(), RowEnd> {
        let cells = self.cells();
        let mut seen = vec![0u64; cells.div_ceil(64)];
        let root = self.members[0] as usize;
        seen[root / 64] |= 1 << (root % 64);
        let mut members = std::mem::take(&mut self.members);
        let mut next = 0;
        let mut end = None;
        let k = self.side.len();
        let mut at = [0i64; MOST_K];
        while next < members.len() && end.is_none() {
            if next % 4096 == 4095 && poll() {
                end = Some(RowEnd::Interrupted);
                break;
            }
            let u = members[next];
            next += 1;
            self.coords(u, &mut at[..k]);
            self.each_option(&at[..k], |v| {
                let Some(v) = v else {
                    end = Some(RowEnd::Outside);
                    return;
                };
                let (w, b) = (v as usize / 64, 1u64 << (v % 64));
                if seen[w] & b == 0 {
                    seen[w] |= b;
                    if members.len() >= budget {
                        end.get_or_insert(RowEnd::Budget(Vec::new()));
                    }
                    members.push(v);
                }
            });
        }
        if let Some(RowEnd::Budget(at)) = &mut end {
            // The position that passed the budget.
            let mut c = [0i64; MOST_K];
            self.coords(*members.last().expect("one was pushed"), &mut c[..k]);
            *at = c[..k].to_vec();
        }
        self.members = members;
        end.map_or(Ok(()), Err)
    }

    /// The cell of each option of the position at `at` (`None` for one outside the box).
    #[inline]
    fn each_option(&self, at: &[i64], mut f: impl FnMut(Option<u32>)) {
        for s in &self.shifts {
            if !s.guards.iter().all(|g| g.holds(at)) {
                continue;
            }
            // One coordinate (a circle) is most rows on a torus: no strides to sum.
            if let ([x], [d], [m], [side]) = (at, &s.d[..], &s.modulus[..], &self.side[..]) {
                f(step(*x, *d, *m, *side).map(|y| y as u32));
                continue;
            }
            let mut cell = Some(0i64);
            for ((&x, (&d, &m)), (&side, &stride)) in at
                .iter()
                .zip(s.d.iter().zip(&s.modulus))
                .zip(self.side.iter().zip(&self.stride))
            {
                cell = cell.zip(step(x, d, m, side)).map(|(c, y)| c + y * stride);
            }
            f(cell.map(|c| c as u32));
        }
    }

    /// Each option of cell `u` (a member: its options are in the box), with multiplicity.
    #[inline]
    pub fn options(&self, u: u32, mut f: impl FnMut(u32)) {
        let mut at = [0i64; MOST_K];
        let k = self.side.len();
        self.coords(u, &mut at[..k]);
        self.each_option(&at[..k], |v| {
            f(v.expect("a member's options lie in the box"))
        });
    }

    /// Each cell of the box with a move to cell `v`, once per such move (as [`Torus::options`]
    /// lists `v` among its options): cells that no member reaches may be among them.
    #[inline]
    pub fn preds(&self, v: u32, mut f: impl FnMut(u32)) {
        let k = self.side.len();
        let mut y = [0i64; MOST_K];
        self.coords(v, &mut y[..k]);
        let mut x = [0i64; MOST_K];
        'moves: for s in &self.shifts {
            if let ([y], [d], [m], [side]) = (&y[..k], &s.d[..], &s.modulus[..], &self.side[..]) {
                if let Some(x) = back(*y, *d, *m, *side)
                    && s.guards.iter().all(|g| g.holds(&[x]))
                {
                    f(x as u32);
                }
                continue;
            }
            let mut cell = 0i64;
            for j in 0..k {
                let Some(xj) = back(y[j], s.d[j], s.modulus[j], self.side[j]) else {
                    continue 'moves;
                };
                x[j] = xj;
                cell += xj * self.stride[j];
            }
            if s.guards.iter().all(|g| g.holds(&x[..k])) {
                f(cell as u32);
            }
        }
    }
}

/// Coordinate `x` shifted by `d` and reduced modulo `m` (when not zero, the side of the box),
/// if it lies in `0..side`.
#[inline]
fn step(x: i64, d: i64, m: i64, side: i64) -> Option<i64> {
    let y = x + d;
    if m == 0 {
        return (0..side).contains(&y).then_some(y);
    }
    // At most one wrap, unless the shift is longer than the circle.
    Some(if y >= m {
        if y - m < m { y - m } else { y % m }
    } else if y < 0 {
        if y + m >= 0 { y + m } else { y.rem_euclid(m) }
    } else {
        y
    })
}

/// The coordinate that [`step`] takes to `y`, if it lies in `0..side` (with a modulus, the
/// side is the modulus and there is exactly one).
#[inline]
fn back(y: i64, d: i64, m: i64, side: i64) -> Option<i64> {
    let x = y - d;
    if m == 0 {
        return (0..side).contains(&x).then_some(x);
    }
    Some(if (0..m).contains(&x) {
        x
    } else {
        x.rem_euclid(m)
    })
}
