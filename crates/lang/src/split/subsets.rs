//! Graph parts as vertex subsets of a graph met before (a root), for the Node Kayles rule on
//! bit masks (`compile/kayles.rs`).
//!
//! A position of a ruleset with that rule is expanded through the graph it was first met as
//! ([`super::Canonical::as_met`]), and its options' components are induced subgraphs of that
//! graph, renumbered in order; their options are subgraphs of those, and so on. So every part
//! below a root is a set of the root's vertices: a mask of at most 128 bits. A part is looked
//! up by its root and mask, which costs a hash of three words where the rule as written makes
//! the graph that is left, splits it, and hashes each component's edge list to find its
//! canonical form. Only a mask met for the first time makes its graph.
//!
//! Each part keeps the root and mask it was first found as, and is expanded through them
//! (the same graph as its first met graph up to isomorphism, so the same values). Everything
//! is forgotten at once past [`Subsets::MOST`] masks or [`Subsets::ROOTS_MOST`] roots; a
//! part expanded after that becomes a root of its own.

use loony_core::graphs::Graph;
use loony_core::positions::PosId;
use std::rc::Rc;

/// Graphs of more vertices than this are not roots (their rule runs as written).
pub(crate) const MOST_VERTICES: usize = 128;

/// A root: the ruleset whose part it is, its graph, and each vertex's neighbours as a mask.
struct Root {
    ruleset: u32,
    graph: Rc<Graph>,
    adj: Rc<[u128]>,
}

pub(crate) struct Subsets {
    /// Masks and roots kept at most ([`Subsets::MOST`], [`Subsets::ROOTS_MOST`]; fewer in a
    /// test).
    most: (usize, usize),
    roots: Vec<Root>,
    /// The part each (root, vertex mask) was found to be.
    parts: rustc_hash::FxHashMap<(u32, u128), PosId>,
    /// The (root, vertex mask) each part was first found as.
    placed: rustc_hash::FxHashMap<PosId, (u32, u128)>,
    /// Parts a pruned search kept as met, not labelled ([`LABELLED`]), by (root, mask).
    as_met: rustc_hash::FxHashMap<(u32, u128), PosId>,
}

/// In a pruned search, a component of more vertices than this is a part as met (its induced
/// graph, renumbered in order), not labelled: so large a subgraph of a root is seldom
/// isomorphic to another met in the same search, and labelling each cost more than the
/// repeats it found. Node Kayles on a random graph of 60 vertices and 90 edges (seed 4):
/// 3.3 s labelling all, 1.6–2.0 s past 12 vertices, 1.9–2.2 s past 8 or 10, 1.6–2.2 s past 14
/// (a search asks 135 000 questions where it asked 114 000). Outside a search (`options`)
/// every part is labelled, as the rule is written.
pub(crate) const LABELLED: u32 = 12;

/// Where a part lies: its root, the root's neighbour masks, and its vertices there.
pub(crate) struct Place {
    pub(crate) root: u32,
    pub(crate) adj: Rc<[u128]>,
    pub(crate) mask: u128,
}

impl Default for Subsets {
    fn default() -> Subsets {
        Subsets {
            most: (Self::MOST, Self::ROOTS_MOST),
            roots: Vec::new(),
            parts: Default::default(),
            placed: Default::default(),
            as_met: Default::default(),
        }
    }
}

impl Subsets {
    const MOST: usize = 1 << 20;
    const ROOTS_MOST: usize = 1 << 14;

    /// Forgets everything when full. Called before a part is placed, never while its options
    /// are being listed (their root must stay).
    pub(crate) fn make_room(&mut self) {
        if self.parts.len() + self.as_met.len() >= self.most.0 || self.roots.len() >= self.most.1 {
            self.roots.clear();
            self.parts.clear();
            self.placed.clear();
            self.as_met.clear();
        }
    }

    /// Where the part `p` lies, if it was placed.
    pub(crate) fn place(&self, p: PosId) -> Option<Place> {
        let &(root, mask) = self.placed.get(&p)?;
        Some(Place {
            root,
            adj: self.roots[root as usize].adj.clone(),
            mask,
        })
    }

    /// Makes `g` (as part `p` of ruleset `rid` was first met) a root and places `p` as all
    /// of it; `None` for a graph of more than [`MOST_VERTICES`] vertices.
    pub(crate) fn root(&mut self, rid: u32, p: PosId, g: Rc<Graph>) -> Option<Place> {
        let n = g.order();
        if n > MOST_VERTICES {
            return None;
        }
        let mut adj = vec![0u128; n];
        for &(a, b) in g.edges() {
            adj[a as usize] |= 1 << b;
            adj[b as usize] |= 1 << a;
        }
        let root = self.roots.len() as u32;
        let mask = if n == 128 { !0 } else { (1u128 << n) - 1 };
        let adj: Rc<[u128]> = adj.into();
        self.roots.push(Root {
            ruleset: rid,
            graph: g,
            adj: adj.clone(),
        });
        self.placed.insert(p, (root, mask));
        self.parts.insert((root, mask), p);
        Some(Place { root, adj, mask })
    }

    /// The part the vertices `mask` of `root` were found to be, if they were.
    pub(crate) fn part(&self, root: u32, mask: u128) -> Option<PosId> {
        self.parts.get(&(root, mask)).copied()
    }

    /// The ruleset of `root` and the subgraph its vertices `mask` induce, renumbered in order.
    pub(crate) fn induced(&self, root: u32, mask: u128) -> (u32, Graph) {
        let r = &self.roots[root as usize];
        let keep: Vec<bool> = (0..r.graph.order()).map(|v| mask >> v & 1 == 1).collect();
        (r.ruleset, r.graph.induced(&keep))
    }

    /// The part a search kept the vertices `mask` of `root` as, unlabelled, if it did.
    pub(crate) fn part_as_met(&self, root: u32, mask: u128) -> Option<PosId> {
        self.as_met.get(&(root, mask)).copied()
    }

    /// Keeps `p` as the unlabelled part the vertices `mask` of `root` are, placed there.
    pub(crate) fn keep_as_met(&mut self, root: u32, mask: u128, p: PosId) {
        self.as_met.insert((root, mask), p);
        self.placed.entry(p).or_insert((root, mask));
    }

    /// Keeps `p` as the part the vertices `mask` of `root` are (and places `p` there if it has
    /// no place yet).
    pub(crate) fn keep(&mut self, root: u32, mask: u128, p: PosId) {
        self.parts.insert((root, mask), p);
        self.placed.entry(p).or_insert((root, mask));
    }
}

/// The connected component of the vertices `left` (neighbours `adj`) holding its least vertex.
pub(crate) fn component(adj: &[u128], left: u128) -> u128 {
    let mut comp = left & left.wrapping_neg();
    let mut frontier = comp;
    while frontier != 0 {
        let mut next = 0;
        let mut f = frontier;
        while f != 0 {
            next |= adj[f.trailing_zeros() as usize];
            f &= f - 1;
        }
        frontier = next & left & !comp;
        comp |= frontier;
    }
    comp
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Components found on masks, as induced subgraphs, against union-find over the edges
    /// (`Graph::components`), on random graphs of 1 to 128 vertices.
    #[test]
    fn components_of_masks_are_the_graphs_components() {
        let mut s = 0x9e37_79b9_u64;
        let mut next = |k: u64| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
            (s >> 33) % k
        };
        for round in 0..200 {
            let n = 1 + next(128) as usize;
            let m = next(2 * n as u64) as usize;
            let edges: Vec<(i64, i64)> = (0..m)
                .map(|_| (next(n as u64) as i64, next(n as u64) as i64))
                .filter(|(a, b)| a != b)
                .collect();
            let g = Graph::new(n as i64, &edges).expect("a graph");
            let mut subsets = Subsets::default();
            let all = subsets.root(0, round, Rc::new(g.clone())).expect("small");
            let mut left = all.mask;
            let mut got = Vec::new();
            while left != 0 {
                let c = component(&all.adj, left);
                assert_eq!(c & left, c);
                got.push(subsets.induced(all.root, c).1);
                left &= !c;
            }
            assert_eq!(got, g.components(), "round {round}: {g:?}");
        }
    }

    /// Past its bounds everything is forgotten at once: no part keeps a place under a root
    /// that is gone, and roots made after are numbered afresh.
    #[test]
    fn a_full_table_forgets_every_place() {
        let mut subsets = Subsets {
            most: (8, 3),
            ..Subsets::default()
        };
        let path = Rc::new(Graph::new(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]).expect("a path"));
        for p in 0..3 {
            subsets.make_room();
            let all = subsets.root(7, p, path.clone()).expect("small");
            assert_eq!((all.root, all.mask), (p, 0b11111));
            subsets.keep(all.root, 0b00011, 100 + p);
            assert_eq!(subsets.part(all.root, 0b00011), Some(100 + p));
            assert_eq!(subsets.place(100 + p).map(|q| q.mask), Some(0b00011));
            assert_eq!(subsets.induced(all.root, 0b00110).0, 7);
        }
        // Three roots: the next room made forgets them and their parts.
        subsets.make_room();
        assert!(subsets.place(0).is_none() && subsets.place(100).is_none());
        assert_eq!(subsets.part(0, 0b00011), None);
        let again = subsets.root(7, 9, path).expect("small");
        assert_eq!(again.root, 0);
        let big = Rc::new(Graph::new(129, &[]).expect("a graph"));
        assert!(subsets.root(7, 10, big).is_none());
    }
}
