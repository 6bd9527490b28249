//! The explorer: the per-query graph of positions reachable from a game.
//!
//! Nodes get local `u32` ids in the order they are met. Store forms are interned by their store
//! id; sums are interned by their parts' local ids (so a sum reached by a move and the same sum
//! written in source are one node, and moves in a sum never touch the session store). A node is
//! *expanded* when its options are listed; nimbers and heaps are leaves whose value is known,
//! and nodes the session has valued already are left unexpanded unless an engine asks.
//!
//! Only what is shown to the user becomes a store form again ([`Explorer::game`]).

use super::Digraph;
use super::source::Source;
use crate::diag::{Error, ErrorKind};
use crate::game::{GameId, Node, Store};
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A position with Left and Right options (literal forms, ruleset positions, labelled
    /// nodes, `∞(A)`, entailing options).
    Form,
    /// A disjunctive sum; its parts are component edges, not moves.
    Sum,
    /// `∞`: Left has won.
    LeftWin,
    /// `∞̄`: Right has won.
    RightWin,
    /// `*n` (canonical nimbers, heaps, positions whose form is a nimber): never expanded.
    Nimber(u32),
    /// Valued by the session already; expanded only when an engine asks for its options.
    Known,
}

/// Which player's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

const NO_GAME: u32 = u32::MAX;

/// The graph of one query.
#[derive(Default)]
pub struct PosGraph {
    kind: Vec<Kind>,
    left: Vec<(u32, u32)>,
    right: Vec<(u32, u32)>,
    edges: Vec<u32>,
    /// The store form of each node (`NO_GAME` for sums built by the explorer).
    origin: Vec<u32>,
    expanded: Vec<bool>,
    by_game: FxHashMap<GameId, u32>,
    by_parts: FxHashMap<Box<[u32]>, u32>,
}

impl PosGraph {
    pub fn len(&self) -> usize {
        self.kind.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    pub fn kind(&self, u: u32) -> Kind {
        self.kind[u as usize]
    }

    pub fn is_expanded(&self, u: u32) -> bool {
        self.expanded[u as usize]
    }

    /// Left's options of an expanded form; the parts of a sum.
    pub fn left(&self, u: u32) -> &[u32] {
        let (s, l) = self.left[u as usize];
        &self.edges[s as usize..(s + l) as usize]
    }

    /// Right's options of an expanded form.
    pub fn right(&self, u: u32) -> &[u32] {
        let (s, l) = self.right[u as usize];
        &self.edges[s as usize..(s + l) as usize]
    }

    pub fn parts(&self, u: u32) -> &[u32] {
        debug_assert_eq!(self.kind(u), Kind::Sum);
        self.left(u)
    }

    /// A form whose Left and Right options are the same list.
    pub fn is_symmetric_list(&self, u: u32) -> bool {
        self.left[u as usize] == self.right[u as usize]
    }

    /// The store form of a node that came from the store.
    pub fn origin(&self, u: u32) -> Option<GameId> {
        match self.origin[u as usize] {
            NO_GAME => None,
            g => Some(GameId::from_index(g)),
        }
    }

    /// The local node of a store form, if the query met it.
    pub fn find(&self, g: GameId) -> Option<u32> {
        self.by_game.get(&g).copied()
    }

    fn push(&mut self, kind: Kind, origin: u32, expanded: bool) -> u32 {
        let u = self.kind.len() as u32;
        self.kind.push(kind);
        self.left.push((0, 0));
        self.right.push((0, 0));
        self.origin.push(origin);
        self.expanded.push(expanded);
        u
    }

    fn set_lists(&mut self, u: u32, left: &[u32], right: &[u32]) {
        let s = self.edges.len() as u32;
        self.edges.extend_from_slice(left);
        self.left[u as usize] = (s, left.len() as u32);
        if left == right {
            self.right[u as usize] = (s, left.len() as u32);
        } else {
            let r = self.edges.len() as u32;
            self.edges.extend_from_slice(right);
            self.right[u as usize] = (r, right.len() as u32);
        }
    }
}

impl Digraph for PosGraph {
    fn node_count(&self) -> usize {
        self.len()
    }

    fn successors(&self, u: u32) -> (&[u32], &[u32]) {
        if !self.is_expanded(u) {
            return (&[], &[]);
        }
        match self.kind(u) {
            Kind::Form if self.is_symmetric_list(u) => (self.left(u), &[]),
            Kind::Form => (self.left(u), self.right(u)),
            Kind::Sum => (self.left(u), &[]),
            _ => (&[], &[]),
        }
    }
}

/// How far the explorer goes.
#[derive(Clone, Copy, Debug)]
pub struct Reach {
    /// Leave nodes the session has valued unexpanded.
    pub stop_at_known: bool,
    /// Heaps are leaves with their nimber (normal play); otherwise their moves are listed.
    pub heaps_as_nimbers: bool,
}

impl Default for Reach {
    fn default() -> Self {
        Reach {
            stop_at_known: true,
            heaps_as_nimbers: true,
        }
    }
}

/// Builds a [`PosGraph`] on demand; holds the store and the evaluator for expansions.
pub struct Explorer<'a> {
    pub graph: PosGraph,
    pub store: &'a mut Store,
    pub src: &'a mut dyn Source,
    pub reach: Reach,
    left_win: u32,
    right_win: u32,
    zero: u32,
    steps: u32,
}

impl<'a> Explorer<'a> {
    pub fn new(store: &'a mut Store, src: &'a mut dyn Source, reach: Reach) -> Self {
        let mut e = Explorer {
            graph: PosGraph::default(),
            store,
            src,
            reach,
            left_win: 0,
            right_win: 0,
            zero: 0,
            steps: 0,
        };
        let (lw, rw, z) = (e.store.left_win(), e.store.right_win(), e.store.zero());
        e.left_win = e.fresh(lw, Kind::LeftWin, true);
        e.right_win = e.fresh(rw, Kind::RightWin, true);
        e.zero = e.fresh(z, Kind::Nimber(0), true);
        e
    }

    pub fn left_win(&self) -> u32 {
        self.left_win
    }

    pub fn right_win(&self) -> u32 {
        self.right_win
    }

    pub fn zero(&self) -> u32 {
        self.zero
    }

    fn fresh(&mut self, g: GameId, kind: Kind, expanded: bool) -> u32 {
        let u = self.graph.push(kind, g.index() as u32, expanded);
        self.graph.by_game.insert(g, u);
        u
    }

    fn poll(&mut self) -> Result<(), Error> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(4096) && self.src.interrupted() {
            return Err(Error::new(ErrorKind::Interrupted));
        }
        Ok(())
    }

    /// The local node of a store form (created unexpanded if new).
    pub fn node(&mut self, g: GameId) -> Result<u32, Error> {
        if let Some(&u) = self.graph.by_game.get(&g) {
            return Ok(u);
        }
        let u = match self.store.node(g) {
            Node::LeftWin => self.left_win,
            Node::RightWin => self.right_win,
            Node::Nimber(n) => self.fresh(g, Kind::Nimber(n), true),
            Node::Sum(parts) => {
                // The store's sums are flat, without 0 or infinities: a node of their parts.
                // (Not entered in the table of sums made by moves: a twin there is harmless.)
                let parts = parts.to_vec();
                let mut local = Vec::with_capacity(parts.len());
                for p in parts {
                    local.push(self.node(p)?);
                }
                local.sort_unstable();
                let s = self.graph.push(Kind::Sum, g.index() as u32, true);
                self.graph.set_lists(s, &local, &local);
                self.graph.by_game.insert(g, s);
                s
            }
            Node::Heap { rules, size } if self.reach.heaps_as_nimbers => {
                let v = self.src.heap_nimber(rules, size)?;
                self.fresh(g, Kind::Nimber(v), true)
            }
            _ if self.reach.stop_at_known && self.src.known(g) => self.fresh(g, Kind::Known, false),
            _ => self.fresh(g, Kind::Form, false),
        };
        Ok(u)
    }

    /// The sum of local nodes: nested sums flattened, the literal 0 dropped, ∞ absorbing.
    pub fn sum(&mut self, parts: &[u32]) -> Result<u32, Error> {
        let mut flat: Vec<u32> = Vec::with_capacity(parts.len());
        let (mut lw, mut rw) = (false, false);
        for &p in parts {
            match self.graph.kind(p) {
                Kind::Sum => flat.extend_from_slice(self.graph.parts(p)),
                // Only the literal 0 vanishes: a heap or position worth 0 still has moves.
                _ if p == self.zero => {}
                Kind::LeftWin => lw = true,
                Kind::RightWin => rw = true,
                _ => flat.push(p),
            }
        }
        match (lw, rw) {
            (true, true) => return Err(Error::new(ErrorKind::InfinitiesCollide)),
            (true, false) => return Ok(self.left_win),
            (false, true) => return Ok(self.right_win),
            _ => {}
        }
        match flat.len() {
            0 => Ok(self.zero),
            1 => Ok(flat[0]),
            _ => {
                flat.sort_unstable();
                if let Some(&s) = self.graph.by_parts.get(&flat[..]) {
                    return Ok(s);
                }
                let s = self.graph.push(Kind::Sum, NO_GAME, true);
                self.graph.set_lists(s, &flat, &flat);
                self.graph.by_parts.insert(flat.into_boxed_slice(), s);
                Ok(s)
            }
        }
    }

    /// Lists the options of `u` (once). Sums keep their parts; their moves are produced by
    /// [`Explorer::options`] without being stored.
    pub fn expand(&mut self, u: u32) -> Result<(), Error> {
        if self.graph.is_expanded(u) {
            return Ok(());
        }
        self.poll()?;
        let g = self
            .graph
            .origin(u)
            .expect("unexpanded nodes come from the store");
        let (mut left, mut right) = (Vec::new(), Vec::new());
        let mut form = g;
        loop {
            match self.store.node(form) {
                Node::Position { .. } => form = self.src.expand(self.store, form)?,
                Node::Labelled(k) => {
                    form = self.store.label_form(k).ok_or_else(|| {
                        Error::new(ErrorKind::Type {
                            message: "a label is used before its form is complete".into(),
                            label: "this labelled form".into(),
                        })
                    })?
                }
                _ => break,
            }
        }
        match self.store.node(form) {
            Node::Form { left: l, right: r } => {
                let (l, r) = (l.to_vec(), r.to_vec());
                for x in l {
                    left.push(self.node(x)?);
                }
                for x in r {
                    right.push(self.node(x)?);
                }
            }
            Node::Nimber(n) => {
                self.graph.kind[u as usize] = Kind::Nimber(n);
                self.graph.expanded[u as usize] = true;
                return Ok(());
            }
            Node::Loopy(values) => {
                let values = values.to_vec();
                for x in values {
                    left.push(self.node(x)?);
                }
                left.push(u);
                right.clone_from(&left);
            }
            Node::EntailLeft(p) => {
                left.push(self.left_win);
                let p = self.node(p)?;
                right = self.options(p, Side::Right)?;
            }
            Node::EntailRight(p) => {
                let p = self.node(p)?;
                left = self.options(p, Side::Left)?;
                right.push(self.right_win);
            }
            Node::Heap { rules, size } => {
                let mut opts = Vec::new();
                self.src.heap_options(self.store, rules, size, &mut opts)?;
                for x in opts {
                    left.push(self.node(x)?);
                }
                right.clone_from(&left);
            }
            Node::LeftWin | Node::RightWin | Node::Sum(_) => {
                unreachable!("terminals and sums are interned as such, never expanded")
            }
            Node::Position { .. } | Node::Labelled(_) => unreachable!("resolved above"),
        }
        self.graph.kind[u as usize] = Kind::Form;
        self.graph.set_lists(u, &left, &right);
        self.graph.expanded[u as usize] = true;
        Ok(())
    }

    /// The `side` options of any node: a form's lists, a nimber's smaller nimbers, and for a
    /// sum the moves in each part (new sums, interned here).
    pub fn options(&mut self, u: u32, side: Side) -> Result<Vec<u32>, Error> {
        self.expand(u)?;
        Ok(match self.graph.kind(u) {
            Kind::Form => match side {
                Side::Left => self.graph.left(u).to_vec(),
                Side::Right => self.graph.right(u).to_vec(),
            },
            Kind::Nimber(_) if self.is_heap(u) => {
                // A heap is a leaf for its value, but its moves are its own.
                let Some(Node::Heap { rules, size }) =
                    self.graph.origin(u).map(|g| self.store.node(g))
                else {
                    unreachable!("is_heap checked the origin")
                };
                let mut opts = Vec::new();
                self.src.heap_options(self.store, rules, size, &mut opts)?;
                let mut v = Vec::with_capacity(opts.len());
                for x in opts {
                    v.push(self.node(x)?);
                }
                v
            }
            Kind::Nimber(n) => {
                let mut v = Vec::with_capacity(n as usize);
                for k in 0..n {
                    let g = self.store.nimber(k);
                    v.push(self.node(g)?);
                }
                v
            }
            Kind::Sum => {
                let parts = self.graph.parts(u).to_vec();
                let mut out = Vec::new();
                let mut rest = parts.clone();
                for (i, &p) in parts.iter().enumerate() {
                    if i > 0 && parts[i - 1] == p {
                        continue; // equal parts give equal moves
                    }
                    for o in self.options(p, side)? {
                        rest[i] = o;
                        out.push(self.sum(&rest)?);
                    }
                    rest[i] = p;
                }
                out
            }
            Kind::LeftWin | Kind::RightWin => Vec::new(),
            Kind::Known => unreachable!("expand resolves known nodes"),
        })
    }

    fn is_heap(&self, u: u32) -> bool {
        self.graph
            .origin(u)
            .is_some_and(|g| matches!(self.store.node(g), Node::Heap { .. }))
    }

    /// Expands everything reachable from `root` (stopping at leaves and, if asked, at nodes the
    /// session has valued). Explicit stack: chains of millions of positions are fine.
    pub fn explore(&mut self, root: u32) -> Result<(), Error> {
        let mut seen = vec![false; self.graph.len()];
        let mut stack = vec![root];
        while let Some(u) = stack.pop() {
            if seen.len() <= u as usize {
                seen.resize(self.graph.len().max(u as usize + 1), false);
            }
            if seen[u as usize] {
                continue;
            }
            seen[u as usize] = true;
            if self.graph.kind(u) == Kind::Known {
                continue;
            }
            self.expand(u)?;
            let (a, b) = self.graph.successors(u);
            stack.extend_from_slice(a);
            stack.extend_from_slice(b);
        }
        Ok(())
    }

    /// A node as a store form, for showing it: sums built here become store sums now.
    pub fn game(&mut self, u: u32) -> Result<GameId, Error> {
        if let Some(g) = self.graph.origin(u) {
            return Ok(g);
        }
        let parts = self.graph.parts(u).to_vec();
        let mut gs = Vec::with_capacity(parts.len());
        for p in parts {
            gs.push(self.game(p)?);
        }
        Ok(self.store.sum(&gs)?)
    }

    /// Forces a known node to be expanded (an engine needs its options).
    pub fn unfold(&mut self, u: u32) -> Result<(), Error> {
        if self.graph.kind(u) == Kind::Known {
            self.graph.kind[u as usize] = Kind::Form;
        }
        self.expand(u)
    }
}
