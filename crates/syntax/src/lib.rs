//! Syntax: the logos lexer, the LALRPOP grammar and the syntax tree, behind one facade
//! ([`parse_program`]). Nothing outside this module sees lalrpop or logos types.

pub mod ast;
pub mod lexer;
mod parse;

pub use parse::{ParseError, closing, parse_program};
