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

const fn b(
    name: &'static str,
    imp: Impl,
    signature: &'static str,
    arity: (usize, usize),
    doc: &'static str,
    example: &'static str,
    result: &'static str,
) -> Builtin {
    Builtin {
        name,
        imp,
        signature,
        arity,
        doc,
        example,
        result,
        record: None,
    }
}

impl Builtin {
    /// The row of a built-in that returns a record of this shape.
    const fn returns(self, shape: &'static RecordShape) -> Builtin {
        Builtin {
            record: Some(shape),
            ..self
        }
    }
}

// A static, not a const: a row has one address, from which its id is read.
pub static BUILTINS: &[Builtin] = &[
    // --- values, outcomes and moves ---
    b(
        "outcome",
        Impl::Core(CoreOp::Outcome),
        "outcome(g)",
        (1, 1),
        "The outcome class of `g` under normal play: `P` (the previous player wins), `N` (the \
         next player wins), `D` (a draw: neither player can force a win; only loopy games \
         draw), or `L`/`R` when `g` contains `∞`/`∞̄` and Left/Right wins whoever starts. Found \
         from the value where the theory gives one, otherwise by an exact search.",
        "outcome(*3 + *3)",
        "P",
    ),
    b(
        "value",
        Impl::Core(CoreOp::Value),
        "value(g)",
        (1, 1),
        "The value of an impartial game: a nimber `*n`, the moon `☾` or a special moon `⟫(n)` \
         for games with entailing or carry-on moves, `∞(A)` for a loopy game that can escape \
         to the nim-values `A`. A bare game prints its value, so `value(g)` is mostly useful \
         for comparing and storing. An error (with the outcome found by search) where no \
         theory gives a value.",
        "value(a{a, * | a, *})",
        "∞(1)",
    ),
    b(
        "nimber",
        Impl::Core(CoreOp::Nimber),
        "nimber(g)",
        (1, 1),
        "The Sprague–Grundy value of `g` as an integer; an error when the value of `g` is not \
         a nimber (a moon or a loopy value).",
        "nimber(*2 + *3)",
        "1",
    ),
    b(
        "grundy_value",
        Impl::Core(CoreOp::GrundyValue),
        "grundy_value(g)",
        (1, 1),
        "Another name for `nimber`: the Sprague–Grundy value of `g` as an integer.",
        "grundy_value({0, * | 0, *})",
        "2",
    ),
    b(
        "affine_value",
        Impl::Core(CoreOp::AffineValue),
        "affine_value(g)",
        (1, 1),
        "The value of `g` in the theory of affine impartial games (seed 000: entailing and \
         carry-on moves, `∞`, `∞̄`): a nimber or `☾`. An error for loopy games.",
        "affine_value({∞ | ∞̄})",
        "☾",
    ),
    b(
        "explain",
        Impl::Core(CoreOp::Explain),
        "explain(g)",
        (1, 1),
        "How the affine engine valued `g`: its immediate nimbers `S` (the values of its plain \
         options), its protected nimbers `P` (those its entailing options protect against, \
         `nim∖X` meaning every nimber but `X`), and the rule that gives the value: \
         `mex(S ∪ P)`, or `☾` when `S ∪ P` is every nimber.",
        "explain({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
        "S = {0}, P = nim∖{0}: S ∪ P = nim, so G = ☾",
    ),
    b(
        "outcome_by_search",
        Impl::Core(CoreOp::OutcomeBySearch),
        "outcome_by_search(g)",
        (1, 1),
        "The outcome of `g` by exhaustive search of its positions, using no value theory (a \
         check on `outcome`; exponential in the number of components of a sum).",
        "outcome_by_search(*2 + *2)",
        "P",
    ),
    b(
        "winning_moves",
        Impl::Core(CoreOp::WinningMoves),
        "winning_moves(g)",
        (1, 1),
        "The options of `g` that win for the player who takes them (empty when `g` is lost or \
         drawn for the mover). Entailing and carry-on options are judged with the opponent's \
         forced reply.",
        "winning_moves(* + *2)",
        "[* + *]",
    ),
    b(
        "drawing_moves",
        Impl::Core(CoreOp::DrawingMoves),
        "drawing_moves(g)",
        (1, 1),
        "The options of a loopy game `g` that keep a draw (to a `D` position) for the mover.",
        "drawing_moves(a{a, * | a, *})",
        "[a{a, * | a, *}]",
    ),
    b(
        "options",
        Impl::Core(CoreOp::Options),
        "options(g)",
        (1, 1),
        "The options of `g`, each distinct option once. For an impartial game these are both \
         players' options; for a game with entailing moves they are Left's (see \
         `left_options`, `right_options`); for a misère form, its canonical options in \
         CGSuite's order.",
        "options(*3)",
        "[0, *, *2]",
    ),
    b(
        "left_options",
        Impl::Core(CoreOp::LeftOptions),
        "left_options(g)",
        (1, 1),
        "Left's options of `g`. Impartial games with entailing moves are written with the two \
         sides mirrored (`{∞ | 0}` for Left is `{0 | ∞̄}` for Right), so the sides differ.",
        "left_options({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
        "[0, {∞ | 0}]",
    ),
    b(
        "right_options",
        Impl::Core(CoreOp::RightOptions),
        "right_options(g)",
        (1, 1),
        "Right's options of `g` (see `left_options`).",
        "right_options({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
        "[0, {0 | ∞̄}]",
    ),
    b(
        "top_entails_value",
        Impl::Core(CoreOp::TopEntailsValue),
        "top_entails_value(n)",
        (1, 1),
        "The value of a Top Entails stack of `n` coins by the Theorem-41 recurrence \
         (Larsson–Nowakowski–Santos), without building the game; `n` up to 10 000 000, at a \
         cost that grows as `n²` (`n²/4` look-ups of pairs, shared by the cores: 10⁵ stacks \
         take about 2 s, 6·10⁵ a quarter of a minute to a minute on two cores, 10⁷ hours). \
         The session keeps one run and extends it, so asking stack after stack costs one \
         run. The ruleset itself is `std/top_entails`.",
        "top_entails_value(3)",
        "☾",
    ),
    b(
        "top_entails_moons",
        Impl::Core(CoreOp::TopEntailsMoons),
        "top_entails_moons(n)",
        (1, 1),
        "The Top Entails stacks of at most `n` coins whose value is `☾` (fast path, as \
         `top_entails_value`).",
        "top_entails_moons(3000)",
        "[1, 3, 2403, 2505]",
    ),
    b(
        "len",
        Impl::Core(CoreOp::Len),
        "len(xs)",
        (1, 1),
        "The length of a list, tuple or nim-sequence, or the number of characters of a string.",
        "len([*, *2, *3])",
        "3",
    ),
    b(
        "size",
        Impl::Core(CoreOp::Size),
        "size(x)",
        (1, 1),
        "How many characters `x` prints in, as the REPL would print it (with `:ascii`, in \
         ASCII): the size of a large misère form or list without printing it.",
        "size([*, *2, *3])",
        "11",
    ),
    b(
        "sum",
        Impl::Core(CoreOp::Sum),
        "sum(xs)",
        (1, 1),
        "The sum of a list: of integers, an integer; of games, their disjunctive sum; of \
         misère forms, their misère sum.",
        "sum([*1, *2, *3])",
        "0",
    ),
    b(
        "mex",
        Impl::Core(CoreOp::Mex),
        "mex(xs)",
        (1, 1),
        "The least nonnegative integer not in the list (negative entries are ignored).",
        "mex([0, 1, 3])",
        "2",
    ),
    b(
        "min",
        Impl::Core(CoreOp::Min),
        "min(xs)",
        (1, 1),
        "The least integer of a nonempty list.",
        "min([4, 2, 9])",
        "2",
    ),
    b(
        "max",
        Impl::Core(CoreOp::Max),
        "max(xs)",
        (1, 1),
        "The greatest integer of a nonempty list.",
        "max([4, 2, 9])",
        "9",
    ),
    b(
        "sorted",
        Impl::Core(CoreOp::Sorted),
        "sorted(xs)",
        (1, 1),
        "A list of integers in increasing order.",
        "sorted([3, 1, 2])",
        "[1, 2, 3]",
    ),
    b(
        "reverse",
        Impl::Core(CoreOp::Reverse),
        "reverse(xs)",
        (1, 1),
        "The list in reverse order.",
        "reverse([1, 2, 3])",
        "[3, 2, 1]",
    ),
    b(
        "contains",
        Impl::Core(CoreOp::Contains),
        "contains(xs, x)",
        (2, 2),
        "Whether the list holds `x` (integers, strings, booleans, outcomes and games by \
         identity).",
        "contains([1, 2], 2)",
        "true",
    ),
    b(
        "remove",
        Impl::Core(CoreOp::Remove),
        "remove(xs, i)",
        (2, 2),
        "The list without its entry at index `i` (counting from 0).",
        "remove([5, 6, 7], 1)",
        "[5, 7]",
    ),
    b(
        "append",
        Impl::Core(CoreOp::Append),
        "append(xs, x)",
        (2, 2),
        "The list with `x` added at the end.",
        "append([1], 2)",
        "[1, 2]",
    ),
    b(
        "abs",
        Impl::Core(CoreOp::Abs),
        "abs(n)",
        (1, 1),
        "The absolute value of an integer.",
        "abs(-4)",
        "4",
    ),
    // --- bits, sets, boards and graphs ---
    b(
        "popcount",
        Impl::Boards(BoardOp::Popcount),
        "popcount(x)",
        (1, 1),
        "The number of 1 bits of the integer `x` (from 0; a negative `x` is an error, having \
         infinitely many).",
        "popcount(13)",
        "3",
    ),
    b(
        "bit",
        Impl::Boards(BoardOp::Bit),
        "bit(x, i)",
        (2, 2),
        "Whether bit `i` (from 0, the units) of the integer `x` is 1: `x >> i & 1 == 1`. With \
         the operators `&`, `|`, `xor` (also `^^`), `<<` and `>>`, an integer is a set of small \
         numbers (a bit set): a board of up to 62 cells is one integer.",
        "[bit(6, i) for i in 0..3]",
        "[false, true, true]",
    ),
    b(
        "bits",
        Impl::Boards(BoardOp::Bits),
        "bits(x)",
        (1, 1),
        "The positions of the 1 bits of the non-negative integer `x`, from the lowest: the \
         members of a bit set.",
        "bits(13)",
        "[0, 2, 3]",
    ),
    b(
        "set",
        Impl::Boards(BoardOp::Set),
        "set(xs, i, v)",
        (3, 3),
        "A copy of the list `xs` with item `i` (from 0) replaced by `v`; of the board `xs` with \
         the cell `i` (a `(row, column)` pair or an index), or every cell of a list of cells, \
         set to `v` (a one-character string). The original is unchanged.",
        "set([1, 2, 3], 1, 7)",
        "[1, 7, 3]",
    ),
    b(
        "union",
        Impl::Boards(BoardOp::Union),
        "union(a, b)",
        (2, 2),
        "The union of two sets: of two lists, the sorted list of what either holds (each once); \
         of two integers (bit sets), `a | b`.",
        "union([3, 1], [2, 3])",
        "[1, 2, 3]",
    ),
    b(
        "intersection",
        Impl::Boards(BoardOp::Intersection),
        "intersection(a, b)",
        (2, 2),
        "What both sets hold: of two lists, a sorted list, each once; of two integers, `a & b`.",
        "intersection([3, 1, 2], [2, 3, 5])",
        "[2, 3]",
    ),
    b(
        "difference",
        Impl::Boards(BoardOp::Difference),
        "difference(a, b)",
        (2, 2),
        "What `a` holds and `b` does not: of two lists, a sorted list, each once; of two \
         integers, the bits of `a` not in `b`.",
        "difference([1, 2, 3], [2])",
        "[1, 3]",
    ),
    b(
        "board",
        Impl::Boards(BoardOp::Board),
        "board(picture), board(rows, cols), board(rows, cols, cell)",
        (1, 3),
        "A board of cells, each one printable character: read from a picture whose rows are \
         separated by `|` or line breaks (`board(\"..#|...\")`, `.` free and `#` blocked by \
         convention), or `rows × cols` cells of `cell` (`.` when left out). `b[(r, c)]` is a \
         cell as a one-character string (`(0, 0)` the top left; an index `r * cols + c` also \
         works). A board alone prints as its picture, inside a list as `board(\"…\")`; boards \
         may be ruleset arguments.",
        "board(\"..#|...\")[(0, 2)]",
        "#",
    ),
    b(
        "shape",
        Impl::Boards(BoardOp::Shape),
        "shape(b)",
        (1, 1),
        "The board's rows and columns, as a pair.",
        "shape(board(2, 5))",
        "(2, 5)",
    ),
    b(
        "cells",
        Impl::Boards(BoardOp::Cells),
        "cells(b), cells(b, v)",
        (1, 2),
        "The cells of the board, as `(row, column)` pairs in reading order; with `v`, only \
         those holding `v`.",
        "cells(board(\"..#|#..\"), \"#\")",
        "[(0, 2), (1, 0)]",
    ),
    b(
        "neighbours",
        Impl::Boards(BoardOp::Neighbours),
        "neighbours(b, cell), neighbours(g, v)",
        (2, 2),
        "A board cell's orthogonal neighbours on the board (up, left, right, down, as \
         `(row, column)` pairs), or a graph vertex's neighbours in increasing order.",
        "neighbours(board(2, 3), (0, 0))",
        "[(0, 1), (1, 0)]",
    ),
    b(
        "adjacent_pairs",
        Impl::Boards(BoardOp::AdjacentPairs),
        "adjacent_pairs(b, v)",
        (2, 2),
        "The pairs of orthogonally adjacent cells that both hold `v`, each pair once (the \
         second cell right of or below the first): the places of a domino (Cram).",
        "adjacent_pairs(board(\".#|..\"), \".\")",
        "[((0, 0), (1, 0)), ((1, 0), (1, 1))]",
    ),
    b(
        "regions",
        Impl::Boards(BoardOp::Regions),
        "regions(b)",
        (1, 1),
        "The connected regions (orthogonal neighbours) of the cells that are not `#`, each a \
         board cropped to its bounding box with its other cells `#`, in reading order of their \
         first cells. A ruleset whose moves never reach across `#` splits by it: \
         `split by regions(b)`.",
        "regions(board(\"..#.\"))",
        "[board(\"..\"), board(\".\")]",
    ),
    b(
        "canonical",
        Impl::Boards(BoardOp::Canonical),
        "canonical(b), canonical(g)",
        (1, 1),
        "One representative of a class of symmetric positions. Of a board: the least of its \
         eight images under rotations and reflections (boards compare by rows, columns, then \
         cells). Of a graph: a canonical labelling, so isomorphic graphs give the same graph \
         (colour refinement and a search over the ties, skipping twin vertices; past 20 000 \
         refinements it keeps the best labelling found, still the same graph). A ruleset names \
         it in `canonical by canonical(b)`.",
        "canonical(board(\"#.|..\")) == canonical(board(\"..|.#\"))",
        "true",
    ),
    b(
        "rotate",
        Impl::Boards(BoardOp::Rotate),
        "rotate(b)",
        (1, 1),
        "The board turned a quarter clockwise.",
        "rotate(board(\"ab|cd|ef\"))",
        "eca\nfdb",
    ),
    b(
        "reflect",
        Impl::Boards(BoardOp::Reflect),
        "reflect(b)",
        (1, 1),
        "The board mirrored left to right.",
        "reflect(board(\"ab|cd\"))",
        "ba\ndc",
    ),
    b(
        "transpose",
        Impl::Boards(BoardOp::Transpose),
        "transpose(b)",
        (1, 1),
        "The board mirrored in its main diagonal (rows become columns).",
        "transpose(board(\"ab|cd\"))",
        "ac\nbd",
    ),
    b(
        "graph",
        Impl::Boards(BoardOp::Graph),
        "graph(n, edges)",
        (2, 2),
        "The simple graph on the vertices 0 to n - 1 with these edges, a list of pairs \
         `(a, b)` (either way round; a repeat counts once; a loop is an error). It prints as it \
         is written, and may be a ruleset argument.",
        "graph(3, [(1, 0), (1, 2)])",
        "graph(3, [(0, 1), (1, 2)])",
    ),
    b(
        "vertices",
        Impl::Boards(BoardOp::Vertices),
        "vertices(g)",
        (1, 1),
        "The graph's vertices, `0..n`, as a list.",
        "vertices(graph(3, []))",
        "[0, 1, 2]",
    ),
    b(
        "edges",
        Impl::Boards(BoardOp::Edges),
        "edges(g)",
        (1, 1),
        "The graph's edges, each once as a pair `(a, b)` with `a < b`, sorted.",
        "edges(graph(3, [(2, 1)]))",
        "[(1, 2)]",
    ),
    b(
        "degree",
        Impl::Boards(BoardOp::Degree),
        "degree(g, v)",
        (2, 2),
        "The number of neighbours of vertex `v`.",
        "degree(graph(3, [(0, 1), (0, 2)]), 0)",
        "2",
    ),
    b(
        "remove_vertices",
        Impl::Boards(BoardOp::RemoveVertices),
        "remove_vertices(g, vs)",
        (2, 2),
        "The graph without the vertices of the list `vs` and their edges, the rest numbered \
         from 0 in their order (a Node Kayles move removes a vertex and its neighbours).",
        "remove_vertices(graph(4, [(0, 1), (1, 2), (2, 3)]), [1])",
        "graph(3, [(1, 2)])",
    ),
    b(
        "components",
        Impl::Boards(BoardOp::Components),
        "components(g)",
        (1, 1),
        "The connected components, each a graph numbered from 0 in the order of its vertices, \
         in the order of their least vertices (an isolated vertex is `graph(1, [])`). A ruleset \
         on graphs whose moves stay inside a component splits by them: \
         `split by components(g)`.",
        "components(graph(4, [(0, 2)]))",
        "[graph(2, [(0, 1)]), graph(1, []), graph(1, [])]",
    ),
    // --- outcome classes ---
    b(
        "P",
        Impl::Constant(Outcome::P),
        "P",
        (0, 0),
        "The outcome class of games the previous player wins (the player to move loses).",
        "outcome(0) == P",
        "true",
    ),
    b(
        "N",
        Impl::Constant(Outcome::N),
        "N",
        (0, 0),
        "The outcome class of games the next player (the one to move) wins.",
        "outcome(*) == N",
        "true",
    ),
    b(
        "L",
        Impl::Constant(Outcome::L),
        "L",
        (0, 0),
        "The outcome class of games Left wins whoever starts (games with `∞`).",
        "outcome(∞) == L",
        "true",
    ),
    b(
        "R",
        Impl::Constant(Outcome::R),
        "R",
        (0, 0),
        "The outcome class of games Right wins whoever starts (games with `∞̄`).",
        "outcome(∞̄) == R",
        "true",
    ),
    b(
        "D",
        Impl::Constant(Outcome::D),
        "D",
        (0, 0),
        "The outcome class of drawn games: with best play the loopy game goes on for ever \
         (a draw), since neither player can force a win.",
        "outcome(a{a, * | a, *}) == D",
        "true",
    ),
    // --- heap games ---
    b(
        "heap",
        Impl::Heaps(HeapOp::Heap),
        "heap(code)",
        (1, 1),
        "A take-and-break heap game from its code, a string in CGSuite's notation (\"0.07\" is \
         Dawson's Kayles, \"4!.0\" Grundy's game). The result is a game family: `heap(code)(n)` \
         is the heap of size `n`.",
        "heap(\"0.07\")(10)",
        "*3",
    ),
    b(
        "heap_code",
        Impl::Heaps(HeapOp::HeapCode),
        "heap_code(g), heap_code(code)",
        (1, 1),
        "The take-and-break code of a heap game (`heap(…)`, `subtraction(…)`, `allbut(…)`) \
         or of a code string, in CGSuite's standard form: leading zeros dropped, a repeating \
         tail in brackets, digit sets written the shortest way. Two codes for the same game \
         print the same.",
        "heap_code(subtraction([2, 3, 7]))",
        "0.0330003",
    ),
    b(
        "nim_sum",
        Impl::Heaps(HeapOp::NimSum),
        "nim_sum(a, b)",
        (2, 2),
        "Nim addition (bitwise exclusive or) of two nonnegative integers, or of two nimbers \
         (then the result is a nimber): `nim_sum(a, b)` is the value of `*a + *b`.",
        "nim_sum(6, 3)",
        "5",
    ),
    b(
        "nim_product",
        Impl::Heaps(HeapOp::NimProduct),
        "nim_product(a, b)",
        (2, 2),
        "Nim multiplication of two nonnegative integers, the product of Conway's field On₂ \
         (the integers below `2^(2^k)` form a subfield); on nimbers it gives a nimber, as \
         `*a * *b` does.",
        "nim_product(16, 16)",
        "24",
    ),
    b(
        "nim_inverse",
        Impl::Heaps(HeapOp::NimInverse),
        "nim_inverse(a)",
        (1, 1),
        "The inverse of `a` under nim multiplication: the `b` with `nim_product(a, b) == 1`. \
         An error for 0, which has none.",
        "nim_inverse(2)",
        "3",
    ),
    b(
        "nim_div",
        Impl::Heaps(HeapOp::NimDiv),
        "nim_div(a, b)",
        (2, 2),
        "Nim division: `nim_product(a, nim_inverse(b))`. An error when `b` is 0.",
        "nim_div(7, 5)",
        "5",
    ),
    b(
        "subtraction",
        Impl::Heaps(HeapOp::Subtraction),
        "subtraction(set)",
        (1, 1),
        "The subtraction game whose moves remove a number of tokens in `set` (a list of \
         positive integers) from one heap.",
        "subtraction([1, 2])(5)",
        "*2",
    ),
    b(
        "allbut",
        Impl::Heaps(HeapOp::Allbut),
        "allbut(set)",
        (1, 1),
        "The all-but subtraction game: a move removes any positive number of tokens except \
         those in `set`.",
        "nim_sequence(allbut([2]), 8)",
        "0 1 0 1 2 3 2 3 4",
    ),
    b(
        "nim_sequence",
        Impl::Heaps(HeapOp::NimSequence),
        "nim_sequence(g, n), nim_sequence(g, a..b)",
        (2, 2),
        "The nim-values of the heaps `g(0), …, g(n)` (note: `n` is included, so \
         `nim_sequence(g, 5)` has six values), or of the heaps in a range; `g` is a heap game \
         or a ruleset (or function) of one integer. Prints as the values separated by spaces. \
         Held packed (one to four bytes a heap, as the largest value needs): `s[i]`, `s[a..b]` \
         (a sequence of those heaps), `len(s)` and `for (n, v) in s` read it in place.",
        "nim_sequence(subtraction([1, 2]), 6)",
        "0 1 2 0 1 2 0",
    ),
    b(
        "periodicity",
        Impl::Heaps(HeapOp::Periodicity),
        "periodicity(g), periodicity(g, heaps)",
        (1, 2),
        "Searches the nim-sequence of `g` for a period, up to a default number of heaps or \
         `heaps`, and certifies it where the Guy–Smith argument applies. A record with fields \
         `period`, `preperiod`, `last_exceptional`, `saltus`, `certified`, `certified_at`, \
         `checked_up_to`.",
        "periodicity(heap(\"0.07\")).period",
        "34",
    )
    .returns(&PERIODICITY),
    b(
        "rare_values",
        Impl::Heaps(HeapOp::RareValues),
        "rare_values(g, n)",
        (2, 2),
        "The rare heaps of a heap game among heaps 0 to `n`: the sparse-space split (Gangolli–Plambeck, \
         Flammenkamp) calls heap `m` common when `(g(m) << 1 | m % 2) & mask` has an odd number \
         of bits, for the mask that leaves the fewest heaps rare (none while no mask leaves fewer than an \
         eighth). Heap 0 is judged the same way, and with a mask it is always rare (its augmented \
         value is 0), so it is listed and counted, as in the published counts (Grundy's game: 1 287 \
         rare heaps to 2^32). A record with fields `mask`, \
         `heaps` and `values` (the rare heaps, ascending, and their nim-values), `count`, \
         `largest` (the largest nim-value of any heap) and `checked_up_to`. Only the kernel's \
         two bytes a heap are held, up to 2^32 heaps; for games whose moves leave at most two \
         heaps, some of them two.",
        "rare_values(heap(\"4!.0\"), 20000).count",
        "1196",
    )
    .returns(&RARE_VALUES),
    b(
        "write_sequence",
        Impl::Heaps(HeapOp::WriteSequence),
        "write_sequence(g, n, file), write_sequence(g, a..b, file)",
        (3, 3),
        "Writes the nim-values of heaps `0..=n` (or of a range) of `g` to `file` as they are \
         computed, holding none of them in the session: text with a `#` header line and one \
         value a line, or binary little-endian values after a 32-byte header if the file ends \
         in `.u16` or `.u32`. A bar shows progress; Ctrl-C stops it with the file marked \
         partial (a `# partial` last line, or the header's complete flag left clear). Up to \
         2^32 heaps. A record with fields `path`, `format`, `first`, `last`, `heaps` and \
         `bytes`; `read_sequence` reads the file back.",
        "",
        "",
    )
    .returns(&SEQUENCE_FILE),
    b(
        "read_sequence",
        Impl::Heaps(HeapOp::ReadSequence),
        "read_sequence(file)",
        (1, 1),
        "Reads a nim-sequence that `write_sequence` wrote (either format, told apart by the \
         binary header), or any text file of one nonnegative integer a line with `#` comments. \
         A file marked partial reads as the heaps it holds, with a warning.",
        "",
        "",
    ),
    b(
        "plot",
        Impl::Heaps(HeapOp::Plot),
        "plot(seq, file, title, range, (width, height))",
        (1, 6),
        "Draws a nim-sequence as a figure for a paper: heap size across, nim-value up, the \
         game's name or code as the title, the start of a certified period dashed. All but \
         the sequence may be left out, in any order (told apart by type): the first string \
         is the file (by default `nim-sequence.svg` in the current folder), the second the \
         title, a range the heaps drawn, a pair the size (default `(480, 300)`). The file's \
         extension chooses the format: `.svg`, `.png` (288 dpi) or `.pdf`. A heap game (or a \
         ruleset or function of one integer) followed by its heaps, a number of them or a \
         range, stands for their sequence: `plot(heap(\"0.07\"), 0..60, …)` is \
         `plot(nim_sequence(heap(\"0.07\"), 0..60), …)`.",
        "",
        "",
    ),
    // --- misère play ---
    b(
        "misere_outcome",
        Impl::Misere(MisereOp::MisereOutcome),
        "misere_outcome(g)",
        (1, 1),
        "The outcome of `g` under misère play (the player who cannot move wins): `P` or `N`. \
         Sums of heaps of a take-and-break game go through a misère quotient when one is \
         small.",
        "misere_outcome(*2 + *2)",
        "P",
    ),
    b(
        "misere_form",
        Impl::Misere(MisereOp::MisereForm),
        "misere_form(g)",
        (1, 1),
        "The misère canonical form of an impartial game (or of a CGSuite string such as \
         \"2#0\"), printed in CGSuite's notation `*[…]`: integers are nim heaps, `#` joins \
         options into one game.",
        "misere_form(* + *)",
        "*[0]",
    ),
    b(
        "genus",
        Impl::Misere(MisereOp::Genus),
        "genus(g)",
        (1, 1),
        "Conway's genus of `g` as CGSuite prints it (`2`, `0^120`, `4^146`): the normal and \
         misère nim values of `g`, `g + *2`, `g + *2 + *2`, … up to the eventual period.",
        "genus(*2)",
        "2",
    ),
    b(
        "misere_nimber",
        Impl::Misere(MisereOp::MisereNimber),
        "misere_nimber(g)",
        (1, 1),
        "The misère nim value G⁻ of `g` (0 exactly for misère P-positions).",
        "misere_nimber(*)",
        "0",
    ),
    b(
        "birthday",
        Impl::Misere(MisereOp::Birthday),
        "birthday(g)",
        (1, 1),
        "The birthday (height) of the misère canonical form of `g`.",
        "birthday(misere_form(*2))",
        "2",
    ),
    b(
        "is_tame",
        Impl::Misere(MisereOp::IsTame),
        "is_tame(g)",
        (1, 1),
        "Whether `g` is tame (Conway; CGSuite's phyla NH and HT): it and its followers have the \
         genera of nim heaps, so among tame games it plays like a nim heap.",
        "is_tame(*2 + *3)",
        "true",
    ),
    b(
        "is_restive",
        Impl::Misere(MisereOp::IsRestive),
        "is_restive(g)",
        (1, 1),
        "Whether `g` is restive (CGSuite's phylum HR, e.g. `*[2#0]` of genus `1^2`): tame but \
         for a twist at the end of play.",
        "is_restive(misere_form(\"2#0\"))",
        "true",
    ),
    b(
        "is_restless",
        Impl::Misere(MisereOp::IsRestless),
        "is_restless(g)",
        (1, 1),
        "Whether `g` is restless (CGSuite's phylum RL, e.g. `*[2#1]` of genus `2^1420`).",
        "is_restless(misere_form(\"2#1\"))",
        "true",
    ),
    b(
        "is_half_tame",
        Impl::Misere(MisereOp::IsHalfTame),
        "is_half_tame(g)",
        (1, 1),
        "Whether `g` is half-tame: not generally tame, but `g + g` is, with genus `0^0`.",
        "is_half_tame(misere_form(\"2#0\"))",
        "true",
    ),
    b(
        "is_tameable",
        Impl::Misere(MisereOp::IsTameable),
        "is_tameable(g)",
        (1, 1),
        "Whether `g` is tameable (generally tame, or CGSuite's phylum TA).",
        "is_tameable(misere_form(*2))",
        "true",
    ),
    b(
        "is_generally_tame",
        Impl::Misere(MisereOp::IsGenerallyTame),
        "is_generally_tame(g)",
        (1, 1),
        "Whether `g` is generally tame (CGSuite's phyla NH, HT, RT: tame up to reversible \
         moves).",
        "is_generally_tame(misere_form(*2))",
        "true",
    ),
    b(
        "is_generally_restive",
        Impl::Misere(MisereOp::IsGenerallyRestive),
        "is_generally_restive(g)",
        (1, 1),
        "Whether `g` is generally restive (CGSuite's phyla HR and RR).",
        "is_generally_restive(misere_form(*2))",
        "false",
    ),
    b(
        "is_extraverted",
        Impl::Misere(MisereOp::IsExtraverted),
        "is_extraverted(g)",
        (1, 1),
        "Whether every option of `g` is a part of `g`.",
        "is_extraverted(misere_form(*2))",
        "true",
    ),
    b(
        "is_introverted",
        Impl::Misere(MisereOp::IsIntroverted),
        "is_introverted(g)",
        (1, 1),
        "Whether `g` is introverted: a part of each of its options (only `0` and `*` are).",
        "is_introverted(misere_form(*))",
        "true",
    ),
    b(
        "is_even",
        Impl::Misere(MisereOp::IsEven),
        "is_even(g)",
        (1, 1),
        "Whether `g` is even: its birthday is less than that of `g + *` (`0` and `*2` are \
         even, `*` is odd).",
        "is_even(misere_form(*2 + *2))",
        "true",
    ),
    b(
        "is_prime",
        Impl::Misere(MisereOp::IsPrime),
        "is_prime(g)",
        (1, 1),
        "Whether `g` has no proper parts (is not a misère sum of smaller games).",
        "is_prime(misere_form(*2))",
        "true",
    ),
    b(
        "is_nim_heap",
        Impl::Misere(MisereOp::IsNimHeap),
        "is_nim_heap(g)",
        (1, 1),
        "Whether the misère canonical form of `g` is a single nim heap `*n`.",
        "is_nim_heap(misere_form(*2 + *3))",
        "false",
    ),
    b(
        "mate",
        Impl::Misere(MisereOp::Mate),
        "mate(g)",
        (1, 1),
        "The mate of `g` (Conway): the form with `g + mate(g)` a misère P-position built by \
         swapping 0 and `*` at the leaves.",
        "mate(*2)",
        "*[2]",
    ),
    b(
        "parts",
        Impl::Misere(MisereOp::Parts),
        "parts(g)",
        (1, 1),
        "The parts of `g`: the games `h` with `g = h + x` for some `x`.",
        "parts(misere_form(*2 + *3))",
        "[*[2]]",
    ),
    b(
        "partitions",
        Impl::Misere(MisereOp::Partitions),
        "partitions(g)",
        (1, 1),
        "The ways of writing `g` as a misère sum of prime games.",
        "partitions(misere_form(*2 + *3))",
        "[[*[2], *[2], *[1]]]",
    ),
    b(
        "distinguisher",
        Impl::Misere(MisereOp::Distinguisher),
        "distinguisher(g, h)",
        (2, 2),
        "A game `x` with `g + x` a misère P-position and `h + x` an N-position (or the other \
         way round): a witness that `g ≠ h`.",
        "distinguisher(*2, *3)",
        "*[2]",
    ),
    b(
        "is_linked",
        Impl::Misere(MisereOp::IsLinked),
        "is_linked(g, h)",
        (2, 2),
        "Whether some `x` makes `g + x` and `h + x` both misère P-positions.",
        "is_linked(*2, *3)",
        "false",
    ),
    b(
        "link",
        Impl::Misere(MisereOp::Link),
        "link(g, h)",
        (2, 2),
        "A game `x` with `g + x` and `h + x` both misère P-positions (see `is_linked`).",
        "link(*2, *2)",
        "*[2]",
    ),
    b(
        "misere_minus",
        Impl::Misere(MisereOp::MisereMinus),
        "misere_minus(g, h)",
        (2, 2),
        "The game `x` with `x + h = g` in misère play, when `h` is a part of `g`.",
        "misere_minus(misere_form(*2 + *3), misere_form(*2))",
        "*[3]",
    ),
    // --- misère quotients ---
    b(
        "quotient",
        Impl::Quotient(QuotientOp::Quotient),
        "quotient(g), quotient(g, n)",
        (1, 2),
        "The misère quotient of a heap game (Plambeck–Siegel), computed heap by heap until \
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
        "quotient(heap(\"0.75\")).phi[2] * quotient(heap(\"0.75\")).phi[2]",
        "b2",
    )
    .returns(&QUOTIENT),
    b(
        "isomorphic",
        Impl::Quotient(QuotientOp::Isomorphic),
        "isomorphic(q1, q2)",
        (2, 2),
        "Whether two quotients are the same bipartite monoid (one monoid, one P-portion).",
        "isomorphic(quotient(heap(\"0.3\")), quotient(heap(\"0.7\")))",
        "true",
    ),
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
