//! The hash-consed store of game forms.
//!
//! Every form is a node with a `u32` id; a node's options live in one flat array. Options are
//! sorted and deduplicated before interning, so building the same form twice gives the same id
//! and structural equality of forms is id equality. Ruleset positions, sums and entailing
//! wrappers are nodes too; their options are produced on demand (see `graph`). A position's id
//! is its key's id in [`PosTable`] with the top bit set: no node is stored for it, since a
//! list of 10⁶ positions (`[wu(n, s, i) for i in 0..n]`) would otherwise pay 20 bytes each
//! for a second id of what the key already names.

use crate::positions::{PosId, PosTable};
use hashbrown::HashTable;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct GameId(u32);

/// The top bit of a position's id; the rest is its [`PosId`].
const POSITION: u32 = 1 << 31;

impl GameId {
    /// The id as an index (of a table by node: never a position's, see [`GameId::position`]).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The key of a ruleset position's id (`None` for any other node).
    #[inline]
    pub fn position(self) -> Option<PosId> {
        (self.0 & POSITION != 0).then_some(self.0 & !POSITION)
    }

    pub fn from_index(i: u32) -> Self {
        GameId(i)
    }
}

/// A ruleset argument: integers, tuples/lists of them, boards and graphs.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Arg {
    Int(i64),
    Tuple(Rc<[Arg]>),
    List(Rc<[Arg]>),
    Board(Rc<crate::board::Board>),
    Graph(Rc<crate::graphs::Graph>),
}

/// A node as seen from outside the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node<'a> {
    /// ∞: whoever moves here, Left wins.
    LeftWin,
    /// ∞̄: Right wins.
    RightWin,
    /// The canonical nimber `*n` (`*0` is the empty form `{ | }`).
    Nimber(u32),
    Form {
        left: &'a [GameId],
        right: &'a [GameId],
    },
    /// A disjunctive sum of at least two components, none of them 0, ∞ or ∞̄.
    Sum(&'a [GameId]),
    /// A position of a user ruleset; its literal form comes from expanding the ruleset.
    Position { ruleset: u32, pos: PosId },
    /// Left's entailing option `{∞ | P^R}`: Right must answer inside P.
    EntailLeft(GameId),
    /// Right's entailing option `{P^L | ∞̄}`.
    EntailRight(GameId),
    /// A heap of a heap game (take-and-break code or subtraction set).
    Heap { rules: u32, size: u64 },
    /// The literal `∞(A)`: options the nimbers listed (`*a`, a ∈ A) and a move to itself.
    Loopy(&'a [GameId]),
    /// A node named by a label (`a{… a …}`); its form, which may mention the node itself, is
    /// [`Store::label_form`].
    Labelled(u32),
    /// `count` copies of `part` added together (at least two): a long sum's repeated summand,
    /// kept once, so a sum built one summand at a time (`s(n - 1) + *1`) stays small.
    Repeat { part: GameId, count: u32 },
}

/// Sums of more summands than this gather repeated ones into [`Node::Repeat`] (short sums
/// keep every summand, as written).
const REPEAT_FROM: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
enum Tag {
    LeftWin,
    RightWin,
    Nimber,
    Form,
    Sum,
    EntailLeft,
    EntailRight,
    Heap,
    Loopy,
    Labelled,
    Repeat,
}

#[derive(Clone, Copy)]
struct Raw {
    tag: Tag,
    /// Form: start of options; Sum: start of parts; Nimber: n; Entail: P; Heap: rules.
    a: u32,
    /// Form: number of left options; Sum: number of parts; Heap: size (low).
    b: u32,
    /// Form: number of right options; Heap: size (high).
    c: u32,
}

/// The two infinities may not meet in one sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InfinitiesCollide;

pub struct Store {
    nodes: Vec<Raw>,
    data: Vec<GameId>,
    table: HashTable<GameId>,
    /// The session's ruleset positions, by compact key ([`PosTable`]): a position's game id
    /// is its key's id, so a position written in source and one met while exploring are one
    /// key, and no argument list is stored twice.
    pub positions: PosTable,
    ruleset_names: Vec<String>,
    heap_names: Vec<String>,
    heap_codes: Vec<String>,
    conj: Vec<u32>,
    /// Labelled nodes: the label's name and the node's form (`None` while it is being built).
    labels: Vec<(std::rc::Rc<str>, Option<GameId>)>,
    left_win: GameId,
    right_win: GameId,
    nimbers: Vec<GameId>,
    limit: Limit,
}

/// What the store does when a table is full. Interning never unwinds and never leaves a table
/// half updated: a node that does not fit is not made, a stand-in is returned, `stop` is raised
/// so the computation stops at its next poll, and the interpreter reports the first full table
/// ([`Store::check_full`]) instead of any value built since.
struct Limit {
    /// At most this many game nodes (the `u32` ids allow `u32::MAX`; tests lower it).
    nodes: u32,
    full: Option<Full>,
    stop: Option<Arc<AtomicBool>>,
}

const NONE: u32 = u32::MAX;

/// A table of the store that would outgrow its `u32` indices, and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full {
    pub what: &'static str,
    /// How many it holds at most.
    pub limit: u32,
}

impl From<Full> for crate::diag::Error {
    fn from(f: Full) -> Self {
        crate::diag::Error::new(crate::diag::CoreError::Capacity {
            what: f.what.to_string(),
            limit: f.limit.to_string(),
        })
    }
}

/// `n` as a `u32` index of the store's tables, unless it would wrap around.
fn index(n: usize, what: &'static str) -> Result<u32, Full> {
    match u32::try_from(n) {
        Ok(i) if i != NONE => Ok(i),
        _ => Err(Full {
            what,
            limit: NONE - 1,
        }),
    }
}

impl Default for Store {
    fn default() -> Self {
        Self::new()
    }
}

impl Store {
    pub fn new() -> Self {
        let mut s = Store {
            nodes: Vec::new(),
            data: Vec::new(),
            table: HashTable::new(),
            positions: PosTable::default(),
            ruleset_names: Vec::new(),
            heap_names: Vec::new(),
            heap_codes: Vec::new(),
            conj: Vec::new(),
            labels: Vec::new(),
            left_win: GameId(0),
            right_win: GameId(0),
            nimbers: Vec::new(),
            limit: Limit {
                nodes: NONE,
                full: None,
                stop: None,
            },
        };
        s.left_win = s.intern(Tag::LeftWin, 0, 0, 0, &[]);
        s.right_win = s.intern(Tag::RightWin, 0, 0, 0, &[]);
        s
    }

    /// The flag to raise when a table is full (the session's interrupt flag).
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.limit.stop = Some(flag);
    }

    /// Lets the store hold at most `n` game nodes, so that a test can fill it.
    pub fn set_most_nodes(&mut self, n: u32) {
        self.limit.nodes = n;
    }

    /// The id of a new node, if one more fits.
    fn next_node(&self) -> Result<u32, Full> {
        index(self.nodes.len(), "game nodes").and_then(|id| {
            if id < self.limit.nodes {
                Ok(id)
            } else {
                Err(Full {
                    what: "game nodes",
                    limit: self.limit.nodes,
                })
            }
        })
    }

    /// Whether a table has been found full since the last check (and clears it): the values
    /// built since then stand on stand-ins and must not be shown.
    pub fn check_full(&mut self) -> Result<(), Full> {
        match self.limit.full.take() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    /// Whether a table was found full during this computation: then nothing built is cached
    /// (a cache of stand-ins would outlive the statement).
    fn is_full(&self) -> bool {
        self.limit.full.is_some()
    }

    /// Records a full table and stops the computation; the stand-in node to return.
    #[cold]
    fn overflow(&mut self, f: Full) -> GameId {
        self.limit.full.get_or_insert(f);
        if let Some(stop) = &self.limit.stop {
            stop.store(true, Ordering::Relaxed);
        }
        self.left_win
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, g: GameId) -> Node<'_> {
        if let Some(pos) = g.position() {
            return Node::Position {
                ruleset: self.positions.ruleset(pos),
                pos,
            };
        }
        let r = self.nodes[g.index()];
        match r.tag {
            Tag::LeftWin => Node::LeftWin,
            Tag::RightWin => Node::RightWin,
            Tag::Nimber => Node::Nimber(r.a),
            Tag::Form => {
                let s = r.a as usize;
                let l = r.b as usize;
                let n = r.c as usize;
                Node::Form {
                    left: &self.data[s..s + l],
                    right: &self.data[s + l..s + l + n],
                }
            }
            Tag::Sum => Node::Sum(&self.data[r.a as usize..(r.a + r.b) as usize]),
            Tag::EntailLeft => Node::EntailLeft(GameId(r.a)),
            Tag::EntailRight => Node::EntailRight(GameId(r.a)),
            Tag::Heap => Node::Heap {
                rules: r.a,
                size: (r.b as u64) | ((r.c as u64) << 32),
            },
            Tag::Loopy => Node::Loopy(&self.data[r.a as usize..(r.a + r.b) as usize]),
            Tag::Labelled => Node::Labelled(r.a),
            Tag::Repeat => Node::Repeat {
                part: GameId(r.a),
                count: r.b,
            },
        }
    }

    fn hash_of(tag: Tag, a: u32, b: u32, c: u32, data: &[GameId]) -> u64 {
        let mut h = FxHasher::default();
        (tag as u8, a, b, c).hash(&mut h);
        data.hash(&mut h);
        h.finish()
    }

    /// For nodes with data, `a` is ignored in the key (it is the data's position).
    fn intern(&mut self, tag: Tag, a: u32, b: u32, c: u32, data: &[GameId]) -> GameId {
        let has_data = matches!(tag, Tag::Form | Tag::Sum | Tag::Loopy);
        let key_a = if has_data { 0 } else { a };
        let hash = Self::hash_of(tag, key_a, b, c, data);
        let Store {
            nodes,
            data: store_data,
            table,
            ..
        } = self;
        let eq = |&id: &GameId| {
            let r = &nodes[id.index()];
            if r.tag != tag || r.b != b || r.c != c {
                return false;
            }
            if has_data {
                let len = match tag {
                    Tag::Form => r.b + r.c,
                    _ => r.b,
                } as usize;
                &store_data[r.a as usize..r.a as usize + len] == data
            } else {
                r.a == a
            }
        };
        if let Some(&id) = table.find(hash, eq) {
            return id;
        }
        let fits = self.next_node().and_then(|id| {
            // The end of the new data must fit too: a node reads `a..a + len`.
            if has_data {
                index(
                    self.data.len() + data.len(),
                    "options and parts in the game store",
                )?;
            }
            Ok(id)
        });
        let id = match fits {
            Ok(id) => GameId(id),
            Err(f) => return self.overflow(f),
        };
        let Store {
            nodes,
            data: store_data,
            table,
            ..
        } = self;
        let a = if has_data {
            let start = store_data.len() as u32;
            store_data.extend_from_slice(data);
            start
        } else {
            a
        };
        nodes.push(Raw { tag, a, b, c });
        let rehash = |&id: &GameId| {
            let r = &nodes[id.index()];
            let has_data = matches!(r.tag, Tag::Form | Tag::Sum | Tag::Loopy);
            let len = match r.tag {
                Tag::Form => (r.b + r.c) as usize,
                Tag::Sum | Tag::Loopy => r.b as usize,
                _ => 0,
            };
            let d = if has_data {
                &store_data[r.a as usize..r.a as usize + len]
            } else {
                &[][..]
            };
            Self::hash_of(r.tag, if has_data { 0 } else { r.a }, r.b, r.c, d)
        };
        table.insert_unique(hash, id, rehash);
        id
    }

    pub fn left_win(&self) -> GameId {
        self.left_win
    }

    pub fn right_win(&self) -> GameId {
        self.right_win
    }

    pub fn zero(&mut self) -> GameId {
        self.nimber(0)
    }

    pub fn nimber(&mut self, n: u32) -> GameId {
        if let Some(&g) = self.nimbers.get(n as usize) {
            return g;
        }
        let g = self.intern(Tag::Nimber, n, 0, 0, &[]);
        if n as usize == self.nimbers.len() && !self.is_full() {
            self.nimbers.push(g);
        }
        g
    }

    /// The form `{left | right}`. A form that is literally a canonical nimber becomes that
    /// nimber's node, so `{0, * | 0, *}` and `*2` are one id.
    pub fn form(&mut self, left: &[GameId], right: &[GameId]) -> GameId {
        let mut l = left.to_vec();
        let mut r = right.to_vec();
        l.sort_unstable();
        l.dedup();
        r.sort_unstable();
        r.dedup();
        if l == r
            && let Some(n) = self.nimber_set(&l)
        {
            return self.nimber(n);
        }
        let mut data = l.clone();
        data.extend_from_slice(&r);
        match (index(l.len(), "options"), index(r.len(), "options")) {
            (Ok(nl), Ok(nr)) => self.intern(Tag::Form, 0, nl, nr, &data),
            (Err(f), _) | (_, Err(f)) => self.overflow(f),
        }
    }

    /// `Some(n)` when `opts` is exactly `{*0, …, *(n-1)}`.
    fn nimber_set(&self, opts: &[GameId]) -> Option<u32> {
        let n = opts.len();
        let mut seen = vec![false; n];
        for &o in opts {
            match self.node(o) {
                Node::Nimber(k) if (k as usize) < n && !seen[k as usize] => seen[k as usize] = true,
                _ => return None,
            }
        }
        Some(n as u32)
    }

    /// The disjunctive sum of `parts`: nested sums are flattened and zeros dropped; a sum with
    /// ∞ is ∞ (Left has won), and ∞ + ∞̄ has no meaning.
    pub fn sum(&mut self, parts: &[GameId]) -> Result<GameId, InfinitiesCollide> {
        let mut flat: Vec<GameId> = Vec::with_capacity(parts.len());
        let (mut lw, mut rw) = (false, false);
        for &p in parts {
            match self.node(p) {
                Node::Sum(ps) => flat.extend_from_slice(ps),
                Node::Nimber(0) => {}
                Node::LeftWin => lw = true,
                Node::RightWin => rw = true,
                _ => flat.push(p),
            }
        }
        match (lw, rw) {
            (true, true) => return Err(InfinitiesCollide),
            (true, false) => return Ok(self.left_win),
            (false, true) => return Ok(self.right_win),
            _ => {}
        }
        if flat.len() > REPEAT_FROM {
            flat = self.gather_repeats(&flat);
        }
        match flat.len() {
            0 => Ok(self.zero()),
            1 => Ok(flat[0]),
            n => {
                flat.sort_unstable();
                Ok(match index(n, "parts of a sum") {
                    Ok(n) => self.intern(Tag::Sum, 0, n, 0, &flat),
                    Err(f) => self.overflow(f),
                })
            }
        }
    }

    /// A long sum's summands with each repeated one (and the repeats already among them)
    /// gathered into one [`Node::Repeat`].
    fn gather_repeats(&mut self, flat: &[GameId]) -> Vec<GameId> {
        let mut counted: Vec<(GameId, u64)> = flat
            .iter()
            .map(|&p| match self.node(p) {
                Node::Repeat { part, count } => (part, count as u64),
                _ => (p, 1),
            })
            .collect();
        counted.sort_unstable_by_key(|&(p, _)| p);
        let mut out = Vec::with_capacity(counted.len());
        let mut i = 0;
        while i < counted.len() {
            let part = counted[i].0;
            let mut total = 0u64;
            while i < counted.len() && counted[i].0 == part {
                total += counted[i].1;
                i += 1;
            }
            // Past u32 copies (never met in practice), the rest stays a second repeat.
            while total > 0 {
                let n = total.min(u32::MAX as u64);
                total -= n;
                out.push(if n == 1 {
                    part
                } else {
                    self.repeat(part, n as u32)
                });
            }
        }
        out
    }

    /// `count` copies of `part` added together (`count` ≥ 2).
    pub fn repeat(&mut self, part: GameId, count: u32) -> GameId {
        debug_assert!(count >= 2);
        self.intern(Tag::Repeat, part.0, count, 0, &[])
    }

    /// The summands of a sum, repeats written out (a form that is not a sum is its own one).
    pub fn summands(&self, g: GameId) -> Vec<GameId> {
        let mut out = Vec::new();
        let push = |p: GameId, out: &mut Vec<GameId>| match self.node(p) {
            Node::Repeat { part, count } => out.extend(std::iter::repeat_n(part, count as usize)),
            _ => out.push(p),
        };
        match self.node(g) {
            Node::Sum(ps) => {
                for &p in ps {
                    push(p, &mut out);
                }
            }
            _ => push(g, &mut out),
        }
        out
    }

    /// `g` with one summand replaced: the sum after a move in component `i`.
    pub fn replace_part(
        &mut self,
        parts: &[GameId],
        i: usize,
        with: GameId,
    ) -> Result<GameId, InfinitiesCollide> {
        let mut v: Vec<GameId> = parts.to_vec();
        v[i] = with;
        self.sum(&v)
    }

    /// Registers a ruleset named `name`. Positions of an earlier ruleset of that name (one the
    /// session has since replaced) print with a prime from now on, `r′(4)`, and one more for
    /// each later replacement, so they never read as positions of the new one.
    pub fn register_ruleset(&mut self, name: &str) -> u32 {
        for old in &mut self.ruleset_names {
            if old.trim_end_matches('′') == name {
                old.push('′');
            }
        }
        self.ruleset_names.push(name.to_string());
        (self.ruleset_names.len() - 1) as u32
    }

    pub fn ruleset_name(&self, r: u32) -> &str {
        &self.ruleset_names[r as usize]
    }

    /// Registers heap rules by their canonical code; the same code is the same rules.
    pub fn register_heap(&mut self, code: &str) -> u32 {
        if let Some(i) = self.heap_codes.iter().position(|n| n == code) {
            return i as u32;
        }
        self.heap_codes.push(code.to_string());
        self.heap_names.push(code.to_string());
        (self.heap_names.len() - 1) as u32
    }

    pub fn heap_code(&self, r: u32) -> &str {
        &self.heap_codes[r as usize]
    }

    /// Gives heap rules a shorter display name for their positions (the first `let` wins).
    pub fn name_heap(&mut self, r: u32, name: &str) {
        let n = &mut self.heap_names[r as usize];
        if n.starts_with("heap(") || n.starts_with("subtraction(") || n.starts_with("allbut(") {
            *n = name.to_string();
        }
    }

    pub fn heap_name(&self, r: u32) -> &str {
        &self.heap_names[r as usize]
    }

    /// The game of ruleset position `pos`: its key's id, marked (nothing is stored).
    pub fn position(&mut self, pos: PosId) -> GameId {
        if pos & POSITION != 0 {
            return self.overflow(Full {
                what: "positions",
                limit: POSITION - 1,
            });
        }
        GameId(POSITION | pos)
    }

    /// The arguments of a position node's key.
    pub fn position_args(&self, pos: PosId) -> Vec<Arg> {
        self.positions.store_args(pos)
    }

    pub fn heap(&mut self, rules: u32, size: u64) -> GameId {
        if size == 0 {
            return self.zero();
        }
        self.intern(Tag::Heap, rules, size as u32, (size >> 32) as u32, &[])
    }

    /// The literal `∞(A)`: the node whose options are `*a` for `a ∈ values` and itself.
    pub fn loopy(&mut self, values: &[u32]) -> GameId {
        let mut v = values.to_vec();
        v.sort_unstable();
        v.dedup();
        let ids: Vec<GameId> = v.iter().map(|&a| self.nimber(a)).collect();
        match index(ids.len(), "nim-values in `∞(A)`") {
            Ok(n) => self.intern(Tag::Loopy, 0, n, 0, &ids),
            Err(f) => self.overflow(f),
        }
    }

    /// The special moon `⟫(n) = {{∞ | *n}, *n | *n, {*n | ∞̄}}` (seed 001 Def. 22, A = {*n}).
    pub fn special_moon(&mut self, n: u32) -> GameId {
        let (lw, rw, x) = (self.left_win, self.right_win, self.nimber(n));
        let check = self.form(&[lw], &[x]);
        let counter = self.form(&[x], &[rw]);
        self.form(&[check, x], &[x, counter])
    }

    /// A fresh labelled node named `name`, to be given its form by [`Store::define_label`]
    /// once its options (which may mention it) are built.
    pub fn new_label(&mut self, name: &str) -> GameId {
        let k = match index(self.labels.len(), "labelled forms") {
            Ok(k) => k,
            Err(f) => return self.overflow(f),
        };
        self.labels.push((name.into(), None));
        // Labelled nodes are never shared: each is its own key.
        self.intern(Tag::Labelled, k, 0, 0, &[])
    }

    pub fn define_label(&mut self, node: GameId, form: GameId) {
        if let Node::Labelled(k) = self.node(node)
            && !self.is_full()
        {
            self.labels[k as usize].1 = Some(form);
        }
    }

    /// The form of a labelled node (the node itself may occur in it).
    pub fn label_form(&self, k: u32) -> Option<GameId> {
        self.labels[k as usize].1
    }

    pub fn label_name(&self, k: u32) -> &str {
        &self.labels[k as usize].0
    }

    /// Does `node` occur in `g` (through forms, sums, entailing options and other labelled
    /// nodes' forms)? Ruleset positions cannot hold games, so they are not searched.
    pub fn mentions(&self, g: GameId, node: GameId) -> bool {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![g];
        while let Some(x) = stack.pop() {
            if x == node {
                return true;
            }
            if !seen.insert(x) {
                continue;
            }
            match self.node(x) {
                Node::Form { left, right } => stack.extend(left.iter().chain(right)),
                Node::Sum(ps) => stack.extend_from_slice(ps),
                Node::Repeat { part, .. } => stack.push(part),
                Node::EntailLeft(p) | Node::EntailRight(p) => stack.push(p),
                Node::Labelled(k) => stack.extend(self.labels[k as usize].1),
                _ => {}
            }
        }
        false
    }

    pub fn entail_left(&mut self, p: GameId) -> GameId {
        self.intern(Tag::EntailLeft, p.0, 0, 0, &[])
    }

    pub fn entail_right(&mut self, p: GameId) -> GameId {
        self.intern(Tag::EntailRight, p.0, 0, 0, &[])
    }

    /// The conjugate of `g` found so far (a position is its own: impartial, and no node).
    fn conj_of(&self, g: GameId) -> Option<GameId> {
        if g.position().is_some() {
            return Some(g);
        }
        match self.conj.get(g.index()) {
            Some(&c) if c != NONE => Some(GameId(c)),
            _ => None,
        }
    }

    /// The conjugate `-G` (Left and Right swap roles; ∞ and ∞̄ swap). Ruleset positions and heaps
    /// are impartial by construction and are their own conjugates. Iterative, so deep forms
    /// cannot overflow the stack.
    pub fn conjugate(&mut self, g: GameId) -> Result<GameId, InfinitiesCollide> {
        let mut stack = vec![(g, false)];
        // A labelled node's conjugate is a fresh labelled node, known before its form is (the
        // form may mention the node); the forms are filled in at the end.
        let mut pending: Vec<(u32, GameId)> = Vec::new();
        while let Some(&(x, children_done)) = stack.last() {
            if self.conj.len() < self.nodes.len() {
                self.conj.resize(self.nodes.len(), NONE);
            }
            if self.conj_of(x).is_some() {
                stack.pop();
                continue;
            }
            if let Node::Labelled(k) = self.node(x) {
                let name = self.labels[k as usize].0.clone();
                let twin = self.new_label(&name);
                if self.is_full() {
                    return Ok(self.left_win);
                }
                if self.conj.len() < self.nodes.len() {
                    self.conj.resize(self.nodes.len(), NONE);
                }
                self.conj[x.index()] = twin.0;
                self.conj[twin.index()] = x.0;
                pending.push((k, twin));
                stack.pop();
                if let Some(f) = self.labels[k as usize].1 {
                    stack.push((f, false));
                }
                continue;
            }
            let kids: Vec<GameId> = match self.node(x) {
                Node::Form { left, right } => left.iter().chain(right).copied().collect(),
                Node::Sum(ps) => ps.to_vec(),
                Node::Repeat { part, .. } => vec![part],
                Node::EntailLeft(p) | Node::EntailRight(p) => vec![p],
                _ => Vec::new(),
            };
            let pending: Vec<GameId> = kids
                .into_iter()
                .filter(|&k| self.conj_of(k).is_none())
                .collect();
            if !children_done && !pending.is_empty() {
                stack.last_mut().expect("nonempty").1 = true;
                stack.extend(pending.into_iter().map(|k| (k, false)));
                continue;
            }
            let c = |s: &Store, k: GameId| s.conj_of(k).expect("conjugated before");
            let result = match self.node(x) {
                Node::LeftWin => self.right_win,
                Node::RightWin => self.left_win,
                Node::Nimber(_) | Node::Position { .. } | Node::Heap { .. } | Node::Loopy(_) => x,
                Node::Labelled(_) => unreachable!("labelled nodes are handled above"),
                Node::Form { left, right } => {
                    let nl: Vec<GameId> = right.iter().map(|&k| c(self, k)).collect();
                    let nr: Vec<GameId> = left.iter().map(|&k| c(self, k)).collect();
                    self.form(&nl, &nr)
                }
                Node::Sum(ps) => {
                    let v: Vec<GameId> = ps.iter().map(|&k| c(self, k)).collect();
                    self.sum(&v)?
                }
                Node::Repeat { part, count } => {
                    let cp = c(self, part);
                    self.repeat(cp, count)
                }
                Node::EntailLeft(p) => {
                    let cp = c(self, p);
                    self.entail_right(cp)
                }
                Node::EntailRight(p) => {
                    let cp = c(self, p);
                    self.entail_left(cp)
                }
            };
            if self.is_full() {
                return Ok(self.left_win);
            }
            if self.conj.len() < self.nodes.len() {
                self.conj.resize(self.nodes.len(), NONE);
            }
            self.conj[x.index()] = result.0;
            if result.position().is_none() {
                self.conj[result.index()] = x.0;
            }
            stack.pop();
        }
        for (k, twin) in pending {
            if let Some(f) = self.labels[k as usize].1 {
                let cf = self.conj_of(f).expect("conjugated before");
                self.define_label(twin, cf);
            }
        }
        Ok(self.conj_of(g).expect("conjugated above"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_form_same_id() {
        let mut s = Store::new();
        let z = s.zero();
        let a = s.form(&[z], &[z]);
        let b = s.form(&[z, z], &[z]);
        assert_eq!(a, b);
        assert_eq!(a, s.nimber(1));
        let star = s.nimber(1);
        assert_eq!(s.form(&[star, z], &[z, star]), s.nimber(2));
        assert_eq!(s.form(&[], &[]), z);
    }

    #[test]
    fn sums_flatten_and_absorb() {
        let mut s = Store::new();
        let (a, b, c) = (s.nimber(1), s.nimber(2), s.nimber(3));
        let ab = s.sum(&[a, b]).unwrap();
        let abc1 = s.sum(&[ab, c]).unwrap();
        let bc = s.sum(&[b, c]).unwrap();
        let abc2 = s.sum(&[a, bc]).unwrap();
        assert_eq!(abc1, abc2);
        let z = s.zero();
        assert_eq!(s.sum(&[a, z]).unwrap(), a);
        let lw = s.left_win();
        assert_eq!(s.sum(&[a, lw]).unwrap(), lw);
        let rw = s.right_win();
        assert_eq!(s.sum(&[lw, rw]), Err(InfinitiesCollide));
    }

    #[test]
    fn an_index_past_u32_is_a_diagnostic_not_a_wrap() {
        use crate::diag::{CoreError, Error};
        assert_eq!(index(5, "options"), Ok(5));
        let full = index(u32::MAX as usize, "options").unwrap_err();
        let e = Error::from(full);
        assert!(matches!(e.kind(), Some(CoreError::Capacity { what, .. }) if what == "options"));
        assert_eq!(e.code(), "E0212");
    }

    #[test]
    fn a_full_table_stops_the_computation_and_changes_nothing() {
        let mut s = Store::new();
        let flag = Arc::new(AtomicBool::new(false));
        s.set_stop_flag(flag.clone());
        let before = s.len();
        let full = Full {
            what: "game nodes",
            limit: 7,
        };
        let g = s.overflow(full);
        assert_eq!(s.len(), before, "nothing is interned");
        assert!(
            matches!(s.node(g), Node::LeftWin),
            "a node that exists stands in"
        );
        assert!(
            flag.load(Ordering::Relaxed),
            "the computation is told to stop"
        );
        assert_eq!(s.check_full(), Err(full));
        assert_eq!(s.check_full(), Ok(()), "reported once");
    }

    #[test]
    fn conjugate_swaps_sides() {
        let mut s = Store::new();
        let z = s.zero();
        let lw = s.left_win();
        let rw = s.right_win();
        let check = s.form(&[lw], &[z]);
        let counter = s.form(&[z], &[rw]);
        assert_eq!(s.conjugate(check).unwrap(), counter);
        let moon = s.form(&[lw], &[rw]);
        assert_eq!(s.conjugate(moon).unwrap(), moon);
    }
}
