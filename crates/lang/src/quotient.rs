//! Misère quotients in the language: `quotient(G)`, `quotient(G, n)`, `isomorphic(q1, q2)`,
//! and misère outcomes of heap sums from Φ (the fast path of `misere_outcome`).
//!
//! A heap game is a take-and-break code, a subtraction or all-but game, or a user ruleset of
//! one integer whose moves are sums of smaller positions of the same ruleset. Quotients
//! computed in a session are kept per game, so later outcome queries can use them.

use super::args::Args;
use super::family::{At, Family, cannot_compare};
use crate::catalog::{Builtin, Impl, RecordShape, Rows, distributed_slice};
use crate::cx::Cx;
use crate::error::{ArgumentError, EvalError, Limit, Operation, TooLarge, Wanted};
use crate::value::Value;
use crate::value::{Outcome, Record};
use loony_core::diag::{CoreError, Error};
use loony_core::game::display;
use loony_core::game::{Arg, GameId, Node, Store};
use loony_graph::memo::Key;
use loony_graph::{Explorer, Kind, Reach, Side};
use loony_syntax::ast::{BinOp, Ident, Span};
use loony_theory::TheoryError;
use loony_theory::quotient::{
    self, Bipartite, Control, Halted, HeapGame, Limits, Monoid, Progress, Quotient, Stop,
};
use std::rc::Rc;

/// The largest heap bound accepted (each heap costs at least a pass over Q).
const MAX_BOUND: i64 = 1_000_000;
/// Positions memoised by one exhaustive outcome search.
const SEARCH_POSITIONS: usize = 20_000_000;
/// Largest heap an exhaustive search starts from.
const SEARCH_HEAP: u64 = 100_000;
/// The ceilings of the quotient `misere_outcome` tries before an exhaustive search.
const QUICK: Limits = Limits {
    product: 1 << 18,
    reduced: 1 << 12,
    antichain_bytes: 1 << 26,
};
/// Above this heap a certifiable game's quotient is computed until certified, not to the heap.
const QUICK_BOUND: u64 = 2_000;
/// Above this order the multiplication table is not printed into the record.
const TABLE_ORDER: usize = 1000;
/// Record kind, also how `isomorphic` recognises quotients.
pub(crate) const KIND: &str = "a misère quotient";

pub(crate) mod cache;

use cache::GameKey;
pub use cache::QuotientCache;

/// The game a `quotient` argument names.
enum Game {
    Heap(u32),
    Ruleset(Rc<crate::value::Ruleset>),
}

impl Game {
    fn key(&self) -> GameKey {
        match self {
            Game::Heap(h) => GameKey::Heap(*h),
            Game::Ruleset(r) => GameKey::Ruleset(r.id),
        }
    }
}

fn game_arg(cx: &Cx, store: &Store, v: &Value, span: &Span) -> Result<Game, Error> {
    match v {
        Value::Heap(h) => Ok(Game::Heap(*h)),
        Value::Ruleset(r) if r.def.params.len() == 1 => Ok(Game::Ruleset(r.clone())),
        Value::Ruleset(r) => Err(cx.err(
            TheoryError::NotHeapGame {
                found: format!("ruleset `{}`", r.def.name.name),
                detail: format!(
                    "`{}` takes {} arguments; a heap game's positions are one heap size",
                    r.def.name.name,
                    r.def.params.len()
                ),
            },
            span,
        )),
        Value::Game(g) | Value::Position(g) => Err(cx.err(
            TheoryError::NotHeapGame {
                found: format!(
                    "the game `{}`",
                    loony_core::game::display::form(store, *g, cx.out.notation)
                ),
                detail: "a position, not the rules of a heap game".into(),
            },
            span,
        )),
        other => Err(cx.err(
            TheoryError::NotHeapGame {
                found: crate::words::describe(other),
                detail: format!("this is {}", other.type_name()),
            },
            span,
        )),
    }
}

/// What the graph layer lists as a move of a ruleset's heap, read as heaps of that ruleset.
fn move_heaps(ex: &Explorer, x: u32, r: u32, name: &str) -> Result<Vec<usize>, String> {
    let heap = |u: u32| match ex.graph.key(u) {
        Some(Key::Pos(p)) if ex.store.positions.ruleset(p) == r => {
            match ex.store.positions.store_args(p)[..] {
                [Arg::Int(j)] if j >= 0 => Some(j as usize),
                _ => None,
            }
        }
        _ => None,
    };
    let not_ours = || format!("it is not a sum of positions of `{name}`");
    match ex.graph.kind(x) {
        _ if x == ex.zero() => Ok(Vec::new()),
        Kind::LeftWin | Kind::RightWin => Err(ENTAILING.into()),
        // An entailing or carry-on option is a form the graph layer makes (no key of its own).
        Kind::Form if ex.graph.key(x).is_none() => Err(ENTAILING.into()),
        Kind::Sum => ex
            .graph
            .parts(x)
            .iter()
            .map(|&p| heap(p).ok_or_else(not_ours))
            .collect(),
        _ => heap(x).map(|j| vec![j]).ok_or_else(not_ours),
    }
}

const ENTAILING: &str = "it is an entailing or carry-on move, not a plain one";

impl Cx {
    /// Sets the size ceilings of quotient computations (hosts with less memory; tests).
    pub fn set_quotient_limits(&mut self, limits: Limits) {
        self.engines.quotients.limits = Some(limits);
    }

    /// Reads the moves of ruleset heaps 1..=n (and checks heap 0 has none) into the cache,
    /// through the graph layer.
    fn read_ruleset(
        &mut self,
        store: &mut Store,
        r: &crate::value::Ruleset,
        n: usize,
        span: &Span,
    ) -> Result<(), Error> {
        let mut listed = self
            .engines
            .quotients
            .ruleset_moves
            .remove(&r.id)
            .unwrap_or_default();
        let name = r.def.name.name.to_string();
        let nt = self.out.notation;
        let reach = Reach::moves();
        let result = {
            let mut ex = Explorer::new(store, self, reach);
            (|| {
                for k in listed.moves.len()..=n {
                    let pos = ex.store.positions.intern_args(r.id, &[Arg::Int(k as i64)]);
                    let u = ex.pos(pos);
                    // One node a move (sums among them become sum nodes).
                    let opts = ex.options(u, Side::Left)?;
                    let mut moves = Vec::with_capacity(opts.len());
                    for x in opts {
                        let bad = match move_heaps(&ex, x, r.id, &name) {
                            Err(reason) => Some(reason),
                            Ok(_) if k == 0 => Some(format!("`{name}(0)` must have no move")),
                            Ok(heaps) => match heaps.iter().find(|&&h| h >= k) {
                                Some(&big) => {
                                    Some(format!("`{name}({big})` is not smaller than {k}"))
                                }
                                None => {
                                    moves.push(heaps);
                                    None
                                }
                            },
                        };
                        if let Some(reason) = bad {
                            let shown = match ex.game(x) {
                                Ok(g) => display::form(ex.store, g, nt),
                                Err(_) => "an option".into(),
                            };
                            return Err(Error::new(TheoryError::NotSumOfHeaps {
                                game: format!("{name}({k})"),
                                option: shown,
                                reason,
                            }));
                        }
                    }
                    listed.moves.push(moves);
                }
                Ok(())
            })()
        };
        self.engines.quotients.ruleset_moves.insert(r.id, listed);
        result.map_err(|e| e.or_at(self.scope.file, span.clone()))
    }

    fn game_name(&self, game: &Game) -> String {
        match game {
            Game::Heap(h) => self.engines.heaps.rules(*h).to_string(),
            Game::Ruleset(r) => r.def.name.name.to_string(),
        }
    }

    fn compute_quotient(
        &mut self,
        store: &mut Store,
        game: &Game,
        bound: Option<usize>,
        span: &Span,
    ) -> Result<Rc<Quotient>, Error> {
        match self.run_quotient(store, game, bound, span)? {
            Ok(q) => Ok(q),
            Err(halted) => Err(self.halted(game, halted, span)),
        }
    }

    /// Runs the solver: `Err` for what stops it before it starts (no certificate, a ruleset
    /// that cannot be read), `Ok(Err(halted))` for where the engine stopped and why.
    fn run_quotient(
        &mut self,
        store: &mut Store,
        game: &Game,
        bound: Option<usize>,
        span: &Span,
    ) -> Result<Result<Rc<Quotient>, Halted>, Error> {
        let name = self.game_name(game);
        let mut owned: Box<dyn HeapGame> = match game {
            Game::Heap(h) => Box::new(self.engines.heaps.rules(*h).clone()),
            Game::Ruleset(r) => {
                let Some(n) = bound else {
                    return Err(self.err(TheoryError::NoCertificate { game: name }, span));
                };
                self.read_ruleset(store, r, n, span)?;
                Box::new(self.engines.quotients.ruleset_moves[&r.id].clone())
            }
        };
        if bound.is_none() && owned.certificate().is_none() {
            return Err(self.err(TheoryError::NoCertificate { game: name }, span));
        }
        let show = self.engines.heaps.progress;
        let started = std::time::Instant::now();
        let bar: std::cell::RefCell<Option<indicatif::ProgressBar>> = Default::default();
        let log = super::progress::Log::new(format!("quotient of {name}"));
        let report = |event: Progress| {
            if !show {
                log.line(|| match event {
                    Progress::Heap { heap, order } => format!("heap {heap}, |Q| = {order}"),
                    Progress::Candidate { heap, order, tried } => {
                        format!("heap {heap}: candidate {tried} rejected ({order} elements)")
                    }
                });
                return;
            }
            if started.elapsed().as_secs_f64() < 1.0 {
                return;
            }
            let mut bar = bar.borrow_mut();
            let b = bar.get_or_insert_with(|| match bound {
                Some(n) => super::progress::bar(n as u64, super::progress::QUOTIENT_TO),
                None => super::progress::bar(0, super::progress::QUOTIENT),
            });
            match event {
                // The message first: a bar drawn on its first position never shows it empty.
                Progress::Heap { heap, order } => {
                    b.set_message(format!("|Q| = {order}"));
                    b.set_position(heap as u64);
                }
                Progress::Candidate { heap, order, tried } => {
                    b.set_message(format!("candidate {tried} rejected ({order} elements)"));
                    b.set_position(heap as u64);
                }
            }
        };
        let flag = self.limits.interrupt.clone();
        let ctl = Control::default().with_cancel(&flag).with_progress(&report);
        let limits = self.quotient_limits();
        let r = quotient::solve(owned.as_mut(), bound, limits, &ctl);
        if let Some(b) = bar.borrow().as_ref() {
            b.finish_and_clear();
        }
        Ok(r.map(|q| {
            let q = Rc::new(q);
            self.engines.quotients.offer(game.key(), &q);
            q
        }))
    }

    /// The ceilings of a quotient computation: a host's, or a share of the memory budget.
    fn quotient_limits(&self) -> Limits {
        self.engines
            .quotients
            .limits
            .unwrap_or_else(|| Limits::within(self.limits.memory))
    }

    /// The diagnostic of a solver's stop.
    fn halted(&self, game: &Game, halted: Halted, span: &Span) -> Error {
        let name = self.game_name(game);
        let Halted { stop, heap, order } = halted;
        match stop {
            Stop::Interrupted => self.err(CoreError::Interrupted, span),
            Stop::TooLarge { elements, grew } => self.err(
                TheoryError::QuotientTooLarge {
                    game: name,
                    heap,
                    order,
                    elements,
                    grew,
                    memory: self
                        .engines
                        .quotients
                        .limits
                        .is_none()
                        .then_some(self.limits.memory),
                },
                span,
            ),
            Stop::Game(reason) => self.err(
                TheoryError::NotSumOfHeaps {
                    game: format!("{name} heap {heap}"),
                    option: String::new(),
                    reason,
                },
                span,
            ),
        }
    }
}

/// The family of quotients (see [`crate::family`]): elements multiply within their quotient,
/// equal each other or their words, and print as words; a quotient's record makes its large
/// table when `q.table` is read and answers `q.is_p(x)` and `q.element("ab2")`.
pub(crate) struct Quotients;

impl Family for Quotients {
    fn binary(
        cx: &mut Cx,
        _store: &mut Store,
        op: BinOp,
        a: &Value,
        b: &Value,
        at: At,
    ) -> Option<Result<Value, Error>> {
        match (op, a, b) {
            (BinOp::Mul, Value::Element(p, x), Value::Element(q, y)) => {
                Some(multiply(cx, (*p, *x), (*q, *y), (at.lhs, at.rhs)))
            }
            _ => None,
        }
    }

    /// Elements of one quotient are equal when they are; an element equals the string of its
    /// word (`q.p_portion == ["a", "b2"]`, as when elements were words).
    fn equal(cx: &mut Cx, _store: &mut Store, a: &Value, b: &Value, at: At) -> Result<bool, Error> {
        match (a, b) {
            (Value::Element(p, x), Value::Element(q, y)) => {
                same_quotient(cx, *p, *q, (at.lhs, at.rhs))?;
                Ok(x == y)
            }
            (Value::Element(q, x), Value::Str(w) | Value::Text(w))
            | (Value::Str(w) | Value::Text(w), Value::Element(q, x)) => {
                Ok(cx.engines.quotients.word(*q, *x) == **w)
            }
            _ => Err(cannot_compare(cx, a, b, at)),
        }
    }

    fn show(cx: &mut Cx, _store: &mut Store, v: &Value) -> Result<String, Error> {
        Ok(match v {
            Value::Element(q, x) => cx.engines.quotients.word(*q, *x),
            Value::Record(r) => super::values::summary(cx, r),
            _ => unreachable!("quotients only"),
        })
    }

    fn field(cx: &Cx, v: &Value, name: &Ident, target: &Span) -> Result<Value, Error> {
        let Value::Record(r) = v else {
            return Err(cx.err(EvalError::cannot(Operation::Fields, v.type_name()), target));
        };
        // A large quotient's table is made when it is read.
        if let Some(("table", Value::None)) = r.fields.iter().find(|(n, _)| *n == &*name.name) {
            return table_field(cx, r, &name.span).unwrap_or(Ok(Value::None));
        }
        super::values::record_field(cx, r, name)
            .map_err(|e| e.with_note("and it answers q.is_p(x) and q.element(\"ab2\")"))
    }

    fn method(
        cx: &mut Cx,
        v: &Value,
        name: &str,
        args: &[Value],
        spans: &[Span],
        span: &Span,
    ) -> Option<Result<Value, Error>> {
        let Value::Record(r) = v else {
            return None;
        };
        method(cx, r, name, args, spans, span)
    }
}

/// `a * b` for elements of one quotient.
fn multiply(
    cx: &Cx,
    (p, x): (u32, u32),
    (q, y): (u32, u32),
    spans: (&Span, &Span),
) -> Result<Value, Error> {
    same_quotient(cx, p, q, spans)?;
    Ok(Value::Element(
        p,
        cx.engines.quotients.numbered(p).monoid().mul(x, y),
    ))
}

/// Elements of two quotients do not mix, even of isomorphic ones: the same word can name
/// different elements.
fn same_quotient(cx: &Cx, p: u32, q: u32, spans: (&Span, &Span)) -> Result<(), Error> {
    if p == q {
        return Ok(());
    }
    let describe = |i: u32| {
        let quotients = &cx.engines.quotients;
        let q = quotients.numbered(i);
        format!("order {}, {}", q.order(), q.monoid().presentation())
    };
    Err(cx.err(
        EvalError::MixedQuotients {
            left: describe(p),
            right: describe(q),
        },
        spans.1,
    ))
}

/// `q.is_p(x)` and `q.element("ab2")` on a quotient record: `None` for any other call.
fn method(
    cx: &mut Cx,
    record: &Record,
    name: &str,
    vals: &[Value],
    spans: &[Span],
    span: &Span,
) -> Option<Result<Value, Error>> {
    if record.kind != KIND || !QUOTIENT.methods.contains(&name) {
        return None;
    }
    let id = number_of(record)?;
    let at = |i: usize| spans.get(i).cloned().unwrap_or_else(|| span.clone());
    if vals.len() != 1 {
        return Some(Err(cx.err(
            EvalError::Arity {
                name: format!("{name} (of a quotient)"),
                expected: "1".into(),
                found: vals.len(),
                usage: Some(format!(
                    "q.{name}({})",
                    if name == "is_p" { "x" } else { "\"ab2\"" }
                )),
            },
            span,
        )));
    }
    let q = cx.engines.quotients.numbered(id).clone();
    Some(match (name, &vals[0]) {
        ("is_p", Value::Element(p, x)) => same_quotient(cx, id, *p, (span, &at(0)))
            .map(|()| Value::Bool(q.bipartite.p[*x as usize])),
        ("element", Value::Str(w) | Value::Text(w)) => {
            let m = q.monoid();
            match Monoid::parse_word(w, m.generators()) {
                Ok(exps) => Ok(Value::Element(id, m.eval(&exps))),
                Err(e) => Err(cx.err(
                    EvalError::BadArgument(ArgumentError::NotAWord {
                        word: w.to_string(),
                        reason: e.0,
                        presentation: m.presentation(),
                    }),
                    &at(0),
                )),
            }
        }
        (_, other) => Err(cx.err(
            EvalError::BadArgument(ArgumentError::NotA {
                function: format!("q.{name}"),
                wanted: if name == "is_p" {
                    Wanted::Element
                } else {
                    Wanted::Word
                },
                found: other.type_name(),
            }),
            &at(0),
        )),
    })
}

/// The multiplication table as rows of elements: x * y is `table[x][y]`, rows and columns
/// in the order of `elements`.
fn table(q: &Quotient, id: u32) -> Value {
    let m = q.monoid();
    let n = q.order() as u32;
    Value::List(Rc::new(
        (0..n)
            .map(|x| Value::List(Rc::new(elements(id, (0..n).map(|y| m.mul(x, y))))))
            .collect(),
    ))
}

/// `q.table` of a quotient above [`TABLE_ORDER`] (or the host's order), whose record leaves it out: made now, within
/// the memory budget (a `Value` a cell, order² of them). `None` for any other field.
fn table_field(cx: &Cx, record: &Record, span: &Span) -> Option<Result<Value, Error>> {
    if record.kind != KIND {
        return None;
    }
    let id = number_of(record)?;
    let q = cx.engines.quotients.numbered(id).clone();
    let cells = q.order().saturating_mul(q.order() + 1);
    Some(
        cx.reserve_values(cells, "a quotient's table", span)
            .map(|()| {
                let _what = loony_core::memory::building("a quotient's table");
                table(&q, id)
            }),
    )
}

/// The number of the quotient whose record this is, read off its elements (Φ of heap 0 is
/// always there).
fn number_of(record: &Record) -> Option<u32> {
    record.fields.iter().find_map(|(f, v)| match (f, v) {
        (&"phi", Value::List(xs)) => match xs.first() {
            Some(Value::Element(id, _)) => Some(*id),
            _ => None,
        },
        _ => None,
    })
}

/// Elements of quotient number `id`, as values.
fn elements(id: u32, xs: impl Iterator<Item = u32>) -> Vec<Value> {
    xs.map(|x| Value::Element(id, x)).collect()
}

/// The record of a quotient: fields are the contract (`order`, `p_portion`, `presentation`,
/// `period`, `preperiod`, `phi`, `table`, …); it prints as one block.
fn record(q: &Quotient, id: u32, game: &str, table_order: usize) -> Record {
    let opt = |x: Option<usize>| x.map_or(Value::None, |v| Value::Int(v as i64));
    let m = q.monoid();
    let p_words = q.bipartite.p_words();
    let name = q.name();
    // Small tables are in the record; a larger one is made when `q.table` is read
    // ([`table_field`]), so a record that is only printed never holds order² values.
    let table = if q.order() <= table_order {
        table(q, id)
    } else {
        Value::None
    };
    let period = q.period;
    let head = match (q.certified(), &name) {
        (true, Some(n)) => format!("misère quotient of {game} ({n})"),
        (true, None) => format!("misère quotient of {game}"),
        (false, Some(n)) => format!("partial misère quotient Q_{} of {game} ({n})", q.heap),
        (false, None) => format!("partial misère quotient Q_{} of {game}", q.heap),
    };
    let heaps = match q.heap {
        0 => "no heaps".to_string(),
        1 => "heap 1".to_string(),
        n => format!("heaps 1–{n}"),
    };
    let tail = match (q.certified_at, period) {
        (Some(at), Some(p)) => format!(
            "period {}, preperiod {}, certified at heap {at}",
            p.period, p.preperiod
        ),
        (_, Some(p)) => format!(
            "apparent period {}, preperiod {}; not certified ({heaps})",
            p.period, p.preperiod
        ),
        _ => format!("no period yet; not certified ({heaps})"),
    };
    let summary = format!(
        "{head}: order {}, |P| = {}\n  {}\n  P = {{{}}}\n  Φ = {}\n  {tail}",
        q.order(),
        p_words.len(),
        m.presentation(),
        p_words.join(", "),
        if q.heap == 0 {
            "(no heaps)".to_string()
        } else {
            q.phi_listing()
        },
    );
    Record {
        kind: KIND,
        fields: vec![
            ("order", Value::Int(q.order() as i64)),
            (
                "p_portion",
                Value::List(Rc::new(elements(
                    id,
                    (0..q.order() as u32).filter(|&x| q.bipartite.p[x as usize]),
                ))),
            ),
            ("presentation", Value::Str(m.presentation().into())),
            ("period", opt(period.map(|p| p.period))),
            ("preperiod", opt(period.map(|p| p.preperiod))),
            (
                "phi",
                Value::List(Rc::new(elements(id, q.phi.iter().copied()))),
            ),
            ("table", table),
            (
                "elements",
                Value::List(Rc::new(elements(id, 0..q.order() as u32))),
            ),
            ("certified", Value::Bool(q.certified())),
            ("certified_at", opt(q.certified_at)),
            ("heap", Value::Int(q.heap as i64)),
            ("name", name.map_or(Value::None, |n| Value::Str(Rc::new(n)))),
            ("game", Value::Str(Rc::new(game.into()))),
        ],
        summary,
    }
}

/// Reads a quotient record back as a bipartite monoid (from its presentation and P-portion).
fn bipartite_of(cx: &Cx, v: &Value, span: &Span) -> Result<Bipartite, Error> {
    let not = |found: &'static str| {
        cx.err(
            EvalError::BadArgument(ArgumentError::NotQuotient { found }),
            span,
        )
    };
    let Value::Record(r) = v else {
        return Err(not(v.type_name()));
    };
    if r.kind != KIND {
        return Err(not(r.kind));
    }
    let field = |n: &str| r.fields.iter().find(|(k, _)| *k == n).map(|(_, v)| v);
    let (Some(Value::Str(pres)), Some(Value::List(p))) =
        (field("presentation"), field("p_portion"))
    else {
        return Err(not("a damaged record"));
    };
    let p: Vec<&str> = p
        .iter()
        .filter_map(|w| match w {
            Value::Str(s) | Value::Text(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    Bipartite::parse(pres, &p, 1 << 20).map_err(|e| {
        cx.err(
            EvalError::BadArgument(ArgumentError::UnreadableQuotient {
                reason: e.to_string(),
            }),
            span,
        )
    })
}

/// The game and heap sizes of `g` when it is a sum of heaps of one heap game, or of positions
/// of one ruleset of one integer (a heap or position alone counts).
fn heaps_of_one_game(store: &Store, g: GameId) -> Option<(GameKey, Vec<u64>)> {
    let parts: Vec<GameId> = match store.node(g) {
        Node::Sum(_) | Node::Repeat { .. } => store.summands(g),
        Node::Heap { .. } | Node::Position { .. } => vec![g],
        _ => return None,
    };
    // All parts heaps of one heap game, or positions of one ruleset of one integer.
    let mut key: Option<GameKey> = None;
    let mut sizes: Vec<u64> = Vec::with_capacity(parts.len());
    for p in parts {
        let (k, size) = match store.node(p) {
            Node::Heap { rules, size } => (GameKey::Heap(rules), size),
            Node::Position { ruleset, pos } => match store.position_args(pos)[..] {
                [Arg::Int(n)] if n >= 0 => (GameKey::Ruleset(ruleset), n as u64),
                _ => return None,
            },
            _ => return None,
        };
        if key.is_some_and(|old| old != k) {
            return None;
        }
        key = Some(k);
        sizes.push(size);
    }
    Some((key?, sizes))
}

/// The misère outcome of a sum of heaps of one heap game, or `None` when `g` is not one.
/// Answered from Φ (one product per heap) when a quotient of this session covers every heap
/// (certified, or a partial quotient reaching the largest heap); else such a quotient is
/// computed under small ceilings; if it outgrows them, by exhaustive search memoised over
/// multisets of heaps. Never from a quotient that does not cover the sum.
pub fn heap_sum_outcome(
    cx: &mut Cx,
    store: &mut Store,
    g: GameId,
    span: &Span,
) -> Result<Option<Outcome>, Error> {
    let Some((key, sizes)) = heaps_of_one_game(store, g) else {
        return Ok(None);
    };
    let ruleset = match key {
        GameKey::Ruleset(r) => {
            let Some(rs) = cx.rules.rulesets.iter().find(|x| x.id == r).cloned() else {
                return Ok(None);
            };
            if rs.def.params.len() != 1 {
                return Ok(None);
            }
            Some(rs)
        }
        GameKey::Heap(_) => None,
    };
    let from_quotient = |cx: &Cx| -> Option<Outcome> {
        let q = cx.engines.quotients.get(key)?;
        let heaps: Option<Vec<usize>> = sizes.iter().map(|&s| usize::try_from(s).ok()).collect();
        let answer = q.is_p(&heaps?)?;
        Some(if answer { Outcome::P } else { Outcome::N })
    };
    if let Some(o) = from_quotient(cx) {
        return Ok(Some(o));
    }
    let max = sizes.iter().copied().max().unwrap_or(0);
    // Most heap games have small partial quotients: try one, under small ceilings, before
    // searching (a certificate covers heaps of any size; otherwise Q_max covers this sum).
    let game = match &ruleset {
        Some(r) => Game::Ruleset(r.clone()),
        None => match key {
            GameKey::Heap(h) => Game::Heap(h),
            GameKey::Ruleset(_) => return Ok(None),
        },
    };
    let certifiable =
        matches!(&game, Game::Heap(h) if cx.engines.heaps.rules(*h).certificate().is_some());
    let bound = if certifiable && max > QUICK_BOUND {
        None
    } else {
        usize::try_from(max).ok()
    };
    if bound.is_some() || certifiable {
        let saved = cx.engines.quotients.limits;
        cx.engines.quotients.limits = Some(QUICK);
        let r = cx.run_quotient(store, &game, bound, span);
        cx.engines.quotients.limits = saved;
        match r? {
            Ok(_) => {
                if let Some(o) = from_quotient(cx) {
                    return Ok(Some(o));
                }
            }
            Err(Halted {
                stop: Stop::Interrupted,
                ..
            }) => {
                return Err(cx.err(CoreError::Interrupted, span));
            }
            // Its quotient outgrew the quick ceilings: the search below decides the sum.
            Err(Halted {
                stop: Stop::TooLarge { .. },
                ..
            }) => {}
            // A move of a heap in this sum is not a sum of smaller heaps: no engine applies.
            Err(
                halted @ Halted {
                    stop: Stop::Game(_),
                    heap,
                    ..
                },
            ) if heap as u64 <= max => return Err(cx.halted(&game, halted, span)),
            // Only a heap past this sum's (the quotient ran on towards a certificate): the
            // search reads no heap past `max`.
            Err(Halted {
                stop: Stop::Game(_),
                ..
            }) => {}
        }
    }
    if max > SEARCH_HEAP {
        return Err(cx.err(
            EvalError::ValueTooLarge(TooLarge::MisereHeap {
                heap: max,
                most: SEARCH_HEAP,
            }),
            span,
        ));
    }
    let heaps: Vec<usize> = sizes.iter().map(|&s| s as usize).collect();
    let mut game: Box<dyn HeapGame> = match (&ruleset, key) {
        (Some(r), _) => {
            cx.read_ruleset(store, r, max as usize, span)?;
            Box::new(cx.engines.quotients.ruleset_moves[&r.id].clone())
        }
        (None, GameKey::Heap(h)) => Box::new(cx.engines.heaps.rules(h).clone()),
        (None, GameKey::Ruleset(_)) => return Ok(None),
    };
    let mut searcher = cx
        .engines
        .quotients
        .searchers
        .remove(&key)
        .unwrap_or_default();
    let flag = cx.limits.interrupt.clone();
    let cancel = || flag.load(std::sync::atomic::Ordering::Relaxed);
    let r = searcher.is_p(game.as_mut(), &heaps, SEARCH_POSITIONS, &cancel);
    cx.engines.quotients.searchers.insert(key, searcher);
    match r {
        Ok(p) => Ok(Some(if p { Outcome::P } else { Outcome::N })),
        Err(Stop::Interrupted) => Err(cx.err(CoreError::Interrupted, span)),
        Err(Stop::TooLarge { elements, .. }) => Err(cx.err(
            EvalError::ValueTooLarge(TooLarge::MisereSearch {
                positions: elements,
            }),
            span,
        )),
        Err(Stop::Game(reason)) => Err(cx.err(
            TheoryError::NotSumOfHeaps {
                game: "this sum".into(),
                option: String::new(),
                reason,
            },
            span,
        )),
    }
}

pub(crate) fn call(
    cx: &mut Cx,
    store: &mut Store,
    op: QuotientOp,
    a: &Args<'_>,
) -> Result<Value, Error> {
    let (vals, span) = (&a.vals, a.span);
    match op {
        QuotientOp::Quotient => {
            let game = game_arg(cx, store, &vals[0], a.span(0))?;
            let bound = match vals.get(1) {
                None => None,
                Some(Value::Int(n)) if (0..=MAX_BOUND).contains(n) => Some(*n as usize),
                Some(Value::Int(n)) => {
                    return Err(cx.err(
                        TheoryError::BadHeapBound {
                            value: *n,
                            max: MAX_BOUND,
                        },
                        a.span(1),
                    ));
                }
                Some(other) => {
                    return Err(cx.err(
                        EvalError::BadArgument(ArgumentError::Limit {
                            limit: Limit::QuotientBound,
                            found: crate::words::describe(other),
                        }),
                        a.span(1),
                    ));
                }
            };
            let q = cx.compute_quotient(store, &game, bound, span)?;
            let name = cx.game_name(&game);
            let id = cx.engines.quotients.number(&q);
            let table_order = cx.engines.quotients.table_in_record.unwrap_or(TABLE_ORDER);
            Ok(Value::Record(Rc::new(record(&q, id, &name, table_order))))
        }
        QuotientOp::Isomorphic => {
            let x = bipartite_of(cx, &vals[0], a.span(0))?;
            let y = bipartite_of(cx, &vals[1], a.span(1))?;
            let flag = cx.limits.interrupt.clone();
            let cancel = || flag.load(std::sync::atomic::Ordering::Relaxed);
            match x.isomorphic(&y, &cancel) {
                Some(r) => Ok(Value::Bool(r)),
                None => Err(cx.err(CoreError::Interrupted, span)),
            }
        }
    }
}

/// The built-ins of misère quotients, one an operation of [`call`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum QuotientOp {
    Quotient,
    Isomorphic,
}

/// `quotient(g)`.
pub static QUOTIENT: RecordShape = RecordShape {
    fields: &[
        "order",
        "p_portion",
        "presentation",
        "period",
        "preperiod",
        "phi",
        "table",
        "elements",
        "certified",
        "certified_at",
        "heap",
        "name",
        "game",
    ],
    methods: &["is_p", "element"],
};

/// The rows of misère quotients.
#[distributed_slice(crate::catalog::ROWS)]
static QUOTIENTS: Rows = Rows {
    section: "Misère quotients",
    order: 60,
    rows: &[
        Builtin {
            name: "quotient",
            imp: Impl::Function(|cx, store, a| call(cx, store, QuotientOp::Quotient, &a)),
            signature: "quotient(g), quotient(g, n)",
            arity: (1, 2),
            doc: "The misère quotient of a heap game (Plambeck–Siegel), computed heap by heap until \
             its periodicity is certified, or the partial quotient `Q_n` of heaps up to `n`. A \
             record with fields `order`, `p_portion`, `presentation`, `period`, `preperiod`, \
             `phi`, `table`, `elements`, `certified`, `certified_at`, `heap`, `name`, `game`. \
             Elements are values, printed as their normal words: `q.phi[n]` is the image of heap \
             `n` (`q.phi[0]` the identity), `x * y` multiplies in the quotient, `q.is_p(x)` says \
             whether `x` is in the P-portion, `q.element(\"ab2\")` reads a word; `q.elements` \
             lists them and `q.table[i][j]` is `q.elements[i] * q.elements[j]` (any order, within the \
             memory budget; above order 1 000 the table is made when `q.table` is read, and the \
             record as a whole shows it as `none`). Elements of two quotients do not mix \
             (E0116). Size limits follow the memory budget (E0404).",
            example: "quotient(heap(\"0.75\")).phi[2] * quotient(heap(\"0.75\")).phi[2]",
            result: "b2",
            record: Some(&QUOTIENT),
        },
        Builtin {
            name: "isomorphic",
            imp: Impl::Function(|cx, store, a| call(cx, store, QuotientOp::Isomorphic, &a)),
            signature: "isomorphic(q1, q2)",
            arity: (2, 2),
            doc: "Whether two quotients are the same bipartite monoid (one monoid, one P-portion).",
            example: "isomorphic(quotient(heap(\"0.3\")), quotient(heap(\"0.7\")))",
            result: "true",
            record: None,
        },
    ],
};
