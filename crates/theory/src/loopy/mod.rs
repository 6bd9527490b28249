//! Loopy impartial games: the generalized Sprague–Grundy function γ (seed 001 §1.2) and the
//! algebra of sums of loopy games with entailing ones (seed 001 §2, Theorem 12, Table 1).

pub mod gamma;
pub mod row;

pub use gamma::{Adjacency, Gamma, INF, Labeller, LoopyView, Outside, gamma, mex_sorted};

#[cfg(test)]
mod tests;
