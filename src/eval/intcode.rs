//! Rules over integers as register code: the fast path of [`super::compile`].
//!
//! Most rulesets compute with small integers and pass lists on unchanged (`wu(n, s, i)`,
//! `s(a, b, c)`, `kayles(n)`). For a ruleset whose every rule is made of integer guards,
//! integer ranges, loops over lists of integers and ruleset calls whose arguments are integer
//! expressions or names passed on, the compiled tree is translated once more into code over
//! two register files: integers (`i64`) and the key words of passed-on lists. A position's
//! options are then listed straight from its key's words into the explorer's buffer, without
//! building a `Value` per argument, per loop item or per option.
//!
//! The code covers only what it can do exactly as the tree does. Anything else at run time
//! (an overflow, a division by zero, a name bound to a list where an integer is needed, a
//! list holding more than integers) abandons the position's listing, and the tree lists it
//! again from the start, with its diagnostics.

use super::compile::{Atom, CClause, CExpr, COpt, CRule, OptBuf, OptRec, Pat};
use super::{Cx, Value};
use crate::game::Store;
use crate::graph::positions::{PosId, PosTable};
use crate::syntax::ast::{BinOp, OptionKind};
use std::sync::atomic::{AtomicBool, Ordering};

/// A register holding no list (an integer register).
const INT: u32 = u32::MAX;

/// The most arguments a position made by register code may have.
const ARGS: usize = 15;

/// The register code of a ruleset.
pub struct IntCode {
    /// Register of each parameter, in order.
    params: Vec<u16>,
    regs: usize,
    rules: Vec<IRule>,
}

struct IRule {
    clauses: Vec<IClause>,
    kind: OptionKind,
    parts: Vec<IPos>,
}

enum IClause {
    Range {
        reg: u16,
        lo: IExpr,
        hi: IExpr,
        inclusive: bool,
    },
    /// `for x in s` over a list passed in register `list`.
    EachReg {
        reg: u16,
        list: u16,
    },
    /// `for x in [1, 2]` over a literal list of integers.
    EachConst {
        reg: u16,
        items: Vec<i64>,
    },
    If(IBool),
}

struct IPos {
    header: u32,
    args: Vec<IArg>,
}

enum IArg {
    Int(IExpr),
    /// A name passed on: its list's word, or its integer's.
    Reg(u16),
}

/// An integer expression in postfix order, run on a small stack (no recursion, no boxes).
struct IExpr(Vec<Op>);

#[derive(Clone, Copy)]
enum Op {
    Const(i64),
    Reg(u16),
    Bin(BinOp),
    Neg,
}

/// The deepest stack an expression may need (deeper ones stay with the tree).
const DEPTH: usize = 16;

enum IBool {
    Const(bool),
    Cmp(BinOp, IExpr, IExpr),
    And(Box<IBool>, Box<IBool>),
    Or(Box<IBool>, Box<IBool>),
    Not(Box<IBool>),
}

/// The registers of one listing.
#[derive(Default)]
pub struct Regs {
    ints: Vec<i64>,
    /// A list's key word, or [`INT`].
    lists: Vec<u32>,
    items: Vec<i64>,
}

/// The listing was abandoned: the tree lists the position instead.
struct Abandon;

type Run<T> = Result<T, Abandon>;

impl IntCode {
    /// The register code of compiled rules, if every part of them has one.
    pub(super) fn of(params: &[Pat], rules: &[CRule], slots: usize) -> Option<IntCode> {
        let params = params
            .iter()
            .map(|p| match p {
                Pat::Slot(s) => Some(*s),
                Pat::Tuple(..) => None,
            })
            .collect::<Option<Vec<u16>>>()?;
        let rules = rules.iter().map(rule).collect::<Option<Vec<IRule>>>()?;
        Some(IntCode {
            params,
            regs: slots,
            rules,
        })
    }

    /// Lists the options of position `pos` into `out`; `false` if the listing was abandoned
    /// (`out` may then hold part of it: the caller cuts it back).
    pub(super) fn expand(
        &self,
        cx: &mut Cx,
        store: &mut Store,
        pos: PosId,
        out: &mut OptBuf,
    ) -> bool {
        // The registers and the interrupt flag, borrowed side by side from the session.
        let r = &mut cx.int_regs;
        let stop: &AtomicBool = &cx.interrupt;
        r.ints.clear();
        r.ints.resize(self.regs, 0);
        r.lists.clear();
        r.lists.resize(self.regs, INT);
        if store.positions.arg_count(pos) != self.params.len() {
            return false;
        }
        for (&reg, w) in self.params.iter().zip(store.positions.arg_words(pos)) {
            if w & 1 == 0 {
                r.ints[reg as usize] = ((w as i32) >> 1) as i64;
            } else {
                r.lists[reg as usize] = w;
            }
        }
        self.rules
            .iter()
            .all(|rule| clauses(stop, store, r, rule, 0, out).is_ok())
    }
}

fn rule(r: &CRule) -> Option<IRule> {
    let clauses = r.clauses.iter().map(clause).collect::<Option<Vec<_>>>()?;
    let mut parts = Vec::new();
    option(&r.option, &mut parts)?;
    Some(IRule {
        clauses,
        kind: r.kind,
        parts,
    })
}

fn clause(c: &CClause) -> Option<IClause> {
    Some(match c {
        CClause::Range {
            slot,
            lo,
            hi,
            inclusive,
            ..
        } => IClause::Range {
            reg: *slot,
            lo: expr(lo)?,
            hi: expr(hi)?,
            inclusive: *inclusive,
        },
        CClause::Each {
            pat: Pat::Slot(reg),
            iter,
            ..
        } => match iter {
            CExpr::Slot(list) => IClause::EachReg {
                reg: *reg,
                list: *list,
            },
            CExpr::List(items) => IClause::EachConst {
                reg: *reg,
                items: items
                    .iter()
                    .map(|x| match x {
                        CExpr::Const(Value::Int(n)) => Some(*n),
                        _ => None,
                    })
                    .collect::<Option<_>>()?,
            },
            _ => return None,
        },
        CClause::Each { .. } => return None,
        CClause::If(e, _) => IClause::If(boolean(e)?),
    })
}

fn option(o: &COpt, parts: &mut Vec<IPos>) -> Option<()> {
    match o {
        COpt::Pos {
            rid, arity, args, ..
        } if args.len() == *arity => {
            let args = args
                .iter()
                .map(|a| match a {
                    CExpr::Slot(s) => Some(IArg::Reg(*s)),
                    e => Some(IArg::Int(expr(e)?)),
                })
                .collect::<Option<_>>()?;
            if *arity > ARGS {
                return None;
            }
            parts.push(IPos {
                header: PosTable::header(*rid, *arity),
                args,
            });
        }
        COpt::Sum(ps) => {
            for p in ps {
                option(p, parts)?;
            }
        }
        _ => return None,
    }
    Some(())
}

fn expr(e: &CExpr) -> Option<IExpr> {
    let mut ops = Vec::new();
    (postfix(e, &mut ops)? <= DEPTH).then_some(IExpr(ops))
}

/// Appends `e` in postfix order; the stack depth it needs.
fn postfix(e: &CExpr, ops: &mut Vec<Op>) -> Option<usize> {
    Some(match e {
        CExpr::Const(Value::Int(n)) => {
            ops.push(Op::Const(*n));
            1
        }
        CExpr::Slot(s) => {
            ops.push(Op::Reg(*s));
            1
        }
        CExpr::Bin(
            op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem),
            l,
            r,
            ..,
        ) => {
            let a = postfix(l, ops)?;
            let b = postfix(r, ops)?;
            ops.push(Op::Bin(*op));
            a.max(b + 1)
        }
        CExpr::Neg(x, _) => {
            let a = postfix(x, ops)?;
            ops.push(Op::Neg);
            a
        }
        _ => return None,
    })
}

fn boolean(e: &CExpr) -> Option<IBool> {
    Some(match e {
        CExpr::Const(Value::Bool(v)) => IBool::Const(*v),
        CExpr::Bin(
            op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne),
            l,
            r,
            ..,
        ) => IBool::Cmp(*op, expr(l)?, expr(r)?),
        CExpr::And(l, r, ..) => IBool::And(Box::new(boolean(l)?), Box::new(boolean(r)?)),
        CExpr::Or(l, r, ..) => IBool::Or(Box::new(boolean(l)?), Box::new(boolean(r)?)),
        CExpr::Not(x, _) => IBool::Not(Box::new(boolean(x)?)),
        _ => return None,
    })
}

/// The integer in register `reg` (abandoned if it holds a list).
#[inline]
fn int_reg(r: &Regs, reg: u16) -> Run<i64> {
    match r.lists[reg as usize] {
        INT => Ok(r.ints[reg as usize]),
        _ => Err(Abandon),
    }
}

/// Integer arithmetic exactly where the tree's is: checked, Euclidean division.
fn int(r: &Regs, e: &IExpr) -> Run<i64> {
    if let [Op::Reg(s)] = e.0[..] {
        return int_reg(r, s);
    }
    let mut stack = [0i64; DEPTH];
    let mut top = 0;
    for &op in &e.0 {
        match op {
            Op::Const(n) => {
                stack[top] = n;
                top += 1;
            }
            Op::Reg(s) => {
                stack[top] = int_reg(r, s)?;
                top += 1;
            }
            Op::Neg => stack[top - 1] = stack[top - 1].checked_neg().ok_or(Abandon)?,
            Op::Bin(op) => {
                top -= 1;
                let (x, y) = (stack[top - 1], stack[top]);
                stack[top - 1] = match op {
                    BinOp::Add => x.checked_add(y),
                    BinOp::Sub => x.checked_sub(y),
                    BinOp::Mul => x.checked_mul(y),
                    BinOp::Div if y != 0 => x.checked_div_euclid(y),
                    BinOp::Rem if y != 0 => x.checked_rem_euclid(y),
                    _ => None,
                }
                .ok_or(Abandon)?;
            }
        }
    }
    Ok(stack[0])
}

fn truth(r: &Regs, b: &IBool) -> Run<bool> {
    Ok(match b {
        IBool::Const(v) => *v,
        IBool::Cmp(op, a, c) => {
            let (x, y) = (int(r, a)?, int(r, c)?);
            match op {
                BinOp::Lt => x < y,
                BinOp::Le => x <= y,
                BinOp::Gt => x > y,
                BinOp::Ge => x >= y,
                BinOp::Eq => x == y,
                _ => x != y,
            }
        }
        // Both sides are evaluated only as far as the tree's `&&` and `||` are.
        IBool::And(a, c) => truth(r, a)? && truth(r, c)?,
        IBool::Or(a, c) => truth(r, a)? || truth(r, c)?,
        IBool::Not(a) => !truth(r, a)?,
    })
}

fn clauses(
    stop: &AtomicBool,
    store: &mut Store,
    r: &mut Regs,
    rule: &IRule,
    i: usize,
    out: &mut OptBuf,
) -> Run<()> {
    let Some(c) = rule.clauses.get(i) else {
        return emit(store, r, rule, out);
    };
    match c {
        IClause::If(b) => {
            if truth(r, b)? {
                clauses(stop, store, r, rule, i + 1, out)?;
            }
        }
        IClause::Range {
            reg,
            lo,
            hi,
            inclusive,
        } => {
            let a = int(r, lo)?;
            let mut b = int(r, hi)?;
            if *inclusive {
                b = b.checked_add(1).ok_or(Abandon)?;
            }
            for k in a..b {
                // Abandoning hands the interrupt to the tree, which polls at the same steps.
                if k % 1024 == 0 && stop.load(Ordering::Relaxed) {
                    return Err(Abandon);
                }
                r.ints[*reg as usize] = k;
                r.lists[*reg as usize] = INT;
                clauses(stop, store, r, rule, i + 1, out)?;
            }
        }
        IClause::EachConst { reg, items } => {
            for &k in items {
                r.ints[*reg as usize] = k;
                r.lists[*reg as usize] = INT;
                clauses(stop, store, r, rule, i + 1, out)?;
            }
        }
        IClause::EachReg { reg, list } => {
            let w = r.lists[*list as usize];
            if w == INT {
                return Err(Abandon);
            }
            // The list's integers, copied out once: the loop's body may overwrite its register.
            let start = r.items.len();
            let Value::List(xs) = store.positions.compound_of(w) else {
                return Err(Abandon);
            };
            for x in xs.iter() {
                match x {
                    Value::Int(n) => r.items.push(*n),
                    _ => {
                        r.items.truncate(start);
                        return Err(Abandon);
                    }
                }
            }
            let end = r.items.len();
            let mut result = Ok(());
            for at in start..end {
                if (at - start) % 1024 == 1023 && stop.load(Ordering::Relaxed) {
                    result = Err(Abandon);
                    break;
                }
                r.ints[*reg as usize] = r.items[at];
                r.lists[*reg as usize] = INT;
                result = clauses(stop, store, r, rule, i + 1, out);
                if result.is_err() {
                    break;
                }
            }
            r.items.truncate(start);
            result?;
        }
    }
    Ok(())
}

/// The option of a rule whose clauses all hold: its parts' keys, interned.
fn emit(store: &mut Store, r: &Regs, rule: &IRule, out: &mut OptBuf) -> Run<()> {
    let start = out.atoms.len() as u32;
    for part in &rule.parts {
        // Keys are built on the stack: a position has at most `ARGS` arguments here.
        let mut key = [0u32; ARGS + 1];
        key[0] = part.header;
        for (slot, a) in key[1..].iter_mut().zip(&part.args) {
            *slot = match a {
                IArg::Reg(s) => match r.lists[*s as usize] {
                    INT => PosTable::int_word(r.ints[*s as usize]).ok_or(Abandon)?,
                    w => w,
                },
                IArg::Int(e) => PosTable::int_word(int(r, e)?).ok_or(Abandon)?,
            };
        }
        let p = store.positions.intern_words(&key[..=part.args.len()]);
        out.atoms.push(Atom::Pos(p));
    }
    out.opts.push(OptRec {
        kind: rule.kind,
        start,
        len: out.atoms.len() as u32 - start,
    });
    Ok(())
}
