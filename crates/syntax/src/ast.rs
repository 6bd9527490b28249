//! The syntax tree. Every node carries the byte span it came from, so evaluation errors can
//! point back at source.

use std::ops::Range;

pub type Span = Range<usize>;

#[derive(Debug, Clone)]
pub struct Program {
    pub stmts: Vec<Stmt>,
}

#[derive(Debug, Clone)]
pub enum Stmt {
    /// `span` runs from `let` to the end of the value.
    Let {
        name: Ident,
        value: Expr,
        span: Span,
    },
    Fn(std::rc::Rc<FnDef>),
    Ruleset(std::rc::Rc<RulesetDef>),
    Import {
        path: String,
        span: Span,
    },
    Expr(Expr),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    /// Shared, so binding a name at run time does not allocate.
    pub name: std::rc::Rc<str>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct FnDef {
    pub name: Ident,
    pub params: Vec<Pattern>,
    pub body: Expr,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct RulesetDef {
    pub name: Ident,
    pub params: Vec<Pattern>,
    /// `split by e`: the independent parts of a position, each the argument (or the tuple
    /// of arguments) of a position of this ruleset; the position is their sum.
    pub split: Option<Expr>,
    /// `canonical by e`: the argument (or tuple of arguments) that stands for the position's
    /// whole symmetry class, so that symmetric positions are one position.
    pub canonical: Option<Expr>,
    /// What the ruleset tells pruned search about its positions (never what they are).
    pub hints: Hints,
    pub rules: Vec<Rule>,
    pub span: Span,
}

/// A ruleset's hints to pruned search: each an expression of the ruleset's parameters,
/// evaluated on one part (a position after `split by` and `canonical by`).
#[derive(Debug, Clone, Default)]
pub struct Hints {
    /// `bound by e`: an integer the part's nimber does not exceed.
    pub bound: Option<Expr>,
    /// `order by e`: an integer; options whose parts sum to less are tried first.
    pub order: Option<Expr>,
    /// `value by e`: the part's nimber where `e` knows it (an integer), else `none`.
    pub value: Option<Expr>,
}

impl Hints {
    pub fn any(&self) -> bool {
        self.bound.is_some() || self.order.is_some() || self.value.is_some()
    }
}

#[derive(Debug, Clone)]
pub struct Rule {
    pub clauses: Vec<Clause>,
    pub kind: OptionKind,
    pub option: Expr,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OptionKind {
    Plain,
    /// The opponent must answer inside the option.
    Entail,
    /// The mover moves again from the option.
    Carry,
}

#[derive(Debug, Clone)]
pub enum Clause {
    For { pat: Pattern, iter: Expr },
    If(Expr),
}

#[derive(Debug, Clone)]
pub enum Pattern {
    Name(Ident),
    Tuple(Vec<Pattern>, Span),
}

impl Pattern {
    pub fn span(&self) -> Span {
        match self {
            Pattern::Name(id) => id.span.clone(),
            Pattern::Tuple(_, s) => s.clone(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    /// Integer power, `2^32` (right-associative, above `*`).
    Pow,
    /// Bit operations on integers (two's complement, as Python's).
    BitAnd,
    BitOr,
    Xor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Pow => "^",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::Xor => "xor",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "and",
            BinOp::Or => "or",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Terminal {
    /// ∞: Left wins.
    LeftWin,
    /// ∞̄: Right wins.
    RightWin,
    /// ☾ = {∞ | ∞̄}; called, `☾(n)` is the special moon ⟫(n).
    Moon,
    /// ⟫, written `⟫(n)`: the special moon.
    SpecialMoon,
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Str(String),
    /// `none`, the absent value.
    NoneValue,
    Var(String),
    Terminal(Terminal),
    /// `*` alone (None) or `*e`.
    Nimber(Option<Box<Expr>>),
    Form {
        left: Vec<Expr>,
        right: Vec<Expr>,
    },
    /// `name{L | R}`: a form that may mention itself by `name`.
    Labelled {
        name: Ident,
        left: Vec<Expr>,
        right: Vec<Expr>,
    },
    List(Vec<Expr>),
    /// `{1, 5, 3}`: a set of integers, the sorted list of its items, each once. A brace
    /// list with a `|` is a form.
    Set(Vec<Expr>),
    Tuple(Vec<Expr>),
    Comprehension {
        elem: Box<Expr>,
        clauses: Vec<Clause>,
    },
    Range {
        lo: Box<Expr>,
        hi: Box<Expr>,
        inclusive: bool,
    },
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
    },
    Field {
        target: Box<Expr>,
        name: Ident,
    },
    Index {
        target: Box<Expr>,
        index: Box<Expr>,
    },
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    Let {
        name: Ident,
        value: Box<Expr>,
        body: Box<Expr>,
    },
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Self {
        Expr { kind, span }
    }
}

pub(crate) fn bin(op: BinOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    Expr::new(
        ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        span,
    )
}
