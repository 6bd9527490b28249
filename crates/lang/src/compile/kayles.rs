//! The Node Kayles rule, as `std/node_kayles` writes it:
//!
//! ```text
//! ruleset r(g) split by components(g) canonical by canonical(g) {
//!   for v in vertices(g) => r(remove_vertices(g, append(neighbours(g, v), v)))
//! }
//! ```
//!
//! Its options are the same, found on bit masks: a position is a set of vertices of a graph
//! met before (`split/subsets.rs`), a move clears a vertex and its neighbours, and the
//! components of what is left are found by a flood fill over neighbour masks and looked up
//! by their masks, with no graph, list or component made between (only for a mask met for
//! the first time). Any graph of more than 128 vertices runs the rule as written.

use super::tree::{CClause, CExpr, COpt, CRule, Pat};
use loony_syntax::ast::OptionKind;

/// A ruleset whose one rule removes a vertex and its neighbours, and whose positions split
/// into canonical components.
#[derive(Clone, Copy)]
pub(crate) struct Kayles {
    /// The kind of option the rule makes.
    pub(crate) kind: OptionKind,
}

impl Kayles {
    /// The one rule `rule` of ruleset `rid`, over the graph in slot `g`, as the Node Kayles
    /// rule, if it is one; `name` is the name of a built-in by id.
    pub(super) fn of(
        rid: u32,
        g: &u16,
        rule: &CRule,
        name: impl Fn(u16) -> &'static str,
    ) -> Option<Kayles> {
        let [
            CClause::Each {
                pat: Pat::Slot(v),
                iter: CExpr::Builtin(vertices, vertices_args, ..),
                ..
            },
        ] = rule.clauses.as_slice()
        else {
            return None;
        };
        let COpt::Pos { rid: to, args, .. } = &rule.option else {
            return None;
        };
        let ([CExpr::Slot(g1)], [CExpr::Builtin(remove, remove_args, ..)]) =
            (vertices_args.as_slice(), args.as_slice())
        else {
            return None;
        };
        let [CExpr::Slot(g2), CExpr::Builtin(append, append_args, ..)] = remove_args.as_slice()
        else {
            return None;
        };
        let [
            CExpr::Builtin(neighbours, neighbours_args, ..),
            CExpr::Slot(v1),
        ] = append_args.as_slice()
        else {
            return None;
        };
        let [CExpr::Slot(g3), CExpr::Slot(v2)] = neighbours_args.as_slice() else {
            return None;
        };
        let shape = *to == rid && [g1, g2, g3] == [g; 3] && [v1, v2] == [v; 2] && v != g;
        let names = [
            (*vertices, "vertices"),
            (*remove, "remove_vertices"),
            (*append, "append"),
            (*neighbours, "neighbours"),
        ]
        .iter()
        .all(|&(id, want)| name(id) == want);
        (shape && names).then_some(Kayles { kind: rule.kind })
    }
}
