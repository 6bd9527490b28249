//! Misère outcomes (§1): the player who cannot move wins. A game is a misère P-position exactly
//! when its misère nim value G⁻ is 0, so the outcome of any game, sums included, is read off
//! its canonical form.

use super::canonical::{Mid, MisereStore};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MisereOutcome {
    /// The previous player (the one who just moved) wins.
    P,
    /// The next player wins.
    N,
}

impl fmt::Display for MisereOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MisereOutcome::P => "P",
            MisereOutcome::N => "N",
        })
    }
}

impl MisereStore {
    pub fn outcome(&self, g: Mid) -> MisereOutcome {
        if self.nim_minus(g) == 0 {
            MisereOutcome::P
        } else {
            MisereOutcome::N
        }
    }
}
