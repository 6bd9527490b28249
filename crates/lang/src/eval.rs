//! Evaluation of expressions: [`Cx::eval`] and what it dispatches to (operators go to the
//! value families, [`crate::family`]; calls to `calls.rs`).

use crate::cx::Cx;
use crate::error::not_a_nimber;
use crate::error::{EvalError, LiteralError, Operation, TypeError};
use crate::value::Value;
use crate::{boards, family, misere, stack};
use loony_core::diag::{self, CoreError, Error};
use loony_core::game::{GameId, Store};
use loony_graph::GraphError;
use loony_syntax::ast::*;
use std::rc::Rc;

impl Cx {
    /// `{1, 5, 3}`: the sorted set of the items, each once; a game inside is most likely a
    /// form missing its bar, and the diagnostic says so.
    fn set_literal(&mut self, store: &mut Store, items: &[Expr]) -> Result<Value, Error> {
        let mut v = Vec::with_capacity(items.len());
        for it in items {
            match self.eval(store, it)? {
                Value::Int(n) => v.push(n),
                other => {
                    let game = matches!(other, Value::Game(_));
                    let found = other.type_name();
                    let e = LiteralError::SetItem { found, game };
                    return Err(self.bad_literal(e, &it.span));
                }
            }
        }
        v.sort_unstable();
        v.dedup();
        Ok(Value::List(Rc::new(
            v.into_iter().map(Value::Int).collect(),
        )))
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
    pub(crate) fn eval_inner(&mut self, store: &mut Store, e: &Expr) -> Result<Value, Error> {
        Ok(match &e.kind {
            ExprKind::Int(n) => Value::Int(*n),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::NoneValue => Value::None,
            ExprKind::Str(s) => Value::Str(Rc::new(s.as_str().into())),
            ExprKind::Var(name) => match self.lookup(name) {
                Some(v) => v,
                None => return Err(self.unknown_name(name, &e.span)),
            },
            ExprKind::Terminal(t) => self.terminal(store, t, &e.span)?,
            ExprKind::Labelled { name, left, right } => {
                Value::Game(self.labelled(store, name, left, right, &e.span)?)
            }
            ExprKind::Nimber(None) => Value::Game(store.nimber(1)),
            ExprKind::Nimber(Some(inner)) => self.nimber(store, inner, &e.span)?,
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
            ExprKind::Set(items) => self.set_literal(store, items)?,
            ExprKind::Tuple(items) => {
                let mut v = Vec::with_capacity(items.len());
                for it in items {
                    v.push(self.eval(store, it)?);
                }
                Value::Tuple(Rc::new(v))
            }
            ExprKind::Comprehension { elem, clauses } => {
                self.comprehension_value(store, elem, clauses)?
            }
            ExprKind::Range { lo, hi, inclusive } => {
                self.range_list(store, (lo, hi, inclusive), &e.span)?
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
            ExprKind::Call { callee, args } => self.call_expr(store, e, callee, args)?,
            ExprKind::Field { target, name } => {
                let v = self.eval(store, target)?;
                self.field(&v, name, &target.span)?
            }
            ExprKind::Index { target, index } => self.index_expr(store, target, index)?,
        })
    }

    /// `∞`, `∞̄` and `☾` alone: the loopy games.
    fn terminal(&self, store: &mut Store, t: &Terminal, span: &Span) -> Result<Value, Error> {
        Ok(Value::Game(match t {
            Terminal::LeftWin => store.left_win(),
            Terminal::RightWin => store.right_win(),
            Terminal::Moon => {
                let (l, r) = (store.left_win(), store.right_win());
                store.form(&[l], &[r])
            }
            Terminal::SpecialMoon => {
                return Err(self.err(EvalError::BadLiteral(LiteralError::MoonWithoutNumber), span));
            }
        }))
    }

    /// `*n`, or `*[…]` (CGSuite's misère literal).
    fn nimber(&mut self, store: &mut Store, inner: &Expr, span: &Span) -> Result<Value, Error> {
        let v = self.eval(store, inner)?;
        match v {
            Value::Int(n) if (0..=u32::MAX as i64 - 2).contains(&n) => {
                Ok(Value::Game(store.nimber(n as u32)))
            }
            // `*[…]`: CGSuite's misère literal.
            Value::List(items) => misere::literal(self, store, &items, &inner.span),
            Value::Int(n) => Err(self.err(not_a_nimber(n), span)),
            other => Err(self.err(
                EvalError::cannot(Operation::Nimber, other.type_name()),
                &inner.span,
            )),
        }
    }

    /// `[elem for … if …]`: a ruleset's table of positions, compiled code, or the
    /// interpreter's walk.
    fn comprehension_value(
        &mut self,
        store: &mut Store,
        elem: &Expr,
        clauses: &[Clause],
    ) -> Result<Value, Error> {
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
        Ok(Value::List(Rc::new(out)))
    }

    /// `a..b` or `a..=b` as a list.
    fn range_list(
        &mut self,
        store: &mut Store,
        (lo, hi, inclusive): (&Expr, &Expr, &bool),
        span: &Span,
    ) -> Result<Value, Error> {
        let (a, b) = self.range_bounds(store, lo, hi, *inclusive)?;
        let len = (b as i128 - a as i128).max(0);
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        self.reserve_values(len, "the list of a range", span)?;
        let mut v = Vec::with_capacity(len);
        for (i, x) in (a..b).enumerate() {
            if i % 65536 == 65535 && self.interrupted() {
                return Err(self.err(CoreError::Interrupted, span));
            }
            v.push(Value::Int(x));
        }
        Ok(Value::List(Rc::new(v)))
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

    pub(crate) fn range_bounds(
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

    pub(crate) fn bool(&mut self, store: &mut Store, e: &Expr) -> Result<bool, Error> {
        match self.eval(store, e)? {
            Value::Bool(b) => Ok(b),
            other => Err(self.err(EvalError::expected("a boolean", other.type_name()), &e.span)),
        }
    }

    pub(crate) fn game_list(
        &mut self,
        store: &mut Store,
        items: &[Expr],
    ) -> Result<Vec<GameId>, Error> {
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
    pub(crate) fn sum_chain(
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

    pub(crate) fn flush_sum(
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

    pub(crate) fn binary(
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

    /// The value of a list of integer literals, made once per expression (see
    /// `literal_lists`); `None` for any other list.
    pub(crate) fn literal_list(&mut self, e: &Expr, items: &[Expr]) -> Option<Rc<Vec<Value>>> {
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

    /// `name{L | R}`: a fresh node whose options may mention it through `name`.
    pub(crate) fn labelled(
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
    pub(crate) fn value_literal(
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

    pub(crate) fn bad_literal(&self, e: LiteralError, span: &Span) -> Error {
        self.err(EvalError::BadLiteral(e), span)
    }
}

pub(crate) fn is_sum_chain(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Binary {
            op: BinOp::Add | BinOp::Sub,
            ..
        }
    )
}
