//! Affine impartial games: impartial games with entailing (carry-on) moves.
//!
//! Theory: U. Larsson, R. J. Nowakowski, C. P. Santos, *Impartial games with
//! entailing moves* (2021), as restated by K. Suetsugu (2024). Positions may
//! contain the terminating games `∞` (Left wins) and `∞̄` (Right wins); the
//! values modulo affine impartial are the nimbers and the moon `☾`.
//!
//! * [`graph`]: the interface a game store implements ([`AffineGraph`]);
//! * [`nimset`]: finite or cofinite sets of nim-values ([`NimSet`]);
//! * [`value`]: the affine minimum-excluded rule ([`AffineEngine`]);
//! * [`outcome`]: exact outcomes by search from the axioms ([`OutcomeSearch`]);
//! * [`top_entails`]: the Theorem-41 fast path for Top Entails.
//!
//! This module only uses `std`, so it can be mounted anywhere.

pub mod error;
pub mod graph;
mod hash;
pub use loony_core::nimset;
pub mod outcome;
pub mod top_entails;
pub mod value;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod toy;

pub use error::{AffineError, Side};
pub use graph::{AffineGraph, DenseId, Shape};
pub use nimset::NimSet;
pub use outcome::{Outcome, OutcomeSearch};
pub use top_entails::{
    Stop, TopEntails, TopEntailsRow, top_entails_moons, top_entails_rows, top_entails_values,
    top_entails_with,
};
pub use value::{AffineEngine, AffineValue, Explanation, Rule};
