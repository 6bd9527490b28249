//! γ of a dense row's graph ([`loony_graph::row`]): the same labelling as any position graph's
//! (components sinks first, [`Labeller`] on each), read straight from the row's flat arrays.
//!
//! An option that is a sum of positions is valued from its parts by Table 1 once they are
//! labelled, and the labeller sees it as a vertex outside the component with that value. A
//! part in the component of the position that moves to the sum (a sum on a cycle) is not
//! something γ of one graph can say: [`label`] answers [`RowLabel::Open`] and the caller
//! values the game another way.

use super::gamma::{Adjacency, INF, Labeller, LoopyView, Outside};
use loony_core::class::{self, Class};
use loony_graph::row::{RowEnd, RowGraph, SUM};
use loony_graph::row_box::RowBox;
use loony_graph::torus::Torus;
use rustc_hash::FxHashMap;

/// A label that is ∞(A): the low bits are the index of A in [`RowGamma::sets`].
pub const SET: u32 = 1 << 31;
const UNSET: u32 = u32::MAX;

/// γ of every position of a row: a nimber, or [`SET`] | the index of A for ∞(A).
#[derive(Debug, Default)]
pub struct RowGamma {
    pub label: Vec<u32>,
    /// The distinct A-sets, sorted.
    pub sets: Vec<Vec<u32>>,
}

impl RowGamma {
    /// The class of a position.
    pub fn class(&self, u: u32) -> Class {
        match self.label[u as usize] {
            l if l & SET != 0 => Class::Loopy(self.sets[(l & !SET) as usize].as_slice().into()),
            k => Class::Nimber(k),
        }
    }
}

pub enum RowLabel {
    Done(RowGamma),
    /// A sum option has a part on a cycle through the position that moves to it (or a known
    /// class is neither a nimber nor loopy): the row gives no values.
    Open,
    Interrupted,
}

struct Sets {
    sets: Vec<Vec<u32>>,
    index: FxHashMap<Vec<u32>, u32>,
    /// The set interned last: most positions of a long cycle repeat it, and need no hash.
    last: u32,
}

impl Sets {
    fn intern(&mut self, a: &[u32]) -> u32 {
        if let Some(l) = self.sets.get(self.last as usize)
            && l.len() == a.len()
            && l.iter().zip(a).all(|(x, y)| x == y)
        {
            return SET | self.last;
        }
        let i = match self.index.get(a) {
            Some(&i) => i,
            None => {
                let i = self.sets.len() as u32;
                self.sets.push(a.to_vec());
                self.index.insert(a.to_vec(), i);
                i
            }
        };
        self.last = i;
        SET | i
    }
}

struct View<'a> {
    g: &'a RowGraph,
    label: &'a [u32],
    sum_label: &'a [u32],
    sets: &'a [Vec<u32>],
}

impl LoopyView for View<'_> {
    fn options(&self, u: u32) -> &[u32] {
        self.g.options(u)
    }
    fn outside(&self, v: u32) -> Outside<'_> {
        let l = if v & SUM != 0 {
            self.sum_label[(v & !SUM) as usize]
        } else {
            self.label[v as usize]
        };
        if l & SET != 0 {
            Outside::Infinite(&self.sets[(l & !SET) as usize])
        } else {
            Outside::Finite(l)
        }
    }
}

/// Labels every position of `g`; `known` gives the class of a memo code of
/// [`RowGraph::known`]. `poll` returning `true` stops it.
pub fn label(
    g: &RowGraph,
    known: &dyn Fn(u32) -> Class,
    poll: &mut dyn FnMut() -> bool,
) -> RowLabel {
    let mut st = State {
        label: vec![UNSET; g.len()],
        sum_label: vec![UNSET; g.sum_start.len().saturating_sub(1)],
        sets: Sets {
            sets: Vec::new(),
            index: FxHashMap::default(),
            last: 0,
        },
        lab: Labeller::new(),
        classes: Vec::new(),
    };
    for &(u, code) in &g.known {
        st.label[u as usize] = match known(code) {
            Class::Nimber(k) => k,
            Class::Loopy(a) => st.sets.intern(&a),
            // Only nimbers and loopy values are kept for row positions.
            _ => return RowLabel::Open,
        };
    }
    // A row whose moves all lower its coordinates lexicographically has no cycle: each
    // position is its own component, and the lexicographic order has options first.
    if let Some(order) = &g.descending {
        for (i, &u) in order.iter().enumerate() {
            if i % 4096 == 4095 && poll() {
                return RowLabel::Interrupted;
            }
            if let Err(e) = st.component(g, &[u], poll) {
                return e;
            }
        }
        return RowLabel::Done(RowGamma {
            label: st.label,
            sets: st.sets.sets,
        });
    }
    // Each component is labelled as Tarjan's search completes it (sinks first), so no table
    // of components is kept; the search and the labeller poll the same flag.
    let poll = std::cell::RefCell::new(poll);
    let mut end = None;
    let mut visit = |members: &[u32]| match st.component(g, members, &mut || (poll.borrow_mut())())
    {
        Ok(()) => true,
        Err(e) => {
            end = Some(e);
            false
        }
    };
    let edges;
    let finished = if g.has_sums() {
        edges = g.edges();
        loony_graph::scc::each_component(&edges, &mut || (poll.borrow_mut())(), &mut visit)
    } else {
        loony_graph::scc::each_component(g, &mut || (poll.borrow_mut())(), &mut visit)
    };
    match (finished, end) {
        (true, _) => RowLabel::Done(RowGamma {
            label: st.label,
            sets: st.sets.sets,
        }),
        (false, Some(e)) => e,
        (false, None) => RowLabel::Interrupted,
    }
}

/// The nimber of every position of a stepping-down row's box ([`RowBox`]), written into its
/// grid's cells: the box has no cycle and its cell order puts options first, so each position
/// is the mex of its options, read as it is met. Cells holding a nimber already are kept; the
/// number of positions labelled is returned.
pub fn label_box(b: &mut RowBox, poll: &mut dyn FnMut() -> bool) -> Result<usize, RowEnd> {
    let mut cells = std::mem::take(&mut b.grid.cells);
    let mut labelled = 0;
    let mut big = Vec::new();
    let mut scratch = Vec::new();
    let walked = b.walk(&mut cells, poll, |cells, cell, o| {
        labelled += 1;
        // A word of small values, the rest kept for the general mex past them.
        let mut small = 0u64;
        big.clear();
        let mut mark = |v: u32| {
            if v < 64 {
                small |= 1 << v;
            } else {
                big.push(v);
            }
        };
        for &c in &o.cells {
            mark(cells[c]);
        }
        let mut from = 0;
        for &(count, to) in &o.families {
            let parts = &o.parts[from..to];
            from = to;
            // A family's options are sums: the nim-sum of their parts.
            match *parts {
                [(c, d)] => {
                    let mut c = c;
                    for _ in 0..count {
                        mark(cells[c]);
                        c = c.wrapping_add_signed(d);
                    }
                }
                [(c, d), (e, f)] => {
                    let (mut c, mut e) = (c, e);
                    for _ in 0..count {
                        mark(cells[c] ^ cells[e]);
                        c = c.wrapping_add_signed(d);
                        e = e.wrapping_add_signed(f);
                    }
                }
                _ => {
                    for i in 0..count as isize {
                        mark(parts.iter().fold(0, |x, &(c, d)| {
                            x ^ cells[c.wrapping_add_signed(i.wrapping_mul(d))]
                        }));
                    }
                }
            }
        }
        cells[cell] = if small != u64::MAX || big.is_empty() {
            (!small).trailing_zeros()
        } else {
            big.extend(0..64);
            crate::normal::mex(&big, &mut scratch)
        };
    });
    b.grid.cells = cells;
    walked.map(|()| labelled)
}

/// The torus's rules as the labeller reads them: options and predecessors by cell arithmetic.
struct OnTorus<'a>(&'a Torus);

impl Adjacency for OnTorus<'_> {
    #[inline]
    fn succ(&self, u: u32, f: impl FnMut(u32)) {
        self.0.options(u, f);
    }
    #[inline]
    fn pred(&self, u: u32, f: impl FnMut(u32)) {
        self.0.preds(u, f);
    }
}

/// γ of every position the torus's root reaches ([`Torus::reach`] first), labelled as one
/// set (the stages need no strongly connected components) with no graph stored: read each
/// member cell's γ with [`Labeller::result`]. The members move into the labeller
/// ([`Labeller::is_member`] tells them), so `t.members` is empty after. `None` if `poll`
/// stopped it.
pub fn label_torus(t: &mut Torus, poll: &mut dyn FnMut() -> bool) -> Option<Labeller> {
    let mut lab = Labeller::new();
    let members = std::mem::take(&mut t.members);
    lab.label_all(&OnTorus(t), t.cells(), members, poll)
        .then_some(lab)
}

/// What labelling a row keeps from component to component.
struct State {
    label: Vec<u32>,
    sum_label: Vec<u32>,
    sets: Sets,
    lab: Labeller,
    classes: Vec<Class>,
}

impl State {
    /// Labels one component, every option outside it labelled already.
    fn component(
        &mut self,
        g: &RowGraph,
        members: &[u32],
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<(), RowLabel> {
        let State {
            label,
            sum_label,
            sets,
            lab,
            classes,
        } = self;
        if let [u] = *members
            && label[u as usize] != UNSET
        {
            return Ok(());
        }
        // The sums among the members' options, from their parts (labelled before, unless on
        // this component's cycle).
        if g.has_sums() {
            for &u in members {
                for &o in g.options(u) {
                    if o & SUM == 0 || sum_label[(o & !SUM) as usize] != UNSET {
                        continue;
                    }
                    let parts = g.sum(o & !SUM);
                    if parts.iter().any(|&p| label[p as usize] == UNSET) {
                        return Err(RowLabel::Open);
                    }
                    let mut k = 0;
                    let l = if parts.iter().all(|&p| {
                        k ^= label[p as usize];
                        label[p as usize] & SET == 0
                    }) {
                        k
                    } else {
                        classes.clear();
                        classes.extend(parts.iter().map(|&p| match label[p as usize] {
                            l if l & SET != 0 => {
                                Class::Loopy(sets.sets[(l & !SET) as usize].as_slice().into())
                            }
                            k => Class::Nimber(k),
                        }));
                        match class::sum(classes.iter()) {
                            Class::Nimber(k) => k,
                            Class::Loopy(a) => sets.intern(&a),
                            _ => unreachable!("nimbers and loopy values sum to one of them"),
                        }
                    };
                    sum_label[(o & !SUM) as usize] = l;
                }
            }
        }
        // A position on no cycle whose options are all finite (most of an acyclic row): the
        // mex, without the labeller's tables.
        if let [u] = *members {
            let mut seen = 0u64;
            let plain = g.options(u).iter().all(|&o| {
                let l = if o & SUM != 0 {
                    sum_label[(o & !SUM) as usize]
                } else {
                    label[o as usize]
                };
                seen |= 1u64.checked_shl(l).unwrap_or(0);
                l < 64 && o != u
            });
            if plain {
                label[u as usize] = (!seen).trailing_zeros();
                return Ok(());
            }
        }
        let view = View {
            g,
            label,
            sum_label,
            sets: &sets.sets,
        };
        if !lab.label(&view, members, poll) {
            return Err(RowLabel::Interrupted);
        }
        for (i, &u) in members.iter().enumerate() {
            let r = lab.result(i);
            label[u as usize] = if r.label == INF {
                sets.intern(lab.set(r.a))
            } else {
                r.label
            };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loony_graph::row::{ListedBy, RowOptions, explore};

    #[test]
    fn kayles_by_sums_is_its_nim_sequence() {
        // Kayles' nim-sequence (Guy and Smith), heaps 0..=17.
        let want = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4];
        // Take one or two pins, leaving two rows.
        let mut kayles = ListedBy(|at: &[i64], out: &mut RowOptions| {
            for t in 1..=2 {
                for a in 0..=at[0] - t {
                    out.words.extend([2, a, at[0] - t - a]);
                }
            }
        });
        let g = explore(&mut kayles, &[17], 1000, 1 << 10).unwrap();
        let RowLabel::Done(gm) = label(&g, &|_| unreachable!(), &mut || false) else {
            panic!("Kayles is acyclic");
        };
        for u in 0..g.len() as u32 {
            let i = g.coords(u)[0] as usize;
            assert_eq!(gm.class(u), Class::Nimber(want[i]), "kayles({i})");
        }
    }

    #[test]
    fn windup_agrees_with_the_labelling_of_the_explicit_graph() {
        for n in [5, 12, 100] {
            // WindUp: from i ≠ 0 to (i − m) mod n, m ∈ {1, 3, 4}.
            let mut windup = ListedBy(|at: &[i64], out: &mut RowOptions| {
                if at[0] != 0 {
                    out.words
                        .extend([1, 3, 4].iter().flat_map(|m| [1, (at[0] - m + n) % n]));
                }
            });
            let g = explore(&mut windup, &[1], 1000, 1 << 10).unwrap();
            let RowLabel::Done(gm) = label(&g, &|_| unreachable!(), &mut || false) else {
                panic!("no sums");
            };
            // The explicit graph by hand, labelled by the generic γ.
            let lists: Vec<Vec<u32>> = (0..n)
                .map(|i| {
                    if i == 0 {
                        vec![]
                    } else {
                        [1, 3, 4].iter().map(|m| ((i - m + n) % n) as u32).collect()
                    }
                })
                .collect();
            let want =
                super::super::gamma(&loony_graph::Csr::from_lists(&lists), &mut || false).unwrap();
            for u in 0..g.len() as u32 {
                let i = g.coords(u)[0] as u32;
                let expect = match want.label[i as usize] {
                    INF => Class::loopy(want.a(i).to_vec()),
                    k => Class::Nimber(k),
                };
                assert_eq!(gm.class(u), expect, "WindUp({n}) at {i}");
            }
        }
    }
}
