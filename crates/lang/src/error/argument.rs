//! What a built-in says of an argument it cannot take (`E0114`), and the words it says it
//! with.

use super::codes::BAD_ARGUMENT;
use loony_core::diag::Report;

/// A built-in's argument it cannot take (all `E0114`). `function` is the built-in's name;
/// types are named as [`crate::value::Value::type_name`] names them, and a `found:
/// String` is a value as `show::describe` names it ("the integer -1", "a list").
#[derive(Debug, Clone, PartialEq)]
pub enum ArgumentError {
    /// `len(3)`: "`len` needs a list, not an integer".
    NotA {
        function: String,
        wanted: Wanted,
        found: &'static str,
    },
    /// `heap(7)`: a built-in's argument of another type, said with an example of the one
    /// wanted.
    NotLike { like: Example, found: &'static str },
    /// `mex([1, "a"])`: an element of a list of integers that is not one.
    NotIntegerIn {
        function: String,
        found: &'static str,
    },
    /// `subtraction([0])`: a list that holds `holds` among what should be `wanted`.
    ListHolds {
        function: String,
        wanted: Wanted,
        holds: String,
    },
    /// `min([])`.
    EmptyList { function: String },
    /// A Top Entails stack size `n` outside 0 to `most`.
    StackSize { function: String, n: i64, most: i64 },
    /// A subtraction or all-but set naming `n` tokens, past `most`.
    TooManyTokens { function: String, n: i64, most: i64 },
    /// `subtraction([])`.
    EmptySubtractionSet,
    /// A bound or budget that is not what it must be.
    Limit { limit: Limit, found: String },
    /// `isomorphic` of what is not a misère quotient (`found`: a type, a record's kind).
    NotQuotient { found: &'static str },
    /// `isomorphic` of a quotient record whose presentation does not parse, for `reason`.
    UnreadableQuotient { reason: String },
    /// A line of a sequence file (from 1) that is neither a value nor a `#` comment.
    NotASequenceLine {
        path: String,
        line: usize,
        text: String,
    },
    /// A binary sequence file whose header is not one `write_sequence` writes.
    NotASequenceHeader { path: String },
    /// `q.element(word)` of a word that does not parse in `q`'s generators.
    NotAWord {
        word: String,
        reason: String,
        presentation: String,
    },
    /// A second range or size given to `plot`.
    PlotTwice { option: PlotOption },
    /// A third string given to `plot`.
    PlotStrings,
    /// A value after `plot`'s sequence that is none of its options.
    PlotOption { found: String },
    /// `plot(g, …)` of a game without the heaps to draw after it (`found`: what came
    /// instead, if anything).
    PlotHeaps { found: Option<String> },
    /// A plot size outside `min` to `(max, max)` (in pixels), or not two integers.
    PlotSize { min: (u32, u32), max: i64 },
}

/// What a built-in's argument should be, as [`ArgumentError::NotA`] and
/// [`ArgumentError::ListHolds`] say it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Wanted {
    List,
    Integer,
    /// An argument of the nim-field built-ins.
    NimOperands,
    /// A subtraction or all-but set.
    TokenCounts,
    PositiveIntegers,
    /// What `nim_sequence` and `periodicity` read a sequence from.
    SequenceSource,
    /// What `heap_code` reads a code from.
    CodeSource,
    /// The heaps of `nim_sequence`: a number of them or a range.
    HeapCount,
    HeapRange,
    /// What `rare_values` splits: a heap game, not a ruleset.
    HeapGame,
    /// The last heap of `rare_values`.
    LastHeap,
    /// The file of `write_sequence` and `read_sequence`.
    FileName,
    /// An element of a misère quotient (`q.is_p`).
    Element,
    /// A word in a quotient's generators (`q.element`).
    Word,
    /// A non-negative integer (a bit set, a bit's place).
    Natural,
    Board,
    Graph,
    BoardOrGraph,
    ListOrBoard,
    /// `board`'s one argument.
    BoardPicture,
    /// A board cell's value.
    CellValue,
    Vertex,
    /// `graph`'s edges.
    Edges,
}

impl Wanted {
    fn text(self) -> &'static str {
        match self {
            Wanted::List => "a list",
            Wanted::Integer => "an integer",
            Wanted::NimOperands => "nonnegative integers or nimbers",
            Wanted::TokenCounts => "a list of positive integers",
            Wanted::PositiveIntegers => "positive integers",
            Wanted::SequenceSource => {
                "a heap game (heap(\"0.07\"), subtraction([…])) or a ruleset of one integer"
            }
            Wanted::CodeSource => "a heap game (heap(\"0.07\"), subtraction([…])) or a code string",
            Wanted::HeapCount => "a number of heaps or a range of heap sizes like 0..200",
            Wanted::HeapRange => "a range of heap sizes like 0..200",
            Wanted::HeapGame => "a heap game (heap(\"4!.0\"), subtraction([…]))",
            Wanted::LastHeap => "the last heap size, an integer",
            Wanted::FileName => "a file name, a string",
            Wanted::Element => "an element of the quotient, like q.phi[2]",
            Wanted::Word => "a word in the quotient's generators, like \"ab2\"",
            Wanted::Natural => "a non-negative integer",
            Wanted::Board => "a board, like board(\"..#|...\")",
            Wanted::Graph => "a graph, like graph(3, [(0, 1)])",
            Wanted::BoardOrGraph => "a board or a graph",
            Wanted::ListOrBoard => "a list or a board",
            Wanted::BoardPicture => {
                "a picture of the board, like \"..#|...\", or its rows and columns"
            }
            Wanted::CellValue => "a cell's value, a one-character string like \"#\"",
            Wanted::Vertex => "a vertex, an integer",
            Wanted::Edges => "a list of edges, pairs of vertices like [(0, 1), (1, 2)]",
        }
    }
}

/// A built-in's argument said by an example, for [`ArgumentError::NotLike`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Example {
    /// `heap`'s take-and-break code.
    HeapCode,
    /// `plot`'s nim-sequence.
    PlotSequence,
}

/// A limit given to a built-in, for [`ArgumentError::Limit`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// `periodicity`'s budget, a positive integer.
    PeriodicityBudget,
    /// `quotient`'s heap bound, an integer.
    QuotientBound,
}

/// An option of `plot` that is given once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PlotOption {
    Range,
    Size,
}

impl ArgumentError {
    pub(super) fn report(&self) -> Report {
        use ArgumentError as A;
        let this = |t: &str| format!("this is {t}");
        let (message, label) = match self {
            A::NotA {
                function,
                wanted,
                found,
            } => (
                format!("`{function}` needs {}, not {found}", wanted.text()),
                this(found),
            ),
            A::NotLike { like, found } => (
                match like {
                    Example::HeapCode => {
                        "`heap` needs a take-and-break code as a string, like heap(\"0.07\")"
                    }
                    Example::PlotSequence => {
                        "`plot` needs a nim-sequence, like plot(nim_sequence(g, 0..2000)), or a \
                         heap game or ruleset of one integer and its heaps, like \
                         plot(heap(\"0.07\"), 0..2000)"
                    }
                }
                .to_string(),
                this(found),
            ),
            A::NotIntegerIn { function, found } => (
                format!("`{function}` needs a list of integers, found {found}"),
                "in this list".to_string(),
            ),
            A::ListHolds {
                function,
                wanted,
                holds,
            } => (
                format!("`{function}` needs {}", wanted.text()),
                format!("this list holds {holds}"),
            ),
            A::EmptyList { function } => (
                format!("`{function}` of an empty list"),
                "this list is empty".to_string(),
            ),
            A::StackSize { function, n, most } => (
                format!("`{function}` takes a stack size from 0 to {most}"),
                format!("this is {n}"),
            ),
            A::TooManyTokens { function, n, most } => (
                format!("`{function}` takes numbers of tokens up to 2^40 = {most}, not {n}"),
                format!("this list holds {n}"),
            ),
            A::EmptySubtractionSet => (
                "a subtraction set needs at least one number".to_string(),
                "empty".to_string(),
            ),
            A::Limit { limit, found } => (
                match limit {
                    Limit::PeriodicityBudget => "the periodicity budget must be a positive integer",
                    Limit::QuotientBound => "the heap bound of `quotient` must be an integer",
                }
                .to_string(),
                this(found),
            ),
            A::NotQuotient { found } => (
                format!("`isomorphic` compares misère quotients, not {found}"),
                this(found),
            ),
            A::UnreadableQuotient { reason } => {
                let found = format!("a quotient it cannot read ({reason})");
                (
                    format!("`isomorphic` compares misère quotients, not {found}"),
                    this(&found),
                )
            }
            A::NotASequenceLine { path, line, text } => (
                format!(
                    "line {line} of `{path}` is not a nim-value: `{text}` (a sequence file has \
                     one nonnegative integer a line, and `#` comments)"
                ),
                "reading this file".into(),
            ),
            A::NotAWord {
                word,
                reason,
                presentation,
            } => (
                format!("`{word}` is not a word of this quotient: {reason}"),
                format!("its presentation is {presentation}"),
            ),
            A::NotASequenceHeader { path } => (
                format!(
                    "`{path}` starts as a binary sequence file but its header is not one \
                     `write_sequence` writes (version 1, two or four bytes a value)"
                ),
                "reading this file".into(),
            ),
            A::PlotTwice { option } => {
                let what = match option {
                    PlotOption::Range => "range",
                    PlotOption::Size => "size",
                };
                (
                    format!("`plot` takes one {what}"),
                    format!("a second {what}"),
                )
            }
            A::PlotStrings => (
                "`plot` takes two strings at most: the file, then the title".to_string(),
                "a third string".to_string(),
            ),
            A::PlotOption { found } => (
                "after the sequence, `plot` takes a file name, a title, a range of heaps and a \
                 size (width, height)"
                    .to_string(),
                this(found),
            ),
            A::PlotHeaps { found } => (
                "after a game, `plot` needs the heaps to draw: a number of heaps or a range of \
                 heap sizes, like plot(heap(\"0.07\"), 0..2000)"
                    .to_string(),
                match found {
                    Some(found) => format!("this is {found}"),
                    None => "no heaps given after this game".to_string(),
                },
            ),
            A::PlotSize {
                min: (min_w, min_h),
                max,
            } => (
                format!(
                    "the plot's size is (width, height) in pixels, from ({min_w}, {min_h}) to \
                     ({max}, {max})"
                ),
                "not a (width, height) in range".to_string(),
            ),
        };
        Report::new(BAD_ARGUMENT, message, label)
    }
}
