//! Dense rows: the graph of a family of positions named by a few non-negative integers.
//!
//! A ruleset whose every move goes to its own positions, passing some arguments on unchanged
//! and computing the others as integers (`wu(n, s, i)` moves to `wu(n, s, (i - m + n) % n)`,
//! `kayles(n)` to `kayles(a) + kayles(b)`), has positions that differ only in those integers,
//! its *coordinates*. Such positions need no key and no hash: a coordinate tuple is a cell of a
//! box, and the cell holds the node. [`explore`] builds the graph from one position over that
//! box, growing each side by doubling as coordinates are met, and writes the options into flat
//! arrays that the labeller reads as they are. Options that are sums of positions keep their
//! parts in a second table.
//!
//! The row holds what it can hold exactly: a negative coordinate, one past `i32`, or a box
//! larger than the position budget allows ends the walk with [`RowEnd::Outside`], and the
//! source may decline a position ([`RowEnd::Declined`]); the caller then values the game
//! through the [`crate::Explorer`].

use crate::Digraph;

/// Marks an option that is a sum: the low bits index [`RowGraph::sum_start`].
pub const SUM: u32 = 1 << 31;

/// What a [`RowSource`] writes for one position: each option is its number of parts, then
/// the coordinates of each part.
#[derive(Default)]
pub struct RowOptions {
    pub words: Vec<i64>,
}

impl RowOptions {
    pub fn clear(&mut self) {
        self.words.clear();
    }
}

/// The evaluator's side of a row: the options of the position at some coordinates.
pub trait RowSource {
    /// Lists the options of the position at `at` into `out` (see [`RowOptions`]); `false`
    /// when the position is not one the row can list (the walk ends).
    fn list(&mut self, at: &[i64], out: &mut RowOptions) -> bool;
    /// What the session knows of the position at `at` already (its memo code): it is not
    /// listed again, and stays a leaf of the graph.
    fn known(&mut self, _at: &[i64]) -> Option<u32> {
        None
    }
    /// True once the user asked to stop (Ctrl-C).
    fn interrupted(&self) -> bool;
    /// The row's rules as moves, when it has them: the walk then computes the options itself
    /// (by cell arithmetic, mostly) and [`RowSource::list`] is not called.
    fn moves(&self) -> Option<&crate::moves::Moves> {
        None
    }
}

/// A row listed by a function of the coordinates (games written in Rust: tests, benchmarks).
pub struct ListedBy<F>(pub F);

impl<F: FnMut(&[i64], &mut RowOptions)> RowSource for ListedBy<F> {
    fn list(&mut self, at: &[i64], out: &mut RowOptions) -> bool {
        (self.0)(at, out);
        true
    }
    fn interrupted(&self) -> bool {
        false
    }
}

/// Why a walk ended without a graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowEnd {
    /// A coordinate left what the row holds (negative, past `i32`, or a box too large).
    Outside,
    /// The source could not list a position.
    Declined,
    /// More positions than the budget: the coordinates of the position that passed it.
    Budget(Vec<i64>),
    Interrupted,
}

/// The graph of the positions reachable from one position of a row, numbered in the order
/// they were met (the start is node 0).
#[derive(Default)]
pub struct RowGraph {
    /// Coordinates per position.
    pub k: usize,
    /// The coordinates of node `u`: `coords[k * u..k * (u + 1)]`.
    pub coords: Vec<i32>,
    /// The options of `u` are `opts[start[u]..start[u + 1]]`: a node, or [`SUM`] | a sum.
    pub start: Vec<u32>,
    pub opts: Vec<u32>,
    /// The parts of sum `s` are `parts[sum_start[s]..sum_start[s + 1]]`.
    pub sum_start: Vec<u32>,
    pub parts: Vec<u32>,
    /// The positions known before (leaves, not listed) and their memo codes, by node.
    pub known: Vec<(u32, u32)>,
    /// Every node in the lexicographic order of its coordinates, when every option (and every
    /// part of a sum) is lexicographically smaller than its position: then the graph has no
    /// cycle and this order puts options first (the three-heap game: each move lowers one
    /// coordinate), so it can be labelled without a search for components.
    pub descending: Option<Vec<u32>>,
}

impl RowGraph {
    pub fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn options(&self, u: u32) -> &[u32] {
        &self.opts[self.start[u as usize] as usize..self.start[u as usize + 1] as usize]
    }

    pub fn sum(&self, s: u32) -> &[u32] {
        &self.parts[self.sum_start[s as usize] as usize..self.sum_start[s as usize + 1] as usize]
    }

    pub fn coords(&self, u: u32) -> &[i32] {
        &self.coords[self.k * u as usize..self.k * (u as usize + 1)]
    }

    pub fn has_sums(&self) -> bool {
        self.sum_start.len() > 1
    }

    /// Every position's successors with sums opened into their parts (for the components).
    pub fn edges(&self) -> crate::Csr {
        let mut g = crate::Csr {
            start: Vec::with_capacity(self.len() + 1),
            succ: Vec::with_capacity(self.opts.len()),
        };
        g.start.push(0);
        for u in 0..self.len() as u32 {
            for &o in self.options(u) {
                if o & SUM == 0 {
                    g.succ.push(o);
                } else {
                    g.succ.extend_from_slice(self.sum(o & !SUM));
                }
            }
            g.start.push(g.succ.len() as u32);
        }
        g
    }
}

/// Without sums, the options are the edges.
impl Digraph for RowGraph {
    fn node_count(&self) -> usize {
        self.len()
    }
    fn successors(&self, u: u32) -> (&[u32], &[u32]) {
        (self.options(u), &[])
    }
}

/// A box of coordinates, a power of two per side, holding a word per cell ([`Grid::NONE`]
/// for none): the row's nodes while it is walked, and the classes of a row once labelled.
#[derive(Clone, Debug)]
pub struct Grid {
    /// log2 of each side.
    bits: Vec<u32>,
    pub cells: Vec<u32>,
}

impl Grid {
    pub const NONE: u32 = u32::MAX;

    /// A box of one cell, for `k` coordinates.
    pub fn new(k: usize) -> Self {
        Grid {
            bits: vec![0; k],
            cells: vec![Self::NONE],
        }
    }

    /// The cell of `at`, if it lies in the box.
    #[inline]
    pub fn cell(&self, at: &[i64]) -> Option<usize> {
        let mut c = 0usize;
        for (&x, &b) in at.iter().zip(&self.bits) {
            if x < 0 || x >> b != 0 {
                return None;
            }
            c = (c << b) | x as usize;
        }
        Some(c)
    }

    /// How far a cell moves when its coordinates shift by `shift` (valid for a shift that
    /// stays in the box: the arithmetic wraps otherwise).
    pub fn delta(&self, shift: &[i64]) -> isize {
        let mut off = 0;
        let mut d = 0isize;
        for (&s, &b) in shift.iter().zip(&self.bits).rev() {
            d = d.wrapping_add((s as isize).wrapping_shl(off));
            off += b;
        }
        d
    }

    /// Whether `at` shifted by `shift` lies in the box (`at` in `0..2^31`, `shift` within
    /// [`crate::moves::MOST_CONST`]).
    #[inline]
    pub fn holds_shifted(&self, at: &[i64], shift: &[i64]) -> bool {
        at.iter()
            .zip(shift)
            .zip(&self.bits)
            .all(|((&x, &d), &b)| (x + d) as u64 >> b == 0)
    }

    /// The word at `at`, if it lies in the box and has one.
    pub fn get(&self, at: &[i64]) -> Option<u32> {
        let w = self.cells[self.cell(at)?];
        (w != Self::NONE).then_some(w)
    }

    /// Doubles sides until `at` lies in the box, keeping every cell's word; `false` (the box
    /// unchanged) for a coordinate below zero or past `i32`, or a box of more than `most`
    /// cells.
    pub fn grow_to(&mut self, at: &[i64], most: usize) -> bool {
        let mut bits = self.bits.clone();
        for (&x, b) in at.iter().zip(bits.iter_mut()) {
            if !(0..=i32::MAX as i64).contains(&x) {
                return false;
            }
            while x >> *b != 0 {
                *b += 1;
            }
        }
        if bits == self.bits {
            return true;
        }
        let total: u32 = bits.iter().sum();
        if total >= usize::BITS - 1 || 1usize << total > most {
            return false;
        }
        let mut cells = vec![Self::NONE; 1 << total];
        let k = bits.len();
        let mut at = vec![0usize; k];
        for (c, &w) in self.cells.iter().enumerate() {
            if w == Self::NONE {
                continue;
            }
            let mut rest = c;
            for j in (0..k).rev() {
                at[j] = rest & ((1 << self.bits[j]) - 1);
                rest >>= self.bits[j];
            }
            let d = at.iter().zip(&bits).fold(0, |d, (&x, &b)| (d << b) | x);
            cells[d] = w;
        }
        self.bits = bits;
        self.cells = cells;
        true
    }
}

/// The graph of the positions reachable from the position at `root`, listed by `src`; at most
/// `budget` positions, in a box of at most `most_cells` cells.
pub fn explore(
    src: &mut dyn RowSource,
    root: &[i64],
    budget: usize,
    most_cells: usize,
) -> Result<RowGraph, RowEnd> {
    let k = root.len();
    if k == 0 {
        return Err(RowEnd::Declined);
    }
    let mut g = RowGraph {
        k,
        start: vec![0],
        sum_start: vec![0],
        ..RowGraph::default()
    };
    let mut cells = Grid::new(k);
    let mut out = RowOptions::default();
    let mut at = vec![0i64; k];
    // With moves: an option's coordinates, each move's cell step for a box of `delta_for`
    // cells, and whether it always lowers its position.
    let moves = src.moves().filter(|m| m.plain()).cloned();
    let mut p = vec![0i64; k];
    let (mut delta, mut delta_for) = (Vec::new(), 0);
    let lowers: Vec<bool> = moves
        .iter()
        .flat_map(|m| m.moves.iter().map(|mv| mv.lowers()))
        .collect();
    let room = (budget, most_cells);
    node(&mut g, &mut cells, src, root, room)?;
    // Nodes are listed in the order they were met: the list is the queue.
    let mut u = 0usize;
    let mut next_known = 0;
    // Whether every option so far is lexicographically smaller than its position.
    let mut descending = true;
    while u < g.coords.len() / k {
        if g.known
            .get(next_known)
            .is_some_and(|&(v, _)| v as usize == u)
        {
            next_known += 1;
            g.start.push(g.opts.len() as u32);
            u += 1;
            continue;
        }
        if u % 1024 == 1023 && src.interrupted() {
            return Err(RowEnd::Interrupted);
        }
        for (a, &x) in at.iter_mut().zip(&g.coords[k * u..k * (u + 1)]) {
            *a = x as i64;
        }
        if let Some(m) = &moves {
            // The cell of `u`, and how far each shift moves it, for the box as it is now.
            let mut boxed = cells.cells.len();
            if boxed != delta_for {
                delta.clear();
                delta.extend(m.moves.iter().map(|mv| cells.delta(&mv.shift)));
                delta_for = boxed;
            }
            let mut cu = cells.cell(&at).expect("a node lies in the box") as isize;
            for (i, mv) in m.moves.iter().enumerate() {
                if !mv.allowed(&at) {
                    continue;
                }
                if mv.shifts && cells.holds_shifted(&at, &mv.shift) {
                    let v = cells.cells[cu.wrapping_add(delta[i]) as usize];
                    if v != Grid::NONE {
                        descending &= lowers[i];
                        g.opts.push(v);
                        continue;
                    }
                }
                if !mv.apply(&at, &mut p) {
                    return Err(RowEnd::Declined);
                }
                descending = descending && p < at;
                let v = node(&mut g, &mut cells, src, &p, room)?;
                g.opts.push(v);
                if cells.cells.len() != boxed {
                    // The box grew: cells moved.
                    boxed = cells.cells.len();
                    delta.clear();
                    delta.extend(m.moves.iter().map(|mv| cells.delta(&mv.shift)));
                    delta_for = boxed;
                    cu = cells.cell(&at).expect("a node lies in the box") as isize;
                }
            }
            g.start.push(g.opts.len() as u32);
            u += 1;
            continue;
        }
        listed_options(
            &mut g,
            &mut cells,
            src,
            &at,
            &mut out,
            room,
            &mut descending,
        )?;
        g.start.push(g.opts.len() as u32);
        u += 1;
    }
    // A cell's index orders coordinates lexicographically (the first most significant), so
    // the box read in order is the nodes in that order.
    if descending {
        g.descending = Some(
            cells
                .cells
                .iter()
                .copied()
                .filter(|&w| w != Grid::NONE)
                .collect(),
        );
    }
    Ok(g)
}

/// Node `c` of the row's graph, made if new (its coordinates kept, its cell set, what `src`
/// knows of it noted); `room` is the budget of positions and the most cells of the box.
#[inline]
fn node(
    g: &mut RowGraph,
    cells: &mut Grid,
    src: &mut dyn RowSource,
    c: &[i64],
    (budget, most_cells): (usize, usize),
) -> Result<u32, RowEnd> {
    let cell = match cells.cell(c) {
        Some(cell) => cell,
        None if cells.grow_to(c, most_cells) => cells.cell(c).expect("grown to hold it"),
        None => return Err(RowEnd::Outside),
    };
    let u = cells.cells[cell];
    if u != Grid::NONE {
        return Ok(u);
    }
    let u = (g.coords.len() / g.k) as u32;
    if u as usize >= budget {
        return Err(RowEnd::Budget(c.to_vec()));
    }
    g.coords.extend(c.iter().map(|&x| x as i32));
    cells.cells[cell] = u;
    if let Some(code) = src.known(c) {
        g.known.push((u, code));
    }
    Ok(u)
}

/// The options of the position at `at` as `src` lists them (rules without moves of their
/// own), sums as groups of parts; `descending` is cleared by an option not below `at`.
#[inline]
fn listed_options(
    g: &mut RowGraph,
    cells: &mut Grid,
    src: &mut dyn RowSource,
    at: &[i64],
    out: &mut RowOptions,
    room: (usize, usize),
    descending: &mut bool,
) -> Result<(), RowEnd> {
    let k = g.k;
    out.clear();
    if !src.list(at, out) {
        return Err(RowEnd::Declined);
    }
    let mut i = 0;
    while i < out.words.len() {
        let n = out.words[i] as usize;
        i += 1;
        if n == 1 {
            let p = &out.words[i..i + k];
            *descending = *descending && p < at;
            let v = node(g, cells, src, p, room)?;
            g.opts.push(v);
        } else {
            let s = (g.sum_start.len() - 1) as u32;
            for j in 0..n {
                let p = &out.words[i + j * k..i + (j + 1) * k];
                *descending = *descending && p < at;
                let v = node(g, cells, src, p, room)?;
                g.parts.push(v);
            }
            g.sum_start.push(g.parts.len() as u32);
            g.opts.push(SUM | s);
        }
        i += n * k;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WindUp: a subtraction game {1, 3, 4} on a circle of `n`.
    fn windup(n: i64) -> ListedBy<impl FnMut(&[i64], &mut RowOptions)> {
        ListedBy(move |at: &[i64], out: &mut RowOptions| {
            if at[0] != 0 {
                for m in [1, 3, 4] {
                    out.words.extend([1, (at[0] - m + n) % n]);
                }
            }
        })
    }

    /// Kayles, its options sums of two rows of pins.
    fn kayles() -> ListedBy<impl FnMut(&[i64], &mut RowOptions)> {
        ListedBy(|at: &[i64], out: &mut RowOptions| {
            for t in 1..=2 {
                for a in 0..=at[0] - t {
                    out.words.extend([2, a, at[0] - t - a]);
                }
            }
        })
    }

    #[test]
    fn a_circle_is_met_whole_and_its_box_grows() {
        let g = explore(&mut windup(1000), &[1], 10_000, 1 << 20).unwrap();
        assert_eq!(g.len(), 1000);
        for u in 0..g.len() as u32 {
            let i = g.coords(u)[0] as i64;
            let want: Vec<i64> = if i == 0 {
                vec![]
            } else {
                [1, 3, 4].iter().map(|m| (i - m + 1000) % 1000).collect()
            };
            let got: Vec<i64> = g
                .options(u)
                .iter()
                .map(|&v| g.coords(v)[0] as i64)
                .collect();
            assert_eq!(got, want, "options of {i}");
        }
    }

    #[test]
    fn sums_keep_their_parts_and_limits_hold() {
        let mut src = kayles();
        let g = explore(&mut src, &[10], 100, 1 << 10).unwrap();
        assert_eq!(g.len(), 11);
        // kayles(10): 10 splits taking one, 9 taking two.
        let root = g.options(0);
        assert_eq!(root.len(), 19);
        assert!(root.iter().all(|&o| o & SUM != 0));
        let sizes: Vec<i32> = g
            .sum(root[0] & !SUM)
            .iter()
            .map(|&v| g.coords(v)[0])
            .collect();
        assert_eq!(sizes, vec![0, 9]);
        assert_eq!(
            explore(&mut src, &[10], 5, 1 << 10).err(),
            Some(RowEnd::Budget(vec![2]))
        );
        assert_eq!(
            explore(&mut src, &[100], 1000, 64).err(),
            Some(RowEnd::Outside)
        );
        assert_eq!(
            explore(&mut windup(7), &[-1], 10, 64).err(),
            Some(RowEnd::Outside)
        );
    }

    #[test]
    fn a_grid_keeps_its_words_as_it_grows() {
        let mut grid = Grid::new(2);
        let points = [[0i64, 0], [1, 0], [0, 5], [3, 2], [9, 1], [2, 17]];
        for (w, p) in points.iter().enumerate() {
            assert!(grid.grow_to(p, 1 << 12));
            let c = grid.cell(p).unwrap();
            grid.cells[c] = w as u32;
        }
        for (w, p) in points.iter().enumerate() {
            assert_eq!(grid.get(p), Some(w as u32), "{p:?}");
        }
        assert_eq!(grid.get(&[1, 1]), None);
        assert_eq!(grid.get(&[-1, 0]), None);
        assert!(!grid.grow_to(&[-1, 0], 1 << 12));
        assert!(!grid.grow_to(&[1 << 10, 0], 1 << 12));
        assert_eq!(grid.get(&[2, 17]), Some(5));
    }
}
