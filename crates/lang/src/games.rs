//! The family of games: `Value::Game` (printed as its value) and `Value::Position` (printed
//! by structure). They add as store sums, multiply as nimbers, negate as conjugates, and are
//! equal when their values are. See [`crate::family`].

use super::family::{At, Family, cannot_compare, is_gamey};
use crate::cx::Cx;
use crate::value::Value;
use loony_core::diag::Error;
use loony_core::game::display;
use loony_core::game::{GameId, Store};
use loony_syntax::ast::{BinOp, Span};

pub(crate) struct Games;

impl Family for Games {
    #[inline]
    fn binary(
        cx: &mut Cx,
        store: &mut Store,
        op: BinOp,
        a: &Value,
        b: &Value,
        at: At,
    ) -> Option<Result<Value, Error>> {
        match (op, a, b) {
            (
                BinOp::Mul,
                Value::Game(x) | Value::Position(x),
                Value::Game(y) | Value::Position(y),
            ) => Some(super::heaps::nim_multiply(
                cx,
                store,
                *x,
                *y,
                (at.lhs, at.rhs),
            )),
            (BinOp::Add | BinOp::Sub, _, _) if is_gamey(a) && is_gamey(b) => {
                Some(sum(cx, store, op, a, b, at))
            }
            _ => None,
        }
    }

    fn equal(cx: &mut Cx, store: &mut Store, a: &Value, b: &Value, at: At) -> Result<bool, Error> {
        if !(is_gamey(a) && is_gamey(b)) {
            return Err(cannot_compare(cx, a, b, at));
        }
        let ga = cx.as_game(store, a, at.lhs)?;
        let gb = cx.as_game(store, b, at.rhs)?;
        // Both sides are valued even when they are the same form: a game without a value is
        // an error, not equal to itself.
        let va = cx
            .game_value(store, ga)
            .map_err(|e| e.or_at(cx.scope.file, at.lhs.clone()))?;
        let vb = cx
            .game_value(store, gb)
            .map_err(|e| e.or_at(cx.scope.file, at.rhs.clone()))?;
        Ok(same_value(va, vb))
    }

    fn negate(
        cx: &mut Cx,
        store: &mut Store,
        v: Value,
        whole: &Span,
        _operand: &Span,
    ) -> Result<Value, Error> {
        let (Value::Game(g) | Value::Position(g)) = v else {
            unreachable!("games only")
        };
        Ok(Value::Game(store.conjugate(g).map_err(|x| {
            Error::from(x).or_at(cx.scope.file, whole.clone())
        })?))
    }

    fn show(cx: &mut Cx, store: &mut Store, v: &Value) -> Result<String, Error> {
        let nt = cx.out.notation;
        Ok(match v {
            Value::Game(g) => cx
                .game_value(store, *g)?
                .show(nt.ascii)
                .expect("game_value returns printable classes"),
            Value::Position(g) => display::form_full(store, *g, nt),
            _ => unreachable!("games only"),
        })
    }

    fn as_game(_cx: &Cx, _store: &mut Store, v: &Value, _span: &Span) -> Result<GameId, Error> {
        let (Value::Game(g) | Value::Position(g)) = v else {
            unreachable!("games only")
        };
        Ok(*g)
    }
}

/// `a + b` or `a - b` of two games (or 0): one store sum.
fn sum(
    cx: &Cx,
    store: &mut Store,
    op: BinOp,
    a: &Value,
    b: &Value,
    at: At,
) -> Result<Value, Error> {
    let ga = cx.as_game(store, a, at.lhs)?;
    let mut gb = cx.as_game(store, b, at.rhs)?;
    if op == BinOp::Sub {
        gb = store
            .conjugate(gb)
            .map_err(|x| Error::from(x).or_at(cx.scope.file, at.rhs.clone()))?;
    }
    let s = store
        .sum(&[ga, gb])
        .map_err(|x| Error::from(x).or_at(cx.scope.file, at.whole.clone()))?;
    Ok(Value::Game(s))
}

/// Two games' values are equal. Every game of value ☾ among entailing games is ☾ (seed 000),
/// whether or not it is the literal moon; special moons stay apart (they differ beside loopy
/// games, seed 001), as their printed values say.
pub(crate) fn same_value(a: loony_core::class::Class, b: loony_core::class::Class) -> bool {
    let moonlike = |c: loony_core::class::Class| match c {
        loony_core::class::Class::EntailingMoon => loony_core::class::Class::Moon,
        c => c,
    };
    moonlike(a) == moonlike(b)
}
