//! Evaluation: programs are run statement by statement; expressions become values, and game
//! expressions become nodes of the hash-consed store. Ruleset positions are not explored here,
//! only named; the engines explore them on demand through [`Cx`]'s `loony_graph::Source`
//! implementation.

pub mod bits;
pub mod boards;
pub mod builtins;
pub mod catalog;
pub mod compile;
pub mod error;
mod family;
pub mod figure;
mod games;
pub mod heaps;
pub mod html;
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
mod shadow;
pub mod show;
mod split;
pub(crate) mod stack;
mod values;

use crate::error::{
    EvalError, HeapSizeError, LiteralError, Nesting, Operation, TooLarge, TypeError,
};
use loony_core::diag::{self, CoreError, Diagnose, Error, FileId, Files, guard};
use loony_core::game::display::Notation;
use loony_core::game::{Arg, GameId, Store};
use loony_core::positions::PosTable;
use loony_core::value;
pub use loony_core::value::{Outcome, Value};
use loony_graph::GraphError;
use loony_syntax::ast::*;
use rustc_hash::FxHashMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
                Ok(Some(shown))
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

impl Cx {
    pub fn interrupted(&self) -> bool {
        self.limits.interrupt.load(Ordering::Relaxed)
    }

    /// Show progress bars for long heap computations (when a terminal is watching stderr, or
    /// through [`progress::draw_to`]).
    pub fn set_progress(&mut self, on: bool) {
        self.engines.heaps.progress = on;
    }

    /// Quotient records hold their multiplication table up to this order (1 000 unless a
    /// host sets it); a larger one is made when `q.table` is read.
    pub fn set_table_in_record(&mut self, order: usize) {
        self.engines.quotients.table_in_record = Some(order);
    }

    /// A statement stopped by a full table of the store reports that, whatever it failed
    /// with afterwards; an interruption raised by the memory budget (see
    /// [`loony_core::memory`]) says so.
    fn stopped(&self, store: &mut Store, e: Error) -> Error {
        if let Err(full) = store.check_full() {
            return Error::from(full);
        }
        match loony_core::memory::passed_while() {
            Some(what) if e.is_interrupted() => {
                let mut e = e;
                e.kind = Box::new(loony_core::memory::exceeded(what));
                e
            }
            _ => e,
        }
    }

    /// Checks, before building it, that something of `bytes` fits in the memory budget.
    pub(crate) fn reserve(&self, bytes: usize, what: &str, span: &Span) -> Result<(), Error> {
        loony_core::memory::reserve(bytes, what).map_err(|e| e.or_at(self.scope.file, span.clone()))
    }

    /// Checks `n` values of a list to be built.
    pub(crate) fn reserve_values(&self, n: usize, what: &str, span: &Span) -> Result<(), Error> {
        self.reserve(n.saturating_mul(std::mem::size_of::<Value>()), what, span)
    }

    pub(crate) fn err(&self, kind: impl Diagnose, span: &Span) -> Error {
        Error::at(kind, self.scope.file, span.clone())
    }

    fn exec(
        &mut self,
        store: &mut Store,
        stmt: &Stmt,
        file: FileId,
    ) -> Result<Option<Value>, Error> {
        match stmt {
            Stmt::Let { name, value, .. } => {
                let v = self.eval(store, value)?;
                // Nothing built on a full table's stand-ins is bound.
                store.check_full()?;
                self.defining(name);
                if let Value::Heap(h) = v {
                    // Positions of a named heap game print with its name: `dk(3) + dk(5)`.
                    store.name_heap(h, &name.name);
                }
                self.globals.insert(name.name.to_string(), v);
                Ok(None)
            }
            Stmt::Fn(def) => {
                self.defining(&def.name);
                let c = value::Closure {
                    def: def.clone(),
                    file,
                };
                self.globals
                    .insert(def.name.name.to_string(), Value::Func(Rc::new(c)));
                Ok(None)
            }
            Stmt::Ruleset(def) => {
                // A position's key counts its words in one byte.
                if let Some(p) = def.params.get(PosTable::MOST_ARGS) {
                    return Err(self
                        .err(
                            CoreError::Capacity {
                                what: "parameters of one ruleset".into(),
                                limit: PosTable::MOST_ARGS.to_string(),
                            },
                            &p.span(),
                        )
                        .with_note("pass some of them together, as one tuple or list"));
                }
                self.defining(&def.name);
                let id = store.register_ruleset(&def.name.name);
                let r = Rc::new(value::Ruleset {
                    def: def.clone(),
                    file,
                    id,
                });
                self.rules.rulesets.push(r.clone());
                self.globals
                    .insert(def.name.name.to_string(), Value::Ruleset(r));
                // Compiled now, so the names its rules use mean what they mean at its
                // definition: redefining one later does not change games already made.
                // Its positions' layout is fixed too, before any of them is made.
                let c = self.compiled(id);
                if let Some(k) = c.lead() {
                    store.positions.set_lead(id, k);
                }
                if c.fast.is_none() {
                    store.positions.set_lists_in_place(id);
                }
                Ok(None)
            }
            Stmt::Import { path, span } => {
                self.import(store, path, span)?;
                Ok(None)
            }
            Stmt::Expr(e) => Ok(Some(self.eval(store, e)?)),
        }
    }

    fn lookup(&self, name: &str) -> Option<Value> {
        for (n, v) in self.scope.locals[self.scope.frame..].iter().rev() {
            if &**n == name {
                return Some(v.clone());
            }
        }
        if let Some(v) = self.globals.get(name) {
            return Some(v.clone());
        }
        builtins::lookup(name)
    }

    fn unknown_name(&self, name: &str, span: &Span) -> Error {
        let locals = self.scope.locals[self.scope.frame..]
            .iter()
            .map(|(n, _)| &**n);
        let globals = self.globals.keys().map(String::as_str);
        let builtins = catalog::BUILTINS.iter().map(|b| -> &str { b.name });
        let candidates = locals.chain(globals).chain(builtins);
        self.err(EvalError::unknown_name(name, candidates), span)
    }

    pub fn eval(&mut self, store: &mut Store, e: &Expr) -> Result<Value, Error> {
        // Leaves first, outside the large frame of `eval_inner`: they cannot recurse.
        match &e.kind {
            ExprKind::Int(n) => return Ok(Value::Int(*n)),
            ExprKind::Var(name) => {
                if let Some(v) = self.lookup(name) {
                    return Ok(v);
                }
            }
            _ => {}
        }
        self.scope.depth += 1;
        if stack::exhausted() {
            self.scope.depth -= 1;
            return Err(self.too_deep(&e.span));
        }
        self.limits.steps = self.limits.steps.wrapping_add(1);
        if self.limits.steps.is_multiple_of(4096) && self.interrupted() {
            self.scope.depth -= 1;
            return Err(self.err(CoreError::Interrupted, &e.span));
        }
        let r = self.eval_inner(store, e);
        self.scope.depth -= 1;
        r
    }

    #[inline(never)]
    fn eval_inner(&mut self, store: &mut Store, e: &Expr) -> Result<Value, Error> {
        Ok(match &e.kind {
            ExprKind::Int(n) => Value::Int(*n),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::NoneValue => Value::None,
            ExprKind::Str(s) => Value::Str(Rc::new(s.as_str().into())),
            ExprKind::Var(name) => match self.lookup(name) {
                Some(v) => v,
                None => return Err(self.unknown_name(name, &e.span)),
            },
            ExprKind::Terminal(t) => Value::Game(match t {
                Terminal::LeftWin => store.left_win(),
                Terminal::RightWin => store.right_win(),
                Terminal::Moon => {
                    let (l, r) = (store.left_win(), store.right_win());
                    store.form(&[l], &[r])
                }
                Terminal::SpecialMoon => {
                    return Err(self.err(
                        EvalError::BadLiteral(LiteralError::MoonWithoutNumber),
                        &e.span,
                    ));
                }
            }),
            ExprKind::Labelled { name, left, right } => {
                Value::Game(self.labelled(store, name, left, right, &e.span)?)
            }
            ExprKind::Nimber(None) => Value::Game(store.nimber(1)),
            ExprKind::Nimber(Some(inner)) => {
                let v = self.eval(store, inner)?;
                match v {
                    Value::Int(n) if (0..=u32::MAX as i64 - 2).contains(&n) => {
                        Value::Game(store.nimber(n as u32))
                    }
                    // `*[…]`: CGSuite's misère literal.
                    Value::List(items) => return misere::literal(self, store, &items, &inner.span),
                    Value::Int(n) => return Err(self.err(not_a_nimber(n), &e.span)),
                    other => {
                        return Err(self.err(
                            EvalError::cannot(Operation::Nimber, other.type_name()),
                            &inner.span,
                        ));
                    }
                }
            }
            ExprKind::Form { left, right } => {
                let l = self.game_list(store, left)?;
                let r = self.game_list(store, right)?;
                let g = store.form(&l, &r);
                self.form_spans.entry(g).or_insert_with(|| diag::Loc {
                    file: self.scope.file,
                    span: e.span.clone(),
                });
                Value::Game(g)
            }
            ExprKind::List(items) => {
                if let Some(v) = self.literal_list(e, items) {
                    return Ok(Value::List(v));
                }
                let mut v = Vec::with_capacity(items.len());
                for it in items {
                    v.push(self.eval(store, it)?);
                }
                Value::List(Rc::new(v))
            }
            ExprKind::Tuple(items) => {
                let mut v = Vec::with_capacity(items.len());
                for it in items {
                    v.push(self.eval(store, it)?);
                }
                Value::Tuple(Rc::new(v))
            }
            ExprKind::Comprehension { elem, clauses } => {
                let _what = loony_core::memory::building("a list");
                if let Some(v) = self.position_table(store, elem, clauses)? {
                    return Ok(v);
                }
                // Compiled where it pays: names become slots, ruleset calls keys.
                if self.worth_compiling(clauses) {
                    let c = self.comprehension(elem, clauses);
                    return Ok(Value::List(Rc::new(c.run(self, store)?)));
                }
                let mut out = Vec::new();
                let base = self.scope.locals.len();
                let r = self.clauses(store, clauses, &mut |cx, store| {
                    out.push(cx.eval(store, elem)?);
                    Ok(())
                });
                self.scope.locals.truncate(base);
                r?;
                Value::List(Rc::new(out))
            }
            ExprKind::Range { lo, hi, inclusive } => {
                let (a, b) = self.range_bounds(store, lo, hi, *inclusive)?;
                let len = (b as i128 - a as i128).max(0);
                let len = usize::try_from(len).unwrap_or(usize::MAX);
                self.reserve_values(len, "the list of a range", &e.span)?;
                let mut v = Vec::with_capacity(len);
                for (i, x) in (a..b).enumerate() {
                    if i % 65536 == 65535 && self.interrupted() {
                        return Err(self.err(CoreError::Interrupted, &e.span));
                    }
                    v.push(Value::Int(x));
                }
                Value::List(Rc::new(v))
            }
            ExprKind::Neg(inner) => {
                let v = self.eval(store, inner)?;
                self.negate(store, v, &e.span, &inner.span)?
            }
            ExprKind::Not(inner) => {
                let b = self.bool(store, inner)?;
                Value::Bool(!b)
            }
            ExprKind::Binary {
                op: op @ (BinOp::Add | BinOp::Sub),
                lhs,
                rhs,
            } if is_sum_chain(lhs) => self.sum_chain(store, *op, lhs, rhs)?,
            ExprKind::Binary { op, lhs, rhs } => self.binary(store, *op, lhs, rhs, &e.span)?,
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                if self.bool(store, cond)? {
                    self.eval(store, then)?
                } else {
                    self.eval(store, otherwise)?
                }
            }
            ExprKind::Let { name, value, body } => {
                let v = self.eval(store, value)?;
                self.scope.locals.push((name.name.clone(), v));
                let r = self.eval(store, body);
                self.scope.locals.pop();
                r?
            }
            ExprKind::Call { callee, args } => {
                if let ExprKind::Terminal(t) = &callee.kind {
                    return self.value_literal(store, *t, args, &e.span, &callee.span);
                }
                let f = match &callee.kind {
                    ExprKind::Field { target, name } => {
                        let t = self.eval(store, target)?;
                        // A record's own functions (`q.is_p(x)`): not fields, so a field of
                        // the same name would win.
                        if let Value::Record(r) = &t
                            && !r.fields.iter().any(|(n, _)| *n == &*name.name)
                        {
                            let mut vals = Vec::with_capacity(args.len());
                            for a in args {
                                vals.push(self.eval(store, a)?);
                            }
                            let spans: Vec<Span> = args.iter().map(|a| a.span.clone()).collect();
                            if let Some(v) = self.method(&t, &name.name, &vals, &spans, &e.span) {
                                return v;
                            }
                        }
                        self.field(&t, name, &target.span)?
                    }
                    _ => self.eval(store, callee)?,
                };
                // A ruleset position (`[r(n, s, i) for i in …]`): its arguments in a reused
                // buffer, interned, with no list of its own.
                if let Value::Ruleset(r) = &f
                    && r.def.params.len() == args.len()
                {
                    let mut vals = std::mem::take(&mut self.scope.arg_buf);
                    vals.clear();
                    for a in args {
                        match self.eval(store, a) {
                            Ok(v) => vals.push(v),
                            Err(e) => {
                                vals.clear();
                                self.scope.arg_buf = vals;
                                return Err(e);
                            }
                        }
                    }
                    let v = self.position_of(store, r, &mut vals, args, &e.span, callee);
                    vals.clear();
                    self.scope.arg_buf = vals;
                    return v;
                }
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(store, a)?);
                }
                self.call(store, f, vals, args, &e.span, callee)?
            }
            ExprKind::Field { target, name } => {
                let v = self.eval(store, target)?;
                self.field(&v, name, &target.span)?
            }
            ExprKind::Index { target, index } => {
                let v = self.eval(store, target)?;
                // `xs[a..b]` slices.
                if let ExprKind::Range { lo, hi, inclusive } = &index.kind {
                    let (a, b) = self.range_bounds(store, lo, hi, *inclusive)?;
                    return self.slice(&v, a, b, &target.span, &index.span);
                }
                if let Value::Board(b) = &v {
                    let at = self.eval(store, index)?;
                    return self.board_cell(b, &at, &index.span);
                }
                let i = self.int(store, index)?;
                self.index(&v, i, &target.span, &index.span)?
            }
        })
    }

    /// `b[(r, c)]` (or `b[i]`): a board's cell, as a one-character string.
    pub(crate) fn board_cell(
        &self,
        b: &loony_core::board::Board,
        at: &Value,
        span: &Span,
    ) -> Result<Value, Error> {
        let i = boards::cell(b, at).map_err(|detail| {
            self.err(
                EvalError::Board {
                    detail,
                    label: "not a cell of the board",
                },
                span,
            )
        })?;
        let c = b.get(i);
        Ok(Value::Str(Rc::new(
            std::str::from_utf8(&[c]).expect("cells are ASCII").into(),
        )))
    }

    fn range_bounds(
        &mut self,
        store: &mut Store,
        lo: &Expr,
        hi: &Expr,
        inclusive: bool,
    ) -> Result<(i64, i64), Error> {
        let a = self.int(store, lo)?;
        let b = self.int(store, hi)?;
        let b = if inclusive {
            b.checked_add(1)
                .ok_or_else(|| self.err(EvalError::Overflow { op: "..=".into() }, &hi.span))?
        } else {
            b
        };
        Ok((a, b))
    }

    pub(crate) fn int(&mut self, store: &mut Store, e: &Expr) -> Result<i64, Error> {
        match self.eval(store, e)? {
            Value::Int(n) => Ok(n),
            other => Err(self.err(
                EvalError::expected("an integer", other.type_name()),
                &e.span,
            )),
        }
    }

    fn bool(&mut self, store: &mut Store, e: &Expr) -> Result<bool, Error> {
        match self.eval(store, e)? {
            Value::Bool(b) => Ok(b),
            other => Err(self.err(EvalError::expected("a boolean", other.type_name()), &e.span)),
        }
    }

    fn game_list(&mut self, store: &mut Store, items: &[Expr]) -> Result<Vec<GameId>, Error> {
        let mut out = Vec::with_capacity(items.len());
        for it in items {
            let v = self.eval(store, it)?;
            out.push(self.as_game(store, &v, &it.span)?);
        }
        Ok(out)
    }

    /// `a + b - c + …` (left-nested `+`/`-`): the operands are walked without recursion and a
    /// run of games becomes one sum, rather than a store sum for every prefix (a chain of n
    /// terms would otherwise hold n²/2 parts). Otherwise it means what folding `+` means.
    fn sum_chain(
        &mut self,
        store: &mut Store,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
    ) -> Result<Value, Error> {
        let mut terms = vec![(op, rhs)];
        let mut first = lhs;
        while let ExprKind::Binary {
            op: o @ (BinOp::Add | BinOp::Sub),
            lhs: l,
            rhs: r,
        } = &first.kind
        {
            terms.push((*o, r));
            first = l;
        }
        terms.reverse();
        let start = first.span.start;
        let mut acc = self.eval(store, first)?;
        let mut acc_span = first.span.clone();
        // Parts of the sum being gathered (`acc` stands for their sum when not empty).
        let mut parts: Vec<GameId> = Vec::new();
        for (op, rhs) in terms {
            let v = self.eval(store, rhs)?;
            let span = start..rhs.span.end;
            // While parts are gathered, `acc` is a placeholder 0 (a game).
            let ints =
                parts.is_empty() && matches!(acc, Value::Int(_)) && matches!(v, Value::Int(_));
            if !ints && family::is_gamey(&acc) && family::is_gamey(&v) {
                if parts.is_empty() {
                    parts.push(self.as_game(store, &acc, &acc_span)?);
                }
                let mut g = self.as_game(store, &v, &rhs.span)?;
                if op == BinOp::Sub {
                    g = store
                        .conjugate(g)
                        .map_err(|x| Error::from(x).or_at(self.scope.file, rhs.span.clone()))?;
                }
                parts.push(g);
                acc = Value::Int(0);
            } else {
                if !parts.is_empty() {
                    acc = self.flush_sum(store, &mut parts, &acc_span)?;
                }
                acc = self.binary_values(store, op, acc, v, (&acc_span, &rhs.span), &span)?;
            }
            acc_span = span;
        }
        if !parts.is_empty() {
            acc = self.flush_sum(store, &mut parts, &acc_span)?;
        }
        Ok(acc)
    }

    fn flush_sum(
        &mut self,
        store: &mut Store,
        parts: &mut Vec<GameId>,
        span: &Span,
    ) -> Result<Value, Error> {
        let s = store
            .sum(parts)
            .map_err(|x| Error::from(x).or_at(self.scope.file, span.clone()))?;
        parts.clear();
        Ok(Value::Game(s))
    }

    fn binary(
        &mut self,
        store: &mut Store,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
        span: &Span,
    ) -> Result<Value, Error> {
        if matches!(op, BinOp::And | BinOp::Or) {
            let a = self.bool(store, lhs)?;
            if (op == BinOp::And && !a) || (op == BinOp::Or && a) {
                return Ok(Value::Bool(a));
            }
            return Ok(Value::Bool(self.bool(store, rhs)?));
        }
        let a = self.eval(store, lhs)?;
        let b = self.eval(store, rhs)?;
        self.binary_values(store, op, a, b, (&lhs.span, &rhs.span), span)
    }

    /// Runs `for`/`if` clauses, calling `body` once per binding that passes every guard.
    pub(crate) fn clauses(
        &mut self,
        store: &mut Store,
        clauses: &[Clause],
        body: &mut dyn FnMut(&mut Cx, &mut Store) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let Some((first, rest)) = clauses.split_first() else {
            return body(self, store);
        };
        match first {
            Clause::If(cond) => {
                if self.bool(store, cond)? {
                    self.clauses(store, rest, body)?;
                }
            }
            Clause::For { pat, iter } => {
                if let ExprKind::Range { lo, hi, inclusive } = &iter.kind {
                    // Ranges are walked without building a list.
                    let (a, b) = self.range_bounds(store, lo, hi, *inclusive)?;
                    for i in a..b {
                        if i % 1024 == 0 && self.interrupted() {
                            return Err(self.err(CoreError::Interrupted, &iter.span));
                        }
                        let base = self.scope.locals.len();
                        self.bind(pat, Value::Int(i))?;
                        let r = self.clauses(store, rest, body);
                        self.scope.locals.truncate(base);
                        r?;
                    }
                    return Ok(());
                }
                let v = self.eval(store, iter)?;
                let items = self.items_of(v, &iter.span)?;
                for i in 0..items.len() {
                    if i % 1024 == 1023 && self.interrupted() {
                        return Err(self.err(CoreError::Interrupted, &iter.span));
                    }
                    let base = self.scope.locals.len();
                    self.bind(pat, items.get(i))?;
                    let r = self.clauses(store, rest, body);
                    self.scope.locals.truncate(base);
                    r?;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn bind(&mut self, pat: &Pattern, v: Value) -> Result<(), Error> {
        match pat {
            Pattern::Name(id) => {
                self.scope.locals.push((id.name.clone(), v));
                Ok(())
            }
            Pattern::Tuple(ps, span) => {
                let items = match &v {
                    Value::Tuple(xs) | Value::List(xs) if xs.len() == ps.len() => xs.clone(),
                    other => {
                        return Err(self.err(
                            EvalError::Type(TypeError::Unpack {
                                found: other.type_name(),
                                names: ps.len(),
                            }),
                            span,
                        ));
                    }
                };
                for (p, x) in ps.iter().zip(items.iter()) {
                    self.bind(p, x.clone())?;
                }
                Ok(())
            }
        }
    }

    /// How many items `v[i]` and `v[a..b]` index: a list's, a tuple's, or a nim-sequence's from
    /// heap 0.
    fn indexable_len(&self, v: &Value, target: &Span) -> Result<usize, Error> {
        match v {
            Value::List(xs) | Value::Tuple(xs) => Ok(xs.len()),
            Value::Sequence(s) if s.start == 0 => Ok(s.values.len()),
            other => Err(self.err(
                EvalError::cannot(Operation::Index, other.type_name()),
                target,
            )),
        }
    }

    /// `v[i]`: an item of a list or tuple, or a value of a nim-sequence from heap 0, read in
    /// place (a sequence is never turned into a list to be indexed).
    pub(crate) fn index(
        &self,
        v: &Value,
        i: i64,
        target: &Span,
        at: &Span,
    ) -> Result<Value, Error> {
        let len = self.indexable_len(v, target)?;
        if i < 0 || i as usize >= len {
            return Err(self.err(EvalError::IndexOutOfRange { index: i, len }, at));
        }
        Ok(match v {
            Value::List(xs) | Value::Tuple(xs) => xs[i as usize].clone(),
            Value::Sequence(s) => Value::Int(i64::from(s.values.get(i as usize))),
            _ => unreachable!("refused above"),
        })
    }

    /// `v[a..b]`: the items `a` to `b - 1` of a list or tuple (a list), or of a nim-sequence
    /// from heap 0 (a nim-sequence of those heaps, still packed).
    pub(crate) fn slice(
        &self,
        v: &Value,
        a: i64,
        b: i64,
        target: &Span,
        at: &Span,
    ) -> Result<Value, Error> {
        let len = self.indexable_len(v, target)?;
        for bound in [a, b] {
            if bound < 0 || bound as usize > len {
                return Err(self.err(EvalError::IndexOutOfRange { index: bound, len }, at));
            }
        }
        let (a, b) = (a as usize, (b as usize).max(a as usize));
        Ok(match v {
            Value::List(xs) | Value::Tuple(xs) => Value::List(Rc::new(xs[a..b].to_vec())),
            Value::Sequence(s) => Value::Sequence(Rc::new(loony_core::value::Sequence {
                start: a as u64,
                values: s.values.slice(a..b),
                of: s.of.clone(),
            })),
            _ => unreachable!("refused above"),
        })
    }

    /// What a `for` clause walks: a list's or tuple's items, or a nim-sequence's
    /// `(heap, value)` pairs, made one at a time.
    pub(crate) fn items_of(&self, v: Value, span: &Span) -> Result<Items, Error> {
        Ok(match v {
            Value::List(xs) | Value::Tuple(xs) => Items::Values(xs),
            Value::Sequence(s) => Items::Sequence(s),
            other => {
                return Err(self.err(
                    EvalError::cannot(Operation::Iterate, other.type_name()),
                    span,
                ));
            }
        })
    }

    /// A user `fn` or ruleset called with the wrong number of arguments: the error shows
    /// its signature.
    fn check_params(
        &self,
        name: &str,
        params: &[loony_syntax::ast::Pattern],
        given: usize,
        span: &Span,
    ) -> Result<(), Error> {
        if params.len() == given {
            return Ok(());
        }
        let n = params.len();
        let usage = show::signature(name, params);
        Err(self.arity_error(name, (n, n), given, Some(usage), span))
    }
    pub(crate) fn call(
        &mut self,
        store: &mut Store,
        f: Value,
        args: Vec<Value>,
        arg_exprs: &[Expr],
        span: &Span,
        callee: &Expr,
    ) -> Result<Value, Error> {
        match f {
            Value::Func(c) => {
                let def = &c.def;
                self.check_params(&def.name.name, &def.params, args.len(), span)?;
                if self.scope.calls >= self.limits.max_calls {
                    let saved = self.scope.calling.replace(def.name.name.clone());
                    let e = self.too_deep(span);
                    self.scope.calling = saved;
                    return Err(e);
                }
                let (saved_frame, saved_file) = (self.scope.frame, self.scope.file);
                let saved_calling = self.scope.calling.replace(def.name.name.clone());
                self.scope.calls += 1;
                let base = self.scope.locals.len();
                self.scope.frame = base;
                let mut r = Ok(());
                for (p, a) in def.params.iter().zip(args) {
                    r = self.bind(p, a);
                    if r.is_err() {
                        break;
                    }
                }
                self.scope.file = c.file;
                let out = r.and_then(|_| self.eval(store, &def.body));
                self.scope.locals.truncate(base);
                self.scope.frame = saved_frame;
                self.scope.file = saved_file;
                self.scope.calls -= 1;
                self.scope.calling = saved_calling;
                out
            }
            Value::Ruleset(r) => {
                let def = &r.def;
                self.check_params(&def.name.name, &def.params, args.len(), span)?;
                if def.split.is_some() || def.canonical.is_some() {
                    return self.normal_game(store, r.id, args).map(Value::Game);
                }
                match store.positions.intern(r.id, &args) {
                    Ok(p) => Ok(Value::Game(store.position(p))),
                    Err(bad) => {
                        // The argument's own diagnostic (it names the offending element).
                        let (v, span) = (&args[bad.0], &arg_exprs[bad.0].span);
                        self.to_arg(v, span)?;
                        Err(self.err(
                            EvalError::Type(TypeError::RulesetArgument {
                                found: v.type_name(),
                            }),
                            span,
                        ))
                    }
                }
            }
            Value::Builtin(id) => {
                builtins::call(self, store, catalog::get(id), args, arg_exprs, span)
            }
            Value::Heap(h) => {
                if args.len() != 1 {
                    return Err(self.arity(store.heap_name(h), 1, args.len(), span));
                }
                match args[0] {
                    Value::Int(n) if n >= 0 => Ok(Value::Game(store.heap(h, n as u64))),
                    ref other => Err(self.err(
                        EvalError::HeapSize(HeapSizeError::NotNonnegative {
                            found: show::describe(other),
                        }),
                        &arg_exprs[0].span,
                    )),
                }
            }
            other => Err(self.err(
                EvalError::cannot(Operation::Call, other.type_name()),
                &callee.span,
            )),
        }
    }

    /// Whether a comprehension is compiled: a statement's own (outside any call, compiled
    /// once per statement), or one whose first clause walks a range of at least
    /// `MIN_TURNS` integers with bounds written as names or integers. Compiling costs about
    /// a microsecond, which a function called often with short loops would pay each time.
    fn worth_compiling(&self, clauses: &[Clause]) -> bool {
        const MIN_TURNS: i64 = 256;
        if self.rules.interpret_comprehensions {
            return false;
        }
        if self.scope.calls == 0 && self.scope.locals.len() == self.scope.frame {
            return true;
        }
        let [
            Clause::For {
                pat: Pattern::Name(_),
                iter,
            },
            ..,
        ] = clauses
        else {
            return false;
        };
        let ExprKind::Range { lo, hi, inclusive } = &iter.kind else {
            return false;
        };
        let bound = |e: &Expr| match &e.kind {
            ExprKind::Int(n) => Some(*n),
            ExprKind::Var(x) => match self.lookup(x) {
                Some(Value::Int(n)) => Some(n),
                _ => None,
            },
            _ => None,
        };
        match (bound(lo), bound(hi)) {
            (Some(a), Some(b)) => {
                (b as i128 - a as i128 + i128::from(*inclusive)) >= MIN_TURNS.into()
            }
            _ => false,
        }
    }

    /// `[r(a, b, i) for i in lo..hi]`, a ruleset's positions along one argument (the table a
    /// user writes to see a game's values): the other arguments are names or literals, looked
    /// up once, and each element is interned straight from the loop's integer. `None` for any
    /// other comprehension, which the general path evaluates.
    fn position_table(
        &mut self,
        store: &mut Store,
        elem: &Expr,
        clauses: &[Clause],
    ) -> Result<Option<Value>, Error> {
        let [
            Clause::For {
                pat: Pattern::Name(var),
                iter,
            },
        ] = clauses
        else {
            return Ok(None);
        };
        let (ExprKind::Range { lo, hi, inclusive }, ExprKind::Call { callee, args }) =
            (&iter.kind, &elem.kind)
        else {
            return Ok(None);
        };
        let ExprKind::Var(name) = &callee.kind else {
            return Ok(None);
        };
        if **name == *var.name {
            return Ok(None);
        }
        let Some(Value::Ruleset(r)) = self.lookup(name) else {
            return Ok(None);
        };
        if r.def.params.len() != args.len() || r.def.split.is_some() || r.def.canonical.is_some() {
            return Ok(None);
        }
        // Each argument: the loop's integer (`None`), or a value that cannot change in the loop.
        let mut fixed: Vec<Option<Value>> = Vec::with_capacity(args.len());
        for a in args.iter() {
            fixed.push(match &a.kind {
                ExprKind::Var(x) if **x == *var.name => None,
                ExprKind::Var(x) => match self.lookup(x) {
                    Some(v) => Some(v),
                    None => return Ok(None),
                },
                ExprKind::Int(n) => Some(Value::Int(*n)),
                ExprKind::List(items) => match self.literal_list(a, items) {
                    Some(v) => Some(Value::List(v)),
                    None => return Ok(None),
                },
                _ => return Ok(None),
            });
        }
        let (a, b) = self.range_bounds(store, lo, hi, *inclusive)?;
        // The key of every element, but for the loop's words: made once.
        let mut key = vec![0];
        let mut loop_at = Vec::new();
        for f in &fixed {
            match f {
                Some(v) => {
                    if !store.positions.push_arg(&mut key, r.id, args.len(), v) {
                        return Ok(None);
                    }
                }
                None => {
                    loop_at.push(key.len());
                    key.push(0);
                }
            }
        }
        key[0] = PosTable::header(r.id, key.len() - 1);
        // Grown as the general path grows it, under the memory budget.
        let mut out = Vec::new();
        let mut vals: Vec<Value> = Vec::with_capacity(args.len());
        for k in a..b {
            if k % 1024 == 0 && self.interrupted() {
                return Err(self.err(CoreError::Interrupted, &iter.span));
            }
            if let Some(w) = PosTable::int_word(k) {
                for &at in &loop_at {
                    key[at] = w;
                }
                let p = store.positions.intern_words(&key);
                out.push(Value::Game(store.position(p)));
                continue;
            }
            vals.clear();
            vals.extend(fixed.iter().map(|f| f.clone().unwrap_or(Value::Int(k))));
            out.push(self.position_of(store, &r, &mut vals, args, &elem.span, callee)?);
        }
        Ok(Some(Value::List(Rc::new(out))))
    }

    /// The position `r(vals…)`, its arguments evaluated (and their number checked); values a
    /// position cannot have go to the general call, which says why.
    fn position_of(
        &mut self,
        store: &mut Store,
        r: &Rc<value::Ruleset>,
        vals: &mut Vec<Value>,
        args: &[Expr],
        span: &Span,
        callee: &Expr,
    ) -> Result<Value, Error> {
        let plain = r.def.split.is_none() && r.def.canonical.is_none();
        match store.positions.intern(r.id, vals) {
            Ok(p) if plain => Ok(Value::Game(store.position(p))),
            _ => {
                let vals = std::mem::take(vals);
                self.call(store, Value::Ruleset(r.clone()), vals, args, span, callee)
            }
        }
    }

    /// The value of a list of integer literals, made once per expression (see
    /// `literal_lists`); `None` for any other list.
    fn literal_list(&mut self, e: &Expr, items: &[Expr]) -> Option<Rc<Vec<Value>>> {
        const MOST: usize = 256;
        if items.is_empty() || items.len() > MOST {
            return None;
        }
        let same = |v: &[Value]| {
            v.len() == items.len()
                && v.iter().zip(items).all(|(x, it)| match (x, &it.kind) {
                    (Value::Int(a), ExprKind::Int(b)) => a == b,
                    _ => false,
                })
        };
        let at = e as *const Expr as usize;
        if let Some(v) = self.rules.literal_lists.get(&at)
            && same(v)
        {
            return Some(v.clone());
        }
        let mut v = Vec::with_capacity(items.len());
        for it in items {
            match it.kind {
                ExprKind::Int(n) => v.push(Value::Int(n)),
                _ => return None,
            }
        }
        if self.rules.literal_lists.len() >= 1 << 12 {
            self.rules.literal_lists.clear();
        }
        let v = Rc::new(v);
        self.rules.literal_lists.insert(at, v.clone());
        Some(v)
    }

    /// The stack (or the call bound) ran out here: inside a `fn`, a recursion too deep or
    /// without end; otherwise an expression nested too deep.
    fn too_deep(&self, span: &Span) -> Error {
        let kind = match &self.scope.calling {
            Some(f) => EvalError::Recursion {
                function: f.to_string(),
                calls: self.scope.calls,
                limit: self.limits.max_calls,
            },
            // Rules asking about positions nest their explorations.
            None if !self.rules.expanding.is_empty() => EvalError::TooDeep {
                what: Nesting::Exploration,
                limit: self.rules.expanding.len(),
            },
            None => EvalError::TooDeep {
                what: Nesting::Expression,
                limit: self.scope.depth,
            },
        };
        self.err(kind, span)
    }

    pub(crate) fn arity(&self, name: &str, expected: usize, found: usize, span: &Span) -> Error {
        self.arity_error(name, (expected, expected), found, None, span)
    }

    /// Wrong arity for a built-in: the expected count and the signature from the catalog.
    pub(crate) fn builtin_arity(&self, b: &catalog::Builtin, found: usize, span: &Span) -> Error {
        self.arity_error(b.name, b.arity, found, Some(b.signature.to_string()), span)
    }

    fn arity_error(
        &self,
        name: &str,
        arity: (usize, usize),
        found: usize,
        usage: Option<String>,
        span: &Span,
    ) -> Error {
        self.err(EvalError::arity(name, arity, found, usage), span)
    }

    fn to_arg(&self, v: &Value, span: &Span) -> Result<Arg, Error> {
        Ok(match v {
            Value::Int(n) => Arg::Int(*n),
            Value::Tuple(xs) | Value::List(xs) => {
                let mut out = Vec::with_capacity(xs.len());
                for x in xs.iter() {
                    out.push(self.to_arg(x, span)?);
                }
                if matches!(v, Value::Tuple(_)) {
                    Arg::Tuple(out.into())
                } else {
                    Arg::List(out.into())
                }
            }
            other => {
                return Err(self.err(
                    EvalError::Type(TypeError::RulesetArgument {
                        found: other.type_name(),
                    }),
                    span,
                ));
            }
        })
    }

    /// The first source location a form was written at, for errors about that form.
    pub(crate) fn span_of(&self, g: GameId) -> Option<diag::Loc> {
        self.form_spans.get(&g).cloned()
    }
}

impl Cx {
    /// `name{L | R}`: a fresh node whose options may mention it through `name`.
    fn labelled(
        &mut self,
        store: &mut Store,
        name: &Ident,
        left: &[Expr],
        right: &[Expr],
        span: &Span,
    ) -> Result<GameId, Error> {
        if self.scope.labels.iter().any(|l| **l == *name.name) {
            return Err(self.err(
                GraphError::LabelShadows {
                    name: name.name.to_string(),
                },
                &name.span,
            ));
        }
        let node = store.new_label(&name.name);
        self.scope.labels.push(name.name.clone());
        self.scope
            .locals
            .push((name.name.clone(), Value::Game(node)));
        let sides = self
            .game_list(store, left)
            .and_then(|l| Ok((l, self.game_list(store, right)?)));
        self.scope.locals.pop();
        self.scope.labels.pop();
        let (l, r) = sides?;
        let form = store.form(&l, &r);
        store.define_label(node, form);
        if !store.mentions(form, node) {
            return Err(self.err(
                GraphError::LabelUnused {
                    name: name.name.to_string(),
                },
                &name.span,
            ));
        }
        self.form_spans.entry(form).or_insert_with(|| diag::Loc {
            file: self.scope.file,
            span: span.clone(),
        });
        self.form_spans.entry(node).or_insert_with(|| diag::Loc {
            file: self.scope.file,
            span: span.clone(),
        });
        Ok(node)
    }

    /// `∞(a, b, …)` / `inf(…)` (the loopy value ∞(A) as a game), `⟫(n)` / `☾(n)` / `moon(n)`
    /// (the special moon).
    fn value_literal(
        &mut self,
        store: &mut Store,
        t: Terminal,
        args: &[Expr],
        span: &Span,
        head: &Span,
    ) -> Result<Value, Error> {
        let mut values = Vec::new();
        for a in args {
            match self.eval(store, a)? {
                Value::Int(n) => values.push((n, a.span.clone())),
                Value::List(xs) if args.len() == 1 => {
                    for x in xs.iter() {
                        match x {
                            Value::Int(n) => values.push((*n, a.span.clone())),
                            other => {
                                return Err(self.bad_literal(
                                    LiteralError::NotNimValues {
                                        found: other.type_name(),
                                    },
                                    &a.span,
                                ));
                            }
                        }
                    }
                }
                other => {
                    return Err(self.bad_literal(
                        LiteralError::NotIntegers {
                            found: other.type_name(),
                        },
                        &a.span,
                    ));
                }
            }
        }
        for (n, sp) in &values {
            if !(0..=u32::MAX as i64 - 2).contains(n) {
                return Err(self.bad_literal(LiteralError::NoSuchNimValue { n: *n }, sp));
            }
        }
        match t {
            Terminal::LeftWin => {
                let a: Vec<u32> = values.iter().map(|(n, _)| *n as u32).collect();
                Ok(Value::Game(store.loopy(&a)))
            }
            Terminal::Moon | Terminal::SpecialMoon => match values[..] {
                [(n, _)] => Ok(Value::Game(store.special_moon(n as u32))),
                _ => Err(self.bad_literal(
                    LiteralError::MoonArguments {
                        given: values.len(),
                    },
                    span,
                )),
            },
            Terminal::RightWin => Err(self.bad_literal(LiteralError::RightWinArguments, head)),
        }
    }

    fn bad_literal(&self, e: LiteralError, span: &Span) -> Error {
        self.err(EvalError::BadLiteral(e), span)
    }
}

fn is_sum_chain(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Binary {
            op: BinOp::Add | BinOp::Sub,
            ..
        }
    )
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

/// What a `for` clause walks, item by item: a nim-sequence's `(heap, value)` pairs are made as
/// they are reached, not all at once.
pub(crate) enum Items {
    Values(Rc<Vec<Value>>),
    Sequence(Rc<loony_core::value::Sequence>),
}

impl Items {
    pub(crate) fn len(&self) -> usize {
        match self {
            Items::Values(xs) => xs.len(),
            Items::Sequence(s) => s.values.len(),
        }
    }

    pub(crate) fn get(&self, i: usize) -> Value {
        match self {
            Items::Values(xs) => xs[i].clone(),
            Items::Sequence(s) => Value::Tuple(Rc::new(vec![
                Value::Int(s.start as i64 + i as i64),
                Value::Int(i64::from(s.values.get(i))),
            ])),
        }
    }
}
