//! Calls: user functions, ruleset positions (made in place where they can be), built-ins and
//! heap games given a heap.

use crate::cx::Cx;
use crate::error::{EvalError, HeapSizeError, Operation, TypeError};
use crate::value::Value;
use crate::{builtins, catalog, show, value};
use loony_core::diag::{CoreError, Error};
use loony_core::game::{Arg, Store};
use loony_core::positions::PosTable;
use loony_syntax::ast::*;
use std::rc::Rc;

impl Cx {
    /// `callee(args)`: a value literal (`∞(1, 2)`), a record's function (`q.is_p(x)`), a
    /// ruleset position (arguments in a reused buffer, interned with no list of their own), or
    /// a call of the value `callee` is.
    pub(crate) fn call_expr(
        &mut self,
        store: &mut Store,
        e: &Expr,
        callee: &Expr,
        args: &[Expr],
    ) -> Result<Value, Error> {
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
        self.call(store, f, vals, args, &e.span, callee)
    }

    /// The call `e` (`callee(arg_exprs)`) of `f` with the values `vals` already found, as
    /// [`Cx::call_expr`] makes it (a ruleset's position interned in place): for a host that
    /// holds the function and its arguments as values.
    pub(crate) fn call_with(
        &mut self,
        store: &mut Store,
        f: Value,
        mut vals: Vec<Value>,
        e: &Expr,
        callee: &Expr,
        arg_exprs: &[Expr],
    ) -> Result<Value, Error> {
        if let Value::Ruleset(r) = &f
            && r.def.params.len() == vals.len()
        {
            return self.position_of(store, r, &mut vals, arg_exprs, &e.span, callee);
        }
        self.call(store, f, vals, arg_exprs, &e.span, callee)
    }

    /// A user `fn` or ruleset called with the wrong number of arguments: the error shows
    /// its signature.
    pub(crate) fn check_params(
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
    pub(crate) fn worth_compiling(&self, clauses: &[Clause]) -> bool {
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
    pub(crate) fn position_table(
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
    pub(crate) fn position_of(
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

    pub(crate) fn to_arg(&self, v: &Value, span: &Span) -> Result<Arg, Error> {
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
}
