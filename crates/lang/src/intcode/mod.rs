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

use super::compile::tree::{CClause, CExpr, COpt, CRule, Pat};
use crate::value::Value;
use loony_core::game::Store;
use loony_core::positions::{PosId, PosTable};
use loony_graph::options::{Atom, OptBuf, OptRec};
use loony_graph::row::RowOptions;
use loony_syntax::ast::{BinOp, OptionKind};
use std::sync::atomic::{AtomicBool, Ordering};

mod moves;

/// A register holding no list (an integer register).
const INT: u32 = u32::MAX;

/// The most arguments a position made by register code may have.
pub(super) const ARGS: usize = 15;

/// The register code of a ruleset.
pub struct IntCode {
    /// Register of each parameter, in order.
    params: Vec<u16>,
    /// The parameters' registers that some expression reads as an integer: a position whose
    /// key has a list there is left to the tree, so reads need no check.
    int_params: Vec<u16>,
    /// Registers holding a constant, and its value (set once per listing).
    consts: Vec<(u16, i64)>,
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

/// An integer expression as three-address code over the integer registers: parameters, loop
/// variables, constants and one temporary per operation all live there, so an instruction
/// reads two registers and writes one, and a name or a constant costs nothing.
struct IExpr {
    code: Vec<Ins>,
    /// The register holding the value once `code` has run.
    out: u16,
}

#[derive(Clone, Copy)]
struct Ins {
    op: Arith,
    dst: u16,
    a: u16,
    b: u16,
}

#[derive(Clone, Copy)]
enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Neg,
    /// A bit operation (`&`, `|`, `xor`, `<<`, `>>`).
    Bit(BinOp),
}

/// What translating a ruleset allocates: registers past the slots, for constants and
/// temporaries, and which slots are read as integers.
struct Alloc {
    regs: usize,
    consts: Vec<(u16, i64)>,
    int_reads: Vec<bool>,
}

/// The most registers a ruleset's code may use (more stay with the tree).
const REGS: usize = 1 << 12;

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

impl Regs {
    /// `n` registers, all integers 0.
    fn reset(&mut self, n: usize) {
        self.ints.clear();
        self.ints.resize(n, 0);
        self.lists.clear();
        self.lists.resize(n, INT);
    }

    /// A parameter's key word into register `reg`: an integer, or a list's word; `false` for
    /// any other compound (a list register holds lists only: another ruleset may keep a tuple
    /// in place).
    fn load(&mut self, store: &Store, reg: u16, w: u32) -> bool {
        if w & 1 == 0 {
            self.ints[reg as usize] = ((w as i32) >> 1) as i64;
        } else if matches!(store.positions.compound_of(w), Value::List(_)) {
            self.lists[reg as usize] = w;
        } else {
            return false;
        }
        true
    }
}

impl IntCode {
    /// Once the parameters are loaded: `false` if one read as an integer holds a list, else
    /// the constants set.
    fn ready(&self, r: &mut Regs) -> bool {
        if self.int_params.iter().any(|&p| r.lists[p as usize] != INT) {
            return false;
        }
        for &(reg, n) in &self.consts {
            r.ints[reg as usize] = n;
        }
        true
    }
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
        let mut al = Alloc {
            regs: slots,
            consts: Vec::new(),
            int_reads: vec![false; slots],
        };
        let rules = rules
            .iter()
            .map(|r| rule(r, &mut al))
            .collect::<Option<Vec<IRule>>>()?;
        let int_params = params
            .iter()
            .copied()
            .filter(|&p| al.int_reads[p as usize])
            .collect();
        Some(IntCode {
            params,
            int_params,
            consts: al.consts,
            regs: al.regs,
            rules,
        })
    }

    /// Lists the options of position `pos` into `out`; `false` if the listing was abandoned
    /// (`out` may then hold part of it: the caller cuts it back).
    /// The registers `r` and the interrupt flag `stop` are the session's (`Cx::rules.int_regs`
    /// and `Cx::limits.interrupt`), borrowed side by side by the caller.
    pub(super) fn expand(
        &self,
        r: &mut Regs,
        stop: &AtomicBool,
        store: &mut Store,
        pos: PosId,
        out: &mut OptBuf,
    ) -> bool {
        r.reset(self.regs);
        // Tuples are the tree's (the register code holds integers and lists).
        if store.positions.plain_arity(pos) != Some(self.params.len()) {
            return false;
        }
        for (&reg, w) in self.params.iter().zip(store.positions.arg_words(pos)) {
            if !r.load(store, reg, w) {
                return false;
            }
        }
        if !self.ready(r) {
            return false;
        }
        self.rules
            .iter()
            .all(|rule| clauses(stop, store, r, rule, 0, out).is_ok())
    }
}

fn rule(r: &CRule, al: &mut Alloc) -> Option<IRule> {
    let clauses = r
        .clauses
        .iter()
        .map(|c| clause(c, al))
        .collect::<Option<Vec<_>>>()?;
    let mut parts = Vec::new();
    option(&r.option, &mut parts, al)?;
    Some(IRule {
        clauses,
        kind: r.kind,
        parts,
    })
}

fn clause(c: &CClause, al: &mut Alloc) -> Option<IClause> {
    Some(match c {
        CClause::Range {
            slot,
            lo,
            hi,
            inclusive,
            ..
        } => IClause::Range {
            reg: *slot,
            lo: expr(lo, al)?,
            hi: expr(hi, al)?,
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
        CClause::If(e, _) => IClause::If(boolean(e, al)?),
    })
}

fn option(o: &COpt, parts: &mut Vec<IPos>, al: &mut Alloc) -> Option<()> {
    match o {
        COpt::Pos {
            rid, arity, args, ..
        } if args.len() == *arity => {
            let args = args
                .iter()
                .map(|a| match a {
                    CExpr::Slot(s) => Some(IArg::Reg(*s)),
                    e => Some(IArg::Int(expr(e, al)?)),
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
                option(p, parts, al)?;
            }
        }
        _ => return None,
    }
    Some(())
}

fn expr(e: &CExpr, al: &mut Alloc) -> Option<IExpr> {
    let mut code = Vec::new();
    let out = three(e, &mut code, al)?;
    Some(IExpr { code, out })
}

/// Appends the instructions of `e`; the register that holds its value.
fn three(e: &CExpr, code: &mut Vec<Ins>, al: &mut Alloc) -> Option<u16> {
    let fresh = |al: &mut Alloc| {
        let r = al.regs;
        al.regs += 1;
        (r < REGS).then_some(r as u16)
    };
    Some(match e {
        CExpr::Const(Value::Int(n)) => match al.consts.iter().find(|c| c.1 == *n) {
            Some(&(r, _)) => r,
            None => {
                let r = fresh(al)?;
                al.consts.push((r, *n));
                r
            }
        },
        CExpr::Slot(s) => {
            *al.int_reads.get_mut(*s as usize)? = true;
            *s
        }
        CExpr::Bin(
            op @ (BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::Div
            | BinOp::Rem
            | BinOp::BitAnd
            | BinOp::BitOr
            | BinOp::Xor
            | BinOp::Shl
            | BinOp::Shr),
            l,
            r,
            ..,
        ) => {
            let a = three(l, code, al)?;
            let b = three(r, code, al)?;
            let op = match op {
                BinOp::Add => Arith::Add,
                BinOp::Sub => Arith::Sub,
                BinOp::Mul => Arith::Mul,
                BinOp::Div => Arith::Div,
                BinOp::Rem => Arith::Rem,
                bit => Arith::Bit(*bit),
            };
            let dst = fresh(al)?;
            code.push(Ins { op, dst, a, b });
            dst
        }
        CExpr::Neg(x, _) => {
            let a = three(x, code, al)?;
            let dst = fresh(al)?;
            code.push(Ins {
                op: Arith::Neg,
                dst,
                a,
                b: a,
            });
            dst
        }
        _ => return None,
    })
}

fn boolean(e: &CExpr, al: &mut Alloc) -> Option<IBool> {
    Some(match e {
        CExpr::Const(Value::Bool(v)) => IBool::Const(*v),
        CExpr::Bin(
            op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne),
            l,
            r,
            ..,
        ) => IBool::Cmp(*op, expr(l, al)?, expr(r, al)?),
        CExpr::And(l, r, ..) => IBool::And(Box::new(boolean(l, al)?), Box::new(boolean(r, al)?)),
        CExpr::Or(l, r, ..) => IBool::Or(Box::new(boolean(l, al)?), Box::new(boolean(r, al)?)),
        CExpr::Not(x, _) => IBool::Not(Box::new(boolean(x, al)?)),
        _ => return None,
    })
}

/// Integer arithmetic exactly where the tree's is: checked, Euclidean division.
fn int(r: &mut Regs, e: &IExpr) -> Run<i64> {
    for ins in &e.code {
        let (x, y) = (r.ints[ins.a as usize], r.ints[ins.b as usize]);
        r.ints[ins.dst as usize] = match ins.op {
            Arith::Add => x.checked_add(y),
            Arith::Sub => x.checked_sub(y),
            Arith::Mul => x.checked_mul(y),
            Arith::Div if y != 0 => x.checked_div_euclid(y),
            // Wrapping around (`(i - m + n) % n`) needs no division.
            Arith::Rem if 0 <= x && x < y => Some(x),
            Arith::Rem if 0 < y && y <= x && x - y < y => Some(x - y),
            Arith::Rem if y != 0 => x.checked_rem_euclid(y),
            Arith::Neg => x.checked_neg(),
            // An error (a negative shift, an overflow) is the tree's to report.
            Arith::Bit(op) => crate::bits::apply(op, x, y).ok(),
            _ => None,
        }
        .ok_or(Abandon)?;
    }
    Ok(r.ints[e.out as usize])
}

fn truth(r: &mut Regs, b: &IBool) -> Run<bool> {
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

/// Where a rule's options go: the explorer's buffer as interned keys, or a dense row's
/// coordinates.
trait Sink {
    fn emit(&mut self, store: &mut Store, r: &mut Regs, rule: &IRule) -> Run<()>;
}

impl Sink for OptBuf {
    fn emit(&mut self, store: &mut Store, r: &mut Regs, rule: &IRule) -> Run<()> {
        emit(store, r, rule, self)
    }
}

fn clauses<S: Sink>(
    stop: &AtomicBool,
    store: &mut Store,
    r: &mut Regs,
    rule: &IRule,
    i: usize,
    out: &mut S,
) -> Run<()> {
    let Some(c) = rule.clauses.get(i) else {
        return out.emit(store, r, rule);
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
fn emit(store: &mut Store, r: &mut Regs, rule: &IRule, out: &mut OptBuf) -> Run<()> {
    let start = out.atoms.len() as u32;
    for part in &rule.parts {
        // Keys are built on the stack: a position has at most `ARGS` arguments here.
        let mut key = [0u32; ARGS + 1];
        key[0] = part.header;
        for (slot, a) in key[1..].iter_mut().zip(&part.args) {
            *slot = match a {
                IArg::Reg(s) => match r.lists[*s as usize] {
                    INT => PosTable::int_word(r.ints[*s as usize]).ok_or(Abandon)?,
                    // A ruleset that keeps lists in place gets this one from the tree, which
                    // writes its key as every other of its keys is written.
                    _ if store.positions.lists_in_place(part.header >> 8) => return Err(Abandon),
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

/// How a ruleset's positions lie in a dense row ([`loony_graph::row`]): every move goes to the
/// ruleset's own positions as a plain option (or a sum of them), and each parameter is either
/// passed on unchanged by every move (fixed for the whole row) or a coordinate.
pub struct RowShape {
    /// The coordinate index of each parameter, or `None` for one passed on unchanged.
    pub coord: Vec<Option<usize>>,
    pub coords: usize,
    /// Some option is a sum: the row is valued over its box or not at all.
    pub sums: bool,
}

impl IntCode {
    /// The row shape of ruleset `rid`'s register code, if it has one.
    pub(super) fn row_shape(&self, rid: u32) -> Option<RowShape> {
        let n = self.params.len();
        let header = PosTable::header(rid, n);
        let mut fixed = vec![true; n];
        let mut sums = false;
        for rule in &self.rules {
            if rule.kind != OptionKind::Plain {
                return None;
            }
            // Sums are valued over a box, or by the explorer, which folds an option whose
            // parts it knows into one value leaf: for Kayles that is faster and far smaller
            // than a walked row's table of every sum (kayles(3000): 0.7 s and 7 MB against
            // 0.9 s and 225 MB).
            sums |= rule.parts.len() != 1;
            for part in &rule.parts {
                if part.header != header || part.args.len() != n {
                    return None;
                }
                for (j, a) in part.args.iter().enumerate() {
                    if !matches!(a, IArg::Reg(s) if *s == self.params[j]) {
                        fixed[j] = false;
                    }
                }
            }
        }
        let mut coords = 0;
        let coord = fixed
            .iter()
            .map(|&f| {
                (!f).then(|| {
                    coords += 1;
                    coords - 1
                })
            })
            .collect();
        (coords > 0).then_some(RowShape {
            coord,
            coords,
            sums,
        })
    }

    /// Lists the options of the position of row `(shape, fixed)` (`fixed`: the key words of
    /// the parameters passed on, in order) whose coordinates are `at`; `false` if the register
    /// code cannot (the row is then left to the explorer).
    pub(super) fn list_row(
        &self,
        (shape, fixed): (&RowShape, &[u32]),
        stop: &AtomicBool,
        store: &mut Store,
        r: &mut Regs,
        at: &[i64],
        out: &mut RowOptions,
    ) -> bool {
        r.reset(self.regs);
        let mut fixed = fixed.iter();
        for (j, &reg) in self.params.iter().enumerate() {
            let loaded = match shape.coord[j] {
                Some(c) => {
                    r.ints[reg as usize] = at[c];
                    true
                }
                None => fixed.next().is_some_and(|&w| r.load(store, reg, w)),
            };
            if !loaded {
                return false;
            }
        }
        if !self.ready(r) {
            return false;
        }
        let mut sink = RowSink { shape, out };
        self.rules
            .iter()
            .all(|rule| clauses(stop, store, r, rule, 0, &mut sink).is_ok())
    }
}

/// A rule's option as coordinates: its number of parts, then each part's coordinates.
struct RowSink<'a> {
    shape: &'a RowShape,
    out: &'a mut RowOptions,
}

impl Sink for RowSink<'_> {
    fn emit(&mut self, _: &mut Store, r: &mut Regs, rule: &IRule) -> Run<()> {
        self.out.words.push(rule.parts.len() as i64);
        for part in &rule.parts {
            for (j, a) in part.args.iter().enumerate() {
                if self.shape.coord[j].is_none() {
                    continue;
                }
                let x = match a {
                    IArg::Reg(s) if r.lists[*s as usize] == INT => r.ints[*s as usize],
                    IArg::Reg(_) => return Err(Abandon),
                    IArg::Int(e) => int(r, e)?,
                };
                // What a key holds as a small integer; the rest is the tree's.
                PosTable::int_word(x).ok_or(Abandon)?;
                self.out.words.push(x);
            }
        }
        Ok(())
    }
}
