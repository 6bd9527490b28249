//! Simple undirected graphs on vertices `0..n`: values of the language (Node Kayles, Snort,
//! Geography) and ruleset arguments, equal when their vertex counts and edge sets are.
//! Removing vertices renumbers the rest in order, so a position is the graph that is left.
//!
//! [`Graph::canonical`] names a graph's isomorphism class by a canonical labelling:
//! colour refinement to an equitable partition, then individualisation of the vertices of the
//! first non-singleton cell, one branch each (vertices that are twins of one already tried are
//! skipped: swapping twins is an automorphism), keeping the least relabelled edge list. The
//! search is exact; past [`SEARCH_LIMIT`] refinements it keeps the least labelling found so
//! far, which is still the same graph, so a value is never wrong (symmetric positions may then
//! have two memo entries instead of one).

use std::fmt;

/// Refinements one canonical labelling may spend before keeping the best labelling so far.
pub const SEARCH_LIMIT: usize = 20_000;

#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Graph {
    n: u32,
    /// Each edge once, `(a, b)` with `a < b`, sorted.
    edges: Box<[(u32, u32)]>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GraphError {
    /// An edge names a vertex outside `0..n`.
    MissingVertex { vertex: i64, n: usize },
    /// An edge from a vertex to itself.
    Loop { vertex: i64 },
    /// A negative vertex count, or more than `u32` can number.
    BadOrder { n: i64 },
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::MissingVertex { vertex, n } => write!(
                f,
                "vertex {vertex} is not in the graph (its vertices are 0 to {})",
                *n as i64 - 1
            ),
            GraphError::Loop { vertex } => write!(
                f,
                "the edge ({vertex}, {vertex}) is a loop; these graphs are simple"
            ),
            GraphError::BadOrder { n } => write!(f, "a graph has 0 or more vertices, not {n}"),
        }
    }
}

impl Graph {
    /// The graph on `0..n` with these edges (either way round, repeats ignored).
    pub fn new(n: i64, edges: &[(i64, i64)]) -> Result<Graph, GraphError> {
        if !(0..=u32::MAX as i64 / 2).contains(&n) {
            return Err(GraphError::BadOrder { n });
        }
        let mut out = Vec::with_capacity(edges.len());
        for &(a, b) in edges {
            for v in [a, b] {
                if !(0..n).contains(&v) {
                    return Err(GraphError::MissingVertex {
                        vertex: v,
                        n: n as usize,
                    });
                }
            }
            if a == b {
                return Err(GraphError::Loop { vertex: a });
            }
            out.push((a.min(b) as u32, a.max(b) as u32));
        }
        Ok(Graph::from_edges(n as u32, out))
    }

    fn from_edges(n: u32, mut edges: Vec<(u32, u32)>) -> Graph {
        edges.sort_unstable();
        edges.dedup();
        Graph {
            n,
            edges: edges.into(),
        }
    }

    pub fn order(&self) -> usize {
        self.n as usize
    }

    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// Neighbour lists, each sorted.
    pub fn adjacency(&self) -> Vec<Vec<u32>> {
        let mut adj = vec![Vec::new(); self.order()];
        for &(a, b) in self.edges.iter() {
            adj[a as usize].push(b);
            adj[b as usize].push(a);
        }
        for l in &mut adj {
            l.sort_unstable();
        }
        adj
    }

    /// The neighbours of `v` (a vertex of the graph), in order.
    pub fn neighbours(&self, v: u32) -> Vec<u32> {
        let mut out: Vec<u32> = self
            .edges
            .iter()
            .filter_map(|&(a, b)| {
                if a == v {
                    Some(b)
                } else if b == v {
                    Some(a)
                } else {
                    None
                }
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// The graph induced on the vertices kept (`keep[v]`), renumbered in order.
    pub fn induced(&self, keep: &[bool]) -> Graph {
        let mut new = vec![u32::MAX; self.order()];
        let mut k = 0;
        for v in 0..self.order() {
            if keep[v] {
                new[v] = k;
                k += 1;
            }
        }
        let edges = self
            .edges
            .iter()
            .filter(|&&(a, b)| keep[a as usize] && keep[b as usize])
            .map(|&(a, b)| (new[a as usize], new[b as usize]))
            .collect();
        Graph::from_edges(k, edges)
    }

    /// The connected components, in order of their least vertices, each renumbered in order.
    pub fn components(&self) -> Vec<Graph> {
        let n = self.order();
        let adj = self.adjacency();
        let mut comp = vec![u32::MAX; n];
        let mut count = 0;
        let mut stack = Vec::new();
        for s in 0..n {
            if comp[s] != u32::MAX {
                continue;
            }
            comp[s] = count;
            stack.push(s);
            while let Some(v) = stack.pop() {
                for &w in &adj[v] {
                    if comp[w as usize] == u32::MAX {
                        comp[w as usize] = count;
                        stack.push(w as usize);
                    }
                }
            }
            count += 1;
        }
        (0..count)
            .map(|c| {
                let keep: Vec<bool> = comp.iter().map(|&x| x == c).collect();
                self.induced(&keep)
            })
            .collect()
    }

    /// The graph relabelled by `label` (vertex `v` becomes `label[v]`).
    fn relabel(&self, label: &[u32]) -> Graph {
        let edges = self
            .edges
            .iter()
            .map(|&(a, b)| {
                let (x, y) = (label[a as usize], label[b as usize]);
                (x.min(y), x.max(y))
            })
            .collect();
        Graph::from_edges(self.n, edges)
    }

    /// A canonical representative of the graph's isomorphism class (see the module notes).
    pub fn canonical(&self) -> Graph {
        let adj = self.adjacency();
        let mut search = Canon {
            g: self,
            adj: &adj,
            best: None,
            spent: 0,
        };
        let colours = vec![0u32; self.order()];
        let start = search.refine(colours);
        search.descend(start);
        search.best.expect("a leaf is always reached")
    }
}

struct Canon<'a> {
    g: &'a Graph,
    adj: &'a [Vec<u32>],
    best: Option<Graph>,
    spent: usize,
}

impl Canon<'_> {
    /// Colour refinement to the coarsest equitable partition finer than `colours`; colours are
    /// ranks of signatures (a vertex's colour, then its neighbours' colours sorted), so they
    /// depend on the graph's structure and not on its labels. One flat buffer holds every
    /// signature; nothing is allocated per vertex.
    fn refine(&mut self, mut colours: Vec<u32>) -> Vec<u32> {
        self.spent += 1;
        let n = colours.len();
        let mut cells = count(&colours);
        let mut sig: Vec<u32> = Vec::with_capacity(n + 2 * self.g.edges.len());
        let mut at: Vec<(u32, u32)> = Vec::with_capacity(n);
        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut next = vec![0u32; n];
        loop {
            sig.clear();
            at.clear();
            for v in 0..n {
                let start = sig.len();
                sig.push(colours[v]);
                sig.extend(self.adj[v].iter().map(|&w| colours[w as usize]));
                sig[start + 1..].sort_unstable();
                at.push((start as u32, sig.len() as u32));
            }
            let key = |v: u32| {
                let (a, b) = at[v as usize];
                &sig[a as usize..b as usize]
            };
            order.sort_unstable_by(|&x, &y| key(x).cmp(key(y)));
            let mut rank = 0;
            for i in 0..n {
                if i > 0 && key(order[i]) != key(order[i - 1]) {
                    rank += 1;
                }
                next[order[i] as usize] = rank;
            }
            std::mem::swap(&mut colours, &mut next);
            let now = if n == 0 { 0 } else { rank as usize + 1 };
            if now == cells {
                return colours;
            }
            cells = now;
        }
    }

    fn descend(&mut self, colours: Vec<u32>) {
        let n = colours.len();
        // The first (least colour) cell of more than one vertex.
        let mut size = vec![0usize; n];
        for &c in &colours {
            size[c as usize] += 1;
        }
        let Some(target) = (0..n).find(|&c| size[c] > 1) else {
            let leaf = self.g.relabel(&colours);
            if self.best.as_ref().is_none_or(|b| leaf < *b) {
                self.best = Some(leaf);
            }
            return;
        };
        let cell: Vec<u32> = (0..n as u32)
            .filter(|&v| colours[v as usize] == target as u32)
            .collect();
        let mut tried: Vec<u32> = Vec::new();
        for &v in &cell {
            if self.best.is_some() && self.spent >= SEARCH_LIMIT {
                return;
            }
            if tried.iter().any(|&u| self.twins(u, v)) {
                continue;
            }
            tried.push(v);
            // `v` keeps the cell's colour; the rest of the cell moves just after it.
            let split: Vec<u32> = colours
                .iter()
                .enumerate()
                .map(|(w, &c)| {
                    let c = c * 2;
                    if c == target as u32 * 2 && w as u32 != v {
                        c + 1
                    } else {
                        c
                    }
                })
                .collect();
            let refined = self.refine(split);
            self.descend(refined);
        }
    }

    /// Whether swapping `u` and `v` fixes the graph: the same neighbours besides each other.
    fn twins(&self, u: u32, v: u32) -> bool {
        let mut a = self.adj[u as usize].iter().filter(|&&w| w != v);
        let mut b = self.adj[v as usize].iter().filter(|&&w| w != u);
        loop {
            match (a.next(), b.next()) {
                (None, None) => return true,
                (Some(x), Some(y)) if x == y => {}
                _ => return false,
            }
        }
    }
}

/// How many colours `colours` uses.
fn count(colours: &[u32]) -> usize {
    let mut c = colours.to_vec();
    c.sort_unstable();
    c.dedup();
    c.len()
}

impl fmt::Display for Graph {
    /// `graph(4, [(0, 1), (1, 2)])`, as it is written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "graph({}, [", self.n)?;
        for (i, (a, b)) in self.edges.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "({a}, {b})")?;
        }
        write!(f, "])")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(n: i64, e: &[(i64, i64)]) -> Graph {
        Graph::new(n, e).unwrap()
    }

    /// Every relabelling of a graph has the same canonical graph, and graphs that are not
    /// isomorphic (told apart by a brute force over all labellings) have different ones.
    #[test]
    fn canonical_is_an_isomorphism_invariant() {
        let graphs = [
            g(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]),
            g(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]),
            g(5, &[(0, 1), (0, 2), (0, 3), (0, 4)]),
            g(5, &[(0, 1), (1, 2), (2, 0), (3, 4)]),
            g(6, &[(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)]),
            g(6, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)]),
            g(4, &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]),
            g(6, &[(0, 1), (0, 2), (1, 2), (3, 4), (3, 5)]),
            g(5, &[]),
        ];
        let perms = permutations(6);
        for x in &graphs {
            let c = x.canonical();
            for p in &perms {
                if p.len() != x.order() {
                    continue;
                }
                assert_eq!(x.relabel(p).canonical(), c, "{x}");
            }
        }
        for (i, x) in graphs.iter().enumerate() {
            for y in &graphs[i + 1..] {
                let iso = x.order() == y.order()
                    && perms
                        .iter()
                        .any(|p| p.len() == x.order() && x.relabel(p) == *y);
                assert_eq!(x.canonical() == y.canonical(), iso, "{x} {y}");
            }
        }
    }

    fn permutations(n: u32) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        let mut cur: Vec<u32> = Vec::new();
        fn go(n: u32, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
            if cur.len() as u32 == n {
                out.push(cur.clone());
                return;
            }
            for v in 0..n {
                if !cur.contains(&v) {
                    cur.push(v);
                    go(n, cur, out);
                    cur.pop();
                }
            }
        }
        // Permutations of 0..k for every k ≤ n (a graph of k vertices takes those of 0..k).
        for k in 1..=n {
            go(k, &mut cur, &mut out);
        }
        out
    }

    #[test]
    fn components_and_removal_renumber() {
        let x = g(6, &[(0, 1), (2, 3), (3, 4)]);
        let c = x.components();
        assert_eq!(c, vec![g(2, &[(0, 1)]), g(3, &[(0, 1), (1, 2)]), g(1, &[])]);
        let keep = [true, false, true, true, false, true];
        assert_eq!(x.induced(&keep), g(4, &[(1, 2)]));
        assert_eq!(x.to_string(), "graph(6, [(0, 1), (2, 3), (3, 4)])");
        assert_eq!(
            Graph::new(3, &[(0, 3)]),
            Err(GraphError::MissingVertex { vertex: 3, n: 3 })
        );
    }
}
