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

use crate::catalog;
use crate::cx::Cx;
use crate::value::Value;
use loony_syntax::ast::*;
use std::cell::OnceCell;
use std::rc::Rc;

mod bite;
pub(crate) mod compiled;
mod domino;
mod kayles;
mod norm;
pub(crate) mod run;
pub(crate) mod tree;

pub(crate) use bite::Bite;
pub use compiled::Compiled;
pub(crate) use compiled::MaskRule;
pub(crate) use domino::Domino;
pub(crate) use norm::{Hints, Native, Norm};
pub(crate) use tree::*;

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
        let mask_rule = MaskRule::of(rid, &params, &rules, norm.as_ref(), |id| {
            catalog::get(id).name
        });
        let c = Rc::new(Compiled {
            rid,
            file: rs.file,
            slots: scope.slots,
            params,
            rules,
            fast,
            row,
            norm,
            mask_rule,
        });
        if self.rules.compiled.len() <= rid as usize {
            self.rules.compiled.resize(rid as usize + 1, None);
        }
        self.rules.compiled[rid as usize] = Some(c.clone());
        c
    }

    /// A ruleset's `split by` and `canonical by` clauses over a frame of its parameters.
    fn norm(&mut self, rs: &super::value::Ruleset) -> Option<Norm> {
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
        let mut clause = |e: &Option<loony_syntax::ast::Expr>| {
            e.as_ref()
                .map(|e| (self.cexpr(&mut scope, e), e.span.clone()))
        };
        let h = &def.hints;
        let hints = h.any().then(|| {
            Box::new(Hints {
                bound: clause(&h.bound),
                order: clause(&h.order),
                value: clause(&h.value),
            })
        });
        let native = Native::of(
            params.len(),
            split.as_ref().map(|s| &s.0),
            canonical.as_ref().map(|c| &c.0),
            |id| catalog::get(id).name,
        );
        Some(Norm {
            params,
            slots: scope.slots,
            split,
            canonical,
            native,
            hints,
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
            None => catalog::lookup(name),
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
                    && let Some(Value::Builtin(id)) = catalog::lookup(name)
                    && catalog::get(id).on_plain_values()
                {
                    return CExpr::Builtin(
                        id,
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

#[cfg(test)]
mod tests {
    use super::MaskRule;
    use crate::interp::Interp;

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

    /// The mask form each ruleset of `src` has, in order: `d` the domino rule, `k` Node
    /// Kayles' rule, `b` a bite, `-` none.
    fn forms(src: &str) -> String {
        let mut interp = Interp::new();
        interp.run("forms.cgt", src, &mut |_| {}).expect("defines");
        let ids: Vec<u32> = interp.cx.rules.rulesets.iter().map(|r| r.id).collect();
        ids.into_iter()
            .map(|id| match interp.cx.compiled(id).mask_rule {
                Some(MaskRule::Domino(_)) => 'd',
                Some(MaskRule::Kayles(_)) => 'k',
                Some(MaskRule::Bite(_)) => 'b',
                None => '-',
            })
            .collect()
    }

    /// Only the rule as `std/node_kayles` writes it (any names) has the form: a clause more,
    /// the vertex left in or its neighbours' neighbours, no split or no canonical, a second
    /// rule, a move to another ruleset, or a domino rule do not.
    #[test]
    fn only_the_kayles_rule_has_the_form() {
        let head = |name: &str| {
            format!("ruleset {name}(g) split by components(g) canonical by canonical(g)")
        };
        let rule = |name: &str, to: &str| {
            format!(
                "{} {{ for v in vertices(g) => {to}(remove_vertices(g, append(neighbours(g, v), v))) }}",
                head(name)
            )
        };
        let src = [
            rule("a", "a"),
            "ruleset b(h) split by components(h) canonical by canonical(h) { for x in vertices(h) => b(remove_vertices(h, append(neighbours(h, x), x))) }".to_string(),
            format!("{} {{ for v in vertices(g) if true => c(remove_vertices(g, append(neighbours(g, v), v))) }}", head("c")),
            format!("{} {{ for v in vertices(g) => d(remove_vertices(g, neighbours(g, v))) }}", head("d")),
            format!("{} {{ for v in vertices(g) => e(remove_vertices(g, append(neighbours(g, 0), v))) }}", head("e")),
            "ruleset f(g) split by components(g) { for v in vertices(g) => f(remove_vertices(g, append(neighbours(g, v), v))) }".to_string(),
            "ruleset h(g) canonical by canonical(g) { for v in vertices(g) => h(remove_vertices(g, append(neighbours(g, v), v))) }".to_string(),
            format!("{} {{ for v in vertices(g) => i(remove_vertices(g, append(neighbours(g, v), v)))\n for v in vertices(g) => i(remove_vertices(g, [v])) }}", head("i")),
            rule("j", "a"),
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") => k(set(b, [p, q], \"#\")) }}", "ruleset k(b) split by regions(b) canonical by canonical(b)"),
        ]
        .join("\n");
        assert_eq!(forms(&src), "kk-------d");
    }

    /// Only the rule as `std/cram` writes it (any free kind, any names, the pairs in reading
    /// order or `centre_first` of the same board) has the form: a clause more, another fill,
    /// no split or no canonical, a second rule, a move to another ruleset, the pair swapped
    /// in its pattern, a board passed unchanged, the centre of another board or another
    /// order do not.
    #[test]
    fn only_the_domino_rule_has_the_form() {
        let head =
            |name: &str| format!("ruleset {name}(b) split by regions(b) canonical by canonical(b)");
        let src = [
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") => a(set(b, [p, q], \"#\")) }}", head("a")),
            format!("{} {{ for (x, y) in adjacent_pairs(b, \"o\") => c(set(b, [x, y], \"#\")) }}", head("c")),
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") if true => d(set(b, [p, q], \"#\")) }}", head("d")),
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") => e(set(b, [p, q], \"x\")) }}", head("e")),
            "ruleset f(b) split by regions(b) { for (p, q) in adjacent_pairs(b, \".\") => f(set(b, [p, q], \"#\")) }".to_string(),
            "ruleset g(b) canonical by canonical(b) { for (p, q) in adjacent_pairs(b, \".\") => g(set(b, [p, q], \"#\")) }".to_string(),
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") => h(set(b, [p, q], \"#\"))\n for (p, q) in adjacent_pairs(b, \".\") => h(set(b, [p, q], \"#\")) }}", head("h")),
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") => a(set(b, [p, q], \"#\")) }}", head("i")),
            format!("{} {{ for (q, p) in adjacent_pairs(b, \".\") => j(set(b, [p, q], \"#\")) }}", head("j")),
            format!("{} {{ for (p, q) in adjacent_pairs(b, \".\") => k(b) }}", head("k")),
            format!("{} {{ for (p, q) in centre_first(b, adjacent_pairs(b, \".\")) => l(set(b, [p, q], \"#\")) }}", head("l")),
            format!("{} {{ for (p, q) in centre_first(board(3, 3), adjacent_pairs(b, \".\")) => m(set(b, [p, q], \"#\")) }}", head("m")),
            format!("{} {{ for (p, q) in sorted(adjacent_pairs(b, \".\")) => n(set(b, [p, q], \"#\")) }}", head("n")),
        ]
        .join("\n");
        assert_eq!(forms(&src), "dd--------d--");
    }

    /// Only the rule as `std/chomp` writes it on boards (any free kind, any names, any
    /// poisoned cell or none, no clause or `canonical by` the lesser of the board and its
    /// transpose) has the form: a guard of another kind, a clause more, another fill, another
    /// `canonical by` or a `split by`, a second rule, another ruleset, the quadrant of another
    /// cell or board, or the cells of another board do not.
    #[test]
    fn only_the_bite_rule_has_the_form() {
        let rule = |name: &str, guard: &str, cells: &str, set: &str| {
            format!("ruleset {name}(b) {{ for p in {cells} {guard} => {name}({set}) }}")
        };
        let (cells, set) = ("cells(b, \".\")", "set(b, quadrant(b, p), \"#\")");
        let src = [
            rule("a", "if p != (0, 0)", cells, set),
            rule("c", "", "cells(b, \"o\")", set),
            rule("d", "if p != (2, 1)", cells, set),
            rule("e", "if true", cells, set),
            rule("f", "if p != (0, 0) if true", cells, set),
            rule("g", "if p == (0, 0)", cells, set),
            rule("h", "", cells, "set(b, quadrant(b, p), \"x\")"),
            format!("ruleset i(b) canonical by transpose(b) {{ for p in {cells} => i({set}) }}"),
            format!(
                "ruleset j(b) {{ for p in {cells} => j({set})\n for p in {cells} => j({set}) }}"
            ),
            format!("ruleset k(b) {{ for p in {cells} => a({set}) }}"),
            rule("l", "", cells, "set(b, quadrant(b, (0, 0)), \"#\")"),
            rule("m", "", cells, "set(b, quadrant(board(2, 2), p), \"#\")"),
            rule("n", "", "cells(board(2, 2), \".\")", set),
            rule("o", "if (0, 0) != p", cells, set),
            format!("ruleset q(b) canonical by min([b, transpose(b)]) {{ for p in {cells} => q({set}) }}"),
            format!("ruleset r(b) canonical by min([transpose(b), b]) {{ for p in {cells} => r({set}) }}"),
            format!("ruleset s(b) canonical by max([b, transpose(b)]) {{ for p in {cells} => s({set}) }}"),
            format!("ruleset t(b) canonical by min([b, rotate(b)]) {{ for p in {cells} => t({set}) }}"),
            format!("ruleset u(b) split by regions(b) canonical by min([b, transpose(b)]) {{ for p in {cells} => u({set}) }}"),
        ]
        .join("\n");
        assert_eq!(forms(&src), "bbb-----------bb---");
    }
}
