//! Heap games in the language: `heap("0.07")`, `subtraction([1, 3, 4])`, `allbut([…])`, their
//! positions (mixing with every other game in sums), nim-sequences, periodicity and plots.

use super::args::Args;
use super::catalog::HeapOp;
use super::family::{At, Family, cannot_compare};
use super::progress::Meter;
use super::sequence_file;
use crate::cx::Cx;
use crate::error::{
    ArgumentError, EvalError, Example, HeapSizeError, RangeError, TypeError, Wanted,
};
use crate::value::Value;
use loony_core::diag::{CoreError, Error};
use loony_core::game::{GameId, Store};
use loony_core::packed::Packed;
use loony_syntax::ast::Span;
use loony_theory::TheoryError;
use loony_theory::heap::{self, Code, Control, HeapRules};
use loony_theory::nimfield;
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
                holds: crate::words::describe(x),
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
pub(crate) const MAX_OPTIONS: usize = 1_000_000;

pub(crate) fn parse_code(cx: &Cx, code: &str, span: &Span) -> Result<Code, Error> {
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
pub(crate) fn nim_arg(
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

pub(crate) fn game_nimber(
    cx: &mut Cx,
    store: &mut Store,
    g: GameId,
    span: &Span,
) -> Result<u32, Error> {
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

pub(crate) fn int_set(cx: &Cx, v: &Value, span: &Span, what: &str) -> Result<Vec<usize>, Error> {
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
                        holds: crate::words::describe(x),
                    }),
                    span,
                ));
            }
        }
    }
    Ok(out)
}

/// The most tokens a subtraction or all-but set may name (heap sizes stay well inside `u64`).
pub(crate) const MOST_TAKEN: i64 = 1 << 40;

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

/// `heap(code)`: the take-and-break game of an octal or hexadecimal code.
pub(crate) fn take_and_break(
    cx: &mut Cx,
    store: &mut Store,
    v: &Value,
    at: &Span,
) -> Result<Value, Error> {
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
pub(crate) fn heap_code(cx: &mut Cx, v: &Value, at: &Span) -> Result<Value, Error> {
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
pub(crate) fn nim_arithmetic(
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
pub(crate) fn subtraction(
    cx: &mut Cx,
    store: &mut Store,
    op: HeapOp,
    a: &Args<'_>,
) -> Result<Value, Error> {
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
