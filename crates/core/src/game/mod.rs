//! The game store: hash-consed forms, their moves, and how they print.

pub mod display;
pub mod store;

pub use store::{Arg, GameId, Node, Store};
