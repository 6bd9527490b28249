//! Runtime values of the language: what an expression evaluates to, and how a value is an
//! argument of a ruleset position ([`ArgValue`], through which the position table of
//! `loony-core` keeps and reads it back).

use loony_core::board::Board;
use loony_core::compounds::{ArgValue, Shape};
use loony_core::game::{Arg, GameId};
use loony_core::graphs::Graph;
use loony_syntax::ast::{FnDef, RulesetDef};
use loony_theory::misere::Mid;
use std::rc::Rc;

pub use loony_core::class::Outcome;

/// A user function with the file it was defined in (its spans point there).
#[derive(Debug)]
pub struct Closure {
    pub def: Rc<FnDef>,
    pub file: usize,
}

/// A user ruleset: its definition, its file, and its id in the store.
#[derive(Debug)]
pub struct Ruleset {
    pub def: Rc<RulesetDef>,
    pub file: usize,
    pub id: u32,
}

/// What a nim-sequence was computed from.
#[derive(Clone, Debug)]
pub enum SequenceOf {
    /// Heap rules of the session's heap table.
    Heap(u32),
    /// A user ruleset or function of one integer, by name.
    Named(Rc<str>),
}

/// A nim-sequence starting at heap size `start`.
#[derive(Debug)]
pub struct Sequence {
    pub start: u64,
    /// One to four bytes a heap, as the largest value needs.
    pub values: loony_core::packed::Packed,
    /// The game it is the sequence of (for a plot's title and period).
    pub of: SequenceOf,
}

/// A record with named fields (e.g. the result of `periodicity`).
#[derive(Debug, Clone)]
pub struct Record {
    pub kind: &'static str,
    pub fields: Vec<(&'static str, Value)>,
    /// How the record prints as a statement result.
    pub summary: String,
}

#[derive(Clone, Debug)]
pub enum Value {
    Int(i64),
    Bool(bool),
    /// The absent value: a field with nothing to report (no period found, no name).
    None,
    /// A string, behind one thin pointer (`Rc<str>` is two words, and made every value three).
    Str(Rc<String>),
    /// A game; printed as its value (`*2`, `☾`).
    Game(GameId),
    /// A game printed by structure (a move, an option): `kayles(3) + kayles(1)`.
    Position(GameId),
    List(Rc<Vec<Value>>),
    Tuple(Rc<Vec<Value>>),
    Outcome(Outcome),
    Func(Rc<Closure>),
    Ruleset(Rc<Ruleset>),
    /// A built-in function: its row in the interpreter's table of built-ins.
    Builtin(u16),
    /// Heap rules (a take-and-break code or subtraction set), callable on a heap size.
    Heap(u32),
    Record(Rc<Record>),
    /// A nim-sequence, printed compactly (behind one pointer, so a `Value` stays two words).
    Sequence(Rc<Sequence>),
    /// Text printed as is, inside lists too: prose (`explain`) and notations whose printed form
    /// is the literature's (genera `4^146`, quotient words `ab2`). Equal to a string of the same
    /// text.
    Text(Rc<String>),
    /// A misère canonical game of the session's misère store, printed in CGSuite's notation.
    Misere(Mid),
    /// An element of a misère quotient: the quotient's number in the session, the element's
    /// index in it. Printed as its normal word (`ab2`).
    Element(u32, u32),
    /// A board of cells (`board("..#|...")`), printed as its picture.
    Board(Rc<Board>),
    /// A simple graph on `0..n` (`graph(3, [(0, 1)])`).
    Graph(Rc<Graph>),
}

// Lists of 10⁶ positions are common (`[r(i) for i in 0..10^6]`): a value stays two words
// (a tag and one word: strings and texts are `Rc<String>`, not the two words of `Rc<str>`).
const _: () = assert!(std::mem::size_of::<Value>() <= 16);

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "an integer",
            Value::Bool(_) => "a boolean",
            Value::None => "none (an absent value)",
            Value::Str(_) => "a string",
            Value::Game(_) | Value::Position(_) => "a game",
            Value::List(_) => "a list",
            Value::Tuple(_) => "a tuple",
            Value::Outcome(_) => "an outcome",
            Value::Func(_) => "a function",
            Value::Ruleset(_) => "a ruleset",
            Value::Builtin(_) => "a built-in function",
            Value::Heap(_) => "a heap game",
            Value::Record(_) => "a record",
            Value::Sequence(_) => "a nim-sequence",
            Value::Text(_) => "text",
            Value::Misere(_) => "a misère game",
            Value::Element(..) => "a quotient element",
            Value::Board(_) => "a board",
            Value::Graph(_) => "a graph",
        }
    }
}

impl ArgValue for Value {
    #[inline]
    fn shape(&self) -> Shape<'_, Value> {
        match self {
            Value::Int(n) => Shape::Int(*n),
            Value::List(xs) | Value::Tuple(xs) => Shape::Items {
                list: matches!(self, Value::List(_)),
                items: xs,
                address: Rc::as_ptr(xs) as usize,
            },
            Value::Board(b) => Shape::Board(b),
            _ => Shape::Other,
        }
    }

    fn to_arg(&self) -> Option<Arg> {
        Some(match self {
            Value::Int(n) => Arg::Int(*n),
            Value::Tuple(xs) => Arg::Tuple(xs.iter().map(Value::to_arg).collect::<Option<_>>()?),
            Value::List(xs) => Arg::List(xs.iter().map(Value::to_arg).collect::<Option<_>>()?),
            Value::Board(b) => Arg::Board(b.clone()),
            Value::Graph(g) => Arg::Graph(g.clone()),
            _ => return None,
        })
    }

    fn from_arg(a: &Arg) -> Value {
        match a {
            Arg::Int(n) => Value::Int(*n),
            Arg::Tuple(xs) => Value::Tuple(Rc::new(xs.iter().map(Value::from_arg).collect())),
            Arg::List(xs) => Value::List(Rc::new(xs.iter().map(Value::from_arg).collect())),
            Arg::Board(b) => Value::Board(b.clone()),
            Arg::Graph(g) => Value::Graph(g.clone()),
        }
    }

    #[inline]
    fn from_int(n: i64) -> Value {
        Value::Int(n)
    }

    fn from_items(list: bool, items: Vec<Value>) -> Value {
        if list {
            Value::List(Rc::new(items))
        } else {
            Value::Tuple(Rc::new(items))
        }
    }
}
