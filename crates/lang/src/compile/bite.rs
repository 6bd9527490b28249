//! A rule that bites a quadrant off a board, as `std/chomp` writes Chomp:
//!
//! ```text
//! ruleset r(b) {
//!   for p in cells(b, ".") if p != (0, 0) => r(set(b, quadrant(b, p), "#"))
//! }
//! ```
//!
//! or the same without the guard (every free cell may be taken), or with another cell as the
//! poisoned one; with no clause, or with `canonical by min([b, transpose(b)])` (a board and
//! its transpose are the same game: in Chomp a bite's quadrant turns into the quadrant of the
//! turned cell).
//!
//! Its options are the same, found on bit masks: the free cells of a board of one kind of free
//! cell (at most 128 cells) are a mask, a bite clears the mask of its quadrant, and the board
//! left is looked up by its mask (`Cx::board_part`), with no list, tuple or board made between
//! (a board only for a mask met for the first time). The interpreter makes a list of cells and
//! a board for each option, some hundred times the cost. Any other board (two kinds of free
//! cell, more cells) runs the rule as written.

use super::tree::{CClause, CExpr, COpt, CRule, Pat};
use crate::value::Value;
use loony_core::board::BLOCKED;
use loony_syntax::ast::BinOp;

/// A ruleset whose one rule takes a free cell of kind `free` and every cell at or below and
/// right of it, covering them with `#`, except at the cell `poison`.
#[derive(Clone, Copy)]
pub(crate) struct Bite {
    pub(crate) free: u8,
    /// The cell (row, column) no move takes, if the rule has one.
    pub(crate) poison: Option<(i64, i64)>,
    /// Positions are the lesser of a board and its transpose (`canonical by`).
    pub(crate) transpose: bool,
}

impl Bite {
    /// The one rule `rule` of ruleset `rid`, over the board in slot `b`, as a bite rule, if it
    /// is one; `name` is the name of a built-in by id.
    pub(super) fn of(
        rid: u32,
        b: &u16,
        rule: &CRule,
        transpose: bool,
        name: impl Fn(u16) -> &'static str,
    ) -> Option<Bite> {
        let (each, guard) = match rule.clauses.as_slice() {
            [each] => (each, None),
            [each, CClause::If(cond, _)] => (each, Some(cond)),
            _ => return None,
        };
        let CClause::Each {
            pat: Pat::Slot(p),
            iter: CExpr::Builtin(cells, cells_args, ..),
            ..
        } = each
        else {
            return None;
        };
        let [CExpr::Slot(b1), kind] = cells_args.as_slice() else {
            return None;
        };
        let poison = match guard {
            None => None,
            Some(CExpr::Bin(BinOp::Ne, x, at, ..)) if matches!(**x, CExpr::Slot(s) if s == *p) => {
                Some(cell_at(at)?)
            }
            Some(_) => return None,
        };
        let COpt::Pos { rid: to, args, .. } = &rule.option else {
            return None;
        };
        let [CExpr::Builtin(set, set_args, ..)] = args.as_slice() else {
            return None;
        };
        let [CExpr::Slot(b2), CExpr::Builtin(quad, quad_args, ..), fill] = set_args.as_slice()
        else {
            return None;
        };
        let [CExpr::Slot(b3), CExpr::Slot(p1)] = quad_args.as_slice() else {
            return None;
        };
        let free = super::domino::cell(kind)?;
        let shape = *to == rid && [b1, b2, b3] == [b; 3] && p1 == p && p != b;
        let names = name(*cells) == "cells" && name(*set) == "set" && name(*quad) == "quadrant";
        (shape && names && super::domino::cell(fill)? == BLOCKED && free != BLOCKED).then_some(
            Bite {
                free,
                poison,
                transpose,
            },
        )
    }

    /// Whether `c` is `min([b, transpose(b)])` (either order) of the board in slot `b`.
    pub(super) fn is_transpose_min(c: &CExpr, b: u16, name: impl Fn(u16) -> &'static str) -> bool {
        let CExpr::Builtin(min, min_args, ..) = c else {
            return false;
        };
        let [CExpr::List(items)] = min_args.as_slice() else {
            return false;
        };
        let turned = |e: &CExpr| match e {
            CExpr::Builtin(t, t_args, ..) => {
                name(*t) == "transpose" && matches!(t_args.as_slice(), [CExpr::Slot(s)] if *s == b)
            }
            _ => false,
        };
        let itself = |e: &CExpr| matches!(e, CExpr::Slot(s) if *s == b);
        name(*min) == "min"
            && match items.as_slice() {
                [x, y] => (itself(x) && turned(y)) || (turned(x) && itself(y)),
                _ => false,
            }
    }
}

/// The cell a constant pair of integers names.
fn cell_at(e: &CExpr) -> Option<(i64, i64)> {
    let int = |e: &CExpr| match e {
        CExpr::Const(Value::Int(n)) => Some(*n),
        _ => None,
    };
    match e {
        CExpr::Tuple(xs) => match xs.as_slice() {
            [r, c] => Some((int(r)?, int(c)?)),
            _ => None,
        },
        CExpr::Const(Value::Tuple(xs)) => match xs.as_slice() {
            [Value::Int(r), Value::Int(c)] => Some((*r, *c)),
            _ => None,
        },
        _ => None,
    }
}
