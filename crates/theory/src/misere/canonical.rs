//! The hash-consed store of misère canonical forms (§2 of the digest).
//!
//! A game is interned by its set of canonical options. [`MisereStore::construct`] simplifies an
//! option set by Conway's rules (reversible options, with the Grundy–Smith proviso for 0), so
//! that the store only ever holds simplest forms and equal games have equal ids.
//!
//! Games are created in pairs. When `construct` meets a new game `G`, `G + *` is new as well and
//! its canonical options are exactly `{G' + * : G'} ∪ {G}` (if `G + *` reduced, it would equal an
//! existing game `K`, and `G = K + *` would exist already). So a new game is always the even one
//! of its pair (`b(G) < b(G + *)`), it gets an even id and its partner the next one: `+ *` flips
//! the low bit and the even part clears it, as in CGSuite.

use super::genus::GenusTable;
use super::phylum::Phylum;
use super::{MisereError, Result, mex};
use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

/// A misère canonical game: an index into a misère store ([`MisereStore`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Mid(u32);

impl Mid {
    pub const ZERO: Mid = Mid(0);
    pub const STAR: Mid = Mid(1);

    pub const fn from_raw(raw: u32) -> Mid {
        Mid(raw)
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn raw(self) -> u32 {
        self.0
    }

    /// Parity (§2.3): odd games are `E + *` for an even `E`.
    pub fn is_odd(self) -> bool {
        self.0 & 1 == 1
    }

    /// `G + *`.
    pub fn plus_star(self) -> Mid {
        Mid(self.0 ^ 1)
    }

    /// The even part `E(G)`: `G` if even, else `G + *`.
    pub fn even_part(self) -> Mid {
        Mid(self.0 & !1)
    }

    /// `self + *` when `flip`.
    pub fn star_if(self, flip: bool) -> Mid {
        Mid(self.0 ^ u32::from(flip))
    }

    /// Index of the pair `{E, E + *}` this game belongs to.
    pub fn pair(self) -> usize {
        (self.0 >> 1) as usize
    }
}

#[derive(Clone, Copy)]
struct Rec {
    start: u32,
    len: u32,
    birthday: u32,
    /// G⁺, the normal-play nim value.
    plus: u32,
    /// G⁻, the misère nim value (1 for 0; a P-position has 0).
    minus: u32,
}

/// The largest nim heap built: `*n` holds its `n` options as a list, so the heaps below it take
/// `n²` words (64 MB at this limit).
pub const MAX_NIM_HEAP: u64 = 4096;

pub struct MisereStore {
    recs: Vec<Rec>,
    /// Each game's options sorted by id: the interning key, and membership by binary search.
    by_id: Vec<Mid>,
    /// The same options in ascending canonical order (§5.3).
    canon: Vec<Mid>,
    table: HashTable<Mid>,
    nims: Vec<Mid>,
    /// Sums of even games, keyed by the ordered pair of raw ids.
    sums: FxHashMap<(u32, u32), Mid>,
    /// The phylum of each pair (an odd game has its even part's, §2.3).
    pub(super) phyla: Vec<Phylum>,
    pub(super) genera: GenusTable,
    pub(super) parts: super::parts::PartsCache,
    pub(super) ops: super::ops::OpsCache,
    pub(super) notation: super::notation::NotationCache,
    cancel: Option<Arc<AtomicBool>>,
    /// How many games the current computation may add: (store size at its start, allowance).
    budget: Option<(usize, usize)>,
    steps: u32,
    scratch: Vec<Mid>,
}

impl Default for MisereStore {
    fn default() -> Self {
        Self::new()
    }
}

fn hash_opts(opts: &[Mid]) -> u64 {
    let mut h = FxHasher::default();
    opts.hash(&mut h);
    h.finish()
}

impl MisereStore {
    pub fn new() -> Self {
        let mut s = MisereStore {
            recs: Vec::new(),
            by_id: Vec::new(),
            canon: Vec::new(),
            table: HashTable::new(),
            nims: Vec::new(),
            sums: FxHashMap::default(),
            phyla: Vec::new(),
            genera: GenusTable::default(),
            parts: Default::default(),
            ops: Default::default(),
            notation: Default::default(),
            cancel: None,
            budget: None,
            steps: 0,
            scratch: Vec::new(),
        };
        let zero = s.intern_pair(&[]);
        debug_assert_eq!(zero, Mid::ZERO);
        s.nims.push(Mid::ZERO);
        s.nims.push(Mid::STAR);
        s
    }

    /// Long computations poll this flag and stop with [`MisereError::Interrupted`].
    pub fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// From now on, computations may add at most `games` games (sums of large games create
    /// millions); `None` lifts the limit.
    pub fn set_budget(&mut self, games: Option<usize>) {
        self.budget = games.map(|g| (self.recs.len(), g));
    }

    /// Counts a unit of work; every few thousand units, checks for Ctrl-C and the budget.
    pub(super) fn poll(&mut self) -> Result<()> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(4096) {
            self.check_cancel()?;
            if let Some((start, allowed)) = self.budget
                && self.recs.len() - start > allowed
            {
                return Err(MisereError::Budget(allowed));
            }
        }
        Ok(())
    }

    /// Checks for Ctrl-C now.
    pub(super) fn check_cancel(&self) -> Result<()> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(AtomicOrdering::Relaxed))
        {
            return Err(MisereError::Interrupted);
        }
        Ok(())
    }

    /// Number of games in the store (both parities).
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    pub fn birthday(&self, g: Mid) -> u32 {
        self.recs[g.index()].birthday
    }

    /// G⁺: the normal-play nim value.
    pub fn nim_plus(&self, g: Mid) -> u32 {
        self.recs[g.index()].plus
    }

    /// G⁻: the misère nim value (`MisereNimValue`); `g` is a misère P-position iff it is 0.
    pub fn nim_minus(&self, g: Mid) -> u32 {
        self.recs[g.index()].minus
    }

    /// The canonical options in ascending canonical order (CGSuite's `Options`).
    pub fn options(&self, g: Mid) -> &[Mid] {
        let r = self.recs[g.index()];
        &self.canon[r.start as usize..(r.start + r.len) as usize]
    }

    /// The canonical options sorted by id.
    pub(super) fn options_by_id(&self, g: Mid) -> &[Mid] {
        let r = self.recs[g.index()];
        &self.by_id[r.start as usize..(r.start + r.len) as usize]
    }

    pub fn num_options(&self, g: Mid) -> usize {
        self.recs[g.index()].len as usize
    }

    pub fn has_option(&self, g: Mid, k: Mid) -> bool {
        self.options_by_id(g).binary_search(&k).is_ok()
    }

    pub fn phylum(&self, g: Mid) -> Phylum {
        self.phyla[g.pair()]
    }

    /// Whether `g` is an even game (§2.3).
    pub fn is_even(&self, g: Mid) -> bool {
        !g.is_odd()
    }

    /// The nim heap `*n`.
    pub fn nim(&mut self, n: u64) -> Result<Mid> {
        if n > MAX_NIM_HEAP {
            return Err(MisereError::TooLarge {
                what: super::Limited::NimHeap,
                size: n,
                limit: MAX_NIM_HEAP,
            });
        }
        let n = n as usize;
        while self.nims.len() <= n {
            let k = self.nims.len();
            if k % 2 == 1 {
                let g = self.nims[k - 1].plus_star();
                self.nims.push(g);
            } else {
                self.poll()?;
                let opts = self.nims.clone();
                let g = self.construct(&opts);
                self.nims.push(g);
            }
        }
        Ok(self.nims[n])
    }

    /// The simplest form of the game whose options are `opts` (each already canonical).
    pub fn construct(&mut self, opts: &[Mid]) -> Mid {
        let mut s = std::mem::take(&mut self.scratch);
        s.clear();
        s.extend_from_slice(opts);
        s.sort_unstable();
        s.dedup();
        let g = match self.reduce(&s) {
            Some(g) => g,
            None => self.intern_pair(&s),
        };
        self.scratch = s;
        g
    }

    /// The game `{opts}` (sorted by id, no duplicates) if it is already in the store or
    /// simplifies to a game of the store; `None` if it is a new canonical game. This is the whole
    /// of §2.1–2.2: Rule Z (the proviso for 0), then Rule R (a reversible option through a
    /// grandchild `K ≠ 0`).
    pub fn reduce(&self, opts: &[Mid]) -> Option<Mid> {
        if opts.is_empty() {
            return Some(Mid::ZERO);
        }
        if let Some(g) = self.find(opts) {
            return Some(g);
        }
        // Rule Z: every option has 0 as an option, none is 0, and one is a P-position.
        if opts[0] != Mid::ZERO
            && opts
                .iter()
                .all(|&d| self.options_by_id(d).first() == Some(&Mid::ZERO))
            && opts.iter().any(|&d| self.nim_minus(d) == 0)
        {
            return Some(Mid::ZERO);
        }
        // Rule R: {S} = K when K's options are a proper subset T of S and every member of
        // S ∖ T has K as an option. Members of T are born before K and members of S ∖ T after,
        // so a member of S with the largest birthday is outside T: K is one of its options.
        // Such a K equals {S}, so it has the same G⁺ and G⁻, which discards most candidates
        // before the set tests.
        let (plus, minus) = self.mex_pair(opts);
        let pivot = opts
            .iter()
            .copied()
            .max_by_key(|&d| (self.birthday(d), std::cmp::Reverse(self.num_options(d))))
            .expect("nonempty");
        for &k in self.options_by_id(pivot) {
            if k == Mid::ZERO {
                continue;
            }
            let r = self.recs[k.index()];
            if r.plus != plus || r.minus != minus || r.len as usize >= opts.len() {
                continue;
            }
            if self.reverses_to(opts, k) {
                return Some(k);
            }
        }
        None
    }

    /// Rule R's test for one candidate `k`.
    fn reverses_to(&self, opts: &[Mid], k: Mid) -> bool {
        let t = self.options_by_id(k);
        // t ⊊ opts (both sorted by id), and members of opts outside t have k as an option.
        let mut j = 0;
        for &d in opts {
            if j < t.len() && t[j] == d {
                j += 1;
            } else if j < t.len() && t[j] < d {
                return false; // t has a member missing from opts
            } else if !self.has_option(d, k) {
                return false;
            }
        }
        j == t.len()
    }

    fn mex_pair(&self, opts: &[Mid]) -> (u32, u32) {
        let (mut p, mut m) = (0u64, 0u64);
        let mut big = false;
        for &o in opts {
            let r = self.recs[o.index()];
            if r.plus < 64 {
                p |= 1 << r.plus;
            } else {
                big = true;
            }
            if r.minus < 64 {
                m |= 1 << r.minus;
            } else {
                big = true;
            }
        }
        if !big || (p != u64::MAX && m != u64::MAX) {
            return ((!p).trailing_zeros(), (!m).trailing_zeros());
        }
        let mut v: Vec<u32> = opts.iter().map(|&o| self.recs[o.index()].plus).collect();
        let plus = mex(&mut v);
        let mut v: Vec<u32> = opts.iter().map(|&o| self.recs[o.index()].minus).collect();
        (plus, mex(&mut v))
    }

    fn find(&self, opts: &[Mid]) -> Option<Mid> {
        let h = hash_opts(opts);
        self.table
            .find(h, |&g| self.options_by_id(g) == opts)
            .copied()
    }

    /// Interns the new even game `{opts}` and its odd partner, and computes what every game
    /// carries: birthday, G⁺, G⁻, canonical option order, phylum and genus.
    fn intern_pair(&mut self, opts: &[Mid]) -> Mid {
        let e = Mid::from_raw(u32::try_from(self.recs.len()).expect("more than 2^32 misère games"));
        debug_assert!(!e.is_odd());
        self.push_rec(opts);
        // The partner E + * has options {O + * : O ∈ E} ∪ {E}, with no simplification.
        let mut partner: Vec<Mid> = opts.iter().map(|o| o.plus_star()).collect();
        partner.push(e);
        partner.sort_unstable();
        let o = e.plus_star();
        self.push_rec(&partner);
        debug_assert!(self.birthday(e) < self.birthday(o));
        for g in [e, o] {
            let h = hash_opts(self.options_by_id(g));
            let Self {
                table, recs, by_id, ..
            } = self;
            table.insert_unique(h, g, |&x| {
                let r = recs[x.index()];
                hash_opts(&by_id[r.start as usize..(r.start + r.len) as usize])
            });
        }
        let ph = self.compute_phylum(e);
        self.phyla.push(ph);
        self.compute_genus(e);
        self.compute_genus(o);
        e
    }

    fn push_rec(&mut self, opts: &[Mid]) {
        let start = u32::try_from(self.by_id.len()).expect("misère option table overflow");
        let (plus, minus) = if opts.is_empty() {
            (0, 1)
        } else {
            self.mex_pair(opts)
        };
        let birthday = opts
            .iter()
            .map(|&o| self.birthday(o) + 1)
            .max()
            .unwrap_or(0);
        self.by_id.extend_from_slice(opts);
        let mut sorted = opts.to_vec();
        sorted.sort_by(|&a, &b| self.cmp_canonical(a, b));
        self.canon.extend_from_slice(&sorted);
        self.recs.push(Rec {
            start,
            len: opts.len() as u32,
            birthday,
            plus,
            minus,
        });
    }

    /// CGSuite's canonical order (§5.3): by the even part's birthday, number of options, G⁺, G⁻
    /// and then its options lexicographically; a game just before its odd partner. Two distinct
    /// canonical forms differ somewhere, and the first difference decides, so the comparison
    /// descends one branch in a loop instead of recursing.
    pub fn cmp_canonical(&self, mut a: Mid, mut b: Mid) -> Ordering {
        loop {
            if a == b {
                return Ordering::Equal;
            }
            let (ea, eb) = (a.even_part(), b.even_part());
            if ea == eb {
                return a.is_odd().cmp(&b.is_odd());
            }
            let (ra, rb) = (self.recs[ea.index()], self.recs[eb.index()]);
            let key = |r: Rec| (r.birthday, r.len, r.plus, r.minus);
            match key(ra).cmp(&key(rb)) {
                Ordering::Equal => {}
                other => return other,
            }
            let (la, lb) = (self.options(ea), self.options(eb));
            match la.iter().zip(lb).find(|(x, y)| x != y) {
                Some((&x, &y)) => {
                    a = x;
                    b = y;
                }
                // Unreachable for canonical forms (equal option sets are one game).
                None => return ea.cmp(&eb),
            }
        }
    }

    /// The misère sum `a + b` (§2.4): the simplest form of `{a' + b, a + b'}`. Even parts are
    /// added and `*` put back if exactly one summand is odd, so the memo holds even pairs only.
    /// Iterative: a sum waits on the stack until the sums of its options are known.
    pub fn add(&mut self, a: Mid, b: Mid) -> Result<Mid> {
        let flip = a.is_odd() != b.is_odd();
        let key = Self::sum_key(a.even_part(), b.even_part());
        if let Some(g) = self.sum_known(key) {
            return Ok(g.star_if(flip));
        }
        let mut stack = vec![key];
        let mut buf = Vec::new();
        while let Some(&(x, y)) = stack.last() {
            self.poll()?;
            if self.sum_known((x, y)).is_some() {
                stack.pop();
                continue;
            }
            let (gx, gy) = (Mid::from_raw(x), Mid::from_raw(y));
            let mut missing = false;
            for (&o, other) in self
                .options_by_id(gx)
                .iter()
                .map(|o| (o, gy))
                .chain(self.options_by_id(gy).iter().map(|o| (o, gx)))
            {
                let k = Self::sum_key(o.even_part(), other);
                if self.sum_known(k).is_none() {
                    stack.push(k);
                    missing = true;
                }
            }
            if missing {
                continue;
            }
            buf.clear();
            for (&o, other) in self
                .options_by_id(gx)
                .iter()
                .map(|o| (o, gy))
                .chain(self.options_by_id(gy).iter().map(|o| (o, gx)))
            {
                let s = self
                    .sum_known(Self::sum_key(o.even_part(), other))
                    .expect("pushed above");
                buf.push(s.star_if(o.is_odd()));
            }
            let g = self.construct(&buf);
            self.sums.insert((x, y), g);
            stack.pop();
        }
        Ok(self.sum_known(key).expect("computed").star_if(flip))
    }

    fn sum_key(a: Mid, b: Mid) -> (u32, u32) {
        (a.raw().min(b.raw()), a.raw().max(b.raw()))
    }

    fn sum_known(&self, (x, y): (u32, u32)) -> Option<Mid> {
        if x == 0 {
            return Some(Mid::from_raw(y));
        }
        self.sums.get(&(x, y)).copied()
    }

    /// The misère sum of several games.
    pub fn sum(&mut self, parts: &[Mid]) -> Result<Mid> {
        let mut acc = Mid::ZERO;
        for &p in parts {
            acc = self.add(acc, p)?;
        }
        Ok(acc)
    }

    /// Whether `g` is the nim heap of its birthday.
    pub fn is_nim_heap(&self, g: Mid) -> bool {
        self.phylum(g) == Phylum::NimHeap
    }
}
