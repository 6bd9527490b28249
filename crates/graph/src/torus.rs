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

use crate::moves::{Guard, Moves, Sign};
use crate::row::RowEnd;

/// Most coordinates a torus holds (a move's forms have at most 15).
const MOST_K: usize = 16;

/// One move: its guards, and the shift of each coordinate.
struct Shift {
    guards: Vec<Guard>,
    /// On a circle (one coordinate), each guard as `a·x + c` and its sign: read without the
    /// guard's vectors.
    line: Vec<(i64, i64, Sign)>,
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
                line: mv.guards.iter().map(|g| (g.coef[0], g.c, g.op)).collect(),
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
        // One coordinate (a circle) is most rows on a torus: no strides to sum.
        if let ([x], [side]) = (at, &self.side[..]) {
            for s in &self.shifts {
                if s.line.iter().all(|&(a, c, op)| op.holds(a * x + c)) {
                    f(step(*x, s.d[0], s.modulus[0], *side).map(|y| y as u32));
                }
            }
            return;
        }
        for s in &self.shifts {
            if !s.guards.iter().all(|g| g.holds(at)) {
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
                    && s.line.iter().all(|&(a, c, op)| op.holds(a * x + c))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::{Move, Sign};

    /// A move of two coordinates: `x + dx` reduced modulo `mx` (0: not), the same for `y`,
    /// allowed where `gx·x + gy·y + c` compares with zero as `op`.
    fn mv(d: [i64; 2], m: [i64; 2], guard: Option<([i64; 2], i64, Sign)>) -> Move {
        Move {
            guards: guard
                .map(|(coef, c, op)| Guard {
                    coef: coef.to_vec(),
                    c,
                    op,
                })
                .into_iter()
                .collect(),
            to: vec![1, 0, 0, 1],
            shift: d.to_vec(),
            modulus: m.to_vec(),
            shifts: m == [0, 0],
        }
    }

    /// Options by the moves' own arithmetic (`Move::apply`), the brute force.
    fn brute(moves: &Moves, at: &[i64]) -> Vec<Vec<i64>> {
        let mut y = vec![0; at.len()];
        let mut out = Vec::new();
        for m in moves.moves.iter().filter(|m| m.allowed(at)) {
            assert!(m.apply(at, &mut y));
            out.push(y.clone());
        }
        out
    }

    /// Each cell's predecessors are every cell with a move to it (`seen`, by cell), as often.
    fn predecessors_are_the_options_reversed(t: &Torus, mut seen: Vec<Vec<u32>>, what: &str) {
        for v in 0..t.cells() as u32 {
            let mut got = Vec::new();
            t.preds(v, |u| got.push(u));
            got.sort_unstable();
            seen[v as usize].sort_unstable();
            assert_eq!(got, seen[v as usize], "{what}: predecessors of cell {v}");
        }
    }

    #[test]
    fn options_and_predecessors_are_the_moves_both_ways() {
        let games = [
            // Two circles, a guard, a shift longer than the circle.
            Moves {
                moves: vec![
                    mv([2, 0], [5, 3], Some(([1, 0], 0, Sign::NonZero))),
                    mv([-1, 5], [5, 3], Some(([0, 1], -1, Sign::NonZero))),
                    mv([-13, -4], [5, 3], None),
                ],
                families: vec![],
            },
            // A circle beside a coordinate that only steps down (and one move leaving it).
            Moves {
                moves: vec![
                    mv([1, 0], [7, 0], Some(([0, 1], 0, Sign::Positive))),
                    mv([0, -2], [0, 0], Some(([0, 1], -2, Sign::NonNegative))),
                    mv([3, -1], [7, 0], Some(([1, -1], 0, Sign::NonNegative))),
                ],
                families: vec![],
            },
        ];
        for (n, moves) in games.iter().enumerate() {
            let root = [1, 2];
            let t = Torus::new(moves, &root, 1 << 10).expect("shifts with reductions");
            let mut seen = vec![Vec::new(); t.cells()];
            let mut at = [0i64; 2];
            for u in 0..t.cells() as u32 {
                t.coords(u, &mut at);
                let want = brute(moves, &at);
                let mut got = Vec::new();
                t.each_option(&at, |v| got.push(v));
                assert_eq!(got.len(), want.len(), "game {n} at {at:?}");
                for (v, w) in got.iter().zip(&want) {
                    let inside = w.iter().zip(&t.side).all(|(x, s)| (0..*s).contains(x));
                    assert_eq!(v.is_some(), inside, "game {n} at {at:?} to {w:?}");
                    if let Some(v) = *v {
                        let mut c = [0i64; 2];
                        t.coords(v, &mut c);
                        assert_eq!(&c[..], &w[..], "game {n} at {at:?}");
                        seen[v as usize].push(u);
                    }
                }
            }
            predecessors_are_the_options_reversed(&t, seen, &format!("game {n}"));
        }
    }

    #[test]
    fn a_circle_reads_its_guards_and_moves_both_ways() {
        // One coordinate on a circle of 11: guards with coefficients other than one.
        let one = |d: i64, m: i64, g: Option<(i64, i64, Sign)>| Move {
            guards: g
                .map(|(a, c, op)| Guard {
                    coef: vec![a],
                    c,
                    op,
                })
                .into_iter()
                .collect(),
            to: vec![1],
            shift: vec![d],
            modulus: vec![m],
            shifts: m == 0,
        };
        let moves = Moves {
            moves: vec![
                one(4, 11, Some((2, -7, Sign::NonNegative))),
                one(-3, 11, Some((-3, 20, Sign::Positive))),
                one(-2, 0, Some((1, -2, Sign::NonNegative))),
                one(25, 11, Some((5, -15, Sign::NonZero))),
            ],
            families: vec![],
        };
        let t = Torus::new(&moves, &[3], 1 << 10).expect("a circle");
        let mut seen = vec![Vec::new(); t.cells()];
        for x in 0..t.cells() as u32 {
            let want = brute(&moves, &[x as i64]);
            let mut got = Vec::new();
            t.each_option(&[x as i64], |v| got.push(v.map(i64::from)));
            let want: Vec<Option<i64>> = want.iter().map(|w| Some(w[0])).collect();
            assert_eq!(got, want, "options of {x}");
            for v in got.into_iter().flatten() {
                seen[v as usize].push(x);
            }
        }
        predecessors_are_the_options_reversed(&t, seen, "the circle");
    }

    #[test]
    fn a_torus_reaches_what_the_moves_reach_or_says_why_not() {
        // WindUp on a circle of 10 with {4, 6}: from 1, the odd cells and 0 is not among them.
        let w = |root: i64| {
            let moves = Moves {
                moves: [4, 6]
                    .iter()
                    .map(|&m| {
                        let mut g = mv([10 - m, 0], [10, 0], Some(([1, 0], 0, Sign::NonZero)));
                        g.shift.truncate(1);
                        g.modulus.truncate(1);
                        g.guards[0].coef.truncate(1);
                        g.to = vec![1];
                        g
                    })
                    .collect(),
                families: vec![],
            };
            Torus::new(&moves, &[root], 1 << 10)
        };
        let mut t = w(1).unwrap();
        t.reach(100, &mut || false).unwrap();
        let mut m = t.members.clone();
        m.sort_unstable();
        assert_eq!(m, vec![1, 3, 5, 7, 9]);
        let mut t = w(1).unwrap();
        assert_eq!(t.reach(3, &mut || false), Err(RowEnd::Budget(vec![3])));
        // A root off the circle is not on the torus.
        assert!(w(12).is_none());
        // A coordinate that only steps up leaves its box.
        let up = Moves {
            moves: vec![mv([1, 1], [5, 0], None)],
            families: vec![],
        };
        let mut t = Torus::new(&up, &[0, 0], 1 << 10).unwrap();
        assert_eq!(t.reach(100, &mut || false), Err(RowEnd::Outside));
    }
}
