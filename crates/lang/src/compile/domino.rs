//! A rule that places a domino, as `std/cram` writes Cram:
//!
//! ```text
//! ruleset r(b) split by regions(b) canonical by canonical(b) {
//!   for (p, q) in adjacent_pairs(b, ".") => r(set(b, [p, q], "#"))
//! }
//! ```
//!
//! Its options are the same, found on bit masks: the free cells of a board of one kind of free
//! cell (at most 128 cells) are a mask, a domino clears two bits, and the regions of what is
//! left are looked up by their boxes (`Cx::region_part`), with no board, list or tuple made
//! between. The interpreter did the same work at five times the cost an option. Any other
//! board (two kinds of free cell, more cells) runs the rule as written.

use super::norm::Norm;
use super::tree::{CClause, CExpr, COpt, CRule, Pat};
use crate::catalog::Builtin;
use crate::cx::Cx;
use crate::value::Value;
use loony_core::board::{BLOCKED, Board};
use loony_core::game::Store;
use loony_graph::options::{Atom, OptBuf, OptRec};

/// A ruleset whose one rule places a domino on two adjacent cells of kind `free`, covering
/// them with `#`, and whose positions split into canonical regions.
#[derive(Clone, Copy)]
pub(crate) struct Domino {
    free: u8,
}

impl Domino {
    /// The rule of ruleset `rid` as a domino rule, if it is one; `builtin` names a built-in
    /// by id.
    pub(crate) fn of(
        rid: u32,
        params: &[Pat],
        rules: &[CRule],
        norm: Option<&Norm>,
        builtin: impl Fn(u16) -> &'static Builtin,
    ) -> Option<Domino> {
        let native = norm?.native?;
        let splits = native.split == Some(crate::catalog::boards::BoardOp::Regions);
        let ([Pat::Slot(b)], [rule], true, true) = (params, rules, splits, native.canonical) else {
            return None;
        };
        let [
            CClause::Each {
                pat: Pat::Tuple(pq, _),
                iter: CExpr::Builtin(pairs, pairs_args, ..),
                ..
            },
        ] = rule.clauses.as_slice()
        else {
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
        let names = builtin(*pairs).name == "adjacent_pairs" && builtin(*set).name == "set";
        (shape && names && cell(fill)? == BLOCKED && free != BLOCKED).then_some(Domino { free })
    }

    /// Lists the options of the position `b` of ruleset `rid` into `out`, as the rule would
    /// (same options, same order); `false` when `b` is not a board this form reads (then
    /// nothing is listed and the rule runs as written).
    pub(crate) fn expand(
        self,
        cx: &mut Cx,
        store: &mut Store,
        rid: u32,
        rule: &CRule,
        b: &Board,
        out: &mut OptBuf,
    ) -> bool {
        let Some((kind, free)) = b.free_of_one_kind() else {
            return false;
        };
        if kind != self.free {
            return false;
        }
        let (n, cols) = (b.cells().len(), b.cols());
        let mut option = |cx: &mut Cx, store: &mut Store, i: usize, j: usize| {
            let start = out.atoms.len() as u32;
            let left = free & !(1 << i | 1 << j);
            for mask in b.regions_of_free(left) {
                let part = cx.region_part(store, rid, b, kind, mask);
                out.atoms.push(Atom::Pos(part));
            }
            out.opts.push(OptRec {
                kind: rule.kind,
                start,
                len: out.atoms.len() as u32 - start,
            });
        };
        // The order of `adjacent_pairs`: by first cell in reading order, across then down.
        for i in (0..n).filter(|&i| free >> i & 1 == 1) {
            if i % cols + 1 < cols && free >> (i + 1) & 1 == 1 {
                option(cx, store, i, i + 1);
            }
            if i + cols < n && free >> (i + cols) & 1 == 1 {
                option(cx, store, i, i + cols);
            }
        }
        true
    }
}

/// The cell a one-character string constant stands for.
fn cell(e: &CExpr) -> Option<u8> {
    match e {
        CExpr::Const(Value::Str(s))
            if s.len() == 1 && loony_core::board::is_cell(s.as_bytes()[0]) =>
        {
            Some(s.as_bytes()[0])
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::interp::Interp;

    /// Which rulesets of `src` have the domino form, in order.
    fn dominoes(src: &str) -> Vec<bool> {
        let mut interp = Interp::new();
        interp.run("domino.cgt", src, &mut |_| {}).expect("defines");
        let ids: Vec<u32> = interp.cx.rules.rulesets.iter().map(|r| r.id).collect();
        ids.into_iter()
            .map(|id| interp.cx.compiled(id).domino.is_some())
            .collect()
    }

    /// Only the rule as `std/cram` writes it (any free kind, any names) has the form: a
    /// clause more, another fill, no split or no canonical, a second rule, a move to another
    /// ruleset, the pair swapped in its pattern, or a board passed unchanged do not.
    #[test]
    fn only_the_domino_rule_has_the_form() {
        let head =
            |name: &str| format!("ruleset {name}(b) split by regions(b) canonical by canonical(b)");
        let src = [
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") => a(set(b, [p, q], \"#\")) }}", head("a")),
            format!("{} {{ for (x, y) in adjacent_pairs(b, \"o\") => c(set(b, [x, y], \"#\")) }}", head("c")),
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") if true => d(set(b, [p, q], \"#\")) }}", head("d")),
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") => e(set(b, [p, q], \"x\")) }}", head("e")),
            "ruleset f(b) split by regions(b) { for (p, q) in adjacent_pairs(b, \".\") => f(set(b, [p, q], \"#\")) }".to_string(),
            "ruleset g(b) canonical by canonical(b) { for (p, q) in adjacent_pairs(b, \".\") => g(set(b, [p, q], \"#\")) }".to_string(),
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") => h(set(b, [p, q], \"#\"))\n for (p, q) in adjacent_pairs(b, \".\") => h(set(b, [p, q], \"#\")) }}", head("h")),
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") => a(set(b, [p, q], \"#\")) }}", head("i")),
            format!("{} {{ for (q, p) in adjacent_pairs(b, \".\") => j(set(b, [p, q], \"#\")) }}", head("j")),
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") => k(b) }}", head("k")),
        ]
        .join("\n");
        assert_eq!(
            dominoes(&src),
            [
                true, true, false, false, false, false, false, false, false, false
            ]
        );
    }
}
