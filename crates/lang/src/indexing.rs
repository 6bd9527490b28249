//! `v[i]`, `v[a..b]` and what a `for` clause walks: lists, tuples and nim-sequences from
//! heap 0, read in place.

use crate::cx::Cx;
use crate::error::{EvalError, Operation};
use crate::value::Value;
use loony_core::diag::Error;
use loony_core::game::Store;
use loony_syntax::ast::*;
use std::rc::Rc;

impl Cx {
    /// `target[index]`: an item, a slice (`xs[a..b]`) or a board's cell.
    pub(crate) fn index_expr(
        &mut self,
        store: &mut Store,
        target: &Expr,
        index: &Expr,
    ) -> Result<Value, Error> {
        let v = self.eval(store, target)?;
        // `xs[a..b]` slices.
        if let ExprKind::Range { lo, hi, inclusive } = &index.kind {
            let (a, b) = self.range_bounds(store, lo, hi, *inclusive)?;
            return self.slice(&v, a, b, &target.span, &index.span);
        }
        if let Value::Board(b) = &v {
            let at = self.eval(store, index)?;
            return self.board_cell(b, &at, &index.span);
        }
        let i = self.int(store, index)?;
        self.index(&v, i, &target.span, &index.span)
    }

    /// How many items `v[i]` and `v[a..b]` index: a list's, a tuple's, or a nim-sequence's from
    /// heap 0.
    pub(crate) fn indexable_len(&self, v: &Value, target: &Span) -> Result<usize, Error> {
        match v {
            Value::List(xs) | Value::Tuple(xs) => Ok(xs.len()),
            Value::Sequence(s) if s.start == 0 => Ok(s.values.len()),
            other => Err(self.err(
                EvalError::cannot(Operation::Index, other.type_name()),
                target,
            )),
        }
    }

    /// `v[i]`: an item of a list or tuple, or a value of a nim-sequence from heap 0, read in
    /// place (a sequence is never turned into a list to be indexed).
    pub(crate) fn index(
        &self,
        v: &Value,
        i: i64,
        target: &Span,
        at: &Span,
    ) -> Result<Value, Error> {
        let len = self.indexable_len(v, target)?;
        if i < 0 || i as usize >= len {
            return Err(self.err(EvalError::IndexOutOfRange { index: i, len }, at));
        }
        Ok(match v {
            Value::List(xs) | Value::Tuple(xs) => xs[i as usize].clone(),
            Value::Sequence(s) => Value::Int(i64::from(s.values.get(i as usize))),
            _ => unreachable!("refused above"),
        })
    }

    /// `v[a..b]`: the items `a` to `b - 1` of a list or tuple (a list), or of a nim-sequence
    /// from heap 0 (a nim-sequence of those heaps, still packed).
    pub(crate) fn slice(
        &self,
        v: &Value,
        a: i64,
        b: i64,
        target: &Span,
        at: &Span,
    ) -> Result<Value, Error> {
        let len = self.indexable_len(v, target)?;
        for bound in [a, b] {
            if bound < 0 || bound as usize > len {
                return Err(self.err(EvalError::IndexOutOfRange { index: bound, len }, at));
            }
        }
        let (a, b) = (a as usize, (b as usize).max(a as usize));
        Ok(match v {
            Value::List(xs) | Value::Tuple(xs) => Value::List(Rc::new(xs[a..b].to_vec())),
            Value::Sequence(s) => Value::Sequence(Rc::new(crate::value::Sequence {
                start: a as u64,
                values: s.values.slice(a..b),
                of: s.of.clone(),
            })),
            _ => unreachable!("refused above"),
        })
    }

    /// What a `for` clause walks: a list's or tuple's items, or a nim-sequence's
    /// `(heap, value)` pairs, made one at a time.
    pub(crate) fn items_of(&self, v: Value, span: &Span) -> Result<Items, Error> {
        Ok(match v {
            Value::List(xs) | Value::Tuple(xs) => Items::Values(xs),
            Value::Sequence(s) => Items::Sequence(s),
            other => {
                return Err(self.err(
                    EvalError::cannot(Operation::Iterate, other.type_name()),
                    span,
                ));
            }
        })
    }
}

/// What a `for` clause walks, item by item: a nim-sequence's `(heap, value)` pairs are made as
/// they are reached, not all at once.
pub(crate) enum Items {
    Values(Rc<Vec<Value>>),
    Sequence(Rc<crate::value::Sequence>),
}

impl Items {
    pub(crate) fn len(&self) -> usize {
        match self {
            Items::Values(xs) => xs.len(),
            Items::Sequence(s) => s.values.len(),
        }
    }

    pub(crate) fn get(&self, i: usize) -> Value {
        match self {
            Items::Values(xs) => xs[i].clone(),
            Items::Sequence(s) => Value::Tuple(Rc::new(vec![
                Value::Int(s.start as i64 + i as i64),
                Value::Int(i64::from(s.values.get(i))),
            ])),
        }
    }
}
