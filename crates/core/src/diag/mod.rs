//! Errors and their conversion to codespan diagnostics: every error Loony reports passes through
//! [`Error::to_diagnostic`], the one place where codes, messages and labels are decided.

mod clip;
pub mod explain;
pub mod guard;

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
use loony_syntax::ParseError;
use std::ops::Range;

/// The extensions a plot may be written with (the figure writer of `loony_lang` reads this too,
/// so the diagnostic and the writer agree).
pub const FIGURE_EXTENSIONS: &str = ".svg, .png or .pdf";

pub type FileId = usize;
pub type Files = SimpleFiles<String, String>;

/// A place in a source file.
#[derive(Debug, Clone, PartialEq)]
pub struct Loc {
    pub file: FileId,
    pub span: Range<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind {
    Syntax(ParseError),
    UnknownName {
        name: String,
        suggestion: Option<String>,
    },
    Arity {
        name: String,
        expected: String,
        found: usize,
        /// How it is called (`nim_sequence(g, n), nim_sequence(g, a..b)`), when known.
        usage: Option<String>,
    },
    Type {
        message: String,
        label: String,
    },
    IntegerAsGame(i64),
    /// A range that gives no heaps, or not the heaps meant: empty (`0..0`), negative
    /// (`-3..3`), with a gap; `note` says how to write it.
    BadRange {
        message: String,
        label: String,
        note: Option<String>,
    },
    /// A heap size that is not a nonnegative integer: `heap("0.07")(-1)`.
    HeapSize {
        message: String,
        label: String,
    },
    /// A heap game (a family of games) where one game is wanted: `outcome(heap("0.07"))`.
    HeapGameAsGame {
        game: String,
    },
    /// A value past what Loony represents: `*n` beyond the nimbers, a nim-value past the
    /// fast path's 14 bits, a misère nim heap past its limit.
    ValueTooLarge {
        message: String,
        label: String,
    },
    /// A built-in given an argument it cannot take (of the wrong type, or a value outside
    /// what it accepts); `Type` is for the language's own operations.
    BadArgument {
        message: String,
        label: String,
    },
    Overflow {
        op: String,
    },
    DivisionByZero,
    IndexOutOfRange {
        index: i64,
        len: usize,
    },
    NotImpartial {
        form: String,
        detail: String,
    },
    NotAffine {
        form: String,
        detail: String,
    },
    InfinitiesCollide,
    /// A sum whose part recurs inside one of its own followers: infinitely many positions.
    InfiniteGame {
        position: String,
        follower: String,
    },
    /// The theory gives the game no value (its outcome is still known).
    Undetermined {
        form: String,
        reason: String,
        outcome: Option<String>,
    },
    /// A malformed value literal (`∞(A)`, `⟫(n)`).
    BadLiteral {
        message: String,
        label: String,
    },
    /// A rule asked for the value of the very position whose options it is listing.
    SelfDependent {
        position: String,
    },
    /// A built-in that does not apply to this kind of game.
    NotApplicable {
        function: String,
        form: String,
        reason: String,
    },
    /// The exact solver met more states than the budget allows.
    SearchBudget {
        budget: usize,
    },
    /// A label of a labelled form that is defined twice or never used.
    BadLabel {
        message: String,
        label: String,
    },
    Runaway {
        ruleset: String,
        budget: usize,
        last: String,
        /// Budget units spent on large arguments (0: positions alone exhausted it).
        heavy: usize,
    },
    /// Nesting past what the stack holds: `what` is nested (`"expression"`, `"list"`, or
    /// `"exploration"`: rules that ask about other positions, each explored inside the last).
    TooDeep {
        what: &'static str,
        limit: usize,
    },
    /// `fn` calls nested past the stack or [`crate::eval::MAX_CALLS`]: a recursion without
    /// end, or too deep; `function` is the innermost.
    Recursion {
        function: String,
        calls: usize,
        /// The session's bound on nested calls.
        limit: usize,
    },
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
    BadHeapCode {
        code: String,
        message: String,
        at: Range<usize>,
    },
    NotHeapGame {
        found: String,
        detail: String,
    },
    NotSumOfHeaps {
        game: String,
        option: String,
        reason: String,
    },
    QuotientTooLarge {
        game: String,
        heap: usize,
        order: usize,
        elements: usize,
    },
    NoCertificate {
        game: String,
    },
    BadHeapBound {
        value: i64,
        max: i64,
    },
    /// `nim_inverse(0)`, `nim_div(a, 0)`, `*a * *0`-style division by the nimber 0.
    NimZeroDivisor {
        op: String,
    },
    /// A nim-field built-in given a negative integer.
    NimNegative {
        op: String,
        value: i64,
    },
    Interrupted,
    NoValue {
        form: String,
        reason: String,
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
    /// `*[…]` with an element that is not an integer, a list or a game.
    MisereSpecifier {
        found: String,
    },
    /// `link(g, h)` of games that are not linked (CGSuite's wording).
    MisereNotLinked {
        g: String,
        h: String,
    },
    /// `misere_minus(g, h)` where `h` is not a part of `g` (CGSuite's wording).
    MisereNotSubtractable {
        g: String,
        h: String,
    },
    /// A misère function given a game with ∞, ∞̄, `entail` or `carry`.
    MisereEntailing {
        form: String,
    },
    /// `distinguisher(g, g)`.
    MisereIdentical {
        game: String,
    },
    /// A nim heap or a printed string past the misère engine's limits.
    MisereTooLarge {
        message: String,
    },
    /// A string that is not CGSuite's misère notation.
    MisereNotation {
        text: String,
        message: String,
        at: usize,
    },
    /// A misère function called while the misère engine is converting a ruleset position.
    MisereBusy,
    /// Source bytes that are not UTF-8 (`byte` counts from 1 within the line).
    InvalidUtf8 {
        line: usize,
        byte: usize,
    },
    /// The statement needed more memory than the session's budget.
    MemoryBudget {
        budget: usize,
        what: String,
        /// What the session held when the statement began.
        held: usize,
    },
    /// A panic caught at the session boundary: a bug in Loony.
    Internal {
        message: String,
    },
    /// A table of the interpreter would outgrow its indices (`what` names it).
    Capacity {
        what: String,
        limit: String,
    },
    /// A REPL `:command` that cannot run as written (unknown, or a bad argument).
    BadCommand {
        message: String,
        label: String,
        usage: String,
    },
}

/// How many of an error's own notes are shown before and after the ones left out.
const NOTES_HEAD: usize = 5;
const NOTES_TAIL: usize = 3;

/// An error; boxed so that `Result<_, Error>` stays small on the hot paths.
#[derive(Debug, Clone, PartialEq)]
pub struct Error(Box<ErrorData>);

impl std::ops::Deref for Error {
    type Target = ErrorData;
    fn deref(&self) -> &ErrorData {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorData {
        &mut self.0
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ErrorData {
    pub kind: ErrorKind,
    pub loc: Option<Loc>,
    pub notes: Vec<String>,
    /// Notes left out between the first and the last few (a deep nest of explorations adds one
    /// per level).
    pub elided: usize,
    /// The game the error is about, when the engine knows it: the evaluator points the
    /// diagnostic at where that form was written.
    pub subject: Option<crate::game::GameId>,
}

impl Error {
    pub fn new(kind: ErrorKind) -> Self {
        Error(Box::new(ErrorData {
            kind,
            loc: None,
            notes: Vec::new(),
            elided: 0,
            subject: None,
        }))
    }

    pub fn about(mut self, g: crate::game::GameId) -> Self {
        self.subject = Some(g);
        self
    }

    pub fn at(kind: ErrorKind, file: FileId, span: Range<usize>) -> Self {
        Error(Box::new(ErrorData {
            kind,
            loc: Some(Loc { file, span }),
            notes: Vec::new(),
            elided: 0,
            subject: None,
        }))
    }

    /// Gives the error a location if it has none yet (the innermost location wins).
    pub fn or_at(mut self, file: FileId, span: Range<usize>) -> Self {
        if self.loc.is_none() {
            self.loc = Some(Loc { file, span });
        }
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        if self.notes.len() == NOTES_HEAD + NOTES_TAIL {
            // Keep the first notes (the innermost cause) and the latest (the outermost).
            self.notes.remove(NOTES_HEAD);
            self.elided += 1;
        }
        self.notes.push(note.into());
        self
    }

    /// The notes as shown, with a line standing for those left out.
    pub fn shown_notes(&self) -> Vec<String> {
        let mut v = self.notes.clone();
        if self.elided > 0 {
            v.insert(
                NOTES_HEAD.min(v.len()),
                format!("… and {} more like these", self.elided),
            );
        }
        v
    }

    pub fn type_error(message: impl Into<String>, label: impl Into<String>) -> Self {
        Error::new(ErrorKind::Type {
            message: message.into(),
            label: label.into(),
        })
    }

    pub fn code(&self) -> &'static str {
        match &self.kind {
            ErrorKind::Syntax(p) => match p {
                ParseError::UnexpectedChar { .. } => "E0001",
                ParseError::Unclosed { .. } => "E0002",
                ParseError::MissingBar { .. } => "E0003",
                ParseError::UnexpectedToken { .. } => "E0004",
                ParseError::UnexpectedEof { .. } => "E0005",
                ParseError::IntTooLarge { .. } => "E0006",
                ParseError::UnterminatedString { .. } => "E0007",
                ParseError::BadEscape { .. } => "E0008",
                ParseError::DecimalNumber { .. } => "E0010",
            },
            ErrorKind::UnknownName { .. } => "E0101",
            ErrorKind::Arity { .. } => "E0102",
            ErrorKind::Type { .. } => "E0103",
            ErrorKind::IntegerAsGame(_) => "E0104",
            ErrorKind::BadRange { .. } => "E0110",
            ErrorKind::HeapSize { .. } => "E0111",
            ErrorKind::HeapGameAsGame { .. } => "E0112",
            ErrorKind::ValueTooLarge { .. } => "E0113",
            ErrorKind::BadArgument { .. } => "E0114",
            ErrorKind::Overflow { .. } => "E0105",
            ErrorKind::DivisionByZero => "E0106",
            ErrorKind::IndexOutOfRange { .. } => "E0107",
            ErrorKind::NotImpartial { .. } => "E0201",
            ErrorKind::InfiniteGame { .. } => "E0202",
            ErrorKind::Undetermined { .. } => "E0208",
            ErrorKind::BadLiteral { .. } => "E0108",
            ErrorKind::BadLabel { .. } => "E0109",
            ErrorKind::SearchBudget { .. } => "E0209",
            ErrorKind::NotApplicable { .. } => "E0210",
            ErrorKind::SelfDependent { .. } => "E0211",
            ErrorKind::Runaway { .. } => "E0203",
            ErrorKind::NotAffine { .. } => "E0204",
            ErrorKind::InfinitiesCollide => "E0205",
            ErrorKind::TooDeep { .. } => "E0206",
            ErrorKind::Recursion { .. } => "E0214",
            ErrorKind::NoValue { .. } => "E0207",
            ErrorKind::ImportNotFound { .. } => "E0301",
            ErrorKind::ImportCycle { .. } => "E0302",
            ErrorKind::ImportDirectory { .. } => "E0306",
            ErrorKind::Io { .. } => "E0303",
            ErrorKind::WriteFailed { .. } => "E0304",
            ErrorKind::UnknownFileFormat { .. } => "E0305",
            ErrorKind::BadHeapCode { .. } => "E0401",
            ErrorKind::NotHeapGame { .. } => "E0402",
            ErrorKind::NotSumOfHeaps { .. } => "E0403",
            ErrorKind::QuotientTooLarge { .. } => "E0404",
            ErrorKind::NoCertificate { .. } => "E0405",
            ErrorKind::BadHeapBound { .. } => "E0406",
            ErrorKind::NimZeroDivisor { .. } => "E0407",
            ErrorKind::NimNegative { .. } => "E0408",
            ErrorKind::Interrupted => "E0501",
            ErrorKind::MisereSpecifier { .. } => "E0601",
            ErrorKind::MisereNotLinked { .. } => "E0602",
            ErrorKind::MisereNotSubtractable { .. } => "E0603",
            ErrorKind::MisereEntailing { .. } => "E0604",
            ErrorKind::MisereIdentical { .. } => "E0605",
            ErrorKind::MisereTooLarge { .. } => "E0606",
            ErrorKind::MisereNotation { .. } => "E0607",
            ErrorKind::MisereBusy => "E0608",
            ErrorKind::Capacity { .. } => "E0212",
            ErrorKind::MemoryBudget { .. } => "E0213",
            ErrorKind::InvalidUtf8 { .. } => "E0009",
            ErrorKind::Internal { .. } => "E0901",
            ErrorKind::BadCommand { .. } => "E0701",
        }
    }

    pub fn message(&self) -> String {
        match &self.kind {
            ErrorKind::Syntax(p) => match p {
                ParseError::UnexpectedChar { found, .. } => match visible(found) {
                    Some(shown) => format!("unexpected character `{shown}`"),
                    None => format!("unexpected character {}", code_points(found)),
                },
                ParseError::Unclosed {
                    bracket,
                    comment: Some(_),
                    ..
                } => format!(
                    "unclosed `{bracket}`: its `{}` is in a comment",
                    loony_syntax::closing(*bracket)
                ),
                ParseError::Unclosed { bracket, .. } => format!("unclosed `{bracket}`"),
                ParseError::MissingBar { .. } => {
                    "this form has no `|` between its Left and Right options".into()
                }
                ParseError::UnexpectedToken { found, .. } => {
                    format!("did not expect {found} here")
                }
                ParseError::UnexpectedEof { .. } => "unexpected end of input".into(),
                ParseError::IntTooLarge { .. } => "integer literal is too large".into(),
                ParseError::UnterminatedString { .. } => "unterminated string".into(),
                ParseError::BadEscape { found, .. } => {
                    format!("unknown escape `{found}` in a string")
                }
                ParseError::DecimalNumber { text, .. } => {
                    format!("`{text}` is not a Loony number: numbers are integers")
                }
            },
            ErrorKind::UnknownName { name, .. } => format!("unknown name `{name}`"),
            ErrorKind::Arity {
                name,
                expected,
                found,
                ..
            } => {
                format!(
                    "`{name}` takes {expected}, but {found} {} given",
                    if *found == 1 { "was" } else { "were" }
                )
            }
            ErrorKind::Type { message, .. }
            | ErrorKind::BadRange { message, .. }
            | ErrorKind::HeapSize { message, .. }
            | ErrorKind::ValueTooLarge { message, .. }
            | ErrorKind::BadArgument { message, .. } => message.clone(),
            ErrorKind::HeapGameAsGame { game } => {
                format!("`{game}` is a heap game, a game for every heap size, not one game")
            }
            ErrorKind::IntegerAsGame(n) => format!("the integer {n} is not an impartial game"),
            ErrorKind::Overflow { op } => format!("integer overflow in `{op}`"),
            ErrorKind::DivisionByZero => "division by zero".into(),
            ErrorKind::IndexOutOfRange { index, len } => {
                format!("index {index} is out of range for a list of length {len}")
            }
            ErrorKind::NotImpartial { form, .. } => format!("`{form}` is not impartial"),
            ErrorKind::NotAffine { form, .. } => {
                format!("`{form}` is not an affine impartial game")
            }
            ErrorKind::InfinitiesCollide => {
                "`∞ + ∞̄` has no value: both players would have already won".into()
            }
            ErrorKind::InfiniteGame { position, .. } => {
                format!("this game has infinitely many positions: `{position}` keeps recurring")
            }
            ErrorKind::Undetermined { form, .. } => {
                format!("the value of `{form}` is not determined")
            }
            ErrorKind::BadLiteral { message, .. } | ErrorKind::BadLabel { message, .. } => {
                message.clone()
            }
            ErrorKind::SearchBudget { budget } => {
                format!("the exact search of this sum passed {budget} states without finishing")
            }
            ErrorKind::SelfDependent { position } => {
                format!("`{position}` depends on its own value")
            }
            ErrorKind::NotApplicable { function, form, .. } => {
                format!("{function} does not apply to `{form}`")
            }
            ErrorKind::Runaway {
                ruleset,
                budget,
                heavy,
                ..
            } => {
                if *heavy > budget / 2 {
                    format!(
                        "ruleset `{ruleset}` ran past the position budget: the arguments of its positions keep growing"
                    )
                } else {
                    format!(
                        "ruleset `{ruleset}` explored more than {budget} positions without finishing"
                    )
                }
            }
            ErrorKind::TooDeep { what, limit } => match *what {
                "exploration" => format!(
                    "rules that ask about other positions nested {limit} explorations, more than the stack holds"
                ),
                "list" => format!("this value is nested too deep to print ({limit} levels)"),
                _ => format!("this {what} is nested too deep ({limit} levels)"),
            },
            ErrorKind::Recursion {
                function, calls, ..
            } => format!(
                "`{function}` recursed too deep: {calls} calls without returning (a recursion without end?)"
            ),
            ErrorKind::NoValue { form, .. } => format!("`{form}` has no nim-value"),
            ErrorKind::ImportNotFound { path, .. } => format!("cannot find module `{path}`"),
            ErrorKind::ImportCycle { path } => format!("module `{path}` imports itself"),
            ErrorKind::ImportDirectory { path, .. } => {
                format!("`{path}` is a folder, not a file to import")
            }
            ErrorKind::Io { path, message } => format!("cannot read `{path}`: {message}"),
            ErrorKind::WriteFailed { path, message } => {
                format!("cannot write `{path}`: {message}")
            }
            ErrorKind::UnknownFileFormat { path } => {
                format!("cannot tell what kind of file `{path}` is")
            }
            ErrorKind::BadHeapCode { code, message, .. } => {
                format!("bad heap code \"{code}\": {message}")
            }
            ErrorKind::NotHeapGame { found, .. } => {
                format!("`quotient` needs a heap game, not {found}")
            }
            ErrorKind::NotSumOfHeaps { game, option, .. } => {
                if option.is_empty() {
                    format!("`{game}` is not a heap game")
                } else {
                    format!("the move from `{game}` to `{option}` is not a sum of smaller heaps")
                }
            }
            ErrorKind::QuotientTooLarge { game, heap, .. } => {
                format!("the misère quotient of {game} outgrew its size limit at heap {heap}")
            }
            ErrorKind::NoCertificate { game } => format!(
                "the misère quotient of {game} cannot be certified, so it needs a heap bound"
            ),
            ErrorKind::BadHeapBound { value, max } => {
                format!("a heap bound must be from 0 to {max}, not {value}")
            }
            ErrorKind::NimZeroDivisor { op } => {
                format!("`{op}` divides by the nimber 0, which has no inverse")
            }
            ErrorKind::NimNegative { op, value } => {
                format!("`{op}` works on nimbers, numbered 0, 1, 2, …, not on {value}")
            }
            ErrorKind::Interrupted => "interrupted".into(),
            ErrorKind::MisereSpecifier { .. } => {
                "Invalid misere game specifier: must be a `List` of `Integer`s or `MisereCanonicalGame`s"
                    .into()
            }
            ErrorKind::MisereNotLinked { g, h } => {
                format!("Those misere games are not linked: {g}, {h}")
            }
            ErrorKind::MisereNotSubtractable { g, h } => {
                format!("Those misere games are not subtractable: {g}, {h}")
            }
            ErrorKind::MisereEntailing { form } => {
                format!("`{form}` has entailing moves, which misère play does not cover")
            }
            ErrorKind::MisereIdentical { game } => {
                format!("no game distinguishes {game} from itself")
            }
            ErrorKind::MisereTooLarge { message } => message.clone(),
            ErrorKind::MisereNotation { text, message, .. } => {
                format!("bad misère notation \"{text}\": {message}")
            }
            ErrorKind::MisereBusy => {
                "misère functions cannot be called from a ruleset while its positions are being converted to misère forms".into()
            }
            ErrorKind::InvalidUtf8 { line, byte } => {
                format!("line {line} is not valid UTF-8 (at byte {byte} of the line)")
            }
            ErrorKind::MemoryBudget { budget, .. } => format!(
                "this needs more memory than the session's budget of {}",
                crate::memory::show_size(*budget)
            ),
            ErrorKind::Internal { .. } => "internal error: Loony failed while running this".into(),
            ErrorKind::Capacity { what, limit } => {
                format!("too many {what}: Loony's tables hold at most {limit}")
            }
            ErrorKind::BadCommand { message, .. } => message.clone(),
        }
    }

    fn label_and_notes(&self) -> (String, Vec<String>) {
        let mut notes = Vec::new();
        let label = match &self.kind {
            ErrorKind::Syntax(p) => match p {
                ParseError::UnexpectedChar { found, .. } => {
                    if found.starts_with('∞') {
                        notes.push(format!(
                            "this is ∞ followed by {}; minus infinity is `∞̄`, ∞ with U+0304 \
                             (combining macron), or `-inf` in ASCII",
                            code_points(&found['∞'.len_utf8()..])
                        ));
                        "not a symbol Loony knows".to_string()
                    } else if visible(found).is_none() {
                        notes.push(
                            "invisible and control characters are not part of Loony's syntax; \
                             delete it (it may have come with pasted text)"
                                .into(),
                        );
                        "an invisible character".to_string()
                    } else {
                        "Loony does not know this character".to_string()
                    }
                }
                ParseError::Unclosed {
                    bracket, comment, ..
                } => {
                    let close = loony_syntax::closing(*bracket);
                    if let Some(c) = comment {
                        notes.push(format!(
                            "`#` starts a comment, which runs to the end of the line: the `{close}` \
                             in it closes nothing"
                        ));
                        if c.misere {
                            notes.push(
                                "CGSuite's misère notation (`*[2#0]`) is read from a string: \
                                 `misere_form(\"2#0\")`"
                                    .into(),
                            );
                        }
                    } else {
                        notes.push(format!("the input ended before the matching `{close}`"));
                    }
                    "opened here".to_string()
                }
                ParseError::MissingBar { .. } => {
                    notes.push("a form is written `{L | R}` (or `<L | R>`); `{ | }` is 0".into());
                    "form without `|`".to_string()
                }
                ParseError::UnexpectedToken { expected, .. } => {
                    if let Some(note) = expected_note(expected) {
                        notes.push(note);
                    }
                    "not expected here".to_string()
                }
                ParseError::UnexpectedEof { expected, .. } => {
                    if let Some(note) = expected_note(expected) {
                        notes.push(note);
                    }
                    "input ends here".to_string()
                }
                ParseError::DecimalNumber { text, .. } => {
                    notes.push(format!(
                        "a take-and-break code is a string, in quotes: heap(\"{text}\")"
                    ));
                    "a decimal number".to_string()
                }
                ParseError::IntTooLarge { .. } => {
                    notes.push(format!("integers are 64-bit: at most {}", i64::MAX));
                    "too large".to_string()
                }
                ParseError::UnterminatedString { .. } => {
                    "this string has no closing `\"`".to_string()
                }
                ParseError::BadEscape { .. } => {
                    notes.push(
                        "a string may contain `\\\"` (a quote), `\\\\` (a backslash), `\\n` (a newline) and `\\t` (a tab)"
                            .into(),
                    );
                    "not an escape".to_string()
                }
            },
            ErrorKind::UnknownName { suggestion, .. } => {
                if let Some(s) = suggestion {
                    notes.push(format!("did you mean `{s}`?"));
                }
                "not defined".to_string()
            }
            ErrorKind::Arity { usage, .. } => {
                if let Some(u) = usage {
                    notes.push(format!("usage: {u}"));
                }
                "wrong number of arguments".to_string()
            }
            ErrorKind::Type { label, .. }
            | ErrorKind::HeapSize { label, .. }
            | ErrorKind::ValueTooLarge { label, .. }
            | ErrorKind::BadArgument { label, .. } => label.clone(),
            ErrorKind::BadRange { label, note, .. } => {
                notes.extend(note.clone());
                label.clone()
            }
            ErrorKind::HeapGameAsGame { game } => {
                notes.push(format!(
                    "give it a heap size: `{game}(5)` is the heap of 5 tokens, and \
                     `nim_sequence({game}, 0..20)` lists the nim-values of many"
                ));
                "a heap game".to_string()
            }
            ErrorKind::IntegerAsGame(n) => {
                notes.push(format!(
                    "Loony's games are impartial; integers are not. Did you mean the nimber `*{n}`?"
                ));
                "an integer used as a game".to_string()
            }
            ErrorKind::Overflow { .. } => "the result does not fit in 64 bits".to_string(),
            ErrorKind::DivisionByZero => "the divisor is 0".to_string(),
            ErrorKind::IndexOutOfRange { .. } => "no such element".to_string(),
            ErrorKind::NotImpartial { detail, .. } | ErrorKind::NotAffine { detail, .. } => {
                detail.clone()
            }
            ErrorKind::InfinitiesCollide => "∞ and ∞̄ meet in this sum".to_string(),
            ErrorKind::InfiniteGame { position, follower } => {
                notes.push(format!(
                    "`{position}` is a part of its own follower `{follower}`, so the sums met \
                     in play grow without end; Loony values games with finitely many positions"
                ));
                "the positions of this game grow without end".to_string()
            }
            ErrorKind::Undetermined {
                reason, outcome, ..
            } => {
                notes.push(reason.clone());
                if let Some(o) = outcome {
                    notes.push(format!(
                        "its outcome is {o} (exact search); `outcome(…)` gives it"
                    ));
                }
                "no value in the theory".to_string()
            }
            ErrorKind::BadLiteral { label, .. } | ErrorKind::BadLabel { label, .. } => {
                label.clone()
            }
            ErrorKind::NotApplicable { reason, .. } => reason.clone(),
            ErrorKind::SelfDependent { .. } => {
                notes.push(
                    "a rule of this ruleset asks about its own position (through `options`, \
                     `nimber`, …) while its options are being listed, so they can never be known"
                        .into(),
                );
                "asked about while its options were being listed".to_string()
            }
            ErrorKind::SearchBudget { budget } => {
                notes.push(format!(
                    "the theory gives no value here, so every state of the sum is searched; \
                     raise the budget (now {budget}) with `--budget N` or `:budget N`"
                ));
                "too many states to search".to_string()
            }
            ErrorKind::Runaway {
                budget,
                last,
                heavy,
                ..
            } => {
                notes.push(format!("the last position explored was `{last}`"));
                if *heavy > budget / 2 {
                    notes.push(format!(
                        "its positions' arguments keep growing: {heavy} of the budget's units \
                         went to large lists and tuples (half a unit per value past 64)"
                    ));
                }
                notes.push(format!(
                    "if the game is finite but large, raise the budget (now {budget}) with `--budget N` or `:budget N`"
                ));
                "exploring this ran past the position budget".to_string()
            }
            ErrorKind::TooDeep { what, .. } => {
                if *what == "exploration" {
                    notes.push(
                        "a rule that asks about a position (`nimber`, `options`, …) explores it \
                         inside the exploration that asks, so a chain of such rules nests"
                            .into(),
                    );
                }
                notes.push("the interpreter's stack ran out at this depth".into());
                "too deep".to_string()
            }
            ErrorKind::Recursion { limit, .. } => {
                notes.push(
                    "a recursion ends when its arguments reach a case that calls nothing more, \
                     like `if n == 0 then 0 else f(n - 1)`"
                        .into(),
                );
                notes.push(format!(
                    "Loony allows up to {limit} nested calls, as far as its stack holds"
                ));
                "this call went one level too deep".to_string()
            }
            ErrorKind::NoValue { reason, .. } => reason.clone(),
            ErrorKind::ImportNotFound { tried, .. } => {
                if !tried.is_empty() {
                    notes.push(format!("looked for: {}", tried.join(", ")));
                }
                notes.push("shipped modules are imported as \"std/NAME\"".into());
                "no such file or shipped module".to_string()
            }
            ErrorKind::ImportCycle { .. } => "imported again while it is being loaded".to_string(),
            ErrorKind::ImportDirectory { inside, .. } => {
                match inside.as_slice() {
                    [] => notes.push("it holds no .cgt file".into()),
                    files => notes.push(format!(
                        "import one of the files in it: {}",
                        files.iter().take(8).cloned().collect::<Vec<_>>().join(", ")
                    )),
                }
                "a folder".to_string()
            }
            ErrorKind::Io { .. } => "the file could not be read".to_string(),
            ErrorKind::WriteFailed { .. } => "writing this file".to_string(),
            ErrorKind::UnknownFileFormat { .. } => {
                notes.push(format!(
                    "a plot is written as SVG, PNG or PDF: end the file name in {}",
                    crate::diag::FIGURE_EXTENSIONS
                ));
                "unknown extension".to_string()
            }
            ErrorKind::BadHeapCode { .. } => "in this code".to_string(),
            ErrorKind::NotHeapGame { detail, .. } => {
                notes.push(
                    "heap games are heap(\"0.07\"), subtraction([…]), allbut([…]), and rulesets of \
                     one heap size whose moves are sums of smaller heaps"
                        .into(),
                );
                detail.clone()
            }
            ErrorKind::NotSumOfHeaps { reason, .. } => {
                notes.push(
                    "a heap game's moves replace a heap by a sum of smaller heaps of the same game"
                        .into(),
                );
                reason.clone()
            }
            ErrorKind::QuotientTooLarge {
                heap,
                order,
                elements,
                ..
            } => {
                if *heap > 1 {
                    notes.push(format!(
                        "the last quotient computed, Q_{}, has order {order}; a heap bound of {} gives it",
                        heap - 1,
                        heap - 1
                    ));
                }
                format!("a candidate for Q_{heap} reached {elements} elements")
            }
            ErrorKind::NoCertificate { .. } => {
                notes.push(
                    "the periodicity theorem applies to take-and-break codes without `!`, `?`, `=`, \
                     subtraction and all-but games; `quotient(G, n)` computes the partial quotient Q_n"
                        .into(),
                );
                "no heap bound given".to_string()
            }
            ErrorKind::BadHeapBound { .. } => "this bound".to_string(),
            ErrorKind::NimZeroDivisor { .. } => "this is 0".to_string(),
            ErrorKind::NimNegative { .. } => "this is negative".to_string(),
            ErrorKind::Interrupted => "the computation was stopped here".to_string(),
            ErrorKind::MisereSpecifier { found } => {
                notes.push(
                    "integers are nim heaps, lists are games with those options, and games may be any impartial game"
                        .into(),
                );
                format!("this holds {found}")
            }
            ErrorKind::MisereNotLinked { .. } => {
                notes.push(
                    "two games are linked exactly when neither is an option of the other".into(),
                );
                "one of these games is an option of the other".to_string()
            }
            ErrorKind::MisereNotSubtractable { .. } => {
                notes.push("see `parts(g)` for the games that can be subtracted".into());
                "the second game is not a part of the first".to_string()
            }
            ErrorKind::MisereEntailing { .. } => {
                notes.push(
                    "misère canonical forms exist for short impartial games: no ∞, ∞̄, `entail` or `carry`"
                        .into(),
                );
                "∞, ∞̄, `entail` or `carry` is reachable from here".to_string()
            }
            ErrorKind::MisereIdentical { .. } => "these games are equal".to_string(),
            ErrorKind::MisereTooLarge { .. } => "too large".to_string(),
            ErrorKind::MisereNotation { .. } => "in this string".to_string(),
            ErrorKind::MisereBusy => {
                notes.push("compute misère values outside the ruleset's rules".into());
                "called here".to_string()
            }
            ErrorKind::Internal { message } => {
                notes.push(format!("the cause: {message}"));
                notes.push(
                    "this is a bug in Loony: please report it with the input that caused it; \
                     the session goes on, but values computed by this input may be incomplete"
                        .into(),
                );
                "while running this".to_string()
            }
            ErrorKind::InvalidUtf8 { .. } => {
                notes.push(
                    "Loony reads source text as UTF-8; save the file in that encoding".into(),
                );
                "this byte does not start a UTF-8 character".to_string()
            }
            ErrorKind::MemoryBudget { budget, what, held } => {
                if *held > budget / 2 {
                    notes.push(format!(
                        "the session already held {} when this began (the games, positions and \
                         values met so far)",
                        crate::memory::show_size(*held)
                    ));
                }
                notes.push(format!(
                    "raise the budget (now {}) with `--memory SIZE` or `:memory SIZE`",
                    crate::memory::show_size(*budget)
                ));
                format!("stopped while building {what}")
            }
            ErrorKind::Capacity { .. } => {
                notes.push("split the computation into smaller ones".into());
                "building this needed more".to_string()
            }
            ErrorKind::BadCommand { label, usage, .. } => {
                notes.push(usage.clone());
                label.clone()
            }
        };
        (label, notes)
    }

    pub fn to_diagnostic(&self) -> Diagnostic<FileId> {
        let (label, mut notes) = self.label_and_notes();
        notes.extend(self.shown_notes());
        let mut d = Diagnostic::error()
            .with_message(self.message())
            .with_code(self.code());
        if let Some(loc) = &self.loc {
            let mut span = loc.span.clone();
            let mut secondary = None;
            if let ErrorKind::Syntax(p) = &self.kind {
                match p {
                    ParseError::Unclosed {
                        open,
                        comment: Some(c),
                        ..
                    } => {
                        span = open.clone();
                        let at = c.span.start;
                        secondary = Some((at..at + 1, "a comment starts here".into()));
                    }
                    ParseError::Unclosed { open, end, .. } => {
                        span = open.clone();
                        secondary = Some((*end..*end, "input ends here".to_string()));
                    }
                    ParseError::MissingBar { form, at } => {
                        span = form.clone();
                        secondary = Some((at.clone(), "the form closes here".to_string()));
                    }
                    _ => {}
                }
            }
            if let ErrorKind::BadHeapCode { at, .. } = &self.kind {
                // The code is inside a string literal: point at the offending characters.
                let inner = loc.span.start + 1 + at.start..loc.span.start + 1 + at.end;
                if inner.end < loc.span.end {
                    span = inner;
                }
            }
            if let ErrorKind::MisereNotation { at, .. } = &self.kind {
                let inner = loc.span.start + 1 + at..loc.span.start + 2 + at;
                if inner.end < loc.span.end {
                    span = inner;
                }
            }
            let mut labels = vec![Label::primary(loc.file, span).with_message(label)];
            if let Some((s, m)) = secondary {
                labels.push(Label::secondary(loc.file, s).with_message(m));
            }
            d = d.with_labels(labels);
        } else if !matches!(self.kind, ErrorKind::Io { .. } | ErrorKind::Internal { .. }) {
            notes.insert(0, label);
        }
        d.with_notes(notes)
    }

    /// The diagnostic with its message, labels and notes in ASCII when `ascii` (`--ascii`).
    fn diagnostic_in(&self, ascii: bool) -> Diagnostic<FileId> {
        in_ascii(self.to_diagnostic(), ascii)
    }

    /// The diagnostic as plain text (no colour), as snapshot tests and pipes want it.
    pub fn render_plain(&self, files: &Files) -> String {
        self.render(files, false)
    }

    /// The diagnostic as plain text, all in ASCII when `ascii` (`--ascii`, `:ascii on`).
    pub fn render(&self, files: &Files, ascii: bool) -> String {
        render_text(&self.diagnostic_in(ascii), files, ascii)
            .unwrap_or_else(|| format!("error[{}]: {}\n", self.code(), self.message()))
    }

    /// The diagnostic as one JSON object for `--json`: `code`, `message`, `span` (file, byte
    /// offsets, 1-based line and column of both ends; `null` without a location), the primary
    /// `label` and the `notes`.
    pub fn to_json(&self, files: &Files, ascii: bool) -> String {
        render_json(&self.diagnostic_in(ascii), files)
    }

    /// The diagnostic to stderr, coloured when stderr is a terminal.
    pub fn emit_stderr(&self, files: &Files, color: bool, ascii: bool) {
        emit_stderr(&self.diagnostic_in(ascii), files, color, ascii);
    }
}

/// Something legal but probably not meant: reported on stderr with a span, and the program
/// goes on.
#[derive(Debug, Clone, PartialEq)]
pub enum WarningKind {
    /// A `let`, `fn` or `ruleset` named like a built-in: the built-in is out of reach.
    ShadowsBuiltin { name: String, signature: String },
    /// A definition that replaces one made elsewhere: the user's `kayles` after
    /// `import "std/kayles"`, or an import that replaces the user's own definition.
    Replaces {
        name: String,
        /// Where the replaced definition came from (`std/kayles`, or `this session`).
        from: String,
        /// Where the new one comes from.
        by: String,
    },
}

/// Where a front end shows warnings as they come.
pub type WarningSink = Box<dyn FnMut(&Warning, &Files)>;

#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    pub kind: WarningKind,
    pub loc: Loc,
}

impl Warning {
    pub fn code(&self) -> &'static str {
        match &self.kind {
            WarningKind::ShadowsBuiltin { .. } => "W0001",
            WarningKind::Replaces { .. } => "W0002",
        }
    }

    pub fn message(&self) -> String {
        match &self.kind {
            WarningKind::ShadowsBuiltin { name, .. } => {
                format!("`{name}` shadows the built-in of that name")
            }
            WarningKind::Replaces { name, from, by } => {
                format!("{by} replaces the `{name}` defined in {from}")
            }
        }
    }

    pub fn to_diagnostic(&self) -> Diagnostic<FileId> {
        let (label, note) = match &self.kind {
            WarningKind::ShadowsBuiltin { signature, .. } => (
                "defined here",
                format!(
                    "the built-in `{signature}` is out of reach while this name is bound; \
                     choose another name to keep it"
                ),
            ),
            WarningKind::Replaces { name, .. } => (
                "replaced here",
                format!("from here on `{name}` means the new definition"),
            ),
        };
        Diagnostic::warning()
            .with_message(self.message())
            .with_code(self.code())
            .with_labels(vec![
                Label::primary(self.loc.file, self.loc.span.clone()).with_message(label),
            ])
            .with_notes(vec![note])
    }

    /// As text, in ASCII when `ascii`.
    pub fn render(&self, files: &Files, ascii: bool) -> String {
        render_text(&in_ascii(self.to_diagnostic(), ascii), files, ascii)
            .unwrap_or_else(|| format!("warning[{}]: {}\n", self.code(), self.message()))
    }

    /// To stderr, coloured when `color`.
    pub fn emit_stderr(&self, files: &Files, color: bool, ascii: bool) {
        emit_stderr(&in_ascii(self.to_diagnostic(), ascii), files, color, ascii);
    }

    /// As one JSON object (`--json`), like an error's with `"severity":"warning"`.
    pub fn to_json(&self, files: &Files, ascii: bool) -> String {
        render_json(&in_ascii(self.to_diagnostic(), ascii), files)
    }
}

/// The diagnostic's message, labels and notes in ASCII when `ascii` (`--ascii`).
fn in_ascii(mut d: Diagnostic<FileId>, ascii: bool) -> Diagnostic<FileId> {
    if ascii {
        let a = crate::game::display::ascii_text;
        d.message = a(&d.message);
        for l in &mut d.labels {
            l.message = a(&l.message);
        }
        for n in &mut d.notes {
            *n = a(n);
        }
    }
    d
}

/// Box-drawing frame, or an ASCII one for `--ascii`.
fn config(ascii: bool) -> term::Config {
    let mut config = term::Config::default();
    if ascii {
        config.chars = term::Chars::ascii();
    }
    config
}

fn render_text(d: &Diagnostic<FileId>, files: &Files, ascii: bool) -> Option<String> {
    let text = term::emit_into_string(&config(ascii), files, d).ok()?;
    Some(clip::long_lines(
        &text,
        config(ascii).chars.source_border_left,
    ))
}

/// True when a line the diagnostic shows is too long to echo whole.
fn shows_long_line(d: &Diagnostic<FileId>, files: &Files) -> bool {
    use codespan_reporting::files::Files as _;
    d.labels.iter().any(|l| {
        let line = files.line_index(l.file_id, l.range.start).ok();
        let range = line.and_then(|i| files.line_range(l.file_id, i).ok());
        range.is_some_and(|r| r.len() > clip::WIDTH)
    })
}

/// A diagnostic as one JSON object: `code`, `message`, `span`, `label`, `notes`, and
/// `severity` for a warning.
fn render_json(d: &Diagnostic<FileId>, files: &Files) -> String {
    use codespan_reporting::files::Files as _;
    let primary = d.labels.first();
    let span = match primary {
        Some(l) => {
            let name = files.name(l.file_id).unwrap_or_default();
            let at = |i: usize| {
                files
                    .location(l.file_id, i)
                    .map_or((0, 0), |p| (p.line_number, p.column_number))
            };
            let ((line, col), (end_line, end_col)) = (at(l.range.start), at(l.range.end));
            format!(
                "{{\"file\":{},\"start\":{},\"end\":{},\"line\":{line},\"column\":{col},\"end_line\":{end_line},\"end_column\":{end_col}}}",
                json_string(&name),
                l.range.start,
                l.range.end
            )
        }
        None => "null".to_string(),
    };
    let label = primary.map_or("null".to_string(), |l| json_string(&l.message));
    let notes: Vec<String> = d.notes.iter().map(|n| json_string(n)).collect();
    let severity = if d.severity == codespan_reporting::diagnostic::Severity::Warning {
        ",\"severity\":\"warning\""
    } else {
        ""
    };
    format!(
        "{{\"code\":{},\"message\":{},\"span\":{span},\"label\":{label},\"notes\":[{}]{severity}}}",
        json_string(d.code.as_deref().unwrap_or_default()),
        json_string(&d.message),
        notes.join(",")
    )
}

/// A diagnostic to stderr, coloured when `color` (stderr is a terminal).
fn emit_stderr(d: &Diagnostic<FileId>, files: &Files, color: bool, ascii: bool) {
    use term::termcolor::{ColorChoice, StandardStream};
    let choice = if color {
        ColorChoice::Auto
    } else {
        ColorChoice::Never
    };
    if shows_long_line(d, files) {
        // Cut in plain text: colour codes would break the columns the cut keeps aligned.
        use std::io::Write;
        if let Some(text) = render_text(d, files, ascii) {
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
        }
        return;
    }
    let stream = StandardStream::stderr(choice);
    // A closed or full stderr leaves nothing to report to: the exit code still says it.
    let _ = term::emit_to_write_style(&mut stream.lock(), &config(ascii), files, d);
}

impl From<crate::game::store::InfinitiesCollide> for Error {
    fn from(_: crate::game::store::InfinitiesCollide) -> Self {
        Error::new(ErrorKind::InfinitiesCollide)
    }
}

/// A string as a JSON string literal: the language's own quoting, with the other control
/// characters escaped as JSON requires.
pub fn json_string(s: &str) -> String {
    loony_syntax::lexer::quote_with(s, |c, out| {
        if (c as u32) < 0x20 {
            out.push_str(&format!("\\u{:04x}", c as u32));
            true
        } else {
            false
        }
    })
}

fn expected_note(expected: &[String]) -> Option<String> {
    match expected {
        [] => None,
        [one] => Some(format!("expected {one}")),
        many => Some(format!("expected one of {}", many.join(", "))),
    }
}

/// The closest of `candidates` to `name`, when it is close enough to be a likely typo.
pub fn did_you_mean<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(name, c);
        // One edit in three characters: a one- or two-letter name is never "close" to
        // anything (`x` is not a typo of `D`).
        let limit = name.chars().count().max(c.chars().count()) / 3;
        if d <= limit && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// `s` as it may be shown between backticks, or `None` when it holds a character that would
/// print as nothing or move the cursor (controls, zero-width and format characters, lone
/// combining marks).
fn visible(s: &str) -> Option<&str> {
    let invisible = |c: char| {
        c.is_control()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{00ad}' | '\u{034f}')
            || ('\u{300}'..='\u{36f}').contains(&c)
    };
    (!s.chars().any(invisible)).then_some(s)
}

/// `U+200B`, or `U+221E U+0303` for several characters.
fn code_points(s: &str) -> String {
    s.chars()
        .map(|c| format!("U+{:04X}", c as u32))
        .collect::<Vec<_>>()
        .join(" ")
}
