//! The built-ins, in one table: name, signature, arity, a paragraph of documentation and an
//! example with its result. Dispatch, "did you mean", completion, `:help NAME` and
//! `docs/builtins.md` all read it, so a built-in cannot exist without its documentation, and
//! each row names its implementation. The rows are kept by family, one file each (`values`,
//! `boards`, `outcomes`, `heaps`, `misere`, `quotient`, with the family's operation enum and
//! record shapes), and joined here into the one table in documentation order.

mod boards;
mod heaps;
mod misere;
mod outcomes;
mod quotient;
mod row;
mod values;

use crate::value::Value;
pub use heaps::{PERIODICITY, RARE_VALUES, SEQUENCE_FILE};
pub use quotient::QUOTIENT;
pub use row::{BoardOp, Builtin, CoreOp, Family, HeapOp, Impl, MisereOp, QuotientOp, RecordShape};

impl Builtin {
    /// The section of the documentation it belongs to.
    pub fn family(&self) -> Family {
        match self.imp {
            Impl::Constant(_) => Family::Constant,
            Impl::Core(_) => Family::Core,
            Impl::Heaps(_) => Family::Heaps,
            Impl::Misere(_) => Family::Misere,
            Impl::Quotient(_) => Family::Quotient,
            Impl::Boards(_) => Family::Boards,
        }
    }

    /// Whether it only reads plain values (integers and lists), so compiled rules call it
    /// without the interpreter.
    pub fn on_plain_values(&self) -> bool {
        use CoreOp::*;
        matches!(
            self.imp,
            Impl::Core(
                Len | Sum | Mex | Min | Max | Sorted | Reverse | Contains | Remove | Append | Abs
            ) | Impl::Boards(_)
        )
    }

    /// Its index in [`BUILTINS`], which a `Value::Builtin` holds.
    pub fn id(&'static self) -> u16 {
        let offset = (self as *const Builtin as usize).wrapping_sub(BUILTINS.as_ptr() as usize);
        let i = offset / std::mem::size_of::<Builtin>();
        assert!(
            i < BUILTINS.len(),
            "`{}` is not a row of BUILTINS",
            self.name
        );
        i as u16
    }
}

/// The families in the order the documentation shows them.
pub const FAMILIES: [Family; 6] = [
    Family::Core,
    Family::Boards,
    Family::Constant,
    Family::Heaps,
    Family::Misere,
    Family::Quotient,
];

/// The section of the documentation a family belongs to.
pub fn section(f: Family) -> &'static str {
    match f {
        Family::Core => "Values, outcomes and moves",
        Family::Constant => "Outcome classes",
        Family::Heaps => "Heap games",
        Family::Misere => "Misère play",
        Family::Quotient => "Misère quotients",
        Family::Boards => "Bits, sets, boards and graphs",
    }
}

/// How many rows the families hold together.
const ROWS: usize = values::ROWS.len()
    + boards::ROWS.len()
    + outcomes::ROWS.len()
    + heaps::ROWS.len()
    + misere::ROWS.len()
    + quotient::ROWS.len();

/// The families' rows one after another, at compile time.
const fn join(parts: &[&[Builtin]]) -> [Builtin; ROWS] {
    let mut out = [outcomes::ROWS[0]; ROWS];
    let (mut k, mut i) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[k] = parts[i][j];
            (k, j) = (k + 1, j + 1);
        }
        i += 1;
    }
    assert!(k == ROWS);
    out
}

static TABLE: [Builtin; ROWS] = join(&[
    &values::ROWS,
    &boards::ROWS,
    &outcomes::ROWS,
    &heaps::ROWS,
    &misere::ROWS,
    &quotient::ROWS,
]);

// A static, not a const: a row has one address, from which its id is read.
pub static BUILTINS: &[Builtin] = &TABLE;

/// The entry for a built-in name.
pub fn find(name: &str) -> Option<&'static Builtin> {
    // Every global name a program reads that it did not define lands here (`outcome`, `D`
    // in a loop's body), so the table is indexed once rather than scanned each time.
    static INDEX: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, u16>> =
        std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        BUILTINS
            .iter()
            .enumerate()
            .rev()
            .map(|(i, b)| (b.name, i as u16))
            .collect()
    });
    index.get(name).map(|&i| &BUILTINS[usize::from(i)])
}

/// The built-in of this name, from the catalog (the one list of built-ins): an outcome class
/// constant is its value, a function is `Value::Builtin` (its row).
pub fn lookup(name: &str) -> Option<Value> {
    let b = find(name)?;
    Some(match b.imp {
        Impl::Constant(o) => Value::Outcome(o),
        _ => Value::Builtin(b.id()),
    })
}

/// The entry a `Value::Builtin` holds.
pub fn get(id: u16) -> &'static Builtin {
    &BUILTINS[usize::from(id)]
}

/// Every built-in name.
pub fn names() -> impl Iterator<Item = &'static str> {
    BUILTINS.iter().map(|b| b.name)
}

/// `docs/builtins.md`: every built-in by section, then the shipped modules (a test keeps the
/// file equal to this).
pub fn markdown() -> String {
    use std::fmt::Write;
    let mut md = String::from(
        "# Loony built-ins\n\n\
         Generated from the table in `crates/lang/src/catalog/` (`cargo test --test suite docs` checks \
         it; `LOONY_WRITE_DOCS=1 cargo test --test suite docs` rewrites it). In the REPL, \
         `:help NAME` shows one entry. The language itself is described in \
         [language.md](language.md).\n",
    );
    for f in FAMILIES {
        let _ = write!(md, "\n## {}\n", section(f));
        for b in BUILTINS.iter().filter(|b| b.family() == f) {
            let _ = write!(md, "\n### `{}`\n\n{}\n", b.signature, b.doc);
            if !b.example.is_empty() {
                let _ = write!(md, "\n```\n> {}\n{}\n```\n", b.example, b.result);
            }
        }
    }
    md.push_str(
        "\n## Shipped modules\n\n\
         `import \"std/NAME\"` loads one. No shipped module redefines a built-in. A `let`, \
         `fn` or `ruleset` of your own named like a built-in warns (W0001: the built-in is out \
         of reach while the name is bound), and so does a definition that replaces one made \
         elsewhere: your `kayles` after `import \"std/kayles\"`, or an import that replaces \
         your own `kayles` (W0002). Redefining a name in the program or module that defined \
         it is silent.\n",
    );
    for m in crate::shipped::module_docs() {
        let _ = write!(
            md,
            "\n### `{}`\n\n{}\n\nDefines: {}.\n",
            m.path,
            m.summary,
            m.defines
                .iter()
                .map(|d| format!("`{d}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    md
}

/// `:help NAME` for a built-in: signature, documentation, example.
pub fn help(b: &Builtin) -> String {
    let mut s = format!("{}\n  {}", b.signature, b.doc);
    if !b.example.is_empty() {
        s.push_str(&format!("\n  example: {}  →  {}", b.example, b.result));
    }
    s
}
