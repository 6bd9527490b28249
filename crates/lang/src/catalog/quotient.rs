//! The built-ins' rows: Misère quotients (answered in `quotient`).

use super::row::*;

/// `quotient(g)`.
pub static QUOTIENT: RecordShape = RecordShape {
    fields: &[
        "order",
        "p_portion",
        "presentation",
        "period",
        "preperiod",
        "phi",
        "table",
        "elements",
        "certified",
        "certified_at",
        "heap",
        "name",
        "game",
    ],
    methods: &["is_p", "element"],
};

pub(super) const ROWS: [Builtin; 2] = [
    Builtin {
        name: "quotient",
        imp: Impl::Quotient(QuotientOp::Quotient),
        signature: "quotient(g), quotient(g, n)",
        arity: (1, 2),
        doc: "The misère quotient of a heap game (Plambeck–Siegel), computed heap by heap until \
         its periodicity is certified, or the partial quotient `Q_n` of heaps up to `n`. A \
         record with fields `order`, `p_portion`, `presentation`, `period`, `preperiod`, \
         `phi`, `table`, `elements`, `certified`, `certified_at`, `heap`, `name`, `game`. \
         Elements are values, printed as their normal words: `q.phi[n]` is the image of heap \
         `n` (`q.phi[0]` the identity), `x * y` multiplies in the quotient, `q.is_p(x)` says \
         whether `x` is in the P-portion, `q.element(\"ab2\")` reads a word; `q.elements` \
         lists them and `q.table[i][j]` is `q.elements[i] * q.elements[j]` (any order, within the \
         memory budget; above order 1 000 the table is made when `q.table` is read, and the \
         record as a whole shows it as `none`). Elements of two quotients do not mix \
         (E0116). Size limits follow the memory budget (E0404).",
        example: "quotient(heap(\"0.75\")).phi[2] * quotient(heap(\"0.75\")).phi[2]",
        result: "b2",
        record: Some(&QUOTIENT),
    },
    Builtin {
        name: "isomorphic",
        imp: Impl::Quotient(QuotientOp::Isomorphic),
        signature: "isomorphic(q1, q2)",
        arity: (2, 2),
        doc: "Whether two quotients are the same bipartite monoid (one monoid, one P-portion).",
        example: "isomorphic(quotient(heap(\"0.3\")), quotient(heap(\"0.7\")))",
        result: "true",
        record: None,
    },
];
