//! Rulesets compiled once into a tree of resolved operations.
//!
//! A ruleset is compiled when it is defined (so the names its rules use mean what they meant
//! there, and its positions' layout is fixed before any exists): parameters,
//! loop variables and `let` names become slots of a frame (no name lookup), integer arithmetic
//! and comparisons run on unboxed integers, ruleset calls in option position become compact
//! position keys ([`loony_core::positions`]) without making store nodes, and sums of them
//! are emitted as lists of parts. Names resolve at compile time to rulesets, built-ins or
//! global values; anything else (user functions, forms, comprehensions…) is evaluated by the
//! interpreter with the frame's names bound, so every program keeps its meaning and its
//! diagnostics.

use super::{Cx, Value, builtins, catalog};
use crate::error::{EvalError, Operation, TypeError};
use loony_core::class::Class;
use loony_core::diag::{CoreError, Error, FileId};
use loony_core::game::Store;
use loony_core::positions::PosTable;
use loony_graph::memo::Codec;
use loony_graph::options::{Atom, OptBuf, OptRec};
use loony_syntax::ast::*;
use std::cell::OnceCell;
use std::rc::Rc;

/// A compiled ruleset.
pub struct Compiled {
    pub rid: u32,
    pub file: FileId,
    slots: usize,
    params: Vec<Pat>,
    rules: Vec<CRule>,
    /// The same rules as register code, when they are all integers and lists passed on.
    pub(super) fast: Option<super::intcode::IntCode>,
    /// How its positions lie in a dense row, when the register code moves only among them.
    pub(super) row: Option<super::intcode::RowShape>,
    /// Its `split by` and `canonical by` clauses, when it has either (see `split.rs`).
    pub(crate) norm: Option<super::split::Norm>,
}

impl Compiled {
    /// The argument to key this ruleset's positions by, when not the last (see
    /// [`PosTable::set_lead`]): if every move to the ruleset's own positions passes the last
    /// parameter on unchanged (`wv(i, n, s)` moves to `wv(i - m, n, s)`), the last parameter
    /// some move changes. Only where positions are kept depends on it, never a value.
    pub fn lead(&self) -> Option<usize> {
        let n = self.params.len();
        let mut passed = vec![true; n];
        let mut calls = 0;
        let mut stack: Vec<&COpt> = self.rules.iter().map(|r| &r.option).collect();
        while let Some(o) = stack.pop() {
            match o {
                COpt::Pos { rid, args, .. } if *rid == self.rid && args.len() == n => {
                    calls += 1;
                    for (j, a) in args.iter().enumerate() {
                        let same = matches!((a, &self.params[j]), (CExpr::Slot(x), Pat::Slot(y)) if x == y);
                        passed[j] &= same;
                    }
                }
                COpt::Sum(parts) => stack.extend(parts),
                _ => {}
            }
        }
        if calls == 0 || n < 2 || !passed[n - 1] {
            return None;
        }
        (0..n - 1).rev().find(|&j| !passed[j])
    }
}

#[derive(Clone)]
pub(crate) enum Pat {
    Slot(u16),
    Tuple(Vec<Pat>, Span),
}

pub(super) struct CRule {
    pub(super) clauses: Vec<CClause>,
    pub(super) kind: OptionKind,
    pub(super) option: COpt,
}

pub(super) enum CClause {
    Range {
        slot: u16,
        lo: CExpr,
        hi: CExpr,
        inclusive: bool,
        span: Span,
        lo_span: Span,
        hi_span: Span,
    },
    Each {
        pat: Pat,
        iter: CExpr,
        span: Span,
    },
    If(CExpr, Span),
}

pub(super) enum COpt {
    /// `r(args…)` of a ruleset: a position key (its canonical parts' keys when `norm`).
    Pos {
        rid: u32,
        norm: bool,
        name: Rc<str>,
        arity: usize,
        args: Vec<CExpr>,
        spans: Vec<Span>,
        span: Span,
    },
    Sum(Vec<COpt>),
    /// Any expression that evaluates to a game.
    Expr(CExpr, Span),
}

pub(crate) enum CExpr {
    Const(Value),
    Slot(u16),
    Bin(BinOp, Box<CExpr>, Box<CExpr>, Span, Span, Span),
    And(Box<CExpr>, Box<CExpr>, Span, Span),
    Or(Box<CExpr>, Box<CExpr>, Span, Span),
    Not(Box<CExpr>, Span),
    Neg(Box<CExpr>, Span),
    If(Box<CExpr>, Box<CExpr>, Box<CExpr>, Span),
    Index(Box<CExpr>, Box<CExpr>, Span, Span),
    List(Vec<CExpr>),
    Tuple(Vec<CExpr>),
    Nimber(Box<CExpr>, Span, Span),
    Let(u16, Box<CExpr>, Box<CExpr>),
    Builtin(&'static catalog::Builtin, Vec<CExpr>, Rc<[Expr]>, Span),
    /// `r(args…)` of a ruleset as a value: its key made in place when every argument has
    /// words without evaluating anything, else the whole call is the interpreter's.
    Pos(Box<PosCall>),
    /// Evaluated by the interpreter, with these frame names bound.
    Interp(Rc<Expr>, Rc<[(Rc<str>, u16)]>),
}

pub(super) struct PosCall {
    rid: u32,
    args: Vec<CExpr>,
    /// The words of each constant argument once made (a list literal's compound is looked
    /// up by its address once, not at every turn of a loop).
    words: Vec<OnceCell<Box<[u32]>>>,
    /// The call itself, for the interpreter when a key cannot be made in place.
    expr: Rc<Expr>,
    names: Rc<[(Rc<str>, u16)]>,
}

/// A comprehension compiled where it is evaluated: its clauses and element over a frame of
/// slots, so a loop of a million turns neither binds nor looks up names by string.
pub(super) struct Comprehension {
    /// The values of the local names visible where it is written, in their first slots.
    seeds: Vec<Value>,
    slots: usize,
    clauses: Vec<CClause>,
    elem: CExpr,
}

/// How deeply compiled expressions nest: deeper parts are left to the interpreter, whose
/// recursion checks the stack left (and counts it against the memory budget), so compiled code
/// adds at most this many of its own frames between two checks.
const MAX_DEPTH: usize = 200;

/// Compile-time scope: the names visible and their slots, and the nesting reached.
struct Scope {
    names: Vec<(Rc<str>, u16)>,
    slots: usize,
    depth: usize,
}

impl Scope {
    fn bind(&mut self, name: &Rc<str>) -> u16 {
        let s = self.slots as u16;
        self.slots += 1;
        self.names.push((name.clone(), s));
        s
    }

    fn find(&self, name: &str) -> Option<u16> {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| &**n == name)
            .map(|(_, s)| *s)
    }

    fn pattern(&mut self, p: &Pattern) -> Pat {
        match p {
            Pattern::Name(id) => Pat::Slot(self.bind(&id.name)),
            Pattern::Tuple(ps, span) => {
                Pat::Tuple(ps.iter().map(|q| self.pattern(q)).collect(), span.clone())
            }
        }
    }
}

impl Cx {
    /// The compiled form of ruleset `rid` (compiled at its definition, then kept).
    pub(crate) fn compiled(&mut self, rid: u32) -> Rc<Compiled> {
        if let Some(Some(c)) = self.rules.compiled.get(rid as usize) {
            return c.clone();
        }
        let rs = self.rules.rulesets[rid as usize].clone();
        let mut scope = Scope {
            names: Vec::new(),
            slots: 0,
            depth: 0,
        };
        let params: Vec<Pat> = rs.def.params.iter().map(|p| scope.pattern(p)).collect();
        let mut rules = Vec::with_capacity(rs.def.rules.len());
        for rule in &rs.def.rules {
            let mark = scope.names.len();
            let clauses = self.cclauses(&mut scope, &rule.clauses);
            let option = self.copt(&mut scope, &rule.option);
            scope.names.truncate(mark);
            rules.push(CRule {
                clauses,
                kind: rule.kind,
                option,
            });
        }
        let norm = self.norm(&rs);
        // Positions of rulesets with clauses are made through them, never by register code.
        let fast = if norm.is_some() || rules.iter().any(|r| makes_normalized(&r.option)) {
            None
        } else {
            super::intcode::IntCode::of(&params, &rules, scope.slots)
        };
        let row = fast.as_ref().and_then(|f| f.row_shape(rid));
        let c = Rc::new(Compiled {
            rid,
            file: rs.file,
            slots: scope.slots,
            params,
            rules,
            fast,
            row,
            norm,
        });
        if self.rules.compiled.len() <= rid as usize {
            self.rules.compiled.resize(rid as usize + 1, None);
        }
        self.rules.compiled[rid as usize] = Some(c.clone());
        c
    }

    /// A ruleset's `split by` and `canonical by` clauses over a frame of its parameters.
    fn norm(&mut self, rs: &super::value::Ruleset) -> Option<super::split::Norm> {
        let def = &rs.def;
        if def.split.is_none() && def.canonical.is_none() {
            return None;
        }
        let mut scope = Scope {
            names: Vec::new(),
            slots: 0,
            depth: 0,
        };
        let params: Vec<Pat> = def.params.iter().map(|p| scope.pattern(p)).collect();
        let split = def
            .split
            .as_ref()
            .map(|e| (self.cexpr(&mut scope, e), e.span.clone()));
        let canonical = def
            .canonical
            .as_ref()
            .map(|e| (self.cexpr(&mut scope, e), e.span.clone()));
        let native = super::split::Native::of(
            params.len(),
            split.as_ref().map(|s| &s.0),
            canonical.as_ref().map(|c| &c.0),
        );
        Some(super::split::Norm {
            params,
            slots: scope.slots,
            split,
            canonical,
            native,
        })
    }

    /// `[elem for clauses]` compiled where it is evaluated: the local names visible there are
    /// its first slots, holding their values now (a name the compiler does not bind is a
    /// global, or the interpreter's).
    pub(super) fn comprehension(&mut self, elem: &Expr, clauses: &[Clause]) -> Comprehension {
        let mut scope = Scope {
            names: Vec::new(),
            slots: 0,
            depth: 0,
        };
        let mut seeds = Vec::new();
        for (name, v) in &self.scope.locals[self.scope.frame..] {
            scope.bind(name);
            seeds.push(v.clone());
        }
        let clauses = self.cclauses(&mut scope, clauses);
        let elem = self.cexpr(&mut scope, elem);
        Comprehension {
            seeds,
            slots: scope.slots,
            clauses,
            elem,
        }
    }

    /// Clauses in order, each binding its names for the ones after it.
    fn cclauses(&mut self, scope: &mut Scope, clauses: &[Clause]) -> Vec<CClause> {
        let mut out = Vec::with_capacity(clauses.len());
        for c in clauses {
            out.push(match c {
                Clause::If(e) => CClause::If(self.cexpr(scope, e), e.span.clone()),
                Clause::For { pat, iter } => match (&iter.kind, pat) {
                    (ExprKind::Range { lo, hi, inclusive }, Pattern::Name(id)) => {
                        let (lo_c, hi_c) = (self.cexpr(scope, lo), self.cexpr(scope, hi));
                        CClause::Range {
                            slot: scope.bind(&id.name),
                            lo: lo_c,
                            hi: hi_c,
                            inclusive: *inclusive,
                            span: iter.span.clone(),
                            lo_span: lo.span.clone(),
                            hi_span: hi.span.clone(),
                        }
                    }
                    _ => {
                        let it = self.cexpr(scope, iter);
                        CClause::Each {
                            pat: scope.pattern(pat),
                            iter: it,
                            span: iter.span.clone(),
                        }
                    }
                },
            });
        }
        out
    }

    /// A global the compiled code may bind now: a ruleset, a built-in, or a plain value.
    fn global(&self, name: &str) -> Option<Value> {
        match self.globals.get(name) {
            Some(v) => Some(v.clone()),
            None => builtins::lookup(name),
        }
    }

    fn copt(&mut self, scope: &mut Scope, e: &Expr) -> COpt {
        if scope.depth >= MAX_DEPTH {
            return COpt::Expr(self.interp(scope, e), e.span.clone());
        }
        scope.depth += 1;
        let o = self.copt_node(scope, e);
        scope.depth -= 1;
        o
    }

    fn copt_node(&mut self, scope: &mut Scope, e: &Expr) -> COpt {
        match &e.kind {
            ExprKind::Call { callee, args } => {
                if let ExprKind::Var(name) = &callee.kind
                    && scope.find(name).is_none()
                    && let Some(Value::Ruleset(r)) = self.global(name)
                {
                    return COpt::Pos {
                        rid: r.id,
                        norm: normalized(&r),
                        name: r.def.name.name.clone(),
                        arity: r.def.params.len(),
                        args: args.iter().map(|a| self.cexpr(scope, a)).collect(),
                        spans: args.iter().map(|a| a.span.clone()).collect(),
                        span: e.span.clone(),
                    };
                }
                COpt::Expr(self.cexpr(scope, e), e.span.clone())
            }
            ExprKind::Binary {
                op: BinOp::Add,
                lhs,
                rhs,
            } if self.game_shaped(scope, lhs, scope.depth)
                && self.game_shaped(scope, rhs, scope.depth) =>
            {
                let mut parts = Vec::new();
                for side in [lhs, rhs] {
                    match self.copt(scope, side) {
                        COpt::Sum(ps) => parts.extend(ps),
                        p => parts.push(p),
                    }
                }
                COpt::Sum(parts)
            }
            _ => COpt::Expr(self.cexpr(scope, e), e.span.clone()),
        }
    }

    /// Syntactically a game that a sum may hold part by part: a ruleset call or a sum of them
    /// (within the depth compiled code may nest, starting at `depth`).
    fn game_shaped(&self, scope: &Scope, e: &Expr, depth: usize) -> bool {
        if depth >= MAX_DEPTH {
            return false;
        }
        match &e.kind {
            ExprKind::Call { callee, .. } => matches!(&callee.kind,
                ExprKind::Var(name) if scope.find(name).is_none()
                    && matches!(self.global(name), Some(Value::Ruleset(_)))),
            ExprKind::Binary {
                op: BinOp::Add,
                lhs,
                rhs,
            } => self.game_shaped(scope, lhs, depth + 1) && self.game_shaped(scope, rhs, depth + 1),
            ExprKind::Nimber(_) => true,
            _ => false,
        }
    }

    fn cexpr(&mut self, scope: &mut Scope, e: &Expr) -> CExpr {
        if scope.depth >= MAX_DEPTH {
            return self.interp(scope, e);
        }
        scope.depth += 1;
        let c = self.cexpr_node(scope, e);
        scope.depth -= 1;
        c
    }

    fn cexpr_node(&mut self, scope: &mut Scope, e: &Expr) -> CExpr {
        let b = |x: CExpr| Box::new(x);
        match &e.kind {
            ExprKind::Int(n) => CExpr::Const(Value::Int(*n)),
            ExprKind::Bool(v) => CExpr::Const(Value::Bool(*v)),
            ExprKind::NoneValue => CExpr::Const(Value::None),
            ExprKind::Str(s) => CExpr::Const(Value::Str(Rc::new(s.as_str().into()))),
            ExprKind::Var(name) => match scope.find(name) {
                Some(s) => CExpr::Slot(s),
                None => match self.global(name) {
                    Some(v @ (Value::Int(_) | Value::Bool(_) | Value::Outcome(_))) => {
                        CExpr::Const(v)
                    }
                    _ => self.interp(scope, e),
                },
            },
            ExprKind::Binary { op, lhs, rhs } => {
                let (l, r) = (self.cexpr(scope, lhs), self.cexpr(scope, rhs));
                match op {
                    BinOp::And => CExpr::And(b(l), b(r), lhs.span.clone(), rhs.span.clone()),
                    BinOp::Or => CExpr::Or(b(l), b(r), lhs.span.clone(), rhs.span.clone()),
                    _ => CExpr::Bin(
                        *op,
                        b(l),
                        b(r),
                        lhs.span.clone(),
                        rhs.span.clone(),
                        e.span.clone(),
                    ),
                }
            }
            ExprKind::Not(x) => CExpr::Not(b(self.cexpr(scope, x)), x.span.clone()),
            ExprKind::Neg(x) => CExpr::Neg(b(self.cexpr(scope, x)), e.span.clone()),
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => CExpr::If(
                b(self.cexpr(scope, cond)),
                b(self.cexpr(scope, then)),
                b(self.cexpr(scope, otherwise)),
                cond.span.clone(),
            ),
            // Slices go to the interpreter.
            ExprKind::Index { index, .. } if matches!(index.kind, ExprKind::Range { .. }) => {
                self.interp(scope, e)
            }
            ExprKind::Index { target, index } => CExpr::Index(
                b(self.cexpr(scope, target)),
                b(self.cexpr(scope, index)),
                target.span.clone(),
                index.span.clone(),
            ),
            ExprKind::List(items) => {
                CExpr::List(items.iter().map(|x| self.cexpr(scope, x)).collect())
            }
            ExprKind::Tuple(items) => {
                CExpr::Tuple(items.iter().map(|x| self.cexpr(scope, x)).collect())
            }
            ExprKind::Nimber(Some(inner)) if !matches!(inner.kind, ExprKind::List(_)) => {
                CExpr::Nimber(
                    b(self.cexpr(scope, inner)),
                    e.span.clone(),
                    inner.span.clone(),
                )
            }
            ExprKind::Let { name, value, body } => {
                let v = self.cexpr(scope, value);
                let mark = scope.names.len();
                let s = scope.bind(&name.name);
                let body = self.cexpr(scope, body);
                scope.names.truncate(mark);
                CExpr::Let(s, b(v), b(body))
            }
            ExprKind::Call { callee, args } => {
                if let ExprKind::Var(name) = &callee.kind
                    && scope.find(name).is_none()
                    && !self.globals.contains_key(&**name)
                    && let Some(Value::Builtin(id)) = builtins::lookup(name)
                    && catalog::get(id).on_plain_values()
                {
                    return CExpr::Builtin(
                        catalog::get(id),
                        args.iter().map(|a| self.cexpr(scope, a)).collect(),
                        args.clone().into(),
                        e.span.clone(),
                    );
                }
                if let ExprKind::Var(name) = &callee.kind
                    && scope.find(name).is_none()
                    && let Some(Value::Ruleset(r)) = self.global(name)
                    && r.def.params.len() == args.len()
                    && !normalized(&r)
                {
                    let args = args.iter().map(|a| self.pos_arg(scope, a)).collect();
                    let CExpr::Interp(expr, names) = self.interp(scope, e) else {
                        unreachable!("interp makes an Interp")
                    };
                    return CExpr::Pos(Box::new(PosCall {
                        rid: r.id,
                        args,
                        words: (0..r.def.params.len()).map(|_| OnceCell::new()).collect(),
                        expr,
                        names,
                    }));
                }
                self.interp(scope, e)
            }
            _ => self.interp(scope, e),
        }
    }

    /// An argument of a ruleset call made as a value: a list of integer literals is one
    /// constant (one value for every turn of a loop, which the position table also finds by
    /// its address instead of hashing its words again).
    fn pos_arg(&mut self, scope: &mut Scope, a: &Expr) -> CExpr {
        if let ExprKind::List(items) = &a.kind
            && !items.is_empty()
            && let Some(ints) = items
                .iter()
                .map(|x| match x.kind {
                    ExprKind::Int(n) => Some(Value::Int(n)),
                    _ => None,
                })
                .collect::<Option<Vec<Value>>>()
        {
            return CExpr::Const(Value::List(Rc::new(ints)));
        }
        self.cexpr(scope, a)
    }

    fn interp(&mut self, scope: &Scope, e: &Expr) -> CExpr {
        // Later names shadow earlier ones: bind them in order.
        CExpr::Interp(Rc::new(e.clone()), scope.names.clone().into())
    }
}

/// Whether positions of `r` are made through its `split by` or `canonical by` clause.
fn normalized(r: &super::value::Ruleset) -> bool {
    r.def.split.is_some() || r.def.canonical.is_some()
}

/// Whether an option makes a position of a ruleset with a clause.
fn makes_normalized(o: &COpt) -> bool {
    match o {
        COpt::Pos { norm, .. } => *norm,
        COpt::Sum(parts) => parts.iter().any(makes_normalized),
        COpt::Expr(..) => false,
    }
}

/// A frame of slots for running compiled code.
pub struct Frame {
    slots: Vec<Value>,
}

impl Compiled {
    /// Lists the options of position `args` into `out`.
    pub fn expand(
        &self,
        cx: &mut Cx,
        store: &mut Store,
        args: &mut Vec<Value>,
        out: &mut OptBuf,
    ) -> Result<(), Error> {
        with_frame(cx, self.slots, |cx, f| {
            for (p, a) in self.params.iter().zip(args.drain(..)) {
                bind(cx, f, p, a)?;
            }
            for rule in &self.rules {
                walk(cx, store, f, &rule.clauses, &mut |cx, store, f| {
                    let start = out.atoms.len() as u32;
                    emit(cx, store, f, &rule.option, out)?;
                    out.opts.push(OptRec {
                        kind: rule.kind,
                        start,
                        len: out.atoms.len() as u32 - start,
                    });
                    Ok(())
                })?;
            }
            Ok(())
        })
    }
}

impl Comprehension {
    /// The list's elements, in the order the clauses bind them.
    pub(super) fn run(&self, cx: &mut Cx, store: &mut Store) -> Result<Vec<Value>, Error> {
        with_frame(cx, self.slots, |cx, f| {
            f.slots[..self.seeds.len()].clone_from_slice(&self.seeds);
            let mut out = Vec::new();
            walk(cx, store, f, &self.clauses, &mut |cx, store, f| {
                out.push(eval(cx, store, f, &self.elem)?);
                Ok(())
            })?;
            Ok(out)
        })
    }
}

/// Runs `body` in a frame of `slots` slots. Frames are reused (a pool, as rules may expand
/// other positions, and comprehensions call rules, while running).
pub(super) fn with_frame<T>(
    cx: &mut Cx,
    slots: usize,
    body: impl FnOnce(&mut Cx, &mut Frame) -> Result<T, Error>,
) -> Result<T, Error> {
    let mut v = cx.rules.frames.pop().unwrap_or_default();
    v.resize(slots, Value::Int(0));
    let mut f = Frame { slots: v };
    let r = body(cx, &mut f);
    f.slots.clear();
    cx.rules.frames.push(f.slots);
    r
}

/// Calls `body` once per binding of `clauses` that passes every guard.
fn walk<B>(
    cx: &mut Cx,
    store: &mut Store,
    f: &mut Frame,
    clauses: &[CClause],
    body: &mut B,
) -> Result<(), Error>
where
    B: FnMut(&mut Cx, &mut Store, &mut Frame) -> Result<(), Error>,
{
    let Some((c, rest)) = clauses.split_first() else {
        return body(cx, store, f);
    };
    match c {
        CClause::If(cond, span) => {
            if truth(cx, store, f, cond, span)? {
                walk(cx, store, f, rest, body)?;
            }
        }
        CClause::Range {
            slot,
            lo,
            hi,
            inclusive,
            span,
            lo_span,
            hi_span,
        } => {
            let a = int(cx, store, f, lo, lo_span)?;
            let mut b = int(cx, store, f, hi, hi_span)?;
            if *inclusive {
                b = b
                    .checked_add(1)
                    .ok_or_else(|| cx.err(EvalError::Overflow { op: "..=".into() }, hi_span))?;
            }
            for k in a..b {
                if k % 1024 == 0 && cx.interrupted() {
                    return Err(cx.err(CoreError::Interrupted, span));
                }
                f.slots[*slot as usize] = Value::Int(k);
                walk(cx, store, f, rest, body)?;
            }
        }
        CClause::Each { pat, iter, span } => {
            let v = eval(cx, store, f, iter)?;
            let items = cx.items_of(v, span)?;
            for k in 0..items.len() {
                if k % 1024 == 1023 && cx.interrupted() {
                    return Err(cx.err(CoreError::Interrupted, span));
                }
                bind(cx, f, pat, items.get(k))?;
                walk(cx, store, f, rest, body)?;
            }
        }
    }
    Ok(())
}

pub(super) fn bind(cx: &Cx, f: &mut Frame, p: &Pat, v: Value) -> Result<(), Error> {
    match p {
        Pat::Slot(s) => {
            f.slots[*s as usize] = v;
            Ok(())
        }
        Pat::Tuple(ps, span) => {
            let items = match &v {
                Value::Tuple(xs) | Value::List(xs) if xs.len() == ps.len() => xs.clone(),
                other => {
                    return Err(cx.err(
                        EvalError::Type(TypeError::Unpack {
                            found: other.type_name(),
                            names: ps.len(),
                        }),
                        span,
                    ));
                }
            };
            for (q, x) in ps.iter().zip(items.iter()) {
                bind(cx, f, q, x.clone())?;
            }
            Ok(())
        }
    }
}

fn emit(
    cx: &mut Cx,
    store: &mut Store,
    f: &mut Frame,
    o: &COpt,
    out: &mut OptBuf,
) -> Result<(), Error> {
    match o {
        COpt::Pos {
            rid,
            norm,
            name,
            arity,
            args,
            spans,
            span,
        } => {
            if args.len() != *arity {
                return Err(cx.arity(name, *arity, args.len(), span));
            }
            if *norm {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(eval(cx, store, f, a)?);
                }
                let mut parts = std::mem::take(&mut cx.rules.parts_buf);
                parts.clear();
                let r = cx.parts(store, *rid, vals, &mut parts);
                out.atoms.extend(parts.iter().map(|&p| Atom::Pos(p)));
                cx.rules.parts_buf = parts;
                return r;
            }
            // The key is built word by word in a reused buffer (taken, since evaluating an
            // argument may expand positions): integer arguments and tuples or lists of them
            // without building values, other lists and tuples by their interned id.
            let mut key = std::mem::take(&mut cx.rules.key_buf);
            key.clear();
            key.push(0);
            let n = args.len();
            // The first argument that cannot be one; the others are still evaluated, so an
            // error in a later argument is reported first, as when all are evaluated first.
            let mut bad = None;
            for (i, a) in args.iter().enumerate() {
                if push_word(store, &mut key, *rid, n, a, &f.slots) {
                    continue;
                }
                let v = match eval(cx, store, f, a) {
                    Ok(v) => v,
                    Err(e) => {
                        cx.rules.key_buf = key;
                        return Err(e);
                    }
                };
                if !store.positions.push_arg(&mut key, *rid, n, &v) {
                    key.push(0);
                    bad = bad.or(Some((i, v)));
                }
            }
            key[0] = PosTable::header(*rid, key.len() - 1);
            if let Some((i, v)) = bad {
                cx.rules.key_buf = key;
                return Err(cx.err(
                    EvalError::Type(TypeError::RulesetArgument {
                        found: v.type_name(),
                    }),
                    &spans[i],
                ));
            }
            let p = store.positions.intern_words(&key);
            cx.rules.key_buf = key;
            out.atoms.push(Atom::Pos(p));
        }
        COpt::Sum(parts) => {
            for p in parts {
                emit(cx, store, f, p, out)?;
            }
        }
        COpt::Expr(e, span) => {
            let v = eval(cx, store, f, e)?;
            let g = cx.as_game(store, &v, span)?;
            out.atoms.push(Atom::Game(g));
        }
    }
    Ok(())
}

impl PosCall {
    /// The call's key (its header, then its arguments' words) into `key`, when every
    /// argument has words without evaluating anything (see [`push_word`]).
    fn key(&self, store: &mut Store, slots: &[Value], key: &mut Vec<u32>) -> bool {
        key.clear();
        key.push(0);
        let n = self.args.len();
        for (a, made) in self.args.iter().zip(&self.words) {
            if let Some(w) = made.get() {
                key.extend_from_slice(w);
                continue;
            }
            let at = key.len();
            if !push_word(store, key, self.rid, n, a, slots) {
                return false;
            }
            if matches!(a, CExpr::Const(_)) {
                let _ = made.set(key[at..].into());
            }
        }
        key[0] = PosTable::header(self.rid, key.len() - 1);
        true
    }
}

/// Appends argument `a` of a position of ruleset `rid` (of `n` arguments) to `key`, when its
/// words need no evaluation: an integer, a tuple or list of integers kept in place (written
/// word by word without building it, as `push_arg` would keep it), or a value already made
/// (a slot's, passed on without a copy, or a constant). False leaves `key` as it was; the
/// general path then evaluates the argument (and reports any error).
fn push_word(
    store: &mut Store,
    key: &mut Vec<u32>,
    rid: u32,
    n: usize,
    a: &CExpr,
    slots: &[Value],
) -> bool {
    if let Some(w) = int_of(a, slots).and_then(PosTable::int_word) {
        key.push(w);
        return true;
    }
    if let CExpr::Tuple(items) | CExpr::List(items) = a
        && let list = matches!(a, CExpr::List(_))
        && store.positions.in_place(rid, n, list, items.len())
    {
        let at = key.len();
        key.push(PosTable::marker(list, items.len()));
        for x in items {
            match int_of(x, slots).and_then(PosTable::int_word) {
                Some(w) => key.push(w),
                None => {
                    key.truncate(at);
                    return false;
                }
            }
        }
        return true;
    }
    match a {
        CExpr::Slot(s) => store.positions.push_arg(key, rid, n, &slots[*s as usize]),
        CExpr::Const(v) => store.positions.push_arg(key, rid, n, v),
        _ => false,
    }
}

/// An integer expression evaluated without building values, when every leaf is an integer and
/// nothing overflows; `None` sends the caller to the general path (which reports any error).
fn int_of(e: &CExpr, slots: &[Value]) -> Option<i64> {
    match e {
        CExpr::Const(Value::Int(n)) => Some(*n),
        CExpr::Slot(s) => match &slots[*s as usize] {
            Value::Int(n) => Some(*n),
            _ => None,
        },
        CExpr::Bin(op, l, r, ..) => {
            let (a, b) = (int_of(l, slots)?, int_of(r, slots)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div if b != 0 => a.checked_div_euclid(b),
                BinOp::Rem if b != 0 => a.checked_rem_euclid(b),
                op if crate::bits::is_bit_op(*op) => crate::bits::apply(*op, a, b).ok(),
                _ => None,
            }
        }
        CExpr::Neg(x, _) => int_of(x, slots)?.checked_neg(),
        CExpr::Index(..) => match item_of(e, slots)? {
            Value::Int(n) => Some(*n),
            _ => None,
        },
        _ => None,
    }
}

/// An element of a list or tuple held in a slot (`h[0]`, `s[i][1]`), without copying the
/// list; `None` for anything else, and for an index out of range (which the general path
/// reports).
fn item_of<'a>(e: &CExpr, slots: &'a [Value]) -> Option<&'a Value> {
    match e {
        CExpr::Slot(s) => Some(&slots[*s as usize]),
        CExpr::Index(t, i, ..) => match item_of(t, slots)? {
            Value::List(xs) | Value::Tuple(xs) => xs.get(usize::try_from(int_of(i, slots)?).ok()?),
            _ => None,
        },
        _ => None,
    }
}

/// A comparison or boolean of integers, without building values.
fn bool_of(e: &CExpr, slots: &[Value]) -> Option<bool> {
    match e {
        CExpr::Bin(op, l, r, ..) => {
            let (a, b) = (int_of(l, slots)?, int_of(r, slots)?);
            Some(match op {
                BinOp::Lt => a < b,
                BinOp::Le => a <= b,
                BinOp::Gt => a > b,
                BinOp::Ge => a >= b,
                BinOp::Eq => a == b,
                BinOp::Ne => a != b,
                _ => return None,
            })
        }
        CExpr::And(l, r, ..) => Some(bool_of(l, slots)? && bool_of(r, slots)?),
        CExpr::Or(l, r, ..) => Some(bool_of(l, slots)? || bool_of(r, slots)?),
        CExpr::Not(x, _) => Some(!bool_of(x, slots)?),
        CExpr::Const(Value::Bool(v)) => Some(*v),
        _ => None,
    }
}

fn truth(
    cx: &mut Cx,
    store: &mut Store,
    f: &mut Frame,
    e: &CExpr,
    span: &Span,
) -> Result<bool, Error> {
    if let Some(v) = bool_of(e, &f.slots) {
        return Ok(v);
    }
    match eval(cx, store, f, e)? {
        Value::Bool(v) => Ok(v),
        other => Err(cx.err(EvalError::expected("a boolean", other.type_name()), span)),
    }
}

fn int(
    cx: &mut Cx,
    store: &mut Store,
    f: &mut Frame,
    e: &CExpr,
    span: &Span,
) -> Result<i64, Error> {
    if let Some(n) = int_of(e, &f.slots) {
        return Ok(n);
    }
    match eval(cx, store, f, e)? {
        Value::Int(n) => Ok(n),
        other => Err(cx.err(EvalError::expected("an integer", other.type_name()), span)),
    }
}

pub(super) fn eval(
    cx: &mut Cx,
    store: &mut Store,
    f: &mut Frame,
    e: &CExpr,
) -> Result<Value, Error> {
    Ok(match e {
        CExpr::Const(v) => v.clone(),
        CExpr::Slot(s) => f.slots[*s as usize].clone(),
        CExpr::Bin(op @ (BinOp::Eq | BinOp::Ne), l, r, ls, rs, span)
            if matches!(**l, CExpr::Pos(_)) || matches!(**r, CExpr::Pos(_)) =>
        {
            // A position compared with a game, its row valued already: its class from the
            // row's table, with no position made (`[i for i in 0..n if wu(n, s, i) == 0]`).
            // Anything else goes the general way. A known position cannot fail to evaluate,
            // so the operands' errors come in the general order.
            let (a, b) = match known_code(cx, store, f, l) {
                Some(code) => {
                    // Against a nimber, the codes say it: nimbers are their own codes. A
                    // constant (`== 0`) is read in place: its value returned through `eval`
                    // was read back before its store had landed, a stall each turn.
                    let against = |n: u32| {
                        Value::Bool((Codec::nimber(code) == Some(n)) == (*op == BinOp::Eq))
                    };
                    if let CExpr::Const(v) = &**r
                        && let Some(n) = nimber_of(store, v)
                    {
                        return Ok(against(n));
                    }
                    let b = eval(cx, store, f, r)?;
                    if let Some(n) = nimber_of(store, &b) {
                        return Ok(against(n));
                    }
                    let c = cx.decode(code);
                    if let Some(same) = same_as(cx, store, c, &b, rs)? {
                        return Ok(Value::Bool(same == (*op == BinOp::Eq)));
                    }
                    (eval(cx, store, f, l)?, b)
                }
                None => {
                    let a = eval(cx, store, f, l)?;
                    if let Some(code) = known_code(cx, store, f, r)
                        && let Some(same) = same_as(cx, store, cx.decode(code), &a, ls)?
                    {
                        return Ok(Value::Bool(same == (*op == BinOp::Eq)));
                    }
                    (a, eval(cx, store, f, r)?)
                }
            };
            cx.binary_values(store, *op, a, b, (ls, rs), span)?
        }
        CExpr::Bin(op, l, r, ls, rs, span) => {
            let a = eval(cx, store, f, l)?;
            let b = eval(cx, store, f, r)?;
            if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
                let (x, y) = (*x, *y);
                let overflow = |cx: &Cx| {
                    cx.err(
                        EvalError::Overflow {
                            op: op.symbol().into(),
                        },
                        span,
                    )
                };
                let done = match op {
                    BinOp::Add => Some(Value::Int(x.checked_add(y).ok_or_else(|| overflow(cx))?)),
                    BinOp::Sub => Some(Value::Int(x.checked_sub(y).ok_or_else(|| overflow(cx))?)),
                    BinOp::Mul => Some(Value::Int(x.checked_mul(y).ok_or_else(|| overflow(cx))?)),
                    BinOp::Lt => Some(Value::Bool(x < y)),
                    BinOp::Le => Some(Value::Bool(x <= y)),
                    BinOp::Gt => Some(Value::Bool(x > y)),
                    BinOp::Ge => Some(Value::Bool(x >= y)),
                    BinOp::Eq => Some(Value::Bool(x == y)),
                    BinOp::Ne => Some(Value::Bool(x != y)),
                    BinOp::Div | BinOp::Rem if y != 0 => Some(Value::Int(
                        if *op == BinOp::Div {
                            x.checked_div_euclid(y)
                        } else {
                            x.checked_rem_euclid(y)
                        }
                        .ok_or_else(|| overflow(cx))?,
                    )),
                    _ => None,
                };
                if let Some(v) = done {
                    return Ok(v);
                }
            }
            cx.binary_values(store, *op, a, b, (ls, rs), span)?
        }
        CExpr::And(l, r, ls, rs) => {
            Value::Bool(truth(cx, store, f, l, ls)? && truth(cx, store, f, r, rs)?)
        }
        CExpr::Or(l, r, ls, rs) => {
            Value::Bool(truth(cx, store, f, l, ls)? || truth(cx, store, f, r, rs)?)
        }
        CExpr::Not(x, span) => Value::Bool(!truth(cx, store, f, x, span)?),
        CExpr::Neg(x, span) => {
            let v = eval(cx, store, f, x)?;
            cx.negate(store, v, span, span)?
        }
        CExpr::If(c, t, o, span) => {
            if truth(cx, store, f, c, span)? {
                eval(cx, store, f, t)?
            } else {
                eval(cx, store, f, o)?
            }
        }
        CExpr::Index(t, i, tspan, ispan) => {
            let v = eval(cx, store, f, t)?;
            if let Value::Board(b) = &v {
                let at = eval(cx, store, f, i)?;
                return cx.board_cell(b, &at, ispan);
            }
            let k = int(cx, store, f, i, ispan)?;
            cx.index(&v, k, tspan, ispan)?
        }
        CExpr::List(items) => {
            let mut v = Vec::with_capacity(items.len());
            for x in items {
                v.push(eval(cx, store, f, x)?);
            }
            Value::List(Rc::new(v))
        }
        CExpr::Tuple(items) => {
            let mut v = Vec::with_capacity(items.len());
            for x in items {
                v.push(eval(cx, store, f, x)?);
            }
            Value::Tuple(Rc::new(v))
        }
        CExpr::Nimber(x, span, inner) => match eval(cx, store, f, x)? {
            Value::Int(n) if (0..=u32::MAX as i64 - 2).contains(&n) => {
                Value::Game(store.nimber(n as u32))
            }
            Value::Int(n) => {
                return Err(cx.err(super::not_a_nimber(n), span));
            }
            other => {
                return Err(cx.err(
                    EvalError::cannot(Operation::Nimber, other.type_name()),
                    inner,
                ));
            }
        },
        CExpr::Let(s, v, body) => {
            let x = eval(cx, store, f, v)?;
            f.slots[*s as usize] = x;
            eval(cx, store, f, body)?
        }
        CExpr::Builtin(entry, args, exprs, span) => {
            let mut vals = Vec::with_capacity(args.len());
            for a in args {
                vals.push(eval(cx, store, f, a)?);
            }
            builtins::call(cx, store, entry, vals, exprs, span)?
        }
        CExpr::Pos(call) => {
            let mut key = std::mem::take(&mut cx.rules.key_buf);
            let p = call
                .key(store, &f.slots, &mut key)
                .then(|| store.positions.intern_words(&key));
            cx.rules.key_buf = key;
            match p {
                Some(p) => Value::Game(store.position(p)),
                None => interpret(cx, store, f, &call.expr, &call.names)?,
            }
        }
        CExpr::Interp(expr, names) => interpret(cx, store, f, expr, names)?,
    })
}

/// The nimber `v` stands for as a game, when it is plainly one (`0`, a nimber's game).
fn nimber_of(store: &Store, v: &Value) -> Option<u32> {
    match v {
        Value::Int(0) => Some(0),
        Value::Game(g) => match store.node(*g) {
            loony_core::game::Node::Nimber(n) => Some(n),
            _ => None,
        },
        _ => None,
    }
}

/// The memo code of the class of `e` when it is a ruleset position whose row's table holds
/// it already (and its class is a value): found from its key, without making the position.
fn known_code(cx: &mut Cx, store: &mut Store, f: &Frame, e: &CExpr) -> Option<u32> {
    let CExpr::Pos(call) = e else {
        return None;
    };
    // A ruleset without a row has no table to read: its key would be made here for nothing
    // and again by the general path, at every turn.
    let compiled = cx.rules.compiled.get(call.rid as usize);
    if compiled.is_none_or(|c| c.as_ref().is_none_or(|c| c.row.is_none())) {
        return None;
    }
    let mut key = std::mem::take(&mut cx.rules.key_buf);
    let c = call
        .key(store, &f.slots, &mut key)
        .then(|| cx.row_key_code(&key))
        .flatten()
        .filter(|&code| Codec::determined(code));
    cx.rules.key_buf = key;
    c
}

/// Whether a game of value `c` equals `v`, as `==` says, when `v` is a game or an integer
/// (`None` for any other value, which `==` treats otherwise).
fn same_as(
    cx: &mut Cx,
    store: &mut Store,
    c: Class,
    v: &Value,
    span: &Span,
) -> Result<Option<bool>, Error> {
    if !matches!(v, Value::Int(_) | Value::Game(_)) {
        return Ok(None);
    }
    let g = cx.as_game(store, v, span)?;
    let w = cx
        .game_value(store, g)
        .map_err(|e| e.or_at(cx.scope.file, span.clone()))?;
    Ok(Some(super::same_value(c, w)))
}

/// `expr` evaluated by the interpreter, with the frame's `names` bound (in order: later names
/// shadow earlier ones).
fn interpret(
    cx: &mut Cx,
    store: &mut Store,
    f: &Frame,
    expr: &Expr,
    names: &[(Rc<str>, u16)],
) -> Result<Value, Error> {
    let base = cx.scope.locals.len();
    for (n, s) in names {
        cx.scope
            .locals
            .push((n.clone(), f.slots[*s as usize].clone()));
    }
    let r = cx.eval(store, expr);
    cx.scope.locals.truncate(base);
    r
}

#[cfg(test)]
mod tests {
    use crate::Interp;

    /// The lead of each ruleset defined by `src`, in order.
    fn leads(src: &str) -> Vec<Option<usize>> {
        let mut interp = Interp::new();
        interp.run("lead.cgt", src, &mut |_| {}).expect("defines");
        let ids: Vec<u32> = interp.cx.rules.rulesets.iter().map(|r| r.id).collect();
        ids.into_iter()
            .map(|id| interp.cx.compiled(id).lead())
            .collect()
    }

    /// A list passed from a ruleset with register code to one that keeps lists in place gets
    /// that ruleset's key, the one its source spelling gets: one position, not two.
    #[test]
    fn a_list_passed_on_keeps_its_callees_key() {
        let mut interp = Interp::new();
        let src = "\
            ruleset b(l) { for x in l if x > 5 => b([]) }\n\
            ruleset a(s, n) { if n > 0 => a(s, n - 1)\n if n == 0 => b(s) }\n\
            a([1, 2], 1)\n\
            b([1, 2])\n";
        let mut out = Vec::new();
        interp
            .run("pass.cgt", src, &mut |s| out.push(s))
            .expect("runs");
        // b([1, 2]) has no move: 0; a(…, 0) = *; a(…, 1) = 0.
        assert_eq!(out, ["0", "0"]);
        let ids: Vec<u32> = interp.cx.rules.rulesets.iter().map(|r| r.id).collect();
        assert!(
            interp.cx.compiled(ids[1]).fast.is_some(),
            "a has register code"
        );
        assert!(interp.store.positions.lists_in_place(ids[0]));
        // a([1, 2], 1), a([1, 2], 0) and b([1, 2]).
        assert_eq!(interp.store.positions.len(), 3);
    }

    /// Rows are keyed by the last argument some move changes, moved last only when every move
    /// passes the last argument on.
    #[test]
    fn the_lead_is_the_last_argument_moves_change() {
        let src = "\
            ruleset wu(n, s, i) { if i != 0 for m in s => wu(n, s, (i - m + n) % n) }\n\
            ruleset wv(i, n, s) { if i != 0 for m in s => wv((i - m + n) % n, n, s) }\n\
            ruleset two(a, b, n) { if a > 0 => two(a - 1, b, n)\n if b > 0 => two(a, b - 1, n) }\n\
            ruleset swap(a, n) { if a > 0 => swap(a - 1, n)\n if n > 0 => swap(n - 1, a) }\n\
            ruleset one(n) { if n > 0 => one(n - 1) }\n\
            ruleset sum(n, s) { for m in s if m < n => sum(m, s) + sum(n - m, s) }\n\
            ruleset other(n, s) { if n > 0 => wu(n, s, 1) }\n\
            ruleset shadow(i, n) { for n in 0..i => shadow(n, n) }\n";
        assert_eq!(
            leads(src),
            [None, Some(0), Some(1), None, None, Some(0), None, None]
        );
    }
}
