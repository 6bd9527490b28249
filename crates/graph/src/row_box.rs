//! A row whose every move steps down: each a shift ([`crate::moves::Move::shifts`]) that lowers
//! some coordinates by constants and raises none (`for k in 1..=3 if k <= a => s(a - k, b, c)`).
//! Every position reachable from `root` then lies in the box of coordinates below it, and an
//! option is always an earlier cell of that box, at a fixed distance per move. So the graph
//! need not be walked or stored: the box is read in cell order and each position's options are
//! found by subtracting those distances, as one would write the game by hand. The positions of
//! the box that `root` does not reach are valued too (they are positions of the same game); a
//! box much larger than the positions wanted is prevented by the caller's budget, and
//! coordinates that no move changes are held at their value instead of spanning a side.

use crate::moves::{Guard, Move, Moves, Sign};
use crate::row::{Grid, RowEnd};

/// The box below one position of a stepping-down row.
pub struct RowBox {
    /// Coordinate `j` runs over `lo[j]..=hi[j]`: `0..=root[j]`, or just `root[j]` when no move
    /// changes it.
    pub lo: Vec<i64>,
    pub hi: Vec<i64>,
    /// The box's cells, laid out as a [`Grid`] of the same sides (power-of-two sides); cells
    /// outside `lo..=hi` are not positions of the box.
    pub grid: Grid,
    /// Each move, as the walk reads it.
    steps: Vec<Step>,
}

/// One move of a box: most guards bound one coordinate from below (`k <= a`), read as such.
struct Step {
    /// How far back the option lies, in cells.
    back: usize,
    /// `at[j] >= min` for each `(j, min)`: the move's guards of that kind.
    bounds: Vec<(usize, i64)>,
    /// Its other guards.
    guards: Vec<Guard>,
    /// `at[j] >= min` needed for the option to have no negative coordinate, where the guards
    /// do not already say so: a position failing one ends the walk.
    keeps: Vec<(usize, i64)>,
}

impl Step {
    fn of(m: &Move, back: usize) -> Step {
        let mut bounds: Vec<(usize, i64)> = Vec::new();
        let mut guards = Vec::new();
        for g in &m.guards {
            let mut terms = g.coef.iter().enumerate().filter(|(_, a)| **a != 0);
            match (terms.next(), terms.next(), g.op) {
                // x_j + c >= 0, x_j + c > 0.
                (Some((j, 1)), None, Sign::NonNegative) => bounds.push((j, -g.c)),
                (Some((j, 1)), None, Sign::Positive) => bounds.push((j, 1 - g.c)),
                _ => guards.push(g.clone()),
            }
        }
        let keeps = m
            .shift
            .iter()
            .enumerate()
            .filter(|&(j, &d)| d < 0 && !bounds.iter().any(|&(i, min)| i == j && min >= -d))
            .map(|(j, &d)| (j, -d))
            .collect();
        Step {
            back,
            bounds,
            guards,
            keeps,
        }
    }

    #[inline]
    fn allowed(&self, at: &[i64]) -> bool {
        self.bounds.iter().all(|&(j, min)| at[j] >= min) && self.guards.iter().all(|g| g.holds(at))
    }
}

impl RowBox {
    /// The box below `root` when every move steps down; `None` otherwise, or when the box
    /// would have more than `most` positions or cells.
    pub fn new(moves: &Moves, root: &[i64], most: usize, most_cells: usize) -> Option<RowBox> {
        let steps_down = |s: &[i64]| s.iter().all(|&d| d <= 0) && s.iter().any(|&d| d < 0);
        if moves.moves.is_empty() || !moves.moves.iter().all(|m| m.shifts && steps_down(&m.shift)) {
            return None;
        }
        let k = root.len();
        let hi = root.to_vec();
        let lo: Vec<i64> = (0..k)
            .map(|j| {
                if moves.moves.iter().any(|m| m.shift[j] != 0) {
                    0
                } else {
                    root[j]
                }
            })
            .collect();
        let positions = lo
            .iter()
            .zip(&hi)
            .try_fold(1usize, |n, (&l, &h)| n.checked_mul((h - l + 1) as usize))?;
        let mut grid = Grid::new(k);
        if positions > most || !grid.grow_to(root, most_cells) {
            return None;
        }
        let steps = moves
            .moves
            .iter()
            .map(|m| Step::of(m, grid.delta(&m.shift).unsigned_abs()))
            .collect();
        Some(RowBox {
            lo,
            hi,
            grid,
            steps,
        })
    }

    /// The number of positions in the box.
    pub fn len(&self) -> usize {
        self.lo
            .iter()
            .zip(&self.hi)
            .map(|(&l, &h)| (h - l + 1) as usize)
            .product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Visits every position of the box in cell order (options before their positions) as
    /// `visit(cell, option cells)`; `stop` is polled every few thousand positions. A move to a
    /// coordinate below zero (a guard that lets a heap go negative) ends the walk with
    /// [`RowEnd::Outside`], as the row's walk would.
    pub fn walk(
        &self,
        stop: &mut dyn FnMut() -> bool,
        mut visit: impl FnMut(usize, &[usize]),
    ) -> Result<(), RowEnd> {
        let k = self.lo.len();
        let mut at = self.lo.clone();
        let mut opts = Vec::with_capacity(self.steps.len());
        let mut n = 0usize;
        let mut cell = self.grid.cell(&at).expect("the box lies in its grid");
        loop {
            if n % 4096 == 4095 && stop() {
                return Err(RowEnd::Interrupted);
            }
            n += 1;
            opts.clear();
            for st in &self.steps {
                if !st.allowed(&at) {
                    continue;
                }
                if st.keeps.iter().any(|&(j, min)| at[j] < min) {
                    return Err(RowEnd::Outside);
                }
                opts.push(cell - st.back);
            }
            visit(cell, &opts);
            // The next position in cell order: the last coordinate fastest (the next cell,
            // unless a coordinate carries).
            if at[k - 1] < self.hi[k - 1] {
                at[k - 1] += 1;
                cell += 1;
                continue;
            }
            let mut j = k;
            loop {
                if j == 0 {
                    return Ok(());
                }
                j -= 1;
                if at[j] < self.hi[j] {
                    at[j] += 1;
                    break;
                }
                at[j] = self.lo[j];
            }
            cell = self.grid.cell(&at).expect("the box lies in its grid");
        }
    }

    /// Every position of the box with its cell, in cell order.
    pub fn each(&self, mut f: impl FnMut(&[i64], usize)) {
        let k = self.lo.len();
        let mut at = self.lo.clone();
        loop {
            f(&at, self.grid.cell(&at).expect("the box lies in its grid"));
            let mut j = k;
            loop {
                if j == 0 {
                    return;
                }
                j -= 1;
                if at[j] < self.hi[j] {
                    at[j] += 1;
                    break;
                }
                at[j] = self.lo[j];
            }
        }
    }
}
