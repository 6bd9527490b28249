//! Loony: a language, interpreter and REPL for impartial combinatorial games.
//!
//! syntax → eval (lowering to the game store) → game (hash-consed forms) → theory (value
//! engines) → front ends (cli, repl).

pub mod diag;
pub mod eval;
pub mod figure;
pub mod game;
pub mod graph;
pub mod memory;
pub mod repl;
pub mod syntax;
pub mod theory;
