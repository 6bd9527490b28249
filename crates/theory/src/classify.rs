//! The class of every node of a query's graph, one strongly connected component at a time, by
//! the engine the component calls for:
//!
//! * a node on no cycle whose options are nimbers and loopy values: the generalized mex (plain
//!   mex when every option is a nimber: normal play);
//! * a cycle of impartial positions without infinities: the loopy labelling ([`super::loopy`]);
//! * a position with infinities or entailing options below it and no cycle: the affine engine
//!   ([`super::affine`]), then the literal moon and the special moons are recognised;
//! * sums: Table 1 ([`loony_core::class::sum`]).
//!
//! What no theory covers (partizan forms, cycles through entailing moves) gets a class that
//! says so; the exact solver answers its outcome.

use super::affine::{self, AffineError, AffineGraph, AffineValue, Shape};
use super::loopy::{INF, Labeller, LoopyView, Outside as Gamma};
use crate::error::TheoryError;
use loony_core::class::{Class, Outside};
use loony_core::diag::{CoreError, Error};
use loony_core::game::display::{self, Notation};
use loony_core::game::{GameId, Node, Store};
use loony_graph::{Digraph, Explorer, Kind, PosGraph, Side};
use rustc_hash::FxHashMap;

mod errors;
pub use errors::{affine_error, explain, not_impartial, not_impartial_node};
use errors::{infinite_game, infinite_game_parts};

pub use loony_graph::memo::{CYCLIC, ENTAILING, Key, Memo, PARTIZAN};
use loony_graph::memo::{Codec, PAYLOAD, UNKNOWN};

/// The classes of one query's nodes, a word each (classes the word cannot hold, huge nimbers,
/// kept aside).
#[derive(Default)]
pub struct ClassTable {
    code: Vec<u32>,
    flags: Vec<u8>,
    codec: Codec,
    wide: FxHashMap<u32, Class>,
}

const WIDE: u32 = u32::MAX - 1;

impl ClassTable {
    pub fn get(&self, u: u32) -> Option<Class> {
        match *self.code.get(u as usize)? {
            UNKNOWN => None,
            WIDE => self.wide.get(&u).cloned(),
            c => Some(self.codec.decode(c)),
        }
    }

    pub fn is_set(&self, u: u32) -> bool {
        self.code.get(u as usize).is_some_and(|&c| c != UNKNOWN)
    }

    pub fn flags(&self, u: u32) -> u8 {
        self.flags.get(u as usize).copied().unwrap_or(0)
    }

    /// The nimber of a node classed as one.
    pub fn nimber(&self, u: u32) -> Option<u32> {
        match self.code.get(u as usize).copied()? {
            UNKNOWN | WIDE => self.get(u).and_then(|c| c.nimber()),
            c if c >> 28 == 0 => Some(c & PAYLOAD),
            _ => None,
        }
    }

    /// A nimber or a loopy value, as the labeller reads it.
    fn gamma(&self, u: u32) -> Option<Gamma<'_>> {
        let c = *self.code.get(u as usize)?;
        if c == UNKNOWN || c == WIDE {
            return match self.wide.get(&u) {
                Some(Class::Nimber(k)) => Some(Gamma::Finite(*k)),
                _ => None,
            };
        }
        match c >> 28 {
            0 => Some(Gamma::Finite(c & PAYLOAD)),
            3 => self.codec.loopy(c).map(Gamma::Infinite),
            _ => None,
        }
    }

    fn set(&mut self, u: u32, class: &Class, flags: u8) {
        let code = match self.codec.encode(class) {
            Some(c) => c,
            None => {
                self.wide.insert(u, class.clone());
                WIDE
            }
        };
        self.set_code(u, code, flags);
    }

    /// Sets a class by its word in this table's codec.
    fn set_code(&mut self, u: u32, code: u32, flags: u8) {
        let i = u as usize;
        if self.code.len() <= i {
            self.code.resize(i + 1, UNKNOWN);
            self.flags.resize(i + 1, 0);
        }
        self.code[i] = code;
        self.flags[i] = flags;
    }

    /// The word of `u`'s class in `memo`'s codec, if it has one; `sets` caches what this
    /// table's loopy sets are there (so a component of millions translates each set once).
    fn memo_code(&self, u: u32, memo: &mut Memo, sets: &mut Vec<u32>) -> Option<u32> {
        let c = *self.code.get(u as usize)?;
        match c {
            UNKNOWN => None,
            WIDE => memo.codec.encode(self.wide.get(&u)?),
            c if c >> 28 == 3 => {
                let id = (c & PAYLOAD) as usize;
                if sets.len() <= id {
                    sets.resize(id + 1, UNKNOWN);
                }
                if sets[id] == UNKNOWN {
                    sets[id] = memo.codec.encode(&self.codec.decode(c))?;
                }
                Some(sets[id])
            }
            // Every other word means the same in every codec.
            c => Some(c),
        }
    }

    fn grow(&mut self, n: usize) {
        if self.code.len() < n {
            self.code.resize(n, UNKNOWN);
            self.flags.resize(n, 0);
        }
    }
}

/// The classes of a query's nodes.
pub struct Analysis {
    pub table: ClassTable,
    /// The query's affine engine (its memo is by local id, good for the whole query).
    affine: affine::AffineEngine<u32>,
    /// For a partizan node: the node whose sides differ, with the reason.
    witness: FxHashMap<u32, u32>,
    reasons: FxHashMap<u32, Error>,
}

impl Analysis {
    pub fn class(&self, u: u32) -> Option<Class> {
        self.table.get(u)
    }

    pub fn flags(&self, u: u32) -> u8 {
        self.table.flags(u)
    }

    /// A normal-play game with no cycle and no infinity: Sprague–Grundy applies everywhere.
    pub fn is_pure_nimber(&self, u: u32) -> bool {
        self.flags(u) == 0 && self.table.nimber(u).is_some()
    }

    /// Why a partizan node has no impartial value.
    pub fn reason(&self, u: u32) -> Option<&Error> {
        let w = self.witness.get(&u).copied().unwrap_or(u);
        self.reasons.get(&w)
    }
}

struct View<'a> {
    graph: &'a PosGraph,
    table: &'a ClassTable,
}

impl LoopyView for View<'_> {
    fn options(&self, u: u32) -> &[u32] {
        self.graph.left(u)
    }
    fn outside(&self, v: u32) -> Gamma<'_> {
        self.table
            .gamma(v)
            .expect("only nimbers and loopy values reach the labeller")
    }
}

/// The affine engine's view of the query graph: store forms in, options listed by the
/// explorer, known classes handed over so valued positions are not walked again.
struct AffineView<'e, 'a> {
    ex: &'e mut Explorer<'a>,
    class: &'e ClassTable,
}

impl AffineGraph for AffineView<'_, '_> {
    type Id = u32;
    type Error = Error;

    fn shape(&mut self, u: u32) -> Result<Shape<u32>, Error> {
        Ok(match self.ex.graph.kind(u) {
            Kind::LeftWin => Shape::LeftWin,
            Kind::RightWin => Shape::RightWin,
            Kind::Sum => Shape::Sum(self.ex.graph.parts(u).to_vec()),
            _ => Shape::Form,
        })
    }

    fn parts_into(&mut self, u: u32, out: &mut Vec<u32>) -> Result<bool, Error> {
        let sum = self.ex.graph.kind(u) == Kind::Sum;
        if sum {
            out.extend_from_slice(self.ex.graph.parts(u));
        }
        Ok(sum)
    }

    fn is_win(&mut self, u: u32, left: bool) -> Result<bool, Error> {
        let want = if left { Kind::LeftWin } else { Kind::RightWin };
        Ok(self.ex.graph.kind(u) == want)
    }

    fn left_options(&mut self, u: u32, out: &mut Vec<u32>) -> Result<(), Error> {
        self.ex.options_into(u, Side::Left, out)
    }

    fn right_options(&mut self, u: u32, out: &mut Vec<u32>) -> Result<(), Error> {
        self.ex.options_into(u, Side::Right, out)
    }

    fn conjugate(&mut self, u: u32) -> Result<u32, Error> {
        self.ex.conjugate(u)
    }

    fn nimber(&mut self, n: u32) -> u32 {
        let g = self.ex.store.nimber(n);
        self.ex.node(g).expect("nimbers are leaves")
    }

    fn sum(&mut self, parts: &[u32]) -> Result<u32, Error> {
        self.ex.sum(parts)
    }

    fn known_value(&mut self, u: u32) -> Option<AffineValue> {
        let c = match self.class.get(u) {
            Some(c) => c,
            None => {
                let k = self.ex.graph.key(u)?;
                self.ex.src.memo().get(k)?.0
            }
        };
        match c.affine()? {
            Class::Nimber(k) => Some(AffineValue::Nimber(k)),
            _ => Some(AffineValue::Moon),
        }
    }

    fn known_set(&mut self, u: u32, protect: bool) -> Option<affine::NimSet> {
        let (tag, key) = self.ex.check_key(u)?;
        self.ex
            .src
            .memo()
            .affine_sets
            .get(&(tag, key, protect))
            .cloned()
    }

    fn interrupted(&self) -> bool {
        self.ex.src.interrupted()
    }
}

/// Runs the query's affine engine (one per query: its memo is by local id).
fn run_affine<T>(
    ex: &mut Explorer,
    eng: &mut affine::AffineEngine<u32>,
    class: &ClassTable,
    f: impl FnOnce(&mut affine::AffineEngine<u32>, &mut AffineView) -> T,
) -> T {
    let mut view = AffineView { ex, class };
    f(eng, &mut view)
}

/// Keeps the protected and counter sets the query's affine engine found, for later queries.
fn keep_affine_sets(ex: &mut Explorer, eng: &affine::AffineEngine<u32>) {
    let keep: Vec<((u8, Key, bool), affine::NimSet)> = eng
        .sets()
        .filter_map(|(u, protect, set)| {
            let (tag, key) = ex.check_key(u)?;
            Some(((tag, key, protect), set.clone()))
        })
        .collect();
    ex.src.memo().affine_sets.extend(keep);
}

/// Explores from `root` and classes every node reached.
pub fn classify(ex: &mut Explorer, root: u32) -> Result<Analysis, Error> {
    let mut an = Analysis {
        table: ClassTable::default(),
        witness: FxHashMap::default(),
        reasons: FxHashMap::default(),
        affine: affine::AffineEngine::new(),
    };
    let mut lab = Labeller::new();
    // Tarjan's algorithm run while exploring: a node is expanded when first visited, and each
    // strongly connected component is classed as soon as it is complete (sinks first), so the
    // lists of finished normal-play and loopy components can be let go at once.
    const UNSEEN: u32 = u32::MAX;
    const DONE: u32 = 1 << 31;
    // Per node one word: its index while on the stack, DONE | its component after. A lowlink
    // is needed only while its node is being visited (a finished node passes it to its
    // parent; later edges to it read its index), so it lives in the call frame.
    let mut st: Vec<u32> = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    // (node, place in the list being walked, lowlink); the place has RIGHT set on Right's
    // list. Lists move when the graph compacts its edges: a place is kept by offset, and a
    // step reads the list's start and one edge.
    const RIGHT: u32 = 1 << 31;
    let mut calls: Vec<(u32, u32, u32)> = Vec::new();
    let mut memo_sets: Vec<u32> = Vec::new();
    let (mut next, mut ncomp, mut steps) = (0u32, 0u32, 0u32);
    let visit = |ex: &mut Explorer,
                 st: &mut Vec<u32>,
                 stack: &mut Vec<u32>,
                 calls: &mut Vec<(u32, u32, u32)>,
                 next: &mut u32,
                 u: u32|
     -> Result<(), Error> {
        if st.len() <= u as usize {
            st.resize((u as usize + 1).max(ex.graph.len()), UNSEEN);
        }
        st[u as usize] = *next;
        stack.push(u);
        if ex.graph.kind(u) != Kind::Known && ex.remembered_check(u).is_none() {
            ex.expand(u)?;
        }
        // A node without successors on Left's list starts past its end.
        let [(ls, le), _] = ex.graph.successor_ranges(u);
        calls.push((u, if ls < le { 0 } else { !RIGHT }, *next));
        *next += 1;
        Ok(())
    };
    visit(ex, &mut st, &mut stack, &mut calls, &mut next, root)?;
    while let Some(&(u, place, _)) = calls.last() {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(1 << 14) && ex.src.interrupted() {
            return Err(Error::new(CoreError::Interrupted));
        }
        if let Some(v) = ex.graph.successor(u, place & RIGHT != 0, place & !RIGHT) {
            calls.last_mut().expect("nonempty").1 += 1;
            if st.len() <= v as usize {
                st.resize((v as usize + 1).max(ex.graph.len()), UNSEEN);
            }
            let sv = st[v as usize];
            if sv == UNSEEN {
                visit(ex, &mut st, &mut stack, &mut calls, &mut next, v)?;
            } else if sv & DONE == 0 {
                let top = calls.last_mut().expect("nonempty");
                top.2 = top.2.min(sv);
            }
            continue;
        }
        // Then Right's list, if it is another.
        if place & RIGHT == 0 {
            let [_, (rs, re)] = ex.graph.successor_ranges(u);
            if rs < re {
                calls.last_mut().expect("nonempty").1 = RIGHT;
                continue;
            }
        }
        let (_, _, low) = calls.pop().expect("nonempty");
        if let Some(parent) = calls.last_mut() {
            parent.2 = parent.2.min(low);
        }
        if low != st[u as usize] {
            continue;
        }
        // A complete component: the top of the stack down to u, classed where it lies (in
        // the order it leaves the stack, last visited first).
        let mut k = stack.len();
        loop {
            k -= 1;
            let w = stack[k];
            st[w as usize] = DONE | ncomp;
            if w == u {
                break;
            }
        }
        stack[k..].reverse();
        let members = &stack[k..];
        let c = ncomp;
        ncomp += 1;
        let m = members[0];
        let looped = members.len() > 1 || {
            let (a, b) = ex.graph.successors(m);
            a.contains(&m) || b.contains(&m)
        };
        grow(&mut an, ex.graph.len());
        if looped {
            let st_ref = &st;
            cycle(ex, &mut an, &mut lab, members, &|v| {
                st_ref.get(v as usize) == Some(&(DONE | c))
            })?;
        } else if let Some(f) = ex.remembered_check(m) {
            // A check is an option of an affine game, not one itself (as `form` classes it).
            set(&mut an, m, Class::Partizan, f | ENTAILING);
        } else {
            single(ex, &mut an, &mut lab, m)?;
        }
        finish(ex, &an, members, &mut memo_sets);
        stack.truncate(k);
    }
    keep_affine_sets(ex, &an.affine);
    Ok(an)
}

/// Remembers the classes of a finished component for later queries, and lets go of the lists
/// of its nodes when the query only wants values and nothing entailing hangs below them.
fn finish(ex: &mut Explorer, an: &Analysis, members: &[u32], sets: &mut Vec<u32>) {
    let (lw, rw) = (ex.left_win(), ex.right_win());
    for &u in members {
        let g = &ex.graph;
        // Checks are not remembered: their parents read their structure, not a class. (A
        // check has ∞ or ∞̄ among its options, so it is classed entailing: nothing else needs
        // its lists read.)
        let looks = |u: u32| {
            g.kind(u) == Kind::Form
                && g.is_expanded(u)
                && (g.left(u).contains(&lw) || g.right(u).contains(&rw))
        };
        let check = an.flags(u) & ENTAILING != 0 && looks(u);
        debug_assert_eq!(check, looks(u), "a check classed without ENTAILING");
        if let Some(k) = g.key(u)
            && g.kind(u) != Kind::Known
            && !check
        {
            let memo = ex.src.memo();
            if let Some(code) = an.table.memo_code(u, memo, sets) {
                memo.insert_code(k, code, an.flags(u));
            }
        }
    }
    // Only values the engines never look inside again: nimbers and loopy values with nothing
    // entailing below (a partizan form may yet be walked by the affine engine to name it).
    // (Read from the class's word, without decoding it: a component may have millions.)
    let settled = |u: u32| an.flags(u) & ENTAILING == 0 && an.table.gamma(u).is_some();
    if ex.reach.fold_known && members.iter().all(|&u| settled(u)) {
        for &u in members {
            ex.graph.release(u);
        }
    }
}

fn grow(an: &mut Analysis, n: usize) {
    an.table.grow(n);
}

fn set(an: &mut Analysis, u: u32, class: Class, flags: u8) {
    an.table.set(u, &class, flags);
}

fn single(ex: &mut Explorer, an: &mut Analysis, lab: &mut Labeller, u: u32) -> Result<(), Error> {
    let g = &ex.graph;
    match g.kind(u) {
        Kind::LeftWin => set(an, u, Class::LeftWin, ENTAILING),
        Kind::RightWin => set(an, u, Class::RightWin, ENTAILING),
        Kind::Nimber(k) => set(an, u, Class::Nimber(k), 0),
        Kind::Value(i) => {
            let (c, f) = g.value(i);
            let c = c.clone();
            set(an, u, c, f);
        }
        Kind::Known => {
            let key = g.key(u).expect("known nodes are remembered by key");
            let (c, f) = ex.src.memo().get(key).expect("a known node is in the memo");
            set(an, u, c, f);
        }
        Kind::Sum => {
            let parts = g.parts(u);
            let flags = parts.iter().fold(0, |f, &p| f | an.flags(p));
            let class = sum_class(an, parts);
            if class == Class::Partizan
                && let Some(&p) = parts
                    .iter()
                    .find(|&&p| an.class(p) == Some(Class::Partizan))
            {
                let w = an.witness.get(&p).copied().unwrap_or(p);
                an.witness.insert(u, w);
            }
            set(an, u, class, flags);
        }
        Kind::Form => form(ex, an, lab, u)?,
    }
    Ok(())
}

fn form(ex: &mut Explorer, an: &mut Analysis, lab: &mut Labeller, u: u32) -> Result<(), Error> {
    let g = &ex.graph;
    let (lw, rw) = (ex.left_win(), ex.right_win());
    let here_entailing = g.left(u).contains(&lw)
        || g.right(u).contains(&rw)
        || g.left(u).contains(&rw)
        || g.right(u).contains(&lw);
    let below = g
        .left(u)
        .iter()
        .chain(g.right(u))
        .fold(0, |f, &v| f | an.flags(v));
    let entailing = here_entailing || below & ENTAILING != 0;
    let flags = below | if here_entailing { ENTAILING } else { 0 };
    if !entailing {
        let _ = lab;
        return impartial_form(ex, an, u, flags);
    }
    entailing_form(ex, an, u, flags)
}

/// A form with no infinity below it: partizan unless Left's and Right's options are one set,
/// else valued by the generalized mex.
#[inline]
fn impartial_form(ex: &mut Explorer, an: &mut Analysis, u: u32, flags: u8) -> Result<(), Error> {
    let g = &ex.graph;
    if !g.is_symmetric_list(u) && !same_set(g.left(u), g.right(u)) {
        let e = not_impartial_node(ex, u)?;
        an.reasons.insert(u, e);
        set(an, u, Class::Partizan, flags | PARTIZAN);
        return Ok(());
    }
    // The generalized mex over the options' values (sums valued part by part): the mex m
    // of the nimbers, unless an option is loopy and cannot be answered by a move to m.
    let mut small = 0u64;
    let mut big: Vec<u32> = Vec::new();
    let mut loopy: Vec<std::rc::Rc<[u32]>> = Vec::new();
    let mut partizan = None;
    let mut other = false;
    for grp in g.groups(u) {
        // Nimbers straight from the table (normal play: nearly every option).
        if let [v] = grp
            && let Some(k) = an.table.nimber(*v)
        {
            if k < 64 {
                small |= 1 << k;
            } else {
                big.push(k);
            }
            continue;
        }
        let c = match grp {
            [v] => match an.class(*v) {
                Some(c) => c,
                None => unreachable!("options are classed before their position"),
            },
            parts => {
                let classes: Vec<Class> = parts
                    .iter()
                    .map(|&p| an.class(p).expect("parts are classed"))
                    .collect();
                let c = loony_core::class::sum(classes.iter());
                if c == Class::Partizan {
                    partizan = parts
                        .iter()
                        .copied()
                        .find(|&p| an.class(p) == Some(Class::Partizan));
                }
                c
            }
        };
        match c {
            Class::Nimber(k) if k < 64 => small |= 1 << k,
            Class::Nimber(k) => big.push(k),
            Class::Loopy(a) => loopy.push(a),
            Class::Partizan => {
                partizan = partizan.or(Some(grp[0]));
            }
            _ => other = true,
        }
    }
    if let Some(p) = partizan {
        let w = an.witness.get(&p).copied().unwrap_or(p);
        an.witness.insert(u, w);
        set(an, u, Class::Partizan, flags | PARTIZAN);
        return Ok(());
    }
    if other {
        // Moons or undetermined values without an infinity reachable cannot happen: those
        // classes only arise below infinities.
        set(
            an,
            u,
            Class::Undetermined(Outside::LoopyAndEntailing),
            flags,
        );
        return Ok(());
    }
    let m = if small != u64::MAX {
        (!small).trailing_zeros()
    } else {
        big.sort_unstable();
        big.dedup();
        let mut m = 64;
        for &v in &big {
            if v == m {
                m += 1;
            } else if v > m {
                break;
            }
        }
        m
    };
    let class = if loopy.iter().all(|a| a.binary_search(&m).is_ok()) {
        Class::Nimber(m)
    } else {
        let mut finite: Vec<u32> = (0..64).filter(|k| small >> k & 1 == 1).collect();
        finite.extend_from_slice(&big);
        finite.sort_unstable();
        finite.dedup();
        Class::Loopy(ex.src.memo().intern_set(&finite))
    };
    set(an, u, class, flags);
    Ok(())
}

/// A form with an infinity below it (entailing or carry-on moves): valued by the affine
/// engine, unless it is on a cycle or is a check.
fn entailing_form(
    ex: &mut Explorer,
    an: &mut Analysis,
    u: u32,
    mut flags: u8,
) -> Result<(), Error> {
    let (lw, rw) = (ex.left_win(), ex.right_win());
    let g = &ex.graph;
    if flags & CYCLIC != 0 {
        set(
            an,
            u,
            Class::Undetermined(Outside::LoopyAndEntailing),
            flags,
        );
        return Ok(());
    }
    // A check (∞ on one side only) is an option of an affine game, not an affine game itself.
    if g.left(u).contains(&lw) != g.right(u).contains(&rw) {
        set(an, u, Class::Partizan, flags);
        return Ok(());
    }
    // The affine engine reads option lists: sums become nodes, valued from their parts.
    if ex.graph.is_grouped(u) {
        let before = ex.graph.len();
        ex.ungroup(u)?;
        value_new_sums(ex, an, before, u);
    }
    let table = std::mem::take(&mut an.table);
    let r = run_affine(ex, &mut an.affine, &table, |eng, view| eng.value(view, u));
    an.table = table;
    grow(an, ex.graph.len());
    let class = match r {
        Ok(AffineValue::Nimber(k)) => Class::Nimber(k),
        Ok(AffineValue::Moon) => {
            // The recognition reads checks' answers: make sure they are listed.
            for v in ex.graph.left(u).to_vec() {
                ex.expand(v)?;
            }
            grow(an, ex.graph.len());
            moon_class(ex, an, u)
        }
        Err(AffineError::Graph(e)) => return Err(e),
        Err(AffineError::Interrupted) => return Err(Error::new(CoreError::Interrupted)),
        Err(AffineError::Cycle { .. }) => Class::Undetermined(Outside::LoopyAndEntailing),
        Err(e) => {
            let e = affine_error(ex, e);
            an.reasons.insert(u, e);
            flags |= PARTIZAN;
            Class::Partizan
        }
    };
    set(an, u, class, flags);
    Ok(())
}

fn same_set(a: &[u32], b: &[u32]) -> bool {
    let (mut x, mut y) = (a.to_vec(), b.to_vec());
    x.sort_unstable();
    x.dedup();
    y.sort_unstable();
    y.dedup();
    x == y
}

/// The class of a sum from its parts' classes (classed already): a nim-sum when every part
/// is a nimber (nearly every sum), without gathering the classes.
fn sum_class(an: &Analysis, parts: &[u32]) -> Class {
    let mut k = 0;
    if parts.iter().all(|&p| match an.table.nimber(p) {
        Some(n) => {
            k ^= n;
            true
        }
        None => false,
    }) {
        return Class::Nimber(k);
    }
    let classes: Vec<Class> = parts
        .iter()
        .map(|&p| an.class(p).expect("parts are classed before their sum"))
        .collect();
    loony_core::class::sum(classes.iter())
}

/// Classes for the sum nodes made since node `from` by ungrouping `u` (their parts are
/// classed), and for the value leaves its options became.
fn value_new_sums(ex: &Explorer, an: &mut Analysis, from: usize, u: u32) {
    grow(an, ex.graph.len());
    let g = &ex.graph;
    for &v in g.left(u).iter().chain(g.right(u)) {
        if let Kind::Value(i) = g.kind(v)
            && an.class(v).is_none()
        {
            let (c, f) = g.value(i);
            set(an, v, c.clone(), f);
        }
    }
    for s in from..ex.graph.len() {
        let s = s as u32;
        if ex.graph.kind(s) == Kind::Sum && an.class(s).is_none() {
            let parts = ex.graph.parts(s);
            let flags = parts.iter().fold(0, |f, &p| f | an.flags(p));
            let class = sum_class(an, parts);
            set(an, s, class, flags);
        }
    }
}

/// Which ☾ an affine game equal to ☾ is beside loopy games (seed 001 §2): the moon itself when
/// the first player wins at once (a move to ∞, or a check nobody can answer), a special moon
/// `⟫(n)` when the form is one up to the values of its options, else no class of the algebra.
fn moon_class(ex: &mut Explorer, an: &Analysis, u: u32) -> Class {
    // Nodes listed just now (a remembered check's answers) are classed in the memo.
    let class_of = |ex: &mut Explorer, v: u32| {
        an.class(v).or_else(|| {
            let k = ex.graph.key(v)?;
            ex.src.memo().get(k).map(|(c, _)| c)
        })
    };
    let answers_of: Vec<(u32, Vec<Option<Class>>)> = ex
        .graph
        .left(u)
        .to_vec()
        .into_iter()
        .map(|v| {
            let answers = ex.graph.right(v).to_vec();
            (v, answers.into_iter().map(|w| class_of(ex, w)).collect())
        })
        .collect();
    let own: Vec<Option<Class>> = ex
        .graph
        .left(u)
        .to_vec()
        .into_iter()
        .map(|v| class_of(ex, v))
        .collect();
    let g = &ex.graph;
    let lw = ex.left_win();
    let left = g.left(u);
    if left.contains(&lw) {
        return Class::Moon;
    }
    let is_check = |v: u32| g.kind(v) == Kind::Form && g.is_expanded(v) && g.left(v).contains(&lw);
    // A check whose every answer leaves Left a move to ∞.
    let unanswerable = |v: u32| g.right(v).iter().all(|&w| w == lw || is_check(w));
    if left.iter().any(|&v| is_check(v) && unanswerable(v)) {
        return Class::Moon;
    }
    // ⟫(n)_A = {{∞ | *n}, A | A, {*n | ∞̄}}, A nimbers and special moons including *n.
    let mut n = None;
    let mut has_n = Vec::new();
    for (i, &v) in left.iter().enumerate() {
        if is_check(v) {
            let answers = g.right(v);
            if answers.is_empty() {
                return Class::EntailingMoon;
            }
            for (j, &w) in answers.iter().enumerate() {
                match &answers_of[i].1[j] {
                    Some(Class::Nimber(k)) if !is_check(w) && n.is_none_or(|m| m == *k) => {
                        n = Some(*k)
                    }
                    _ => return Class::EntailingMoon,
                }
            }
        } else {
            match &own[i] {
                Some(Class::Nimber(k)) => has_n.push(*k),
                Some(Class::SpecialMoon(_)) => {}
                _ => return Class::EntailingMoon,
            }
        }
    }
    match n {
        Some(k) if has_n.contains(&k) => Class::SpecialMoon(k),
        _ => Class::EntailingMoon,
    }
}

fn cycle(
    ex: &mut Explorer,
    an: &mut Analysis,
    lab: &mut Labeller,
    members: &[u32],
    inside: &dyn Fn(u32) -> bool,
) -> Result<(), Error> {
    let (lw, rw) = (ex.left_win(), ex.right_win());
    if let Some(&s) = members.iter().find(|&&m| ex.graph.kind(m) == Kind::Sum) {
        return Err(infinite_game(ex, s, inside));
    }
    // A sum option on the cycle: its part recurs inside its own follower.
    for &m in members {
        if ex.graph.is_grouped(m) {
            let recurring = ex
                .graph
                .groups(m)
                .find(|grp| grp.len() > 1 && grp.iter().any(|&p| inside(p)))
                .map(<[u32]>::to_vec);
            if let Some(parts) = recurring {
                let s = ex.sum(&parts)?;
                return Err(infinite_game_parts(ex, s, &parts, inside));
            }
            let before = ex.graph.len();
            ex.ungroup(m)?;
            value_new_sums(ex, an, before, m);
        }
    }
    let g = &ex.graph;
    let mut flags = CYCLIC;
    let mut pure = true;
    let mut partizan = None;
    for &m in members {
        let (l, r) = (g.left(m), g.right(m));
        if l.contains(&lw) || r.contains(&rw) || l.contains(&rw) || r.contains(&lw) {
            flags |= ENTAILING;
            pure = false;
        }
        if !g.is_symmetric_list(m) && !same_set(l, r) {
            partizan.get_or_insert(m);
            pure = false;
        }
        for &v in l.iter().chain(r) {
            if inside(v) {
                continue;
            }
            flags |= an.flags(v);
            if !matches!(an.class(v), Some(Class::Nimber(_) | Class::Loopy(_))) {
                pure = false;
            }
        }
    }
    if pure {
        let view = View {
            graph: g,
            table: &an.table,
        };
        let interrupted = || ex.src.interrupted();
        if !lab.label(&view, members, &mut || interrupted()) {
            return Err(Error::new(CoreError::Interrupted));
        }
        // Read back one by one (no copy of the results: a component may have millions). The
        // ∞ members share a few A-sets: one is encoded again only when it changes.
        let mut last: Option<((u32, u32), u32)> = None;
        for (i, &u) in members.iter().enumerate() {
            let r = lab.result(i);
            if r.label != INF {
                set(an, u, Class::Nimber(r.label), flags);
                continue;
            }
            let code = match last {
                Some((a, code)) if lab.set(a) == lab.set(r.a) => code,
                _ => {
                    let class = Class::Loopy(ex.src.memo().intern_set(lab.set(r.a)));
                    let code = an.table.codec.encode(&class).expect("sets have words");
                    last = Some((r.a, code));
                    code
                }
            };
            an.table.set_code(u, code, flags);
        }
        return Ok(());
    }
    let class = if let Some(w) = partizan {
        let e = not_impartial_node(ex, w)?;
        an.reasons.insert(w, e);
        flags |= PARTIZAN;
        for &m in members {
            an.witness.insert(m, w);
        }
        Class::Partizan
    } else {
        Class::Undetermined(Outside::LoopyAndEntailing)
    };
    for &m in members {
        set(an, m, class.clone(), flags);
    }
    Ok(())
}
