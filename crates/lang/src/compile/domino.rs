//! A rule that places a domino, as `std/cram` writes Cram:
//!
//! ```text
//! ruleset r(b) split by regions(b) canonical by canonical(b) {
//!   for (p, q) in adjacent_pairs(b, ".") => r(set(b, [p, q], "#"))
//! }
//! ```
//!
//! or the same with `centre_first(b, adjacent_pairs(b, "."))`, the dominoes nearest the
//! centre first (the order pruned search tries them in).
//!
//! Its options are the same, found on bit masks: the free cells of a board of one kind of free
//! cell (at most 128 cells) are a mask, a domino clears two bits, and the regions of what is
//! left are looked up by their boxes (`Cx::region_part`), with no board, list or tuple made
//! between. The interpreter did the same work at five times the cost an option. Any other
//! board (two kinds of free cell, more cells) runs the rule as written.

use super::tree::{CClause, CExpr, COpt, CRule, Pat};
use crate::value::Value;
use loony_core::board::BLOCKED;

/// A ruleset whose one rule places a domino on two adjacent cells of kind `free`, covering
/// them with `#`, and whose positions split into canonical regions.
#[derive(Clone, Copy)]
pub(crate) struct Domino {
    pub(crate) free: u8,
    /// The pairs are listed nearest the centre first (`centre_first`), else in reading order.
    pub(crate) centre_first: bool,
}

impl Domino {
    /// The one rule `rule` of ruleset `rid`, over the board in slot `b`, as a domino rule, if
    /// it is one; `name` is the name of a built-in by id.
    pub(super) fn of(
        rid: u32,
        b: &u16,
        rule: &CRule,
        name: impl Fn(u16) -> &'static str,
    ) -> Option<Domino> {
        let [
            CClause::Each {
                pat: Pat::Tuple(pq, _),
                iter,
                ..
            },
        ] = rule.clauses.as_slice()
        else {
            return None;
        };
        // `centre_first(b, pairs)` around the pairs, on the same board.
        let (iter, centre_first) = match iter {
            CExpr::Builtin(f, f_args, ..) if name(*f) == "centre_first" => {
                match f_args.as_slice() {
                    [CExpr::Slot(b0), inner] if b0 == b => (inner, true),
                    _ => return None,
                }
            }
            _ => (iter, false),
        };
        let CExpr::Builtin(pairs, pairs_args, ..) = iter else {
            return None;
        };
        let ([Pat::Slot(p), Pat::Slot(q)], [CExpr::Slot(b1), kind]) =
            (pq.as_slice(), pairs_args.as_slice())
        else {
            return None;
        };
        let COpt::Pos { rid: to, args, .. } = &rule.option else {
            return None;
        };
        let [CExpr::Builtin(set, set_args, ..)] = args.as_slice() else {
            return None;
        };
        let [CExpr::Slot(b2), CExpr::List(at), fill] = set_args.as_slice() else {
            return None;
        };
        let [CExpr::Slot(p1), CExpr::Slot(q1)] = at.as_slice() else {
            return None;
        };
        let free = cell(kind)?;
        let shape = *to == rid && b1 == b && b2 == b && p1 == p && q1 == q && p != q;
        let names = name(*pairs) == "adjacent_pairs" && name(*set) == "set";
        (shape && names && cell(fill)? == BLOCKED && free != BLOCKED)
            .then_some(Domino { free, centre_first })
    }

    /// Whether a board of this rule, `rows × cols` with free cells `free` (bit `r * cols + c`),
    /// is 0 by the second player's symmetry strategy (Tweedledum and Tweedledee): a half
    /// turn maps the free cells onto themselves, leaves none in place and turns no domino onto
    /// itself, so each domino has an image still free and the second player answers with it.
    /// Of the box's other involutions, a reflection or a diagonal leaves no connected region
    /// of more than one cell that it maps onto itself with none of these (a path across the
    /// axis passes a fixed cell or a domino on it), so a part of a split rule needs no other.
    /// A half turn takes cell `i` of `n` to cell `n - 1 - i`: the mask reversed.
    pub(crate) fn half_turn_zero(self, rows: usize, cols: usize, free: u128) -> bool {
        let n = rows * cols;
        if n == 0 || n > 128 || free.reverse_bits() >> (128 - n) != free {
            return false;
        }
        let at = |r: usize, c: usize| free >> (r * cols + c) & 1 == 1;
        let (r, c) = (rows / 2, cols / 2);
        // The turn's centre: a free cell, or a domino on it, across or down.
        match (rows % 2, cols % 2) {
            (1, 1) => !at(r, c),
            (1, _) => !(at(r, c - 1) && at(r, c)),
            (_, 1) => !(at(r - 1, c) && at(r, c)),
            _ => true,
        }
    }
}

/// The cell a one-character string constant stands for.
pub(super) fn cell(e: &CExpr) -> Option<u8> {
    match e {
        CExpr::Const(Value::Str(s))
            if s.len() == 1 && loony_core::board::is_cell(s.as_bytes()[0]) =>
        {
            Some(s.as_bytes()[0])
        }
        _ => None,
    }
}
