//! Value families behind one interface. A family (games, misère games, quotients, heap
//! games, nim-sequences, lists, records, the plain values) says in its own file how its values
//! add, compare, negate, print, answer `.field` and `.name(…)`, and become games, by
//! implementing [`Family`]. `dispatch.rs` picks the family of a value or of an operator's
//! operands and calls it: one `match`, static calls, nothing boxed.

use crate::cx::Cx;
use crate::error::{EvalError, Operation, TypeError};
use crate::value::Value;
use loony_core::diag::Error;
use loony_core::game::{GameId, Store};
use loony_syntax::ast::{BinOp, Ident, Span};

/// Where an operator's operands were written, and the whole expression.
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    pub(crate) lhs: &'a Span,
    pub(crate) rhs: &'a Span,
    pub(crate) whole: &'a Span,
}

/// How the values of one family behave. A family is a type without data: its functions are
/// called by `dispatch.rs`, never through a pointer.
pub(crate) trait Family {
    /// `a op b` (not `==`, `!=`, `and`, `or`) where `dispatch::of_pair` chose this family; `None`
    /// when the operator means nothing for these operands (the evaluator then says which
    /// operand is wrong).
    fn binary(
        _cx: &mut Cx,
        _store: &mut Store,
        _op: BinOp,
        _a: &Value,
        _b: &Value,
        _at: At,
    ) -> Option<Result<Value, Error>> {
        None
    }

    /// `a == b` where `dispatch::of_pair` chose this family.
    fn equal(cx: &mut Cx, _store: &mut Store, a: &Value, b: &Value, at: At) -> Result<bool, Error> {
        Err(cannot_compare(cx, a, b, at))
    }

    /// `-v`; `whole` is the negation's span, `operand` its operand's.
    fn negate(
        cx: &mut Cx,
        _store: &mut Store,
        v: Value,
        _whole: &Span,
        operand: &Span,
    ) -> Result<Value, Error> {
        Err(cx.err(EvalError::cannot(Operation::Negate, v.type_name()), operand))
    }

    /// How a value prints alone (a statement's result).
    fn show(cx: &mut Cx, store: &mut Store, v: &Value) -> Result<String, Error>;

    /// `v.name`.
    fn field(cx: &Cx, v: &Value, _name: &Ident, target: &Span) -> Result<Value, Error> {
        Err(cx.err(EvalError::cannot(Operation::Fields, v.type_name()), target))
    }

    /// `v.name(args)`, a function the value answers (`q.is_p(x)`); `None` when it answers
    /// none of that name.
    fn method(
        _cx: &mut Cx,
        _v: &Value,
        _name: &str,
        _args: &[Value],
        _spans: &[Span],
        _span: &Span,
    ) -> Option<Result<Value, Error>> {
        None
    }

    /// The value used as a game (an option of a form, a part of a sum).
    fn as_game(cx: &Cx, _store: &mut Store, v: &Value, span: &Span) -> Result<GameId, Error> {
        Err(cx.err(EvalError::expected("a game", v.type_name()), span))
    }
}

/// `a == b` of two values of no common sense.
pub(crate) fn cannot_compare(cx: &Cx, a: &Value, b: &Value, at: At) -> Error {
    cx.err(
        EvalError::Type(TypeError::Compare {
            left: a.type_name(),
            right: b.type_name(),
        }),
        at.rhs,
    )
}

/// Whether a value stands for a game in `+`, `-` and `==`: a game, a position, or an
/// integer (0 is a game; another integer is an error there).
pub(crate) fn is_gamey(v: &Value) -> bool {
    matches!(v, Value::Game(_) | Value::Position(_) | Value::Int(_))
}
