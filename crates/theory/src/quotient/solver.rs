//! The per-heap algorithm: Q_n from Q_{n−1}.
//!
//! 1. A heap with no move is worth 1.
//! 2. **Conservative extension.** Q_n = Q_{n−1} iff some x makes (Q, P, Φ + [H_n ↦ x]) right
//!    for every position; x is then unique (Q is reduced). The P-side for H_n alone says
//!    `P_x ∩ P_s = ∅` for its option values s; the N-side only has to search positions with
//!    copies of H_n, extending the antichain kept from Q_{n−1} (and nothing at all when
//!    (x, A(H_n)) is dominated by a pair already met).
//! 3. **Presentation change.** Otherwise Q_{n−1} × C(i, p), H_n ↦ its own cyclic generator,
//!    where (i, p) come from iterating the layers `F_k = {x : Φ(G) = x ⇒ G + k·H_n ∈ P}` until
//!    one repeats; it is marked, reduced and checked.
//! 4. **Recalibration.** While the candidate has a failure G (the lex-least wrong position),
//!    first as MisereSolver does: one heap of G (then two) forgets its value for a fresh
//!    cyclic component alone. That can shrink the candidate (the old values of those heaps
//!    drop out), where keeping them can only grow it: 0.142 then reaches Q_40 (order 1 324)
//!    instead of stopping at heap 37 on a candidate of 179 528 elements. A reset may break a
//!    position below G; a screen (the lex-least words of both candidates' elements, and the
//!    positions that broke earlier resets) catches most such cases before marking is
//!    trusted, and a verification whose least failure is not past G catches the rest: the
//!    step is then redone the old way, below.
//!
//!    The old way multiplies the candidate by fresh cyclic components for some heaps of G
//!    and re-marks. Keeping the old candidate as a factor keeps every position below G right
//!    (the new candidate maps onto the old one), so failures strictly increase once G itself
//!    is fixed; G is fixed for sure when every heap of G gets a component with index above its
//!    count in G (then G is the lex-least word of its element, and marking is exact there).
//!    Smaller choices are tried first: one heap whose count differs between G and the word it
//!    was confused with, then two. A verification reports up to [`BATCH`] failures in lex
//!    order; after the least one, the others are fixed too while the new candidate still gets
//!    them wrong locally, which saves most verifications (failures come in families, e.g.
//!    G + H_k + H_k for many k).

use super::Stop;
use super::bitset::{self, Rows};
use super::candidate::{self, Cand, Ceiling, Fresh, Marked, Minus};
use super::game::{HeapGame, HeapOptions};
use super::transition::{self, Antichain, HeapPair, Search, Verdict, Word};

/// How large a computation may grow before it stops with [`Stop::TooLarge`].
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Reachable elements of an unreduced candidate (a product before reduction).
    pub product: usize,
    /// Elements of a reduced candidate (its translates take |Q|²/8 bytes).
    pub reduced: usize,
    /// Bytes of the N-side antichain.
    pub antichain_bytes: usize,
}

impl Limits {
    /// Ceilings that keep each structure within a quarter of `bytes`, the session's memory
    /// budget: a reduced candidate's translates take |Q|²/8 bytes, an unreduced one's tables
    /// about 64 bytes an element, the antichain its bytes. 2 GiB gives the fixed defaults'
    /// antichain and twice their candidates; the budget itself (the allocator's count) still stops whatever else grows.
    pub fn within(bytes: usize) -> Limits {
        let quarter = bytes / 4;
        Limits {
            product: (quarter / 64).max(1 << 16),
            reduced: ((quarter as f64 * 8.0).sqrt() as usize).max(1 << 10),
            antichain_bytes: quarter.max(1 << 24),
        }
    }

    /// The ceiling on what `grew` counts.
    pub fn of(&self, grew: super::Grew) -> usize {
        match grew {
            super::Grew::Product => self.product,
            super::Grew::Reduced => self.reduced,
            super::Grew::Antichain => self.antichain_bytes,
            super::Grew::Search => 0,
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            product: 1 << 22,
            reduced: 1 << 15,
            antichain_bytes: 1 << 29,
        }
    }
}

/// Counters for benchmarks and progress reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Candidates checked in presentation changes.
    pub candidates: usize,
    /// Largest reduced candidate.
    pub largest_candidate: usize,
    /// Largest unreduced product.
    pub largest_product: usize,
}

/// Failures taken from one verification (the least is fixed for sure, the others while the
/// candidate still gets them wrong).
const BATCH: usize = 64;

/// Layers are iterated at most this often before a component is guessed.
const MAX_LAYERS: usize = 64;

/// Called on every candidate a presentation change rejects.
type Observer<'g> = Box<dyn FnMut(&Probe) + 'g>;

pub struct Solver<'g> {
    game: &'g mut dyn HeapGame,
    opts: HeapOptions,
    cand: Cand,
    chain: Antichain,
    translates: Rows,
    limits: Limits,
    /// |Q_n| for n = 0, 1, … (heap 0 is Q(A_0), the trivial quotient).
    orders: Vec<usize>,
    /// How many times the candidate was replaced (step 3): only then can the values of heaps
    /// already covered change names.
    renamed: usize,
    /// In the current presentation change, the index each heap's last one-heap component
    /// had: a heap recalibrated again one index higher is on a climb (see `recalibrate`).
    climbs: Vec<(u32, u32)>,
    pub stats: Stats,
    observer: Option<Observer<'g>>,
}

/// A rejected candidate during a presentation change, as an observer sees it. Everything it
/// predicts below its least failure is proved: the verification found no wrong position there.
pub struct Probe<'a> {
    /// The heap being added.
    pub heap: usize,
    /// The candidate's order.
    pub order: usize,
    /// Its lexicographically least failure (a sum of heaps, largest first).
    pub failure: &'a [u32],
    cand: &'a Cand,
}

impl Probe<'_> {
    /// Whether a sum of heaps (each ≤ `heap`) is a misère P-position, when it lies below the
    /// failure (so the answer is proved); `None` otherwise.
    pub fn proved_p(&self, heaps: &[u32]) -> Option<bool> {
        let mut w = heaps.to_vec();
        w.sort_unstable_by(|a, b| b.cmp(a));
        if w.first().is_some_and(|&h| h as usize > self.heap) || w.as_slice() >= self.failure {
            return None;
        }
        Some(self.cand.p[self.cand.acts.apply(&w, 0) as usize])
    }
}

impl<'g> Solver<'g> {
    pub fn new(game: &'g mut dyn HeapGame, limits: Limits) -> Solver<'g> {
        let cand = Cand::trivial();
        let translates = transition::translates(&cand, &|| false).expect("one element");
        Solver {
            game,
            opts: HeapOptions::new(),
            chain: Antichain::new(1),
            translates,
            cand,
            limits,
            orders: vec![1],
            renamed: 0,
            climbs: Vec::new(),
            stats: Stats::default(),
            observer: None,
        }
    }

    /// Calls `observer` on every candidate a presentation change rejects.
    pub fn observe(&mut self, observer: impl FnMut(&Probe) + 'g) {
        self.observer = Some(Box::new(observer));
    }

    /// The largest heap covered: the current candidate is Q_n.
    pub fn heaps(&self) -> usize {
        self.opts.heaps()
    }

    pub fn order(&self) -> usize {
        self.cand.size()
    }

    pub fn orders(&self) -> &[usize] {
        &self.orders
    }

    /// Changes each time the values of covered heaps may have been renamed.
    pub fn renamed(&self) -> usize {
        self.renamed
    }

    pub fn cand(&self) -> &Cand {
        &self.cand
    }

    pub fn options(&self) -> &HeapOptions {
        &self.opts
    }

    fn ceiling(&self) -> Ceiling {
        Ceiling {
            product: self.limits.product,
            reduced: self.limits.reduced,
        }
    }

    /// Computes Q_{n+1}. On an error the solver still holds Q_n, unless the game's moves
    /// could not be read (then it cannot go on).
    pub fn step(&mut self, cancel: &dyn Fn() -> bool) -> Result<(), Stop> {
        let n = self.heaps() + 1;
        self.opts.read(self.game, n)?;
        let r = self.extend(n, cancel);
        if r.is_err() {
            self.opts.of.pop();
        }
        r?;
        self.orders.push(self.cand.size());
        Ok(())
    }

    fn extend(&mut self, n: usize, cancel: &dyn Fn() -> bool) -> Result<(), Stop> {
        if self.opts.of[n].is_empty() {
            self.cand.assign(n, 0);
            return Ok(());
        }
        if self.conservative(n, cancel)? {
            return Ok(());
        }
        self.change(n, cancel)
    }

    /// Step 2: tries every x allowed by the P-side; at most one passes the N-side.
    fn conservative(&mut self, n: usize, cancel: &dyn Fn() -> bool) -> Result<bool, Stop> {
        let Solver {
            cand,
            chain,
            translates,
            opts,
            limits,
            ..
        } = self;
        let m = cand.size();
        let mut values: Vec<u32> = opts.of[n].iter().map(|o| cand.acts.apply(o, 0)).collect();
        values.sort_unstable();
        values.dedup();
        let next_is_p = values.iter().all(|&s| !cand.p[s as usize]);
        for x in 0..m as u32 {
            if cand.p[x as usize] != next_is_p {
                continue;
            }
            let px = translates.row(x as usize);
            if values
                .iter()
                .any(|&s| bitset::meets(px, translates.row(s as usize)))
            {
                continue;
            }
            let word = cand.words.heaps(x);
            let table: Vec<u32> = (0..m as u32).map(|y| cand.acts.apply(&word, y)).collect();
            let start = chain.len();
            let mut found = Vec::new();
            {
                let pair = HeapPair::new(
                    cand,
                    translates,
                    opts,
                    n,
                    Some((x, (x != 0).then_some(&table[..]))),
                );
                let search = Search {
                    max_bytes: limits.antichain_bytes,
                    want: 1,
                    cancel,
                };
                let r = chain.extend(cand, translates, &pair, &search, &mut found);
                if let Err(e) = r {
                    // Leave the antichain as Q_{n−1} had it: the solver stays usable.
                    chain.truncate(start);
                    return Err(e);
                }
            }
            if found.is_empty() {
                cand.assign_table(n, x, table);
                return Ok(true);
            }
            chain.truncate(start);
        }
        Ok(false)
    }

    /// Steps 3 and 4.
    fn change(&mut self, n: usize, cancel: &dyn Fn() -> bool) -> Result<(), Stop> {
        let ceiling = self.ceiling();
        self.climbs.clear();
        let (index, period) = layers(&self.cand, &self.opts, n, cancel)?;
        let fresh = [Fresh {
            heap: n,
            index,
            period,
            reset: false,
        }];
        let marked = candidate::product(&self.cand, n, &fresh, &self.opts, &ceiling, cancel)?;
        self.note_product(&marked);
        let mut c = candidate::reduce(&marked, &ceiling, cancel)?;
        drop(marked);
        // The candidate before a recalibration that reset heaps, with the failure it fixed:
        // a reset may break positions below that failure, and then the step is redone
        // keeping the old values as a factor (which cannot).
        let mut guard: Option<(Cand, Word)> = None;
        // Positions that broke a reset: the screen looks at them too (a family of failures
        // tends to try the same reset, which breaks the same position each time).
        let mut broke: Vec<Word> = Vec::new();
        loop {
            self.stats.candidates += 1;
            self.stats.largest_candidate = self.stats.largest_candidate.max(c.size());
            match transition::verify(
                &c,
                &self.opts,
                n,
                self.limits.antichain_bytes,
                BATCH,
                cancel,
            )? {
                Verdict::Holds { chain, translates } => {
                    self.cand = c;
                    self.renamed += 1;
                    self.chain = *chain;
                    self.translates = translates;
                    return Ok(());
                }
                Verdict::Fails(words) => {
                    if let Some(observe) = self.observer.as_mut() {
                        observe(&Probe {
                            heap: n,
                            order: c.size(),
                            failure: &words[0],
                            cand: &c,
                        });
                    }
                    if let Some((old, g)) = guard.take()
                        && words[0] <= g
                    {
                        broke.push(words[0].clone());
                        c = self.recalibrate(&old, n, &g, None, cancel)?.0;
                        continue;
                    }
                    // The least failure first; then the others that the new candidate still
                    // gets wrong locally (their prediction disagrees with their options').
                    let (next, how) = self.recalibrate(&c, n, &words[0], Some(&broke), cancel)?;
                    if how == How::Reset {
                        guard = Some((std::mem::replace(&mut c, next), words[0].clone()));
                        continue;
                    }
                    c = next;
                    if how == How::Screened {
                        continue;
                    }
                    for w in &words[1..] {
                        if locally_wrong(&c, &self.opts, w) {
                            c = self.recalibrate(&c, n, w, None, cancel)?.0;
                        }
                    }
                }
            }
        }
    }

    fn note_product(&mut self, marked: &Marked) {
        self.stats.largest_product = self.stats.largest_product.max(marked.acts.m);
    }

    /// The candidate `c × fresh`, marked, if it is within the ceilings and predicts `g` right.
    fn trial(
        &mut self,
        c: &Cand,
        n: usize,
        fresh: &[Fresh],
        g: &Word,
        cancel: &dyn Fn() -> bool,
    ) -> Result<Option<Marked>, Stop> {
        let marked = match candidate::product(c, n, fresh, &self.opts, &self.ceiling(), cancel) {
            Ok(m) => m,
            Err(Stop::TooLarge { .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
        self.note_product(&marked);
        Ok(fixed(&marked, &self.opts, g).then_some(marked))
    }

    /// Step 4: a candidate that no longer fails at `g`, and how. Resets are tried when
    /// `broke` is given: the positions that broke earlier resets, for the screen.
    fn recalibrate(
        &mut self,
        c: &Cand,
        n: usize,
        g: &Word,
        broke: Option<&[Word]>,
        cancel: &dyn Fn() -> bool,
    ) -> Result<(Cand, How), Stop> {
        let ceiling = self.ceiling();
        let e = c.acts.apply(g, 0);
        let u = c.words.heaps(e);
        let mut heaps: Vec<u32> = g.iter().chain(&u).copied().collect();
        heaps.sort_unstable_by(|a, b| b.cmp(a));
        heaps.dedup();
        // Heaps whose count differs between g and u, with the least index separating the two
        // counts and the index making both exact.
        let diff: Vec<(u32, u32, u32)> = heaps
            .iter()
            .filter(|&&h| copies(g, h) != copies(&u, h))
            .map(|&h| {
                let (a, b) = (copies(g, h), copies(&u, h));
                (h, a.min(b) + 1, a.max(b) + 1)
            })
            .collect();
        let mut trials: Vec<Vec<Fresh>> = Vec::new();
        let fresh = |h: u32, index: u32| Fresh {
            heap: h as usize,
            index,
            period: 2,
            reset: false,
        };
        let mut screened = false;
        if let Some(broke) = broke {
            match self.try_resets(c, n, g, broke, cancel)? {
                (Some(r), _) => return Ok((r, How::Reset)),
                (None, s) => screened = s,
            }
        }
        for &(h, lo, _) in &diff {
            // A heap whose last component had index lo − 1 fails again one copy further
            // (0.57 at heap 77 climbed heap 12's index from 1 to 9, a verification a step):
            // doubling the index first takes the climb in a few steps.
            if self.climbs.contains(&(h, lo - 1)) {
                trials.push(vec![fresh(h, 2 * lo)]);
            }
            trials.push(vec![fresh(h, lo)]);
        }
        for &(h, lo, hi) in &diff {
            if hi > lo + 1 {
                trials.push(vec![fresh(h, hi)]);
            }
        }
        if diff.len() <= 8 {
            for (i, &(a, la, _)) in diff.iter().enumerate() {
                for &(b, lb, _) in &diff[i + 1..] {
                    trials.push(vec![fresh(a, la), fresh(b, lb)]);
                }
            }
        }
        if diff.len() > 2 {
            trials.push(diff.iter().map(|&(h, _, hi)| fresh(h, hi)).collect());
        }
        for fresh in trials {
            if let Some(marked) = self.trial(c, n, &fresh, g, cancel)? {
                if let [f] = fresh[..] {
                    self.climbs.retain(|&(h, _)| h as usize != f.heap);
                    self.climbs.push((f.heap as u32, f.index));
                }
                return Ok((
                    candidate::reduce(&marked, &ceiling, cancel)?,
                    if screened { How::Screened } else { How::Kept },
                ));
            }
        }
        let how = if screened { How::Screened } else { How::Kept };
        Ok((self.exact_counts(c, n, g, cancel)?, how))
    }

    /// MisereSolver's recalibration: heaps of g forget their values for a fresh component
    /// alone, one heap and then two, smaller indices first. The reduced candidate of the
    /// first reset that fixes g without breaking a position of `broke` below it (and does
    /// not double the candidate); `true` when a reset was screened out.
    fn try_resets(
        &mut self,
        c: &Cand,
        n: usize,
        g: &Word,
        broke: &[Word],
        cancel: &dyn Fn() -> bool,
    ) -> Result<(Option<Cand>, bool), Stop> {
        let ceiling = self.ceiling();
        let mut distinct: Vec<u32> = g.clone();
        distinct.dedup();
        let reset = |h: u32, index: u32| Fresh {
            heap: h as usize,
            index,
            period: 2,
            reset: true,
        };
        // Index by index, each heap in turn: on 4.7 and 0.57 the first reset that fixes
        // a failure is nearly always one index below the heap's count (the new heap's,
        // else the next heap's), and trying the new heap's larger indices before the
        // next heap was four tenths of the products built.
        let mut tries: Vec<Vec<Fresh>> = Vec::new();
        for delta in [-1, 0, 1] {
            for &h in &distinct {
                let index = copies(g, h).saturating_add_signed(delta);
                tries.push(vec![reset(h, index)]);
            }
        }
        for (i, &a) in distinct.iter().enumerate() {
            for &b in &distinct[i + 1..] {
                tries.push(vec![reset(a, copies(g, a) + 1), reset(b, copies(g, b) + 1)]);
            }
        }
        for fresh in tries {
            let Some(marked) = self.trial(c, n, &fresh, g, cancel)? else {
                continue;
            };
            // The first reset that fixes g decides: if it breaks a position below g, the
            // old values are kept (later resets, tried on, grew candidates of 10^5
            // elements for 4.7).
            if !agrees_below(&marked, c, g, broke) {
                return Ok((None, true));
            }
            let r = candidate::reduce(&marked, &ceiling, cancel)?;
            // A reset that doubles the candidate is passed over for the next one.
            if r.size() <= c.size() * 2 {
                return Ok((Some(r), false));
            }
        }
        Ok((None, false))
    }

    /// Every heap of g given an exact count, which always fixes g: the reduced candidate.
    fn exact_counts(
        &mut self,
        c: &Cand,
        n: usize,
        g: &Word,
        cancel: &dyn Fn() -> bool,
    ) -> Result<Cand, Stop> {
        let ceiling = self.ceiling();
        let mut sure: Vec<Fresh> = Vec::new();
        for &h in g {
            if sure.last().is_none_or(|f| f.heap != h as usize) {
                sure.push(Fresh {
                    heap: h as usize,
                    index: copies(g, h) + 1,
                    period: 2,
                    reset: false,
                });
            }
        }
        // First one component at a time, reducing in between (every stage is still right
        // below g, so stopping as soon as g is fixed is sound); products stay small.
        let mut cur: Option<Cand> = None;
        for f in &sure {
            let base = cur.as_ref().unwrap_or(c);
            let marked = match candidate::product(base, n, &[*f], &self.opts, &ceiling, cancel) {
                Ok(m) => m,
                Err(Stop::TooLarge { .. }) => break,
                Err(e) => return Err(e),
            };
            self.note_product(&marked);
            let ok = fixed(&marked, &self.opts, g);
            let r = candidate::reduce(&marked, &ceiling, cancel)?;
            if ok {
                return Ok(r);
            }
            cur = Some(r);
        }
        // Then all at once, which always fixes g.
        let marked = candidate::product(c, n, &sure, &self.opts, &ceiling, cancel)?;
        self.note_product(&marked);
        debug_assert!(fixed(&marked, &self.opts, g));
        candidate::reduce(&marked, &ceiling, cancel)
    }
}

/// How many copies of heap `h` word `w` holds.
fn copies(w: &[u32], h: u32) -> u32 {
    w.iter().filter(|&&k| k == h).count() as u32
}

/// How a recalibration fixed its failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum How {
    /// Some heaps forgot their values for fresh components.
    Reset,
    /// The old candidate stayed a factor.
    Kept,
    /// As `Kept`, after a reset that fixed the failure broke a position below it.
    Screened,
}

/// Whether a marked candidate predicts every position below `g` that is the lex-least word of
/// one of its elements or of `c`'s, or in `broke`, as `c` does (`c` is right below `g`): a
/// cheap screen for a reset that broke what `c` had right, before a verification.
fn agrees_below(marked: &Marked, c: &Cand, g: &Word, broke: &[Word]) -> bool {
    let old = |w: &[u32]| c.p[c.acts.apply(w, 0) as usize];
    let new = |w: &[u32]| marked.p[marked.acts.apply(w, 0) as usize];
    if broke
        .iter()
        .any(|w| w.as_slice() < g.as_slice() && new(w) != old(w))
    {
        return false;
    }
    (0..c.size() as u32).all(|e| {
        let w = c.words.heaps(e);
        w.as_slice() >= g.as_slice() || new(&w) == c.p[e as usize]
    }) && (0..marked.acts.m as u32).all(|x| {
        let w = marked.words.heaps(x);
        w.as_slice() >= g.as_slice() || old(&w) == marked.p[x as usize]
    })
}

/// Whether the marked candidate predicts position `g` right, given that it predicts every
/// smaller position right (so g's options are predicted right).
fn fixed(marked: &Marked, opts: &HeapOptions, g: &Word) -> bool {
    let acts = &marked.acts;
    let predicted = marked.p[acts.apply(g, 0) as usize];
    let mut has_p_move = false;
    let mut rest = Vec::with_capacity(g.len());
    for (i, &h) in g.iter().enumerate() {
        if i > 0 && g[i - 1] == h {
            continue;
        }
        rest.clear();
        rest.extend(g[..i].iter().chain(&g[i + 1..]).copied());
        let d = acts.apply(&rest, 0);
        if opts.of[h as usize]
            .iter()
            .any(|o| marked.p[acts.apply(o, d) as usize])
        {
            has_p_move = true;
            break;
        }
    }
    predicted != has_p_move
}

/// Whether a reduced candidate predicts `g` differently from what its prediction of g's
/// options implies.
fn locally_wrong(c: &Cand, opts: &HeapOptions, g: &Word) -> bool {
    let acts = &c.acts;
    let predicted = c.p[acts.apply(g, 0) as usize];
    let mut rest = Vec::with_capacity(g.len());
    let mut has_p_move = false;
    for (i, &h) in g.iter().enumerate() {
        if i > 0 && g[i - 1] == h {
            continue;
        }
        rest.clear();
        rest.extend(g[..i].iter().chain(&g[i + 1..]).copied());
        let d = acts.apply(&rest, 0);
        if opts.of[h as usize]
            .iter()
            .any(|o| c.p[acts.apply(o, d) as usize])
        {
            has_p_move = true;
            break;
        }
    }
    predicted == has_p_move
}

/// The component (index, period) of the new heap: iterate the layers F_k (the elements x of
/// Q_{n−1} for which G + k·H_n is a P-position when Φ(G) = x, as marking computes them) until
/// one repeats.
fn layers(
    cand: &Cand,
    opts: &HeapOptions,
    n: usize,
    cancel: &dyn Fn() -> bool,
) -> Result<(u32, u32), Stop> {
    let minus = Minus::from_words(&cand.acts, &cand.words);
    let distinct = candidate::distinct_options(&cand.acts, opts, n - 1);
    let mut own: Vec<&[u32]> = Vec::new();
    let mut seen: Vec<u32> = Vec::new();
    for o in &opts.of[n] {
        let s = cand.acts.apply(o, 0);
        if !seen.contains(&s) {
            seen.push(s);
            own.push(o);
        }
    }
    let m = cand.size();
    let mut all: Vec<Vec<bool>> = vec![cand.p.clone()];
    let mut escape = vec![false; m];
    for k in 1..=MAX_LAYERS {
        let prev = &all[k - 1];
        for (x, e) in escape.iter_mut().enumerate() {
            *e = own
                .iter()
                .any(|o| prev[cand.acts.apply(o, x as u32) as usize]);
        }
        let f = candidate::mark(&cand.acts, &minus, opts, &distinct, Some(&escape), cancel)?;
        if let Some(j) = all.iter().position(|l| *l == f) {
            return Ok((j as u32, (k - j) as u32));
        }
        all.push(f);
    }
    Ok((MAX_LAYERS as u32, 2))
}
