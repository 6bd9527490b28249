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
use crate::error::GraphError;
use crate::memo::Key;
use crate::options::{Atom, OptBuf};
use hashbrown::HashTable;
use loony_core::class::Class;
use loony_core::diag::{CoreError, Error};
use loony_core::game::{GameId, Node, Store};
use loony_core::positions::PosId;
use loony_syntax::ast::OptionKind;
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
    /// A leaf standing for options whose parts were all valued already: the class of their sum
    /// ([`PosGraph::value`]). Made only when the query asks for values alone.
    Value(u32),
}

/// Which player's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

const NO_GAME: u32 = u32::MAX;

const EXPANDED: u8 = 1;
const POS: u8 = 2;
const RELEASED: u8 = 4;
/// The node's list has sums kept as groups (`groups` holds where).
const GROUPED: u8 = 8;
/// An entailing or carry-on option made by the explorer (`synth` holds what it wraps).
const SYNTH: u8 = 16;
/// Right's list differs from Left's (`right` holds where it is).
const RIGHT: u8 = 32;

/// Kinds packed in one word: a tag in the top three bits, a nimber or value leaf below (tag 7:
/// a payload too large, kept in `wide_kinds`). Half the space of the enum, per node.
fn pack(k: Kind) -> Option<u32> {
    const MAX: u32 = (1 << 29) - 1;
    Some(match k {
        Kind::Form => 0,
        Kind::Sum => PACKED_SUM,
        Kind::LeftWin => 2 << 29,
        Kind::RightWin => 3 << 29,
        Kind::Nimber(n) if n <= MAX => 4 << 29 | n,
        Kind::Known => 5 << 29,
        Kind::Value(i) if i <= MAX => 6 << 29 | i,
        _ => return None,
    })
}

const WIDE_KIND: u32 = 7 << 29;
const PACKED_SUM: u32 = 1 << 29;

/// The graph of one query.
#[derive(Default)]
pub struct PosGraph {
    kind: Vec<u32>,
    wide_kinds: FxHashMap<u32, Kind>,
    /// Per node: expanded, a position key in `origin`, lists let go.
    bits: Vec<u8>,
    left: Vec<(u32, u32)>,
    /// Right's list where it differs from Left's (entailing options, flag `RIGHT`): an index
    /// into `right_lists`. Most nodes have one list for both, so this is a map.
    right: FxHashMap<u32, u32>,
    right_lists: Vec<(u32, u32)>,
    edges: Vec<u32>,
    /// The store form of each node, or its position key (`is_pos`); `NO_GAME` for sums and
    /// entailing options built by the explorer.
    origin: Vec<u32>,
    /// How a node is found again: by store form, position, parts, what it wraps, value.
    index: NodeIndex,
    /// Options made of several parts (sums), kept as groups rather than sum nodes: for a node,
    /// an index into `group_pool` holding the number of options and the end of each option's
    /// parts within the node's list. Only symmetric lists are grouped; `NO_GAME` for none.
    groups: FxHashMap<u32, u32>,
    group_pool: Vec<u32>,
    /// Nodes whose lists were let go, and how many edge slots they held.
    dead: usize,
}

/// The nodes of a query's graph by what they are, so that each is made once.
#[derive(Default)]
struct NodeIndex {
    by_game: FxHashMap<GameId, u32>,
    /// Local node of each session position met, by key id.
    by_pos: PosIndex,
    /// Sums made by moves, by their (sorted) parts, which live in the node's own list.
    /// Entries keep a 32-bit hash beside the node, so growing the table reads no lists.
    by_parts: HashTable<(u32, u32)>,
    /// Entailing and carry-on options built by the explorer: what they wrap.
    synth: FxHashMap<u32, (Synth, u32)>,
    synth_index: FxHashMap<(Synth, u32), u32>,
    /// The classes (and flags) of the value leaves, one leaf per distinct class.
    values: Vec<(Class, u8, u32)>,
    value_index: FxHashMap<(Class, u8), u32>,
}

/// Session position ids → local nodes. A query that meets few positions of a large session
/// (one more value asked of a graph already valued) keeps a hash map; one that meets many
/// switches to a flat array, which must not cost the session's size for every small query.
#[derive(Default)]
struct PosIndex {
    dense: Vec<u32>,
    sparse: FxHashMap<u32, u32>,
    /// The largest id met while sparse.
    top: u32,
}

impl PosIndex {
    fn get(&self, p: PosId) -> Option<u32> {
        if self.dense.is_empty() {
            self.sparse.get(&p).copied()
        } else {
            self.dense
                .get(p as usize)
                .copied()
                .filter(|&u| u != NO_GAME)
        }
    }

    fn insert(&mut self, p: PosId, u: u32) {
        if self.dense.is_empty() {
            self.sparse.insert(p, u);
            self.top = self.top.max(p);
            // Dense once the array would be at most 16 words per position met.
            if self.sparse.len() >= 256 && self.sparse.len() * 16 > self.top as usize {
                self.dense = vec![NO_GAME; self.top as usize + 1];
                for (&p, &u) in &self.sparse {
                    self.dense[p as usize] = u;
                }
                self.sparse = FxHashMap::default();
            }
            return;
        }
        if self.dense.len() <= p as usize {
            // Vec's own doubling keeps this amortized; slots past `p` are not written (nor
            // made resident) before they are needed.
            self.dense.resize(p as usize + 1, NO_GAME);
        }
        self.dense[p as usize] = u;
    }
}

/// An option `entail P` or `carry P` of a compiled position, by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Synth {
    /// `{∞ | P^R}`
    EntailLeft,
    /// `{P^L | ∞̄}`
    EntailRight,
    /// `{∞ | P}`
    CarryLeft,
    /// `{P | ∞̄}`
    CarryRight,
}

impl PosGraph {
    pub fn len(&self) -> usize {
        self.kind.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    // Read at every step of every walk: inlined, with the rare wide kinds out of line.
    #[inline]
    pub fn kind(&self, u: u32) -> Kind {
        let k = self.kind[u as usize];
        match k >> 29 {
            0 => Kind::Form,
            1 => Kind::Sum,
            2 => Kind::LeftWin,
            3 => Kind::RightWin,
            4 => Kind::Nimber(k & !WIDE_KIND),
            5 => Kind::Known,
            6 => Kind::Value(k & !WIDE_KIND),
            _ => self.wide_kind(u),
        }
    }

    #[cold]
    fn wide_kind(&self, u: u32) -> Kind {
        self.wide_kinds[&u]
    }

    fn set_kind(&mut self, u: u32, kind: Kind) {
        self.kind[u as usize] = match pack(kind) {
            Some(k) => {
                if self.kind[u as usize] == WIDE_KIND {
                    self.wide_kinds.remove(&u);
                }
                k
            }
            None => {
                self.wide_kinds.insert(u, kind);
                WIDE_KIND
            }
        };
    }

    /// Where Right's list is, if it differs from Left's.
    fn right_list(&self, u: u32) -> Option<u32> {
        if self.bits[u as usize] & RIGHT == 0 {
            return None;
        }
        Some(self.right[&u])
    }

    pub fn is_expanded(&self, u: u32) -> bool {
        self.bits[u as usize] & EXPANDED != 0
    }

    /// Left's options of an expanded form; the parts of a sum.
    pub fn left(&self, u: u32) -> &[u32] {
        let (s, l) = self.left[u as usize];
        &self.edges[s as usize..(s + l) as usize]
    }

    /// Right's options of an expanded form.
    pub fn right(&self, u: u32) -> &[u32] {
        let (s, l) = match self.right_list(u) {
            None => self.left[u as usize],
            Some(r) => self.right_lists[r as usize],
        };
        &self.edges[s as usize..(s + l) as usize]
    }

    pub fn parts(&self, u: u32) -> &[u32] {
        debug_assert_eq!(self.kind(u), Kind::Sum);
        self.left(u)
    }

    /// A form whose Left and Right options are the same list.
    pub fn is_symmetric_list(&self, u: u32) -> bool {
        self.bits[u as usize] & RIGHT == 0
    }

    /// The store form of a node that came from the store.
    pub fn origin(&self, u: u32) -> Option<GameId> {
        match self.origin[u as usize] {
            NO_GAME => None,
            _ if self.bits[u as usize] & POS != 0 => None,
            g => Some(GameId::from_index(g)),
        }
    }

    /// The class and flags of a value leaf.
    pub fn value(&self, i: u32) -> (&Class, u8) {
        let (c, f, _) = &self.index.values[i as usize];
        (c, *f)
    }

    /// How the session remembers a node: its store form or its position key.
    pub fn key(&self, u: u32) -> Option<Key> {
        match self.origin[u as usize] {
            NO_GAME => None,
            p if self.bits[u as usize] & POS != 0 => Some(Key::Pos(p)),
            g => Some(Key::Game(GameId::from_index(g))),
        }
    }

    /// The local node of a store form, if the query met it.
    pub fn find(&self, g: GameId) -> Option<u32> {
        self.index.by_game.get(&g).copied()
    }

    fn push(&mut self, kind: Kind, origin: u32, expanded: bool) -> u32 {
        let u = self.kind.len() as u32;
        self.kind.push(0);
        self.set_kind(u, kind);
        self.left.push((0, 0));
        self.origin.push(origin);
        self.bits.push(if expanded { EXPANDED } else { 0 });
        u
    }

    /// Is the node's list parts of options (some options being sums of several parts)?
    pub fn is_grouped(&self, u: u32) -> bool {
        self.bits[u as usize] & GROUPED != 0
    }

    /// The options of a symmetric node as slices of parts (one part for most options).
    pub fn groups(&self, u: u32) -> Groups<'_> {
        let list = self.left(u);
        let g = if self.bits[u as usize] & GROUPED != 0 {
            self.groups[&u]
        } else {
            NO_GAME
        };
        match g {
            NO_GAME => Groups {
                list,
                ends: &[],
                at: 0,
                i: 0,
                single: true,
            },
            g => {
                let n = self.group_pool[g as usize] as usize;
                Groups {
                    list,
                    ends: &self.group_pool[g as usize + 1..g as usize + 1 + n],
                    at: 0,
                    i: 0,
                    single: false,
                }
            }
        }
    }

    /// Lets go of a classed node's option lists (the query wants values only). Their space is
    /// reclaimed once enough lists are gone.
    pub fn release(&mut self, u: u32) {
        let i = u as usize;
        if self.bits[i] & EXPANDED == 0 || self.bits[i] & RELEASED != 0 {
            return;
        }
        if self.kind(u) == Kind::Sum && !self.origin_is_store(u) {
            // Sums made by moves are looked up by their parts: keep them.
            return;
        }
        let l = self.left[i];
        let r = match self.right_list(u) {
            None => l,
            Some(r) => std::mem::take(&mut self.right_lists[r as usize]),
        };
        if r == l && (l.0 + l.1) as usize == self.edges.len() {
            // The list made last (a depth-first walk finishes its nodes in the reverse order
            // of their expansion): given back at once, so the edges held stay those of the
            // nodes being walked, not a growing array waiting for compaction.
            self.edges.truncate(l.0 as usize);
        } else {
            self.dead += l.1 as usize + if r == l { 0 } else { r.1 as usize };
        }
        self.left[i] = (0, 0);
        if self.bits[i] & RIGHT != 0 {
            self.right.remove(&u);
            self.bits[i] &= !RIGHT;
        }
        if self.bits[i] & GROUPED != 0 {
            if let Some(at) = self.groups.remove(&u) {
                let n = self.group_pool[at as usize] as usize;
                if at as usize + 1 + n == self.group_pool.len() {
                    self.group_pool.truncate(at as usize);
                }
            }
            self.bits[i] &= !GROUPED;
        }
        self.bits[i] |= RELEASED;
        // Compaction walks every node: wait until at least as many slots are dead.
        if self.dead > (1 << 16).max(self.kind.len()) && self.dead * 2 > self.edges.len() {
            self.compact();
        }
    }

    fn origin_is_store(&self, u: u32) -> bool {
        self.origin[u as usize] != NO_GAME
    }

    /// Moves the lists still held to the front of the edge array.
    fn compact(&mut self) {
        let mut edges = Vec::with_capacity(self.edges.len() - self.dead);
        for i in 0..self.kind.len() {
            let l = self.left[i];
            if l.1 != 0 {
                let nl = edges.len() as u32;
                edges.extend_from_slice(&self.edges[l.0 as usize..(l.0 + l.1) as usize]);
                self.left[i] = (nl, l.1);
            }
            if let Some(r) = self.right_list(i as u32) {
                let r = &mut self.right_lists[r as usize];
                let nr = edges.len() as u32;
                edges.extend_from_slice(&self.edges[r.0 as usize..(r.0 + r.1) as usize]);
                *r = (nr, r.1);
            }
        }
        self.edges = edges;
        self.dead = 0;
    }

    /// The sum node of sorted, flat `parts` (made once per query).
    fn intern_sum(&mut self, parts: &[u32]) -> u32 {
        let h32 = hash_parts(parts) as u32;
        // The table's hash spreads the short one over all 64 bits (its control bytes use the top).
        let wide = |h: u32| (h as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let (kind, left, edges) = (&self.kind, &self.left, &self.edges);
        let eq = |&(s, h): &(u32, u32)| {
            let (a, l) = left[s as usize];
            h == h32
                && kind[s as usize] == PACKED_SUM
                && &edges[a as usize..(a + l) as usize] == parts
        };
        if let Some(&(s, _)) = self.index.by_parts.find(wide(h32), eq) {
            return s;
        }
        let s = self.push(Kind::Sum, NO_GAME, true);
        self.set_lists(s, parts, parts);
        self.index
            .by_parts
            .insert_unique(wide(h32), (s, h32), |&(_, h)| wide(h));
        s
    }

    /// One list for both players.
    fn set_list(&mut self, u: u32, list: &[u32]) {
        let s = self.edges.len() as u32;
        self.edges.extend_from_slice(list);
        self.left[u as usize] = (s, list.len() as u32);
        if self.bits[u as usize] & RIGHT != 0 {
            self.right.remove(&u);
            self.bits[u as usize] &= !RIGHT;
        }
    }

    fn set_lists(&mut self, u: u32, left: &[u32], right: &[u32]) {
        let s = self.edges.len() as u32;
        self.edges.extend_from_slice(left);
        self.left[u as usize] = (s, left.len() as u32);
        if left == right {
            if self.bits[u as usize] & RIGHT != 0 {
                self.right.remove(&u);
                self.bits[u as usize] &= !RIGHT;
            }
        } else {
            let r = self.edges.len() as u32;
            self.edges.extend_from_slice(right);
            self.right.insert(u, self.right_lists.len() as u32);
            self.bits[u as usize] |= RIGHT;
            self.right_lists.push((r, right.len() as u32));
        }
    }
}

fn hash_parts(p: &[u32]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    for &x in p {
        h = (h ^ x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h
}

/// The options of a node as slices of their parts.
pub struct Groups<'a> {
    list: &'a [u32],
    ends: &'a [u32],
    at: usize,
    i: usize,
    single: bool,
}

impl<'a> Iterator for Groups<'a> {
    type Item = &'a [u32];

    fn next(&mut self) -> Option<&'a [u32]> {
        if self.single {
            let r = self.list.get(self.i..self.i + 1)?;
            self.i += 1;
            return Some(r);
        }
        let end = *self.ends.get(self.i)? as usize;
        let r = &self.list[self.at..end];
        self.at = end;
        self.i += 1;
        Some(r)
    }
}

impl PosGraph {
    /// Where `u`'s two successor lists lie in the edge array, as `(start, end)` pairs (the
    /// lists of [`Digraph::successors`]; valid until the edges are next compacted).
    pub fn successor_ranges(&self, u: u32) -> [(u32, u32); 2] {
        let range = |(s, l): (u32, u32)| (s, s + l);
        let none = (0, 0);
        if !self.is_expanded(u) {
            return [none, none];
        }
        let left = range(self.left[u as usize]);
        match self.kind(u) {
            Kind::Form => match self.right_list(u) {
                None => [left, none],
                Some(r) => [left, range(self.right_lists[r as usize])],
            },
            Kind::Sum => [left, none],
            _ => [none, none],
        }
    }

    /// The `i`-th successor in `u`'s first list, or in its second (`right`) of
    /// [`PosGraph::successor_ranges`], if the list is that long: a walk keeps its place by
    /// offset, good across compactions.
    pub fn successor(&self, u: u32, right: bool, i: u32) -> Option<u32> {
        let (s, l) = if right {
            self.right_lists[self.right_list(u)? as usize]
        } else {
            self.left[u as usize]
        };
        (i < l).then(|| self.edges[(s + i) as usize])
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

/// The most parts of an option folded into a value leaf (larger sums stay nodes).
const FOLD_MOST: usize = 4;

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

    /// The value leaf of an option whose parts the session has valued (plain values only:
    /// nimbers, loopy values, the moons with literal forms), or `None`.
    fn fold(&mut self, parts: &[Atom]) -> Option<u32> {
        if parts.len() > FOLD_MOST {
            return None;
        }
        // Most options of a position explored for the first time have a new part: reject
        // those before decoding any class.
        let memo = self.src.memo_ref();
        let known = |a: &Atom| match *a {
            Atom::Pos(p) => memo.contains(Key::Pos(p)),
            Atom::Game(_) => true,
        };
        if !parts.iter().all(known) {
            return None;
        }
        // Nimbers of normal play (the common case): one nim-sum, one leaf per value.
        let mut x = 0u32;
        let all_nimbers = parts.iter().all(|a| match *a {
            Atom::Pos(p) => match memo.nimber(Key::Pos(p)) {
                Some((k, 0)) => {
                    x ^= k;
                    true
                }
                _ => false,
            },
            Atom::Game(_) => false,
        });
        if all_nimbers {
            if let Some(&u) = self.nimber_leaves.get(x as usize)
                && u != NO_GAME
            {
                return Some(u);
            }
            let u = self.leaf(Class::Nimber(x), 0);
            if (x as usize) < 1 << 20 {
                if self.nimber_leaves.len() <= x as usize {
                    self.nimber_leaves.resize(x as usize + 1, NO_GAME);
                }
                self.nimber_leaves[x as usize] = u;
            }
            return Some(u);
        }
        let mut classes: [Option<(Class, u8)>; FOLD_MOST] = Default::default();
        for (i, &a) in parts.iter().enumerate() {
            let key = match a {
                Atom::Pos(p) => Key::Pos(p),
                Atom::Game(g) => match self.store.node(g) {
                    Node::Nimber(n) => {
                        classes[i] = Some((Class::Nimber(n), 0));
                        continue;
                    }
                    _ => Key::Game(g),
                },
            };
            let (c, f) = self.src.memo_ref().get(key)?;
            if !matches!(
                c,
                Class::Nimber(_) | Class::Loopy(_) | Class::SpecialMoon(_) | Class::Moon
            ) {
                return None;
            }
            classes[i] = Some((c, f));
        }
        let flags = classes.iter().flatten().fold(0, |f, (_, g)| f | g);
        let class = loony_core::class::sum(classes.iter().flatten().map(|(c, _)| c));
        Some(self.leaf(class, flags))
    }

    fn leaf(&mut self, class: Class, flags: u8) -> u32 {
        if let Some(&u) = self.graph.index.value_index.get(&(class.clone(), flags)) {
            return u;
        }
        let i = self.graph.index.values.len() as u32;
        let u = self.graph.push(Kind::Value(i), NO_GAME, true);
        self.graph.index.values.push((class.clone(), flags, u));
        self.graph.index.value_index.insert((class, flags), u);
        u
    }

    fn atom(&mut self, a: Atom) -> Result<u32, Error> {
        match a {
            Atom::Pos(p) => Ok(self.pos(p)),
            Atom::Game(g) => self.node(g),
        }
    }

    /// An entailing or carry-on option wrapping `p`. Its lists are made when it is expanded
    /// (an entailing option lists `p`'s options, so making them now would expand `p` at once,
    /// recursing down a chain of entailing options).
    fn synthetic(&mut self, what: Synth, p: u32) -> Result<u32, Error> {
        if let Some(&u) = self.graph.index.synth_index.get(&(what, p)) {
            return Ok(u);
        }
        let u = self.graph.push(Kind::Form, NO_GAME, false);
        self.graph.bits[u as usize] |= SYNTH;
        self.graph.index.synth.insert(u, (what, p));
        self.graph.index.synth_index.insert((what, p), u);
        Ok(u)
    }

    fn expand_synthetic(&mut self, u: u32) -> Result<(), Error> {
        let (what, p) = self.graph.index.synth[&u];
        let (lw, rw) = (self.left_win, self.right_win);
        let (left, right) = match what {
            Synth::EntailLeft => (vec![lw], self.options(p, Side::Right)?),
            Synth::EntailRight => (self.options(p, Side::Left)?, vec![rw]),
            Synth::CarryLeft => (vec![lw], vec![p]),
            Synth::CarryRight => (vec![p], vec![rw]),
        };
        self.graph.set_lists(u, &left, &right);
        self.graph.bits[u as usize] |= EXPANDED;
        Ok(())
    }

    /// Does moving to `u` check (∞ among Left's options or ∞̄ among Right's)? Entailing options
    /// made here are listed first if need be; a failure to list them counts as quiet.
    pub fn is_check(&mut self, u: u32) -> bool {
        if self.graph.kind(u) != Kind::Form {
            return false;
        }
        if self.graph.bits[u as usize] & SYNTH != 0 && self.expand(u).is_err() {
            return false;
        }
        let (lw, rw) = (self.left_win, self.right_win);
        self.graph.is_expanded(u)
            && (self.graph.left(u).contains(&lw) || self.graph.right(u).contains(&rw))
    }

    /// An entailing or carry-on option made here, not yet listed, whose target an earlier
    /// query valued along with the affine engine's set for it: the engine reads the set, so the target's followers need not be explored again (a chain of entailing
    /// moves, as in Top Entails, would otherwise be walked whole by every query). The
    /// target's remembered flags.
    pub fn remembered_check(&self, u: u32) -> Option<u8> {
        if self.graph.is_expanded(u) {
            return None;
        }
        let &(_, p) = self.synth_of(u)?;
        let (tag, key) = self.check_key(u)?;
        let memo = self.src.memo_ref();
        let (_, flags) = memo.get(key)?;
        let sets = &memo.affine_sets;
        (sets.contains_key(&(tag, key, true)) || sets.contains_key(&(tag, key, false)))
            .then_some(flags)
            .filter(|_| self.graph.kind(p) == Kind::Known)
    }

    fn synth_of(&self, u: u32) -> Option<&(Synth, u32)> {
        if self.graph.bits[u as usize] & SYNTH == 0 {
            return None;
        }
        self.graph.index.synth.get(&u)
    }

    /// The conjugate of a node (Left and Right swapped): ruleset positions, nimbers and
    /// valued leaves are impartial, entailing options swap sides, sums and store forms are
    /// conjugated part by part.
    pub fn conjugate(&mut self, u: u32) -> Result<u32, Error> {
        match self.graph.kind(u) {
            Kind::LeftWin => return Ok(self.right_win),
            Kind::RightWin => return Ok(self.left_win),
            Kind::Nimber(_) | Kind::Value(_) => return Ok(u),
            Kind::Sum => {
                // Ruleset positions and nimbers are their own conjugates: a sum of only those
                // (nearly every sum a ruleset makes) is answered without building its twin.
                let fixed = |p: u32| {
                    matches!(self.graph.kind(p), Kind::Nimber(_) | Kind::Value(_))
                        || matches!(self.graph.key(p), Some(Key::Pos(_)))
                };
                if self.graph.parts(u).iter().all(|&p| fixed(p)) {
                    return Ok(u);
                }
                let parts = self.graph.parts(u).to_vec();
                let mut conj = Vec::with_capacity(parts.len());
                for &p in &parts {
                    conj.push(self.conjugate(p)?);
                }
                // A sum of impartial parts is its own conjugate.
                if conj == parts {
                    return Ok(u);
                }
                return self.sum(&conj);
            }
            _ => {}
        }
        if let Some(&(what, p)) = self.synth_of(u) {
            let q = self.conjugate(p)?;
            let twin = match what {
                Synth::EntailLeft => Synth::EntailRight,
                Synth::EntailRight => Synth::EntailLeft,
                Synth::CarryLeft => Synth::CarryRight,
                Synth::CarryRight => Synth::CarryLeft,
            };
            return self.synthetic(twin, q);
        }
        match self.graph.key(u) {
            Some(Key::Pos(_)) => Ok(u),
            Some(Key::Game(g)) => {
                let c = self.store.conjugate(g)?;
                self.node(c)
            }
            None => unreachable!("sums, entailing options and leaves are handled above"),
        }
    }

    /// What the session can remember a check by: its store form, or what an entailing or
    /// carry-on option made here wraps (tagged by kind).
    pub fn check_key(&self, u: u32) -> Option<(u8, Key)> {
        if let Some(&(what, p)) = self.synth_of(u) {
            let tag = match what {
                Synth::EntailLeft => 1,
                Synth::EntailRight => 2,
                Synth::CarryLeft => 3,
                Synth::CarryRight => 4,
            };
            return Some((tag, self.graph.key(p)?));
        }
        Some((0, self.graph.key(u)?))
    }

    /// Lists the options of a compiled ruleset position. Each option's parts are put in order
    /// and the list is made a set; a sum gets a node of its own without being looked up (sums
    /// are cheap to value from their parts, and most are met once).
    fn expand_pos(&mut self, u: u32, p: PosId) -> Result<(), Error> {
        let mut buf = std::mem::take(&mut self.scratch.buf);
        buf.clear();
        let r = self.src.expand_pos(self.store, p, &mut buf);
        if let Err(e) = r {
            self.scratch.buf = buf;
            return Err(e);
        }
        // Every option one position, plain (most rulesets): its node, the set sorted.
        if buf
            .opts
            .iter()
            .all(|o| o.kind == OptionKind::Plain && o.len == 1)
        {
            let mut list = std::mem::take(&mut self.scratch.list_buf);
            list.clear();
            for o in &buf.opts {
                let a = buf.atoms[o.start as usize];
                let x = match a {
                    Atom::Pos(p) => {
                        let folded = if self.reach.fold_known {
                            self.fold(std::slice::from_ref(&a))
                        } else {
                            None
                        };
                        folded.unwrap_or_else(|| self.pos(p))
                    }
                    Atom::Game(_) => break,
                };
                list.push(x);
            }
            if list.len() == buf.opts.len() {
                list.sort_unstable();
                list.dedup();
                self.scratch.buf = buf;
                self.graph.set_kind(u, Kind::Form);
                self.graph.set_list(u, &list);
                self.graph.bits[u as usize] |= EXPANDED;
                self.scratch.list_buf = list;
                return Ok(());
            }
            self.scratch.list_buf = list;
        }
        let mut pool = std::mem::take(&mut self.scratch.pool);
        let mut opts = std::mem::take(&mut self.scratch.opts);
        pool.clear();
        opts.clear();
        let (lw, rw) = (self.left_win, self.right_win);
        let mut result = Ok(());
        for o in &buf.opts {
            let start = pool.len() as u32;
            if self.reach.fold_known
                && o.kind == OptionKind::Plain
                && let Some(leaf) = self.fold(buf.parts(o))
            {
                pool.push(leaf);
                opts.push((o.kind, start, 1));
                continue;
            }
            let (mut l, mut r) = (false, false);
            for &a in buf.parts(o) {
                let x = match self.atom(a) {
                    Ok(x) => x,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                };
                match self.graph.kind(x) {
                    Kind::Sum => pool.extend_from_slice(self.graph.parts(x)),
                    _ if x == self.zero => {}
                    Kind::LeftWin => l = true,
                    Kind::RightWin => r = true,
                    _ => pool.push(x),
                }
            }
            if result.is_err() {
                break;
            }
            if l && r {
                result = Err(Error::new(CoreError::InfinitiesCollide));
                break;
            }
            if l || r {
                pool.truncate(start as usize);
                pool.push(if l { lw } else { rw });
            }
            pool[start as usize..].sort_unstable();
            opts.push((o.kind, start, pool.len() as u32 - start));
        }
        self.scratch.buf = buf;
        if let Err(e) = result {
            self.scratch.pool = pool;
            self.scratch.opts = opts;
            return Err(e);
        }
        // A position's options are a set: the same option written twice is one move. Options of
        // at most two parts (nearly all) are compared as one packed word.
        let key =
            |o: &(OptionKind, u32, u32)| (o.0 as u8, &pool[o.1 as usize..(o.1 + o.2) as usize]);
        let packed = |o: &(OptionKind, u32, u32)| -> Option<u64> {
            let p = &pool[o.1 as usize..(o.1 + o.2) as usize];
            let k = (o.0 as u64) << 62;
            match p {
                [] => Some(k),
                [a] => Some(k | 1 << 61 | *a as u64),
                [a, b] if *a < 1 << 29 && *b < 1 << 29 => {
                    Some(k | 2 << 59 | (*a as u64) << 29 | *b as u64)
                }
                _ => None,
            }
        };
        let mut keys = std::mem::take(&mut self.scratch.keys);
        keys.clear();
        keys.extend(opts.iter().map_while(packed));
        if keys.len() == opts.len() {
            // Sort the packed words with the option's index in the low bits of nothing: the
            // word determines the option, so the sorted distinct words are the options.
            keys.sort_unstable();
            keys.dedup();
            opts.clear();
            pool.clear();
            for &k in &keys {
                let kind = match k >> 62 {
                    0 => OptionKind::Plain,
                    1 => OptionKind::Entail,
                    _ => OptionKind::Carry,
                };
                let start = pool.len() as u32;
                if k >> 61 & 1 == 1 {
                    pool.push((k & 0x1FFF_FFFF_FFFF) as u32);
                } else if k >> 60 & 1 == 1 {
                    pool.push((k >> 29 & 0x1FFF_FFFF) as u32);
                    pool.push((k & 0x1FFF_FFFF) as u32);
                }
                opts.push((kind, start, pool.len() as u32 - start));
            }
            self.scratch.keys = keys;
        } else {
            self.scratch.keys = keys;
            opts.sort_unstable_by(|a, b| key(a).cmp(&key(b)));
            opts.dedup_by(|a, b| key(a) == key(b));
        }
        // All plain: keep sums as groups of parts in the node's own list (no sum nodes).
        if opts.iter().all(|o| o.0 == OptionKind::Plain) {
            let mut list = std::mem::take(&mut self.scratch.list_buf);
            let mut ends = std::mem::take(&mut self.scratch.ends_buf);
            list.clear();
            ends.clear();
            ends.push(opts.len() as u32);
            let mut multi = false;
            for &(_, start, len) in opts.iter() {
                let parts = &pool[start as usize..(start + len) as usize];
                match parts {
                    [] => list.push(self.zero),
                    _ => list.extend_from_slice(parts),
                }
                multi |= parts.len() > 1;
                ends.push(list.len() as u32);
            }
            self.scratch.pool = pool;
            self.scratch.opts = opts;
            self.graph.set_kind(u, Kind::Form);
            self.graph.set_list(u, &list);
            if multi {
                let at = self.graph.group_pool.len() as u32;
                self.graph.groups.insert(u, at);
                self.graph.bits[u as usize] |= GROUPED;
                self.graph.group_pool.extend_from_slice(&ends);
            }
            self.graph.bits[u as usize] |= EXPANDED;
            self.scratch.list_buf = list;
            self.scratch.ends_buf = ends;
            return Ok(());
        }
        // Entailing or carry-on options beside sums (Top Entails): the sums stay groups of
        // parts as well, and become value leaves when the node is classed and their parts are
        // valued (`ungroup`), not a sum node each. Plain options come first, the same on
        // both sides, so one list of group ends serves Left's list and Right's.
        let grouping =
            self.reach.fold_known && opts.iter().any(|o| o.0 == OptionKind::Plain && o.2 > 1);
        let mut ends = std::mem::take(&mut self.scratch.ends_buf);
        ends.clear();
        if grouping {
            ends.push(opts.len() as u32);
        }
        let (mut left, mut right) = (
            Vec::with_capacity(opts.len()),
            Vec::with_capacity(opts.len()),
        );
        if grouping {
            for &(kind, start, len) in opts.iter() {
                if kind != OptionKind::Plain {
                    continue;
                }
                match &pool[start as usize..(start + len) as usize] {
                    [] => left.push(self.zero),
                    parts => left.extend_from_slice(parts),
                }
                ends.push(left.len() as u32);
            }
            right.clone_from(&left);
        }
        let mut result = Ok(());
        let mut parts = std::mem::take(&mut self.scratch.list_buf);
        for &(kind, start, len) in opts.iter() {
            if grouping && kind == OptionKind::Plain {
                continue;
            }
            parts.clear();
            parts.extend_from_slice(&pool[start as usize..(start + len) as usize]);
            let x = match parts[..] {
                [] => self.zero,
                [one] => one,
                _ => match self.sum(&parts) {
                    Ok(x) => x,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                },
            };
            let pair = match kind {
                OptionKind::Plain => Ok((x, x)),
                OptionKind::Entail => self
                    .synthetic(Synth::EntailLeft, x)
                    .and_then(|a| Ok((a, self.synthetic(Synth::EntailRight, x)?))),
                OptionKind::Carry => self
                    .synthetic(Synth::CarryLeft, x)
                    .and_then(|a| Ok((a, self.synthetic(Synth::CarryRight, x)?))),
            };
            match pair {
                Ok((a, b)) => {
                    left.push(a);
                    right.push(b);
                    if grouping {
                        ends.push(left.len() as u32);
                    }
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.scratch.list_buf = parts;
        self.scratch.pool = pool;
        self.scratch.opts = opts;
        if let Err(e) = result {
            self.scratch.ends_buf = ends;
            return Err(e);
        }
        self.graph.set_kind(u, Kind::Form);
        self.graph.set_lists(u, &left, &right);
        if grouping {
            let at = self.graph.group_pool.len() as u32;
            self.graph.groups.insert(u, at);
            self.graph.bits[u as usize] |= GROUPED;
            self.graph.group_pool.extend_from_slice(&ends);
        }
        self.scratch.ends_buf = ends;
        self.graph.bits[u as usize] |= EXPANDED;
        Ok(())
    }

    /// The sum of local nodes: nested sums flattened, the literal 0 dropped, ∞ absorbing.
    pub fn sum(&mut self, parts: &[u32]) -> Result<u32, Error> {
        let mut flat = std::mem::take(&mut self.scratch.flat);
        flat.clear();
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
        let r = match (lw, rw, flat.len()) {
            (true, true, _) => Err(Error::new(CoreError::InfinitiesCollide)),
            (true, false, _) => Ok(self.left_win),
            (false, true, _) => Ok(self.right_win),
            (_, _, 0) => Ok(self.zero),
            (_, _, 1) => Ok(flat[0]),
            _ => {
                flat.sort_unstable();
                Ok(self.graph.intern_sum(&flat))
            }
        };
        self.scratch.flat = flat;
        r
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

    /// Turns a grouped node's sums into sum nodes, so its lists are plain option lists. When
    /// the query wants values only, a sum whose parts the session has valued becomes the
    /// value leaf of its class instead (as `fold` does for options valued when listed).
    pub fn ungroup(&mut self, u: u32) -> Result<(), Error> {
        if !self.graph.is_grouped(u) {
            return Ok(());
        }
        let groups: Vec<Vec<u32>> = self.graph.groups(u).map(<[u32]>::to_vec).collect();
        let right = (!self.graph.is_symmetric_list(u)).then(|| self.graph.right(u).to_vec());
        let (mut left_list, mut right_list) = (Vec::with_capacity(groups.len()), Vec::new());
        let mut at = 0;
        for parts in groups {
            let x = match parts[..] {
                [one] => one,
                _ => match self.late_fold(&parts) {
                    Some(leaf) => leaf,
                    None => self.sum(&parts)?,
                },
            };
            left_list.push(x);
            // Sums are plain options, the same on both sides; single options may differ.
            if let Some(r) = &right {
                right_list.push(if parts.len() == 1 { r[at] } else { x });
            }
            at += parts.len();
        }
        match right {
            Some(_) => self.graph.set_lists(u, &left_list, &right_list),
            None => self.graph.set_lists(u, &left_list, &left_list),
        }
        self.graph.groups.remove(&u);
        self.graph.bits[u as usize] &= !GROUPED;
        Ok(())
    }

    /// The value leaf of a sum of nodes the session has valued (see `fold`), if the query
    /// wants values only.
    fn late_fold(&mut self, parts: &[u32]) -> Option<u32> {
        if !self.reach.fold_known {
            return None;
        }
        if parts.len() > FOLD_MOST {
            return None;
        }
        let mut atoms = [Atom::Pos(0); FOLD_MOST];
        for (a, &p) in atoms.iter_mut().zip(parts) {
            *a = match self.graph.key(p)? {
                Key::Pos(q) => Atom::Pos(q),
                Key::Game(g) => Atom::Game(g),
            };
        }
        self.fold(&atoms[..parts.len()])
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
