//! [`Interp`]: the game store and the context [`Cx`], and the run loop: a program is parsed,
//! then run statement by statement, each under the session's limits (interrupt flag, memory
//! budget, a panic caught), its result shown as text, JSON or HTML.

use crate::cx::Cx;
use crate::modules::{add_source, syntax_error};
use crate::value::Value;
use crate::{html, progress, stack};
use loony_core::diag::{Error, FileId, guard};
use loony_core::game::Store;
use loony_syntax::ast::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The interpreter: the game store plus everything else ([`Cx`]).
pub struct Interp {
    pub store: Store,
    pub cx: Cx,
    /// Off a terminal, says now and then that a long statement is still running.
    watch: progress::Watch,
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
            cx: Cx::new(interrupt),
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
        let program = self.parse_file(file)?;
        self.run_program_values(file, &program, emit)
    }

    /// The program written in `file` (a syntax error points into it).
    pub fn parse_file(&self, file: FileId) -> Result<Program, Error> {
        let src = self.cx.files.get(file).map_or("", |f| f.source().as_str());
        loony_syntax::parse_program(src).map_err(|e| syntax_error(e, file))
    }

    /// [`Interp::run_file_values`] with `file` already parsed into `program`: a host that runs
    /// the same short source again and again (the Python package) keeps its parse, which
    /// costs several times what running `f(7)` or `*3 + *5` does.
    pub fn run_program_values(
        &mut self,
        file: FileId,
        program: &Program,
        emit: &mut EmitValues<'_>,
    ) -> Result<(), Error> {
        for stmt in &program.stmts {
            let shown = self.statement(file, stmt_span(stmt), |cx, store| {
                let Some(v) = cx.exec(store, stmt, file)? else {
                    return Ok(None);
                };
                // A value built on a full table's stand-ins is never shown.
                store.check_full()?;
                let shown = if cx.out.json {
                    cx.show_json(store, &v)
                } else {
                    cx.show(store, &v)
                };
                store.check_full()?;
                let shown = shown?;
                if cx.out.html.is_some() {
                    // HTML is an extra: a failure to make it leaves the text alone.
                    let h = html::html(cx, store, &v).ok().flatten();
                    if let Some(list) = &mut cx.out.html {
                        list.push(h);
                    }
                }
                Ok(Some((v, shown)))
            })?;
            let src = self.cx.files.get(file).ok().map(|f| f.source().as_str());
            let input = src.and_then(|src| match stmt {
                Stmt::Expr(e2) => src.get(e2.span.clone()),
                Stmt::Let { span, .. } => src.get(span.clone()),
                _ => src.get(stmt_span(stmt)),
            });
            emit(input.unwrap_or(""), shown)?;
        }
        Ok(())
    }

    /// Calls `f` with `args` as a statement of its own, as the call `site` (written in `file`:
    /// `f(x, y)`, where errors point) would with those values, but with nothing looked up,
    /// parsed or bound: how a host calls a value it holds. The result comes with its printed
    /// form where `shown` asks for it.
    ///
    /// # Panics
    /// If `site` is not a call of as many arguments as `args`.
    pub fn call_value(
        &mut self,
        file: FileId,
        site: &Expr,
        f: Value,
        args: Vec<Value>,
        shown: &dyn Fn(&Value) -> bool,
    ) -> Result<(Value, Option<String>), Error> {
        let ExprKind::Call {
            callee,
            args: arg_exprs,
        } = &site.kind
        else {
            panic!("call_value: the site is not a call");
        };
        assert_eq!(arg_exprs.len(), args.len(), "call_value: arity of the site");
        self.statement(file, site.span.clone(), |cx, store| {
            let v = cx.call_with(store, f, args, site, callee, arg_exprs)?;
            store.check_full()?;
            if !shown(&v) {
                return Ok((v, None));
            }
            let s = cx.show(store, &v);
            store.check_full()?;
            Ok((v, Some(s?)))
        })
    }

    /// Runs `body` as one statement at `span` of `file`: the session's limits reset and
    /// armed (interrupt flag, memory budget), a panic caught as a diagnostic, and what a failed
    /// statement built handed back to the system.
    fn statement<T>(
        &mut self,
        file: FileId,
        span: Span,
        body: impl FnOnce(&mut Cx, &mut Store) -> Result<T, Error>,
    ) -> Result<T, Error> {
        self.cx.limits.interrupt.store(false, Ordering::Relaxed);
        self.cx.limits.explored = 0;
        self.cx.limits.heavy_at_start = self.store.positions.heavy;
        self.cx.scope.file = file;
        self.cx.scope.statement = span.clone();
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
            let place = self.cx.files.get(file).map(|f| {
                let src = f.source().as_bytes();
                let at = span.start.min(src.len());
                let line = 1 + src[..at].iter().filter(|&&b| b == b'\n').count();
                format!("{}:{line}", f.name())
            });
            self.watch.begin(place.unwrap_or_default());
        }
        let armed = loony_core::memory::arm(self.cx.limits.memory, &flag);
        let Interp { store, cx, .. } = self;
        // A panic in the statement (a bug) becomes a diagnostic at the statement.
        let r =
            guard::catch(|| body(cx, store)).map_err(|e| cx.stopped(store, e).or_at(file, span));
        drop(armed);
        self.watch.end();
        if r.is_err() {
            // What the failed statement built is freed; hand it back to the system, so a
            // REPL session does not keep gigabytes after an error or Ctrl-C.
            loony_core::memory::release_freed();
            stack::release_unused();
        }
        r
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

/// Where a run's statements go: each one's source, with its result (`None` for a binding);
/// an `Err` (output that cannot be written) ends the run.
pub type Emit<'a> = dyn FnMut(&str, Option<String>) -> Result<(), Error> + 'a;

/// Where a run's statements go with their values: each one's source, with its result's value
/// and printed form (`None` for a binding).
pub type EmitValues<'a> = dyn FnMut(&str, Option<(Value, String)>) -> Result<(), Error> + 'a;
