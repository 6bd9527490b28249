//! Errors of the affine engine and the outcome search.

use std::fmt;

/// Which side of a form breaks symmetry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Left,
    Right,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AffineError<Id, E> {
    /// The store failed (e.g. a lazily expanded ruleset errored).
    Graph(E),
    /// `form` is a quiet position (or the queried one) that is not symmetric.
    /// `side == Left`: the conjugate of left option `option` is not a right
    /// option. `side == Right`: right option `option` is not the conjugate of
    /// any left option.
    NotSymmetric { form: Id, side: Side, option: Id },
    /// A value was asked of `∞` or `∞̄` itself, which are not affine impartial.
    Infinite { form: Id },
    /// `∞ + ∞̄` is undefined.
    UndefinedSum,
    /// The store returned a cyclic graph; `form` lies on the cycle.
    Cycle { form: Id },
    /// [`AffineGraph::interrupted`](super::AffineGraph::interrupted) returned `true`.
    Interrupted,
}

impl<Id, E> From<E> for AffineError<Id, E> {
    fn from(e: E) -> Self {
        AffineError::Graph(e)
    }
}

impl<Id: fmt::Debug, E: fmt::Display> fmt::Display for AffineError<Id, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AffineError::Graph(e) => write!(f, "{e}"),
            AffineError::NotSymmetric {
                form,
                side: Side::Left,
                option,
            } => write!(
                f,
                "{form:?} is not affine impartial: the conjugate of its left option {option:?} \
                 is not a right option"
            ),
            AffineError::NotSymmetric {
                form,
                side: Side::Right,
                option,
            } => write!(
                f,
                "{form:?} is not affine impartial: its right option {option:?} is not the \
                 conjugate of any left option"
            ),
            AffineError::Infinite { form } => {
                write!(
                    f,
                    "{form:?} is an infinity, which has no affine impartial value"
                )
            }
            AffineError::UndefinedSum => write!(f, "∞ + ∞̄ is undefined"),
            AffineError::Cycle { form } => write!(f, "{form:?} lies on a cycle of moves"),
            AffineError::Interrupted => write!(f, "interrupted"),
        }
    }
}

impl<Id: fmt::Debug, E: fmt::Display + fmt::Debug> std::error::Error for AffineError<Id, E> {}
