//! The compiled tree: patterns, rules, clauses, options and expressions over slots, as the
//! compiler makes them and compiled code (and the register code, `intcode`) reads them.

use crate::value::Value;
use loony_syntax::ast::{BinOp, Expr, OptionKind, Span};
use std::cell::OnceCell;
use std::rc::Rc;

#[derive(Clone)]
pub(crate) enum Pat {
    Slot(u16),
    Tuple(Vec<Pat>, Span),
}

pub(crate) struct CRule {
    pub(crate) clauses: Vec<CClause>,
    pub(crate) kind: OptionKind,
    pub(crate) option: COpt,
}

pub(crate) enum CClause {
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

pub(crate) enum COpt {
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
    /// A built-in of plain values, by its id in the catalog (an id, not the row: the row
    /// holds a function of `Cx`, which holds compiled code).
    Builtin(u16, Vec<CExpr>, Rc<[Expr]>, Span),
    /// `r(args…)` of a ruleset as a value: its key made in place when every argument has
    /// words without evaluating anything, else the whole call is the interpreter's.
    Pos(Box<PosCall>),
    /// Evaluated by the interpreter, with these frame names bound.
    Interp(Rc<Expr>, Rc<[(Rc<str>, u16)]>),
}

pub(crate) struct PosCall {
    pub(crate) rid: u32,
    pub(crate) args: Vec<CExpr>,
    /// The words of each constant argument once made (a list literal's compound is looked
    /// up by its address once, not at every turn of a loop).
    pub(crate) words: Vec<OnceCell<Box<[u32]>>>,
    /// The call itself, for the interpreter when a key cannot be made in place.
    pub(crate) expr: Rc<Expr>,
    pub(crate) names: Rc<[(Rc<str>, u16)]>,
}
