//! Evaluation: programs are run statement by statement; expressions become values, and game
//! expressions become nodes of the hash-consed store. Ruleset positions are not explored here,
//! only named; the engines explore them on demand through [`Cx`]'s `loony_graph::Source`
//! implementation.
//!
//! This file is only the crate root: the modules and what the front ends use. The run loop is
//! [`Interp`] (`interp.rs`), the context every file extends is [`Cx`] (`cx.rs`), and the
//! runtime value is [`Value`] (`value.rs`); no file imports from the root.

mod args;
pub mod bits;
pub mod boards;
pub mod builtins;
mod calls;
pub mod catalog;
pub mod compile;
pub mod cx;
mod dispatch;
pub mod error;
mod eval;
mod family;
pub mod figure;
mod games;
pub mod heaps;
pub mod html;
mod indexing;
mod intcode;
mod interp;
pub mod literal;
pub mod misere;
pub mod modules;
pub mod plot;
pub mod progress;
mod pruned;
pub mod query;
pub mod quotient;
pub mod resolve;
mod row;
pub mod ruleset;
mod sequence_file;
mod sequences;
mod session;
mod shadow;
pub mod shipped;
pub mod show;
mod split;
pub(crate) mod stack;
pub mod value;
mod values;
mod words;

pub use cx::{Cx, DEFAULT_BUDGET, Limits, MAX_CALLS, Output};
pub use interp::{Emit, EmitValues, Interp};
pub use modules::{add_source, syntax_error};
pub use value::{Outcome, Value};
