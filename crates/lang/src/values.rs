//! The language's own value families: plain values (integers, booleans, `none`, strings,
//! text, outcomes, boards, graphs, functions), lists and tuples, and records. See
//! [`crate::family`].

use super::family::{At, Family, cannot_compare};
use crate::bits;
use crate::cx::Cx;
use crate::error::{EvalError, TypeError};
use crate::value::Record;
use crate::value::Value;
use loony_core::diag::Error;
use loony_core::game::display;
use loony_core::game::{GameId, Store};
use loony_syntax::ast::{BinOp, Ident, Span};
use std::rc::Rc;

pub(crate) struct Plain;
pub(crate) struct Lists;
pub(crate) struct Records;

impl Family for Plain {
    fn binary(
        cx: &mut Cx,
        _store: &mut Store,
        op: BinOp,
        a: &Value,
        b: &Value,
        at: At,
    ) -> Option<Result<Value, Error>> {
        let (Value::Int(x), Value::Int(y)) = (a, b) else {
            return None;
        };
        Some(int_binary(cx, op, *x, *y, at))
    }

    fn equal(cx: &mut Cx, _store: &mut Store, a: &Value, b: &Value, at: At) -> Result<bool, Error> {
        Ok(match (a, b) {
            (Value::Int(x), Value::Int(y)) => x == y,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::None, other) | (other, Value::None) => matches!(other, Value::None),
            (Value::Str(x) | Value::Text(x), Value::Str(y) | Value::Text(y)) => x == y,
            (Value::Outcome(x), Value::Outcome(y)) => x == y,
            (Value::Board(x), Value::Board(y)) => x == y,
            (Value::Graph(x), Value::Graph(y)) => x == y,
            _ => return Err(cannot_compare(cx, a, b, at)),
        })
    }

    fn negate(
        cx: &mut Cx,
        _store: &mut Store,
        v: Value,
        whole: &Span,
        operand: &Span,
    ) -> Result<Value, Error> {
        match v {
            Value::Int(n) => {
                Ok(Value::Int(n.checked_neg().ok_or_else(|| {
                    cx.err(EvalError::Overflow { op: "-".into() }, whole)
                })?))
            }
            other => Err(cx.err(
                EvalError::cannot(crate::error::Operation::Negate, other.type_name()),
                operand,
            )),
        }
    }

    fn show(cx: &mut Cx, _store: &mut Store, v: &Value) -> Result<String, Error> {
        let nt = cx.out.notation;
        Ok(match v {
            Value::Int(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::None => "none".to_string(),
            Value::Str(s) => s.to_string(),
            // Prose (`explain`, records, tables) is written with Unicode symbols; `--ascii`
            // spells them here, in one place.
            Value::Text(s) if nt.ascii => display::ascii_text(s),
            Value::Text(s) => s.to_string(),
            Value::Outcome(o) => o.to_string(),
            Value::Func(c) => format!("<fn {}>", c.def.name.name),
            Value::Ruleset(r) => format!("<ruleset {}>", r.def.name.name),
            Value::Builtin(id) => format!("<built-in {}>", super::catalog::get(*id).name),
            // A board alone prints as its picture; inside a list, as it is written.
            Value::Board(b) => b.picture(),
            Value::Graph(g) => g.to_string(),
            other => unreachable!("{} is not a plain value", other.type_name()),
        })
    }

    fn as_game(cx: &Cx, store: &mut Store, v: &Value, span: &Span) -> Result<GameId, Error> {
        match v {
            Value::Int(0) => Ok(store.zero()),
            Value::Int(n) => Err(cx.err(EvalError::IntegerAsGame(*n), span)),
            other => Err(cx.err(EvalError::expected("a game", other.type_name()), span)),
        }
    }
}

/// `x op y` on integers (`op` neither `==`, `!=`, `and` nor `or`).
#[inline]
pub(crate) fn int_binary(cx: &Cx, op: BinOp, x: i64, y: i64, at: At) -> Result<Value, Error> {
    let overflow = |cx: &Cx| {
        cx.err(
            EvalError::Overflow {
                op: op.symbol().into(),
            },
            at.whole,
        )
    };
    Ok(match op {
        BinOp::Add => Value::Int(x.checked_add(y).ok_or_else(|| overflow(cx))?),
        BinOp::Sub => Value::Int(x.checked_sub(y).ok_or_else(|| overflow(cx))?),
        BinOp::Mul => Value::Int(x.checked_mul(y).ok_or_else(|| overflow(cx))?),
        BinOp::Div | BinOp::Rem => {
            if y == 0 {
                return Err(cx.err(EvalError::DivisionByZero, at.rhs));
            }
            let r = if op == BinOp::Div {
                x.checked_div_euclid(y)
            } else {
                x.checked_rem_euclid(y)
            };
            Value::Int(r.ok_or_else(|| overflow(cx))?)
        }
        BinOp::Pow => {
            let Ok(e) = u32::try_from(y) else {
                if y < 0 {
                    return Err(cx.err(EvalError::NegativeExponent { exp: y }, at.rhs));
                }
                return Err(overflow(cx));
            };
            Value::Int(x.checked_pow(e).ok_or_else(|| overflow(cx))?)
        }
        BinOp::Lt => Value::Bool(x < y),
        BinOp::Le => Value::Bool(x <= y),
        BinOp::Gt => Value::Bool(x > y),
        BinOp::Ge => Value::Bool(x >= y),
        BinOp::BitAnd | BinOp::BitOr | BinOp::Xor | BinOp::Shl | BinOp::Shr => {
            match bits::apply(op, x, y) {
                Ok(v) => Value::Int(v),
                Err(bits::BitError::Overflow) => return Err(overflow(cx)),
                Err(bits::BitError::NegativeShift) => {
                    return Err(cx.err(
                        EvalError::NegativeShift {
                            op: op.symbol(),
                            amount: y,
                        },
                        at.rhs,
                    ));
                }
            }
        }
        BinOp::Eq | BinOp::Ne | BinOp::And | BinOp::Or => {
            unreachable!("answered by the evaluator")
        }
    })
}

impl Family for Lists {
    fn binary(
        cx: &mut Cx,
        _store: &mut Store,
        op: BinOp,
        a: &Value,
        b: &Value,
        at: At,
    ) -> Option<Result<Value, Error>> {
        let (BinOp::Add, Value::List(x), Value::List(y)) = (op, a, b) else {
            return None;
        };
        Some(
            cx.reserve_values(x.len() + y.len(), "a joined list", at.whole)
                .map(|()| {
                    let mut v = (**x).clone();
                    v.extend(y.iter().cloned());
                    Value::List(Rc::new(v))
                }),
        )
    }

    fn equal(cx: &mut Cx, store: &mut Store, a: &Value, b: &Value, at: At) -> Result<bool, Error> {
        let ((Value::List(x), Value::List(y)) | (Value::Tuple(x), Value::Tuple(y))) = (a, b) else {
            return Err(cannot_compare(cx, a, b, at));
        };
        if x.len() != y.len() {
            return Ok(false);
        }
        for (p, q) in x.iter().zip(y.iter()) {
            if !cx.equal(store, p, q, at)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn show(cx: &mut Cx, store: &mut Store, v: &Value) -> Result<String, Error> {
        cx.show(store, v)
    }
}

impl Family for Records {
    fn show(cx: &mut Cx, _store: &mut Store, v: &Value) -> Result<String, Error> {
        let Value::Record(r) = v else {
            unreachable!("records only")
        };
        Ok(summary(cx, r))
    }

    fn field(cx: &Cx, v: &Value, name: &Ident, _target: &Span) -> Result<Value, Error> {
        let Value::Record(r) = v else {
            unreachable!("records only")
        };
        record_field(cx, r, name)
    }
}

/// How a record prints: its summary (spelled in ASCII under `--ascii`).
pub(crate) fn summary(cx: &Cx, r: &Record) -> String {
    if cx.out.notation.ascii {
        display::ascii_text(&r.summary)
    } else {
        r.summary.clone()
    }
}

/// `r.name`: a record's field, or an error listing its fields.
pub(crate) fn record_field(cx: &Cx, r: &Record, name: &Ident) -> Result<Value, Error> {
    match r.fields.iter().find(|(n, _)| *n == &*name.name) {
        Some((_, x)) => Ok(x.clone()),
        None => {
            let names: Vec<&str> = r.fields.iter().map(|(n, _)| *n).collect();
            Err(cx
                .err(
                    EvalError::Type(TypeError::NoField {
                        record: r.kind.to_string(),
                        field: name.name.to_string(),
                    }),
                    &name.span,
                )
                .with_note(format!("its fields are {}", names.join(", "))))
        }
    }
}
