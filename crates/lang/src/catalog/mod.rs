//! The built-ins, in one table: name, signature, arity, a paragraph of documentation and an
//! example with its result. Dispatch, "did you mean", completion, `:help NAME` and
//! `docs/builtins.md` all read it, so a built-in cannot exist without its documentation, and
//! each row holds its implementation. Each family adds its rows from its own file to the
//! distributed slice [`ROWS`] (`linkme`: the linker gathers them, so this file names no family:
//! naming one, whose file names `Cx`, would close a circle); the table joins them at first use,
//! in the order of their `order` keys.

pub mod boards;
mod outcomes;
mod row;

use crate::value::Value;
pub use boards::BoardOp;
pub use linkme::distributed_slice;
pub use row::{Builtin, Impl, ROWS, RecordShape, Rows, Run};
use std::ops::{Deref, Range};
use std::sync::OnceLock;

impl Builtin {
    /// Whether it only reads plain values (integers, lists, boards, graphs), so compiled rules
    /// call it without the interpreter.
    pub fn on_plain_values(&self) -> bool {
        matches!(self.imp, Impl::Plain(_))
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

/// The families' rows joined, in documentation order: a row's index is its id.
pub struct Table(OnceLock<Joined>);

struct Joined {
    rows: &'static [Builtin],
    /// Each section's heading and the rows under it.
    sections: Vec<(&'static str, Range<usize>)>,
}

impl Table {
    fn joined(&self) -> &Joined {
        self.0.get_or_init(|| {
            let mut parts: Vec<&'static Rows> = ROWS.iter().collect();
            parts.sort_by_key(|p| p.order);
            for w in parts.windows(2) {
                assert!(
                    w[0].order != w[1].order,
                    "the rows of `{}` and `{}` share order {}",
                    w[0].section,
                    w[1].section,
                    w[0].order
                );
            }
            let mut rows = Vec::new();
            let mut sections: Vec<(&'static str, Range<usize>)> = Vec::new();
            for p in parts {
                let start = rows.len();
                rows.extend_from_slice(p.rows);
                match sections.last_mut() {
                    Some((title, r)) if *title == p.section => r.end = rows.len(),
                    _ => sections.push((p.section, start..rows.len())),
                }
            }
            assert!(rows.len() <= usize::from(u16::MAX), "ids are u16");
            // Leaked once: rows live as long as the program, at one address each (their ids).
            Joined {
                rows: Vec::leak(rows),
                sections,
            }
        })
    }

    /// The sections in documentation order: each heading and its rows.
    pub fn sections(&'static self) -> impl Iterator<Item = (&'static str, &'static [Builtin])> {
        let j = self.joined();
        j.sections.iter().map(|(t, r)| (*t, &j.rows[r.clone()]))
    }
}

impl Deref for Table {
    type Target = [Builtin];
    fn deref(&self) -> &[Builtin] {
        self.joined().rows
    }
}

impl IntoIterator for &'static Table {
    type Item = &'static Builtin;
    type IntoIter = std::slice::Iter<'static, Builtin>;
    fn into_iter(self) -> Self::IntoIter {
        self.joined().rows.iter()
    }
}

static TABLE: Table = Table(OnceLock::new());

/// The table. A static, not a const: a row has one address, from which its id is read.
pub static BUILTINS: &Table = &TABLE;

/// The entry for a built-in name.
pub fn find(name: &str) -> Option<&'static Builtin> {
    // Every global name a program reads that it did not define lands here (`outcome`, `D`
    // in a loop's body), so the table is indexed once rather than scanned each time.
    static INDEX: OnceLock<rustc_hash::FxHashMap<&'static str, u16>> = OnceLock::new();
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
    for (section, rows) in BUILTINS.sections() {
        let _ = write!(md, "\n## {section}\n");
        for b in rows {
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
