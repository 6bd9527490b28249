//! Misère canonical forms of games the engine does not own: literal forms, ruleset positions,
//! heaps, sums. The engine does not walk them: the position-graph layer explores the game and
//! lists its positions sinks first (its strongly connected components), and the caller folds
//! that list, giving [`MisereStore::fold`] each node's [`Shape`] with its options' forms
//! already made. Sums are canonicalised part by part and then added (never by walking their
//! product), everything else by constructing the canonical form of its options.

use super::MisereError;
use super::canonical::{Mid, MisereStore};

/// What a node of an impartial game is, as far as misère play cares, with the forms of the
/// nodes it is made of.
pub enum Shape<'a> {
    /// The nim heap `*n`.
    Nim(u64),
    /// A game with these options.
    Options(&'a [Mid]),
    /// A disjunctive sum of these components.
    Sum(&'a [Mid]),
}

impl MisereStore {
    /// The misère canonical form of a node of this shape.
    pub fn fold(&mut self, shape: Shape<'_>) -> Result<Mid, MisereError> {
        match shape {
            Shape::Nim(n) => self.nim(n),
            Shape::Options(opts) => Ok(self.construct(opts)),
            Shape::Sum(parts) => self.sum(parts),
        }
    }
}
