//! Syntax: the logos lexer, the LALRPOP grammar and the syntax tree, behind one facade
//! ([`parse_program`]). Nothing outside this crate sees lalrpop types; the REPL's
//! completer reads the token type [`lexer::Tok`] (a logos lexer) to find where a name starts.

pub mod ast;
pub mod lexer;
mod parse;

pub use parse::{ParseError, closing, parse_program};
