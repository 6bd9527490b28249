//! The built-ins' rows: The outcome class constants `P`, `N`, `L`, `R`, `D`: each is its value.

use super::row::{Builtin, Impl, ROWS, Rows};
use crate::value::Outcome;
use linkme::distributed_slice;

#[distributed_slice(ROWS)]
static OUTCOMES: Rows = Rows {
    section: "Outcome classes",
    order: 30,
    rows: &[
        Builtin {
            name: "P",
            imp: Impl::Constant(Outcome::P),
            signature: "P",
            arity: (0, 0),
            doc: "The outcome class of games the previous player wins (the player to move loses).",
            example: "outcome(0) == P",
            result: "true",
            record: None,
        },
        Builtin {
            name: "N",
            imp: Impl::Constant(Outcome::N),
            signature: "N",
            arity: (0, 0),
            doc: "The outcome class of games the next player (the one to move) wins.",
            example: "outcome(*) == N",
            result: "true",
            record: None,
        },
        Builtin {
            name: "L",
            imp: Impl::Constant(Outcome::L),
            signature: "L",
            arity: (0, 0),
            doc: "The outcome class of games Left wins whoever starts (games with `∞`).",
            example: "outcome(∞) == L",
            result: "true",
            record: None,
        },
        Builtin {
            name: "R",
            imp: Impl::Constant(Outcome::R),
            signature: "R",
            arity: (0, 0),
            doc: "The outcome class of games Right wins whoever starts (games with `∞̄`).",
            example: "outcome(∞̄) == R",
            result: "true",
            record: None,
        },
        Builtin {
            name: "D",
            imp: Impl::Constant(Outcome::D),
            signature: "D",
            arity: (0, 0),
            doc: "The outcome class of drawn games: with best play the loopy game goes on for ever \
         (a draw), since neither player can force a win.",
            example: "outcome(a{a, * | a, *}) == D",
            result: "true",
            record: None,
        },
    ],
};
