//! The session's side of the context: limits and interruption, statements and the
//! globals they bind, name lookup, and the errors about names, arity and depth.

use crate::cx::Cx;
use crate::error::{EvalError, Nesting};
use crate::value::Value;
use crate::{catalog, value};
use loony_core::diag::{self, CoreError, Diagnose, Error, FileId};
use loony_core::game::{GameId, Store};
use loony_core::positions::PosTable;
use loony_syntax::ast::*;
use std::rc::Rc;
use std::sync::atomic::Ordering;

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
    pub(crate) fn stopped(&self, store: &mut Store, e: Error) -> Error {
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

    pub(crate) fn exec(
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
                let h = &def.hints;
                if let (None, Some(e)) = (
                    &def.split,
                    h.bound.iter().chain(&h.order).chain(&h.value).next(),
                ) {
                    return Err(self
                        .err(
                            EvalError::BadHint {
                                ruleset: def.name.name.to_string(),
                                detail: "is a hint to pruned search, which values the rulesets \
                                         that declare `split by`"
                                    .into(),
                            },
                            &e.span,
                        )
                        .with_note(
                            "add `split by` (a list of the position's parts), or drop the hint",
                        ));
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

    pub(crate) fn lookup(&self, name: &str) -> Option<Value> {
        for (n, v) in self.scope.locals[self.scope.frame..].iter().rev() {
            if &**n == name {
                return Some(v.clone());
            }
        }
        if let Some(v) = self.globals.get(name) {
            return Some(v.clone());
        }
        catalog::lookup(name)
    }

    pub(crate) fn unknown_name(&self, name: &str, span: &Span) -> Error {
        let locals = self.scope.locals[self.scope.frame..]
            .iter()
            .map(|(n, _)| &**n);
        let globals = self.globals.keys().map(String::as_str);
        let builtins = catalog::BUILTINS.iter().map(|b| -> &str { b.name });
        let candidates = locals.chain(globals).chain(builtins);
        self.err(EvalError::unknown_name(name, candidates), span)
    }

    /// The stack (or the call bound) ran out here: inside a `fn`, a recursion too deep or
    /// without end; otherwise an expression nested too deep.
    pub(crate) fn too_deep(&self, span: &Span) -> Error {
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

    pub(crate) fn arity_error(
        &self,
        name: &str,
        arity: (usize, usize),
        found: usize,
        usage: Option<String>,
        span: &Span,
    ) -> Error {
        self.err(EvalError::arity(name, arity, found, usage), span)
    }

    /// The first source location a form was written at, for errors about that form.
    pub(crate) fn span_of(&self, g: GameId) -> Option<diag::Loc> {
        self.form_spans.get(&g).cloned()
    }
}
