//! Loony's core: what every layer above shares.
//!
//! * [`game`]: the hash-consed store of game forms ([`game::Store`], ids [`game::GameId`]) and
//!   how forms print;
//! * [`positions`] and [`compounds`]: ruleset positions as compact keys, owned by the store,
//!   their arguments seen through [`compounds::ArgValue`] (the interpreter's values implement
//!   it);
//! * [`class`]: the values of games (`*k`, `☾`,
//!   `⟫(n)`, `∞(A)`), Table 1's sum, and outcomes; [`nimset`]: finite and cofinite nimber sets;
//! * [`diag`]: errors and their diagnostics; [`memory`]: the session memory budget.
//!
//! Nothing here names the graph layer, an engine or the interpreter.

pub mod board;
pub mod class;
pub mod compounds;
pub mod diag;
pub mod game;
pub mod graphs;
pub mod json;
pub mod masks;
pub mod memory;
pub mod nimset;
pub mod packed;
pub mod pages;
pub mod positions;
