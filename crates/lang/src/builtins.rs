//! Built-in functions: the arity check and the dispatch to each family, and the core
//! built-ins. The engines they query are kept for the whole session in
//! [`crate::cx::Engines`].

use super::catalog::{Builtin, CoreOp, HeapOp, Impl};
use super::query::MoveResult;
use super::{heaps, sequences};
pub(crate) use crate::args::Args;
/// Kept here too: the front ends' tests find a built-in's value as `builtins::lookup`.
pub use crate::catalog::lookup;
use crate::cx::Cx;
use crate::error::{ArgumentError, EvalError, TooLarge};
use crate::value::Value;
use loony_core::class::Class;
use loony_core::diag::{CoreError, Error};
use loony_core::game::{GameId, Store};
use loony_graph::Side;
use loony_syntax::ast::{Expr, Span};
use loony_theory::affine::Stop;
use loony_theory::normal::mex;
use std::rc::Rc;

/// The largest stack the Top Entails built-ins compute.
const MOST_STACK: i64 = 10_000_000;

/// Calls a built-in: the catalog's arity is checked here, once for every built-in, then the
/// family's dispatcher runs it.
pub fn call(
    cx: &mut Cx,
    store: &mut Store,
    entry: &'static Builtin,
    vals: Vec<Value>,
    exprs: &[Expr],
    span: &Span,
) -> Result<Value, Error> {
    let (lo, hi) = entry.arity;
    if vals.len() < lo || vals.len() > hi {
        return Err(cx.builtin_arity(entry, vals.len(), span));
    }
    let a = Args {
        name: entry.name,
        vals,
        exprs,
        span,
    };
    match entry.imp {
        Impl::Core(op) => core(cx, store, op, a),
        Impl::Heaps(op) => heaps(cx, store, op, a),
        Impl::Misere(op) => super::misere::call(cx, store, op, &a),
        Impl::Quotient(op) => super::quotient::call(cx, store, op, &a),
        Impl::Boards(op) => super::boards::call(cx, op, a),
        // A constant is its value (`lookup`); a value that is not a function is never called.
        Impl::Constant(o) => Ok(Value::Outcome(o)),
    }
}

/// Heap games and nim-sequences: `heaps.rs` and `sequences.rs`.
fn heaps(cx: &mut Cx, store: &mut Store, op: HeapOp, a: Args<'_>) -> Result<Value, Error> {
    let vals = &a.vals;
    match op {
        HeapOp::Heap => heaps::take_and_break(cx, store, &vals[0], a.span(0)),
        HeapOp::HeapCode => heaps::heap_code(cx, &vals[0], a.span(0)),
        HeapOp::NimSum | HeapOp::NimProduct | HeapOp::NimDiv | HeapOp::NimInverse => {
            heaps::nim_arithmetic(cx, store, op, &a)
        }
        HeapOp::Subtraction | HeapOp::Allbut => heaps::subtraction(cx, store, op, &a),
        HeapOp::NimSequence => {
            let src = sequences::source(cx, &vals[0], a.span(0), a.name)?;
            let (lo, hi) = sequences::heaps_asked(cx, &vals[1], a.span(1), a.name)?;
            sequences::nim_sequence(cx, store, src, lo, hi, a.span)
        }
        HeapOp::Periodicity => sequences::periodicity(cx, store, &a),
        HeapOp::RareValues => sequences::rare_values(cx, store, &a),
        HeapOp::WriteSequence => sequences::write_sequence(cx, store, &a),
        HeapOp::ReadSequence => sequences::read_sequence(cx, &a),
        HeapOp::Plot => sequences::plot(cx, store, &a),
    }
}

/// Values, outcomes, moves and list helpers.
fn core(cx: &mut Cx, store: &mut Store, op: CoreOp, a: Args<'_>) -> Result<Value, Error> {
    match op {
        CoreOp::TopEntailsValue | CoreOp::TopEntailsMoons => top_entails(cx, store, op, &a),
        CoreOp::SaveTable => cx.save_table_builtin(store, &a),
        CoreOp::LoadTable => cx.load_table_builtin(store, &a),
        CoreOp::Len
        | CoreOp::Size
        | CoreOp::Sum
        | CoreOp::Mex
        | CoreOp::Min
        | CoreOp::Max
        | CoreOp::Sorted
        | CoreOp::Reverse
        | CoreOp::Contains
        | CoreOp::Remove
        | CoreOp::Append
        | CoreOp::Abs => list_op(cx, store, op, &a),
        CoreOp::Outcome
        | CoreOp::Value
        | CoreOp::AffineValue
        | CoreOp::Nimber
        | CoreOp::GrundyValue
        | CoreOp::WinningMoves
        | CoreOp::DrawingMoves
        | CoreOp::Options
        | CoreOp::LeftOptions
        | CoreOp::RightOptions
        | CoreOp::OutcomeBySearch
        | CoreOp::Explain => game_query(cx, store, op, &a),
    }
}

/// A game's value, outcome, moves or options, or why it has none.
fn game_query(cx: &mut Cx, store: &mut Store, op: CoreOp, a: &Args) -> Result<Value, Error> {
    let here = |e: Error, cx: &Cx| e.or_at(cx.scope.file, a.span(0).clone());
    let name = a.name;
    match op {
        CoreOp::Outcome => {
            let g = a.game(cx, store, 0)?;
            let o = cx.outcome(store, g).map_err(|e| here(e, cx))?;
            Ok(Value::Outcome(o))
        }
        CoreOp::Value => {
            let g = a.game(cx, store, 0)?;
            let v = cx.game_value(store, g).map_err(|e| here(e, cx))?;
            Ok(Value::Game(value_game(store, &v)))
        }
        CoreOp::AffineValue => {
            let g = a.game(cx, store, 0)?;
            let v = cx.affine_value(store, g).map_err(|e| here(e, cx))?;
            Ok(Value::Game(value_game(store, &v)))
        }
        CoreOp::Nimber | CoreOp::GrundyValue => {
            let g = a.game(cx, store, 0)?;
            match cx.game_value(store, g).map_err(|e| here(e, cx))? {
                Class::Nimber(n) => Ok(Value::Int(n as i64)),
                other => Err(cx.err(
                    EvalError::NotApplicable {
                        function: format!("`{name}`"),
                        form: other.show(cx.out.notation.ascii).unwrap_or_default(),
                        reason: "its value is not a nimber".into(),
                    },
                    a.span(0),
                )),
            }
        }
        CoreOp::WinningMoves | CoreOp::DrawingMoves => {
            let g = a.game(cx, store, 0)?;
            let want = if op == CoreOp::WinningMoves {
                MoveResult::Wins
            } else {
                MoveResult::Draws
            };
            let moves = cx.moves(store, g).map_err(|e| here(e, cx))?;
            let out = moves
                .into_iter()
                .filter(|(_, r)| *r == want)
                .map(|(o, _)| Value::Position(o))
                .collect();
            Ok(Value::List(Rc::new(out)))
        }
        CoreOp::Options | CoreOp::LeftOptions | CoreOp::RightOptions => {
            if let Value::Misere(m) = a.vals[0] {
                return super::misere::options(cx, m, a.span);
            }
            let g = a.game(cx, store, 0)?;
            let side = if op == CoreOp::RightOptions {
                Side::Right
            } else {
                Side::Left
            };
            let opts = cx.options_of(store, g, side).map_err(|e| here(e, cx))?;
            let tidy: Vec<Value> = opts.into_iter().map(Value::Position).collect();
            Ok(Value::List(Rc::new(tidy)))
        }
        CoreOp::OutcomeBySearch => {
            let g = a.game(cx, store, 0)?;
            cx.outcome_by_search(store, g)
                .map(Value::Outcome)
                .map_err(|e| here(e, cx))
        }
        CoreOp::Explain => {
            let g = a.game(cx, store, 0)?;
            cx.explain(store, g).map_err(|e| here(e, cx))
        }
        _ => unreachable!("`core` sends only these here"),
    }
}

/// Lists, strings and integers: length, sum, mex, order, membership, edits.
fn list_op(cx: &mut Cx, store: &mut Store, op: CoreOp, a: &Args) -> Result<Value, Error> {
    let name = a.name;
    match op {
        CoreOp::Len => Ok(Value::Int(match &a.vals[0] {
            Value::Str(s) => s.chars().count() as i64,
            Value::Sequence(s) => s.values.len() as i64,
            _ => a.list(cx, 0)?.len() as i64,
        })),
        CoreOp::Size => {
            let shown = cx.show(store, &a.vals[0])?;
            Ok(Value::Int(shown.chars().count() as i64))
        }
        CoreOp::Sum => {
            let xs = a.list(cx, 0)?;
            if xs.iter().all(|x| matches!(x, Value::Int(_))) {
                let mut t: i64 = 0;
                for x in xs.iter() {
                    if let Value::Int(n) = x {
                        t = t.checked_add(*n).ok_or_else(|| {
                            cx.err(EvalError::Overflow { op: "sum".into() }, a.span)
                        })?;
                    }
                }
                return Ok(Value::Int(t));
            }
            if xs.iter().any(|x| matches!(x, Value::Misere(_))) {
                return super::misere::sum(cx, store, &xs, a.span(0));
            }
            let mut parts = Vec::with_capacity(xs.len());
            for x in xs.iter() {
                parts.push(cx.as_game(store, x, a.span(0))?);
            }
            let s = store
                .sum(&parts)
                .map_err(|e| Error::from(e).or_at(cx.scope.file, a.span.clone()))?;
            Ok(Value::Game(s))
        }
        CoreOp::Mex => {
            let xs = a.list(cx, 0)?;
            let mut v = Vec::with_capacity(xs.len());
            for x in xs.iter() {
                match x {
                    Value::Int(n) if *n >= 0 && *n <= u32::MAX as i64 => v.push(*n as u32),
                    Value::Int(_) => {}
                    other => {
                        return Err(cx.err(
                            EvalError::BadArgument(ArgumentError::NotIntegerIn {
                                function: "mex".into(),
                                found: other.type_name(),
                            }),
                            a.span(0),
                        ));
                    }
                }
            }
            Ok(Value::Int(mex(&v, &mut Vec::new()) as i64))
        }
        CoreOp::Min | CoreOp::Max | CoreOp::Sorted => {
            let mut ints = a.ints(cx, 0)?;
            match op {
                CoreOp::Sorted => {
                    ints.sort_unstable();
                    Ok(Value::List(Rc::new(
                        ints.into_iter().map(Value::Int).collect(),
                    )))
                }
                _ => {
                    let r = if op == CoreOp::Min {
                        ints.iter().min()
                    } else {
                        ints.iter().max()
                    };
                    r.map(|&n| Value::Int(n)).ok_or_else(|| {
                        cx.err(
                            EvalError::BadArgument(ArgumentError::EmptyList {
                                function: name.into(),
                            }),
                            a.span(0),
                        )
                    })
                }
            }
        }
        CoreOp::Reverse => {
            let mut xs = (*a.list(cx, 0)?).clone();
            xs.reverse();
            Ok(Value::List(Rc::new(xs)))
        }
        CoreOp::Contains => {
            let xs = a.list(cx, 0)?;
            let found = xs.iter().any(|x| simple_eq(x, &a.vals[1]));
            Ok(Value::Bool(found))
        }
        CoreOp::Remove => {
            let xs = a.list(cx, 0)?;
            let i = a.index(cx, 1, xs.len())?;
            let mut v = (*xs).clone();
            v.remove(i);
            Ok(Value::List(Rc::new(v)))
        }
        CoreOp::Append => {
            let mut v = (*a.list(cx, 0)?).clone();
            v.push(a.vals[1].clone());
            Ok(Value::List(Rc::new(v)))
        }
        CoreOp::Abs => {
            let n = a.int(cx, 0)?;
            Ok(Value::Int(n.checked_abs().ok_or_else(|| {
                cx.err(EvalError::Overflow { op: "abs".into() }, a.span)
            })?))
        }
        _ => unreachable!("`core` sends only these here"),
    }
}

/// Top Entails through its engine: the value of a stack of `n`, or the stacks up to `n`
/// whose value is a moon.
fn top_entails(cx: &mut Cx, store: &mut Store, op: CoreOp, a: &Args) -> Result<Value, Error> {
    let name = a.name;
    match op {
        CoreOp::TopEntailsValue | CoreOp::TopEntailsMoons => {
            let n = a.int(cx, 0)?;
            if !(0..=MOST_STACK).contains(&n) {
                return Err(cx.err(
                    EvalError::BadArgument(ArgumentError::StackSize {
                        function: name.into(),
                        n,
                        most: MOST_STACK,
                    }),
                    a.span(0),
                ));
            }
            extend_top_entails(cx, n as usize).map_err(|stop| match stop {
                Stop::Interrupted => cx.err(CoreError::Interrupted, a.span),
                Stop::ValueTooLarge(at) => cx.err(
                    EvalError::ValueTooLarge(TooLarge::TopEntailsValue {
                        function: name.into(),
                        at,
                    }),
                    a.span(0),
                ),
            })?;
            let run = &cx.engines.top_entails;
            if op == CoreOp::TopEntailsMoons {
                let moons = (0..=n as usize)
                    .filter(|&i| run.value(i).is_moon())
                    .map(|i| Value::Int(i as i64))
                    .collect();
                return Ok(Value::List(Rc::new(moons)));
            }
            let v = run.value(n as usize);
            let gv = match v.nimber() {
                Some(k) => Class::Nimber(k),
                None => Class::Moon,
            };
            Ok(Value::Game(value_game(store, &gv)))
        }
        _ => unreachable!("`core` sends only these here"),
    }
}

fn simple_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::None, Value::None) => true,
        (Value::Str(x) | Value::Text(x), Value::Str(y) | Value::Text(y)) => x == y,
        (Value::Game(x) | Value::Position(x), Value::Game(y) | Value::Position(y)) => x == y,
        (Value::Misere(x), Value::Misere(y)) => x == y,
        (Value::Board(x), Value::Board(y)) => x == y,
        (Value::Graph(x), Value::Graph(y)) => x == y,
        (Value::Element(p, x), Value::Element(q, y)) => p == q && x == y,
        (Value::List(x), Value::List(y)) | (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| simple_eq(p, q))
        }
        _ => false,
    }
}

/// The simplest game of a value: `*n`, the literal moon `{∞ | ∞̄}`, the special moon
/// `{{∞ | *n}, *n | *n, {*n | ∞̄}}`, the loopy literal `∞(A)`.
pub fn value_game(store: &mut Store, v: &Class) -> GameId {
    match v {
        Class::Nimber(n) => store.nimber(*n),
        Class::Moon | Class::EntailingMoon => {
            let (l, r) = (store.left_win(), store.right_win());
            store.form(&[l], &[r])
        }
        Class::SpecialMoon(n) => store.special_moon(*n),
        Class::Loopy(a) => store.loopy(a),
        Class::LeftWin => store.left_win(),
        Class::RightWin => store.right_win(),
        Class::Partizan | Class::Undetermined(_) => {
            unreachable!("value_game is only called with printable values")
        }
    }
}

/// Makes the session's run of Top Entails values reach stack `n`, carrying on from where it
/// stopped. The cost grows as `n²`, so a terminal gets a progress bar measured in splits.
fn extend_top_entails(cx: &mut Cx, n: usize) -> Result<(), Stop> {
    if cx.engines.top_entails.len() > n {
        return Ok(());
    }
    let flag = cx.limits.interrupt.clone();
    let bar = (cx.engines.heaps.progress && n >= 100_000)
        // Work grows as n², so a large run spends minutes below 1 %: show hundredths.
        .then(|| super::progress::bar(10_000, super::progress::TOP_ENTAILS));
    let from = cx.engines.top_entails.len() as f64;
    let poll = |done: usize| {
        if let Some(b) = &bar {
            let (d, t) = (done as f64, n as f64);
            let part = (d * d - from * from) / (t * t - from * from).max(1.0);
            b.set_position((part.clamp(0.0, 1.0) * 10_000.0) as u64);
        }
        flag.load(std::sync::atomic::Ordering::Relaxed)
    };
    let r = cx.engines.top_entails.extend_to(n, None, poll);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    r
}
