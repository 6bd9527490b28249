//! The position graph of one query: each node's kind, its Left and Right options in flat
//! arrays (the sums among a position's options kept as groups of parts), and the index by which
//! each node is made once.

use crate::Digraph;
use crate::memo::Key;
use hashbrown::HashTable;
use loony_core::class::Class;
use loony_core::game::GameId;
use loony_core::positions::PosId;
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

pub(super) const NO_GAME: u32 = u32::MAX;

pub(super) const EXPANDED: u8 = 1;
pub(super) const POS: u8 = 2;
const RELEASED: u8 = 4;
/// The node's list has sums kept as groups (`groups` holds where).
pub(super) const GROUPED: u8 = 8;
/// An entailing or carry-on option made by the explorer (`synth` holds what it wraps).
pub(super) const SYNTH: u8 = 16;
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
    pub(super) bits: Vec<u8>,
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
    pub(super) index: NodeIndex,
    /// Options made of several parts (sums), kept as groups rather than sum nodes: for a node,
    /// an index into `group_pool` holding the number of options and the end of each option's
    /// parts within the node's list. Only symmetric lists are grouped; `NO_GAME` for none.
    pub(super) groups: FxHashMap<u32, u32>,
    pub(super) group_pool: Vec<u32>,
    /// Nodes whose lists were let go, and how many edge slots they held.
    dead: usize,
}

/// The nodes of a query's graph by what they are, so that each is made once.
#[derive(Default)]
pub(super) struct NodeIndex {
    pub(super) by_game: FxHashMap<GameId, u32>,
    /// Local node of each session position met, by key id.
    pub(super) by_pos: PosIndex,
    /// Sums made by moves, by their (sorted) parts, which live in the node's own list.
    /// Entries keep a 32-bit hash beside the node, so growing the table reads no lists.
    pub(super) by_parts: HashTable<(u32, u32)>,
    /// Entailing and carry-on options built by the explorer: what they wrap.
    pub(super) synth: FxHashMap<u32, (Synth, u32)>,
    pub(super) synth_index: FxHashMap<(Synth, u32), u32>,
    /// The classes (and flags) of the value leaves, one leaf per distinct class.
    pub(super) values: Vec<(Class, u8, u32)>,
    pub(super) value_index: FxHashMap<(Class, u8), u32>,
}

/// Session position ids → local nodes. A query that meets few positions of a large session
/// (one more value asked of a graph already valued) keeps a hash map; one that meets many
/// switches to a flat array, which must not cost the session's size for every small query.
#[derive(Default)]
pub(super) struct PosIndex {
    dense: Vec<u32>,
    sparse: FxHashMap<u32, u32>,
    /// The largest id met while sparse.
    top: u32,
}

impl PosIndex {
    pub(super) fn get(&self, p: PosId) -> Option<u32> {
        if self.dense.is_empty() {
            self.sparse.get(&p).copied()
        } else {
            self.dense
                .get(p as usize)
                .copied()
                .filter(|&u| u != NO_GAME)
        }
    }

    pub(super) fn insert(&mut self, p: PosId, u: u32) {
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
pub(super) enum Synth {
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

    pub(super) fn set_kind(&mut self, u: u32, kind: Kind) {
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

    pub(super) fn push(&mut self, kind: Kind, origin: u32, expanded: bool) -> u32 {
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
    pub(super) fn intern_sum(&mut self, parts: &[u32]) -> u32 {
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
    pub(super) fn set_list(&mut self, u: u32, list: &[u32]) {
        let s = self.edges.len() as u32;
        self.edges.extend_from_slice(list);
        self.left[u as usize] = (s, list.len() as u32);
        if self.bits[u as usize] & RIGHT != 0 {
            self.right.remove(&u);
            self.bits[u as usize] &= !RIGHT;
        }
    }

    pub(super) fn set_lists(&mut self, u: u32, left: &[u32], right: &[u32]) {
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
