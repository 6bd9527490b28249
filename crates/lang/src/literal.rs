//! Name-free game literals (`*3`, `{0, *, *2 | 0, *, *2}`, `∞`, `☾`, `⟫(2)`, `*2 + *3`): where
//! they are in a program, and what they are worth under normal play. Such a literal names
//! nothing and calls nothing, so its value is fixed by its text; the language server shows it
//! on hover.
//! The value is the interpreter's own ([`Interp::run`], printed as Loony prints it), found
//! under a budget of time, memory and positions, so no literal can keep the caller waiting.

use crate::interp::Interp;
use loony_syntax::ast::{BinOp, Clause, Expr, ExprKind, Program, Rule, Stmt};
use std::ops::Range;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// A literal of more syntax nodes than this is not a literal here (its parts may be).
pub const MAX_NODES: usize = 4096;
/// How long valuing one literal may take before it is interrupted.
pub const TIME: Duration = Duration::from_millis(50);
/// The memory budget of valuing one literal.
const MEMORY: usize = 64 << 20;
/// The positions valuing one literal may explore (a form has none; this only bounds).
const POSITIONS: usize = 10_000;

/// The outermost name-free game literals of a program, in the order of the text. Outermost:
/// in `{0, *, *2 | 0, *, *2} + x` it is the form, not `*2`; a literal inside a larger one is
/// never listed on its own, unless the larger one is past [`MAX_NODES`].
pub fn outermost(program: &Program) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for stmt in &program.stmts {
        match stmt {
            Stmt::Let { value, .. } => scan(value, &mut out),
            Stmt::Expr(e) => scan(e, &mut out),
            Stmt::Fn(def) => scan(&def.body, &mut out),
            Stmt::Ruleset(def) => {
                for Rule {
                    clauses, option, ..
                } in &def.rules
                {
                    for c in clauses {
                        match c {
                            Clause::For { iter, .. } => scan(iter, &mut out),
                            Clause::If(e) => scan(e, &mut out),
                        }
                    }
                    scan(option, &mut out);
                }
            }
            Stmt::Import { .. } => {}
        }
    }
    out.sort_by_key(|s| s.start);
    out
}

/// The normal-play value of `text` as Loony prints it, if `text` is one name-free game literal
/// and the interpreter values it within the budget; `None` otherwise (an error, a literal too
/// large, a budget spent).
pub fn value(text: &str) -> Option<String> {
    let program = loony_syntax::parse_program(text).ok()?;
    let [Stmt::Expr(e)] = program.stmts.as_slice() else {
        return None;
    };
    if outermost(&program) != [e.span.clone()] {
        return None;
    }
    let mut interp = Interp::new();
    interp.cx.limits.budget = POSITIONS;
    interp.cx.limits.memory = interp.cx.limits.memory.min(MEMORY);
    // The time budget: a watchdog raises the interrupt, which every long loop polls.
    let interrupt = interp.cx.limits.interrupt.clone();
    let (done, wait) = channel::<()>();
    let watchdog = std::thread::Builder::new()
        .name("loony-literal".into())
        .spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(TIME) {
                interrupt.store(true, Ordering::Relaxed);
            }
        })
        .ok()?;
    let mut shown = Vec::new();
    let run = interp.run("literal", text, &mut |s| shown.push(s));
    drop(done);
    let _ = watchdog.join();
    run.ok()?;
    match <[String; 1]>::try_from(shown) {
        Ok([one]) => Some(one),
        Err(_) => None,
    }
}

/// What the scan knows of a node once its children are done.
struct Seen<'a> {
    expr: &'a Expr,
    /// Name-free, call-free and small enough.
    pure: bool,
    /// Holds a game (not integers only, whose value is no news).
    game: bool,
    nodes: usize,
}

/// Adds the outermost name-free game literals in `root` to `out`: one pass after the children
/// (an explicit stack, as the tree may be nested deeper than the native stack).
fn scan<'a>(root: &'a Expr, out: &mut Vec<Range<usize>>) {
    enum Step<'a> {
        Enter(&'a Expr),
        Leave(&'a Expr, usize),
    }
    let mut work = vec![Step::Enter(root)];
    let mut done: Vec<Seen<'a>> = Vec::new();
    while let Some(step) = work.pop() {
        match step {
            Step::Enter(e) => {
                let kids = children(e);
                work.push(Step::Leave(e, kids.len()));
                work.extend(kids.into_iter().rev().map(Step::Enter));
            }
            Step::Leave(e, n) => {
                let kids = done.split_off(done.len() - n);
                let own = literal_kind(e);
                let nodes = 1 + kids.iter().map(|k| k.nodes).sum::<usize>();
                let pure = own.is_some() && kids.iter().all(|k| k.pure) && nodes <= MAX_NODES;
                let game = own == Some(true) || kids.iter().any(|k| k.game);
                if !pure {
                    out.extend(
                        kids.iter()
                            .filter(|k| k.pure && k.game)
                            .map(|k| k.expr.span.clone()),
                    );
                }
                done.push(Seen {
                    expr: e,
                    pure,
                    game,
                    nodes,
                });
            }
        }
    }
    if let Some(top) = done.pop()
        && top.pure
        && top.game
    {
        out.push(top.expr.span.clone());
    }
}

/// Whether a node of this kind may be part of a literal (`Some`), and whether it is a game
/// itself (`Some(true)`): integers, nimbers, terminals, forms, `-`, `+` and `-` between them,
/// and `⟫(n)`/`☾(n)`, the special moon's notation (its callee is no name).
fn literal_kind(e: &Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::Int(_) => Some(false),
        ExprKind::Neg(_)
        | ExprKind::Binary {
            op: BinOp::Add | BinOp::Sub,
            ..
        } => Some(false),
        ExprKind::Nimber(_) | ExprKind::Terminal(_) | ExprKind::Form { .. } => Some(true),
        ExprKind::Call { callee, .. } if matches!(callee.kind, ExprKind::Terminal(_)) => Some(true),
        _ => None,
    }
}

/// The expressions directly inside `e`. A terminal called as `⟫(n)` is not one: it is no
/// literal on its own there.
fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Str(_)
        | ExprKind::NoneValue
        | ExprKind::Var(_)
        | ExprKind::Terminal(_)
        | ExprKind::Nimber(None) => Vec::new(),
        ExprKind::Nimber(Some(x)) | ExprKind::Neg(x) | ExprKind::Not(x) => vec![x],
        ExprKind::Field { target, .. } => vec![target],
        ExprKind::Form { left, right } | ExprKind::Labelled { left, right, .. } => {
            left.iter().chain(right).collect()
        }
        ExprKind::List(items) | ExprKind::Set(items) | ExprKind::Tuple(items) => {
            items.iter().collect()
        }
        ExprKind::Comprehension { elem, clauses } => {
            let mut v: Vec<&Expr> = vec![elem];
            v.extend(clauses.iter().map(|c| match c {
                Clause::For { iter, .. } => iter,
                Clause::If(e) => e,
            }));
            v
        }
        ExprKind::Range { lo, hi, .. } => vec![lo, hi],
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Call { callee, args } => {
            let callee = (!matches!(callee.kind, ExprKind::Terminal(_))).then_some(&**callee);
            callee.into_iter().chain(args).collect()
        }
        ExprKind::Index { target, index } => vec![target, index],
        ExprKind::If {
            cond,
            then,
            otherwise,
        } => vec![cond, then, otherwise],
        ExprKind::Let { value, body, .. } => vec![value, body],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn literals(src: &str) -> Vec<&str> {
        let p = loony_syntax::parse_program(src).expect("parses");
        outermost(&p).into_iter().map(|s| &src[s]).collect()
    }

    #[test]
    fn the_outermost_name_free_game_literals() {
        assert_eq!(
            literals("{0, *, *2 | 0, *, *2} + x"),
            ["{0, *, *2 | 0, *, *2}"]
        );
        assert_eq!(literals("*2 + *3"), ["*2 + *3"]);
        assert_eq!(
            literals("let a = {*, {0, * | 0, *} | *, {0, * | 0, *}}"),
            ["{*, {0, * | 0, *} | *, {0, * | 0, *}}"]
        );
        assert_eq!(literals("f(*3, {0 | x}, 4)"), ["*3"]);
        assert_eq!(literals("1 + 2\n-3\n*(1 + 2)"), ["*(1 + 2)"]);
        assert_eq!(literals("a{a, * | 0}"), ["*"]);
        assert_eq!(literals("⟫(2) + ☾(n)"), ["⟫(2)"]);
        assert_eq!(literals("fn f(n) = [*n, ∞]"), ["∞"]);
    }

    #[test]
    fn a_literal_too_large_leaves_its_parts() {
        let big = format!("{{{} | }}", vec!["*"; MAX_NODES].join(", "));
        assert_eq!(literals(&big).len(), MAX_NODES);
    }

    /// A literal near the bound, nested as deep as it may be, comes back at once (valued or
    /// not): the budget and the bound keep hover from waiting.
    #[test]
    fn a_deep_literal_comes_back_at_once() {
        let depth = MAX_NODES / 2 - 1;
        let deep = format!("{}0{}", "{*, ".repeat(depth), " | }".repeat(depth));
        let started = std::time::Instant::now();
        let _ = value(&deep);
        assert!(started.elapsed() < TIME * 20, "{:?}", started.elapsed());
    }

    #[test]
    fn values_as_loony_prints_them() {
        assert_eq!(value("{0, *, *2 | 0, *, *2}").as_deref(), Some("*3"));
        assert_eq!(value("{*, *2 | *, *2}").as_deref(), Some("0"));
        assert_eq!(value("*5").as_deref(), Some("*5"));
        assert_eq!(value("*2 + *3").as_deref(), Some("*"));
        assert_eq!(
            value("{*, {0, * | 0, *} | *, {0, * | 0, *}}").as_deref(),
            Some("0")
        );
        assert_eq!(value("∞").as_deref(), Some("∞"));
        // Not one name-free literal, or an error: no value.
        for no in ["x", "*2 + x", "3", "*2\n*3", "{1 | }", "*(-1)", "", "{"] {
            assert_eq!(value(no), None, "{no}");
        }
    }
}
