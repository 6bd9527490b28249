//! Evaluation: programs are run statement by statement; expressions become values, and game
//! expressions become nodes of the hash-consed store. Ruleset positions are not explored here,
//! only named; the engines explore them on demand through [`Cx`]'s `loony_graph::Source`
//! implementation.

mod args;
pub mod bits;
pub mod boards;
pub mod builtins;
mod calls;
pub mod catalog;
pub mod compile;
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

use crate::error::{EvalError, TooLarge, TypeError};
use loony_core::diag::{self, Error, FileId, Files, guard};
use loony_core::game::display::Notation;
use loony_core::game::{GameId, Store};
use loony_syntax::ast::*;
use rustc_hash::FxHashMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
pub use value::{Outcome, Value};

/// Nested `fn` calls allowed at once (the default of `Cx::max_calls`). The evaluator recurses
/// on the native stack, and the stack left (`stack::exhausted`) bounds every nesting; this
/// bound counts calls, so that a recursion without end stops at a number that does not
/// depend on the stack, while a linear recursion (`f(1000000)` calling `f(n - 1)`, about
/// 1.2 KiB of stack a call) fits in the binary's 4 GiB stack.
pub const MAX_CALLS: usize = 2_000_000;

/// Default number of ruleset positions one query may explore.
pub const DEFAULT_BUDGET: usize = 5_000_000;

/// The interpreter: the game store plus everything else ([`Cx`]).
pub struct Interp {
    pub store: Store,
    pub cx: Cx,
    /// Off a terminal, says now and then that a long statement is still running.
    watch: progress::Watch,
}

/// The evaluation context, separate from the store so that engines can hold `&mut Store` while
/// asking the context to expand ruleset positions. Its state is kept by concern: the limits of
/// a query, the frames of the code being run, the ruleset runtime, the module loader and the
/// output options; engine caches are the engines' own ([`builtins::Engines`]).
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
    pub(crate) engines: builtins::Engines,
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
}

/// The ruleset runtime: definitions, their compiled rules, and the scratch the rules reuse.
#[derive(Default)]
pub(crate) struct Rules {
    pub(crate) rulesets: Vec<Rc<value::Ruleset>>,
    /// Compiled rulesets, by ruleset id (compiled at their definition).
    pub(crate) compiled: Vec<Option<Rc<compile::Compiled>>>,
    /// Positions whose options are being listed right now (outermost first).
    pub(crate) expanding: Vec<loony_core::positions::PosId>,
    /// The entries of `expanding` past its first few (see `ruleset::SHALLOW`).
    pub(crate) expanding_deep: rustc_hash::FxHashSet<loony_core::positions::PosId>,
    /// Scratch for the key of a position made by compiled code.
    pub(crate) key_buf: Vec<u32>,
    /// Scratch for the parts of a position of a ruleset with a `split by` clause.
    pub(crate) parts_buf: Vec<loony_core::positions::PosId>,
    /// Canonical forms of the parts met so far (see `split::Canonical`).
    pub(crate) canonical: split::Canonical,
    /// Spare frames (and argument lists) for compiled rules, reused from expansion to
    /// expansion.
    pub(crate) frames: Vec<Vec<Value>>,
    /// Lists written as integer literals (`[1, 3, 4]`), by the address of their expression:
    /// one value each, so a loop passing one to a ruleset neither allocates it again nor has
    /// it hashed again as a position's argument. An entry is used only if its integers are
    /// the expression's (an address can be reused by a later line's syntax tree).
    pub(crate) literal_lists: FxHashMap<usize, Rc<Vec<Value>>>,
    /// Registers of the rules' register code (reused from position to position).
    pub(crate) int_regs: intcode::Regs,
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
    pub figures: Option<Vec<plot::Figure>>,
    /// `Some` when the front end shows HTML (the notebook kernel): each shown result adds
    /// its HTML ([`html::html`]; `None` for a value without one), in the order the results
    /// are emitted. `None`: no HTML is made.
    pub html: Option<Vec<Option<String>>>,
}

impl Default for Interp {
    fn default() -> Self {
        Self::new()
    }
}

impl Interp {
    /// Whether comprehensions may be compiled (on by default). Off, the interpreter evaluates
    /// them all: the same values and diagnostics, more slowly; tests compare the two.
    pub fn set_compile_comprehensions(&mut self, on: bool) {
        self.cx.rules.interpret_comprehensions = !on;
    }

    pub fn new() -> Self {
        loony_core::memory::keep_freed();
        let interrupt = Arc::new(AtomicBool::new(false));
        let mut store = Store::new();
        // A full table of the store stops the statement as Ctrl-C would.
        store.set_stop_flag(interrupt.clone());
        // Positions' compound arguments are kept as values (a list read back is the list).
        store.positions.hold::<Value>();
        Interp {
            store,
            cx: Cx {
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
                engines: builtins::Engines::default(),
            },
            watch: progress::Watch::default(),
        }
    }

    /// Runs a program; `emit` receives the printed result of each expression statement as soon
    /// as it is known, so results printed before an error stay printed.
    pub fn run(
        &mut self,
        name: &str,
        src: &str,
        emit: &mut dyn FnMut(String),
    ) -> Result<(), Error> {
        let src = src.strip_prefix('\u{feff}').unwrap_or(src);
        let file = self.cx.files.add(name.to_string(), src.to_string());
        self.run_file(file, emit)
    }

    /// Adds a source file read as bytes (a script, a `:load` file); see [`add_source`].
    pub fn add_source(&mut self, name: &str, bytes: Vec<u8>) -> Result<FileId, Error> {
        add_source(&mut self.cx.files, name, bytes)
    }

    pub fn run_file(&mut self, file: FileId, emit: &mut dyn FnMut(String)) -> Result<(), Error> {
        self.run_file_echo(file, &mut |_, shown| {
            if let Some(s) = shown {
                emit(s);
            }
            Ok(())
        })
    }

    /// Like [`Interp::run`], but `emit` also gets the source of the statement each result
    /// belongs to (for transcripts that show every input beside its output).
    pub fn run_echo(
        &mut self,
        name: &str,
        src: &str,
        emit: &mut dyn FnMut(&str, String),
    ) -> Result<(), Error> {
        let src = src.strip_prefix('\u{feff}').unwrap_or(src);
        let file = self.cx.files.add(name.to_string(), src.to_string());
        self.run_file_echo(file, &mut |input, shown| {
            if let Some(s) = shown {
                emit(input, s);
            }
            Ok(())
        })
    }

    /// Runs a file added with [`Interp::add_source`], giving `emit` every statement's source
    /// beside its result (`None` for a binding). An error `emit` returns (output that cannot
    /// be written) ends the run with that error.
    pub fn run_file_echo(&mut self, file: FileId, emit: &mut Emit<'_>) -> Result<(), Error> {
        self.run_file_values(file, &mut |input, shown| emit(input, shown.map(|(_, s)| s)))
    }

    /// Like [`Interp::run_file_echo`], but each expression statement's result comes with its
    /// value beside its printed form (for hosts that keep values: the Python package).
    pub fn run_file_values(
        &mut self,
        file: FileId,
        emit: &mut EmitValues<'_>,
    ) -> Result<(), Error> {
        let src = self
            .cx
            .files
            .get(file)
            .map(|f| f.source().clone())
            .unwrap_or_default();
        let program = loony_syntax::parse_program(&src).map_err(|e| syntax_error(e, file))?;
        for stmt in &program.stmts {
            self.cx.limits.interrupt.store(false, Ordering::Relaxed);
            self.cx.limits.explored = 0;
            self.cx.limits.heavy_at_start = self.store.positions.heavy;
            self.cx.scope.file = file;
            self.cx.scope.locals.clear();
            self.cx.scope.frame = 0;
            self.cx.scope.depth = 0;
            self.cx.scope.calls = 0;
            self.cx.scope.calling = None;
            self.cx.scope.labels.clear();
            self.cx.rules.expanding.clear();
            self.cx.rules.expanding_deep.clear();
            let flag = self.cx.limits.interrupt.clone();
            // A terminal shows bars where there are any; off one, a long statement says it is
            // still running (the position of its first line, as diagnostics give it).
            if !self.cx.engines.heaps.progress {
                let at = stmt_span(stmt).start.min(src.len());
                let line = 1 + src.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
                let name = self.cx.files.get(file).map(|f| f.name().clone());
                self.watch
                    .begin(format!("{}:{line}", name.unwrap_or_default()));
            }
            let armed = loony_core::memory::arm(self.cx.limits.memory, &flag);
            // A panic in the statement (a bug) becomes a diagnostic at the statement.
            let shown = guard::catch(|| {
                let Some(v) = self.cx.exec(&mut self.store, stmt, file)? else {
                    return Ok(None);
                };
                // A value built on a full table's stand-ins is never shown.
                self.store.check_full()?;
                let shown = if self.cx.out.json {
                    self.cx.show_json(&mut self.store, &v)
                } else {
                    self.cx.show(&mut self.store, &v)
                };
                self.store.check_full()?;
                let shown = shown?;
                if self.cx.out.html.is_some() {
                    // HTML is an extra: a failure to make it leaves the text alone.
                    let h = html::html(&mut self.cx, &mut self.store, &v).ok().flatten();
                    if let Some(list) = &mut self.cx.out.html {
                        list.push(h);
                    }
                }
                Ok(Some((v, shown)))
            })
            .map_err(|e| {
                self.cx
                    .stopped(&mut self.store, e)
                    .or_at(file, stmt_span(stmt))
            });
            drop(armed);
            self.watch.end();
            if shown.is_err() {
                // What the failed statement built is freed; hand it back to the system, so a
                // REPL session does not keep gigabytes after an error or Ctrl-C.
                loony_core::memory::release_freed();
                stack::release_unused();
            }
            let shown = shown?;
            let input = match stmt {
                Stmt::Expr(e2) => src.get(e2.span.clone()),
                Stmt::Let { span, .. } => src.get(span.clone()),
                _ => src.get(stmt_span(stmt)),
            };
            emit(input.unwrap_or(""), shown)?;
        }
        Ok(())
    }
}

/// Adds source text read as bytes to `files`. A leading byte-order mark is skipped; invalid
/// UTF-8 is an error naming its line and byte (the file is added with the bad bytes replaced,
/// so the diagnostic can show the line).
pub fn add_source(files: &mut Files, name: &str, bytes: Vec<u8>) -> Result<FileId, Error> {
    let bytes = match bytes.strip_prefix("\u{feff}".as_bytes()) {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(src) => Ok(files.add(name.to_string(), src)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let line_start = bytes[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
            // Up to `at` the text is valid, so offsets there are the same in the lossy copy.
            let file = files.add(
                name.to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            );
            Err(Error::at(
                EvalError::InvalidUtf8 {
                    line,
                    byte: at - line_start + 1,
                },
                file,
                at..at + 1,
            ))
        }
    }
}

/// Where a statement is written, for errors that know no better place.
fn stmt_span(stmt: &Stmt) -> Span {
    match stmt {
        Stmt::Let { name, value, .. } => name.span.start..value.span.end,
        Stmt::Fn(def) => def.span.clone(),
        Stmt::Ruleset(def) => def.span.clone(),
        Stmt::Import { span, .. } => span.clone(),
        Stmt::Expr(e) => e.span.clone(),
    }
}

/// `*n` for an `n` outside the nimbers Loony stores: negative (no such nimber) or too large.
pub(crate) fn not_a_nimber(n: i64) -> EvalError {
    if n < 0 {
        EvalError::Type(TypeError::NoSuchNimber { n })
    } else {
        EvalError::ValueTooLarge(TooLarge::Nimber { n })
    }
}

/// Where a run's statements go: each one's source, with its result (`None` for a binding);
/// an `Err` (output that cannot be written) ends the run.
pub type Emit<'a> = dyn FnMut(&str, Option<String>) -> Result<(), Error> + 'a;

/// Where a run's statements go with their values: each one's source, with its result's value
/// and printed form (`None` for a binding).
pub type EmitValues<'a> = dyn FnMut(&str, Option<(Value, String)>) -> Result<(), Error> + 'a;

pub fn syntax_error(e: loony_syntax::ParseError, file: FileId) -> Error {
    use loony_syntax::ParseError as P;
    let span = match &e {
        P::UnexpectedChar { span, .. }
        | P::IntTooLarge { span }
        | P::UnterminatedString { span }
        | P::BadEscape { span, .. }
        | P::UnexpectedToken { span, .. } => span.clone(),
        P::Unclosed { open, .. } => open.clone(),
        P::MissingBar { form, .. } => form.clone(),
        P::UnexpectedEof { at, .. } => *at..*at,
        P::DecimalNumber { span, .. } => span.clone(),
    };
    Error::at(e, file, span)
}

/// Two games' values are equal. Every game of value ☾ among entailing games is ☾ (seed 000),
/// whether or not it is the literal moon; special moons stay apart (they differ beside loopy
/// games, seed 001), as their printed values say.
pub(crate) fn same_value(a: loony_core::class::Class, b: loony_core::class::Class) -> bool {
    let moonlike = |c: loony_core::class::Class| match c {
        loony_core::class::Class::EntailingMoon => loony_core::class::Class::Moon,
        c => c,
    };
    moonlike(a) == moonlike(b)
}
