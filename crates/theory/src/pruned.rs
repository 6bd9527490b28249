//! Pruned search for the nimbers and outcomes of sums (Lemoine & Viennot, "Nimbers are
//! inevitable", TCS 462, 2012, arXiv 1011.5841): whether `G₁ + … + Gₖ + *n` is a P-position,
//! computing a part's nimber only where the search needs it.
//!
//! A question is `is(G, n)`: is the nimber of the part `G` equal to `n` (is `G + *n` a
//! P-position)? It is no when an option `G'` has nimber `n` (one witness ends the search:
//! that is the pruning), or when the nimber is some `m < n` (`is(G, m)`); it is yes otherwise.
//! An option is itself a sum of parts: the parts whose nimbers are known fold into the heap,
//! the nimbers of all but the largest unknown part are computed (`nim`), and the question goes
//! to the largest with the folded heap. `nim(G)` asks `is(G, 0)`, `is(G, 1)`, … until one
//! says yes: each needs only a witness among the options for every value below, never an
//! option's whole nimber. Past [`ASKS`] values, and for a part of at most [`SMALL`] weight,
//! it takes the mex of its options' nimbers instead (as does every `nim` below such a mex).
//! In a finite game ([`Weigh::finite`]) a nimber is at most the number of options, so
//! `is(G, n)` with more is no at once, and with as many and every value below ruled out it is
//! yes (Beling's count). A loopy part with few options may have no nimber and no option `*n`:
//! only a witness rules `n` out for it.
//!
//! What is learned stays in a [`Table`] across queries: a part's exact nimber, or the values
//! it is known not to have. Exact nimbers also go to the session's memo, where every engine
//! finds them. The table has a fixed capacity and, when full, replaces the entry of least work
//! in a bucket ([`table`]): a lost fact is relearned, never a wrong answer.
//!
//! A ruleset may help ([`Hint`]): a bound on a part's nimber (`is(G, n)` with `n` above it is
//! no without looking at `G`, and once every `m` below it is ruled out the nimber is the
//! bound), a key that orders the options, or a part's nimber where the ruleset knows it (a
//! table of small parts). A bound is trusted where it saves a search (a wrong one can give a
//! wrong answer there) and checked wherever the search values a part by its options anyway:
//! a nimber found above it is the ruleset's error ([`Weigh::wrong_bound`]).
//!
//! **When an answer is sound.** A yes is given only after every option of the part was shown
//! to lack nimber `n` by a witness of exact nimber `n` among its own options (or by its own
//! exact nimber), and every `m < n` was shown to be an option's nimber. These are the
//! conditions of Smith's labelling for `G = *n`, so the answer holds for loopy games too,
//! provided no question needs itself: a part met again while its own options are being
//! searched is a cycle of moves, and the search stops with [`Stop::Cycle`] (what it learned
//! stays; the query goes to the loopy engine). An entailing or carry-on option, or a part
//! that is a store form other than a nimber, is outside normal play: [`Stop::NotNormal`].

use crate::classify::Memo;
use loony_core::class::Class;
use loony_core::diag::Error;
use loony_core::game::{Node, Store};
use loony_core::positions::PosId;
use loony_graph::demand::{self, Demand, Step};
use loony_graph::memo::Key;
use loony_graph::options::{Atom, OptBuf};
use loony_graph::source::Source;
use rustc_hash::FxHashSet;

pub mod table;

pub use table::UNKNOWN;
pub use table::{DEFAULT_CAPACITY, ENTRY_BYTES, Fact, Stats, Table, WAYS};

impl Table {
    fn exact(&self, memo: &Memo, p: PosId) -> Option<u32> {
        match self.known_exact(p) {
            Some(UNKNOWN) => {}
            Some(e) => return Some(e),
            // No page for `p`: the slots may know.
            None => {
                if let Some(f) = self.get(p)
                    && f.exact != UNKNOWN
                {
                    return Some(f.exact);
                }
            }
        }
        // Nimbers other engines found.
        memo.nimber(Key::Pos(p)).map(|(n, _)| n)
    }

    /// The answer to `is(p, n)` if the table or the memo has it.
    fn is(&self, memo: &Memo, p: PosId, n: u32) -> Option<bool> {
        if let Some(e) = self.exact(memo, p) {
            return Some(e == n);
        }
        if n >= 64 && self.not_high(p, n) {
            return Some(false);
        }
        let f = self.get(p)?;
        if (n < 64 && f.not >> n & 1 == 1) || (f.options != UNKNOWN && n > f.options) {
            return Some(false);
        }
        // At most `n` and none below: `n` (Beling's count, which spares the options' search).
        let below = (1u64 << n.min(63)) - 1;
        if n == f.options && n < 64 && f.not & below == below {
            return Some(true);
        }
        None
    }

    /// [`Table::is`], counted as a lookup (and a hit when it answers).
    fn ask(&mut self, memo: &Memo, p: PosId, n: u32) -> Option<bool> {
        let r = self.is(memo, p, n);
        self.stats.lookups += 1;
        if r.is_some() {
            self.stats.hits += 1;
        }
        r
    }
}

/// Why a search gave no answer.
#[derive(Debug)]
pub enum Stop {
    /// A part was met again while its options were being searched: the game is loopy there.
    Cycle(PosId),
    /// An entailing or carry-on option, or a part that is not a nimber of normal play.
    NotNormal,
    /// Ctrl-C, a budget, or an error of the rules.
    Error(Error),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Self {
        Stop::Error(e)
    }
}

/// Where a search is, for its progress line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Questions open, one inside another.
    pub depth: u32,
    /// The root's question (whether it is `*n`), the option of it being looked at (from 1)
    /// and its options: how far a long solve has come.
    pub root: Option<(u32, u32, u32)>,
}

/// How the search sees the size of a part, to keep the largest part of a sum for the last
/// question (the others' nimbers are cheaper to compute) and to try small options first.
pub trait Weigh {
    fn weight(&self, store: &Store, p: PosId) -> u64;
    /// Told how the search is going now and then (with the Ctrl-C poll): the table (its
    /// counters for a progress line; what it has learned, to save while the search runs).
    fn progress(&mut self, _store: &Store, _table: &Table, _at: &Place) {}
    /// What the part's ruleset says of it (its `bound by`, `order by` and `value by`).
    fn hint(&mut self, _store: &mut Store, _p: PosId) -> Result<Hint, Error> {
        Ok(Hint::NONE)
    }
    /// [`Weigh::hint`] if it was computed already (a lookup that cannot fail), else none.
    fn hinted(&self, _p: PosId) -> Hint {
        Hint::NONE
    }
    /// What an option's part needs worked out when it is listed: its order, if the ruleset
    /// orders options (else what [`Weigh::hinted`] has). A bound and a value are worked out
    /// when the part is first asked about, so that the parts listed and never asked about
    /// cost no hint.
    fn listed_hint(&mut self, store: &mut Store, p: PosId) -> Result<Hint, Error> {
        self.hint(store, p)
    }
    /// Whether the part's game is finite: every run of moves from it ends. Then its nimber
    /// is the mex of its options' (none is loopy), so it is at most their number, and a part
    /// with fewer options than `n` is no option's witness for `n` and still not `*n`. A loopy
    /// part may lack a nimber with few options: for it only a witness rules `n` out.
    fn finite(&mut self, _store: &Store, _p: PosId) -> bool {
        false
    }
    /// The error of a ruleset whose bound on the part `p` is below its nimber `n`.
    fn wrong_bound(&mut self, _store: &mut Store, p: PosId, n: u32, bound: u32) -> Error {
        let _ = (p, n, bound);
        unreachable!("a bound comes from a hint")
    }
}

/// What a ruleset tells the search of one part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The nimber is at most this ([`UNKNOWN`]: no bound).
    pub bound: u32,
    /// Options are tried in increasing sum of their unknown parts' keys (`None`: the weight).
    pub order: Option<u64>,
    /// The nimber, where the ruleset knows it, or [`UNKNOWN`].
    pub value: u32,
}

impl Hint {
    pub const NONE: Hint = Hint {
        bound: UNKNOWN,
        order: None,
        value: UNKNOWN,
    };
}

/// The nimber of the part `p`.
pub fn nimber<S: Source + Weigh>(
    store: &mut Store,
    src: &mut S,
    table: &mut Table,
    p: PosId,
) -> Result<u32, Stop> {
    let mut s = Search::new(store, src, table);
    if let Some(k) = s.hinted_value(p)? {
        return Ok(k);
    }
    s.root = p;
    demand::solve(&mut s, Ask::Nim(p))
}

/// Whether the sum of `parts` (positions, and a heap `n` folding nimbers already known) is a
/// P-position: the nimbers of all parts but the largest, then one question.
pub fn is_p<S: Source + Weigh>(
    store: &mut Store,
    src: &mut S,
    table: &mut Table,
    parts: &[PosId],
    n: u32,
) -> Result<bool, Stop> {
    let mut s = Search::new(store, src, table);
    let mut heap = n;
    let mut unknown: Vec<PosId> = Vec::new();
    for &p in parts {
        s.table.stats.lookups += 1;
        let hinted = s.hinted_value(p)?;
        match hinted.or_else(|| s.table.exact(s.src.memo_ref(), p)) {
            Some(k) => {
                s.table.stats.hits += 1;
                heap ^= k;
            }
            None => unknown.push(p),
        }
    }
    let Some(last) = s.largest(&unknown) else {
        return Ok(heap == 0);
    };
    for &p in &unknown {
        if p != last {
            s.root = p;
            heap ^= demand::solve(&mut s, Ask::Nim(p))?;
        }
    }
    s.root = last;
    Ok(demand::solve(&mut s, Ask::Is(last, heap))? == 1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    Nim(PosId),
    Is(PosId, u32),
}

impl Ask {
    fn pos(self) -> PosId {
        match self {
            Ask::Nim(p) | Ask::Is(p, _) => p,
        }
    }
}

/// One question being answered.
enum Frame {
    /// `nim(p)`: asks `is(p, n)` for `n = 0, 1, …`.
    Nim {
        p: PosId,
        n: u32,
        /// `is(p, n)` said yes: the nimber is `n`.
        found: bool,
        /// The table's count of questions opened when this one was.
        start: u64,
    },
    /// `nim(p)` of a small part: the mex of its options' nimbers.
    Mex(MexFrame),
    Is(IsFrame),
}

struct MexFrame {
    p: PosId,
    /// As in [`IsFrame`].
    start: u64,
    /// As in [`IsFrame`].
    opts: Vec<u32>,
    next: usize,
    pending: Vec<PosId>,
    heap: u32,
    /// The options' nimbers seen, as a bit set.
    seen: Vec<u64>,
}

struct IsFrame {
    p: PosId,
    n: u32,
    /// The table's count of questions opened when this one was (the work of what it learns
    /// is the count when it finishes less this).
    start: u64,
    /// The options, each `len` then its parts (positions; nimbers tagged with [`NIM`]),
    /// in the order they are tried; empty until expanded.
    opts: Vec<u32>,
    /// Where the next option starts in `opts`.
    next: usize,
    /// The unknown parts of the option being looked at, its known nimbers folded into
    /// `heap`; the last of `pending` is the one the final question goes to.
    pending: Vec<PosId>,
    heap: u32,
    /// What the frame waits for.
    wait: Wait,
    /// Searching options (`true`) or the values below `n` (`false`).
    in_options: bool,
    /// The next `m < n` to rule out once the options are done.
    m: u32,
    /// The answer, once there is one.
    answer: Option<bool>,
    /// The option's last part is being valued whole (its nimber, not one question).
    whole: bool,
    /// Options taken up so far, of `options`.
    taken: u32,
    options: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Wait {
    Nothing,
    /// The nimber of a part of the current option (not its last).
    PartNim,
    /// Whether the current option's last part has the value that makes the option `*n`.
    OptionIs,
    /// Whether the part's own nimber is `m`.
    Below,
}

/// The options of the parts listed last, one slot for each hash of a part's id (a part met
/// again soon, as by `is(G, 0)` then `is(G, 1)`, finds its options there; an options list is
/// a pure function of the position). [`Recent::SLOTS`] slots of a few hundred bytes each.
#[derive(Default)]
struct Recent {
    slots: Vec<(PosId, OptBuf)>,
}

impl Recent {
    const BITS: u32 = 12;
    const SLOTS: usize = 1 << Self::BITS;

    fn slot(p: PosId) -> usize {
        (p.wrapping_mul(0x9E37_79B1) >> (32 - Self::BITS)) as usize
    }

    /// The options of `p` if its slot holds them (the slot is then empty).
    fn take(&mut self, p: PosId) -> Option<OptBuf> {
        let s = self.slots.get_mut(Self::slot(p))?;
        (s.0 == p).then(|| {
            s.0 = PosId::MAX;
            std::mem::take(&mut s.1)
        })
    }

    /// Keeps the options of `p` in its slot; gives back what the slot held, for reuse.
    fn put(&mut self, p: PosId, buf: OptBuf) -> OptBuf {
        if self.slots.is_empty() {
            self.slots
                .resize_with(Self::SLOTS, || (PosId::MAX, OptBuf::default()));
        }
        let s = &mut self.slots[Self::slot(p)];
        s.0 = p;
        std::mem::replace(&mut s.1, buf)
    }
}

/// A part that is a nimber, in an option's list.
const NIM: u32 = 1 << 31;

struct Search<'a, S> {
    store: &'a mut Store,
    src: &'a mut S,
    table: &'a mut Table,
    buf: OptBuf,
    /// Options listed lately: a part asked several questions in a row is listed once.
    recent: Recent,
    /// Scratch for [`Search::expand`]: each option's key, start and length in `flat`.
    keyed: Vec<(u64, u32, u32)>,
    flat: Vec<u32>,
    /// Parts whose options are being searched: met again, they are a cycle.
    searching: FxHashSet<PosId>,
    /// Parts of at most this weight are valued by the plain mex (see [`SMALL`]).
    small: u64,
    /// `nim(p)` asks this many questions before it takes the mex instead (see [`ASKS`]).
    asks: u32,
    /// Mex frames open: below one, a nimber is the mex of its options' at once (the mex
    /// needs each option's whole nimber, so questions first cost a search each for nothing).
    in_mex: usize,
    /// The part the search was asked about, and where the search is (for progress).
    root: PosId,
    place: Place,
}

/// A part whose nimber is not among the first `ASKS` values is valued by the mex of its
/// options' nimbers. Questions up to there: the mex values every option whole, and below it
/// every part it meets, so a part of nimber 3 took a full valuation of everything under it
/// (`nimber(cram(4, 7))`, *3: 154 000 questions and 4.7 s with 3 asks, 63 000 and 1.1 s with
/// questions; Node Kayles on random 40/60 graphs of value *8 within 10 % either way). 64 is
/// where a part's table entry stops keeping one bit a value it lacks.
pub const ASKS: u32 = 64;

/// Parts of at most this weight ([`Weigh`]) are valued whole, by the mex of their options:
/// for them a full valuation costs less than the questions. Measured on Cram (user time of
/// the nimbers of 3 × 13, 4 × 9 and 5 × 7 without hints, twice: 8 cells 10.0 and 11.0 s,
/// 16 cells 9.7 and 9.3 s, 24 cells 32 s) and Node Kayles (random graphs of 40 and 60
/// vertices, within noise from 8 to 16).
pub const SMALL: u64 = 16;

impl<'a, S: Source + Weigh> Search<'a, S> {
    fn new(store: &'a mut Store, src: &'a mut S, table: &'a mut Table) -> Self {
        Search {
            store,
            src,
            table,
            buf: OptBuf::default(),
            recent: Recent::default(),
            keyed: Vec::new(),
            flat: Vec::new(),
            searching: FxHashSet::default(),
            small: SMALL,
            asks: ASKS,
            in_mex: 0,
            root: PosId::MAX,
            place: Place::default(),
        }
    }

    /// The part of greatest weight (the last question goes to it).
    fn largest(&mut self, parts: &[PosId]) -> Option<PosId> {
        let mut best: Option<(u64, std::cmp::Reverse<PosId>)> = None;
        for &p in parts {
            let k = (self.weight(p), std::cmp::Reverse(p));
            if best.is_none_or(|b| k > b) {
                best = Some(k);
            }
        }
        best.map(|(_, std::cmp::Reverse(p))| p)
    }

    /// The weight of the part `p` ([`Weigh::weight`], kept in the table).
    fn weight(&mut self, p: PosId) -> u64 {
        if let Some(w) = self.table.weight(p) {
            return w;
        }
        let w = self.src.weight(self.store, p);
        self.table.set_weight(p, w);
        w
    }

    /// The options of `p` as the frame keeps them, options with fewer and lighter unknown
    /// parts first (they answer sooner); its option count goes to the table.
    fn expand(&mut self, p: PosId) -> Result<(Vec<u32>, u32), Stop> {
        let buf = match self.recent.take(p) {
            Some(buf) => buf,
            None => {
                let mut buf = std::mem::take(&mut self.buf);
                buf.clear();
                self.src.expand_pos(self.store, p, &mut buf)?;
                buf
            }
        };
        let (mut keyed, mut flat) = (
            std::mem::take(&mut self.keyed),
            std::mem::take(&mut self.flat),
        );
        keyed.clear();
        flat.clear();
        let r = self.key_options(&buf, &mut keyed, &mut flat);
        // The slot's old options become the next listing's buffer.
        self.buf = self.recent.put(p, buf);
        let r = r.and_then(|()| {
            let count = keyed.len() as u32;
            let bound = self.src.hint(self.store, p)?.bound;
            let options = if self.src.finite(self.store, p) {
                count.min(bound)
            } else {
                bound
            };
            if options != UNKNOWN {
                let fact = Fact {
                    options,
                    ..Fact::default()
                };
                self.table.learn(p, &fact, 1);
            }
            // Options of equal key keep the rules' order (their starts increase).
            keyed.sort_unstable_by_key(|&(w, start, _)| (w, start));
            let mut out = Vec::with_capacity(flat.len() + keyed.len());
            for &(_, start, len) in &keyed {
                out.push(len);
                out.extend_from_slice(&flat[start as usize..(start + len) as usize]);
            }
            Ok((out, count))
        });
        (self.keyed, self.flat) = (keyed, flat);
        r
    }

    /// Each option of `buf` as its unknown parts then its folded heap (tagged [`NIM`]), with
    /// the key it is tried by: fewer and lighter unknown parts first (or the ruleset's order).
    fn key_options(
        &mut self,
        buf: &OptBuf,
        keyed: &mut Vec<(u64, u32, u32)>,
        parts: &mut Vec<u32>,
    ) -> Result<(), Stop> {
        for o in &buf.opts {
            if !o.is_plain() {
                return Err(Stop::NotNormal);
            }
            let start = parts.len() as u32;
            let mut heap = 0u32;
            let mut weight = 0u64;
            for a in buf.parts(o) {
                match *a {
                    Atom::Pos(q) => match self.table.exact(self.src.memo_ref(), q) {
                        Some(k) => heap ^= k,
                        None => {
                            let h = self.src.listed_hint(self.store, q)?;
                            if h.value != UNKNOWN {
                                self.learn_value(q, h.value);
                                heap ^= h.value;
                                continue;
                            }
                            weight += 1 + h.order.unwrap_or_else(|| self.weight(q));
                            parts.push(q);
                        }
                    },
                    Atom::Game(g) => match self.store.node(g) {
                        Node::Nimber(k) => heap ^= k,
                        _ => match self.src.memo_ref().nimber(Key::Game(g)) {
                            Some((k, _)) => heap ^= k,
                            None => return Err(Stop::NotNormal),
                        },
                    },
                }
            }
            if heap >= NIM {
                return Err(Stop::NotNormal);
            }
            parts.push(NIM | heap);
            keyed.push((weight, start, parts.len() as u32 - start));
        }
        Ok(())
    }

    /// A part's nimber given by its ruleset (`value by`), learned as if found.
    fn learn_value(&mut self, p: PosId, n: u32) {
        let fact = Fact {
            exact: n,
            ..Fact::default()
        };
        self.table.learn(p, &fact, 1);
        self.src.memo().insert(Key::Pos(p), &Class::Nimber(n), 0);
    }

    /// The nimber of `p` if its ruleset gives it (then learned).
    fn hinted_value(&mut self, p: PosId) -> Result<Option<u32>, Stop> {
        let h = self.src.hint(self.store, p)?;
        if h.value == UNKNOWN {
            return Ok(None);
        }
        self.learn_value(p, h.value);
        Ok(Some(h.value))
    }

    /// Opens the frame of a question (see [`Demand::open`]).
    fn open_frame(&mut self, key: Ask) -> Result<Frame, Stop> {
        self.table.stats.opened += 1;
        let start = self.table.stats.opened;
        // The part's own hints, worked out now if its listing did not: a value, or a bound
        // below the question, answers it without listing the part's options.
        let h = self.src.hint(self.store, key.pos())?;
        let given = match key {
            _ if h.value != UNKNOWN => {
                self.learn_value(key.pos(), h.value);
                Some(h.value)
            }
            Ask::Is(_, n) if h.bound != UNKNOWN && n > h.bound => Some(UNKNOWN),
            _ => None,
        };
        if let Some(v) = given {
            return Ok(match key {
                Ask::Nim(p) => Frame::Nim {
                    p,
                    n: v,
                    found: true,
                    start,
                },
                Ask::Is(p, n) => Frame::Is(IsFrame {
                    p,
                    n,
                    start,
                    opts: Vec::new(),
                    next: 0,
                    pending: Vec::new(),
                    heap: 0,
                    wait: Wait::Nothing,
                    in_options: false,
                    m: 0,
                    answer: Some(v == n),
                    whole: false,
                    taken: 0,
                    options: 0,
                }),
            });
        }
        Ok(match key {
            Ask::Nim(p) if self.weight(p) <= self.small => self.mex_frame(p, start)?,
            Ask::Nim(p) => Frame::Nim {
                p,
                n: 0,
                found: false,
                start,
            },
            Ask::Is(p, n) => {
                let (opts, count) = self.expand(p)?;
                let mut f = IsFrame {
                    p,
                    n,
                    start,
                    opts,
                    next: 0,
                    pending: Vec::new(),
                    heap: 0,
                    wait: Wait::Nothing,
                    in_options: true,
                    m: 0,
                    answer: None,
                    whole: false,
                    taken: 0,
                    options: count,
                };
                if n > count && self.src.finite(self.store, p) {
                    f.answer = Some(false);
                } else {
                    self.searching.insert(p);
                }
                Frame::Is(f)
            }
        })
    }

    /// Moves an `is` frame on until it needs something or has its answer.
    fn step_is(&mut self, f: &mut IsFrame) -> Result<Step<Ask>, Stop> {
        loop {
            if f.answer.is_some() {
                return Ok(Step::Done);
            }
            if !f.in_options {
                // Every option lacks `*n`; the nimber is `n` unless it is some `m < n`.
                while f.m < f.n {
                    match self.table.ask(self.src.memo_ref(), f.p, f.m) {
                        Some(true) => {
                            f.answer = Some(false);
                            return Ok(Step::Done);
                        }
                        Some(false) => f.m += 1,
                        None => {
                            f.wait = Wait::Below;
                            return Ok(Step::Need(Ask::Is(f.p, f.m)));
                        }
                    }
                }
                f.answer = Some(true);
                return Ok(Step::Done);
            }
            if f.pending.is_empty() && f.whole {
                // Every part of the option has its nimber: the option is `*heap`.
                f.whole = false;
                if f.heap == f.n {
                    f.answer = Some(false);
                    continue;
                }
            }
            if f.pending.is_empty() {
                // The next option.
                if f.next >= f.opts.len() {
                    f.in_options = false;
                    self.searching.remove(&f.p);
                    continue;
                }
                let len = f.opts[f.next] as usize;
                let parts = &f.opts[f.next + 1..f.next + 1 + len];
                f.next += 1 + len;
                f.taken += 1;
                if f.p == self.root {
                    self.place.root = Some((f.n, f.taken, f.options));
                }
                f.heap = parts[len - 1] & !NIM;
                for &q in &parts[..len - 1] {
                    match self.table.exact(self.src.memo_ref(), q) {
                        Some(k) => f.heap ^= k,
                        None => f.pending.push(q),
                    }
                }
                if f.pending.is_empty() {
                    if f.heap == f.n {
                        f.answer = Some(false);
                    }
                    continue;
                }
                // The largest part last: its question comes after the others' nimbers.
                if f.pending.len() > 1 {
                    let last = self.largest(&f.pending).expect("parts");
                    let at = f.pending.iter().position(|&q| q == last).expect("there");
                    let end = f.pending.len() - 1;
                    f.pending.swap(at, end);
                }
            }
            if f.pending.len() > 1 {
                let q = f.pending[0];
                match self.table.exact(self.src.memo_ref(), q) {
                    Some(k) => {
                        f.heap ^= k;
                        f.pending.swap_remove(0);
                        continue;
                    }
                    None => {
                        f.wait = Wait::PartNim;
                        return Ok(Step::Need(Ask::Nim(q)));
                    }
                }
            }
            let q = f.pending[0];
            let want = f.n ^ f.heap;
            if self.weight(q) <= self.small {
                // A small part: its nimber, by the plain mex, is cheaper than questions.
                f.whole = true;
                f.wait = Wait::PartNim;
                return Ok(Step::Need(Ask::Nim(q)));
            }
            match self.table.ask(self.src.memo_ref(), q, want) {
                Some(yes) => {
                    f.pending.clear();
                    if yes {
                        f.answer = Some(false);
                    }
                }
                None => {
                    f.wait = Wait::OptionIs;
                    return Ok(Step::Need(Ask::Is(q, want)));
                }
            }
        }
    }

    /// Moves a mex frame on until it needs a part's nimber or has seen every option.
    fn step_mex(&mut self, f: &mut MexFrame) -> Step<Ask> {
        loop {
            while let Some(&q) = f.pending.last() {
                match self.table.exact(self.src.memo_ref(), q) {
                    Some(k) => {
                        f.heap ^= k;
                        f.pending.pop();
                        if f.pending.is_empty() {
                            note(&mut f.seen, f.heap);
                        }
                    }
                    None => return Step::Need(Ask::Nim(q)),
                }
            }
            if f.next >= f.opts.len() {
                return Step::Done;
            }
            let len = f.opts[f.next] as usize;
            let parts = &f.opts[f.next + 1..f.next + 1 + len];
            f.next += 1 + len;
            f.heap = parts[len - 1] & !NIM;
            f.pending.extend_from_slice(&parts[..len - 1]);
            // Valued now or after its parts (in `take`, then here).
            if f.pending.is_empty() {
                note(&mut f.seen, f.heap);
            }
        }
    }

    fn mex_frame(&mut self, p: PosId, start: u64) -> Result<Frame, Stop> {
        let (opts, _) = self.expand(p)?;
        self.searching.insert(p);
        self.in_mex += 1;
        Ok(Frame::Mex(MexFrame {
            p,
            start,
            opts,
            next: 0,
            pending: Vec::new(),
            heap: 0,
            seen: Vec::new(),
        }))
    }

    /// Questions opened since `start` (the work a fact learned now cost).
    fn work(&self, start: u64) -> u32 {
        (self.table.stats.opened - start).min(u64::from(u32::MAX)) as u32
    }

    /// Learns that `p` has nimber `n`, unless that is above the ruleset's bound on it.
    fn record_exact(&mut self, p: PosId, n: u32, start: u64) -> Result<(), Stop> {
        let bound = self.src.hinted(p).bound;
        if bound != UNKNOWN && n > bound {
            return Err(Stop::Error(self.src.wrong_bound(self.store, p, n, bound)));
        }
        let fact = Fact {
            exact: n,
            ..Fact::default()
        };
        self.table.learn(p, &fact, self.work(start));
        self.src.memo().insert(Key::Pos(p), &Class::Nimber(n), 0);
        Ok(())
    }
}

impl<S: Source + Weigh> Demand for Search<'_, S> {
    type Key = Ask;
    type Frame = Frame;
    type Out = u32;
    type Error = Stop;

    fn known(&mut self, key: &Ask) -> Option<u32> {
        let memo = self.src.memo_ref();
        let h = self.src.hinted(key.pos());
        let r = match *key {
            _ if h.value != UNKNOWN => Some(match *key {
                Ask::Nim(_) => h.value,
                Ask::Is(_, n) => u32::from(h.value == n),
            }),
            Ask::Is(_, n) if h.bound != UNKNOWN && n > h.bound => Some(0),
            Ask::Nim(p) => self.table.exact(memo, p),
            Ask::Is(p, n) => self.table.is(memo, p, n).map(u32::from),
        };
        self.table.stats.lookups += 1;
        if r.is_some() {
            self.table.stats.hits += 1;
        }
        r
    }

    fn enter(&mut self, key: &Ask) -> Result<(), Stop> {
        let p = key.pos();
        if self.searching.contains(&p) {
            return Err(Stop::Cycle(p));
        }
        Ok(())
    }

    fn open(&mut self, key: Ask) -> Result<Frame, Stop> {
        let f = self.open_frame(key)?;
        self.place.depth += 1;
        Ok(f)
    }

    fn poll(&mut self) -> Result<(), Stop> {
        self.src.progress(self.store, self.table, &self.place);
        if self.src.interrupted() {
            return Err(Stop::Error(Error::new(
                loony_core::diag::CoreError::Interrupted,
            )));
        }
        Ok(())
    }

    fn leave(&mut self, frame: &Frame) {
        self.place.depth -= 1;
        match frame {
            Frame::Is(f) if f.in_options => {
                self.searching.remove(&f.p);
            }
            Frame::Mex(f) => {
                self.searching.remove(&f.p);
                self.in_mex -= 1;
            }
            _ => {}
        }
    }
    fn step(&mut self, frame: &mut Frame) -> Result<Step<Ask>, Stop> {
        match frame {
            Frame::Nim { p, n, found, start } => {
                let p = *p;
                if *found {
                    return Ok(Step::Done);
                }
                if let Some(k) = self.table.exact(self.src.memo_ref(), p) {
                    (*n, *found) = (k, true);
                    return Ok(Step::Done);
                }
                // Every value below the ruleset's bound is ruled out: the nimber is the bound.
                if *n == self.src.hinted(p).bound {
                    *found = true;
                    let (n, start) = (*n, *start);
                    self.record_exact(p, n, start)?;
                    return Ok(Step::Done);
                }
                // Below a mex every option's nimber is wanted whole: no questions first.
                if self.in_mex == 0 && *n < self.asks {
                    return Ok(Step::Need(Ask::Is(p, *n)));
                }
                // A nimber this large costs a search per value: the mex of the options'.
                if self.searching.contains(&p) {
                    return Err(Stop::Cycle(p));
                }
                *frame = self.mex_frame(p, *start)?;
                let Frame::Mex(f) = frame else { unreachable!() };
                Ok(self.step_mex(f))
            }
            Frame::Mex(f) => Ok(self.step_mex(f)),
            Frame::Is(f) => self.step_is(f),
        }
    }

    fn take(&mut self, frame: &mut Frame, out: u32) {
        match frame {
            Frame::Nim { n, found, .. } => {
                // `is(p, n)` was no: try the next; a yes is the nimber.
                if out == 0 {
                    *n += 1;
                } else {
                    *found = true;
                }
            }
            Frame::Mex(f) => {
                f.heap ^= out;
                f.pending.pop();
                if f.pending.is_empty() {
                    note(&mut f.seen, f.heap);
                }
            }
            Frame::Is(f) => match std::mem::replace(&mut f.wait, Wait::Nothing) {
                Wait::PartNim => {
                    f.heap ^= out;
                    f.pending.swap_remove(0);
                }
                Wait::OptionIs => {
                    f.pending.clear();
                    if out == 1 {
                        f.answer = Some(false);
                    }
                }
                Wait::Below => {
                    if out == 1 {
                        f.answer = Some(false);
                    } else {
                        f.m += 1;
                    }
                }
                Wait::Nothing => unreachable!("a frame takes only what it asked for"),
            },
        }
    }

    fn finish(&mut self, frame: Frame) -> Result<u32, Stop> {
        Ok(match frame {
            Frame::Nim { n, found, .. } => {
                debug_assert!(found, "nim(p) finishes when is(p, n) said yes");
                n
            }
            Frame::Mex(f) => {
                let n = mex(&f.seen);
                self.record_exact(f.p, n, f.start)?;
                n
            }
            Frame::Is(f) => {
                let yes = f.answer.expect("an is frame finishes with its answer");
                if yes {
                    self.record_exact(f.p, f.n, f.start)?;
                } else {
                    let work = self.work(f.start);
                    self.table.set_not(f.p, f.n, work);
                }
                u32::from(yes)
            }
        })
    }
}

fn note(seen: &mut Vec<u64>, k: u32) {
    let (w, b) = (k as usize / 64, k % 64);
    if seen.len() <= w {
        seen.resize(w + 1, 0);
    }
    seen[w] |= 1 << b;
}

fn mex(seen: &[u64]) -> u32 {
    for (i, &w) in seen.iter().enumerate() {
        if w != u64::MAX {
            return i as u32 * 64 + (!w).trailing_zeros();
        }
    }
    seen.len() as u32 * 64
}
