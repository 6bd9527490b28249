//! The explorer: the per-query graph of positions reachable from a game.
//!
//! Nodes get local `u32` ids in the order they are met. Store forms are interned by their store
//! id; sums are interned by their parts' local ids (so a sum reached by a move and the same sum
//! written in source are one node, and moves in a sum never touch the session store). A node is
//! *expanded* when its options are listed; nimbers and heaps are leaves whose value is known,
//! and nodes the session has valued already are left unexpanded unless an engine asks.
//!
//! Only what is shown to the user becomes a store form again ([`Explorer::game`]).

mod entailing;
mod pos_graph;
mod position;
mod sum;

pub use pos_graph::{Groups, Kind, PosGraph, Side};

use super::Digraph;
use super::source::Source;
use crate::error::GraphError;
use crate::memo::Key;
use crate::options::{Atom, OptBuf};
use loony_core::class::Class;
use loony_core::diag::{CoreError, Error};
use loony_core::game::{GameId, Node, Store};
use loony_core::positions::PosId;
use loony_syntax::ast::OptionKind;
use pos_graph::{EXPANDED, POS, SYNTH, Synth};

/// How far the explorer goes.
#[derive(Clone, Copy, Debug)]
pub struct Reach {
    /// Leave nodes the session has valued unexpanded.
    pub stop_at_known: bool,
    /// Heaps are leaves with their nimber (normal play); otherwise their moves are listed.
    pub heaps_as_nimbers: bool,
    /// Only values are asked: an option whose parts are all valued already becomes a shared
    /// leaf of its class instead of a node of its own (moves are not listed then).
    pub fold_known: bool,
}

impl Default for Reach {
    fn default() -> Self {
        Reach {
            stop_at_known: true,
            heaps_as_nimbers: true,
            fold_known: false,
        }
    }
}

impl Reach {
    /// Every position by its moves: nothing valued is left unexpanded, heaps list their moves,
    /// nothing is folded (engines that read the game itself: misère forms, quotients' moves).
    pub fn moves() -> Self {
        Reach {
            stop_at_known: false,
            heaps_as_nimbers: false,
            fold_known: false,
        }
    }

    /// For questions about values only.
    pub fn values() -> Self {
        Reach {
            fold_known: true,
            ..Reach::default()
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
    scratch: Scratch,
    /// The value leaf of each nimber (normal play), by value.
    nimber_leaves: Vec<u32>,
}

/// Scratch space reused by every expansion.
#[derive(Default)]
struct Scratch {
    buf: OptBuf,
    pool: Vec<u32>,
    opts: Vec<(OptionKind, u32, u32)>,
    keys: Vec<u64>,
    flat: Vec<u32>,
    list_buf: Vec<u32>,
    ends_buf: Vec<u32>,
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
            scratch: Scratch::default(),
            nimber_leaves: Vec::new(),
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
        self.graph.index.by_game.insert(g, u);
        u
    }

    fn poll(&mut self) -> Result<(), Error> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(4096) && self.src.interrupted() {
            return Err(Error::new(CoreError::Interrupted));
        }
        Ok(())
    }

    /// The local node of a store form (created unexpanded if new).
    pub fn node(&mut self, g: GameId) -> Result<u32, Error> {
        if let Some(&u) = self.graph.index.by_game.get(&g) {
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
                self.graph.index.by_game.insert(g, s);
                s
            }
            Node::Repeat { part, count } => {
                // Written out in the query's graph: its moves are those of each copy.
                let x = self.node(part)?;
                let local = vec![x; count as usize];
                let s = self.graph.push(Kind::Sum, g.index() as u32, true);
                self.graph.set_lists(s, &local, &local);
                self.graph.index.by_game.insert(g, s);
                s
            }
            Node::Heap { rules, size } if self.reach.heaps_as_nimbers => {
                let v = self.src.heap_nimber(rules, size)?;
                self.fresh(g, Kind::Nimber(v), true)
            }
            Node::Position { .. } => {
                let p = self.src.pos_of(self.store, g);
                let u = self.pos(p);
                self.graph.index.by_game.insert(g, u);
                u
            }
            _ if self.reach.stop_at_known && self.src.memo_ref().contains(Key::Game(g)) => {
                self.fresh(g, Kind::Known, false)
            }
            _ => self.fresh(g, Kind::Form, false),
        };
        Ok(u)
    }

    /// The local node of a ruleset position (created unexpanded if new).
    pub fn pos(&mut self, p: PosId) -> u32 {
        if let Some(u) = self.graph.index.by_pos.get(p) {
            return u;
        }
        let known = self.reach.stop_at_known && self.src.memo_ref().contains(Key::Pos(p));
        let kind = if known { Kind::Known } else { Kind::Form };
        let u = self.graph.push(kind, p, false);
        self.graph.bits[u as usize] |= POS;
        self.graph.index.by_pos.insert(p, u);
        u
    }

    fn atom(&mut self, a: Atom) -> Result<u32, Error> {
        match a {
            Atom::Pos(p) => Ok(self.pos(p)),
            Atom::Game(g) => self.node(g),
        }
    }

    /// Lists the options of `u` (once). Sums keep their parts; their moves are produced by
    /// [`Explorer::options`] without being stored.
    pub fn expand(&mut self, u: u32) -> Result<(), Error> {
        if self.graph.is_expanded(u) {
            return Ok(());
        }
        self.poll()?;
        if self.graph.bits[u as usize] & SYNTH != 0 {
            return self.expand_synthetic(u);
        }
        if let Some(Key::Pos(p)) = self.graph.key(u) {
            return self.expand_pos(u, p);
        }
        let g = self
            .graph
            .origin(u)
            .expect("unexpanded nodes come from the store");
        let (mut left, mut right) = (Vec::new(), Vec::new());
        let mut form = g;
        while let Node::Labelled(k) = self.store.node(form) {
            form = self
                .store
                .label_form(k)
                .ok_or_else(|| Error::new(GraphError::LabelBeforeForm))?;
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
                self.graph.set_kind(u, Kind::Nimber(n));
                self.graph.bits[u as usize] |= EXPANDED;
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
            Node::LeftWin
            | Node::RightWin
            | Node::Sum(_)
            | Node::Repeat { .. }
            | Node::Position { .. } => {
                unreachable!("terminals, sums and positions are interned as such")
            }
            Node::Labelled(_) => unreachable!("resolved above"),
        }
        self.graph.set_kind(u, Kind::Form);
        self.graph.set_lists(u, &left, &right);
        self.graph.bits[u as usize] |= EXPANDED;
        Ok(())
    }

    /// [`Explorer::options`] appended to `out` (a form's list copied straight in).
    pub fn options_into(&mut self, u: u32, side: Side, out: &mut Vec<u32>) -> Result<(), Error> {
        self.expand(u)?;
        self.ungroup(u)?;
        if self.graph.kind(u) == Kind::Form {
            out.extend_from_slice(match side {
                Side::Left => self.graph.left(u),
                Side::Right => self.graph.right(u),
            });
            return Ok(());
        }
        out.extend(self.options(u, side)?);
        Ok(())
    }

    /// The `side` options of any node: a form's lists, a nimber's smaller nimbers, and for a
    /// sum the moves in each part (new sums, interned here).
    pub fn options(&mut self, u: u32, side: Side) -> Result<Vec<u32>, Error> {
        self.expand(u)?;
        self.ungroup(u)?;
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
                // `*n` has n options: a store node and a graph node each.
                loony_core::memory::reserve(
                    (n as usize).saturating_mul(64),
                    "the options of a nimber",
                )?;
                let mut v = Vec::with_capacity(n as usize);
                for k in 0..n {
                    self.poll()?;
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
                        self.poll()?;
                        rest[i] = o;
                        out.push(self.sum(&rest)?);
                    }
                    rest[i] = p;
                }
                out
            }
            Kind::LeftWin | Kind::RightWin => Vec::new(),
            Kind::Value(_) => {
                // Stands for options already valued: list the simplest game's options.
                let g = self.game(u)?;
                let v = self.node(g)?;
                return self.options(v, side);
            }
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
        self.explore_until(root, &mut |_, _| false)
    }

    /// [`Explorer::explore`], leaving unexpanded the nodes `stop` picks (an engine that has
    /// their values already from an earlier query).
    pub fn explore_until(
        &mut self,
        root: u32,
        stop: &mut dyn FnMut(&mut Self, u32) -> bool,
    ) -> Result<(), Error> {
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
            if self.graph.kind(u) == Kind::Known || stop(self, u) {
                continue;
            }
            self.expand(u)?;
            let (a, b) = self.graph.successors(u);
            stack.extend_from_slice(a);
            stack.extend_from_slice(b);
        }
        Ok(())
    }

    /// A node as a store form, for showing it (or for engines keyed by store forms): positions,
    /// sums and entailing options built here become store nodes now.
    pub fn game(&mut self, u: u32) -> Result<GameId, Error> {
        match self.graph.key(u) {
            Some(Key::Game(g)) => return Ok(g),
            Some(Key::Pos(p)) => {
                let g = self.src.pos_game(self.store, p);
                self.graph.index.by_game.insert(g, u);
                return Ok(g);
            }
            None => {}
        }
        if let Kind::Value(i) = self.graph.kind(u) {
            // The simplest game of the class stands for the folded options.
            let g = match self.graph.value(i).0.clone() {
                Class::Nimber(n) => self.store.nimber(n),
                Class::Loopy(a) => self.store.loopy(&a),
                Class::SpecialMoon(n) => self.store.special_moon(n),
                _ => {
                    let (l, r) = (self.store.left_win(), self.store.right_win());
                    self.store.form(&[l], &[r])
                }
            };
            return Ok(g);
        }
        if let Some(&(what, p)) = self.synth_of(u) {
            let inner = self.game(p)?;
            let (lw, rw) = (self.store.left_win(), self.store.right_win());
            let g = match what {
                Synth::EntailLeft => self.store.entail_left(inner),
                Synth::EntailRight => self.store.entail_right(inner),
                Synth::CarryLeft => self.store.form(&[lw], &[inner]),
                Synth::CarryRight => self.store.form(&[inner], &[rw]),
            };
            self.graph.index.by_game.entry(g).or_insert(u);
            return Ok(g);
        }
        let parts = self.graph.parts(u).to_vec();
        let mut gs = Vec::with_capacity(parts.len());
        for p in parts {
            gs.push(self.game(p)?);
        }
        let g = self.store.sum(&gs)?;
        self.graph.index.by_game.entry(g).or_insert(u);
        Ok(g)
    }

    /// A node as shown to a user: like [`Explorer::game`], but a finished ruleset position (no
    /// moves left) in a sum is left out, so `kayles(0) + kayles(4)` reads `kayles(4)`.
    pub fn shown(&mut self, u: u32) -> Result<GameId, Error> {
        if self.graph.kind(u) != Kind::Sum {
            return self.game(u);
        }
        let mut gs = Vec::new();
        for p in self.graph.parts(u).to_vec() {
            let position = matches!(self.graph.key(p), Some(Key::Pos(_)));
            if position {
                self.expand(p)?;
            }
            let finished = position
                && self.graph.kind(p) == Kind::Form
                && self.graph.is_expanded(p)
                && self.graph.left(p).is_empty()
                && self.graph.right(p).is_empty();
            if !finished {
                gs.push(self.game(p)?);
            }
        }
        Ok(self.store.sum(&gs)?)
    }

    /// Forces a known node to be expanded (an engine needs its options).
    pub fn unfold(&mut self, u: u32) -> Result<(), Error> {
        if self.graph.kind(u) == Kind::Known {
            self.graph.set_kind(u, Kind::Form);
        }
        self.expand(u)
    }
}
