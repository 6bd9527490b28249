//! Simple undirected graphs on vertices `0..n`: values of the language (Node Kayles, Snort,
//! Geography) and ruleset arguments, equal when their vertex counts and edge sets are.
//! Removing vertices renumbers the rest in order, so a position is the graph that is left.
//!
//! [`Graph::canonical`] names a graph's isomorphism class by a canonical labelling:
//! colour refinement to an equitable partition, then individualisation of the vertices of the
//! first non-singleton cell, one branch each, keeping the least relabelled edge list. Two
//! leaves that give the same graph give an automorphism; a child in the orbit of one already
//! searched, under the automorphisms found that fix the vertices individualised above it, is
//! skipped (its subtree is an image of the other's), and a leaf that shows the branch it ends
//! to repeat an earlier one sends the search back up to that branch. Twins (vertices with the
//! same neighbours besides each other) are skipped before any leaf: swapping them is an
//! automorphism. Without this, a tree with many equal branches meets every labelling. The
//! search is exact; past [`SEARCH_LIMIT`] refinements it keeps the least labelling found so
//! far, which is still the same graph, so a value is never wrong (symmetric positions may then
//! have two memo entries instead of one).

use std::fmt;

/// Refinements one canonical labelling may spend before keeping the best labelling so far.
pub const SEARCH_LIMIT: usize = 20_000;

#[derive(Clone, Debug)]
pub struct Graph {
    n: u32,
    /// Each edge once, `(a, b)` with `a < b`, sorted.
    edges: Box<[(u32, u32)]>,
    /// A hash of the vertices and edges, made with the graph: a graph is hashed each time a
    /// position holding it is interned or looked up, and its edges are many words.
    hash: u64,
}

impl PartialEq for Graph {
    fn eq(&self, o: &Graph) -> bool {
        self.hash == o.hash && self.n == o.n && self.edges == o.edges
    }
}

impl Eq for Graph {}

impl std::hash::Hash for Graph {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// Graphs order by vertices, then edges.
impl Ord for Graph {
    fn cmp(&self, o: &Graph) -> std::cmp::Ordering {
        (self.n, &self.edges).cmp(&(o.n, &o.edges))
    }
}

impl PartialOrd for Graph {
    fn partial_cmp(&self, o: &Graph) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
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
        Graph::from_sorted(n, edges)
    }

    /// Edges already sorted, each once with `a < b` (renumbering in order keeps them so).
    fn from_sorted(n: u32, edges: Vec<(u32, u32)>) -> Graph {
        debug_assert!(edges.windows(2).all(|w| w[0] < w[1]));
        let mix = |h: u64, x: u64| (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(26);
        let hash = edges.iter().fold(mix(0, u64::from(n)), |h, &(a, b)| {
            mix(h, u64::from(a) << 32 | u64::from(b))
        });
        Graph {
            n,
            edges: edges.into(),
            hash,
        }
    }

    pub fn order(&self) -> usize {
        self.n as usize
    }

    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// Neighbour lists in one flat array: the neighbours of `v`, sorted, are
    /// `list[start[v]..start[v + 1]]`.
    pub fn adjacency(&self) -> Adjacency {
        let n = self.order();
        let mut start = vec![0u32; n + 1];
        for &(a, b) in self.edges.iter() {
            start[a as usize + 1] += 1;
            start[b as usize + 1] += 1;
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut list = vec![0u32; 2 * self.edges.len()];
        // Edges sorted by (a, b): each list receives its smaller neighbours (as `b`, in order
        // of `a`) before its larger ones (as `a`, in order of `b`), so every list is sorted.
        for &(a, b) in self.edges.iter() {
            list[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
        for &(a, b) in self.edges.iter() {
            list[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
        }
        Adjacency { start, list }
    }

    /// The neighbours of `v` (a vertex of the graph), in order.
    pub fn neighbours(&self, v: u32) -> Vec<u32> {
        let out: Vec<u32> = self
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
        // Sorted already: the edges `(a, v)` come in order of `a < v`, then `(v, b)` in order.
        debug_assert!(out.windows(2).all(|w| w[0] < w[1]));
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
        // Counted first, so the edge list is allocated once at its size.
        let kept = |&&(a, b): &&(u32, u32)| keep[a as usize] && keep[b as usize];
        let mut edges = Vec::with_capacity(self.edges.iter().filter(kept).count());
        edges.extend(
            self.edges
                .iter()
                .filter(kept)
                .map(|&(a, b)| (new[a as usize], new[b as usize])),
        );
        Graph::from_sorted(k, edges)
    }

    /// The connected components, in order of their least vertices, each renumbered in order.
    pub fn components(&self) -> Vec<Graph> {
        let n = self.order();
        // Union-find over the edges, then each vertex's component numbered by its least vertex.
        let mut parent: Vec<u32> = (0..n as u32).collect();
        for &(a, b) in self.edges.iter() {
            let (x, y) = (root(&mut parent, a), root(&mut parent, b));
            if x != y {
                parent[x.max(y) as usize] = x.min(y);
            }
        }
        let mut comp = vec![u32::MAX; n];
        let mut new = vec![0u32; n];
        let mut sizes: Vec<u32> = Vec::new();
        for v in 0..n as u32 {
            let r = root(&mut parent, v) as usize;
            if comp[r] == u32::MAX {
                comp[r] = sizes.len() as u32;
                sizes.push(0);
            }
            let c = comp[r];
            comp[v as usize] = c;
            new[v as usize] = sizes[c as usize];
            sizes[c as usize] += 1;
        }
        if sizes.len() == 1 {
            return vec![self.clone()];
        }
        let mut counts = vec![0usize; sizes.len()];
        for &(a, _) in self.edges.iter() {
            counts[comp[a as usize] as usize] += 1;
        }
        let mut edges: Vec<Vec<(u32, u32)>> = counts.into_iter().map(Vec::with_capacity).collect();
        // Renumbering in order within a component keeps each component's edges sorted.
        for &(a, b) in self.edges.iter() {
            edges[comp[a as usize] as usize].push((new[a as usize], new[b as usize]));
        }
        sizes
            .into_iter()
            .zip(edges)
            .map(|(k, e)| Graph::from_sorted(k, e))
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
        let mut search = Canon::new(self, &adj);
        // Refining one cell gives ranks of degree first: start there (the same colours).
        let colours = (0..self.order() as u32)
            .map(|v| adj.of(v).len() as u32)
            .collect();
        let start = search.refine(colours);
        search.descend(start);
        search.best.expect("a leaf is always reached").0
    }
}

/// A graph's neighbour lists in one flat array (see [`Graph::adjacency`]).
pub struct Adjacency {
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Adjacency {
    pub fn of(&self, v: u32) -> &[u32] {
        &self.list[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }
}

struct Canon<'a> {
    g: &'a Graph,
    adj: &'a Adjacency,
    /// The least leaf so far and its labelling (vertex → label).
    best: Option<(Graph, Vec<u32>)>,
    /// Automorphisms found (vertex → vertex): two leaves that give the same graph.
    autos: Vec<Vec<u32>>,
    /// The vertices individualised on the way to the node being searched, one a level.
    path: Vec<u32>,
    /// The children already searched at each level of `path`.
    tried: Vec<Vec<u32>>,
    spent: usize,
    /// Buffers [`Canon::refine`] reuses from call to call: the vertices in colour order, the
    /// next colours, each vertex's signature's place in the signatures.
    order: Vec<u32>,
    next: Vec<u32>,
    at: Vec<(u32, u32)>,
    sig: Vec<u32>,
}

impl<'a> Canon<'a> {
    fn new(g: &'a Graph, adj: &'a Adjacency) -> Canon<'a> {
        Canon {
            g,
            adj,
            best: None,
            autos: Vec::new(),
            path: Vec::new(),
            tried: Vec::new(),
            spent: 0,
            order: Vec::new(),
            next: Vec::new(),
            at: Vec::new(),
            sig: Vec::new(),
        }
    }

    /// Colour refinement to the coarsest equitable partition finer than `colours`; colours are
    /// ranks of signatures (a vertex's colour, then its neighbours' colours sorted), so they
    /// depend on the graph's structure and not on its labels.
    ///
    /// The vertices are kept in order of colour from round to round (a new colour is a rank
    /// that orders first by the old one), so a round sorts only within each cell of more than
    /// one vertex, by its vertices' neighbours' colours; a vertex alone in its cell keeps its
    /// place and needs no signature. Deep in the search most cells are single vertices. (Also
    /// skipping cells with no neighbour in a cell that just split was slower on the parts of
    /// Node Kayles, of about 20 vertices.) One flat buffer holds every signature, and the
    /// buffers are the search's, reused from call to call.
    fn refine(&mut self, mut colours: Vec<u32>) -> Vec<u32> {
        self.spent += 1;
        let n = colours.len();
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend(0..n as u32);
        order.sort_unstable_by_key(|&v| colours[v as usize]);
        let mut next = std::mem::take(&mut self.next);
        next.clear();
        next.resize(n, 0);
        // Dense ranks of the colours given: the same order, so the same signatures' order.
        let mut cells = 0;
        for i in 0..n {
            let (v, w) = (order[i] as usize, order[i.saturating_sub(1)] as usize);
            if i > 0 && colours[v] != colours[w] {
                cells += 1;
            }
            next[v] = cells as u32;
        }
        cells += usize::from(n > 0);
        std::mem::swap(&mut colours, &mut next);
        let mut sig = std::mem::take(&mut self.sig);
        let mut at = std::mem::take(&mut self.at);
        at.resize(n, (0, 0));
        loop {
            sig.clear();
            let mut i = 0;
            while i < n {
                let c = colours[order[i] as usize];
                let mut j = i + 1;
                while j < n && colours[order[j] as usize] == c {
                    j += 1;
                }
                if j - i > 1 {
                    for &v in &order[i..j] {
                        let start = sig.len();
                        sig.extend(self.adj.of(v).iter().map(|&w| colours[w as usize]));
                        sig[start..].sort_unstable();
                        at[v as usize] = (start as u32, sig.len() as u32);
                    }
                    let key = |v: u32| {
                        let (a, b) = at[v as usize];
                        &sig[a as usize..b as usize]
                    };
                    order[i..j].sort_unstable_by(|&x, &y| key(x).cmp(key(y)));
                }
                i = j;
            }
            let key = |v: u32| {
                let (a, b) = at[v as usize];
                &sig[a as usize..b as usize]
            };
            let mut rank = 0;
            if n > 0 {
                next[order[0] as usize] = 0;
            }
            for i in 1..n {
                let (u, v) = (order[i - 1], order[i]);
                // Two vertices of one colour are in a cell of more than one: both signed.
                if colours[u as usize] != colours[v as usize] || key(u) != key(v) {
                    rank += 1;
                }
                next[v as usize] = rank;
            }
            std::mem::swap(&mut colours, &mut next);
            let now = if n == 0 { 0 } else { rank as usize + 1 };
            if now == cells {
                (self.order, self.next, self.at, self.sig) = (order, next, at, sig);
                return colours;
            }
            cells = now;
        }
    }

    #[cfg(test)]
    /// [`Canon::refine`] as it was first written, every round a sort of every vertex's
    /// signature: the reference its results are checked against.
    ///
    /// Colour refinement to the coarsest equitable partition finer than `colours`; colours are
    /// ranks of signatures (a vertex's colour, then its neighbours' colours sorted), so they
    /// depend on the graph's structure and not on its labels. One flat buffer holds every
    /// signature; nothing is allocated per vertex.
    fn refine_by_full_sorts(&mut self, mut colours: Vec<u32>) -> Vec<u32> {
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
                sig.extend(self.adj.of(v as u32).iter().map(|&w| colours[w as usize]));
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

    /// Searches the node whose individualised vertices are `self.path`, with its refined
    /// colours. `Some(level)`: an automorphism found below shows that the child chosen at
    /// `level` repeats one searched before, so the search goes back up to that level.
    fn descend(&mut self, colours: Vec<u32>) -> Option<usize> {
        let n = colours.len();
        // The first (least colour) cell of more than one vertex.
        let mut size = vec![0usize; n];
        for &c in &colours {
            size[c as usize] += 1;
        }
        let Some(target) = (0..n).find(|&c| size[c] > 1) else {
            return self.leaf(colours);
        };
        let level = self.path.len();
        let cell: Vec<u32> = (0..n as u32)
            .filter(|&v| colours[v as usize] == target as u32)
            .collect();
        self.tried.push(Vec::new());
        let mut back = None;
        for &v in &cell {
            if self.best.is_some() && self.spent >= SEARCH_LIMIT {
                break;
            }
            let tried = &self.tried[level];
            if tried.iter().any(|&u| self.twins(u, v)) || self.same_orbit(level, v) {
                continue;
            }
            self.tried[level].push(v);
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
            self.path.push(v);
            let up = self.descend(refined);
            self.path.pop();
            if let Some(l) = up
                && l < level
            {
                back = Some(l);
                break;
            }
        }
        self.tried.pop();
        back
    }

    /// A leaf: `colours` is a labelling. Keeps the least relabelled graph; a leaf equal to
    /// the best gives an automorphism, and the search goes back to the highest level whose
    /// current child it shows to repeat an earlier one.
    fn leaf(&mut self, label: Vec<u32>) -> Option<usize> {
        let leaf = self.g.relabel(&label);
        let Some((best, best_label)) = &self.best else {
            self.best = Some((leaf, label));
            return None;
        };
        match leaf.cmp(best) {
            std::cmp::Ordering::Less => {
                self.best = Some((leaf, label));
                None
            }
            std::cmp::Ordering::Greater => None,
            std::cmp::Ordering::Equal => {
                // v ↦ the vertex the best leaf labels as this leaf labels v.
                let mut inverse = vec![0u32; label.len()];
                for (v, &l) in best_label.iter().enumerate() {
                    inverse[l as usize] = v as u32;
                }
                let auto: Vec<u32> = label.iter().map(|&l| inverse[l as usize]).collect();
                if auto.iter().enumerate().all(|(v, &w)| v as u32 == w) {
                    return None;
                }
                self.autos.push(auto);
                (0..self.path.len()).find(|&l| self.same_orbit(l, self.path[l]))
            }
        }
    }

    /// Whether `v` is in the orbit of a child already searched at `level` under the
    /// automorphisms found that fix the vertices individualised above it: their subtrees are
    /// images of each other, with the same leaves.
    fn same_orbit(&self, level: usize, v: u32) -> bool {
        let tried = &self.tried[level];
        if tried.is_empty() || self.autos.is_empty() {
            return false;
        }
        let prefix = &self.path[..level];
        let n = self.g.order();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        let mut any = false;
        for a in &self.autos {
            if prefix.iter().any(|&p| a[p as usize] != p) {
                continue;
            }
            any = true;
            for (x, &y) in a.iter().enumerate() {
                let (rx, ry) = (root(&mut parent, x as u32), root(&mut parent, y));
                if rx != ry {
                    parent[rx.max(ry) as usize] = rx.min(ry);
                }
            }
        }
        if !any {
            return false;
        }
        let rv = root(&mut parent, v);
        tried.iter().any(|&u| u != v && root(&mut parent, u) == rv)
    }

    /// Whether swapping `u` and `v` fixes the graph: the same neighbours besides each other.
    fn twins(&self, u: u32, v: u32) -> bool {
        let mut a = self.adj.of(u).iter().filter(|&&w| w != v);
        let mut b = self.adj.of(v).iter().filter(|&&w| w != u);
        loop {
            match (a.next(), b.next()) {
                (None, None) => return true,
                (Some(x), Some(y)) if x == y => {}
                _ => return false,
            }
        }
    }
}

/// The root of `v` in a union-find forest (`parent[r] == r` at a root), halving the path.
fn root(parent: &mut [u32], mut v: u32) -> u32 {
    while parent[v as usize] != v {
        let up = parent[parent[v as usize] as usize];
        parent[v as usize] = up;
        v = up;
    }
    v
}

#[cfg(test)]
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

    /// A small generator of the test's own (no dependency): xorshift.
    fn rng(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut s = seed | 1;
        move |m| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s % m
        }
    }

    /// Refinement that sorts only within cells gives the colours that sorting every
    /// vertex's signature every round gives, on random graphs of 0 to 80 vertices (sparse and
    /// dense) from random starting colours, including colours that are not ranks, and from
    /// degrees the colours it gives from one cell.
    #[test]
    fn refinement_within_cells_matches_full_sorts() {
        let mut r = rng(11);
        for round in 0..400 {
            let n = r(81) as usize;
            let m = if n < 2 { 0 } else { r(3 * n as u64) as usize };
            let e: Vec<(i64, i64)> = (0..m)
                .map(|_| (r(n as u64) as i64, r(n as u64) as i64))
                .filter(|(a, b)| a != b)
                .collect();
            let x = g(n as i64, &e);
            let adj = x.adjacency();
            let spread = 1 + r(6);
            let start: Vec<u32> = (0..n).map(|_| 2 * r(spread) as u32).collect();
            let want = Canon::new(&x, &adj).refine_by_full_sorts(start.clone());
            assert_eq!(
                Canon::new(&x, &adj).refine(start),
                want,
                "round {round}: {x}"
            );
            // Starting from degrees (as `canonical` does) is starting from one cell.
            let one_cell = Canon::new(&x, &adj).refine_by_full_sorts(vec![0; n]);
            let degrees = (0..n as u32).map(|v| adj.of(v).len() as u32).collect();
            assert_eq!(
                Canon::new(&x, &adj).refine(degrees),
                one_cell,
                "round {round}: {x}"
            );
        }
    }

    /// Random graphs of 7 vertices: equal canonical graphs exactly when a brute force over
    /// all 5 040 labellings finds an isomorphism (pairs taken with equal degree sequences,
    /// where refinement alone cannot tell them apart).
    #[test]
    fn canonical_matches_brute_force_on_random_graphs() {
        let mut r = rng(7);
        let perms: Vec<Vec<u32>> = permutations(7)
            .into_iter()
            .filter(|p| p.len() == 7)
            .collect();
        let graphs: Vec<Graph> = (0..60)
            .map(|_| {
                let m = 4 + r(10) as usize;
                let e: Vec<(i64, i64)> = (0..m)
                    .map(|_| (r(7) as i64, r(7) as i64))
                    .filter(|(a, b)| a != b)
                    .collect();
                g(7, &e)
            })
            .collect();
        let degrees = |x: &Graph| {
            let a = x.adjacency();
            let mut d: Vec<usize> = (0..7).map(|v| a.of(v).len()).collect();
            d.sort();
            d
        };
        let mut compared = 0;
        for (i, x) in graphs.iter().enumerate() {
            let p = &perms[r(perms.len() as u64) as usize];
            assert_eq!(x.relabel(p).canonical(), x.canonical(), "{x}");
            for y in &graphs[i + 1..] {
                if degrees(x) != degrees(y) {
                    continue;
                }
                compared += 1;
                let iso = perms.iter().any(|p| x.relabel(p) == *y);
                assert_eq!(x.canonical() == y.canonical(), iso, "{x} {y}");
            }
        }
        assert!(compared > 20, "only {compared} pairs compared");
    }

    /// Graphs with large automorphism groups (a complete binary tree, a grid, a cycle, the
    /// Petersen graph, stars of paths): every relabelling gives one canonical graph, and the
    /// automorphisms found keep the search to few refinements.
    #[test]
    fn symmetric_graphs_are_labelled_quickly() {
        let tree: Vec<(i64, i64)> = (1..31).map(|v| ((v - 1) / 2, v)).collect();
        let grid: Vec<(i64, i64)> = (0..16)
            .flat_map(|v| {
                let mut e = Vec::new();
                if v % 4 < 3 {
                    e.push((v, v + 1));
                }
                if v < 12 {
                    e.push((v, v + 4));
                }
                e
            })
            .collect();
        let cycle: Vec<(i64, i64)> = (0..12).map(|v| (v, (v + 1) % 12)).collect();
        let petersen: Vec<(i64, i64)> = (0..5)
            .flat_map(|v| [(v, (v + 1) % 5), (v, v + 5), (v + 5, (v + 2) % 5 + 5)])
            .collect();
        // Eight paths of three vertices from one centre.
        let spider: Vec<(i64, i64)> = (0..8)
            .flat_map(|k| {
                [
                    (0, 3 * k + 1),
                    (3 * k + 1, 3 * k + 2),
                    (3 * k + 2, 3 * k + 3),
                ]
            })
            .collect();
        let mut r = rng(11);
        for (n, e) in [
            (31, tree),
            (16, grid),
            (12, cycle),
            (10, petersen),
            (25, spider),
        ] {
            let x = g(n, &e);
            let c = x.canonical();
            for _ in 0..20 {
                let mut p: Vec<u32> = (0..n as u32).collect();
                for i in (1..p.len()).rev() {
                    p.swap(i, r(i as u64 + 1) as usize);
                }
                assert_eq!(x.relabel(&p).canonical(), c, "{x}");
            }
            let adj = x.adjacency();
            let mut search = Canon::new(&x, &adj);
            let start = search.refine(vec![0; x.order()]);
            search.descend(start);
            assert!(search.spent < 400, "{x}: {} refinements", search.spent);
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
