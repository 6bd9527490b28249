//! The interface between the affine engine and a game store.
//!
//! The engine never sees the store's representation: it asks for the shape of
//! a position, its options and a few constructors. Ids are expected to be
//! hash-consed, so that two ids are equal exactly when the forms are equal;
//! symmetry checks compare sets of ids.

use std::fmt::Debug;
use std::hash::Hash;

/// What kind of position an id denotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape<Id> {
    /// `∞`: Left has won.
    LeftWin,
    /// `∞̄`: Right has won.
    RightWin,
    /// A disjunctive sum of at least two components, none of them `∞`/`∞̄`.
    /// Its options (moves in one component) are still listed by
    /// [`AffineGraph::left_options`] / [`AffineGraph::right_options`].
    Sum(Vec<Id>),
    /// A literal form `{ G^L | G^R }` whose options are listed on request.
    Form,
}

/// A game store seen by the affine engine.
///
/// Contract:
/// * options are listed into `out` (which the engine clears first); order is
///   irrelevant, duplicates are allowed;
/// * a move that sends a component of a sum to `∞` (`∞̄`) is listed as the id
///   of `∞` (`∞̄`) itself (axioms: `∞ + X = ∞`);
/// * `conjugate` and `sum` return hash-consed ids;
/// * the graph reachable from any id is finite and acyclic (the engine reports
///   a cycle as an error rather than looping, but a store should not rely on it).
pub trait AffineGraph {
    type Id: Copy + Eq + Hash + Ord + Debug + DenseId;
    /// Failure of the store, e.g. a lazily expanded ruleset that errors.
    type Error;

    fn shape(&mut self, g: Self::Id) -> Result<Shape<Self::Id>, Self::Error>;
    /// Is `g` the infinity `∞` (`left`) or `∞̄`? Asked of every option of every form, so a
    /// store can answer it without listing a sum's parts.
    fn is_win(&mut self, g: Self::Id, left: bool) -> Result<bool, Self::Error> {
        let want = if left {
            Shape::LeftWin
        } else {
            Shape::RightWin
        };
        Ok(self.shape(g)? == want)
    }
    /// If `g` is a sum, appends its parts to `out` and says so (as `shape` would, without a
    /// list of its own).
    fn parts_into(&mut self, g: Self::Id, out: &mut Vec<Self::Id>) -> Result<bool, Self::Error> {
        match self.shape(g)? {
            Shape::Sum(parts) => {
                out.extend(parts);
                Ok(true)
            }
            _ => Ok(false),
        }
    }
    fn left_options(&mut self, g: Self::Id, out: &mut Vec<Self::Id>) -> Result<(), Self::Error>;
    fn right_options(&mut self, g: Self::Id, out: &mut Vec<Self::Id>) -> Result<(), Self::Error>;
    fn conjugate(&mut self, g: Self::Id) -> Result<Self::Id, Self::Error>;
    /// The canonical nimber `*n`.
    fn nimber(&mut self, n: u32) -> Self::Id;
    /// The sum of `parts`; never called with both `∞` and `∞̄` among them.
    fn sum(&mut self, parts: &[Self::Id]) -> Result<Self::Id, Self::Error>;
    /// The value of a quiet position when the caller knows it already (for instance from a
    /// session memo), so the engine need not walk it again.
    fn known_value(&mut self, _g: Self::Id) -> Option<super::AffineValue> {
        None
    }
    /// `W(C)` of a left-check (`protect = true`) or `U(X)` of a right-check, when the caller
    /// remembers it from an earlier query.
    fn known_set(&mut self, _g: Self::Id, _protect: bool) -> Option<super::NimSet> {
        None
    }
    /// Polled during long searches; `true` makes them stop with
    /// [`AffineError::Interrupted`](super::AffineError::Interrupted).
    fn interrupted(&self) -> bool {
        false
    }
}

/// Ids that number their games densely from 0 (a store's or a query's), so the engine keeps
/// its per-game memo in arrays rather than hash maps.
pub trait DenseId {
    fn index(self) -> usize;
}

impl DenseId for u32 {
    fn index(self) -> usize {
        self as usize
    }
}
