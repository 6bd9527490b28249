//! What a row of the table is: a built-in's name, implementation, signature, arity,
//! documentation and example; and [`Rows`], one family's rows as that family registers them.

use crate::args::Args;
use crate::cx::Cx;
use crate::value::{Outcome, Value};
use linkme::distributed_slice;
use loony_core::diag::Error;
use loony_core::game::Store;

/// A built-in function: the arguments are counted already (`builtins::call`).
pub type Run = fn(&mut Cx, &mut Store, Args<'_>) -> Result<Value, Error>;

/// What a built-in runs. A row holds its function itself, so a row without an implementation
/// does not compile.
#[derive(Clone, Copy, Debug)]
pub enum Impl {
    /// An outcome class constant: the name is its value.
    Constant(Outcome),
    /// A function of any values.
    Function(Run),
    /// A function that reads only plain values (integers, lists, boards, graphs), so compiled
    /// rules call it in place, with no interpreted code between.
    Plain(Run),
}

/// One built-in: one row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    pub name: &'static str,
    /// What it runs.
    pub imp: Impl,
    /// How it is called, as `:help` shows it.
    pub signature: &'static str,
    /// Fewest and most arguments.
    pub arity: (usize, usize),
    /// What it computes, in a paragraph.
    pub doc: &'static str,
    /// A call and what Loony prints for it (checked by the tests; empty for side effects).
    pub example: &'static str,
    pub result: &'static str,
    /// The shape of the record it returns; `None` when it returns no record.
    pub record: Option<&'static RecordShape>,
}

/// One family's rows, as its own file adds them to the table:
/// `#[distributed_slice(crate::catalog::ROWS)] static ROWS: Rows = Rows { … };`. The table
/// shows them by `order`, then in the order written; families sharing a `section` share its
/// heading in `docs/builtins.md` and `:help`.
#[derive(Debug)]
pub struct Rows {
    /// The heading of the documentation section they belong to.
    pub section: &'static str,
    /// Where they stand in the table (and the documentation); no two families share one.
    pub order: u16,
    pub rows: &'static [Builtin],
}

/// Every family's rows, wherever they are written (here so that `outcomes.rs`, a child of the
/// table's file, names no parent).
#[distributed_slice]
pub static ROWS: [Rows];

/// What a record returned by a built-in holds: its fields, in order, and the functions it
/// answers (`q.is_p(x)`). Completion after `q.` offers them; a test checks them against the
/// records the built-ins make.
#[derive(Debug, PartialEq, Eq)]
pub struct RecordShape {
    pub fields: &'static [&'static str],
    pub methods: &'static [&'static str],
}
