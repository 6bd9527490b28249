//! The family of nim-sequences (`nim_sequence(g, n)`): packed values from a first heap,
//! equal when they start at the same heap and hold the same values, printed in rows. See
//! [`crate::family`]. The built-ins that make and study them (`nim_sequence`,
//! `periodicity`, `rare_values`, `write_sequence`, `read_sequence`, `plot` of a game) are
//! here too; the heap rules they run are `heaps.rs`'s.

use super::args::Args;
use super::family::{At, Family, cannot_compare};
use super::heaps::*;
use super::sequence_file;
use crate::catalog::{Builtin, Impl, RecordShape, Rows, distributed_slice};
use crate::cx::Cx;
use crate::error::{ArgumentError, EvalError, HeapSizeError, Limit, RangeError, TooLarge, Wanted};
use crate::value::Value;
use loony_core::diag::{CoreError, Error};
use loony_core::game::{GameId, Store};
use loony_core::packed::Packed;
use loony_syntax::ast::{Expr, Span};
use loony_theory::TheoryError;
use loony_theory::heap::{self, Control, HeapRules};
use std::rc::Rc;

pub(crate) struct Sequences;

impl Family for Sequences {
    fn equal(cx: &mut Cx, _store: &mut Store, a: &Value, b: &Value, at: At) -> Result<bool, Error> {
        match (a, b) {
            (Value::Sequence(x), Value::Sequence(y)) => {
                Ok(x.start == y.start && x.values == y.values)
            }
            _ => Err(cannot_compare(cx, a, b, at)),
        }
    }

    fn show(_cx: &mut Cx, _store: &mut Store, v: &Value) -> Result<String, Error> {
        let Value::Sequence(s) = v else {
            unreachable!("nim-sequences only")
        };
        Ok(super::show::sequence(s.start, &s.values.to_vec()))
    }
}

/// What `nim_sequence`/`periodicity` can read a sequence from.
pub(crate) enum Source {
    Heap(u32),
    /// A user ruleset (or function) of one integer, through the generic engine.
    Callable(Value),
}

pub(crate) fn source(cx: &Cx, v: &Value, span: &Span, what: &str) -> Result<Source, Error> {
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
pub(crate) fn nim_sequence(
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
    Ok(Value::Sequence(Rc::new(crate::value::Sequence {
        start: lo,
        values,
        of,
    })))
}

/// `plot(g, heaps, …)`: a heap game (or a ruleset or function of one integer) and the heaps
/// to draw, a number of them or a range, read as `plot(nim_sequence(g, heaps), …)`. Anything
/// else first is left to `plot`, whose error names both forms.
pub(crate) fn plot(cx: &mut Cx, store: &mut Store, a: &Args<'_>) -> Result<Value, Error> {
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
                    found: other.map(crate::words::describe),
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
pub(crate) fn source_of(src: &Source) -> crate::value::SequenceOf {
    use crate::value::SequenceOf;
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

/// `periodicity(g)` or `periodicity(g, budget)`: the nim-sequence's period, certified for
/// heap rules, apparent for a ruleset or function of one integer.
pub(crate) fn periodicity(cx: &mut Cx, store: &mut Store, a: &Args<'_>) -> Result<Value, Error> {
    let (name, vals, span) = (a.name, &a.vals, a.span);
    let src = source(cx, &vals[0], a.span(0), name)?;
    let budget = match vals.get(1) {
        Some(Value::Int(n)) if *n > 0 => Some(*n as usize),
        Some(other) => {
            return Err(cx.err(
                EvalError::BadArgument(ArgumentError::Limit {
                    limit: Limit::PeriodicityBudget,
                    found: crate::words::describe(other),
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
pub(crate) fn heap_periodicity(
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
pub(crate) fn rare_values(cx: &mut Cx, store: &mut Store, a: &Args<'_>) -> Result<Value, Error> {
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
                    found: crate::words::describe(&Value::Int(*n)),
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
pub(crate) fn write_sequence(cx: &mut Cx, store: &mut Store, a: &Args<'_>) -> Result<Value, Error> {
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
            Ok(Value::Record(Rc::new(crate::value::Record {
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
pub(crate) fn read_sequence(cx: &mut Cx, a: &Args<'_>) -> Result<Value, Error> {
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
    let of = crate::value::SequenceOf::Named(loaded.name.unwrap_or(path).into());
    Ok(Value::Sequence(Rc::new(crate::value::Sequence {
        start: loaded.first,
        values: Packed::from_u32(loaded.values),
        of,
    })))
}

/// The heaps `lo..hi` that `nim_sequence` and `write_sequence` are asked for: a last heap `n`
/// (heaps 0 to n) or a range.
pub(crate) fn heaps_asked(
    cx: &Cx,
    v: &Value,
    span: &Span,
    name: &str,
) -> Result<(u64, u64), Error> {
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

pub(crate) fn rare_record(r: &heap::RareValues, n: u64) -> crate::value::Record {
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
    crate::value::Record {
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

pub(crate) fn periodicity_record(p: &heap::Periodicity) -> crate::value::Record {
    let opt = |x: Option<usize>| x.map_or(Value::None, |v| Value::Int(v as i64));
    let period = p.period.as_ref();
    crate::value::Record {
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

/// `nim_sequence(g, heaps)`.
fn nim_sequence_of(cx: &mut Cx, store: &mut Store, a: &Args<'_>) -> Result<Value, Error> {
    let src = source(cx, &a.vals[0], a.span(0), a.name)?;
    let (lo, hi) = heaps_asked(cx, &a.vals[1], a.span(1), a.name)?;
    nim_sequence(cx, store, src, lo, hi, a.span)
}

/// `periodicity(g)`.
static PERIODICITY: RecordShape = RecordShape {
    fields: &[
        "period",
        "preperiod",
        "last_exceptional",
        "saltus",
        "certified",
        "certified_at",
        "checked_up_to",
    ],
    methods: &[],
};

/// `rare_values(g, n)`.
static RARE_VALUES: RecordShape = RecordShape {
    fields: &[
        "mask",
        "heaps",
        "values",
        "count",
        "largest",
        "checked_up_to",
    ],
    methods: &[],
};

/// `write_sequence(g, n, file)`.
static SEQUENCE_FILE: RecordShape = RecordShape {
    fields: &["path", "format", "first", "last", "heaps", "bytes"],
    methods: &[],
};

/// The rows of nim-sequences, under heap games in the documentation.
#[distributed_slice(crate::catalog::ROWS)]
static SEQUENCES: Rows = Rows {
    section: "Heap games",
    order: 41,
    rows: &[
        Builtin {
            name: "nim_sequence",
            imp: Impl::Function(|cx, store, a| nim_sequence_of(cx, store, &a)),
            signature: "nim_sequence(g, n), nim_sequence(g, a..b)",
            arity: (2, 2),
            doc: "The nim-values of the heaps `g(0), …, g(n)` (note: `n` is included, so \
             `nim_sequence(g, 5)` has six values), or of the heaps in a range; `g` is a heap game \
             or a ruleset (or function) of one integer. Prints as the values separated by spaces. \
             Held packed (one to four bytes a heap, as the largest value needs): `s[i]`, `s[a..b]` \
             (a sequence of those heaps), `len(s)` and `for (n, v) in s` read it in place.",
            example: "nim_sequence(subtraction([1, 2]), 6)",
            result: "0 1 2 0 1 2 0",
            record: None,
        },
        Builtin {
            name: "periodicity",
            imp: Impl::Function(|cx, store, a| periodicity(cx, store, &a)),
            signature: "periodicity(g), periodicity(g, heaps)",
            arity: (1, 2),
            doc: "Searches the nim-sequence of `g` for a period, up to a default number of heaps or \
             `heaps`, and certifies it where the Guy–Smith argument applies. A record with fields \
             `period`, `preperiod`, `last_exceptional`, `saltus`, `certified`, `certified_at`, \
             `checked_up_to`.",
            example: "periodicity(heap(\"0.07\")).period",
            result: "34",
            record: Some(&PERIODICITY),
        },
        Builtin {
            name: "rare_values",
            imp: Impl::Function(|cx, store, a| rare_values(cx, store, &a)),
            signature: "rare_values(g, n)",
            arity: (2, 2),
            doc: "The rare heaps of a heap game among heaps 0 to `n`: the sparse-space split (Gangolli–Plambeck, \
             Flammenkamp) calls heap `m` common when `(g(m) << 1 | m % 2) & mask` has an odd number \
             of bits, for the mask that leaves the fewest heaps rare (none while no mask leaves fewer than an \
             eighth). Heap 0 is judged the same way, and with a mask it is always rare (its augmented \
             value is 0), so it is listed and counted, as in the published counts (Grundy's game: 1 287 \
             rare heaps to 2^32). A record with fields `mask`, \
             `heaps` and `values` (the rare heaps, ascending, and their nim-values), `count`, \
             `largest` (the largest nim-value of any heap) and `checked_up_to`. Only the kernel's \
             two bytes a heap are held, up to 2^32 heaps; for games whose moves leave at most two \
             heaps, some of them two.",
            example: "rare_values(heap(\"4!.0\"), 20000).count",
            result: "1196",
            record: Some(&RARE_VALUES),
        },
        Builtin {
            name: "write_sequence",
            imp: Impl::Function(|cx, store, a| write_sequence(cx, store, &a)),
            signature: "write_sequence(g, n, file), write_sequence(g, a..b, file)",
            arity: (3, 3),
            doc: "Writes the nim-values of heaps `0..=n` (or of a range) of `g` to `file` as they are \
             computed, holding none of them in the session: text with a `#` header line and one \
             value a line, or binary little-endian values after a 32-byte header if the file ends \
             in `.u16` or `.u32`. A bar shows progress; Ctrl-C stops it with the file marked \
             partial (a `# partial` last line, or the header's complete flag left clear). Up to \
             2^32 heaps. A record with fields `path`, `format`, `first`, `last`, `heaps` and \
             `bytes`; `read_sequence` reads the file back.",
            example: "",
            result: "",
            record: Some(&SEQUENCE_FILE),
        },
        Builtin {
            name: "read_sequence",
            imp: Impl::Function(|cx, _, a| read_sequence(cx, &a)),
            signature: "read_sequence(file)",
            arity: (1, 1),
            doc: "Reads a nim-sequence that `write_sequence` wrote (either format, told apart by the \
             binary header), or any text file of one nonnegative integer a line with `#` comments. \
             A file marked partial reads as the heaps it holds, with a warning.",
            example: "",
            result: "",
            record: None,
        },
        Builtin {
            name: "plot",
            imp: Impl::Function(|cx, store, a| plot(cx, store, &a)),
            signature: "plot(seq, file, title, range, (width, height))",
            arity: (1, 6),
            doc: "Draws a nim-sequence as a figure for a paper: heap size across, nim-value up, the \
             game's name or code as the title, the start of a certified period dashed. All but \
             the sequence may be left out, in any order (told apart by type): the first string \
             is the file (by default `nim-sequence.svg` in the current folder), the second the \
             title, a range the heaps drawn, a pair the size (default `(480, 300)`). The file's \
             extension chooses the format: `.svg`, `.png` (288 dpi) or `.pdf`. A heap game (or a \
             ruleset or function of one integer) followed by its heaps, a number of them or a \
             range, stands for their sequence: `plot(heap(\"0.07\"), 0..60, …)` is \
             `plot(nim_sequence(heap(\"0.07\"), 0..60), …)`.",
            example: "",
            result: "",
            record: None,
        },
    ],
};
