//! Which value family answers, and the evaluator's calls into it: [`of`] (one value) and
//! [`of_pair`] (an operator's operands) pick a [`Kind`], and `dispatch!` calls that family's
//! [`Family`](crate::family::Family) function by a `match`. Adding a family adds a `Kind`,
//! a line in [`of`] and one in `dispatch!`.

use super::family::{At, is_gamey};
use crate::cx::Cx;
use crate::error::{EvalError, TypeError};
use crate::value::Value;
use loony_core::diag::Error;
use loony_core::game::{GameId, Store};
use loony_syntax::ast::{BinOp, Ident, Span};

/// The families, in the order [`of_pair`] prefers them.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Kind {
    /// Integers, booleans, `none`, strings, text, outcomes, boards, graphs, functions
    /// (`values.rs`).
    Plain,
    /// Records (`values.rs`).
    Records,
    /// Lists and tuples (`values.rs`).
    Lists,
    /// Nim-sequences (`sequences.rs`).
    Sequences,
    /// Games and positions (`games.rs`).
    Games,
    /// Heap rules (`heaps.rs`).
    Heaps,
    /// Quotient elements and quotient records (`quotient.rs`).
    Quotient,
    /// Misère canonical games (`misere.rs`).
    Misere,
}

/// The family a value belongs to.
#[inline]
pub(crate) fn of(v: &Value) -> Kind {
    match v {
        Value::Game(_) | Value::Position(_) => Kind::Games,
        Value::Misere(_) => Kind::Misere,
        Value::Element(..) => Kind::Quotient,
        Value::Record(r) if r.kind == super::quotient::KIND => Kind::Quotient,
        Value::Record(_) => Kind::Records,
        Value::Heap(_) => Kind::Heaps,
        Value::Sequence(_) => Kind::Sequences,
        Value::List(_) | Value::Tuple(_) => Kind::Lists,
        Value::Int(_)
        | Value::Bool(_)
        | Value::None
        | Value::Str(_)
        | Value::Text(_)
        | Value::Outcome(_)
        | Value::Func(_)
        | Value::Ruleset(_)
        | Value::Builtin(_)
        | Value::Board(_)
        | Value::Graph(_) => Kind::Plain,
    }
}

/// The family that answers an operator on two operands: the later in [`Kind`]'s order of
/// the two operands' families (a misère game beside a game makes the sum misère; a quotient
/// element beside a string compares with its word), except that `none` compares as a plain
/// value with anything.
#[inline]
pub(crate) fn of_pair(a: &Value, b: &Value) -> Kind {
    if matches!(a, Value::None) || matches!(b, Value::None) {
        return Kind::Plain;
    }
    of(a).max(of(b))
}

/// Calls `Family::$f` of the family `$kind`.
macro_rules! dispatch {
    ($kind:expr, $f:ident($($arg:expr),* $(,)?)) => {{
        use $crate::dispatch::Kind;
        use $crate::family::Family;
        match $kind {
            Kind::Plain => $crate::values::Plain::$f($($arg),*),
            Kind::Records => $crate::values::Records::$f($($arg),*),
            Kind::Lists => $crate::values::Lists::$f($($arg),*),
            Kind::Sequences => $crate::sequences::Sequences::$f($($arg),*),
            Kind::Games => $crate::games::Games::$f($($arg),*),
            Kind::Heaps => $crate::heaps::Heaps::$f($($arg),*),
            Kind::Quotient => $crate::quotient::Quotients::$f($($arg),*),
            Kind::Misere => $crate::misere::Misere::$f($($arg),*),
        }
    }};
}

impl Cx {
    /// A binary operator (not `and`/`or`) on evaluated operands.
    pub(crate) fn binary_values(
        &mut self,
        store: &mut Store,
        op: BinOp,
        a: Value,
        b: Value,
        spans: (&Span, &Span),
        span: &Span,
    ) -> Result<Value, Error> {
        let at = At {
            lhs: spans.0,
            rhs: spans.1,
            whole: span,
        };
        // Integers first, the commonest operands (plain values, answered by `values.rs`).
        if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
            return match op {
                BinOp::Eq => Ok(Value::Bool(x == y)),
                BinOp::Ne => Ok(Value::Bool(x != y)),
                _ => super::values::int_binary(self, op, *x, *y, at),
            };
        }
        match op {
            BinOp::Eq => return Ok(Value::Bool(self.equal(store, &a, &b, at)?)),
            BinOp::Ne => return Ok(Value::Bool(!self.equal(store, &a, &b, at)?)),
            _ => {}
        }
        match dispatch!(of_pair(&a, &b), binary(self, store, op, &a, &b, at)) {
            Some(r) => r,
            None => Err(self.operands_error(op, &a, &b, at)),
        }
    }

    /// `a == b`.
    pub(crate) fn equal(
        &mut self,
        store: &mut Store,
        a: &Value,
        b: &Value,
        at: At,
    ) -> Result<bool, Error> {
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            return Ok(x == y);
        }
        dispatch!(of_pair(a, b), equal(self, store, a, b, at))
    }

    /// The operands do not fit the operator: say which one is wrong.
    fn operands_error(&self, op: BinOp, a: &Value, b: &Value, at: At) -> Error {
        let (bad, bad_span, other) = if matches!(a, Value::Game(_) | Value::Position(_))
            && !matches!(b, Value::Game(_) | Value::Position(_) | Value::Int(_))
        {
            (b, at.rhs, a)
        } else {
            (a, at.lhs, b)
        };
        if matches!(op, BinOp::Add | BinOp::Sub) {
            if let (Value::Int(n), true) = (a, is_gamey(b)) {
                return self.err(EvalError::IntegerAsGame(*n), at.lhs);
            }
            if let (true, Value::Int(n)) = (is_gamey(a), b) {
                return self.err(EvalError::IntegerAsGame(*n), at.rhs);
            }
        }
        self.err(
            EvalError::Type(TypeError::Operands {
                op: op.symbol(),
                left: a.type_name(),
                right: b.type_name(),
                bad: bad.type_name(),
                other: other.type_name(),
            }),
            bad_span,
        )
    }

    /// `-v`: `whole` is where the negation is written, `operand` where its operand is.
    pub(crate) fn negate(
        &mut self,
        store: &mut Store,
        v: Value,
        whole: &Span,
        operand: &Span,
    ) -> Result<Value, Error> {
        dispatch!(of(&v), negate(self, store, v, whole, operand))
    }

    /// A value used as a game: games themselves, and 0 (the only integer that is impartial).
    pub(crate) fn as_game(
        &self,
        store: &mut Store,
        v: &Value,
        span: &Span,
    ) -> Result<GameId, Error> {
        if let Value::Game(g) | Value::Position(g) = v {
            return Ok(*g);
        }
        dispatch!(of(v), as_game(self, store, v, span))
    }

    /// `v.name`.
    pub(crate) fn field(&self, v: &Value, name: &Ident, target: &Span) -> Result<Value, Error> {
        dispatch!(of(v), field(self, v, name, target))
    }

    /// `v.name(args)` when `v` answers a function of that name.
    pub(crate) fn method(
        &mut self,
        v: &Value,
        name: &str,
        args: &[Value],
        spans: &[Span],
        span: &Span,
    ) -> Option<Result<Value, Error>> {
        dispatch!(of(v), method(self, v, name, args, spans, span))
    }

    /// How a value that is not a list or tuple prints alone.
    pub(crate) fn show_one(&mut self, store: &mut Store, v: &Value) -> Result<String, Error> {
        dispatch!(of(v), show(self, store, v))
    }
}
