//! Built-in functions: the arity check and the call of a row's function, and the core
//! built-ins with their rows (values, outcomes, moves, list helpers). The engines they query
//! are kept for the whole session in [`crate::cx::Engines`].

use super::query::MoveResult;
pub(crate) use crate::args::Args;
/// Kept here too: the front ends' tests find a built-in's value as `builtins::lookup`.
pub use crate::catalog::lookup;
use crate::catalog::{Builtin, Impl, Rows, distributed_slice};
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
/// row's function runs it.
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
        Impl::Function(run) | Impl::Plain(run) => run(cx, store, a),
        // A constant is its value (`lookup`); a value that is not a function is never called.
        Impl::Constant(o) => Ok(Value::Outcome(o)),
    }
}

/// The game queries and Top Entails, one an operation of `game_query` or `top_entails` (the rows
/// are at the end of this file; the list helpers are functions of their own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CoreOp {
    Outcome,
    Value,
    Nimber,
    GrundyValue,
    AffineValue,
    Explain,
    OutcomeBySearch,
    WinningMoves,
    DrawingMoves,
    Options,
    LeftOptions,
    RightOptions,
    TopEntailsValue,
    TopEntailsMoons,
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
        _ => unreachable!("only its rows send these here"),
    }
}

// Lists, strings and integers: length, sum, mex, order, membership, edits. Each is a row's
// function itself: compiled rules call them once a position.

/// `len(xs)`.
fn len(cx: &mut Cx, _: &mut Store, a: Args<'_>) -> Result<Value, Error> {
    Ok(Value::Int(match &a.vals[0] {
        Value::Str(s) => s.chars().count() as i64,
        Value::Sequence(s) => s.values.len() as i64,
        _ => a.list(cx, 0)?.len() as i64,
    }))
}

/// `size(x)`: the length of its printed form.
fn size(cx: &mut Cx, store: &mut Store, a: Args<'_>) -> Result<Value, Error> {
    let shown = cx.show(store, &a.vals[0])?;
    Ok(Value::Int(shown.chars().count() as i64))
}

/// `sum(xs)`: of integers, or of games (misère games make a misère sum).
fn sum(cx: &mut Cx, store: &mut Store, a: Args<'_>) -> Result<Value, Error> {
    let xs = a.list(cx, 0)?;
    if xs.iter().all(|x| matches!(x, Value::Int(_))) {
        let mut t: i64 = 0;
        for x in xs.iter() {
            if let Value::Int(n) = x {
                t = t
                    .checked_add(*n)
                    .ok_or_else(|| cx.err(EvalError::Overflow { op: "sum".into() }, a.span))?;
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

/// `mex(xs)`: the least nonnegative integer not in `xs`.
fn mex_of(cx: &mut Cx, _: &mut Store, a: Args<'_>) -> Result<Value, Error> {
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

/// `min(xs)`.
fn min(cx: &mut Cx, _: &mut Store, a: Args<'_>) -> Result<Value, Error> {
    if let Some(b) = boards_of(&a, |x, y| x < y) {
        return Ok(b);
    }
    let ints = a.ints(cx, 0)?;
    extreme(cx, &a, ints.iter().min())
}

/// `max(xs)`.
fn max(cx: &mut Cx, _: &mut Store, a: Args<'_>) -> Result<Value, Error> {
    if let Some(b) = boards_of(&a, |x, y| x > y) {
        return Ok(b);
    }
    let ints = a.ints(cx, 0)?;
    extreme(cx, &a, ints.iter().max())
}

/// The first board of a nonempty list of boards that no later one `beats`, in boards' order
/// (fewer rows, then fewer columns, then the cells in reading order by character); `None`
/// for any other list (read as integers).
fn boards_of(
    a: &Args<'_>,
    beats: impl Fn(&loony_core::board::Board, &loony_core::board::Board) -> bool,
) -> Option<Value> {
    let (Value::List(xs) | Value::Tuple(xs)) = &a.vals[0] else {
        return None;
    };
    let mut best: Option<&Rc<loony_core::board::Board>> = None;
    for x in xs.iter() {
        let Value::Board(b) = x else {
            return None;
        };
        if best.is_none_or(|c| beats(b, c)) {
            best = Some(b);
        }
    }
    best.map(|b| Value::Board(b.clone()))
}

/// The least or greatest integer found, or why there is none.
fn extreme(cx: &Cx, a: &Args, found: Option<&i64>) -> Result<Value, Error> {
    found.map(|&n| Value::Int(n)).ok_or_else(|| {
        cx.err(
            EvalError::BadArgument(ArgumentError::EmptyList {
                function: a.name.into(),
            }),
            a.span(0),
        )
    })
}

/// `sorted(xs)`.
fn sorted(cx: &mut Cx, _: &mut Store, a: Args<'_>) -> Result<Value, Error> {
    let mut ints = a.ints(cx, 0)?;
    ints.sort_unstable();
    Ok(Value::List(Rc::new(
        ints.into_iter().map(Value::Int).collect(),
    )))
}

/// `reverse(xs)`.
fn reverse(cx: &mut Cx, _: &mut Store, a: Args<'_>) -> Result<Value, Error> {
    let mut xs = (*a.list(cx, 0)?).clone();
    xs.reverse();
    Ok(Value::List(Rc::new(xs)))
}

/// `contains(xs, x)`.
fn contains(cx: &mut Cx, _: &mut Store, a: Args<'_>) -> Result<Value, Error> {
    let xs = a.list(cx, 0)?;
    let found = xs.iter().any(|x| simple_eq(x, &a.vals[1]));
    Ok(Value::Bool(found))
}

/// `remove(xs, i)`.
fn remove(cx: &mut Cx, _: &mut Store, a: Args<'_>) -> Result<Value, Error> {
    let xs = a.list(cx, 0)?;
    let i = a.index(cx, 1, xs.len())?;
    let mut v = (*xs).clone();
    v.remove(i);
    Ok(Value::List(Rc::new(v)))
}

/// `append(xs, x)`.
fn append(cx: &mut Cx, _: &mut Store, a: Args<'_>) -> Result<Value, Error> {
    let mut v = (*a.list(cx, 0)?).clone();
    v.push(a.vals[1].clone());
    Ok(Value::List(Rc::new(v)))
}

/// `abs(n)`.
fn abs(cx: &mut Cx, _: &mut Store, a: Args<'_>) -> Result<Value, Error> {
    let n = a.int(cx, 0)?;
    Ok(Value::Int(n.checked_abs().ok_or_else(|| {
        cx.err(EvalError::Overflow { op: "abs".into() }, a.span)
    })?))
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
        _ => unreachable!("only its rows send these here"),
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

/// The core built-ins' rows: values, outcomes, moves and list helpers.
#[distributed_slice(crate::catalog::ROWS)]
static CORE: Rows = Rows {
    section: "Values, outcomes and moves",
    order: 10,
    rows: &[
        Builtin {
            name: "outcome",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::Outcome, &a)),
            signature: "outcome(g)",
            arity: (1, 1),
            doc: "The outcome class of `g` under normal play: `P` (the previous player wins), `N` (the \
             next player wins), `D` (a draw: neither player can force a win; only loopy games \
             draw), or `L`/`R` when `g` contains `∞`/`∞̄` and Left/Right wins whoever starts. Found \
             from the value where the theory gives one, otherwise by an exact search.",
            example: "outcome(*3 + *3)",
            result: "P",
            record: None,
        },
        Builtin {
            name: "value",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::Value, &a)),
            signature: "value(g)",
            arity: (1, 1),
            doc: "The value of an impartial game: a nimber `*n`, the moon `☾` or a special moon `⟫(n)` \
             for games with entailing or carry-on moves, `∞(A)` for a loopy game that can escape \
             to the nim-values `A`. A bare game prints its value, so `value(g)` is mostly useful \
             for comparing and storing. An error (with the outcome found by search) where no \
             theory gives a value.",
            example: "value(a{a, * | a, *})",
            result: "∞(1)",
            record: None,
        },
        Builtin {
            name: "nimber",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::Nimber, &a)),
            signature: "nimber(g)",
            arity: (1, 1),
            doc: "The Sprague–Grundy value of `g` as an integer; an error when the value of `g` is not \
             a nimber (a moon or a loopy value).",
            example: "nimber(*2 + *3)",
            result: "1",
            record: None,
        },
        Builtin {
            name: "grundy_value",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::GrundyValue, &a)),
            signature: "grundy_value(g)",
            arity: (1, 1),
            doc: "Another name for `nimber`: the Sprague–Grundy value of `g` as an integer.",
            example: "grundy_value({0, * | 0, *})",
            result: "2",
            record: None,
        },
        Builtin {
            name: "affine_value",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::AffineValue, &a)),
            signature: "affine_value(g)",
            arity: (1, 1),
            doc: "The value of `g` in the theory of affine impartial games (seed 000: entailing and \
             carry-on moves, `∞`, `∞̄`): a nimber or `☾`. An error for loopy games.",
            example: "affine_value({∞ | ∞̄})",
            result: "☾",
            record: None,
        },
        Builtin {
            name: "explain",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::Explain, &a)),
            signature: "explain(g)",
            arity: (1, 1),
            doc: "How the affine engine valued `g`: its immediate nimbers `S` (the values of its plain \
             options), its protected nimbers `P` (those its entailing options protect against, \
             `nim∖X` meaning every nimber but `X`), and the rule that gives the value: \
             `mex(S ∪ P)`, or `☾` when `S ∪ P` is every nimber.",
            example: "explain({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
            result: "S = {0}, P = nim∖{0}: S ∪ P = nim, so G = ☾",
            record: None,
        },
        Builtin {
            name: "outcome_by_search",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::OutcomeBySearch, &a)),
            signature: "outcome_by_search(g)",
            arity: (1, 1),
            doc: "The outcome of `g` by exhaustive search of its positions, using no value theory (a \
             check on `outcome`; exponential in the number of components of a sum).",
            example: "outcome_by_search(*2 + *2)",
            result: "P",
            record: None,
        },
        Builtin {
            name: "winning_moves",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::WinningMoves, &a)),
            signature: "winning_moves(g)",
            arity: (1, 1),
            doc: "The options of `g` that win for the player who takes them (empty when `g` is lost or \
             drawn for the mover). Entailing and carry-on options are judged with the opponent's \
             forced reply.",
            example: "winning_moves(* + *2)",
            result: "[* + *]",
            record: None,
        },
        Builtin {
            name: "drawing_moves",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::DrawingMoves, &a)),
            signature: "drawing_moves(g)",
            arity: (1, 1),
            doc: "The options of a loopy game `g` that keep a draw (to a `D` position) for the mover.",
            example: "drawing_moves(a{a, * | a, *})",
            result: "[a{a, * | a, *}]",
            record: None,
        },
        Builtin {
            name: "options",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::Options, &a)),
            signature: "options(g)",
            arity: (1, 1),
            doc: "The options of `g`, each distinct option once. For an impartial game these are both \
             players' options; for a game with entailing moves they are Left's (see \
             `left_options`, `right_options`); for a misère form, its canonical options in \
             CGSuite's order.",
            example: "options(*3)",
            result: "[0, *, *2]",
            record: None,
        },
        Builtin {
            name: "left_options",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::LeftOptions, &a)),
            signature: "left_options(g)",
            arity: (1, 1),
            doc: "Left's options of `g`. Impartial games with entailing moves are written with the two \
             sides mirrored (`{∞ | 0}` for Left is `{0 | ∞̄}` for Right), so the sides differ.",
            example: "left_options({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
            result: "[0, {∞ | 0}]",
            record: None,
        },
        Builtin {
            name: "right_options",
            imp: Impl::Function(|cx, store, a| game_query(cx, store, CoreOp::RightOptions, &a)),
            signature: "right_options(g)",
            arity: (1, 1),
            doc: "Right's options of `g` (see `left_options`).",
            example: "right_options({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
            result: "[0, {0 | ∞̄}]",
            record: None,
        },
        Builtin {
            name: "top_entails_value",
            imp: Impl::Function(|cx, store, a| top_entails(cx, store, CoreOp::TopEntailsValue, &a)),
            signature: "top_entails_value(n)",
            arity: (1, 1),
            doc: "The value of a Top Entails stack of `n` coins by the Theorem-41 recurrence \
             (Larsson–Nowakowski–Santos), without building the game; `n` up to 10 000 000, at a \
             cost that grows as `n²` (`n²/4` look-ups of pairs, shared by the cores: 10⁵ stacks \
             take about 2 s, 6·10⁵ a quarter of a minute to a minute on two cores, 10⁷ hours). \
             The session keeps one run and extends it, so asking stack after stack costs one \
             run. The ruleset itself is `std/top_entails`.",
            example: "top_entails_value(3)",
            result: "☾",
            record: None,
        },
        Builtin {
            name: "top_entails_moons",
            imp: Impl::Function(|cx, store, a| top_entails(cx, store, CoreOp::TopEntailsMoons, &a)),
            signature: "top_entails_moons(n)",
            arity: (1, 1),
            doc: "The Top Entails stacks of at most `n` coins whose value is `☾` (fast path, as \
             `top_entails_value`).",
            example: "top_entails_moons(3000)",
            result: "[1, 3, 2403, 2505]",
            record: None,
        },
        Builtin {
            name: "len",
            imp: Impl::Plain(len),
            signature: "len(xs)",
            arity: (1, 1),
            doc: "The length of a list, tuple or nim-sequence, or the number of characters of a string.",
            example: "len([*, *2, *3])",
            result: "3",
            record: None,
        },
        Builtin {
            name: "size",
            imp: Impl::Function(size),
            signature: "size(x)",
            arity: (1, 1),
            doc: "How many characters `x` prints in, as the REPL would print it (with `:ascii`, in \
             ASCII): the size of a large misère form or list without printing it.",
            example: "size([*, *2, *3])",
            result: "11",
            record: None,
        },
        Builtin {
            name: "sum",
            imp: Impl::Plain(sum),
            signature: "sum(xs)",
            arity: (1, 1),
            doc: "The sum of a list: of integers, an integer; of games, their disjunctive sum; of \
             misère forms, their misère sum.",
            example: "sum([*1, *2, *3])",
            result: "0",
            record: None,
        },
        Builtin {
            name: "mex",
            imp: Impl::Plain(mex_of),
            signature: "mex(xs)",
            arity: (1, 1),
            doc: "The least nonnegative integer not in the list (negative entries are ignored).",
            example: "mex([0, 1, 3])",
            result: "2",
            record: None,
        },
        Builtin {
            name: "min",
            imp: Impl::Plain(min),
            signature: "min(xs)",
            arity: (1, 1),
            doc: "The least integer of a nonempty list; of a list of boards, the least board \
             (fewest rows, then columns, then cells in reading order by character), so that \
             `canonical by min([b, transpose(b)])` names a symmetry of a ruleset's boards \
             (`std/chomp`).",
            example: "min([4, 2, 9])",
            result: "2",
            record: None,
        },
        Builtin {
            name: "max",
            imp: Impl::Plain(max),
            signature: "max(xs)",
            arity: (1, 1),
            doc: "The greatest integer of a nonempty list, or board of a list of boards (in the \
             order of `min`).",
            example: "max([4, 2, 9])",
            result: "9",
            record: None,
        },
        Builtin {
            name: "sorted",
            imp: Impl::Plain(sorted),
            signature: "sorted(xs)",
            arity: (1, 1),
            doc: "A list of integers in increasing order.",
            example: "sorted([3, 1, 2])",
            result: "[1, 2, 3]",
            record: None,
        },
        Builtin {
            name: "reverse",
            imp: Impl::Plain(reverse),
            signature: "reverse(xs)",
            arity: (1, 1),
            doc: "The list in reverse order.",
            example: "reverse([1, 2, 3])",
            result: "[3, 2, 1]",
            record: None,
        },
        Builtin {
            name: "contains",
            imp: Impl::Plain(contains),
            signature: "contains(xs, x)",
            arity: (2, 2),
            doc: "Whether the list holds `x` (integers, strings, booleans, outcomes and games by \
             identity).",
            example: "contains([1, 2], 2)",
            result: "true",
            record: None,
        },
        Builtin {
            name: "remove",
            imp: Impl::Plain(remove),
            signature: "remove(xs, i)",
            arity: (2, 2),
            doc: "The list without its entry at index `i` (counting from 0).",
            example: "remove([5, 6, 7], 1)",
            result: "[5, 7]",
            record: None,
        },
        Builtin {
            name: "append",
            imp: Impl::Plain(append),
            signature: "append(xs, x)",
            arity: (2, 2),
            doc: "The list with `x` added at the end.",
            example: "append([1], 2)",
            result: "[1, 2]",
            record: None,
        },
        Builtin {
            name: "abs",
            imp: Impl::Plain(abs),
            signature: "abs(n)",
            arity: (1, 1),
            doc: "The absolute value of an integer.",
            example: "abs(-4)",
            result: "4",
            record: None,
        },
        Builtin {
            name: "save_table",
            imp: Impl::Function(|cx, store, a| cx.save_table_builtin(store, &a)),
            signature: "save_table(file)",
            arity: (1, 1),
            doc: "Writes what pruned search learned (its table, and the nimbers it found of the parts \
             of rulesets that split) to `file`, positions stored by their arguments and their \
             ruleset's name and a hash of its definition, the file ending in a checksum; written to \
             a temporary file and renamed, so a save stopped half-way leaves the last whole file. \
             The number of positions written. `load_table` reads it back, in this session or \
             another; `loony --table FILE` loads at start and saves at exit.",
            example: "",
            result: "",
            record: None,
        },
        Builtin {
            name: "load_table",
            imp: Impl::Function(|cx, store, a| cx.load_table_builtin(store, &a)),
            signature: "load_table(file)",
            arity: (1, 1),
            doc: "Reads a table that `save_table` wrote into this session's table (and its nimbers \
             into the memo), so a long search resumes where the saved one stopped. Its rulesets \
             must be defined first, with the text they had when it was saved. A file cut short, \
             altered, or saved for other rulesets is an error, and nothing of it is loaded. The \
             number of positions read.",
            example: "",
            result: "",
            record: None,
        },
    ],
};
