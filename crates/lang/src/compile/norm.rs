//! A ruleset's `split by` and `canonical by` clauses as the compiler leaves them (see
//! `split.rs`, which runs them).

use super::tree::{CExpr, Pat};
use crate::catalog::boards::BoardOp;
use loony_syntax::ast::Span;

/// A ruleset's clauses, compiled over a frame whose first slots are its parameters.
pub(crate) struct Norm {
    pub(crate) params: Vec<Pat>,
    pub(crate) slots: usize,
    pub(crate) split: Option<(CExpr, Span)>,
    pub(crate) canonical: Option<(CExpr, Span)>,
    /// The clauses run in place when they are the built-ins of boards and graphs applied to
    /// the one parameter (`split by regions(b) canonical by canonical(b)`): the same values,
    /// without a list of parts or a frame between them.
    pub(crate) native: Option<Native>,
    /// `bound by`, `order by`, `value by` (see `pruned/hint.rs`), if any is declared.
    pub(crate) hints: Option<Box<Hints>>,
}

/// A ruleset's hints to pruned search, compiled over the same frame as its clauses.
pub(crate) struct Hints {
    pub(crate) bound: Option<(CExpr, Span)>,
    pub(crate) order: Option<(CExpr, Span)>,
    pub(crate) value: Option<(CExpr, Span)>,
}

/// Clauses that are built-ins of the ruleset's one parameter.
#[derive(Clone, Copy)]
pub(crate) struct Native {
    /// `split by regions(b)` (boards) or `split by components(g)` (graphs); none: no split.
    pub(crate) split: Option<BoardOp>,
    /// `canonical by canonical(x)`.
    pub(crate) canonical: bool,
}

impl Native {
    /// The native form of clauses `split` and `canonical` (compiled) of a ruleset of `arity`
    /// parameters, if they have one; `name` is the name of a built-in by id.
    pub(crate) fn of(
        arity: usize,
        split: Option<&CExpr>,
        canonical: Option<&CExpr>,
        name: impl Fn(u16) -> &'static str,
    ) -> Option<Native> {
        let of_param = |e: &CExpr, ops: &[BoardOp]| match e {
            CExpr::Builtin(id, args, ..) => match (BoardOp::native(name(*id)), args.as_slice()) {
                (Some(op), [CExpr::Slot(0)]) if ops.contains(&op) => Some(op),
                _ => None,
            },
            _ => None,
        };
        if arity != 1 {
            return None;
        }
        let split = match split {
            None => None,
            Some(e) => Some(of_param(e, &[BoardOp::Regions, BoardOp::Components])?),
        };
        let canonical = match canonical {
            None => false,
            Some(e) => {
                of_param(e, &[BoardOp::Canonical])?;
                true
            }
        };
        Some(Native { split, canonical })
    }
}
