//! The language's errors: names, arity and types, arithmetic, literals, arguments of
//! built-ins, the limits of evaluation (budgets, nesting, recursion), modules and files.

mod argument;
mod codes;

pub use argument::{ArgumentError, Example, Limit, PlotOption, Wanted};
pub use codes::*;
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
    /// A ruleset's hint to pruned search (`bound by`, `order by`, `value by`) that gave what
    /// a hint cannot be, or said what is false of a part (a bound below its nimber).
    BadHint {
        ruleset: String,
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
    /// `fn` calls nested past the stack or [`crate::cx::MAX_CALLS`]: a recursion without end, or
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
    /// A table file (`load_table`, `--table`) that cannot be used: `foreign` when it is whole
    /// but of rulesets this session does not have, else torn, altered or not a table file.
    TableFile {
        path: String,
        detail: String,
        foreign: bool,
    },
    /// Source bytes that are not UTF-8 (`byte` counts from 1 within the line).
    InvalidUtf8 {
        line: usize,
        byte: usize,
    },
}

/// A value of a type an operation of the language does not take (all `E0103`). Types are
/// named as [`crate::value::Value::type_name`] names them ("an integer").
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
    /// `{0, *}`: a set literal (braces without `|`) holds integers; a game inside is most
    /// likely a form missing its bar.
    SetItem { found: &'static str, game: bool },
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
        let module = crate::shipped::shipped_definer(name);
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
            L::SetItem { found, game } => {
                let r = Report::new(
                    BAD_LITERAL,
                    format!("a set holds integers, not {found}"),
                    "not an integer",
                )
                .note("braces without `|` make a set of integers: `{1, 2, 5}`");
                if *game {
                    r.note("a form is written `{L | R}` (or `<L | R>`); `{ | }` is 0")
                } else {
                    r
                }
            }
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

impl Diagnose for EvalError {
    fn report(&self) -> Report {
        use EvalError as E;
        match self {
            E::UnknownName { .. }
            | E::Arity { .. }
            | E::Type(..)
            | E::IntegerAsGame(..)
            | E::Overflow { .. }
            | E::DivisionByZero
            | E::MixedQuotients { .. }
            | E::NegativeExponent { .. }
            | E::NegativeShift { .. }
            | E::Board { .. }
            | E::Graph { .. }
            | E::BadPart { .. }
            | E::BadHint { .. }
            | E::IndexOutOfRange { .. }
            | E::BadLiteral(..)
            | E::BadRange(..)
            | E::HeapSize(..)
            | E::HeapGameAsGame { .. }
            | E::ValueTooLarge(..)
            | E::BadArgument(..)
            | E::NotApplicable { .. } => self.evaluation_report(),
            E::Runaway { .. }
            | E::TooDeep { .. }
            | E::SelfDependent { .. }
            | E::Recursion { .. } => self.runaway_report(),
            E::ImportNotFound { .. }
            | E::ImportCycle { .. }
            | E::ImportDirectory { .. }
            | E::Io { .. }
            | E::WriteFailed { .. }
            | E::UnknownFileFormat { .. }
            | E::TableFile { .. }
            | E::InvalidUtf8 { .. } => self.file_report(),
        }
    }
}

impl EvalError {
    /// Names, calls, types, arithmetic and the values built while evaluating.
    fn evaluation_report(&self) -> Report {
        use EvalError as E;
        match self {
            E::UnknownName {
                name,
                suggestion,
                module,
            } => Report::new(
                UNKNOWN_NAME,
                format!("unknown name `{name}`"),
                "not defined",
            )
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
            E::DivisionByZero => {
                Report::new(DIVISION_BY_ZERO, "division by zero", "the divisor is 0")
            }
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
            E::BadHint { ruleset, detail } => Report::new(
                BAD_HINT,
                format!("a hint of ruleset `{ruleset}` {detail}"),
                "this hint",
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
            _ => unreachable!("`report` sends only these here"),
        }
    }

    /// Computations that do not end: runaway rulesets, nesting too deep, positions that ask
    /// about themselves, recursion without end.
    fn runaway_report(&self) -> Report {
        use EvalError as E;
        match self {
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
            _ => unreachable!("`report` sends only these here"),
        }
    }

    /// Modules and files: imports, reading and writing.
    fn file_report(&self) -> Report {
        use EvalError as E;
        match self {
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
            E::TableFile {
                path,
                detail,
                foreign,
            } => Report::new(
                if *foreign {
                    FOREIGN_TABLE_FILE
                } else {
                    BAD_TABLE_FILE
                },
                format!("cannot load the table `{path}`: {detail}"),
                "loading the table file",
            )
            .note(if *foreign {
                "nothing of it was loaded: define or import its rulesets as they were when it \
                 was saved"
            } else {
                "nothing of it was loaded, so no answer depends on it"
            }),
            E::InvalidUtf8 { line, byte } => Report::new(
                INVALID_UTF8,
                format!("line {line} is not valid UTF-8 (at byte {byte} of the line)"),
                "this byte does not start a UTF-8 character",
            )
            .note("Loony reads source text as UTF-8; save the file in that encoding"),
            _ => unreachable!("`report` sends only these here"),
        }
    }
}

/// `*n` for an `n` outside the nimbers Loony stores: negative (no such nimber) or too large.
pub(crate) fn not_a_nimber(n: i64) -> EvalError {
    if n < 0 {
        EvalError::Type(TypeError::NoSuchNimber { n })
    } else {
        EvalError::ValueTooLarge(TooLarge::Nimber { n })
    }
}
