//! Loony: a language, interpreter and REPL for impartial combinatorial games.
//!
//! The crates, lowest first (a crate names only those before it): `loony_syntax` (lexer,
//! grammar, syntax tree) → `loony_core` (the game store, classes, diagnostics, the memory
//! budget) → `loony_graph` (the position-graph layer) → `loony_theory` (the value engines) →
//! `loony_lang` (the interpreter and its values) → this crate (the REPL session and its front
//! ends).
//! ARCHITECTURE.md draws the map.
//!
//! The modules re-exported here are the paths the integration tests and benchmarks use.

pub mod kernel;
pub mod lsp;
pub mod repl;
pub mod sweep;

pub use loony_core::{class, compounds, diag, game, memory, nimset, positions};
pub use loony_graph as graph;
pub use loony_lang as eval;
pub use loony_lang::{figure, value};
pub use loony_syntax as syntax;
pub use loony_theory as theory;

/// A subcommand's arguments (`loony NAME ARGS`, without the program name and `NAME`) as its
/// clap parser reads them; on `--help`, `--version` or an error, the text is printed and the
/// exit code to return comes back instead.
pub fn parse_subcommand<C: clap::Parser>(
    name: &str,
    args: Vec<std::ffi::OsString>,
) -> Result<C, std::process::ExitCode> {
    let program = std::ffi::OsString::from(format!("loony {name}"));
    C::try_parse_from(std::iter::once(program).chain(args)).map_err(|e| {
        let _ = e.print();
        if e.use_stderr() {
            std::process::ExitCode::FAILURE
        } else {
            std::process::ExitCode::SUCCESS
        }
    })
}

/// Every diagnostic code Loony gives, with its `--explain` text: each layer's own, lowest
/// layer first.
pub fn codes() -> impl Iterator<Item = &'static diag::Code> {
    diag::codes()
        .chain(loony_graph::error::CODES)
        .chain(loony_theory::error::CODES)
        .chain(loony_lang::error::CODES)
        .chain(repl::error::CODES)
}
