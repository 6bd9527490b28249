//! What a row of the table is: a built-in's name, implementation (its family's operation),
//! signature, arity, documentation and example.

use crate::value::Outcome;

/// The sections of the documentation, one a family of built-ins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Values, outcomes, moves and list helpers (`builtins`).
    Core,
    /// An outcome class constant (`P`, `N`, `L`, `R`, `D`).
    Constant,
    /// Heap games and nim-sequences (`heaps`).
    Heaps,
    /// Misère play (`misere`).
    Misere,
    /// Misère quotients (`quotient`).
    Quotient,
    /// Bits, sets, boards and graphs (`boards`).
    Boards,
}

/// What a built-in runs: an outcome constant's value, or the operation of one family, each
/// family's operations one enum matched exhaustively by that family's dispatcher (so a row
/// without an implementation does not compile).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impl {
    Constant(Outcome),
    Core(CoreOp),
    Heaps(HeapOp),
    Misere(MisereOp),
    Quotient(QuotientOp),
    Boards(BoardOp),
}

/// One built-in: one row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    pub name: &'static str,
    /// What it runs.
    pub imp: Impl,
    /// How it is called, as `:help` shows it.
    pub signature: &'static str,
    /// Fewest and most arguments.
    pub arity: (usize, usize),
    /// What it computes, in a paragraph.
    pub doc: &'static str,
    /// A call and what Loony prints for it (checked by the tests; empty for side effects).
    pub example: &'static str,
    pub result: &'static str,
    /// The shape of the record it returns; `None` when it returns no record.
    pub record: Option<&'static RecordShape>,
}

/// What a record returned by a built-in holds: its fields, in order, and the functions it
/// answers (`q.is_p(x)`). Completion after `q.` offers them; a test checks them against the
/// records the built-ins make.
#[derive(Debug, PartialEq, Eq)]
pub struct RecordShape {
    pub fields: &'static [&'static str],
    pub methods: &'static [&'static str],
}

/// Values, outcomes, moves and list helpers, answered in `builtins`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreOp {
    Outcome,
    Value,
    Nimber,
    GrundyValue,
    AffineValue,
    Explain,
    OutcomeBySearch,
    WinningMoves,
    DrawingMoves,
    Options,
    LeftOptions,
    RightOptions,
    TopEntailsValue,
    TopEntailsMoons,
    Len,
    Size,
    Sum,
    Mex,
    Min,
    Max,
    Sorted,
    Reverse,
    Contains,
    Remove,
    Append,
    Abs,
    SaveTable,
    LoadTable,
}

/// Bits, sets, boards and graphs, answered in `boards`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardOp {
    Popcount,
    Bit,
    Bits,
    Set,
    Union,
    Intersection,
    Difference,
    Board,
    Shape,
    Cells,
    Neighbours,
    AdjacentPairs,
    Regions,
    Canonical,
    Rotate,
    Reflect,
    Transpose,
    Graph,
    Vertices,
    Edges,
    Degree,
    RemoveVertices,
    Components,
}

/// Heap games and nim-sequences, answered in `heaps`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeapOp {
    Heap,
    HeapCode,
    NimSum,
    NimProduct,
    NimInverse,
    NimDiv,
    Subtraction,
    Allbut,
    NimSequence,
    Periodicity,
    RareValues,
    WriteSequence,
    ReadSequence,
    Plot,
}

/// Misère play, answered in `misere`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MisereOp {
    MisereOutcome,
    MisereForm,
    Genus,
    MisereNimber,
    Birthday,
    IsTame,
    IsRestive,
    IsRestless,
    IsHalfTame,
    IsTameable,
    IsGenerallyTame,
    IsGenerallyRestive,
    IsExtraverted,
    IsIntroverted,
    IsEven,
    IsPrime,
    IsNimHeap,
    Mate,
    Parts,
    Partitions,
    Distinguisher,
    IsLinked,
    Link,
    MisereMinus,
}

/// Misère quotients, answered in `quotient`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotientOp {
    Quotient,
    Isomorphic,
}
