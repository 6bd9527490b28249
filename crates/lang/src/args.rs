//! A built-in's arguments as its row's function reads them.

use crate::cx::Cx;
use crate::error::{ArgumentError, EvalError, Wanted};
use crate::value::Value;
use loony_core::diag::Error;
use loony_core::game::{GameId, Store};
use loony_syntax::ast::{Expr, Span};
use std::rc::Rc;

/// Positional arguments with their source spans.
pub struct Args<'a> {
    pub(crate) name: &'static str,
    pub(crate) vals: Vec<Value>,
    pub(crate) exprs: &'a [Expr],
    pub(crate) span: &'a Span,
}

impl Args<'_> {
    pub(crate) fn span(&self, i: usize) -> &Span {
        self.exprs.get(i).map_or(self.span, |e| &e.span)
    }

    pub(crate) fn game(&self, cx: &Cx, store: &mut Store, i: usize) -> Result<GameId, Error> {
        cx.as_game(store, &self.vals[i], self.span(i))
    }

    pub(crate) fn list(&self, cx: &Cx, i: usize) -> Result<Rc<Vec<Value>>, Error> {
        match &self.vals[i] {
            Value::List(xs) | Value::Tuple(xs) => Ok(xs.clone()),
            Value::Sequence(s) => Ok(Rc::new(
                s.values.iter().map(|v| Value::Int(i64::from(v))).collect(),
            )),
            other => Err(cx.err(
                EvalError::BadArgument(ArgumentError::NotA {
                    function: self.name.into(),
                    wanted: Wanted::List,
                    found: other.type_name(),
                }),
                self.span(i),
            )),
        }
    }

    /// Argument `i`, a list of integers (an error names the first item that is not one).
    pub(crate) fn ints(&self, cx: &Cx, i: usize) -> Result<Vec<i64>, Error> {
        let xs = self.list(cx, i)?;
        let mut out = Vec::with_capacity(xs.len());
        for x in xs.iter() {
            match x {
                Value::Int(n) => out.push(*n),
                other => {
                    return Err(cx.err(
                        EvalError::BadArgument(ArgumentError::NotIntegerIn {
                            function: self.name.into(),
                            found: other.type_name(),
                        }),
                        self.span(i),
                    ));
                }
            }
        }
        Ok(out)
    }

    /// Argument `i`, an index into a list of `len` items.
    pub(crate) fn index(&self, cx: &Cx, i: usize, len: usize) -> Result<usize, Error> {
        let k = self.int(cx, i)?;
        if k < 0 || k as usize >= len {
            return Err(cx.err(EvalError::IndexOutOfRange { index: k, len }, self.span(i)));
        }
        Ok(k as usize)
    }

    pub(crate) fn int(&self, cx: &Cx, i: usize) -> Result<i64, Error> {
        match &self.vals[i] {
            Value::Int(n) => Ok(*n),
            other => Err(cx.err(
                EvalError::BadArgument(ArgumentError::NotA {
                    function: self.name.into(),
                    wanted: Wanted::Integer,
                    found: other.type_name(),
                }),
                self.span(i),
            )),
        }
    }
}
