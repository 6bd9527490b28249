//! Heap games in the language: `heap("0.07")`, `subtraction([1, 3, 4])`, `allbut([…])`, their
//! positions (mixing with every other game in sums), nim-sequences, periodicity and plots.

use super::args::Args;
use super::family::{At, Family, cannot_compare};
use crate::catalog::{Builtin, Impl, Rows, distributed_slice};
use crate::cx::Cx;
use crate::error::{ArgumentError, EvalError, Example, RangeError, Wanted};
use crate::value::Value;
use loony_core::diag::Error;
use loony_core::game::{GameId, Store};
use loony_syntax::ast::Span;
use loony_theory::TheoryError;
use loony_theory::heap::{Code, HeapRules};
use loony_theory::nimfield;

pub(crate) mod table;

pub use table::HeapTable;
pub(crate) use table::*;

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

/// Nim arithmetic and subtraction games, the built-ins that share code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HeapOp {
    NimSum,
    NimProduct,
    NimInverse,
    NimDiv,
    Subtraction,
    Allbut,
}

/// The rows of heap games and nim arithmetic.
#[distributed_slice(crate::catalog::ROWS)]
static HEAPS: Rows = Rows {
    section: "Heap games",
    order: 40,
    rows: &[
        Builtin {
            name: "heap",
            imp: Impl::Function(|cx, store, a| take_and_break(cx, store, &a.vals[0], a.span(0))),
            signature: "heap(code)",
            arity: (1, 1),
            doc: "A take-and-break heap game from its code, a string in CGSuite's notation (\"0.07\" is \
             Dawson's Kayles, \"4!.0\" Grundy's game). The result is a game family: `heap(code)(n)` \
             is the heap of size `n`.",
            example: "heap(\"0.07\")(10)",
            result: "*3",
            record: None,
        },
        Builtin {
            name: "heap_code",
            imp: Impl::Function(|cx, _, a| heap_code(cx, &a.vals[0], a.span(0))),
            signature: "heap_code(g), heap_code(code)",
            arity: (1, 1),
            doc: "The take-and-break code of a heap game (`heap(…)`, `subtraction(…)`, `allbut(…)`) \
             or of a code string, in CGSuite's standard form: leading zeros dropped, a repeating \
             tail in brackets, digit sets written the shortest way. Two codes for the same game \
             print the same.",
            example: "heap_code(subtraction([2, 3, 7]))",
            result: "0.0330003",
            record: None,
        },
        Builtin {
            name: "nim_sum",
            imp: Impl::Function(|cx, store, a| nim_arithmetic(cx, store, HeapOp::NimSum, &a)),
            signature: "nim_sum(a, b)",
            arity: (2, 2),
            doc: "Nim addition (bitwise exclusive or) of two nonnegative integers, or of two nimbers \
             (then the result is a nimber): `nim_sum(a, b)` is the value of `*a + *b`.",
            example: "nim_sum(6, 3)",
            result: "5",
            record: None,
        },
        Builtin {
            name: "nim_product",
            imp: Impl::Function(|cx, store, a| nim_arithmetic(cx, store, HeapOp::NimProduct, &a)),
            signature: "nim_product(a, b)",
            arity: (2, 2),
            doc: "Nim multiplication of two nonnegative integers, the product of Conway's field On₂ \
             (the integers below `2^(2^k)` form a subfield); on nimbers it gives a nimber, as \
             `*a * *b` does.",
            example: "nim_product(16, 16)",
            result: "24",
            record: None,
        },
        Builtin {
            name: "nim_inverse",
            imp: Impl::Function(|cx, store, a| nim_arithmetic(cx, store, HeapOp::NimInverse, &a)),
            signature: "nim_inverse(a)",
            arity: (1, 1),
            doc: "The inverse of `a` under nim multiplication: the `b` with `nim_product(a, b) == 1`. \
             An error for 0, which has none.",
            example: "nim_inverse(2)",
            result: "3",
            record: None,
        },
        Builtin {
            name: "nim_div",
            imp: Impl::Function(|cx, store, a| nim_arithmetic(cx, store, HeapOp::NimDiv, &a)),
            signature: "nim_div(a, b)",
            arity: (2, 2),
            doc: "Nim division: `nim_product(a, nim_inverse(b))`. An error when `b` is 0.",
            example: "nim_div(7, 5)",
            result: "5",
            record: None,
        },
        Builtin {
            name: "subtraction",
            imp: Impl::Function(|cx, store, a| subtraction(cx, store, HeapOp::Subtraction, &a)),
            signature: "subtraction(set)",
            arity: (1, 1),
            doc: "The subtraction game whose moves remove a number of tokens in `set` (a list of \
             positive integers) from one heap.",
            example: "subtraction([1, 2])(5)",
            result: "*2",
            record: None,
        },
        Builtin {
            name: "allbut",
            imp: Impl::Function(|cx, store, a| subtraction(cx, store, HeapOp::Allbut, &a)),
            signature: "allbut(set)",
            arity: (1, 1),
            doc: "The all-but subtraction game: a move removes any positive number of tokens except \
             those in `set`.",
            example: "nim_sequence(allbut([2]), 8)",
            result: "0 1 0 1 2 3 2 3 4",
            record: None,
        },
    ],
};
