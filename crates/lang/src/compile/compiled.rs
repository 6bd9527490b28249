//! A compiled ruleset: its tree of rules, its register code and row shape when it has them,
//! and its `split by` and `canonical by` clauses. Kept apart from the compiler (`mod.rs`) so
//! that the context ([`crate::cx`]) can hold compiled rulesets without naming the compiler.

use super::bite::Bite;
use super::domino::Domino;
use super::kayles::Kayles;
use super::norm::Norm;
use super::tree::{CExpr, COpt, CRule, Pat};
use crate::catalog::boards::BoardOp;
use crate::intcode::{IntCode, RowShape};
use loony_core::diag::FileId;

/// A compiled ruleset.
pub struct Compiled {
    pub rid: u32,
    pub file: FileId,
    pub(super) slots: usize,
    pub(super) params: Vec<Pat>,
    pub(super) rules: Vec<CRule>,
    /// The same rules as register code, when they are all integers and lists passed on.
    pub(crate) fast: Option<IntCode>,
    /// How its positions lie in a dense row, when the register code moves only among them.
    pub(crate) row: Option<RowShape>,
    /// Its `split by` and `canonical by` clauses, when it has either (see `split.rs`).
    pub(crate) norm: Option<Norm>,
    /// Its one rule, when it is one that lists options on bit masks.
    pub(crate) mask_rule: Option<MaskRule>,
}

/// A rule whose options are found on bit masks, with the same options in the same order as
/// the rule as written (which still runs for positions these do not read).
#[derive(Clone, Copy)]
pub(crate) enum MaskRule {
    /// Places a domino on a board (see `domino.rs`).
    Domino(Domino),
    /// Removes a vertex and its neighbours from a graph (see `kayles.rs`).
    Kayles(Kayles),
    /// Bites a quadrant off a board (see `bite.rs`).
    Bite(Bite),
}

impl MaskRule {
    /// The mask form of ruleset `rid`'s rules, if they have one: one parameter, one rule, and
    /// its clauses the built-ins `split by regions(b)` or `components(g)` and
    /// `canonical by canonical(x)`, or no clauses (a bite); `name` is the name of a built-in
    /// by id.
    pub(super) fn of(
        rid: u32,
        params: &[Pat],
        rules: &[CRule],
        norm: Option<&Norm>,
        name: impl Fn(u16) -> &'static str,
    ) -> Option<MaskRule> {
        let ([Pat::Slot(x)], [rule]) = (params, rules) else {
            return None;
        };
        let Some(norm) = norm else {
            return Bite::of(rid, x, rule, false, name).map(MaskRule::Bite);
        };
        // A bite whose boards are the lesser of a board and its transpose.
        if let (None, None, None, Some((c, _)), [Pat::Slot(y)]) = (
            &norm.native,
            &norm.split,
            &norm.hints,
            &norm.canonical,
            norm.params.as_slice(),
        ) {
            return (Bite::is_transpose_min(c, *y, &name))
                .then(|| Bite::of(rid, x, rule, true, &name).map(MaskRule::Bite))
                .flatten();
        }
        let native = norm.native?;
        if !native.canonical {
            return None;
        }
        match native.split? {
            BoardOp::Regions => Domino::of(rid, x, rule, name).map(MaskRule::Domino),
            BoardOp::Components => Kayles::of(rid, x, rule, name).map(MaskRule::Kayles),
            _ => None,
        }
    }
}

impl Compiled {
    /// The argument to key this ruleset's positions by, when not the last (see
    /// [`loony_core::positions::PosTable::set_lead`]): if every move to the ruleset's own
    /// positions passes the last parameter on unchanged (`wv(i, n, s)` moves to
    /// `wv(i - m, n, s)`), the last parameter some move changes. Only where positions are kept
    /// depends on it, never a value.
    pub fn lead(&self) -> Option<usize> {
        let n = self.params.len();
        let mut passed = vec![true; n];
        let mut calls = 0;
        let mut stack: Vec<&COpt> = self.rules.iter().map(|r| &r.option).collect();
        while let Some(o) = stack.pop() {
            match o {
                COpt::Pos { rid, args, .. } if *rid == self.rid && args.len() == n => {
                    calls += 1;
                    for (j, a) in args.iter().enumerate() {
                        let same = matches!((a, &self.params[j]), (CExpr::Slot(x), Pat::Slot(y)) if x == y);
                        passed[j] &= same;
                    }
                }
                COpt::Sum(parts) => stack.extend(parts),
                _ => {}
            }
        }
        if calls == 0 || n < 2 || !passed[n - 1] {
            return None;
        }
        (0..n - 1).rev().find(|&j| !passed[j])
    }
}
