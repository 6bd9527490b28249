//! The position-graph layer: every engine sees games through it.
//!
//! A query (a value, an outcome, the winning moves) starts at one game. The explorer
//! ([`explore`]) builds the graph of positions reachable from it — local `u32` ids, flat
//! successor arrays, per-node kinds — expanding ruleset positions, heaps and labelled forms
//! through the evaluator, and interning positions in a table that lives as long as the query.
//! Strongly connected components ([`scc`]) split it into the acyclic part (plain mex) and the
//! cycles (generalized Sprague–Grundy labelling). Analyses that learn what they need as they go
//! (the affine rule, misère links, a search) run on the demand-driven walk ([`demand`]). The
//! theory engines read the graph or use that walk; none walks games on its own.

pub mod demand;
pub mod error;
pub mod explore;
pub mod memo;
pub mod moves;
pub mod options;
pub mod row;
pub mod row_box;
pub mod scc;
pub mod source;
pub mod torus;

pub use error::GraphError;
pub use explore::{Explorer, Groups, Kind, PosGraph, Reach, Side};
pub use scc::{Sccs, sccs};
pub use source::Source;

/// A directed graph on nodes `0..node_count()`. A node's successors come as two lists (Left's
/// and Right's options, or the parts of a sum and nothing); impartial nodes give one list and an
/// empty one, so no successor is visited twice.
pub trait Digraph {
    fn node_count(&self) -> usize;
    fn successors(&self, u: u32) -> (&[u32], &[u32]);
}

/// A plain graph in compressed rows: the options of `u` are `succ[start[u]..start[u + 1]]`.
/// Used for explicit graphs (tests, benchmarks) and as the impartial view of a position graph.
#[derive(Clone, Debug, Default)]
pub struct Csr {
    pub start: Vec<u32>,
    pub succ: Vec<u32>,
}

impl Csr {
    pub fn from_lists(lists: &[Vec<u32>]) -> Self {
        let mut g = Csr {
            start: Vec::with_capacity(lists.len() + 1),
            succ: Vec::new(),
        };
        g.start.push(0);
        for l in lists {
            g.succ.extend_from_slice(l);
            g.start.push(g.succ.len() as u32);
        }
        g
    }

    pub fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn options(&self, u: u32) -> &[u32] {
        &self.succ[self.start[u as usize] as usize..self.start[u as usize + 1] as usize]
    }

    /// The reversed graph (predecessor lists), with multiplicities.
    pub fn reversed(&self) -> Csr {
        let n = self.len();
        let mut count = vec![0u32; n + 1];
        for &v in &self.succ {
            count[v as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut pred = vec![0u32; self.succ.len()];
        for u in 0..n as u32 {
            for &v in self.options(u) {
                pred[fill[v as usize] as usize] = u;
                fill[v as usize] += 1;
            }
        }
        Csr {
            start: count,
            succ: pred,
        }
    }
}

impl Digraph for Csr {
    fn node_count(&self) -> usize {
        self.len()
    }

    fn successors(&self, u: u32) -> (&[u32], &[u32]) {
        (self.options(u), &[])
    }
}
