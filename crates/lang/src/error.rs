//! The language's errors: names, arity and types, arithmetic, literals, arguments of
//! built-ins, the limits of evaluation (budgets, nesting, recursion), modules and files.

use loony_core::diag::{Diagnose, FIGURE_EXTENSIONS, Report};

#[derive(Debug, Clone, PartialEq)]
pub enum EvalError {
    // --- names, values and built-ins ---
    UnknownName {
        name: String,
        suggestion: Option<String>,
        /// The shipped module that defines it, when one does.
        module: Option<&'static str>,
    },
    Arity {
        name: String,
        expected: String,
        found: usize,
        /// How it is called (`nim_sequence(g, n), nim_sequence(g, a..b)`), when known.
        usage: Option<String>,
    },
    /// An operation of the language on values it does not take.
    Type(TypeError),
    IntegerAsGame(i64),
    Overflow {
        op: String,
    },
    DivisionByZero,
    /// `2^-1`: integer powers take exponents from 0.
    NegativeExponent {
        exp: i64,
    },
    /// `1 << -1`: shifts take amounts from 0.
    NegativeShift {
        op: &'static str,
        amount: i64,
    },
    /// A board that cannot be made or read: a malformed picture, a cell off the board, a
    /// cell value that is not one character.
    Board {
        detail: String,
        label: &'static str,
    },
    /// A graph that cannot be made or read: an edge to a missing vertex, a loop, a vertex
    /// not in the graph.
    Graph {
        detail: String,
        label: &'static str,
    },
    /// A ruleset's `split by` or `canonical by` clause gave what is not a position's
    /// arguments: `clause` is `split by` or `canonical by`.
    BadPart {
        ruleset: String,
        clause: &'static str,
        detail: String,
    },
    /// Elements of two misère quotients in one operation (each described by its order and
    /// presentation).
    MixedQuotients {
        left: String,
        right: String,
    },
    IndexOutOfRange {
        index: i64,
        len: usize,
    },
    /// A malformed value literal (`∞(A)`, `⟫(n)`).
    BadLiteral(LiteralError),
    /// A range that gives no heaps, or not the heaps meant: empty (`0..0`), negative
    /// (`-3..3`), with a gap.
    BadRange(RangeError),
    /// A heap size that is not a nonnegative integer (`heap("0.07")(-1)`), or one past what
    /// Loony computes.
    HeapSize(HeapSizeError),
    /// A heap game (a family of games) where one game is wanted: `outcome(heap("0.07"))`.
    HeapGameAsGame {
        game: String,
    },
    /// A value past what Loony represents: `*n` beyond the nimbers, a nim-value past the
    /// fast path's 14 bits, a misère nim heap past its limit.
    ValueTooLarge(TooLarge),
    /// A built-in given an argument it cannot take (of the wrong type, or a value outside
    /// what it accepts); `Type` is for the language's own operations.
    BadArgument(ArgumentError),
    /// A built-in that does not apply to this kind of game.
    NotApplicable {
        function: String,
        form: String,
        reason: String,
    },
    // --- the limits of evaluation ---
    Runaway {
        ruleset: String,
        budget: usize,
        last: String,
        /// Budget units spent on large arguments (0: positions alone exhausted it).
        heavy: usize,
    },
    /// Nesting past what the stack holds.
    TooDeep {
        what: Nesting,
        limit: usize,
    },
    /// A rule asked for the value of the very position whose options it is listing.
    SelfDependent {
        position: String,
    },
    /// `fn` calls nested past the stack or [`crate::MAX_CALLS`]: a recursion without end, or
    /// too deep; `function` is the innermost.
    Recursion {
        function: String,
        calls: usize,
        /// The session's bound on nested calls.
        limit: usize,
    },
    // --- modules and files ---
    ImportNotFound {
        path: String,
        tried: Vec<String>,
    },
    ImportCycle {
        path: String,
    },
    /// `import "dir"` of a folder; `inside` lists the `.cgt` files it holds.
    ImportDirectory {
        path: String,
        inside: Vec<String>,
    },
    Io {
        path: String,
        message: String,
    },
    /// A file that could not be written (a plot to a missing folder, a read-only file).
    WriteFailed {
        path: String,
        message: String,
    },
    /// A file name whose extension names no format Loony writes.
    UnknownFileFormat {
        path: String,
    },
    /// Source bytes that are not UTF-8 (`byte` counts from 1 within the line).
    InvalidUtf8 {
        line: usize,
        byte: usize,
    },
}

/// A value of a type an operation of the language does not take (all `E0103`). Types are
/// named as [`loony_core::value::Value::type_name`] names them ("an integer").
#[derive(Debug, Clone, PartialEq)]
pub enum TypeError {
    /// `if 3 then …`: `wanted` ("a boolean") where `found` was given.
    Expected {
        wanted: &'static str,
        found: &'static str,
    },
    /// An operation that does not apply to `found` at all.
    Cannot {
        op: Operation,
        found: &'static str,
    },
    /// A binary operator on operands it does not combine: `bad` is the one pointed at.
    Operands {
        op: &'static str,
        left: &'static str,
        right: &'static str,
        bad: &'static str,
        other: &'static str,
    },
    /// `*-1`: nimbers are numbered from 0.
    NoSuchNimber {
        n: i64,
    },
    Compare {
        left: &'static str,
        right: &'static str,
    },
    /// `let (a, b) = 3`.
    Unpack {
        found: &'static str,
        names: usize,
    },
    RulesetArgument {
        found: &'static str,
    },
    NoField {
        record: String,
        field: String,
    },
    /// A heap whose moves are too many to list as games (`heap` past `most_heap`, or more
    /// than `most_moves` moves).
    MovesToList {
        heap: u64,
        most_heap: Option<u64>,
        most_moves: usize,
    },
}

/// A malformed value literal (all `E0108`).
#[derive(Debug, Clone, PartialEq)]
pub enum LiteralError {
    /// `⟫` alone: the special moon needs its number.
    MoonWithoutNumber,
    /// `∞([1, "a"])`: an element of the list of nim-values that is not an integer.
    NotNimValues { found: &'static str },
    /// `∞("a")`: an argument that is neither an integer nor a list of them.
    NotIntegers { found: &'static str },
    /// `∞(-1)`: an integer outside the nim-values Loony stores.
    NoSuchNimValue { n: i64 },
    /// `⟫(1, 2)`: the special moon takes one nim-value.
    MoonArguments { given: usize },
    /// `∞̄(…)`: the right-win terminal takes none.
    RightWinArguments,
}

/// A range of heaps that gives no heaps, or not the heaps meant (all `E0110`).
#[derive(Debug, Clone, PartialEq)]
pub enum RangeError {
    /// `0..0` given to `function`.
    Empty { function: String },
    /// `-3..3`: a range that starts below heap 0.
    Negative { start: i64 },
    /// `[0, 1, 3]`: `next` follows `previous` in a range given to `function`.
    NotConsecutive {
        function: String,
        previous: i64,
        next: i64,
    },
    /// `nim_sequence(g, n)` with `n` negative.
    NegativeCount { n: i64 },
    /// `plot` of a sequence with no heaps.
    EmptyPlot,
    /// `plot`'s range `from..=to` reaches outside the sequence's heaps `start..=end`.
    OutsidePlot {
        from: u64,
        to: u64,
        start: u64,
        end: u64,
    },
}

/// A heap size that is not one Loony computes (all `E0111`).
#[derive(Debug, Clone, PartialEq)]
pub enum HeapSizeError {
    /// A heap game applied to what is not a nonnegative integer: `found` as
    /// `show::describe` names it ("the integer -1", "a string").
    NotNonnegative { found: String },
    /// Heap `n` past `most`, the largest heap computed.
    TooLarge { n: u64, most: u64 },
    /// Heap `n` past `most`, and no period certified within the first `searched` heaps to
    /// read it from.
    NoPeriod { n: u64, most: u64, searched: u64 },
    /// `*[2, -1]`: a negative nim heap in a misère literal.
    NotNimHeap { n: i64 },
}

/// A value past what Loony represents (all `E0113`).
#[derive(Debug, Clone, PartialEq)]
pub enum TooLarge {
    /// `*n` past the nimbers Loony stores.
    Nimber { n: i64 },
    /// `function` (a Top Entails built-in) reached stack `at`, whose nim-value needs more
    /// than the fast path's 14 bits.
    TopEntailsValue { function: String, at: usize },
    /// A misère sum with a heap of `heap`, past `most`, the largest the exhaustive search
    /// takes.
    MisereHeap { heap: u64, most: u64 },
    /// The misère search of a sum met more than `positions` positions.
    MisereSearch { positions: usize },
    /// A nim-value past what a `.u16` sequence file holds.
    FileWidth { heap: u64, value: u32 },
}

/// A built-in's argument it cannot take (all `E0114`). `function` is the built-in's name;
/// types are named as [`loony_core::value::Value::type_name`] names them, and a `found:
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

/// The nimbers Loony stores, as a label says it.
pub const NIMBERS: &str = "nimbers are *0, *1, *2, … up to *4294967293";

/// What [`TypeError::Cannot`] could not do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Operation {
    Negate,
    Index,
    Fields,
    Call,
    Iterate,
    /// `*n` of a value that is not an integer.
    Nimber,
}

/// What is nested too deep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Nesting {
    Expression,
    /// A value to print.
    List,
    /// Rules that ask about other positions, each explored inside the last.
    Exploration,
    /// Modules importing modules, each read inside the last (by the static resolver).
    Imports,
}

impl EvalError {
    /// `wanted` where a value of type `found` was given.
    pub fn expected(wanted: &'static str, found: &'static str) -> Self {
        EvalError::Type(TypeError::Expected { wanted, found })
    }

    pub fn cannot(op: Operation, found: &'static str) -> Self {
        EvalError::Type(TypeError::Cannot { op, found })
    }

    /// `name` is not bound: the shipped module that defines it, or else the closest of
    /// `candidates` (the names in scope). The interpreter and the static resolver both ask here.
    pub fn unknown_name<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Self {
        let module = crate::modules::shipped_definer(name);
        let suggestion = match module {
            Some(_) => None,
            None => loony_core::diag::did_you_mean(name, candidates),
        };
        EvalError::UnknownName {
            name: name.to_string(),
            suggestion,
            module,
        }
    }

    /// `name` called with `found` arguments where it takes from `lo` to `hi`.
    pub fn arity(
        name: &str,
        (lo, hi): (usize, usize),
        found: usize,
        usage: Option<String>,
    ) -> Self {
        let expected = match (lo, hi) {
            (0, 0) => "no arguments".to_string(),
            (1, 1) => "1 argument".to_string(),
            (n, m) if n == m => format!("{n} arguments"),
            (n, m) if n + 1 == m => format!("{n} or {m} arguments"),
            (n, m) => format!("{n} to {m} arguments"),
        };
        EvalError::Arity {
            name: name.to_string(),
            expected,
            found,
            usage,
        }
    }
}

impl TypeError {
    fn report(&self) -> Report {
        use TypeError as T;
        let this = |t: &str| format!("this is {t}");
        match self {
            T::Expected { wanted, found } => Report::new(
                TYPE,
                format!("expected {wanted}, found {found}"),
                this(found),
            ),
            T::Cannot { op, found } => {
                let message = match op {
                    Operation::Negate => format!("cannot negate {found}"),
                    Operation::Index => format!("cannot index into {found}"),
                    Operation::Fields => format!("{found} has no fields"),
                    Operation::Call => format!("{found} cannot be called"),
                    Operation::Iterate => format!("cannot iterate over {found}"),
                    Operation::Nimber => format!("`*` needs an integer, not {found}"),
                };
                let label = match op {
                    Operation::Iterate => "`for` needs a list or a range".to_string(),
                    _ => this(found),
                };
                Report::new(TYPE, message, label)
            }
            T::Operands {
                op,
                left,
                right,
                bad,
                other,
            } => Report::new(
                TYPE,
                format!("cannot apply `{op}` to {left} and {right}"),
                format!("this is {bad}, the other operand is {other}"),
            ),
            T::NoSuchNimber { n } => Report::new(TYPE, format!("`*{n}` is not a nimber"), NIMBERS),
            T::Compare { left, right } => Report::new(
                TYPE,
                format!("cannot compare {left} with {right}"),
                this(right),
            ),
            T::Unpack { found, names } => Report::new(
                TYPE,
                format!("cannot unpack {found} into {names} names"),
                "this pattern",
            ),
            T::RulesetArgument { found } => Report::new(
                TYPE,
                format!("ruleset arguments are integers, tuples or lists, not {found}"),
                this(found),
            ),
            T::NoField { record, field } => Report::new(
                TYPE,
                format!("{record} has no field `{field}`"),
                "no such field",
            ),
            T::MovesToList {
                heap,
                most_heap: Some(most),
                ..
            } => Report::new(
                TYPE,
                format!("a heap of {heap} has too many moves to list (at most heaps of {most})"),
                "too large to list",
            ),
            T::MovesToList {
                heap, most_moves, ..
            } => Report::new(
                TYPE,
                format!("a heap of {heap} has more than {most_moves} moves to list"),
                "too many moves to list",
            ),
        }
    }
}

impl LiteralError {
    fn report(&self) -> Report {
        use LiteralError as L;
        let here = |message: String| Report::new(BAD_LITERAL, message, "here");
        match self {
            L::MoonWithoutNumber => Report::new(
                BAD_LITERAL,
                "`⟫` needs a number: the special moon is written `⟫(n)`",
                "write ⟫(n), e.g. ⟫(3) or moon(3)",
            ),
            L::NotNimValues { found } => here(format!("`∞(A)` lists nim-values, not {found}")),
            L::NotIntegers { found } => here(format!("this literal takes integers, not {found}")),
            L::NoSuchNimValue { n } => {
                here(format!("{n} is not a nim-value (they are 0, 1, 2, …)"))
            }
            L::MoonArguments { given } => here(format!(
                "the special moon takes one nim-value, ⟫(n); {given} given"
            )),
            L::RightWinArguments => {
                here("`∞̄` (`-inf`) takes no arguments; the loopy value is written `∞(A)`".into())
            }
        }
    }
}

impl RangeError {
    fn report(&self) -> Report {
        use RangeError as R;
        match self {
            R::Empty { function } => Report::new(
                BAD_RANGE,
                format!("`{function}` was given an empty range of heaps"),
                "this range holds no heap",
            )
            .note("`a..b` holds a, a + 1, …, b - 1, so `0..0` is empty; `a..=b` holds b too"),
            R::Negative { start } => Report::new(
                BAD_RANGE,
                format!("heap sizes are nonnegative, but this range starts at {start}"),
                "starts below 0",
            )
            .note("heaps count tokens from 0: write `0..b`"),
            R::NotConsecutive {
                function,
                previous,
                next,
            } => Report::new(
                BAD_RANGE,
                format!("`{function}` needs consecutive heap sizes, but {next} follows {previous}"),
                "not consecutive",
            )
            .note("a range `a..b` gives consecutive heap sizes"),
            R::NegativeCount { n } => Report::new(
                BAD_RANGE,
                format!(
                    "`nim_sequence(g, n)` lists heaps 0 to n, so n cannot be negative (here {n})"
                ),
                "negative",
            ),
            R::EmptyPlot => Report::new(
                BAD_RANGE,
                "`plot` needs at least one heap to draw",
                "this sequence is empty",
            ),
            R::OutsidePlot {
                from,
                to,
                start,
                end,
            } => Report::new(
                BAD_RANGE,
                format!(
                    "the plot's range {from}..={to} is not inside the sequence's heaps {start}..={end}"
                ),
                "outside the sequence",
            ),
        }
    }
}

impl HeapSizeError {
    fn report(&self) -> Report {
        use HeapSizeError as H;
        match self {
            H::NotNonnegative { found } => Report::new(
                HEAP_SIZE,
                "a heap size must be a nonnegative integer",
                format!("this is {found}"),
            ),
            H::TooLarge { n, most } => Report::new(
                HEAP_SIZE,
                format!("heap size {n} is too large to compute (at most {most})"),
                "too large",
            ),
            H::NoPeriod { n, most, searched } => Report::new(
                HEAP_SIZE,
                format!(
                    "heap size {n} is past what Loony computes ({most}), and no period is \
                     certified within the first {searched} heaps to read it from"
                ),
                "too large",
            ),
            H::NotNimHeap { n } => Report::new(
                HEAP_SIZE,
                format!("`{n}` is not a nim heap"),
                "nim heaps in a misère literal are 0, 1, 2, …",
            ),
        }
    }
}

impl TooLarge {
    fn report(&self) -> Report {
        use TooLarge as T;
        match self {
            T::Nimber { n } => {
                Report::new(VALUE_TOO_LARGE, format!("`*{n}` is not a nimber"), NIMBERS)
            }
            T::TopEntailsValue { function, at } => Report::new(
                VALUE_TOO_LARGE,
                format!("`{function}` stops at stack {at}: its nim-value needs more than 14 bits"),
                "the fast path stores nim-values below 16384",
            ),
            T::MisereHeap { heap, most } => Report::new(
                VALUE_TOO_LARGE,
                format!(
                    "a heap of {heap} is too large for an exhaustive misère search (at most \
                     {most}); compute its quotient first with `quotient`"
                ),
                "no quotient covers this sum",
            ),
            T::MisereSearch { positions } => Report::new(
                VALUE_TOO_LARGE,
                format!(
                    "the misère search of this sum passed {positions} positions without finishing"
                ),
                "no quotient covers this sum",
            ),
            T::FileWidth { heap, value } => Report::new(
                VALUE_TOO_LARGE,
                format!(
                    "heap {heap} has nim-value {value}, past the 65535 that a `.u16` file holds"
                ),
                "this file",
            )
            .note("write it as `.u32`, or as text (any other extension)"),
        }
    }
}

impl ArgumentError {
    fn report(&self) -> Report {
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

impl Diagnose for EvalError {
    fn report(&self) -> Report {
        use EvalError as E;
        match self {
            E::UnknownName {
                name,
                suggestion,
                module,
            } => Report::new(UNKNOWN_NAME, format!("unknown name `{name}`"), "not defined")
                .notes(module.iter().map(|m| {
                    format!("the shipped module \"{m}\" defines `{name}`: `import \"{m}\"` first")
                }))
                .notes(suggestion.iter().map(|s| format!("did you mean `{s}`?"))),
            E::Arity {
                name,
                expected,
                found,
                usage,
            } => Report::new(
                ARITY,
                format!(
                    "`{name}` takes {expected}, but {found} {} given",
                    if *found == 1 { "was" } else { "were" }
                ),
                "wrong number of arguments",
            )
            .notes(usage.iter().map(|u| format!("usage: {u}"))),
            E::Type(t) => t.report(),
            E::IntegerAsGame(n) => Report::new(
                INTEGER_AS_GAME,
                format!("the integer {n} is not an impartial game"),
                "an integer used as a game",
            )
            .note(format!(
                "Loony's games are impartial; integers are not. Did you mean the nimber `*{n}`?"
            )),
            E::Overflow { op } => Report::new(
                OVERFLOW,
                format!("integer overflow in `{op}`"),
                "the result does not fit in 64 bits",
            ),
            E::DivisionByZero => Report::new(DIVISION_BY_ZERO, "division by zero", "the divisor is 0"),
            E::MixedQuotients { left, right } => Report::new(
                MIXED_QUOTIENTS,
                "these are elements of two different misère quotients",
                "an element of another quotient than the left side's",
            )
            .note(format!(
                "the left one belongs to a quotient of {left}; this one to a quotient of {right}"
            )),
            E::NegativeExponent { exp } => Report::new(
                NEGATIVE_EXPONENT,
                format!("`^` raises integers to exponents from 0, not {exp}"),
                "a negative exponent",
            ),
            E::NegativeShift { op, amount } => Report::new(
                NEGATIVE_SHIFT,
                format!("`{op}` shifts by 0 or more bits, not {amount}"),
                "a negative shift",
            ),
            E::Board { detail, label } => {
                Report::new(BAD_BOARD, format!("bad board: {detail}"), *label)
            }
            E::Graph { detail, label } => {
                Report::new(BAD_GRAPH, format!("bad graph: {detail}"), *label)
            }
            E::BadPart {
                ruleset,
                clause,
                detail,
            } => Report::new(
                BAD_PART,
                format!("`{clause}` of ruleset `{ruleset}` {detail}"),
                "in this clause",
            ),
            E::IndexOutOfRange { index, len } => Report::new(
                INDEX_OUT_OF_RANGE,
                format!("index {index} is out of range for a list of length {len}"),
                "no such element",
            ),
            E::BadLiteral(l) => l.report(),
            E::BadRange(r) => r.report(),
            E::HeapSize(h) => h.report(),
            E::HeapGameAsGame { game } => Report::new(
                HEAP_GAME_AS_GAME,
                format!("`{game}` is a heap game, a game for every heap size, not one game"),
                "a heap game",
            )
            .note(format!(
                "give it a heap size: `{game}(5)` is the heap of 5 tokens, and \
                 `nim_sequence({game}, 0..20)` lists the nim-values of many"
            )),
            E::ValueTooLarge(t) => t.report(),
            E::BadArgument(a) => a.report(),
            E::NotApplicable {
                function,
                form,
                reason,
            } => Report::new(
                NOT_APPLICABLE,
                format!("{function} does not apply to `{form}`"),
                reason,
            ),
            E::Runaway {
                ruleset,
                budget,
                last,
                heavy,
            } => {
                let growing = *heavy > budget / 2;
                let message = if growing {
                    format!(
                        "ruleset `{ruleset}` ran past the position budget: most of it went to positions with large arguments"
                    )
                } else {
                    format!(
                        "ruleset `{ruleset}` explored more than {budget} positions without finishing"
                    )
                };
                let mut r = Report::new(
                    RUNAWAY,
                    message,
                    "exploring this ran past the position budget",
                )
                .note(format!("the last position explored was `{last}`"));
                if growing {
                    r = r.note(format!(
                        "{heavy} of the units spent went to positions whose arguments are large \
                         lists or tuples (half a unit per value past 64)"
                    ));
                }
                r.note(format!(
                    "if the game is finite but large, raise the budget (now {budget}) with `--budget N` or `:budget N`"
                ))
            }
            E::TooDeep { what, limit } => {
                let message = match what {
                    Nesting::Exploration => format!(
                        "rules that ask about other positions nested {limit} explorations, more than the stack holds"
                    ),
                    Nesting::List => format!("this value is nested too deep to print ({limit} levels)"),
                    Nesting::Expression => {
                        format!("this expression is nested too deep ({limit} levels)")
                    }
                    Nesting::Imports => {
                        format!("modules import one another {limit} deep, more than the stack holds")
                    }
                };
                let mut r = Report::new(TOO_DEEP, message, "too deep");
                if *what == Nesting::Exploration {
                    r = r.note(
                        "a rule that asks about a position (`nimber`, `options`, …) explores it \
                         inside the exploration that asks, so a chain of such rules nests",
                    );
                }
                r.note("the interpreter's stack ran out at this depth")
            }
            E::SelfDependent { position } => Report::new(
                SELF_DEPENDENT,
                format!("`{position}` depends on its own value"),
                "asked about while its options were being listed",
            )
            .note(
                "a rule of this ruleset asks about its own position (through `options`, \
                 `nimber`, …) while its options are being listed, so they can never be known",
            ),
            E::Recursion {
                function,
                calls,
                limit,
            } => Report::new(
                RECURSION,
                format!(
                    "`{function}` recursed too deep: {calls} calls without returning (a recursion without end?)"
                ),
                "this call went one level too deep",
            )
            .note(
                "a recursion ends when its arguments reach a case that calls nothing more, \
                 like `if n == 0 then 0 else f(n - 1)`",
            )
            .note(format!(
                "Loony allows up to {limit} nested calls, as far as its stack holds"
            )),
            E::ImportNotFound { path, tried } => {
                let mut r = Report::new(
                    IMPORT_NOT_FOUND,
                    format!("cannot find module `{path}`"),
                    "no such file or shipped module",
                );
                if !tried.is_empty() {
                    r = r.note(format!("looked for: {}", tried.join(", ")));
                }
                r.note("shipped modules are imported as \"std/NAME\"")
            }
            E::ImportCycle { path } => Report::new(
                IMPORT_CYCLE,
                format!("module `{path}` imports itself"),
                "imported again while it is being loaded",
            ),
            E::ImportDirectory { path, inside } => Report::new(
                IMPORT_DIRECTORY,
                format!("`{path}` is a folder, not a file to import"),
                "a folder",
            )
            .note(match inside.as_slice() {
                [] => "it holds no .cgt file".to_string(),
                files => format!(
                    "import one of the files in it: {}",
                    files.iter().take(8).cloned().collect::<Vec<_>>().join(", ")
                ),
            }),
            E::Io { path, message } => Report::new(
                UNREADABLE_FILE,
                format!("cannot read `{path}`: {message}"),
                "the file could not be read",
            )
            .bare(),
            E::WriteFailed { path, message } => Report::new(
                WRITE_FAILED,
                format!("cannot write `{path}`: {message}"),
                "writing this file",
            ),
            E::UnknownFileFormat { path } => Report::new(
                UNKNOWN_FILE_FORMAT,
                format!("cannot tell what kind of file `{path}` is"),
                "unknown extension",
            )
            .note(format!(
                "a plot is written as SVG, PNG or PDF: end the file name in {FIGURE_EXTENSIONS}"
            )),
            E::InvalidUtf8 { line, byte } => Report::new(
                INVALID_UTF8,
                format!("line {line} is not valid UTF-8 (at byte {byte} of the line)"),
                "this byte does not start a UTF-8 character",
            )
            .note("Loony reads source text as UTF-8; save the file in that encoding"),
        }
    }
}

loony_core::codes! {
    /// The `--explain` texts of this layer's codes.
    pub CODES;
    INVALID_UTF8 = "E0009",
        "The source file holds bytes that are not UTF-8 text.\n\n\
         Loony reads programs as UTF-8; the diagnostic names the line and the byte where the \
         text stops being UTF-8. Save the file in that encoding.";
    UNKNOWN_NAME = "E0101",
        "A name that is not defined: not a local, not a binding of the program (`let`, `fn`, \
         `ruleset`, an import), and not a built-in.\n\n\
         When a defined name is close (one edit in three letters), the note suggests it. Shipped \
         games such as `kayles` come from modules: `import \"std/kayles\"` first. `:help` lists \
         the built-ins.";
    ARITY = "E0102",
        "A function, ruleset or built-in called with the wrong number of arguments.\n\n\
         The note shows how it is called (`usage: nim_sequence(g, n), nim_sequence(g, a..b)`). \
         For a built-in the signature comes from the same table as `:help NAME` and \
         docs/builtins.md.";
    TYPE = "E0103",
        "An operation of the language applied to a value it does not work on: negating a list, \
         indexing an integer, comparing a string with a game, iterating over a game, calling \
         something that is not a function, unpacking a value into the wrong number of names.\n\n\
         The label says what the value is. Built-ins report their own argument errors as E0114.";
    INTEGER_AS_GAME = "E0104",
        "An integer other than 0 used where a game is wanted, as in `*2 + 3`.\n\n\
         Loony's games are impartial, and integers (other than 0) are partizan games, so they \
         are not allowed; the nimber is written `*3`.";
    OVERFLOW = "E0105",
        "Integer arithmetic that overflows Loony's signed 64-bit integers (`+`, `-`, `*`, `^`, \
         `abs`, `sum`, nim-field results past 2^63).\n\n\
         Nimbers and nim-values are computed exactly; only plain integer arithmetic has this \
         bound.";
    DIVISION_BY_ZERO = "E0106",
        "Division (`/`) or remainder (`%`) by zero.\n\n\
         Nim division by the nimber 0 is E0407.";
    INDEX_OUT_OF_RANGE = "E0107",
        "A list index outside the list: `[1, 2, 3][3]` (indices count from 0) or a negative \
         index.\n\n\
         The message gives the list's length; `len(xs)` computes it.";
    BAD_LITERAL = "E0108",
        "A malformed value literal: `∞(A)` (a loopy value) needs nonnegative integers `A`, and \
         a special moon `⟫(n)` needs its number.\n\n\
         `∞(2, 3)` is the loopy value that can escape to *2 and *3; `⟫(3)` (or `moon(3)`) is a \
         special moon.";
    BAD_RANGE = "E0110",
        "A range of heaps that gives no heaps, or not the heaps meant: it is empty, it starts \
         below 0, or its sizes are not consecutive.\n\n\
         `a..b` holds a, a + 1, …, b - 1, so `0..0` is empty and `0..=0` holds heap 0; heap \
         sizes count tokens from 0, so `-3..3` starts below any heap. `nim_sequence(g, n)` (an \
         integer) lists the heaps 0 to n.";
    HEAP_SIZE = "E0111",
        "A heap size that is not a nonnegative integer: `heap(\"0.07\")(-1)`, `dk(\"a\")`, or a \
         negative nim heap in a misère literal `*[2, -1]`.\n\n\
         A heap game applied to `n` is the heap of `n` tokens, from 0 up.";
    HEAP_GAME_AS_GAME = "E0112",
        "A heap game where one game is wanted: `outcome(heap(\"0.07\"))`.\n\n\
         `heap(\"0.07\")`, `subtraction([1, 2])` and `allbut([…])` are families, one game for \
         every heap size. Apply one to a size to get a game, `heap(\"0.07\")(5)`, or ask about \
         many sizes at once with `nim_sequence(heap(\"0.07\"), 0..20)`.";
    VALUE_TOO_LARGE = "E0113",
        "A value past what Loony represents: a nimber `*n` above *4294967293, a Top Entails \
         nim-value past the fast path's 14 bits, a heap too large for the exhaustive misère \
         search, or a misère search that met too many positions.\n\n\
         The message names the bound. For misère sums of heaps, computing the game's \
         `quotient` first answers them from its table.";
    BAD_ARGUMENT = "E0114",
        "A built-in given an argument it cannot take: of the wrong type (`len(3)`, \
         `heap(7)`), or a value outside what it accepts (an empty subtraction set, a \
         nonpositive budget, an unknown `plot` option).\n\n\
         `:help NAME` shows the built-in's signature and what each argument is.";
    NEGATIVE_EXPONENT = "E0115",
        "An integer power `a^b` with a negative exponent: the result would not be an \
         integer.\n\n\
         `^` is integer exponentiation (`2^32`), right-associative and binding tighter than `*` \
         and unary minus (`-2^2` is -4, `*2^3` is `*8`).";
    NEGATIVE_SHIFT = "E0117",
        "A shift `x << n` or `x >> n` by a negative number of bits.\n\n\
         Shifts take amounts from 0: `x << n` is `x` times `2^n` (an error if a bit would leave \
         the 64-bit integer), `x >> n` is `x` divided by `2^n`, rounded down (so `-7 >> 1` is \
         -4, as in Python). To shift the other way, use the other operator.";
    BAD_BOARD = "E0118",
        "A board that cannot be made, or a cell that is not on it.\n\n\
         `board(\"..#|...\")` reads a picture: rows separated by `|` or line breaks, all of \
         one length, one printable ASCII character a cell (`.` free and `#` blocked by \
         convention; `regions` stops at `#`). `board(r, c)` is an r × c board of `.`. A cell \
         is written `(row, column)` from `(0, 0)` at the top left, or as its index \
         `row * columns + column`; a cell's value is a one-character string.";
    BAD_GRAPH = "E0119",
        "A graph that cannot be made, or a vertex that is not in it.\n\n\
         `graph(n, edges)` has the vertices 0 to n - 1 and the edges given as pairs `(a, b)` \
         of them; the graphs are simple (no loops; a repeated edge counts once). Removing \
         vertices numbers the rest from 0 in their order.";
    BAD_PART = "E0120",
        "A ruleset's `split by` or `canonical by` clause gave a value that is not a \
         position's arguments.\n\n\
         `split by e` gives the independent parts of a position, a list whose items are the \
         arguments of positions of the same ruleset (one value each for a ruleset of one \
         parameter, a tuple of them otherwise); the position is the sum of those parts. \
         `canonical by e` gives the arguments of one position that stands for the whole \
         symmetry class (`canonical(b)` for boards and graphs).";
    MIXED_QUOTIENTS = "E0116",
        "Elements of two different misère quotients in one operation: `q.phi[2] * r.phi[2]`, \
         `q.is_p(r.phi[1])`, or comparing them.\n\n\
         An element belongs to the quotient it came from (`q.phi`, `q.elements`, \
         `q.element(\"ab2\")`); the same word can name different elements of two quotients, \
         so they do not mix even when the quotients are isomorphic. Compare quotients with \
         `isomorphic(q, r)`.";
    RUNAWAY = "E0203",
        "Exploring a ruleset reached more positions than the position budget allows without \
         finishing: the game is very large, or its positions never repeat \
         (`up(n) => up(n + 1)`).\n\n\
         If the game is finite, raise the budget with `--budget N` or `:budget N`; the note \
         shows the last position explored.";
    TOO_DEEP = "E0206",
        "Nesting deeper than the interpreter's stack holds: a deeply nested expression or \
         list, or rules that ask about other positions (`nimber(r(n - 1))` in the rules of \
         `r`), each explored inside the one that asks.\n\n\
         Recursion of a `fn` is E0214. For rules, compute the positions bottom-up (a \
         `nim_sequence`, or asking for small positions first) so each exploration finds the \
         ones below already known.";
    NOT_APPLICABLE = "E0210",
        "A built-in that does not apply to this kind of game: `nimber(☾)` (a moon is not a \
         nimber), `affine_value(∞)`, `explain` of a loopy game, a misère function given an \
         entailing game.\n\n\
         The label says why.";
    SELF_DEPENDENT = "E0211",
        "A rule asked about the value or options of the very position whose options it is \
         listing (`ruleset r(n) { if nimber(r(n)) == 0 => … }`), so they can never be known.\n\n\
         A rule may ask about other positions, not its own.";
    RECURSION = "E0214",
        "A `fn` recursed too deep: more nested calls than the session allows (2,000,000), or \
         than the stack holds, without returning. Usually a recursion without end, like \
         `fn f(n) = f(n + 1)`.\n\n\
         A recursion ends when its arguments reach a case that calls nothing more: \
         `fn f(n) = if n == 0 then 0 else f(n - 1)`. A linear recursion a million calls deep \
         works.";
    IMPORT_NOT_FOUND = "E0301",
        "An `import` whose file or shipped module does not exist.\n\n\
         Files are found relative to the importing file (`import \"lib/games\"` tries \
         lib/games.cgt, then lib/games); shipped modules are `import \"std/NAME\"` and the \
         note lists them.";
    IMPORT_CYCLE = "E0302",
        "A module imports itself, directly or through other modules (a imports b, which \
         imports a).\n\n\
         Move the shared definitions into a third module that both import.";
    UNREADABLE_FILE = "E0303",
        "A file that could not be read: it does not exist, or it cannot be opened (the \
         message gives the system's reason).\n\n\
         Check the path; `:load` and `loony FILE` take paths relative to the current folder.";
    WRITE_FAILED = "E0304",
        "A file that could not be written, such as a plot into a folder that does not exist \
         or a read-only file.\n\n\
         Create the folder first, or write elsewhere; the message gives the system's reason.";
    UNKNOWN_FILE_FORMAT = "E0305",
        "A file name whose extension names no format Loony writes.\n\n\
         A plot is written as SVG, PNG or PDF, chosen by the extension: `.svg`, `.png`, \
         `.pdf`.";
    IMPORT_DIRECTORY = "E0306",
        "`import` of a folder: a module is one file.\n\n\
         The note lists the `.cgt` files in the folder; import one of them by its path, \
         `import \"folder/file\"`.";
}
