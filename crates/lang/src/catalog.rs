//! The built-ins, in one table: name, signature, arity, a paragraph of documentation and an
//! example with its result. Dispatch, "did you mean", completion, `:help NAME` and
//! `docs/builtins.md` all read it, so a built-in cannot exist without its documentation, and
//! each row names its implementation.

use loony_core::value::Outcome;

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

/// Misère quotients, answered in `quotient`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotientOp {
    Quotient,
    Isomorphic,
}

/// One built-in: one row of the table.
#[derive(Debug)]
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

/// `periodicity(g)`.
pub static PERIODICITY: RecordShape = RecordShape {
    fields: &[
        "period",
        "preperiod",
        "last_exceptional",
        "saltus",
        "certified",
        "certified_at",
        "checked_up_to",
    ],
    methods: &[],
};

/// `rare_values(g, n)`.
pub static RARE_VALUES: RecordShape = RecordShape {
    fields: &[
        "mask",
        "heaps",
        "values",
        "count",
        "largest",
        "checked_up_to",
    ],
    methods: &[],
};

/// `write_sequence(g, n, file)`.
pub static SEQUENCE_FILE: RecordShape = RecordShape {
    fields: &["path", "format", "first", "last", "heaps", "bytes"],
    methods: &[],
};

/// `quotient(g)`.
pub static QUOTIENT: RecordShape = RecordShape {
    fields: &[
        "order",
        "p_portion",
        "presentation",
        "period",
        "preperiod",
        "phi",
        "table",
        "elements",
        "certified",
        "certified_at",
        "heap",
        "name",
        "game",
    ],
    methods: &["is_p", "element"],
};

impl Builtin {
    /// The section of the documentation it belongs to.
    pub fn family(&self) -> Family {
        match self.imp {
            Impl::Constant(_) => Family::Constant,
            Impl::Core(_) => Family::Core,
            Impl::Heaps(_) => Family::Heaps,
            Impl::Misere(_) => Family::Misere,
            Impl::Quotient(_) => Family::Quotient,
            Impl::Boards(_) => Family::Boards,
        }
    }

    /// Whether it only reads plain values (integers and lists), so compiled rules call it
    /// without the interpreter.
    pub fn on_plain_values(&self) -> bool {
        use CoreOp::*;
        matches!(
            self.imp,
            Impl::Core(
                Len | Sum | Mex | Min | Max | Sorted | Reverse | Contains | Remove | Append | Abs
            ) | Impl::Boards(_)
        )
    }

    /// Its index in [`BUILTINS`], which a `Value::Builtin` holds.
    pub fn id(&'static self) -> u16 {
        let offset = (self as *const Builtin as usize).wrapping_sub(BUILTINS.as_ptr() as usize);
        let i = offset / std::mem::size_of::<Builtin>();
        assert!(
            i < BUILTINS.len(),
            "`{}` is not a row of BUILTINS",
            self.name
        );
        i as u16
    }
}

/// The families in the order the documentation shows them.
pub const FAMILIES: [Family; 6] = [
    Family::Core,
    Family::Boards,
    Family::Constant,
    Family::Heaps,
    Family::Misere,
    Family::Quotient,
];

/// The section of the documentation a family belongs to.
pub fn section(f: Family) -> &'static str {
    match f {
        Family::Core => "Values, outcomes and moves",
        Family::Constant => "Outcome classes",
        Family::Heaps => "Heap games",
        Family::Misere => "Misère play",
        Family::Quotient => "Misère quotients",
        Family::Boards => "Bits, sets, boards and graphs",
    }
}

// A static, not a const: a row has one address, from which its id is read.
pub static BUILTINS: &[Builtin] = &[
    // --- values, outcomes and moves ---
    Builtin {
        name: "outcome",
        imp: Impl::Core(CoreOp::Outcome),
        signature: "outcome(g)",
        arity: (1, 1),
        doc: "The outcome class of `g` under normal play: `P` (the previous player wins), `N` (the \
         next player wins), `D` (a draw: neither player can force a win; only loopy games \
         draw), or `L`/`R` when `g` contains `∞`/`∞̄` and Left/Right wins whoever starts. Found \
         from the value where the theory gives one, otherwise by an exact search.",
        example: "outcome(*3 + *3)",
        result: "P",
        record: None,
    },
    Builtin {
        name: "value",
        imp: Impl::Core(CoreOp::Value),
        signature: "value(g)",
        arity: (1, 1),
        doc: "The value of an impartial game: a nimber `*n`, the moon `☾` or a special moon `⟫(n)` \
         for games with entailing or carry-on moves, `∞(A)` for a loopy game that can escape \
         to the nim-values `A`. A bare game prints its value, so `value(g)` is mostly useful \
         for comparing and storing. An error (with the outcome found by search) where no \
         theory gives a value.",
        example: "value(a{a, * | a, *})",
        result: "∞(1)",
        record: None,
    },
    Builtin {
        name: "nimber",
        imp: Impl::Core(CoreOp::Nimber),
        signature: "nimber(g)",
        arity: (1, 1),
        doc: "The Sprague–Grundy value of `g` as an integer; an error when the value of `g` is not \
         a nimber (a moon or a loopy value).",
        example: "nimber(*2 + *3)",
        result: "1",
        record: None,
    },
    Builtin {
        name: "grundy_value",
        imp: Impl::Core(CoreOp::GrundyValue),
        signature: "grundy_value(g)",
        arity: (1, 1),
        doc: "Another name for `nimber`: the Sprague–Grundy value of `g` as an integer.",
        example: "grundy_value({0, * | 0, *})",
        result: "2",
        record: None,
    },
    Builtin {
        name: "affine_value",
        imp: Impl::Core(CoreOp::AffineValue),
        signature: "affine_value(g)",
        arity: (1, 1),
        doc: "The value of `g` in the theory of affine impartial games (seed 000: entailing and \
         carry-on moves, `∞`, `∞̄`): a nimber or `☾`. An error for loopy games.",
        example: "affine_value({∞ | ∞̄})",
        result: "☾",
        record: None,
    },
    Builtin {
        name: "explain",
        imp: Impl::Core(CoreOp::Explain),
        signature: "explain(g)",
        arity: (1, 1),
        doc: "How the affine engine valued `g`: its immediate nimbers `S` (the values of its plain \
         options), its protected nimbers `P` (those its entailing options protect against, \
         `nim∖X` meaning every nimber but `X`), and the rule that gives the value: \
         `mex(S ∪ P)`, or `☾` when `S ∪ P` is every nimber.",
        example: "explain({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
        result: "S = {0}, P = nim∖{0}: S ∪ P = nim, so G = ☾",
        record: None,
    },
    Builtin {
        name: "outcome_by_search",
        imp: Impl::Core(CoreOp::OutcomeBySearch),
        signature: "outcome_by_search(g)",
        arity: (1, 1),
        doc: "The outcome of `g` by exhaustive search of its positions, using no value theory (a \
         check on `outcome`; exponential in the number of components of a sum).",
        example: "outcome_by_search(*2 + *2)",
        result: "P",
        record: None,
    },
    Builtin {
        name: "winning_moves",
        imp: Impl::Core(CoreOp::WinningMoves),
        signature: "winning_moves(g)",
        arity: (1, 1),
        doc: "The options of `g` that win for the player who takes them (empty when `g` is lost or \
         drawn for the mover). Entailing and carry-on options are judged with the opponent's \
         forced reply.",
        example: "winning_moves(* + *2)",
        result: "[* + *]",
        record: None,
    },
    Builtin {
        name: "drawing_moves",
        imp: Impl::Core(CoreOp::DrawingMoves),
        signature: "drawing_moves(g)",
        arity: (1, 1),
        doc: "The options of a loopy game `g` that keep a draw (to a `D` position) for the mover.",
        example: "drawing_moves(a{a, * | a, *})",
        result: "[a{a, * | a, *}]",
        record: None,
    },
    Builtin {
        name: "options",
        imp: Impl::Core(CoreOp::Options),
        signature: "options(g)",
        arity: (1, 1),
        doc: "The options of `g`, each distinct option once. For an impartial game these are both \
         players' options; for a game with entailing moves they are Left's (see \
         `left_options`, `right_options`); for a misère form, its canonical options in \
         CGSuite's order.",
        example: "options(*3)",
        result: "[0, *, *2]",
        record: None,
    },
    Builtin {
        name: "left_options",
        imp: Impl::Core(CoreOp::LeftOptions),
        signature: "left_options(g)",
        arity: (1, 1),
        doc: "Left's options of `g`. Impartial games with entailing moves are written with the two \
         sides mirrored (`{∞ | 0}` for Left is `{0 | ∞̄}` for Right), so the sides differ.",
        example: "left_options({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
        result: "[0, {∞ | 0}]",
        record: None,
    },
    Builtin {
        name: "right_options",
        imp: Impl::Core(CoreOp::RightOptions),
        signature: "right_options(g)",
        arity: (1, 1),
        doc: "Right's options of `g` (see `left_options`).",
        example: "right_options({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
        result: "[0, {0 | ∞̄}]",
        record: None,
    },
    Builtin {
        name: "top_entails_value",
        imp: Impl::Core(CoreOp::TopEntailsValue),
        signature: "top_entails_value(n)",
        arity: (1, 1),
        doc: "The value of a Top Entails stack of `n` coins by the Theorem-41 recurrence \
         (Larsson–Nowakowski–Santos), without building the game; `n` up to 10 000 000, at a \
         cost that grows as `n²` (`n²/4` look-ups of pairs, shared by the cores: 10⁵ stacks \
         take about 2 s, 6·10⁵ a quarter of a minute to a minute on two cores, 10⁷ hours). \
         The session keeps one run and extends it, so asking stack after stack costs one \
         run. The ruleset itself is `std/top_entails`.",
        example: "top_entails_value(3)",
        result: "☾",
        record: None,
    },
    Builtin {
        name: "top_entails_moons",
        imp: Impl::Core(CoreOp::TopEntailsMoons),
        signature: "top_entails_moons(n)",
        arity: (1, 1),
        doc: "The Top Entails stacks of at most `n` coins whose value is `☾` (fast path, as \
         `top_entails_value`).",
        example: "top_entails_moons(3000)",
        result: "[1, 3, 2403, 2505]",
        record: None,
    },
    Builtin {
        name: "len",
        imp: Impl::Core(CoreOp::Len),
        signature: "len(xs)",
        arity: (1, 1),
        doc: "The length of a list, tuple or nim-sequence, or the number of characters of a string.",
        example: "len([*, *2, *3])",
        result: "3",
        record: None,
    },
    Builtin {
        name: "size",
        imp: Impl::Core(CoreOp::Size),
        signature: "size(x)",
        arity: (1, 1),
        doc: "How many characters `x` prints in, as the REPL would print it (with `:ascii`, in \
         ASCII): the size of a large misère form or list without printing it.",
        example: "size([*, *2, *3])",
        result: "11",
        record: None,
    },
    Builtin {
        name: "sum",
        imp: Impl::Core(CoreOp::Sum),
        signature: "sum(xs)",
        arity: (1, 1),
        doc: "The sum of a list: of integers, an integer; of games, their disjunctive sum; of \
         misère forms, their misère sum.",
        example: "sum([*1, *2, *3])",
        result: "0",
        record: None,
    },
    Builtin {
        name: "mex",
        imp: Impl::Core(CoreOp::Mex),
        signature: "mex(xs)",
        arity: (1, 1),
        doc: "The least nonnegative integer not in the list (negative entries are ignored).",
        example: "mex([0, 1, 3])",
        result: "2",
        record: None,
    },
    Builtin {
        name: "min",
        imp: Impl::Core(CoreOp::Min),
        signature: "min(xs)",
        arity: (1, 1),
        doc: "The least integer of a nonempty list.",
        example: "min([4, 2, 9])",
        result: "2",
        record: None,
    },
    Builtin {
        name: "max",
        imp: Impl::Core(CoreOp::Max),
        signature: "max(xs)",
        arity: (1, 1),
        doc: "The greatest integer of a nonempty list.",
        example: "max([4, 2, 9])",
        result: "9",
        record: None,
    },
    Builtin {
        name: "sorted",
        imp: Impl::Core(CoreOp::Sorted),
        signature: "sorted(xs)",
        arity: (1, 1),
        doc: "A list of integers in increasing order.",
        example: "sorted([3, 1, 2])",
        result: "[1, 2, 3]",
        record: None,
    },
    Builtin {
        name: "reverse",
        imp: Impl::Core(CoreOp::Reverse),
        signature: "reverse(xs)",
        arity: (1, 1),
        doc: "The list in reverse order.",
        example: "reverse([1, 2, 3])",
        result: "[3, 2, 1]",
        record: None,
    },
    Builtin {
        name: "contains",
        imp: Impl::Core(CoreOp::Contains),
        signature: "contains(xs, x)",
        arity: (2, 2),
        doc: "Whether the list holds `x` (integers, strings, booleans, outcomes and games by \
         identity).",
        example: "contains([1, 2], 2)",
        result: "true",
        record: None,
    },
    Builtin {
        name: "remove",
        imp: Impl::Core(CoreOp::Remove),
        signature: "remove(xs, i)",
        arity: (2, 2),
        doc: "The list without its entry at index `i` (counting from 0).",
        example: "remove([5, 6, 7], 1)",
        result: "[5, 7]",
        record: None,
    },
    Builtin {
        name: "append",
        imp: Impl::Core(CoreOp::Append),
        signature: "append(xs, x)",
        arity: (2, 2),
        doc: "The list with `x` added at the end.",
        example: "append([1], 2)",
        result: "[1, 2]",
        record: None,
    },
    Builtin {
        name: "abs",
        imp: Impl::Core(CoreOp::Abs),
        signature: "abs(n)",
        arity: (1, 1),
        doc: "The absolute value of an integer.",
        example: "abs(-4)",
        result: "4",
        record: None,
    },
    Builtin {
        name: "save_table",
        imp: Impl::Core(CoreOp::SaveTable),
        signature: "save_table(file)",
        arity: (1, 1),
        doc: "Writes what pruned search learned (its table, and the nimbers it found of the parts \
         of rulesets that split) to `file`, positions stored by their arguments and their \
         ruleset's name and a hash of its definition, the file ending in a checksum; written to \
         a temporary file and renamed, so a save stopped half-way leaves the last whole file. \
         The number of positions written. `load_table` reads it back, in this session or \
         another; `loony --table FILE` loads at start and saves at exit.",
        example: "",
        result: "",
        record: None,
    },
    Builtin {
        name: "load_table",
        imp: Impl::Core(CoreOp::LoadTable),
        signature: "load_table(file)",
        arity: (1, 1),
        doc: "Reads a table that `save_table` wrote into this session's table (and its nimbers \
         into the memo), so a long search resumes where the saved one stopped. Its rulesets \
         must be defined first, with the text they had when it was saved. A file cut short, \
         altered, or saved for other rulesets is an error, and nothing of it is loaded. The \
         number of positions read.",
        example: "",
        result: "",
        record: None,
    },
    // --- bits, sets, boards and graphs ---
    Builtin {
        name: "popcount",
        imp: Impl::Boards(BoardOp::Popcount),
        signature: "popcount(x)",
        arity: (1, 1),
        doc: "The number of 1 bits of the integer `x` (from 0; a negative `x` is an error, having \
         infinitely many).",
        example: "popcount(13)",
        result: "3",
        record: None,
    },
    Builtin {
        name: "bit",
        imp: Impl::Boards(BoardOp::Bit),
        signature: "bit(x, i)",
        arity: (2, 2),
        doc: "Whether bit `i` (from 0, the units) of the integer `x` is 1: `x >> i & 1 == 1`. With \
         the operators `&`, `|`, `xor` (also `^^`), `<<` and `>>`, an integer is a set of small \
         numbers (a bit set): a board of up to 62 cells is one integer.",
        example: "[bit(6, i) for i in 0..3]",
        result: "[false, true, true]",
        record: None,
    },
    Builtin {
        name: "bits",
        imp: Impl::Boards(BoardOp::Bits),
        signature: "bits(x)",
        arity: (1, 1),
        doc: "The positions of the 1 bits of the non-negative integer `x`, from the lowest: the \
         members of a bit set.",
        example: "bits(13)",
        result: "[0, 2, 3]",
        record: None,
    },
    Builtin {
        name: "set",
        imp: Impl::Boards(BoardOp::Set),
        signature: "set(xs, i, v)",
        arity: (3, 3),
        doc: "A copy of the list `xs` with item `i` (from 0) replaced by `v`; of the board `xs` with \
         the cell `i` (a `(row, column)` pair or an index), or every cell of a list of cells, \
         set to `v` (a one-character string). The original is unchanged.",
        example: "set([1, 2, 3], 1, 7)",
        result: "[1, 7, 3]",
        record: None,
    },
    Builtin {
        name: "union",
        imp: Impl::Boards(BoardOp::Union),
        signature: "union(a, b)",
        arity: (2, 2),
        doc: "The union of two sets: of two lists, the sorted list of what either holds (each once); \
         of two integers (bit sets), `a | b`.",
        example: "union([3, 1], [2, 3])",
        result: "[1, 2, 3]",
        record: None,
    },
    Builtin {
        name: "intersection",
        imp: Impl::Boards(BoardOp::Intersection),
        signature: "intersection(a, b)",
        arity: (2, 2),
        doc: "What both sets hold: of two lists, a sorted list, each once; of two integers, `a & b`.",
        example: "intersection([3, 1, 2], [2, 3, 5])",
        result: "[2, 3]",
        record: None,
    },
    Builtin {
        name: "difference",
        imp: Impl::Boards(BoardOp::Difference),
        signature: "difference(a, b)",
        arity: (2, 2),
        doc: "What `a` holds and `b` does not: of two lists, a sorted list, each once; of two \
         integers, the bits of `a` not in `b`.",
        example: "difference([1, 2, 3], [2])",
        result: "[1, 3]",
        record: None,
    },
    Builtin {
        name: "board",
        imp: Impl::Boards(BoardOp::Board),
        signature: "board(picture), board(rows, cols), board(rows, cols, cell)",
        arity: (1, 3),
        doc: "A board of cells, each one printable character: read from a picture whose rows are \
         separated by `|` or line breaks (`board(\"..#|...\")`, `.` free and `#` blocked by \
         convention), or `rows × cols` cells of `cell` (`.` when left out). `b[(r, c)]` is a \
         cell as a one-character string (`(0, 0)` the top left; an index `r * cols + c` also \
         works). A board alone prints as its picture, inside a list as `board(\"…\")`; boards \
         may be ruleset arguments.",
        example: "board(\"..#|...\")[(0, 2)]",
        result: "#",
        record: None,
    },
    Builtin {
        name: "shape",
        imp: Impl::Boards(BoardOp::Shape),
        signature: "shape(b)",
        arity: (1, 1),
        doc: "The board's rows and columns, as a pair.",
        example: "shape(board(2, 5))",
        result: "(2, 5)",
        record: None,
    },
    Builtin {
        name: "cells",
        imp: Impl::Boards(BoardOp::Cells),
        signature: "cells(b), cells(b, v)",
        arity: (1, 2),
        doc: "The cells of the board, as `(row, column)` pairs in reading order; with `v`, only \
         those holding `v`.",
        example: "cells(board(\"..#|#..\"), \"#\")",
        result: "[(0, 2), (1, 0)]",
        record: None,
    },
    Builtin {
        name: "neighbours",
        imp: Impl::Boards(BoardOp::Neighbours),
        signature: "neighbours(b, cell), neighbours(g, v)",
        arity: (2, 2),
        doc: "A board cell's orthogonal neighbours on the board (up, left, right, down, as \
         `(row, column)` pairs), or a graph vertex's neighbours in increasing order.",
        example: "neighbours(board(2, 3), (0, 0))",
        result: "[(0, 1), (1, 0)]",
        record: None,
    },
    Builtin {
        name: "adjacent_pairs",
        imp: Impl::Boards(BoardOp::AdjacentPairs),
        signature: "adjacent_pairs(b, v)",
        arity: (2, 2),
        doc: "The pairs of orthogonally adjacent cells that both hold `v`, each pair once (the \
         second cell right of or below the first): the places of a domino (Cram).",
        example: "adjacent_pairs(board(\".#|..\"), \".\")",
        result: "[((0, 0), (1, 0)), ((1, 0), (1, 1))]",
        record: None,
    },
    Builtin {
        name: "regions",
        imp: Impl::Boards(BoardOp::Regions),
        signature: "regions(b)",
        arity: (1, 1),
        doc: "The connected regions (orthogonal neighbours) of the cells that are not `#`, each a \
         board cropped to its bounding box with its other cells `#`, in reading order of their \
         first cells. A ruleset whose moves never reach across `#` splits by it: \
         `split by regions(b)`.",
        example: "regions(board(\"..#.\"))",
        result: "[board(\"..\"), board(\".\")]",
        record: None,
    },
    Builtin {
        name: "canonical",
        imp: Impl::Boards(BoardOp::Canonical),
        signature: "canonical(b), canonical(g)",
        arity: (1, 1),
        doc: "One representative of a class of symmetric positions. Of a board: the least of its \
         eight images under rotations and reflections (boards compare by rows, columns, then \
         cells). Of a graph: a canonical labelling, so isomorphic graphs give the same graph \
         (colour refinement and a search over the ties, skipping twin vertices; past 20 000 \
         refinements it keeps the best labelling found, still the same graph). A ruleset names \
         it in `canonical by canonical(b)`.",
        example: "canonical(board(\"#.|..\")) == canonical(board(\"..|.#\"))",
        result: "true",
        record: None,
    },
    Builtin {
        name: "rotate",
        imp: Impl::Boards(BoardOp::Rotate),
        signature: "rotate(b)",
        arity: (1, 1),
        doc: "The board turned a quarter clockwise.",
        example: "rotate(board(\"ab|cd|ef\"))",
        result: "eca\nfdb",
        record: None,
    },
    Builtin {
        name: "reflect",
        imp: Impl::Boards(BoardOp::Reflect),
        signature: "reflect(b)",
        arity: (1, 1),
        doc: "The board mirrored left to right.",
        example: "reflect(board(\"ab|cd\"))",
        result: "ba\ndc",
        record: None,
    },
    Builtin {
        name: "transpose",
        imp: Impl::Boards(BoardOp::Transpose),
        signature: "transpose(b)",
        arity: (1, 1),
        doc: "The board mirrored in its main diagonal (rows become columns).",
        example: "transpose(board(\"ab|cd\"))",
        result: "ac\nbd",
        record: None,
    },
    Builtin {
        name: "graph",
        imp: Impl::Boards(BoardOp::Graph),
        signature: "graph(n, edges)",
        arity: (2, 2),
        doc: "The simple graph on the vertices 0 to n - 1 with these edges, a list of pairs \
         `(a, b)` (either way round; a repeat counts once; a loop is an error). It prints as it \
         is written, and may be a ruleset argument.",
        example: "graph(3, [(1, 0), (1, 2)])",
        result: "graph(3, [(0, 1), (1, 2)])",
        record: None,
    },
    Builtin {
        name: "vertices",
        imp: Impl::Boards(BoardOp::Vertices),
        signature: "vertices(g)",
        arity: (1, 1),
        doc: "The graph's vertices, `0..n`, as a list.",
        example: "vertices(graph(3, []))",
        result: "[0, 1, 2]",
        record: None,
    },
    Builtin {
        name: "edges",
        imp: Impl::Boards(BoardOp::Edges),
        signature: "edges(g)",
        arity: (1, 1),
        doc: "The graph's edges, each once as a pair `(a, b)` with `a < b`, sorted.",
        example: "edges(graph(3, [(2, 1)]))",
        result: "[(1, 2)]",
        record: None,
    },
    Builtin {
        name: "degree",
        imp: Impl::Boards(BoardOp::Degree),
        signature: "degree(g, v)",
        arity: (2, 2),
        doc: "The number of neighbours of vertex `v`.",
        example: "degree(graph(3, [(0, 1), (0, 2)]), 0)",
        result: "2",
        record: None,
    },
    Builtin {
        name: "remove_vertices",
        imp: Impl::Boards(BoardOp::RemoveVertices),
        signature: "remove_vertices(g, vs)",
        arity: (2, 2),
        doc: "The graph without the vertices of the list `vs` and their edges, the rest numbered \
         from 0 in their order (a Node Kayles move removes a vertex and its neighbours).",
        example: "remove_vertices(graph(4, [(0, 1), (1, 2), (2, 3)]), [1])",
        result: "graph(3, [(1, 2)])",
        record: None,
    },
    Builtin {
        name: "components",
        imp: Impl::Boards(BoardOp::Components),
        signature: "components(g)",
        arity: (1, 1),
        doc: "The connected components, each a graph numbered from 0 in the order of its vertices, \
         in the order of their least vertices (an isolated vertex is `graph(1, [])`). A ruleset \
         on graphs whose moves stay inside a component splits by them: \
         `split by components(g)`.",
        example: "components(graph(4, [(0, 2)]))",
        result: "[graph(2, [(0, 1)]), graph(1, []), graph(1, [])]",
        record: None,
    },
    // --- outcome classes ---
    Builtin {
        name: "P",
        imp: Impl::Constant(Outcome::P),
        signature: "P",
        arity: (0, 0),
        doc: "The outcome class of games the previous player wins (the player to move loses).",
        example: "outcome(0) == P",
        result: "true",
        record: None,
    },
    Builtin {
        name: "N",
        imp: Impl::Constant(Outcome::N),
        signature: "N",
        arity: (0, 0),
        doc: "The outcome class of games the next player (the one to move) wins.",
        example: "outcome(*) == N",
        result: "true",
        record: None,
    },
    Builtin {
        name: "L",
        imp: Impl::Constant(Outcome::L),
        signature: "L",
        arity: (0, 0),
        doc: "The outcome class of games Left wins whoever starts (games with `∞`).",
        example: "outcome(∞) == L",
        result: "true",
        record: None,
    },
    Builtin {
        name: "R",
        imp: Impl::Constant(Outcome::R),
        signature: "R",
        arity: (0, 0),
        doc: "The outcome class of games Right wins whoever starts (games with `∞̄`).",
        example: "outcome(∞̄) == R",
        result: "true",
        record: None,
    },
    Builtin {
        name: "D",
        imp: Impl::Constant(Outcome::D),
        signature: "D",
        arity: (0, 0),
        doc: "The outcome class of drawn games: with best play the loopy game goes on for ever \
         (a draw), since neither player can force a win.",
        example: "outcome(a{a, * | a, *}) == D",
        result: "true",
        record: None,
    },
    // --- heap games ---
    Builtin {
        name: "heap",
        imp: Impl::Heaps(HeapOp::Heap),
        signature: "heap(code)",
        arity: (1, 1),
        doc: "A take-and-break heap game from its code, a string in CGSuite's notation (\"0.07\" is \
         Dawson's Kayles, \"4!.0\" Grundy's game). The result is a game family: `heap(code)(n)` \
         is the heap of size `n`.",
        example: "heap(\"0.07\")(10)",
        result: "*3",
        record: None,
    },
    Builtin {
        name: "heap_code",
        imp: Impl::Heaps(HeapOp::HeapCode),
        signature: "heap_code(g), heap_code(code)",
        arity: (1, 1),
        doc: "The take-and-break code of a heap game (`heap(…)`, `subtraction(…)`, `allbut(…)`) \
         or of a code string, in CGSuite's standard form: leading zeros dropped, a repeating \
         tail in brackets, digit sets written the shortest way. Two codes for the same game \
         print the same.",
        example: "heap_code(subtraction([2, 3, 7]))",
        result: "0.0330003",
        record: None,
    },
    Builtin {
        name: "nim_sum",
        imp: Impl::Heaps(HeapOp::NimSum),
        signature: "nim_sum(a, b)",
        arity: (2, 2),
        doc: "Nim addition (bitwise exclusive or) of two nonnegative integers, or of two nimbers \
         (then the result is a nimber): `nim_sum(a, b)` is the value of `*a + *b`.",
        example: "nim_sum(6, 3)",
        result: "5",
        record: None,
    },
    Builtin {
        name: "nim_product",
        imp: Impl::Heaps(HeapOp::NimProduct),
        signature: "nim_product(a, b)",
        arity: (2, 2),
        doc: "Nim multiplication of two nonnegative integers, the product of Conway's field On₂ \
         (the integers below `2^(2^k)` form a subfield); on nimbers it gives a nimber, as \
         `*a * *b` does.",
        example: "nim_product(16, 16)",
        result: "24",
        record: None,
    },
    Builtin {
        name: "nim_inverse",
        imp: Impl::Heaps(HeapOp::NimInverse),
        signature: "nim_inverse(a)",
        arity: (1, 1),
        doc: "The inverse of `a` under nim multiplication: the `b` with `nim_product(a, b) == 1`. \
         An error for 0, which has none.",
        example: "nim_inverse(2)",
        result: "3",
        record: None,
    },
    Builtin {
        name: "nim_div",
        imp: Impl::Heaps(HeapOp::NimDiv),
        signature: "nim_div(a, b)",
        arity: (2, 2),
        doc: "Nim division: `nim_product(a, nim_inverse(b))`. An error when `b` is 0.",
        example: "nim_div(7, 5)",
        result: "5",
        record: None,
    },
    Builtin {
        name: "subtraction",
        imp: Impl::Heaps(HeapOp::Subtraction),
        signature: "subtraction(set)",
        arity: (1, 1),
        doc: "The subtraction game whose moves remove a number of tokens in `set` (a list of \
         positive integers) from one heap.",
        example: "subtraction([1, 2])(5)",
        result: "*2",
        record: None,
    },
    Builtin {
        name: "allbut",
        imp: Impl::Heaps(HeapOp::Allbut),
        signature: "allbut(set)",
        arity: (1, 1),
        doc: "The all-but subtraction game: a move removes any positive number of tokens except \
         those in `set`.",
        example: "nim_sequence(allbut([2]), 8)",
        result: "0 1 0 1 2 3 2 3 4",
        record: None,
    },
    Builtin {
        name: "nim_sequence",
        imp: Impl::Heaps(HeapOp::NimSequence),
        signature: "nim_sequence(g, n), nim_sequence(g, a..b)",
        arity: (2, 2),
        doc: "The nim-values of the heaps `g(0), …, g(n)` (note: `n` is included, so \
         `nim_sequence(g, 5)` has six values), or of the heaps in a range; `g` is a heap game \
         or a ruleset (or function) of one integer. Prints as the values separated by spaces. \
         Held packed (one to four bytes a heap, as the largest value needs): `s[i]`, `s[a..b]` \
         (a sequence of those heaps), `len(s)` and `for (n, v) in s` read it in place.",
        example: "nim_sequence(subtraction([1, 2]), 6)",
        result: "0 1 2 0 1 2 0",
        record: None,
    },
    Builtin {
        name: "periodicity",
        imp: Impl::Heaps(HeapOp::Periodicity),
        signature: "periodicity(g), periodicity(g, heaps)",
        arity: (1, 2),
        doc: "Searches the nim-sequence of `g` for a period, up to a default number of heaps or \
         `heaps`, and certifies it where the Guy–Smith argument applies. A record with fields \
         `period`, `preperiod`, `last_exceptional`, `saltus`, `certified`, `certified_at`, \
         `checked_up_to`.",
        example: "periodicity(heap(\"0.07\")).period",
        result: "34",
        record: Some(&PERIODICITY),
    },
    Builtin {
        name: "rare_values",
        imp: Impl::Heaps(HeapOp::RareValues),
        signature: "rare_values(g, n)",
        arity: (2, 2),
        doc: "The rare heaps of a heap game among heaps 0 to `n`: the sparse-space split (Gangolli–Plambeck, \
         Flammenkamp) calls heap `m` common when `(g(m) << 1 | m % 2) & mask` has an odd number \
         of bits, for the mask that leaves the fewest heaps rare (none while no mask leaves fewer than an \
         eighth). Heap 0 is judged the same way, and with a mask it is always rare (its augmented \
         value is 0), so it is listed and counted, as in the published counts (Grundy's game: 1 287 \
         rare heaps to 2^32). A record with fields `mask`, \
         `heaps` and `values` (the rare heaps, ascending, and their nim-values), `count`, \
         `largest` (the largest nim-value of any heap) and `checked_up_to`. Only the kernel's \
         two bytes a heap are held, up to 2^32 heaps; for games whose moves leave at most two \
         heaps, some of them two.",
        example: "rare_values(heap(\"4!.0\"), 20000).count",
        result: "1196",
        record: Some(&RARE_VALUES),
    },
    Builtin {
        name: "write_sequence",
        imp: Impl::Heaps(HeapOp::WriteSequence),
        signature: "write_sequence(g, n, file), write_sequence(g, a..b, file)",
        arity: (3, 3),
        doc: "Writes the nim-values of heaps `0..=n` (or of a range) of `g` to `file` as they are \
         computed, holding none of them in the session: text with a `#` header line and one \
         value a line, or binary little-endian values after a 32-byte header if the file ends \
         in `.u16` or `.u32`. A bar shows progress; Ctrl-C stops it with the file marked \
         partial (a `# partial` last line, or the header's complete flag left clear). Up to \
         2^32 heaps. A record with fields `path`, `format`, `first`, `last`, `heaps` and \
         `bytes`; `read_sequence` reads the file back.",
        example: "",
        result: "",
        record: Some(&SEQUENCE_FILE),
    },
    Builtin {
        name: "read_sequence",
        imp: Impl::Heaps(HeapOp::ReadSequence),
        signature: "read_sequence(file)",
        arity: (1, 1),
        doc: "Reads a nim-sequence that `write_sequence` wrote (either format, told apart by the \
         binary header), or any text file of one nonnegative integer a line with `#` comments. \
         A file marked partial reads as the heaps it holds, with a warning.",
        example: "",
        result: "",
        record: None,
    },
    Builtin {
        name: "plot",
        imp: Impl::Heaps(HeapOp::Plot),
        signature: "plot(seq, file, title, range, (width, height))",
        arity: (1, 6),
        doc: "Draws a nim-sequence as a figure for a paper: heap size across, nim-value up, the \
         game's name or code as the title, the start of a certified period dashed. All but \
         the sequence may be left out, in any order (told apart by type): the first string \
         is the file (by default `nim-sequence.svg` in the current folder), the second the \
         title, a range the heaps drawn, a pair the size (default `(480, 300)`). The file's \
         extension chooses the format: `.svg`, `.png` (288 dpi) or `.pdf`. A heap game (or a \
         ruleset or function of one integer) followed by its heaps, a number of them or a \
         range, stands for their sequence: `plot(heap(\"0.07\"), 0..60, …)` is \
         `plot(nim_sequence(heap(\"0.07\"), 0..60), …)`.",
        example: "",
        result: "",
        record: None,
    },
    // --- misère play ---
    Builtin {
        name: "misere_outcome",
        imp: Impl::Misere(MisereOp::MisereOutcome),
        signature: "misere_outcome(g)",
        arity: (1, 1),
        doc: "The outcome of `g` under misère play (the player who cannot move wins): `P` or `N`. \
         Sums of heaps of a take-and-break game go through a misère quotient when one is \
         small.",
        example: "misere_outcome(*2 + *2)",
        result: "P",
        record: None,
    },
    Builtin {
        name: "misere_form",
        imp: Impl::Misere(MisereOp::MisereForm),
        signature: "misere_form(g)",
        arity: (1, 1),
        doc: "The misère canonical form of an impartial game (or of a CGSuite string such as \
         \"2#0\"), printed in CGSuite's notation `*[…]`: integers are nim heaps, `#` joins \
         options into one game.",
        example: "misere_form(* + *)",
        result: "*[0]",
        record: None,
    },
    Builtin {
        name: "genus",
        imp: Impl::Misere(MisereOp::Genus),
        signature: "genus(g)",
        arity: (1, 1),
        doc: "Conway's genus of `g` as CGSuite prints it (`2`, `0^120`, `4^146`): the normal and \
         misère nim values of `g`, `g + *2`, `g + *2 + *2`, … up to the eventual period.",
        example: "genus(*2)",
        result: "2",
        record: None,
    },
    Builtin {
        name: "misere_nimber",
        imp: Impl::Misere(MisereOp::MisereNimber),
        signature: "misere_nimber(g)",
        arity: (1, 1),
        doc: "The misère nim value G⁻ of `g` (0 exactly for misère P-positions).",
        example: "misere_nimber(*)",
        result: "0",
        record: None,
    },
    Builtin {
        name: "birthday",
        imp: Impl::Misere(MisereOp::Birthday),
        signature: "birthday(g)",
        arity: (1, 1),
        doc: "The birthday (height) of the misère canonical form of `g`.",
        example: "birthday(misere_form(*2))",
        result: "2",
        record: None,
    },
    Builtin {
        name: "is_tame",
        imp: Impl::Misere(MisereOp::IsTame),
        signature: "is_tame(g)",
        arity: (1, 1),
        doc: "Whether `g` is tame (Conway; CGSuite's phyla NH and HT): it and its followers have the \
         genera of nim heaps, so among tame games it plays like a nim heap.",
        example: "is_tame(*2 + *3)",
        result: "true",
        record: None,
    },
    Builtin {
        name: "is_restive",
        imp: Impl::Misere(MisereOp::IsRestive),
        signature: "is_restive(g)",
        arity: (1, 1),
        doc: "Whether `g` is restive (CGSuite's phylum HR, e.g. `*[2#0]` of genus `1^2`): tame but \
         for a twist at the end of play.",
        example: "is_restive(misere_form(\"2#0\"))",
        result: "true",
        record: None,
    },
    Builtin {
        name: "is_restless",
        imp: Impl::Misere(MisereOp::IsRestless),
        signature: "is_restless(g)",
        arity: (1, 1),
        doc: "Whether `g` is restless (CGSuite's phylum RL, e.g. `*[2#1]` of genus `2^1420`).",
        example: "is_restless(misere_form(\"2#1\"))",
        result: "true",
        record: None,
    },
    Builtin {
        name: "is_half_tame",
        imp: Impl::Misere(MisereOp::IsHalfTame),
        signature: "is_half_tame(g)",
        arity: (1, 1),
        doc: "Whether `g` is half-tame: not generally tame, but `g + g` is, with genus `0^0`.",
        example: "is_half_tame(misere_form(\"2#0\"))",
        result: "true",
        record: None,
    },
    Builtin {
        name: "is_tameable",
        imp: Impl::Misere(MisereOp::IsTameable),
        signature: "is_tameable(g)",
        arity: (1, 1),
        doc: "Whether `g` is tameable (generally tame, or CGSuite's phylum TA).",
        example: "is_tameable(misere_form(*2))",
        result: "true",
        record: None,
    },
    Builtin {
        name: "is_generally_tame",
        imp: Impl::Misere(MisereOp::IsGenerallyTame),
        signature: "is_generally_tame(g)",
        arity: (1, 1),
        doc: "Whether `g` is generally tame (CGSuite's phyla NH, HT, RT: tame up to reversible \
         moves).",
        example: "is_generally_tame(misere_form(*2))",
        result: "true",
        record: None,
    },
    Builtin {
        name: "is_generally_restive",
        imp: Impl::Misere(MisereOp::IsGenerallyRestive),
        signature: "is_generally_restive(g)",
        arity: (1, 1),
        doc: "Whether `g` is generally restive (CGSuite's phyla HR and RR).",
        example: "is_generally_restive(misere_form(*2))",
        result: "false",
        record: None,
    },
    Builtin {
        name: "is_extraverted",
        imp: Impl::Misere(MisereOp::IsExtraverted),
        signature: "is_extraverted(g)",
        arity: (1, 1),
        doc: "Whether every option of `g` is a part of `g`.",
        example: "is_extraverted(misere_form(*2))",
        result: "true",
        record: None,
    },
    Builtin {
        name: "is_introverted",
        imp: Impl::Misere(MisereOp::IsIntroverted),
        signature: "is_introverted(g)",
        arity: (1, 1),
        doc: "Whether `g` is introverted: a part of each of its options (only `0` and `*` are).",
        example: "is_introverted(misere_form(*))",
        result: "true",
        record: None,
    },
    Builtin {
        name: "is_even",
        imp: Impl::Misere(MisereOp::IsEven),
        signature: "is_even(g)",
        arity: (1, 1),
        doc: "Whether `g` is even: its birthday is less than that of `g + *` (`0` and `*2` are \
         even, `*` is odd).",
        example: "is_even(misere_form(*2 + *2))",
        result: "true",
        record: None,
    },
    Builtin {
        name: "is_prime",
        imp: Impl::Misere(MisereOp::IsPrime),
        signature: "is_prime(g)",
        arity: (1, 1),
        doc: "Whether `g` has no proper parts (is not a misère sum of smaller games).",
        example: "is_prime(misere_form(*2))",
        result: "true",
        record: None,
    },
    Builtin {
        name: "is_nim_heap",
        imp: Impl::Misere(MisereOp::IsNimHeap),
        signature: "is_nim_heap(g)",
        arity: (1, 1),
        doc: "Whether the misère canonical form of `g` is a single nim heap `*n`.",
        example: "is_nim_heap(misere_form(*2 + *3))",
        result: "false",
        record: None,
    },
    Builtin {
        name: "mate",
        imp: Impl::Misere(MisereOp::Mate),
        signature: "mate(g)",
        arity: (1, 1),
        doc: "The mate of `g` (Conway): the form with `g + mate(g)` a misère P-position built by \
         swapping 0 and `*` at the leaves.",
        example: "mate(*2)",
        result: "*[2]",
        record: None,
    },
    Builtin {
        name: "parts",
        imp: Impl::Misere(MisereOp::Parts),
        signature: "parts(g)",
        arity: (1, 1),
        doc: "The parts of `g`: the games `h` with `g = h + x` for some `x`.",
        example: "parts(misere_form(*2 + *3))",
        result: "[*[2]]",
        record: None,
    },
    Builtin {
        name: "partitions",
        imp: Impl::Misere(MisereOp::Partitions),
        signature: "partitions(g)",
        arity: (1, 1),
        doc: "The ways of writing `g` as a misère sum of prime games.",
        example: "partitions(misere_form(*2 + *3))",
        result: "[[*[2], *[2], *[1]]]",
        record: None,
    },
    Builtin {
        name: "distinguisher",
        imp: Impl::Misere(MisereOp::Distinguisher),
        signature: "distinguisher(g, h)",
        arity: (2, 2),
        doc: "A game `x` with `g + x` a misère P-position and `h + x` an N-position (or the other \
         way round): a witness that `g ≠ h`.",
        example: "distinguisher(*2, *3)",
        result: "*[2]",
        record: None,
    },
    Builtin {
        name: "is_linked",
        imp: Impl::Misere(MisereOp::IsLinked),
        signature: "is_linked(g, h)",
        arity: (2, 2),
        doc: "Whether some `x` makes `g + x` and `h + x` both misère P-positions.",
        example: "is_linked(*2, *3)",
        result: "false",
        record: None,
    },
    Builtin {
        name: "link",
        imp: Impl::Misere(MisereOp::Link),
        signature: "link(g, h)",
        arity: (2, 2),
        doc: "A game `x` with `g + x` and `h + x` both misère P-positions (see `is_linked`).",
        example: "link(*2, *2)",
        result: "*[2]",
        record: None,
    },
    Builtin {
        name: "misere_minus",
        imp: Impl::Misere(MisereOp::MisereMinus),
        signature: "misere_minus(g, h)",
        arity: (2, 2),
        doc: "The game `x` with `x + h = g` in misère play, when `h` is a part of `g`.",
        example: "misere_minus(misere_form(*2 + *3), misere_form(*2))",
        result: "*[3]",
        record: None,
    },
    // --- misère quotients ---
    Builtin {
        name: "quotient",
        imp: Impl::Quotient(QuotientOp::Quotient),
        signature: "quotient(g), quotient(g, n)",
        arity: (1, 2),
        doc: "The misère quotient of a heap game (Plambeck–Siegel), computed heap by heap until \
         its periodicity is certified, or the partial quotient `Q_n` of heaps up to `n`. A \
         record with fields `order`, `p_portion`, `presentation`, `period`, `preperiod`, \
         `phi`, `table`, `elements`, `certified`, `certified_at`, `heap`, `name`, `game`. \
         Elements are values, printed as their normal words: `q.phi[n]` is the image of heap \
         `n` (`q.phi[0]` the identity), `x * y` multiplies in the quotient, `q.is_p(x)` says \
         whether `x` is in the P-portion, `q.element(\"ab2\")` reads a word; `q.elements` \
         lists them and `q.table[i][j]` is `q.elements[i] * q.elements[j]` (any order, within the \
         memory budget; above order 1 000 the table is made when `q.table` is read, and the \
         record as a whole shows it as `none`). Elements of two quotients do not mix \
         (E0116). Size limits follow the memory budget (E0404).",
        example: "quotient(heap(\"0.75\")).phi[2] * quotient(heap(\"0.75\")).phi[2]",
        result: "b2",
        record: Some(&QUOTIENT),
    },
    Builtin {
        name: "isomorphic",
        imp: Impl::Quotient(QuotientOp::Isomorphic),
        signature: "isomorphic(q1, q2)",
        arity: (2, 2),
        doc: "Whether two quotients are the same bipartite monoid (one monoid, one P-portion).",
        example: "isomorphic(quotient(heap(\"0.3\")), quotient(heap(\"0.7\")))",
        result: "true",
        record: None,
    },
];

/// The entry for a built-in name.
pub fn find(name: &str) -> Option<&'static Builtin> {
    // Every global name a program reads that it did not define lands here (`outcome`, `D`
    // in a loop's body), so the table is indexed once rather than scanned each time.
    static INDEX: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, u16>> =
        std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        BUILTINS
            .iter()
            .enumerate()
            .rev()
            .map(|(i, b)| (b.name, i as u16))
            .collect()
    });
    index.get(name).map(|&i| &BUILTINS[usize::from(i)])
}

/// The entry a `Value::Builtin` holds.
pub fn get(id: u16) -> &'static Builtin {
    &BUILTINS[usize::from(id)]
}

/// Every built-in name.
pub fn names() -> impl Iterator<Item = &'static str> {
    BUILTINS.iter().map(|b| b.name)
}

/// `docs/builtins.md`: every built-in by section, then the shipped modules (a test keeps the
/// file equal to this).
pub fn markdown() -> String {
    use std::fmt::Write;
    let mut md = String::from(
        "# Loony built-ins\n\n\
         Generated from the table in `crates/lang/src/catalog.rs` (`cargo test --test suite docs` checks \
         it; `LOONY_WRITE_DOCS=1 cargo test --test suite docs` rewrites it). In the REPL, \
         `:help NAME` shows one entry. The language itself is described in \
         [language.md](language.md).\n",
    );
    for f in FAMILIES {
        let _ = write!(md, "\n## {}\n", section(f));
        for b in BUILTINS.iter().filter(|b| b.family() == f) {
            let _ = write!(md, "\n### `{}`\n\n{}\n", b.signature, b.doc);
            if !b.example.is_empty() {
                let _ = write!(md, "\n```\n> {}\n{}\n```\n", b.example, b.result);
            }
        }
    }
    md.push_str(
        "\n## Shipped modules\n\n\
         `import \"std/NAME\"` loads one. No shipped module redefines a built-in. A `let`, \
         `fn` or `ruleset` of your own named like a built-in warns (W0001: the built-in is out \
         of reach while the name is bound), and so does a definition that replaces one made \
         elsewhere: your `kayles` after `import \"std/kayles\"`, or an import that replaces \
         your own `kayles` (W0002). Redefining a name in the program or module that defined \
         it is silent.\n",
    );
    for m in super::modules::module_docs() {
        let _ = write!(
            md,
            "\n### `{}`\n\n{}\n\nDefines: {}.\n",
            m.path,
            m.summary,
            m.defines
                .iter()
                .map(|d| format!("`{d}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    md
}

/// `:help NAME` for a built-in: signature, documentation, example.
pub fn help(b: &Builtin) -> String {
    let mut s = format!("{}\n  {}", b.signature, b.doc);
    if !b.example.is_empty() {
        s.push_str(&format!("\n  example: {}  →  {}", b.example, b.result));
    }
    s
}
