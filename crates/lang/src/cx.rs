//! The interpreter's context [`Cx`], apart from the store: the limits of a query, the frames
//! of the code being run, the ruleset runtime, the module loader, the output options and the
//! engines' state. Every family and evaluation file extends `Cx` with its own `impl Cx`
//! block and imports it from here; the crate root only declares the modules and runs
//! programs ([`crate::Interp`]).

use crate::compile::compiled::Compiled;
use crate::figure::Figure;
use crate::intcode::Regs;
use crate::split::canonical::Canonical;
use crate::value::{self, Value};
use loony_core::diag::{self, FileId, Files};
use loony_core::game::GameId;
use loony_core::game::display::Notation;
use rustc_hash::FxHashMap;
use std::any::{Any, TypeId};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Nested `fn` calls allowed at once (the default of `Cx::max_calls`). The evaluator recurses
/// on the native stack, and the stack left (`stack::exhausted`) bounds every nesting; this
/// bound counts calls, so that a recursion without end stops at a number that does not
/// depend on the stack, while a linear recursion (`f(1000000)` calling `f(n - 1)`, about
/// 1.2 KiB of stack a call) fits in the binary's 4 GiB stack.
pub const MAX_CALLS: usize = 2_000_000;

/// Default number of ruleset positions one query may explore.
pub const DEFAULT_BUDGET: usize = 5_000_000;

/// The evaluation context, separate from the store so that engines can hold `&mut Store` while
/// asking the context to expand ruleset positions. Its state is kept by concern: the limits of
/// a query, the frames of the code being run, the ruleset runtime, the module loader and the
/// output options; engine caches are the engines' own ([`Engines`]).
pub struct Cx {
    pub files: Files,
    pub globals: FxHashMap<String, Value>,
    /// Where each form literal was written, for diagnostics about it.
    pub(crate) form_spans: FxHashMap<GameId, diag::Loc>,
    pub limits: Limits,
    pub(crate) scope: Frames,
    pub(crate) rules: Rules,
    pub(crate) loader: Loader,
    pub out: Output,
    pub(crate) engines: Engines,
}

/// The session's engines. Taken out of the context while they run (they call back into it to
/// expand positions), so a nested query gets a fresh engine instead of a borrow conflict.
#[derive(Default)]
pub struct Engines {
    /// Classes of the games valued so far, and the affine engine's memo.
    pub memo: loony_theory::classify::Memo,
    pub heaps: crate::heaps::table::HeapTable,
    /// Top Entails values from the fast path: one resumable run, extended as stacks are asked for.
    pub top_entails: loony_theory::affine::TopEntails,
    /// The state of families that keep their own (the misère store), each by its type.
    pub(crate) slots: Slots,
    pub quotients: crate::quotient::cache::QuotientCache,
    /// Classes of the positions of dense rows, by coordinates.
    pub(crate) rows: crate::row::tables::RowTables,
    /// What pruned search learned about the parts of rulesets that split.
    pub pruned: crate::pruned::state::Pruned,
}

/// The state of value families, one value of each type, made when first asked for: a family
/// keeps its state here by its type, so this file names no family (and no family's state
/// needs a field or a file of its own to stay out of a circle). Meant for state reached once
/// an operation (a scan of a few entries), not once a position: the engines' hot state keeps
/// its fields in [`Engines`].
#[derive(Default)]
pub struct Slots(Vec<(TypeId, Box<dyn Any>)>);

impl Slots {
    /// The state of type `T`, made on first use.
    pub fn get_mut<T: Any + Default>(&mut self) -> &mut T {
        let id = TypeId::of::<T>();
        let i = match self.0.iter().position(|(t, _)| *t == id) {
            Some(i) => i,
            None => {
                self.0.push((id, Box::<T>::default()));
                self.0.len() - 1
            }
        };
        self.0[i]
            .1
            .downcast_mut()
            .expect("a slot holds the type it is keyed by")
    }

    /// The state of type `T`, if it was made.
    pub fn get<T: Any>(&self) -> Option<&T> {
        let id = TypeId::of::<T>();
        let (_, s) = self.0.iter().find(|(t, _)| *t == id)?;
        s.downcast_ref()
    }
}

/// What one query may spend, and how it is stopped.
pub struct Limits {
    pub budget: usize,
    /// The session's memory budget in bytes (see [`loony_core::memory`]).
    pub memory: usize,
    /// Evaluations so far, to poll for Ctrl-C every few thousand.
    pub(crate) steps: u32,
    /// Positions expanded by the current query (statement).
    pub explored: usize,
    /// `positions.heavy` when the statement began (large arguments count toward the budget).
    pub heavy_at_start: usize,
    pub interrupt: Arc<AtomicBool>,
    /// At most this many nested calls ([`MAX_CALLS`]; tests lower it).
    pub max_calls: usize,
}

/// The frames of the code being evaluated: locals, the file its spans point into, nesting.
#[derive(Default)]
pub(crate) struct Frames {
    pub(crate) locals: Vec<(Rc<str>, Value)>,
    pub(crate) frame: usize,
    pub(crate) file: FileId,
    pub(crate) depth: usize,
    /// `fn` calls being evaluated, and the innermost one's name (for a recursion's error).
    pub(crate) calls: usize,
    pub(crate) calling: Option<Rc<str>>,
    /// Arguments of a ruleset call being evaluated (reused from call to call).
    pub(crate) arg_buf: Vec<Value>,
    /// Names of the labelled forms being built (a nested label may not reuse one).
    pub(crate) labels: Vec<Rc<str>>,
    /// The top-level statement being run, in `file` (where a warning of a long run points).
    pub(crate) statement: loony_syntax::ast::Span,
}

/// The ruleset runtime: definitions, their compiled rules, and the scratch the rules reuse.
#[derive(Default)]
pub(crate) struct Rules {
    pub(crate) rulesets: Vec<Rc<value::Ruleset>>,
    /// Compiled rulesets, by ruleset id (compiled at their definition).
    pub(crate) compiled: Vec<Option<Rc<Compiled>>>,
    /// Positions whose options are being listed right now (outermost first).
    pub(crate) expanding: Vec<loony_core::positions::PosId>,
    /// The entries of `expanding` past its first few (see `ruleset::SHALLOW`).
    pub(crate) expanding_deep: rustc_hash::FxHashSet<loony_core::positions::PosId>,
    /// Scratch for the key of a position made by compiled code.
    pub(crate) key_buf: Vec<u32>,
    /// Scratch for the parts of a position of a ruleset with a `split by` clause.
    pub(crate) parts_buf: Vec<loony_core::positions::PosId>,
    /// Canonical forms of the parts met so far (see `split::canonical`).
    pub(crate) canonical: Canonical,
    /// Spare frames (and argument lists) for compiled rules, reused from expansion to
    /// expansion.
    pub(crate) frames: Vec<Vec<Value>>,
    /// Lists written as integer literals (`[1, 3, 4]`), by the address of their expression:
    /// one value each, so a loop passing one to a ruleset neither allocates it again nor has
    /// it hashed again as a position's argument. An entry is used only if its integers are
    /// the expression's (an address can be reused by a later line's syntax tree).
    pub(crate) literal_lists: FxHashMap<usize, Rc<Vec<Value>>>,
    /// Registers of the rules' register code (reused from position to position).
    pub(crate) int_regs: Regs,
    /// Comprehensions left to the interpreter (the reference the compiled ones are tested
    /// against; see [`Interp::set_compile_comprehensions`]).
    pub(crate) interpret_comprehensions: bool,
}

/// The module loader: what is being imported, what was, and where definitions came from.
#[derive(Default)]
pub(crate) struct Loader {
    pub(crate) loading: Vec<String>,
    pub(crate) loaded: Vec<String>,
    /// Where each global was defined: the module that defined it (its import name or file),
    /// or `None` for the program itself; a definition from elsewhere warns.
    pub(crate) origins: FxHashMap<String, Option<Rc<str>>>,
    /// The outermost `import` being run: where a shipped module's warnings point.
    pub(crate) import_site: Option<diag::Loc>,
}

/// How results and warnings are shown.
#[derive(Default)]
pub struct Output {
    pub notation: Notation,
    /// Print statement results as JSON (`--json`).
    pub json: bool,
    /// Warnings not yet shown (the REPL shows them after each input), unless `on_warning`
    /// takes them as they come.
    pub warnings: Vec<diag::Warning>,
    /// Shows a warning as soon as it is found (the `loony FILE` front end: stderr).
    pub on_warning: Option<diag::WarningSink>,
    /// `Some` when the front end shows figures itself (the notebook kernel): a `plot` without
    /// a file name is kept here instead of written to `plot::DEFAULT_FILE`, for the front end
    /// to take after each input. `None` (the CLI and REPL): every plot is a file.
    pub figures: Option<Vec<Figure>>,
    /// `Some` when the front end shows HTML (the notebook kernel): each shown result adds
    /// its HTML ([`crate::html::html`]; `None` for a value without one), in the order the results
    /// are emitted. `None`: no HTML is made.
    pub html: Option<Vec<Option<String>>>,
}

impl Cx {
    /// A fresh context whose statements are stopped by `interrupt` (Ctrl-C, the memory
    /// budget, a full table).
    pub(crate) fn new(interrupt: Arc<AtomicBool>) -> Cx {
        Cx {
            files: Files::new(),
            globals: FxHashMap::default(),
            form_spans: FxHashMap::default(),
            limits: Limits {
                budget: DEFAULT_BUDGET,
                memory: loony_core::memory::default_budget(),
                steps: 0,
                explored: 0,
                heavy_at_start: 0,
                interrupt,
                max_calls: MAX_CALLS,
            },
            scope: Frames::default(),
            rules: Rules::default(),
            loader: Loader::default(),
            out: Output::default(),
            engines: Engines::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Slots;

    #[derive(Default)]
    struct Counter(u32);

    #[derive(Default)]
    struct Name(String);

    /// A slot is made on first use, kept, and one type's slot is not another's.
    #[test]
    fn slots_keep_one_value_of_each_type() {
        let mut slots = Slots::default();
        assert!(slots.get::<Counter>().is_none());
        slots.get_mut::<Counter>().0 += 2;
        slots.get_mut::<Name>().0.push_str("misère");
        slots.get_mut::<Counter>().0 += 1;
        assert_eq!(slots.get::<Counter>().map(|c| c.0), Some(3));
        assert_eq!(slots.get::<Name>().map(|n| n.0.as_str()), Some("misère"));
    }
}
