//! Misère play in the language: the `*[…]` literal, misère games as values (`+`, `==`, CGSuite
//! notation), and the built-ins of CGSuite's misère toolkit. The theory is in
//! `loony_theory::misere`; this module converts the evaluator's games to misère canonical
//! forms through its [`Impartial`] trait and turns its errors into diagnostics.

use super::args::Args;
use super::family::{At, Family, cannot_compare};
use crate::catalog::{Builtin, Impl, Rows, distributed_slice};
use crate::cx::Cx;
use crate::error::{EvalError, HeapSizeError};
use crate::value::Outcome;
use crate::value::Value;
use loony_core::diag::{CoreError, Error};
use loony_core::game::{GameId, Store};
use loony_graph::{Explorer, Kind, Reach};
use loony_syntax::ast::{BinOp, Span};
use loony_theory::TheoryError;
use loony_theory::misere::{Mid, MisereError, MisereStore, Shape};
use rustc_hash::FxHashMap;
use std::rc::Rc;

mod errors;
pub(crate) mod session;

use errors::{cycle_error, engine_error, entailing};

pub use session::{MisereSession, MisereSlot};

/// Runs `f` with the session's misère store.
fn with_session<T>(
    cx: &mut Cx,
    span: &Span,
    f: impl FnOnce(&mut Cx, &mut MisereSession) -> Result<T, Error>,
) -> Result<T, Error> {
    let slot = cx.engines.slots.get_mut::<MisereSlot>();
    if slot.busy {
        return Err(cx.err(TheoryError::MisereBusy, span));
    }
    let mut s = slot.session.take().unwrap_or_default();
    slot.busy = true;
    s.games.set_cancel(Some(cx.limits.interrupt.clone()));
    // The position budget bounds the games one call may create, as it bounds explored positions.
    s.games.set_budget(Some(cx.limits.budget));
    let r = f(cx, &mut s);
    let slot = cx.engines.slots.get_mut::<MisereSlot>();
    (slot.session, slot.busy) = (Some(s), false);
    r
}

/// Why a conversion stopped: the graph layer's error (not impartial, entailing, …), or the
/// misère engine's.
enum Fail {
    Graph(Error),
    Misere(MisereError),
}

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        Fail::Graph(e)
    }
}

impl From<MisereError> for Fail {
    fn from(e: MisereError) -> Self {
        Fail::Misere(e)
    }
}

/// The misère canonical form of one of the evaluator's games.
fn form_of(cx: &mut Cx, s: &mut MisereSession, store: &mut Store, g: GameId) -> Result<Mid, Error> {
    if let Some(&m) = s.forms.get(&g) {
        return Ok(m);
    }
    let MisereSession { games, forms } = s;
    let reach = Reach::moves();
    let r = {
        let mut ex = Explorer::new(store, cx, reach);
        convert(&mut ex, games, forms, g)
    };
    match r {
        Ok(m) => Ok(m),
        Err(Fail::Graph(e)) => Err(cx.locate(e)),
        Err(Fail::Misere(e)) => Err(engine_error(games, e)),
    }
}

/// The store game a node stands for (positions become store games here), if any: the
/// session's forms are kept by store game, so later queries find them.
fn game_of(ex: &mut Explorer, u: u32) -> Result<Option<GameId>, Error> {
    Ok(match ex.graph.key(u) {
        Some(_) => Some(ex.game(u)?),
        None => None,
    })
}

/// The form converted before, if the node stands for a store game the session has one of.
fn known(ex: &mut Explorer, forms: &FxHashMap<GameId, Mid>, u: u32) -> Option<Mid> {
    game_of(ex, u)
        .ok()
        .flatten()
        .and_then(|g| forms.get(&g).copied())
}

/// Folds the graph layer's components of `g`, sinks first, into misère canonical forms. A
/// node whose move is to ∞ or ∞̄ (or to a check) has no form; the first node with such an
/// option is the error, as is a component of more than one node (its positions repeat).
fn convert(
    ex: &mut Explorer,
    games: &mut MisereStore,
    forms: &mut FxHashMap<GameId, Mid>,
    g: GameId,
) -> Result<Mid, Fail> {
    let root = ex.node(g)?;
    ex.explore_until(root, &mut |ex, u| known(ex, forms, u).is_some())?;
    let sccs = {
        let src = &ex.src;
        loony_graph::sccs(&ex.graph, &mut || src.interrupted())
    }
    .ok_or(MisereError::Interrupted)?;
    // The form of each node; `None` for ∞, ∞̄ and checks (entailing: no misère form).
    let mut mids: Vec<Option<Mid>> = vec![None; ex.graph.len()];
    let mut opts: Vec<Mid> = Vec::new();
    for c in 0..sccs.count() {
        if c % 1024 == 1023 && ex.src.interrupted() {
            return Err(Fail::Misere(MisereError::Interrupted));
        }
        let comp = sccs.component(c);
        let u = comp[0];
        let (a, b) = loony_graph::Digraph::successors(&ex.graph, u);
        if comp.len() > 1 || a.contains(&u) || b.contains(&u) {
            // Named from the position the exploration met first (nodes are numbered as met).
            let mut first = comp.to_vec();
            first.sort_unstable();
            let mut members = Vec::with_capacity(first.len());
            for m in first {
                members.push(ex.game(m)?);
            }
            return Err(Fail::Graph(cycle_error(ex.store, &members)));
        }
        let m = node_form(ex, games, forms, &mids, &mut opts, u)?;
        mids[u as usize] = m;
        if let (Some(m), Some(h)) = (m, game_of(ex, u)?) {
            forms.insert(h, m);
        }
    }
    match mids[root as usize] {
        Some(m) => {
            forms.insert(g, m);
            Ok(m)
        }
        None => Err(Fail::Graph(entailing(ex.store, g))),
    }
}

/// The form of node `u`, its options' forms in `mids` (a sum the graph layer builds while
/// listing `u`'s options is added from its parts).
fn node_form(
    ex: &mut Explorer,
    games: &mut MisereStore,
    forms: &FxHashMap<GameId, Mid>,
    mids: &[Option<Mid>],
    opts: &mut Vec<Mid>,
    u: u32,
) -> Result<Option<Mid>, Fail> {
    if let Some(m) = known(ex, forms, u) {
        return Ok(Some(m));
    }
    let (lw, rw) = (ex.left_win(), ex.right_win());
    Ok(Some(match ex.graph.kind(u) {
        Kind::Nimber(n) => games.fold(Shape::Nim(u64::from(n)))?,
        Kind::LeftWin | Kind::RightWin => return Ok(None),
        Kind::Sum => {
            let parts = ex.graph.parts(u).to_vec();
            let mut forms_of = Vec::with_capacity(parts.len());
            for p in parts {
                match mids[p as usize] {
                    Some(m) => forms_of.push(m),
                    None => {
                        let g = ex.game(p)?;
                        return Err(Fail::Graph(entailing(ex.store, g)));
                    }
                }
            }
            games.fold(Shape::Sum(&forms_of))?
        }
        Kind::Form | Kind::Known | Kind::Value(_) => {
            // Sums among the options become nodes of their own (their parts are converted).
            ex.ungroup(u)?;
            let (left, right) = (ex.graph.left(u).to_vec(), ex.graph.right(u).to_vec());
            if left.contains(&lw) || right.contains(&rw) {
                // A check: entailing, and so is whatever moves to it.
                return Ok(None);
            }
            // An option to a node without a form (a check): entailing, not misère play.
            if left
                .iter()
                .chain(&right)
                .any(|&o| mids.get(o as usize) == Some(&None))
            {
                let g = ex.game(u)?;
                return Err(Fail::Graph(entailing(ex.store, g)));
            }
            let (mut l, mut r) = (left, right);
            l.sort_unstable();
            l.dedup();
            r.sort_unstable();
            r.dedup();
            if l != r {
                let g = ex.game(u)?;
                return Err(Fail::Graph(loony_theory::classify::not_impartial(
                    ex.store, g,
                )));
            }
            opts.clear();
            for &o in &l {
                opts.push(match mids.get(o as usize).copied().flatten() {
                    Some(m) => m,
                    None => late_sum(ex, games, mids, o)?,
                });
            }
            games.fold(Shape::Options(opts))?
        }
    }))
}

/// The form of a sum node made after the components were listed (by `ungroup`): its parts
/// were there before, and are converted.
fn late_sum(
    ex: &mut Explorer,
    games: &mut MisereStore,
    mids: &[Option<Mid>],
    o: u32,
) -> Result<Mid, Fail> {
    let mut parts = Vec::new();
    for p in ex.graph.parts(o).to_vec() {
        match mids.get(p as usize).copied().flatten() {
            Some(m) => parts.push(m),
            None => {
                let g = ex.game(p)?;
                return Err(Fail::Graph(entailing(ex.store, g)));
            }
        }
    }
    Ok(games.fold(Shape::Sum(&parts))?)
}

/// A value as a misère game: misère games themselves, any impartial game, and 0.
fn to_mid(
    cx: &mut Cx,
    s: &mut MisereSession,
    store: &mut Store,
    v: &Value,
    span: &Span,
) -> Result<Mid, Error> {
    match v {
        Value::Misere(m) => Ok(*m),
        Value::Game(g) | Value::Position(g) => {
            form_of(cx, s, store, *g).map_err(|e| e.or_at(cx.scope.file, span.clone()))
        }
        Value::Int(0) => Ok(Mid::ZERO),
        Value::Int(n) => Err(cx.err(EvalError::IntegerAsGame(*n), span)),
        Value::Heap(h) => Err(cx.err(
            EvalError::HeapGameAsGame {
                game: store.heap_name(*h).to_string(),
            },
            span,
        )),
        other => Err(cx.err(EvalError::expected("a game", other.type_name()), span)),
    }
}

/// The misère outcome of any impartial short game, read from its canonical form. Other fast
/// paths (misère quotients of heap games) can answer before this is called.
pub fn misere_outcome(cx: &mut Cx, store: &mut Store, g: GameId) -> Result<Outcome, Error> {
    let span = 0..0;
    with_session(cx, &span, |cx, s| {
        let m = form_of(cx, s, store, g)?;
        Ok(outcome(&s.games, m))
    })
}

fn outcome(games: &MisereStore, m: Mid) -> Outcome {
    match games.outcome(m) {
        loony_theory::misere::MisereOutcome::P => Outcome::P,
        loony_theory::misere::MisereOutcome::N => Outcome::N,
    }
}

/// `*[…]`: CGSuite's misère literal. One element is that element (`*[3]` is `*3`); several are
/// the options of a game; inside, integers are nim heaps and lists are games of their elements.
pub fn literal(
    cx: &mut Cx,
    store: &mut Store,
    items: &Rc<Vec<Value>>,
    span: &Span,
) -> Result<Value, Error> {
    with_session(cx, span, |cx, s| {
        let m = if items.len() == 1 {
            spec(cx, s, store, &items[0], span)?
        } else {
            spec(cx, s, store, &Value::List(items.clone()), span)?
        };
        Ok(Value::Misere(m))
    })
}

/// One element of a misère literal; nested lists on an explicit stack.
fn spec(
    cx: &mut Cx,
    s: &mut MisereSession,
    store: &mut Store,
    v: &Value,
    span: &Span,
) -> Result<Mid, Error> {
    // A frame: a list, how far it is read, and the games of the elements read so far.
    let mut stack: Vec<(Rc<Vec<Value>>, usize, Vec<Mid>)> = Vec::new();
    let mut done: Option<Mid> = None;
    let mut todo = Some(v.clone());
    loop {
        if let Some(v) = todo.take() {
            let m = match &v {
                Value::List(xs) => {
                    stack.push((xs.clone(), 0, Vec::with_capacity(xs.len())));
                    None
                }
                Value::Int(n) if *n >= 0 => Some(s.games.nim(*n as u64).map_err(|e| {
                    engine_error(&mut s.games, e).or_at(cx.scope.file, span.clone())
                })?),
                Value::Int(n) => {
                    return Err(cx.err(
                        EvalError::HeapSize(HeapSizeError::NotNimHeap { n: *n }),
                        span,
                    ));
                }
                Value::Misere(m) => Some(*m),
                Value::Game(_) | Value::Position(_) => Some(to_mid(cx, s, store, &v, span)?),
                other => {
                    return Err(cx.err(
                        TheoryError::MisereSpecifier {
                            found: crate::words::describe(other),
                        },
                        span,
                    ));
                }
            };
            done = m;
        }
        if let Some(m) = done.take() {
            match stack.last_mut() {
                Some(top) => {
                    top.2.push(m);
                    top.1 += 1;
                }
                None => return Ok(m),
            }
        }
        let top = stack.last_mut().expect("a frame is open");
        if top.1 < top.0.len() {
            todo = Some(top.0[top.1].clone());
        } else {
            let (_, _, opts) = stack.pop().expect("a frame is open");
            done = Some(s.games.construct(&opts));
        }
    }
}

/// The family of misère canonical games (see [`crate::family`]): they add and compare as
/// misère games with games and 0 beside them, are their own negatives, print in CGSuite's
/// notation and are games as their forms.
pub(crate) struct Misere;

impl Family for Misere {
    fn binary(
        cx: &mut Cx,
        store: &mut Store,
        op: BinOp,
        a: &Value,
        b: &Value,
        at: At,
    ) -> Option<Result<Value, Error>> {
        match op {
            BinOp::Add | BinOp::Sub if involves(a, b) => {
                Some(add(cx, store, a, b, (at.lhs, at.rhs), at.whole))
            }
            _ => None,
        }
    }

    fn equal(cx: &mut Cx, store: &mut Store, a: &Value, b: &Value, at: At) -> Result<bool, Error> {
        if !involves(a, b) {
            return Err(cannot_compare(cx, a, b, at));
        }
        equal(cx, store, a, b, (at.lhs, at.rhs))
    }

    /// An impartial game is its own negative.
    fn negate(
        _cx: &mut Cx,
        _store: &mut Store,
        v: Value,
        _whole: &Span,
        _operand: &Span,
    ) -> Result<Value, Error> {
        Ok(v)
    }

    fn show(cx: &mut Cx, _store: &mut Store, v: &Value) -> Result<String, Error> {
        let Value::Misere(m) = v else {
            unreachable!("misère games only")
        };
        show(cx, *m)
    }

    fn as_game(cx: &Cx, store: &mut Store, v: &Value, span: &Span) -> Result<GameId, Error> {
        let Value::Misere(m) = v else {
            unreachable!("misère games only")
        };
        to_form(cx, store, *m, span)
    }
}

/// Whether `+`, `-` or `==` on these operands is misère: one is a misère game and the other a
/// game (or 0).
fn involves(a: &Value, b: &Value) -> bool {
    let gamey = |v: &Value| {
        matches!(
            v,
            Value::Misere(_) | Value::Game(_) | Value::Position(_) | Value::Int(_)
        )
    };
    (matches!(a, Value::Misere(_)) || matches!(b, Value::Misere(_))) && gamey(a) && gamey(b)
}

/// `a + b` (and `a - b`, the same for impartial games): the canonical form of the sum.
fn add(
    cx: &mut Cx,
    store: &mut Store,
    a: &Value,
    b: &Value,
    spans: (&Span, &Span),
    span: &Span,
) -> Result<Value, Error> {
    with_session(cx, span, |cx, s| {
        let x = to_mid(cx, s, store, a, spans.0)?;
        let y = to_mid(cx, s, store, b, spans.1)?;
        let r = s
            .games
            .add(x, y)
            .map_err(|e| engine_error(&mut s.games, e).or_at(cx.scope.file, span.clone()))?;
        Ok(Value::Misere(r))
    })
}

/// `a == b`: equal canonical forms.
fn equal(
    cx: &mut Cx,
    store: &mut Store,
    a: &Value,
    b: &Value,
    spans: (&Span, &Span),
) -> Result<bool, Error> {
    with_session(cx, spans.0, |cx, s| {
        let x = to_mid(cx, s, store, a, spans.0)?;
        let y = to_mid(cx, s, store, b, spans.1)?;
        Ok(x == y)
    })
}

/// A misère game in CGSuite's notation.
pub fn show(cx: &mut Cx, m: Mid) -> Result<String, Error> {
    with_session(cx, &(0..0), |_, s| {
        s.games
            .to_cgsuite(m)
            .map_err(|e| engine_error(&mut s.games, e))
    })
}

/// A misère canonical game as a form of the game store (`{opts | opts}`, shared subgames shared),
/// for the normal-play functions and for forms and ruleset options built from misère games.
pub fn to_form(cx: &Cx, store: &mut Store, m: Mid, span: &Span) -> Result<GameId, Error> {
    let Some(s) = cx
        .engines
        .slots
        .get::<MisereSlot>()
        .and_then(|slot| slot.session.as_ref())
    else {
        return Err(cx.err(TheoryError::MisereBusy, span));
    };
    let games = &s.games;
    let mut done: FxHashMap<Mid, GameId> = FxHashMap::default();
    let mut stack = vec![m];
    let mut buf = Vec::new();
    let mut steps = 0u32;
    while let Some(&x) = stack.last() {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(4096) && cx.interrupted() {
            return Err(cx.err(CoreError::Interrupted, span));
        }
        if done.contains_key(&x) {
            stack.pop();
            continue;
        }
        let missing: Vec<Mid> = games
            .options(x)
            .iter()
            .copied()
            .filter(|o| !done.contains_key(o))
            .collect();
        if !missing.is_empty() {
            stack.extend(missing);
            continue;
        }
        buf.clear();
        buf.extend(games.options(x).iter().map(|o| done[o]));
        let g = store.form(&buf, &buf);
        done.insert(x, g);
        stack.pop();
    }
    Ok(done[&m])
}

/// `sum(list)` of a list holding misère games: the misère sum.
pub fn sum(cx: &mut Cx, store: &mut Store, items: &[Value], span: &Span) -> Result<Value, Error> {
    with_session(cx, span, |cx, s| {
        let mut acc = Mid::ZERO;
        for v in items {
            let m = to_mid(cx, s, store, v, span)?;
            acc = s
                .games
                .add(acc, m)
                .map_err(|e| engine_error(&mut s.games, e).or_at(cx.scope.file, span.clone()))?;
        }
        Ok(Value::Misere(acc))
    })
}

/// The canonical options of a misère game, in CGSuite's (ascending) order.
pub fn options(cx: &mut Cx, m: Mid, span: &Span) -> Result<Value, Error> {
    with_session(cx, span, |_, s| {
        let v = s
            .games
            .options(m)
            .iter()
            .map(|&o| Value::Misere(o))
            .collect();
        Ok(Value::List(Rc::new(v)))
    })
}

pub(crate) fn call(
    cx: &mut Cx,
    store: &mut Store,
    op: MisereOp,
    a: &Args<'_>,
) -> Result<Value, Error> {
    let (vals, span) = (&a.vals, a.span);
    // `misere_form("*[2#0]")` reads CGSuite's notation.
    if let (Value::Str(text), MisereOp::MisereForm) = (&vals[0], op) {
        let text = text.clone();
        return with_session(cx, span, |cx, s| {
            let m = s.games.parse_cgsuite(&text).map_err(|e| {
                let mut err = engine_error(&mut s.games, e);
                if let Some(TheoryError::MisereNotation { text: t, .. }) = err.kind_mut() {
                    *t = text.to_string();
                }
                err.or_at(cx.scope.file, a.span(0).clone())
            })?;
            Ok(Value::Misere(m))
        });
    }
    if op == MisereOp::MisereOutcome
        && let Value::Game(g) | Value::Position(g) = vals[0]
    {
        // Sums of heaps of one heap game: from a quotient's Φ, or a search over multisets.
        if let Some(o) = super::quotient::heap_sum_outcome(cx, store, g, a.span(0))? {
            return Ok(Value::Outcome(o));
        }
        return misere_outcome(cx, store, g)
            .map(Value::Outcome)
            .map_err(|e| e.or_at(cx.scope.file, a.span(0).clone()));
    }
    with_session(cx, span, |cx, s| {
        let mut args = Vec::with_capacity(vals.len());
        for (i, v) in vals.iter().enumerate() {
            args.push(to_mid(cx, s, store, v, a.span(i))?);
        }
        let g = args[0];
        let games = &mut s.games;
        let here = |games: &mut MisereStore, e: MisereError| {
            engine_error(games, e).or_at(cx.scope.file, span.clone())
        };
        let list = |xs: Vec<Mid>| Value::List(Rc::new(xs.into_iter().map(Value::Misere).collect()));
        Ok(match op {
            MisereOp::MisereOutcome => Value::Outcome(outcome(games, g)),
            MisereOp::MisereForm => Value::Misere(g),
            MisereOp::Genus => Value::Text(games.genus(g).to_string().into()),
            MisereOp::MisereNimber => Value::Int(i64::from(games.nim_minus(g))),
            MisereOp::Birthday => Value::Int(i64::from(games.birthday(g))),
            MisereOp::IsTame => Value::Bool(games.is_tame(g)),
            MisereOp::IsRestive => Value::Bool(games.is_restive(g)),
            MisereOp::IsRestless => Value::Bool(games.is_restless(g)),
            MisereOp::IsHalfTame => Value::Bool(games.is_half_tame(g).map_err(|e| here(games, e))?),
            MisereOp::IsGenerallyTame => Value::Bool(games.is_generally_tame(g)),
            MisereOp::IsGenerallyRestive => Value::Bool(games.is_generally_restive(g)),
            MisereOp::IsTameable => Value::Bool(games.is_tameable(g)),
            MisereOp::IsExtraverted => {
                Value::Bool(games.is_extraverted(g).map_err(|e| here(games, e))?)
            }
            MisereOp::IsIntroverted => Value::Bool(games.is_introverted(g)),
            MisereOp::IsEven => Value::Bool(games.is_even(g)),
            MisereOp::IsPrime => Value::Bool(games.is_prime(g).map_err(|e| here(games, e))?),
            MisereOp::IsNimHeap => Value::Bool(games.is_nim_heap(g)),
            MisereOp::Mate => Value::Misere(games.mate(g).map_err(|e| here(games, e))?),
            MisereOp::Parts => list(games.parts(g).map_err(|e| here(games, e))?),
            MisereOp::Partitions => {
                let ps = games.partitions(g).map_err(|e| here(games, e))?;
                Value::List(Rc::new(ps.into_iter().map(list).collect()))
            }
            MisereOp::Distinguisher => Value::Misere(
                games
                    .distinguisher(g, args[1])
                    .map_err(|e| here(games, e))?,
            ),
            MisereOp::IsLinked => Value::Bool(games.is_linked(g, args[1])),
            MisereOp::Link => Value::Misere(games.link(g, args[1]).map_err(|e| here(games, e))?),
            MisereOp::MisereMinus => {
                Value::Misere(games.misere_minus(g, args[1]).map_err(|e| here(games, e))?)
            }
        })
    })
}

/// The built-ins of misère play, one an operation of [`call`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MisereOp {
    MisereOutcome,
    MisereForm,
    Genus,
    MisereNimber,
    Birthday,
    IsTame,
    IsRestive,
    IsRestless,
    IsHalfTame,
    IsTameable,
    IsGenerallyTame,
    IsGenerallyRestive,
    IsExtraverted,
    IsIntroverted,
    IsEven,
    IsPrime,
    IsNimHeap,
    Mate,
    Parts,
    Partitions,
    Distinguisher,
    IsLinked,
    Link,
    MisereMinus,
}

/// The rows of misère play.
#[distributed_slice(crate::catalog::ROWS)]
static MISERE: Rows = Rows {
    section: "Misère play",
    order: 50,
    rows: &[
        Builtin {
            name: "misere_outcome",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::MisereOutcome, &a)),
            signature: "misere_outcome(g)",
            arity: (1, 1),
            doc: "The outcome of `g` under misère play (the player who cannot move wins): `P` or `N`. \
             Sums of heaps of a take-and-break game go through a misère quotient when one is \
             small.",
            example: "misere_outcome(*2 + *2)",
            result: "P",
            record: None,
        },
        Builtin {
            name: "misere_form",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::MisereForm, &a)),
            signature: "misere_form(g)",
            arity: (1, 1),
            doc: "The misère canonical form of an impartial game (or of a CGSuite string such as \
             \"2#0\"), printed in CGSuite's notation `*[…]`: integers are nim heaps, `#` joins \
             options into one game.",
            example: "misere_form(* + *)",
            result: "*[0]",
            record: None,
        },
        Builtin {
            name: "genus",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::Genus, &a)),
            signature: "genus(g)",
            arity: (1, 1),
            doc: "Conway's genus of `g` as CGSuite prints it (`2`, `0^120`, `4^146`): the normal and \
             misère nim values of `g`, `g + *2`, `g + *2 + *2`, … up to the eventual period.",
            example: "genus(*2)",
            result: "2",
            record: None,
        },
        Builtin {
            name: "misere_nimber",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::MisereNimber, &a)),
            signature: "misere_nimber(g)",
            arity: (1, 1),
            doc: "The misère nim value G⁻ of `g` (0 exactly for misère P-positions).",
            example: "misere_nimber(*)",
            result: "0",
            record: None,
        },
        Builtin {
            name: "birthday",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::Birthday, &a)),
            signature: "birthday(g)",
            arity: (1, 1),
            doc: "The birthday (height) of the misère canonical form of `g`.",
            example: "birthday(misere_form(*2))",
            result: "2",
            record: None,
        },
        Builtin {
            name: "is_tame",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsTame, &a)),
            signature: "is_tame(g)",
            arity: (1, 1),
            doc: "Whether `g` is tame (Conway; CGSuite's phyla NH and HT): it and its followers have the \
             genera of nim heaps, so among tame games it plays like a nim heap.",
            example: "is_tame(*2 + *3)",
            result: "true",
            record: None,
        },
        Builtin {
            name: "is_restive",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsRestive, &a)),
            signature: "is_restive(g)",
            arity: (1, 1),
            doc: "Whether `g` is restive (CGSuite's phylum HR, e.g. `*[2#0]` of genus `1^2`): tame but \
             for a twist at the end of play.",
            example: "is_restive(misere_form(\"2#0\"))",
            result: "true",
            record: None,
        },
        Builtin {
            name: "is_restless",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsRestless, &a)),
            signature: "is_restless(g)",
            arity: (1, 1),
            doc: "Whether `g` is restless (CGSuite's phylum RL, e.g. `*[2#1]` of genus `2^1420`).",
            example: "is_restless(misere_form(\"2#1\"))",
            result: "true",
            record: None,
        },
        Builtin {
            name: "is_half_tame",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsHalfTame, &a)),
            signature: "is_half_tame(g)",
            arity: (1, 1),
            doc: "Whether `g` is half-tame: not generally tame, but `g + g` is, with genus `0^0`.",
            example: "is_half_tame(misere_form(\"2#0\"))",
            result: "true",
            record: None,
        },
        Builtin {
            name: "is_tameable",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsTameable, &a)),
            signature: "is_tameable(g)",
            arity: (1, 1),
            doc: "Whether `g` is tameable (generally tame, or CGSuite's phylum TA).",
            example: "is_tameable(misere_form(*2))",
            result: "true",
            record: None,
        },
        Builtin {
            name: "is_generally_tame",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsGenerallyTame, &a)),
            signature: "is_generally_tame(g)",
            arity: (1, 1),
            doc: "Whether `g` is generally tame (CGSuite's phyla NH, HT, RT: tame up to reversible \
             moves).",
            example: "is_generally_tame(misere_form(*2))",
            result: "true",
            record: None,
        },
        Builtin {
            name: "is_generally_restive",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsGenerallyRestive, &a)),
            signature: "is_generally_restive(g)",
            arity: (1, 1),
            doc: "Whether `g` is generally restive (CGSuite's phyla HR and RR).",
            example: "is_generally_restive(misere_form(*2))",
            result: "false",
            record: None,
        },
        Builtin {
            name: "is_extraverted",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsExtraverted, &a)),
            signature: "is_extraverted(g)",
            arity: (1, 1),
            doc: "Whether every option of `g` is a part of `g`.",
            example: "is_extraverted(misere_form(*2))",
            result: "true",
            record: None,
        },
        Builtin {
            name: "is_introverted",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsIntroverted, &a)),
            signature: "is_introverted(g)",
            arity: (1, 1),
            doc: "Whether `g` is introverted: a part of each of its options (only `0` and `*` are).",
            example: "is_introverted(misere_form(*))",
            result: "true",
            record: None,
        },
        Builtin {
            name: "is_even",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsEven, &a)),
            signature: "is_even(g)",
            arity: (1, 1),
            doc: "Whether `g` is even: its birthday is less than that of `g + *` (`0` and `*2` are \
             even, `*` is odd).",
            example: "is_even(misere_form(*2 + *2))",
            result: "true",
            record: None,
        },
        Builtin {
            name: "is_prime",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsPrime, &a)),
            signature: "is_prime(g)",
            arity: (1, 1),
            doc: "Whether `g` has no proper parts (is not a misère sum of smaller games).",
            example: "is_prime(misere_form(*2))",
            result: "true",
            record: None,
        },
        Builtin {
            name: "is_nim_heap",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsNimHeap, &a)),
            signature: "is_nim_heap(g)",
            arity: (1, 1),
            doc: "Whether the misère canonical form of `g` is a single nim heap `*n`.",
            example: "is_nim_heap(misere_form(*2 + *3))",
            result: "false",
            record: None,
        },
        Builtin {
            name: "mate",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::Mate, &a)),
            signature: "mate(g)",
            arity: (1, 1),
            doc: "The mate of `g` (Conway): the form with `g + mate(g)` a misère P-position built by \
             swapping 0 and `*` at the leaves.",
            example: "mate(*2)",
            result: "*[2]",
            record: None,
        },
        Builtin {
            name: "parts",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::Parts, &a)),
            signature: "parts(g)",
            arity: (1, 1),
            doc: "The parts of `g`: the games `h` with `g = h + x` for some `x`.",
            example: "parts(misere_form(*2 + *3))",
            result: "[*[2]]",
            record: None,
        },
        Builtin {
            name: "partitions",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::Partitions, &a)),
            signature: "partitions(g)",
            arity: (1, 1),
            doc: "The ways of writing `g` as a misère sum of prime games.",
            example: "partitions(misere_form(*2 + *3))",
            result: "[[*[2], *[2], *[1]]]",
            record: None,
        },
        Builtin {
            name: "distinguisher",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::Distinguisher, &a)),
            signature: "distinguisher(g, h)",
            arity: (2, 2),
            doc: "A game `x` with `g + x` a misère P-position and `h + x` an N-position (or the other \
             way round): a witness that `g ≠ h`.",
            example: "distinguisher(*2, *3)",
            result: "*[2]",
            record: None,
        },
        Builtin {
            name: "is_linked",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::IsLinked, &a)),
            signature: "is_linked(g, h)",
            arity: (2, 2),
            doc: "Whether some `x` makes `g + x` and `h + x` both misère P-positions.",
            example: "is_linked(*2, *3)",
            result: "false",
            record: None,
        },
        Builtin {
            name: "link",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::Link, &a)),
            signature: "link(g, h)",
            arity: (2, 2),
            doc: "A game `x` with `g + x` and `h + x` both misère P-positions (see `is_linked`).",
            example: "link(*2, *2)",
            result: "*[2]",
            record: None,
        },
        Builtin {
            name: "misere_minus",
            imp: Impl::Function(|cx, store, a| call(cx, store, MisereOp::MisereMinus, &a)),
            signature: "misere_minus(g, h)",
            arity: (2, 2),
            doc: "The game `x` with `x + h = g` in misère play, when `h` is a part of `g`.",
            example: "misere_minus(misere_form(*2 + *3), misere_form(*2))",
            result: "*[3]",
            record: None,
        },
    ],
};
