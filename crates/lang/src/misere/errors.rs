//! The misère family's diagnostics: the engine's errors, and the games that have no misère
//! canonical form (entailing, or whose positions repeat), as `Error`s.

use crate::error::EvalError;
use loony_core::diag::{CoreError, Error};
use loony_core::game::display::{self, Notation};
use loony_core::game::{GameId, Node, Store};
use loony_theory::TheoryError;
use loony_theory::misere::{Mid, MisereError, MisereStore};

/// A game as CGSuite prints it, for error messages (a placeholder if it is too long).
fn name(games: &mut MisereStore, g: Mid) -> String {
    games
        .to_cgsuite(g)
        .unwrap_or_else(|_| format!("(a misère game of birthday {})", games.birthday(g)))
}

pub(super) fn engine_error(games: &mut MisereStore, e: MisereError) -> Error {
    Error::new(match e {
        MisereError::Interrupted => return Error::new(CoreError::Interrupted),
        MisereError::TooLarge { what, size, limit } => {
            TheoryError::MisereTooLarge { what, size, limit }
        }
        MisereError::NotSubtractable(g, h) => TheoryError::MisereNotSubtractable {
            g: name(games, g),
            h: name(games, h),
        },
        MisereError::NotLinked(g, h) => TheoryError::MisereNotLinked {
            g: name(games, g),
            h: name(games, h),
        },
        MisereError::Identical(g) => TheoryError::MisereIdentical {
            game: name(games, g),
        },
        MisereError::Parse { message, at } => TheoryError::MisereNotation {
            text: String::new(),
            message,
            at,
        },
        MisereError::Budget(limit) => TheoryError::MisereBudget { limit },
    })
}

/// A game with entailing moves, which has no misère canonical form.
pub(super) fn entailing(store: &Store, g: GameId) -> Error {
    Error::new(TheoryError::MisereEntailing {
        form: display::form(store, g, Notation::default()),
    })
    .about(g)
}

/// A game whose positions repeat, which has no misère canonical form.
pub(super) fn cycle_error(store: &Store, members: &[GameId]) -> Error {
    let nt = Notation::default();
    let again = members
        .iter()
        .copied()
        .find(|&g| matches!(store.node(g), Node::Position { .. } | Node::Labelled(_)))
        .unwrap_or(members[0]);
    Error::new(EvalError::NotApplicable {
        function: "misère play".into(),
        form: display::form(store, again, nt),
        reason: format!(
            "its positions repeat (`{}` can be reached from itself): misère canonical forms are \
             for games that end",
            display::form(store, again, nt)
        ),
    })
    .about(again)
}
