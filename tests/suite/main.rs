//! The integration tests, one binary: each file a module, each test checked against something
//! independent of the engine under test (a brute force, a peer crate, a table from a seed or
//! CGSuite, a reviewed snapshot). Tests marked `#[ignore]` are the slow tier; `.ci/run` runs
//! them too (`cargo test -- --ignored`).

/// As in the `loony` binary, every allocation is counted, so memory budgets trip here too.
#[global_allocator]
static GLOBAL: loony::memory::Counting = loony::memory::Counting;

mod brute;
mod common;

mod cli;
mod compiled_rulesets;
mod diagnostics;
mod docs;
mod engine;
mod grammar;
mod hints;
mod interrupt;
mod kernel;
mod literature;
mod loopy;
mod lsp;
mod misere;
mod misere_cgsuite;
mod plot;
mod pruned_table;
mod python;
mod quotient;
mod repl;
mod robustness;
mod sequence_files;
mod sweep;
