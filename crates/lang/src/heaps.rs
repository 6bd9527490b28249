//! Heap games in the language: `heap("0.07")`, `subtraction([1, 3, 4])`, `allbut([…])`, their
//! positions (mixing with every other game in sums), nim-sequences, periodicity and plots.

use super::builtins::Args;
use super::catalog::HeapOp;
use super::family::{At, Family, cannot_compare};
use super::progress::Meter;
use super::sequence_file;
use super::{Cx, Value};
use crate::error::{
    ArgumentError, EvalError, Example, HeapSizeError, Limit, RangeError, TooLarge, TypeError,
    Wanted,
};
use loony_core::diag::{CoreError, Error};
use loony_core::game::{GameId, Store};
use loony_core::packed::Packed;
use loony_syntax::ast::{Expr, Span};
use loony_theory::TheoryError;
use loony_theory::heap::{self, Code, Control, HeapRules};
use loony_theory::nimfield;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Largest heap whose moves are listed one by one (the list is O(n) to O(n²) long).
const MAX_OPTIONS_HEAP: u64 = 100_000;
/// Largest heap size whose nimber is computed.
const MAX_HEAP: u64 = 1 << 31;
/// Largest heap `rare_values` and `write_sequence` go to: the record kernel holds two bytes
/// a heap, 8 GB here.
const MAX_RECORD_HEAP: u64 = 1 << 32;
/// How far `periodicity` computes before saying "not yet periodic".
const PERIODICITY_BUDGET: usize = 1_000_000;
/// The same when a move may leave three heaps: each heap then costs a pass over every split
/// (a second to reach 5 000 heaps, a minute for 20 000), so the default stays at seconds.
const PERIODICITY_BUDGET_THREE_HEAPS: usize = 5_000;
/// The same for codes with periodic splits, added tokens or many-heap digits: the general
/// kernel's split tables cost a pass over every smaller heap per heap and count.
const PERIODICITY_BUDGET_GENERAL: usize = 2_000;
/// Where the default search stops for a game whose heaps are all common (no rare heap to
/// split off): its kernel is quadratic, and this is seconds (0.106: 2.6 s, 0.007: 12 s on a
/// 2 GHz core) where the full default is many minutes (0.007: 520 s).
const PERIODICITY_BUDGET_DENSE: usize = (1 << 17) - 1;
/// How far `periodicity` explores a user ruleset (through the generic engine).
const RULESET_PERIODICITY_BUDGET: usize = 2_000;

struct Entry {
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
const PERIOD_LOOKUP_FROM: u64 = 1 << 14;
/// For a heap past [`MAX_HEAP`], how many heaps are computed looking for a period.
const PERIOD_SEARCH_BEYOND_MAX: u64 = 1 << 20;
/// The heaps a long nim-sequence looks at for a certified period before the kernel computes it
/// all.
const SEQUENCE_PERIOD_LOOK: u64 = 1 << 12;

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
fn extend_from_period(
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

fn period_value(values: &Packed, p: &heap::Period, n: u64) -> u32 {
    let (e, q) = (p.preperiod as u64, p.period as u64);
    let i = e + (n - e) % q;
    values.get(i as usize) + p.saltus * ((n - i) / q) as u32
}

/// A range of heap sizes (a list of consecutive nonnegative integers, as `a..b` makes) as its
/// first and last heap; the error says what is wrong with it (empty, negative, a gap).
pub(crate) fn heap_range(
    cx: &Cx,
    xs: &[Value],
    span: &Span,
    function: &str,
) -> Result<(u64, u64), Error> {
    let bad = |e: RangeError| cx.err(EvalError::BadRange(e), span);
    if let Some(x) = xs.iter().find(|x| !matches!(x, Value::Int(_))) {
        return Err(cx.err(
            EvalError::BadArgument(ArgumentError::ListHolds {
                function: function.into(),
                wanted: Wanted::HeapRange,
                holds: super::show::describe(x),
            }),
            span,
        ));
    }
    let ints: Vec<i64> = xs
        .iter()
        .map(|x| match x {
            Value::Int(k) => *k,
            _ => 0,
        })
        .collect();
    let (Some(&first), Some(&last)) = (ints.first(), ints.last()) else {
        return Err(bad(RangeError::Empty {
            function: function.into(),
        }));
    };
    if first < 0 {
        return Err(bad(RangeError::Negative { start: first }));
    }
    if let Some(i) = (1..ints.len()).find(|&i| ints[i] != first + i as i64) {
        return Err(bad(RangeError::NotConsecutive {
            function: function.into(),
            previous: ints[i - 1],
            next: ints[i],
        }));
    }
    Ok((first as u64, last as u64))
}

/// Largest number of moves `options` lists for one heap (many-heap digits reach
/// astronomically many partitions).
const MAX_OPTIONS: usize = 1_000_000;

fn parse_code(cx: &Cx, code: &str, span: &Span) -> Result<Code, Error> {
    Code::parse(code).map_err(|e| {
        cx.err(
            TheoryError::BadHeapCode {
                code: code.to_string(),
                message: e.message.clone(),
                at: e.span.clone(),
            },
            span,
        )
    })
}

/// An argument of the nim-field built-ins: a nonnegative integer, or a game equal to a
/// nimber (then the result is a nimber too).
fn nim_arg(
    cx: &mut Cx,
    store: &mut Store,
    op: &str,
    v: &Value,
    span: &Span,
) -> Result<(u64, bool), Error> {
    match v {
        Value::Int(n) if *n >= 0 => Ok((*n as u64, false)),
        Value::Int(n) => Err(cx.err(
            TheoryError::NimNegative {
                op: op.to_string(),
                value: *n,
            },
            span,
        )),
        Value::Game(g) | Value::Position(g) => {
            Ok((u64::from(game_nimber(cx, store, *g, span)?), true))
        }
        other => Err(cx.err(
            EvalError::BadArgument(ArgumentError::NotA {
                function: op.into(),
                wanted: Wanted::NimOperands,
                found: other.type_name(),
            }),
            span,
        )),
    }
}

fn game_nimber(cx: &mut Cx, store: &mut Store, g: GameId, span: &Span) -> Result<u32, Error> {
    match cx
        .game_value(store, g)
        .map_err(|e| e.or_at(cx.scope.file, span.clone()))?
    {
        loony_core::class::Class::Nimber(k) => Ok(k),
        other => Err(cx.err(
            TheoryError::NoValue {
                form: other.show(cx.out.notation.ascii).unwrap_or_default(),
                reason: "nim multiplication needs games equal to nimbers".into(),
            },
            span,
        )),
    }
}

/// `g * h` on games: the nim product of their nimbers.
pub fn nim_multiply(
    cx: &mut Cx,
    store: &mut Store,
    a: GameId,
    b: GameId,
    (left, right): (&Span, &Span),
) -> Result<Value, Error> {
    let x = game_nimber(cx, store, a, left)?;
    let y = game_nimber(cx, store, b, right)?;
    // The nimbers below 2^32 are a field: the product stays a u32.
    let p = nimfield::nim_product(u64::from(x), u64::from(y)) as u32;
    Ok(Value::Game(store.nimber(p)))
}

fn int_set(cx: &Cx, v: &Value, span: &Span, what: &str) -> Result<Vec<usize>, Error> {
    let items = match v {
        Value::List(xs) | Value::Tuple(xs) => xs.clone(),
        other => {
            return Err(cx.err(
                EvalError::BadArgument(ArgumentError::NotA {
                    function: what.into(),
                    wanted: Wanted::TokenCounts,
                    found: other.type_name(),
                }),
                span,
            ));
        }
    };
    let mut out = Vec::with_capacity(items.len());
    for x in items.iter() {
        match x {
            Value::Int(n) if *n >= 1 && *n <= MOST_TAKEN => out.push(*n as usize),
            Value::Int(n) if *n > MOST_TAKEN => {
                return Err(cx.err(
                    EvalError::BadArgument(ArgumentError::TooManyTokens {
                        function: what.into(),
                        n: *n,
                        most: MOST_TAKEN,
                    }),
                    span,
                ));
            }
            _ => {
                return Err(cx.err(
                    EvalError::BadArgument(ArgumentError::ListHolds {
                        function: what.into(),
                        wanted: Wanted::PositiveIntegers,
                        holds: super::show::describe(x),
                    }),
                    span,
                ));
            }
        }
    }
    Ok(out)
}

/// The most tokens a subtraction or all-but set may name (heap sizes stay well inside `u64`).
const MOST_TAKEN: i64 = 1 << 40;

/// What `nim_sequence`/`periodicity` can read a sequence from.
enum Source {
    Heap(u32),
    /// A user ruleset (or function) of one integer, through the generic engine.
    Callable(Value),
}

fn source(cx: &Cx, v: &Value, span: &Span, what: &str) -> Result<Source, Error> {
    match v {
        Value::Heap(h) => Ok(Source::Heap(*h)),
        Value::Ruleset(r) if r.def.params.len() == 1 => Ok(Source::Callable(v.clone())),
        Value::Func(f) if f.def.params.len() == 1 => Ok(Source::Callable(v.clone())),
        other => Err(cx.err(
            EvalError::BadArgument(ArgumentError::NotA {
                function: what.into(),
                wanted: Wanted::SequenceSource,
                found: other.type_name(),
            }),
            span,
        )),
    }
}

/// The nim-sequence of `src` over heaps `lo..hi`, as `nim_sequence` gives it.
fn nim_sequence(
    cx: &mut Cx,
    store: &mut Store,
    src: Source,
    lo: u64,
    hi: u64,
    span: &Span,
) -> Result<Value, Error> {
    let of = source_of(&src);
    let values = match src {
        Source::Heap(h) => {
            if hi == 0 {
                Packed::new()
            } else {
                let cancel = cx.limits.interrupt.clone();
                cx.engines
                    .heaps
                    .values(h, hi - 1, &cancel)
                    .map_err(|e| e.or_at(cx.scope.file, span.clone()))?
                    .slice(lo as usize..hi as usize)
            }
        }
        Source::Callable(f) => Packed::from_u32(cx.callable_values(store, &f, lo, hi, span)?),
    };
    Ok(Value::Sequence(Rc::new(loony_core::value::Sequence {
        start: lo,
        values,
        of,
    })))
}

/// `plot(g, heaps, …)`: a heap game (or a ruleset or function of one integer) and the heaps
/// to draw, a number of them or a range, read as `plot(nim_sequence(g, heaps), …)`. Anything
/// else first is left to `plot`, whose error names both forms.
fn plot(cx: &mut Cx, store: &mut Store, a: &Args<'_>) -> Result<Value, Error> {
    let (vals, span) = (&a.vals, a.span);
    let spans: Vec<Span> = (0..vals.len()).map(|i| a.span(i).clone()).collect();
    let is_source = matches!(&vals[0], Value::Heap(_))
        || matches!(&vals[0], Value::Ruleset(r) if r.def.params.len() == 1)
        || matches!(&vals[0], Value::Func(f) if f.def.params.len() == 1);
    if !is_source {
        return super::plot::call(cx, store, vals, &spans, span);
    }
    let src = source(cx, &vals[0], a.span(0), "plot")?;
    let (lo, hi) = match vals.get(1) {
        Some(v @ (Value::Int(_) | Value::List(_))) => heaps_asked(cx, v, a.span(1), "plot")?,
        other => {
            return Err(cx.err(
                EvalError::BadArgument(ArgumentError::PlotHeaps {
                    found: other.map(super::show::describe),
                }),
                a.span(if other.is_some() { 1 } else { 0 }),
            ));
        }
    };
    let seq = nim_sequence(cx, store, src, lo, hi, span)?;
    // The sequence stands where the game was; the heaps are used up.
    let mut rest = vec![seq];
    rest.extend(vals.iter().skip(2).cloned());
    let mut rest_spans = vec![spans[0].clone()];
    rest_spans.extend(spans.into_iter().skip(2));
    super::plot::call(cx, store, &rest, &rest_spans, span)
}

/// What a nim-sequence of `src` remembers of it, for a plot.
fn source_of(src: &Source) -> loony_core::value::SequenceOf {
    use loony_core::value::SequenceOf;
    match src {
        Source::Heap(h) => SequenceOf::Heap(*h),
        Source::Callable(Value::Ruleset(r)) => SequenceOf::Named(r.def.name.name.clone()),
        Source::Callable(Value::Func(f)) => SequenceOf::Named(f.def.name.name.clone()),
        Source::Callable(_) => SequenceOf::Named("a ruleset".into()),
    }
}

impl Cx {
    fn callable_values(
        &mut self,
        store: &mut Store,
        f: &Value,
        lo: u64,
        hi: u64,
        span: &Span,
    ) -> Result<Vec<u32>, Error> {
        let len = usize::try_from(hi - lo).unwrap_or(usize::MAX);
        self.reserve(len.saturating_mul(4), "a nim-sequence", span)?;
        let mut out = Vec::with_capacity(len);
        for n in lo..hi {
            let pos = self.apply1(store, f, n as i64, span)?;
            match self
                .game_value(store, pos)
                .map_err(|e| e.or_at(self.scope.file, span.clone()))?
            {
                loony_core::class::Class::Nimber(v) => out.push(v),
                other => {
                    return Err(self.err(
                        TheoryError::NoValue {
                            form: other.show(self.out.notation.ascii).unwrap_or_default(),
                            reason: format!("position {n} has no nimber"),
                        },
                        span,
                    ));
                }
            }
        }
        Ok(out)
    }

    fn apply1(
        &mut self,
        store: &mut Store,
        f: &Value,
        n: i64,
        span: &Span,
    ) -> Result<GameId, Error> {
        let arg = Expr::new(loony_syntax::ast::ExprKind::Int(n), span.clone());
        let v = self.call(
            store,
            f.clone(),
            vec![Value::Int(n)],
            std::slice::from_ref(&arg),
            span,
            &arg,
        )?;
        self.as_game(store, &v, span)
    }
}

/// The family of heap rules (see [`crate::family`]): equal when their standard codes are,
/// printed as their code; a heap game is not a game until it is given a heap (`g(5)`).
pub(crate) struct Heaps;

impl Family for Heaps {
    /// Heap games are equal when their rules are: one standard code (`heap("04.30")` is
    /// `heap("4.3")`, `subtraction([1, 2])` is `heap("0.33")`).
    fn equal(cx: &mut Cx, _store: &mut Store, a: &Value, b: &Value, at: At) -> Result<bool, Error> {
        match (a, b) {
            (Value::Heap(x), Value::Heap(y)) => Ok(
                x == y || cx.engines.heaps.rules(*x).code() == cx.engines.heaps.rules(*y).code()
            ),
            _ => Err(cannot_compare(cx, a, b, at)),
        }
    }

    fn show(_cx: &mut Cx, store: &mut Store, v: &Value) -> Result<String, Error> {
        let Value::Heap(h) = v else {
            unreachable!("heap games only")
        };
        Ok(store.heap_code(*h).to_string())
    }

    fn as_game(cx: &Cx, store: &mut Store, v: &Value, span: &Span) -> Result<GameId, Error> {
        let Value::Heap(h) = v else {
            unreachable!("heap games only")
        };
        Err(cx.err(
            EvalError::HeapGameAsGame {
                game: store.heap_name(*h).to_string(),
            },
            span,
        ))
    }
}

pub(crate) fn call(
    cx: &mut Cx,
    store: &mut Store,
    op: HeapOp,
    a: Args<'_>,
) -> Result<Value, Error> {
    let vals = &a.vals;
    match op {
        HeapOp::Heap => take_and_break(cx, store, &vals[0], a.span(0)),
        HeapOp::HeapCode => heap_code(cx, &vals[0], a.span(0)),
        HeapOp::NimSum | HeapOp::NimProduct | HeapOp::NimDiv | HeapOp::NimInverse => {
            nim_arithmetic(cx, store, op, &a)
        }
        HeapOp::Subtraction | HeapOp::Allbut => subtraction(cx, store, op, &a),
        HeapOp::NimSequence => {
            let src = source(cx, &vals[0], a.span(0), a.name)?;
            let (lo, hi) = heaps_asked(cx, &vals[1], a.span(1), a.name)?;
            nim_sequence(cx, store, src, lo, hi, a.span)
        }
        HeapOp::Periodicity => periodicity(cx, store, &a),
        HeapOp::RareValues => rare_values(cx, store, &a),
        HeapOp::WriteSequence => write_sequence(cx, store, &a),
        HeapOp::ReadSequence => read_sequence(cx, &a),
        HeapOp::Plot => plot(cx, store, &a),
    }
}

/// `heap(code)`: the take-and-break game of an octal or hexadecimal code.
fn take_and_break(cx: &mut Cx, store: &mut Store, v: &Value, at: &Span) -> Result<Value, Error> {
    let Value::Str(code) = v else {
        return Err(cx.err(
            EvalError::BadArgument(ArgumentError::NotLike {
                like: Example::HeapCode,
                found: v.type_name(),
            }),
            at,
        ));
    };
    let parsed = parse_code(cx, code, at)?;
    let id = cx
        .engines
        .heaps
        .register(store, HeapRules::TakeBreak(parsed));
    Ok(Value::Heap(id))
}

/// `heap_code(g)`: the canonical code of a heap game, or of a code written as a string.
fn heap_code(cx: &mut Cx, v: &Value, at: &Span) -> Result<Value, Error> {
    let code = match v {
        Value::Heap(h) => cx.engines.heaps.rules(*h).code(),
        Value::Str(text) => parse_code(cx, text, at)?,
        other => {
            return Err(cx.err(
                EvalError::BadArgument(ArgumentError::NotA {
                    function: "heap_code".into(),
                    wanted: Wanted::CodeSource,
                    found: other.type_name(),
                }),
                at,
            ));
        }
    };
    Ok(Value::Str(code.to_string().into()))
}

/// `nim_sum`, `nim_product`, `nim_div`, `nim_inverse`: arithmetic of the nim-field on
/// integers, or on nimbers (then the result is a nimber).
fn nim_arithmetic(
    cx: &mut Cx,
    store: &mut Store,
    op: HeapOp,
    a: &Args<'_>,
) -> Result<Value, Error> {
    let (name, vals, span) = (a.name, &a.vals, a.span);
    let mut args = Vec::with_capacity(vals.len());
    for (i, v) in vals.iter().enumerate() {
        args.push(nim_arg(cx, store, name, v, a.span(i))?);
    }
    let as_game = args.iter().any(|a| a.1);
    let zero = |cx: &Cx, i: usize| {
        cx.err(
            TheoryError::NimZeroDivisor {
                op: name.to_string(),
            },
            a.span(i),
        )
    };
    let result = match op {
        HeapOp::NimSum => args[0].0 ^ args[1].0,
        HeapOp::NimProduct => nimfield::nim_product(args[0].0, args[1].0),
        HeapOp::NimDiv => nimfield::nim_div(args[0].0, args[1].0).ok_or_else(|| zero(cx, 1))?,
        _ => nimfield::nim_inverse(args[0].0).ok_or_else(|| zero(cx, 0))?,
    };
    if as_game {
        // Games' nimbers are below 2^32, a subfield: the result is too.
        return Ok(Value::Game(store.nimber(result as u32)));
    }
    let result = i64::try_from(result).map_err(|_| {
        cx.err(
            EvalError::Overflow {
                op: name.to_string(),
            },
            span,
        )
    })?;
    Ok(Value::Int(result))
}

/// `subtraction(S)` and `allbut(S)`: the subtraction game of a set, or of all but a set.
fn subtraction(cx: &mut Cx, store: &mut Store, op: HeapOp, a: &Args<'_>) -> Result<Value, Error> {
    let (name, vals) = (a.name, &a.vals);
    let set = int_set(cx, &vals[0], a.span(0), name)?;
    if set.is_empty() && op == HeapOp::Subtraction {
        return Err(cx.err(
            EvalError::BadArgument(ArgumentError::EmptySubtractionSet),
            a.span(0),
        ));
    }
    let rules = if op == HeapOp::Subtraction {
        HeapRules::subtraction(set)
    } else {
        HeapRules::all_but(set)
    };
    let id = cx.engines.heaps.register(store, rules);
    Ok(Value::Heap(id))
}

/// `periodicity(g)` or `periodicity(g, budget)`: the nim-sequence's period, certified for
/// heap rules, apparent for a ruleset or function of one integer.
fn periodicity(cx: &mut Cx, store: &mut Store, a: &Args<'_>) -> Result<Value, Error> {
    let (name, vals, span) = (a.name, &a.vals, a.span);
    let src = source(cx, &vals[0], a.span(0), name)?;
    let budget = match vals.get(1) {
        Some(Value::Int(n)) if *n > 0 => Some(*n as usize),
        Some(other) => {
            return Err(cx.err(
                EvalError::BadArgument(ArgumentError::Limit {
                    limit: Limit::PeriodicityBudget,
                    found: super::show::describe(other),
                }),
                a.span(1),
            ));
        }
        None => None,
    };
    let p = match src {
        Source::Heap(h) => heap_periodicity(cx, h, budget, span)?,
        Source::Callable(f) => {
            let n = budget.unwrap_or(RULESET_PERIODICITY_BUDGET) as u64;
            let values = cx.callable_values(store, &f, 0, n + 1, span)?;
            heap::apparent_periodicity(&values)
        }
    };
    Ok(Value::Record(Rc::new(periodicity_record(&p))))
}

/// The periodicity search of heap rules `h` (certified), over `budget` heaps if asked, with a
/// progress bar once it has run a second; a warning when the dense search stopped early.
fn heap_periodicity(
    cx: &mut Cx,
    h: u32,
    budget: Option<usize>,
    span: &Span,
) -> Result<heap::Periodicity, Error> {
    let cancel = cx.limits.interrupt.clone();
    let asked = budget.is_some();
    let budget = budget.unwrap_or(match cx.engines.heaps.rules(h) {
        HeapRules::TakeBreak(code) => match code.max_heaps() {
            Some(m) if m <= 2 && code.is_hexadecimal() => PERIODICITY_BUDGET,
            // No splits: even periodic digits cost little per heap.
            Some(m) if m <= 1 => PERIODICITY_BUDGET,
            Some(3) if code.is_hexadecimal() => PERIODICITY_BUDGET_THREE_HEAPS,
            _ => PERIODICITY_BUDGET_GENERAL,
        },
        _ => PERIODICITY_BUDGET,
    });
    // Most searches certify within a few hundred heaps; a bar appears only
    // once one has run for a second (on a terminal), so none stays silent.
    let started = std::time::Instant::now();
    let bar: std::cell::RefCell<Option<indicatif::ProgressBar>> = Default::default();
    let show = cx.engines.heaps.progress;
    let log = super::progress::Log::new(format!("periodicity of {}", cx.engines.heaps.rules(h)));
    // `most`: the budget, or less once the search knows it will stop early.
    let report = |done: usize, most: usize| {
        if !show {
            log.line(|| format!("{done} of {most} heaps searched"));
            return;
        }
        if started.elapsed().as_secs_f64() < 1.0 {
            return;
        }
        let mut bar = bar.borrow_mut();
        let b = bar
            .get_or_insert_with(|| super::progress::bar(most as u64, super::progress::PERIODICITY));
        b.set_length(most as u64);
        b.set_position(done as u64);
    };
    let ctl = Control::default()
        .with_cancel(&cancel)
        .with_progress(&report);
    let bound = heap::Bound {
        heaps: budget,
        dense_heaps: (!asked).then_some(PERIODICITY_BUDGET_DENSE),
    };
    let p = cx.engines.heaps.rules(h).periodicity(bound, &ctl);
    if let Some(b) = bar.borrow().as_ref() {
        b.finish_and_clear();
    }
    if p.interrupted {
        return Err(cx.err(CoreError::Interrupted, span));
    }
    if p.dense_stop {
        let game = cx.engines.heaps.rules(h).to_string();
        cx.warn(loony_core::diag::Warning {
            kind: loony_core::diag::WarningKind::DenseStop {
                game,
                heaps: p.checked_up_to as u64,
            },
            loc: loony_core::diag::Loc {
                file: cx.scope.file,
                span: span.clone(),
            },
        });
    }
    Ok(p)
}

/// `rare_values(g, n)`: a heap game's values split into common and rare up to heap `n`.
fn rare_values(cx: &mut Cx, store: &mut Store, a: &Args<'_>) -> Result<Value, Error> {
    let (name, vals, span) = (a.name, &a.vals, a.span);
    let Value::Heap(h) = &vals[0] else {
        return Err(cx.err(
            EvalError::BadArgument(ArgumentError::NotA {
                function: name.into(),
                wanted: Wanted::HeapGame,
                found: vals[0].type_name(),
            }),
            a.span(0),
        ));
    };
    let n = match &vals[1] {
        Value::Int(n) if *n >= 0 => *n as u64,
        Value::Int(n) => {
            return Err(cx.err(
                EvalError::HeapSize(HeapSizeError::NotNonnegative {
                    found: super::show::describe(&Value::Int(*n)),
                }),
                a.span(1),
            ));
        }
        other => {
            return Err(cx.err(
                EvalError::BadArgument(ArgumentError::NotA {
                    function: name.into(),
                    wanted: Wanted::LastHeap,
                    found: other.type_name(),
                }),
                a.span(1),
            ));
        }
    };
    let cancel = cx.limits.interrupt.clone();
    let rare = cx
        .engines
        .heaps
        .rare_values(*h, n, &cancel)
        .map_err(|e| e.or_at(cx.scope.file, span.clone()))?;
    let Some(rare) = rare else {
        return Err(cx.err(
            EvalError::NotApplicable {
                function: format!("`{name}`"),
                form: store.heap_name(*h).to_string(),
                reason: "values split into common and rare only for games whose \
                         moves leave at most two heaps, some of them two"
                    .into(),
            },
            a.span(0),
        ));
    };
    Ok(Value::Record(Rc::new(rare_record(&rare, n))))
}

/// `write_sequence(g, n, file)`: see the built-in's row.
fn write_sequence(cx: &mut Cx, store: &mut Store, a: &Args<'_>) -> Result<Value, Error> {
    let (vals, span) = (&a.vals, a.span);
    let name = "write_sequence";
    let src = source(cx, &vals[0], a.span(0), name)?;
    let (lo, hi) = heaps_asked(cx, &vals[1], a.span(1), name)?;
    let Value::Str(path) = &vals[2] else {
        return Err(cx.err(
            EvalError::BadArgument(ArgumentError::NotA {
                function: name.into(),
                wanted: Wanted::FileName,
                found: vals[2].type_name(),
            }),
            a.span(2),
        ));
    };
    let path = path.to_string();
    let write_failed = |cx: &Cx, e: std::io::Error| {
        let mut err = cx.err(
            EvalError::WriteFailed {
                path: path.clone(),
                message: e.to_string(),
            },
            a.span(2),
        );
        if let Some(folder) = super::plot::missing_folder(&path) {
            err = err.with_note(format!("the folder `{folder}` does not exist"));
        }
        err
    };
    let game = match &src {
        Source::Heap(h) => store.heap_name(*h).to_string(),
        Source::Callable(Value::Ruleset(r)) => r.def.name.name.to_string(),
        Source::Callable(Value::Func(f)) => f.def.name.name.to_string(),
        Source::Callable(_) => "a ruleset".into(),
    };
    let mut w =
        sequence_file::Writer::create(&path, &game, lo, hi).map_err(|e| write_failed(cx, e))?;
    let result = match &src {
        Source::Heap(h) if hi > lo => {
            let cancel = cx.limits.interrupt.clone();
            cx.engines.heaps.stream(*h, hi, &mut w, &cancel)
        }
        Source::Heap(_) => Ok(()),
        Source::Callable(f) => cx.callable_values(store, f, lo, hi, span).map(|values| {
            w.take(heap::Values::U32(&values), lo);
        }),
    };
    let (format, next) = (w.format(), w.next_heap());
    let error = w.error.take();
    // The file is closed and marked (complete or partial) whatever stopped the writing.
    let bytes = w.finish();
    let held = if next > lo {
        format!("heaps {lo} to {}", next - 1)
    } else {
        "no heaps".into()
    };
    let partial = format!("`{path}` holds {held}, and is marked partial");
    match (result, error) {
        (Err(e), _) => Err(e.or_at(cx.scope.file, span.clone()).with_note(partial)),
        (Ok(()), Some(sequence_file::WriteError::Io(e))) => {
            Err(write_failed(cx, e).with_note(partial))
        }
        (Ok(()), Some(sequence_file::WriteError::TooWide { heap, value })) => Err(cx
            .err(
                EvalError::ValueTooLarge(TooLarge::FileWidth { heap, value }),
                a.span(2),
            )
            .with_note(partial)),
        (Ok(()), None) => {
            let bytes = bytes.map_err(|e| write_failed(cx, e))?;
            let summary = format!(
                "wrote heaps {lo} to {} of {game} to {path} ({}, {bytes} bytes)",
                hi.saturating_sub(1),
                format.name()
            );
            Ok(Value::Record(Rc::new(loony_core::value::Record {
                kind: "a sequence file",
                fields: vec![
                    ("path", Value::Str(Rc::new(path.as_str().into()))),
                    ("format", Value::Str(Rc::new(format.name().into()))),
                    ("first", Value::Int(lo as i64)),
                    ("last", Value::Int(hi as i64 - 1)),
                    ("heaps", Value::Int((hi - lo) as i64)),
                    ("bytes", Value::Int(bytes as i64)),
                ],
                summary,
            })))
        }
    }
}

/// `read_sequence(file)`: see the built-in's row.
fn read_sequence(cx: &mut Cx, a: &Args<'_>) -> Result<Value, Error> {
    let vals = &a.vals;
    let span = a.exprs.first().map(|e| e.span.clone()).unwrap_or_default();
    let Value::Str(path) = &vals[0] else {
        return Err(cx.err(
            EvalError::BadArgument(ArgumentError::NotA {
                function: "read_sequence".into(),
                wanted: Wanted::FileName,
                found: vals[0].type_name(),
            }),
            &span,
        ));
    };
    let path = path.to_string();
    let mut refused = None;
    let mut reserve = |bytes: usize| match loony_core::memory::reserve(bytes, "a nim-sequence") {
        Ok(()) => true,
        Err(e) => {
            refused = Some(e);
            false
        }
    };
    let read = sequence_file::read(&path, &mut reserve);
    if let Some(e) = refused {
        return Err(e.or_at(cx.scope.file, span));
    }
    let loaded = match read {
        Ok(Some(l)) => l,
        Ok(None) => unreachable!("a refused reservation is returned above"),
        Err(sequence_file::ReadError::Io(e)) => {
            return Err(cx.err(
                EvalError::Io {
                    path,
                    message: e.to_string(),
                },
                &span,
            ));
        }
        Err(sequence_file::ReadError::Line { line, text }) => {
            return Err(cx.err(
                EvalError::BadArgument(ArgumentError::NotASequenceLine { path, line, text }),
                &span,
            ));
        }
        Err(sequence_file::ReadError::Header) => {
            return Err(cx.err(
                EvalError::BadArgument(ArgumentError::NotASequenceHeader { path }),
                &span,
            ));
        }
    };
    if !loaded.complete {
        cx.warn(loony_core::diag::Warning {
            kind: loony_core::diag::WarningKind::PartialFile {
                path: path.clone(),
                heaps: loaded.values.len() as u64,
            },
            loc: loony_core::diag::Loc {
                file: cx.scope.file,
                span: span.clone(),
            },
        });
    }
    let of = loony_core::value::SequenceOf::Named(loaded.name.unwrap_or(path).into());
    Ok(Value::Sequence(Rc::new(loony_core::value::Sequence {
        start: loaded.first,
        values: Packed::from_u32(loaded.values),
        of,
    })))
}

/// The heaps `lo..hi` that `nim_sequence` and `write_sequence` are asked for: a last heap `n`
/// (heaps 0 to n) or a range.
fn heaps_asked(cx: &Cx, v: &Value, span: &Span, name: &str) -> Result<(u64, u64), Error> {
    match v {
        Value::Int(n) if *n >= 0 => Ok((0u64, *n as u64 + 1)),
        Value::Int(n) => Err(cx.err(
            EvalError::BadRange(RangeError::NegativeCount { n: *n }),
            span,
        )),
        Value::List(xs) => {
            let (first, last) = heap_range(cx, xs, span, name)?;
            Ok((first, last + 1))
        }
        other => Err(cx.err(
            // Not an integer (those are read above): described by its type.
            EvalError::BadArgument(ArgumentError::NotA {
                function: name.into(),
                wanted: Wanted::HeapCount,
                found: other.type_name(),
            }),
            span,
        )),
    }
}

fn rare_record(r: &heap::RareValues, n: u64) -> loony_core::value::Record {
    let ints = |f: &dyn Fn(&(usize, u32)) -> i64| {
        Value::List(Rc::new(r.heaps.iter().map(|x| Value::Int(f(x))).collect()))
    };
    // The first few pairs in the summary; all of them are in the fields.
    const SHOWN: usize = 12;
    let mut summary = if r.mask == 0 {
        format!(
            "no mask splits heaps 0 to {n} into common and rare (largest value {})",
            r.largest
        )
    } else {
        format!(
            "{} rare heaps up to heap {n} (mask {:#x}, largest value {})",
            r.heaps.len(),
            r.mask,
            r.largest
        )
    };
    if !r.heaps.is_empty() {
        let pairs: Vec<String> = r
            .heaps
            .iter()
            .take(SHOWN)
            .map(|(h, v)| format!("{h}: {v}"))
            .collect();
        summary.push_str(": ");
        summary.push_str(&pairs.join(", "));
        if r.heaps.len() > SHOWN {
            summary.push_str(", …");
        }
    }
    loony_core::value::Record {
        kind: "rare values",
        fields: vec![
            ("mask", Value::Int(r.mask as i64)),
            ("heaps", ints(&|&(h, _)| h as i64)),
            ("values", ints(&|&(_, v)| i64::from(v))),
            ("count", Value::Int(r.heaps.len() as i64)),
            ("largest", Value::Int(i64::from(r.largest))),
            ("checked_up_to", Value::Int(n as i64)),
        ],
        summary,
    }
}

fn periodicity_record(p: &heap::Periodicity) -> loony_core::value::Record {
    let opt = |x: Option<usize>| x.map_or(Value::None, |v| Value::Int(v as i64));
    let period = p.period.as_ref();
    loony_core::value::Record {
        kind: "a periodicity",
        fields: vec![
            ("period", opt(period.map(|q| q.period))),
            ("preperiod", opt(period.map(|q| q.preperiod))),
            (
                "last_exceptional",
                opt(period.and_then(|q| q.last_exceptional)),
            ),
            (
                "saltus",
                period.map_or(Value::None, |q| Value::Int(q.saltus as i64)),
            ),
            ("certified", Value::Bool(p.certified_at.is_some())),
            ("certified_at", opt(p.certified_at)),
            ("checked_up_to", Value::Int(p.checked_up_to as i64)),
        ],
        summary: p.to_string(),
    }
}
