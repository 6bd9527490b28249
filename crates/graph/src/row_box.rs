//! A row whose every move steps down: each a shift ([`crate::moves::Move::shifts`]) that lowers
//! some coordinates by constants and raises none (`for k in 1..=3 if k <= a => s(a - k, b, c)`).
//! Every position reachable from `root` then lies in the box of coordinates below it, and an
//! option is always an earlier cell of that box, at a fixed distance per move. So the graph
//! need not be walked or stored: the box is read in cell order and each position's options are
//! found by subtracting those distances, as one would write the game by hand. The positions of
//! the box that `root` does not reach are valued too (they are positions of the same game); a
//! box much larger than the positions wanted is prevented by the caller's budget, and
//! coordinates that no move changes are held at their value instead of spanning a side.
//!
//! A family of options ([`crate::moves::Family`]: sums, loops over ranges of the
//! coordinates) is read the same way: each part of its options moves by a fixed number of cells
//! per value of its loop variable, so an option is a few cell reads. Whether its parts step
//! down cannot be seen from the rules; the walk checks, per position, that the first and last
//! option's parts lie in the box and before the position (so, the cells being linear in the
//! variable, every option's parts do), and ends with [`RowEnd::Outside`] otherwise.

use crate::moves::{Family, Guard, Move, Moves, Part, Sign};
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
    /// Each family, as the walk reads it.
    families: Vec<FamilyStep>,
}

/// The options of one position of a box, as [`RowBox::walk`] gives them.
#[derive(Default)]
pub struct BoxOptions {
    /// The cells of the plain moves' options.
    pub cells: Vec<usize>,
    /// Each family's options: their number and the end of their parts in `parts`.
    pub families: Vec<(usize, usize)>,
    /// Each part of a family: the cell of its first option's part, and how far it moves from
    /// one option to the next.
    pub parts: Vec<(usize, isize)>,
}

/// Guards on the coordinates, most of them bounds on one coordinate (`k <= a`).
struct Cond {
    /// `at[j] >= min` for each `(j, min)`.
    bounds: Vec<(usize, i64)>,
    /// The others.
    guards: Vec<Guard>,
}

impl Cond {
    fn of(gs: &[Guard]) -> Cond {
        let mut bounds: Vec<(usize, i64)> = Vec::new();
        let mut guards = Vec::new();
        for g in gs {
            let mut terms = g.coef.iter().enumerate().filter(|(_, a)| **a != 0);
            match (terms.next(), terms.next(), g.op) {
                // x_j + c >= 0, x_j + c > 0.
                (Some((j, 1)), None, Sign::NonNegative) => bounds.push((j, -g.c)),
                (Some((j, 1)), None, Sign::Positive) => bounds.push((j, 1 - g.c)),
                _ => guards.push(g.clone()),
            }
        }
        Cond { bounds, guards }
    }

    #[inline]
    fn holds(&self, at: &[i64]) -> bool {
        self.bounds.iter().all(|&(j, min)| at[j] >= min) && self.guards.iter().all(|g| g.holds(at))
    }
}

/// One family of a box.
struct FamilyStep {
    cond: Cond,
    family: Family,
    /// How far each part moves, in cells, per value of the loop variable.
    per_v: Vec<isize>,
}

/// One move of a box.
struct Step {
    /// How far back the option lies, in cells.
    back: usize,
    cond: Cond,
    /// `at[j] >= min` needed for the option to have no negative coordinate, where the guards
    /// do not already say so: a position failing one ends the walk.
    keeps: Vec<(usize, i64)>,
}

impl Step {
    fn of(m: &Move, back: usize) -> Step {
        let cond = Cond::of(&m.guards);
        let keeps = m
            .shift
            .iter()
            .enumerate()
            .filter(|&(j, &d)| d < 0 && !cond.bounds.iter().any(|&(i, min)| i == j && min >= -d))
            .map(|(j, &d)| (j, -d))
            .collect();
        Step { back, cond, keeps }
    }
}

impl RowBox {
    /// The box below `root` when every move steps down; `None` otherwise, or when the box
    /// would have more than `most` positions or cells.
    pub fn new(moves: &Moves, root: &[i64], most: usize, most_cells: usize) -> Option<RowBox> {
        let steps_down = |s: &[i64]| s.iter().all(|&d| d <= 0) && s.iter().any(|&d| d < 0);
        if moves.moves.is_empty() && moves.families.is_empty()
            || !moves.moves.iter().all(|m| m.shifts && steps_down(&m.shift))
        {
            return None;
        }
        let k = root.len();
        let hi = root.to_vec();
        // A part keeps coordinate `j` when it is `x_j`, whatever `v`.
        let keeps_j = |p: &Part, j: usize| {
            p.shift[j] == 0
                && p.step[j] == 0
                && (0..k).all(|t| p.to[j * k + t] == i64::from(t == j))
        };
        let lo: Vec<i64> = (0..k)
            .map(|j| {
                let changed = moves.moves.iter().any(|m| m.shift[j] != 0)
                    || moves
                        .families
                        .iter()
                        .any(|f| f.parts.iter().any(|p| !keeps_j(p, j)));
                if changed { 0 } else { root[j] }
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
        let families = moves
            .families
            .iter()
            .map(|f| FamilyStep {
                cond: Cond::of(&f.guards),
                per_v: f.parts.iter().map(|p| grid.delta(&p.step)).collect(),
                family: f.clone(),
            })
            .collect();
        let b = RowBox {
            lo,
            hi,
            grid,
            steps,
            families,
        };
        // The top position's families are the widest as a rule: one the box cannot read there
        // is found before the box is labelled, not after.
        b.families_fit(root).then_some(b)
    }

    /// Whether every family's options at `at` (a position of the box) lie in the box before it.
    fn families_fit(&self, at: &[i64]) -> bool {
        let Some(cell) = self.grid.cell(at) else {
            return false;
        };
        let mut y = vec![0i64; at.len()];
        self.families.iter().all(|f| {
            if !f.cond.holds(at) {
                return true;
            }
            match f.family.range(at) {
                None => false,
                Some((lo, hi)) if lo <= hi => f.family.parts.iter().all(|p| {
                    self.part_cell(p, at, lo, cell, &mut y).is_some()
                        && self.part_cell(p, at, hi, cell, &mut y).is_some()
                }),
                Some(_) => true,
            }
        })
    }

    /// The cell of a family's part at `v`, if it lies in the box before `cell`.
    fn part_cell(&self, p: &Part, at: &[i64], v: i64, cell: usize, y: &mut [i64]) -> Option<usize> {
        for (j, y) in y.iter_mut().enumerate() {
            *y = p.base(j, at) + p.step[j] * v;
            if *y < self.lo[j] || *y > self.hi[j] {
                return None;
            }
        }
        self.grid.cell(y).filter(|&c| c < cell)
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
    /// `visit(cells, cell, options)`, skipping each whose cell in `cells` holds a word already
    /// (known before); `stop` is polled every few thousand positions. A move to a coordinate
    /// below zero (a guard that lets a heap go negative), or a family's option with a part
    /// outside the box or not before its position, ends the walk with [`RowEnd::Outside`], as
    /// the row's walk would end.
    pub fn walk(
        &self,
        cells: &mut [u32],
        stop: &mut dyn FnMut() -> bool,
        mut visit: impl FnMut(&mut [u32], usize, &BoxOptions),
    ) -> Result<(), RowEnd> {
        let k = self.lo.len();
        let mut at = self.lo.clone();
        let mut y = vec![0i64; k];
        let mut opts = BoxOptions::default();
        // Work done (positions and options), and when to poll next: a family can give one
        // position millions of options.
        let (mut work, mut poll_at) = (0usize, 4096usize);
        let mut cell = self.grid.cell(&at).expect("the box lies in its grid");
        loop {
            if work >= poll_at {
                poll_at = work + 4096;
                if stop() {
                    return Err(RowEnd::Interrupted);
                }
            }
            work += 1;
            if cells[cell] == Grid::NONE {
                opts.cells.clear();
                opts.families.clear();
                opts.parts.clear();
                for st in &self.steps {
                    if !st.cond.holds(&at) {
                        continue;
                    }
                    if st.keeps.iter().any(|&(j, min)| at[j] < min) {
                        return Err(RowEnd::Outside);
                    }
                    opts.cells.push(cell - st.back);
                }
                for f in &self.families {
                    if !f.cond.holds(&at) {
                        continue;
                    }
                    let (lo, hi) = f.family.range(&at).ok_or(RowEnd::Outside)?;
                    if lo > hi {
                        continue;
                    }
                    for (p, &d) in f.family.parts.iter().zip(&f.per_v) {
                        let first = self.part_cell(p, &at, lo, cell, &mut y);
                        let last = self.part_cell(p, &at, hi, cell, &mut y);
                        let (Some(first), Some(_)) = (first, last) else {
                            return Err(RowEnd::Outside);
                        };
                        opts.parts.push((first, d));
                    }
                    let count = (hi - lo + 1) as usize;
                    work = work.saturating_add(count);
                    opts.families.push((count, opts.parts.len()));
                }
                visit(cells, cell, &opts);
            }
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
