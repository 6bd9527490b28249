//! The session's table of heap games ([`HeapTable`]): each game's rules and its nim-sequence
//! so far, extended on demand and read from a certified period where one is known. The
//! context holds it ([`crate::cx::Engines`]), so it names nothing that names the context.

use crate::error::{EvalError, HeapSizeError, TypeError};
use crate::progress::Meter;
use crate::sequence_file;
use loony_core::diag::{CoreError, Error};
use loony_core::game::{GameId, Store};
use loony_core::packed::Packed;
use loony_theory::heap::{self, Control, HeapRules};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Largest heap whose moves are listed one by one (the list is O(n) to O(n²) long).
pub(crate) const MAX_OPTIONS_HEAP: u64 = 100_000;
/// Largest heap size whose nimber is computed.
pub(crate) const MAX_HEAP: u64 = 1 << 31;
/// Largest heap `rare_values` and `write_sequence` go to: the record kernel holds two bytes
/// a heap, 8 GB here.
pub(crate) const MAX_RECORD_HEAP: u64 = 1 << 32;
/// How far `periodicity` computes before saying "not yet periodic".
pub(crate) const PERIODICITY_BUDGET: usize = 1_000_000;
/// The same when a move may leave three heaps: each heap then costs a pass over every split
/// (a second to reach 5 000 heaps, a minute for 20 000), so the default stays at seconds.
pub(crate) const PERIODICITY_BUDGET_THREE_HEAPS: usize = 5_000;
/// The same for codes with periodic splits, added tokens or many-heap digits: the general
/// kernel's split tables cost a pass over every smaller heap per heap and count.
pub(crate) const PERIODICITY_BUDGET_GENERAL: usize = 2_000;
/// Where the default search stops for a game whose heaps are all common (no rare heap to
/// split off): its kernel is quadratic, and this is seconds (0.106: 2.6 s, 0.007: 12 s on a
/// 2 GHz core) where the full default is many minutes (0.007: 520 s).
pub(crate) const PERIODICITY_BUDGET_DENSE: usize = (1 << 17) - 1;
/// How far `periodicity` explores a user ruleset (through the generic engine).
pub(crate) const RULESET_PERIODICITY_BUDGET: usize = 2_000;

pub(crate) struct Entry {
    rules: HeapRules,
    /// Nim-values of heaps 0..len, extended on demand, one to four bytes each.
    values: Packed,
    /// A period the theorem certified from `values`: every heap past them is read from it.
    period: Option<heap::Period>,
    /// `values.len()` when certification was last tried (it is tried again only after the
    /// sequence doubles, so a sequence that never certifies costs a linear scan per doubling).
    tried_at: usize,
}

impl Entry {
    /// Asks the theorem for a period certified by the values known now (remembering that it
    /// asked at this length): whether one was found.
    fn look_for_period(&mut self, cancel: &Arc<AtomicBool>) -> Result<bool, Error> {
        self.tried_at = self.values.len();
        let ctl = Control::default().with_cancel(cancel);
        self.period = self
            .rules
            .certified_period(&self.values.to_vec(), &ctl)
            .map(|(p, _)| p);
        if self.period.is_none() && cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(Error::new(CoreError::Interrupted));
        }
        Ok(self.period.is_some())
    }
}

/// Below this heap a nimber is read from the sequence itself; past it (and past the values
/// known), the sequence grows by doubling until a certified period answers.
pub(crate) const PERIOD_LOOKUP_FROM: u64 = 1 << 14;
/// For a heap past [`MAX_HEAP`], how many heaps are computed looking for a period.
pub(crate) const PERIOD_SEARCH_BEYOND_MAX: u64 = 1 << 20;
/// The heaps a long nim-sequence looks at for a certified period before the kernel computes it
/// all.
pub(crate) const SEQUENCE_PERIOD_LOOK: u64 = 1 << 12;

#[derive(Default)]
pub struct HeapTable {
    entries: Vec<Entry>,
    /// Show a progress bar for long sequences (a terminal is watching).
    pub progress: bool,
}

impl HeapTable {
    pub fn register(&mut self, store: &mut Store, rules: HeapRules) -> u32 {
        let name = match &rules {
            HeapRules::TakeBreak(code) => format!("heap(\"{code}\")"),
            HeapRules::Subtraction(set) => format!("subtraction({set:?})"),
            HeapRules::AllBut(set) => format!("allbut({set:?})"),
        };
        let id = store.register_heap(&name);
        if id as usize == self.entries.len() {
            self.entries.push(Entry {
                rules,
                values: Packed::new(),
                period: None,
                tried_at: 0,
            });
        }
        id
    }

    /// Nim-values of heaps `0..=n`.
    pub fn values(
        &mut self,
        rules: u32,
        n: u64,
        cancel: &Arc<AtomicBool>,
    ) -> Result<&Packed, Error> {
        if n > MAX_HEAP {
            return Err(Error::new(EvalError::HeapSize(HeapSizeError::TooLarge {
                n,
                most: MAX_HEAP,
            })));
        }
        // A long sequence of a game the periodicity theorem covers first looks at its first
        // heaps for a certified period: from one, every heap is read in time linear in the
        // heaps (0.07 is certified at heap 176, and its kernel is quadratic). One look, on a
        // prefix small enough that a game with no period early loses under 1 % to it.
        if n >= PERIOD_LOOKUP_FROM {
            let e = &mut self.entries[rules as usize];
            if e.period.is_none()
                && e.values.len() <= n as usize
                && e.tried_at < SEQUENCE_PERIOD_LOOK as usize
                && e.rules.has_certificate()
            {
                self.compute(rules, SEQUENCE_PERIOD_LOOK, cancel)?;
                self.entries[rules as usize].look_for_period(cancel)?;
            }
            let e = &mut self.entries[rules as usize];
            if e.values.len() <= n as usize
                && let Some(p) = e.period
            {
                extend_from_period(e, &p, n as usize, cancel)?;
            }
        }
        self.compute(rules, n, cancel)
    }

    /// The kernel's values of heaps 0..=n (grown in doublings, at least to `n`).
    fn compute(&mut self, rules: u32, n: u64, cancel: &Arc<AtomicBool>) -> Result<&Packed, Error> {
        let progress = self.progress;
        let e = &mut self.entries[rules as usize];
        let n = n as usize;
        if e.values.len() <= n {
            let target = n.max(e.values.len() * 2).max(64);
            // The engine's tables take a few words per heap: check before building them.
            loony_core::memory::reserve(target.saturating_mul(16), "a nim-sequence")?;
            let _what = loony_core::memory::building("a nim-sequence");
            let meter = Meter::heaps(progress, target as u64, || {
                format!("nim-sequence of {}", e.rules)
            });
            let report = |done: usize, _total: usize| {
                meter.set(done as u64);
            };
            let ctl = Control::default()
                .with_cancel(cancel)
                .with_progress(&report);
            let r = e.rules.nim_sequence_packed(target, &ctl);
            meter.finish();
            match r {
                Ok(v) => e.values = v,
                Err(partial) => {
                    if partial.values.len() > e.values.len() {
                        e.values = Packed::from_u32(partial.values);
                    }
                    return Err(Error::new(CoreError::Interrupted));
                }
            }
        }
        Ok(&e.values)
    }

    /// The nim-value of heap `n`: from the sequence where it is known, else from a certified
    /// period (so `heap("0.07")(10000000)` costs the 176 heaps of its certificate, not ten
    /// million), found by growing the sequence sixteenfold while no period is certified.
    pub fn nimber(&mut self, rules: u32, n: u64, cancel: &Arc<AtomicBool>) -> Result<u32, Error> {
        loop {
            let e = &mut self.entries[rules as usize];
            if (n as usize) < e.values.len() {
                return Ok(e.values.get(n as usize));
            }
            if let Some(p) = &e.period {
                return Ok(period_value(&e.values, p, n));
            }
            let len = e.values.len() as u64;
            // Without a theorem no period can answer: the kernel computes heap n at once.
            let no_theorem = n <= MAX_HEAP && !e.rules.has_certificate();
            if n < PERIOD_LOOKUP_FROM || no_theorem || e.tried_at == e.values.len() && 16 * len > n
            {
                return Ok(self.values(rules, n, cancel)?.get(n as usize));
            }
            if e.tried_at < e.values.len() && e.look_for_period(cancel)? {
                continue;
            }
            // Past what can be computed, only a period answers: give up after a search that
            // stays quick rather than compute two billion values first.
            if n > MAX_HEAP && len >= PERIOD_SEARCH_BEYOND_MAX {
                return Err(Error::new(EvalError::HeapSize(HeapSizeError::NoPeriod {
                    n,
                    most: MAX_HEAP,
                    searched: len,
                })));
            }
            // Steps of 16: the kernel starts over at each step, so doubling spent as much again
            // on the way as on the last step (heap("0.6")(2^22) took twice nim_sequence's time);
            // now the way costs a fifteenth, and a period is still found within 16 times the
            // heaps it needs.
            let next = (16 * len).max(PERIOD_LOOKUP_FROM).min(n);
            self.values(rules, next, cancel)?;
        }
    }

    /// The rare heaps of `0..=n` (see `HeapRules::rare_values`), computed afresh and not
    /// kept: the kernel's two bytes a heap are freed when it returns. `None` when the game has
    /// no common/rare split.
    pub fn rare_values(
        &mut self,
        rules: u32,
        n: u64,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Option<heap::RareValues>, Error> {
        if n > MAX_RECORD_HEAP {
            return Err(Error::new(EvalError::HeapSize(HeapSizeError::TooLarge {
                n,
                most: MAX_RECORD_HEAP,
            })));
        }
        let n = n as usize;
        // Two bytes a heap in the record kernel; the other kernels keep a word and tables.
        // (Four for every game refused Grundy's game at 2^32 under the default budget.)
        let bytes = self.entries[rules as usize].rules.bytes_per_heap();
        loony_core::memory::reserve(n.saturating_mul(bytes), "the values behind rare_values")?;
        let _what = loony_core::memory::building("the values behind rare_values");
        let meter = Meter::heaps(self.progress, n as u64 + 1, || {
            format!("rare_values of {}", self.entries[rules as usize].rules)
        });
        let report = |done: usize, _total: usize| {
            meter.set(done as u64);
        };
        let ctl = Control::default()
            .with_cancel(cancel)
            .with_progress(&report);
        let r = self.entries[rules as usize].rules.rare_values(n, &ctl);
        meter.finish();
        match r {
            None => Ok(None),
            Some(Ok(rare)) => Ok(Some(rare)),
            Some(Err(_)) => Err(Error::new(CoreError::Interrupted)),
        }
    }

    /// Writes heaps `w.next_heap()..end` to `w` as they are computed, holding none of them:
    /// from the values known and a certified period where there is one (0.07 to 10^9 costs
    /// its 176-heap certificate), else from the kernel, whose own array is dropped after.
    /// Stops early (`Ok`) when a write fails; the writer keeps the error.
    pub(crate) fn stream(
        &mut self,
        rules: u32,
        end: u64,
        w: &mut sequence_file::Writer,
        cancel: &Arc<AtomicBool>,
    ) -> Result<(), Error> {
        if end > MAX_RECORD_HEAP + 1 {
            return Err(Error::new(EvalError::HeapSize(HeapSizeError::TooLarge {
                n: end - 1,
                most: MAX_RECORD_HEAP,
            })));
        }
        let e = &self.entries[rules as usize];
        if end > SEQUENCE_PERIOD_LOOK
            && e.period.is_none()
            && e.tried_at < SEQUENCE_PERIOD_LOOK as usize
            && e.rules.has_certificate()
        {
            self.compute(rules, SEQUENCE_PERIOD_LOOK, cancel)?;
            self.entries[rules as usize].look_for_period(cancel)?;
        }
        let meter = Meter::heaps(self.progress, end, || {
            format!("write_sequence of {}", self.entries[rules as usize].rules)
        });
        let e = &self.entries[rules as usize];
        let stopped = || cancel.load(std::sync::atomic::Ordering::Relaxed);
        if end as usize <= e.values.len() || e.period.is_some() {
            w.take(e.values.as_ref(), 0);
            if let Some(p) = &e.period {
                while w.next_heap() < end && w.error.is_none() {
                    let k = w.next_heap();
                    if k.is_multiple_of(1 << 16) {
                        if stopped() {
                            return Err(Error::new(CoreError::Interrupted));
                        }
                        meter.set(k);
                    }
                    w.push(period_value(&e.values, p, k));
                }
            }
            meter.finish();
            return Ok(());
        }
        // The kernel's array is all that is held: two bytes a heap for the record kernel.
        let bytes = self.entries[rules as usize].rules.bytes_per_heap();
        loony_core::memory::reserve((end as usize).saturating_mul(bytes), "a nim-sequence")?;
        let _what = loony_core::memory::building("a nim-sequence");
        let w = std::cell::RefCell::new(w);
        let report = |done: usize, _total: usize| {
            meter.set(done as u64);
        };
        let sink = |values: heap::Values<'_>| w.borrow_mut().take(values, 0);
        let ctl = Control::default()
            .with_cancel(cancel)
            .with_progress(&report)
            .with_sink(&sink);
        let r = e.rules.stream_sequence(end as usize - 1, &ctl);
        meter.finish();
        match r {
            Ok(()) => Ok(()),
            Err(heap::Stopped) if w.borrow().error.is_some() => Ok(()),
            Err(heap::Stopped) => Err(Error::new(CoreError::Interrupted)),
        }
    }

    pub fn options(
        &mut self,
        store: &mut Store,
        rules: u32,
        n: u64,
        out: &mut Vec<GameId>,
    ) -> Result<(), Error> {
        if n > MAX_OPTIONS_HEAP {
            return Err(Error::new(EvalError::Type(TypeError::MovesToList {
                heap: n,
                most_heap: Some(MAX_OPTIONS_HEAP),
                most_moves: MAX_OPTIONS,
            })));
        }
        let mut moves = Vec::new();
        if !self.entries[rules as usize]
            .rules
            .try_options(n as usize, &mut moves, MAX_OPTIONS)
        {
            return Err(Error::new(EvalError::Type(TypeError::MovesToList {
                heap: n,
                most_heap: None,
                most_moves: MAX_OPTIONS,
            })));
        }
        for heaps in moves {
            let parts: Vec<GameId> = heaps.iter().map(|&h| store.heap(rules, h as u64)).collect();
            out.push(store.sum(&parts)?);
        }
        Ok(())
    }

    pub fn rules(&self, id: u32) -> &HeapRules {
        &self.entries[id as usize].rules
    }
}

/// Heap `n`'s value from a period certified from `values` (ordinary: the theorem certifies
/// saltus 0), for `n` past them.
/// Extends `e.values` to heap `n` from its certified period `p`.
pub(crate) fn extend_from_period(
    e: &mut Entry,
    p: &heap::Period,
    n: usize,
    cancel: &Arc<AtomicBool>,
) -> Result<(), Error> {
    let start = e.values.len();
    loony_core::memory::reserve((n + 1 - start).saturating_mul(4), "a nim-sequence")?;
    e.values.reserve(n + 1 - start);
    for k in start..=n {
        if k % (1 << 20) == 0 && cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(Error::new(CoreError::Interrupted));
        }
        let v = period_value(&e.values, p, k as u64);
        e.values.push(v);
    }
    Ok(())
}

pub(crate) fn period_value(values: &Packed, p: &heap::Period, n: u64) -> u32 {
    let (e, q) = (p.preperiod as u64, p.period as u64);
    let i = e + (n - e) % q;
    values.get(i as usize) + p.saltus * ((n - i) / q) as u32
}

/// Largest number of moves `options` lists for one heap (many-heap digits reach
/// astronomically many partitions).
pub(crate) const MAX_OPTIONS: usize = 1_000_000;
