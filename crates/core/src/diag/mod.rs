//! Errors and their conversion to codespan diagnostics. Each layer has its own error enum
//! (syntax: [`loony_syntax::ParseError`]; core: [`CoreError`]; graph, theory, lang and the REPL theirs), and
//! each says what it means in one match arm per variant of [`Diagnose::report`]: code,
//! message, labels and notes together, beside the layer's `--explain` texts ([`Code`]).
//! [`Error`] carries any of them with the place it happened; [`Error::to_diagnostic`] is the
//! one place where a report becomes a codespan diagnostic.

mod clip;
pub mod core_error;
pub mod explain;
pub mod guard;
mod syntax;

pub use core_error::CoreError;

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
use std::any::Any;
use std::fmt;
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

/// A diagnostic code and its `loony --explain` text (paragraphs separated by blank lines).
/// Declared once, with [`codes!`]: a report names the declared constant, so a code cannot be
/// given without its explanation, and the layer's table lists every constant it declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code {
    code: &'static str,
    explain: &'static str,
}

impl Code {
    /// For [`codes!`] only. A code not shaped `E0000` or `W0000` fails the build (the check
    /// runs when the constant is evaluated).
    #[doc(hidden)]
    pub const fn declare(code: &'static str, explain: &'static str) -> Code {
        let b = code.as_bytes();
        assert!(
            b.len() == 5
                && (b[0] == b'E' || b[0] == b'W')
                && b[1].is_ascii_digit()
                && b[2].is_ascii_digit()
                && b[3].is_ascii_digit()
                && b[4].is_ascii_digit(),
            "a diagnostic code is E or W and four digits"
        );
        Code { code, explain }
    }

    /// `E0110`.
    pub const fn code(&self) -> &'static str {
        self.code
    }

    /// The `--explain` text.
    pub const fn explain(&self) -> &'static str {
        self.explain
    }
}

/// Declares a layer's diagnostic codes, each once: a constant per code (its name says what
/// the code is about) and the layer's table of them all, which `--explain` reads.
///
/// ```ignore
/// loony_core::codes! {
///     /// The `--explain` texts of this layer's codes.
///     pub CODES;
///     DIVISION_BY_ZERO = "E0106", "Division (`/`) or remainder (`%`) by zero. …";
/// }
/// ```
#[macro_export]
macro_rules! codes {
    (
        $(#[$table_attr:meta])*
        $vis:vis $table:ident;
        $( $(#[$attr:meta])* $name:ident = $code:literal, $explain:expr; )*
    ) => {
        // Each constant is public, so a front end may name a code it acts on (the sweep's
        // statuses); the table has the visibility asked for.
        $(
            $(#[$attr])*
            pub const $name: $crate::diag::Code = $crate::diag::Code::declare($code, $explain);
        )*
        $(#[$table_attr])*
        $vis const $table: &[$crate::diag::Code] = &[$($name),*];
    };
}

/// The `--explain` texts of the codes this crate gives: its errors and the warnings.
pub fn codes() -> impl Iterator<Item = &'static Code> {
    syntax::CODES
        .iter()
        .chain(core_error::CODES)
        .chain(WARNING_CODES)
}

/// What an error says: decided by the error's own type, in one place per variant.
#[derive(Debug, Clone)]
pub struct Report {
    pub code: &'static str,
    pub message: String,
    /// The primary label; without a location it becomes the first note (see `bare`).
    pub label: String,
    pub notes: Vec<String>,
    pub place: Place,
    /// Without a location, the label is dropped instead of becoming a note (a file that
    /// could not be read, a bug: the message says it all).
    pub bare: bool,
}

/// Where the primary label points, relative to the error's location.
#[derive(Debug, Clone, Default)]
pub enum Place {
    /// At the location itself.
    #[default]
    Here,
    /// At `primary` (absolute offsets in the same file), with a secondary label.
    Spans {
        primary: Range<usize>,
        secondary: Option<(Range<usize>, String)>,
    },
    /// At these bytes of the string literal at the location (offsets from its first
    /// character after the quote), when they lie inside it.
    InString(Range<usize>),
}

impl Report {
    /// A report of the declared `code` (see [`codes!`]).
    pub fn new(code: Code, message: impl Into<String>, label: impl Into<String>) -> Self {
        Report {
            code: code.code(),
            message: message.into(),
            label: label.into(),
            notes: Vec::new(),
            place: Place::Here,
            bare: false,
        }
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn notes(mut self, notes: impl IntoIterator<Item = String>) -> Self {
        self.notes.extend(notes);
        self
    }

    pub fn place(mut self, place: Place) -> Self {
        self.place = place;
        self
    }

    pub fn bare(mut self) -> Self {
        self.bare = true;
        self
    }
}

/// An error of some layer, able to say what it means. Errors are plain data (they cross
/// the interpreter thread and are kept as reasons in analyses), hence `Send` and `Clone`.
pub trait Diagnose: Any + fmt::Debug + Send + CloneDiagnose {
    fn report(&self) -> Report;
}

/// `Clone` for boxed errors (implemented for every `Diagnose + Clone`).
pub trait CloneDiagnose {
    fn clone_box(&self) -> Box<dyn Diagnose>;
}

impl<T: Diagnose + Clone> CloneDiagnose for T {
    fn clone_box(&self) -> Box<dyn Diagnose> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Diagnose> {
    fn clone(&self) -> Self {
        (**self).clone_box()
    }
}

/// How many of an error's own notes are shown before and after the ones left out.
const NOTES_HEAD: usize = 5;
const NOTES_TAIL: usize = 3;

/// An error; boxed so that `Result<_, Error>` stays small on the hot paths.
#[derive(Debug, Clone)]
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

#[derive(Debug, Clone)]
pub struct ErrorData {
    /// The layer's own error (see [`Error::kind`] to look at it as its type).
    pub kind: Box<dyn Diagnose>,
    pub loc: Option<Loc>,
    pub notes: Vec<String>,
    /// Notes left out between the first and the last few (a deep nest of explorations adds one
    /// per level).
    pub elided: usize,
    /// The game the error is about, when the engine knows it: the evaluator points the
    /// diagnostic at where that form was written.
    pub subject: Option<crate::game::GameId>,
}

impl<K: Diagnose> From<K> for Error {
    fn from(kind: K) -> Self {
        Error::new(kind)
    }
}

impl Error {
    pub fn new(kind: impl Diagnose) -> Self {
        Error(Box::new(ErrorData {
            kind: Box::new(kind),
            loc: None,
            notes: Vec::new(),
            elided: 0,
            subject: None,
        }))
    }

    /// The layer's error as its own type, when it is one.
    pub fn kind<K: Diagnose>(&self) -> Option<&K> {
        (&*self.0.kind as &dyn Any).downcast_ref()
    }

    pub fn kind_mut<K: Diagnose>(&mut self) -> Option<&mut K> {
        (&mut *self.0.kind as &mut dyn Any).downcast_mut()
    }

    /// Whether this is [`CoreError::Interrupted`] (Ctrl-C, or a budget that stopped the work).
    pub fn is_interrupted(&self) -> bool {
        matches!(self.kind::<CoreError>(), Some(CoreError::Interrupted))
    }

    pub fn about(mut self, g: crate::game::GameId) -> Self {
        self.subject = Some(g);
        self
    }

    pub fn at(kind: impl Diagnose, file: FileId, span: Range<usize>) -> Self {
        Error::new(kind).or_at(file, span)
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

    pub fn report(&self) -> Report {
        self.0.kind.report()
    }

    pub fn code(&self) -> &'static str {
        self.report().code
    }

    pub fn message(&self) -> String {
        self.report().message
    }

    pub fn to_diagnostic(&self) -> Diagnostic<FileId> {
        let report = self.report();
        let (label, mut notes) = (report.label, report.notes);
        notes.extend(self.shown_notes());
        let d = Diagnostic::error()
            .with_message(report.message)
            .with_code(report.code);
        let Some(loc) = &self.loc else {
            if !report.bare {
                notes.insert(0, label);
            }
            return d.with_notes(notes);
        };
        let (span, secondary) = match report.place {
            Place::Here => (loc.span.clone(), None),
            Place::Spans { primary, secondary } => (primary, secondary),
            Place::InString(at) => {
                // The text is inside a string literal: point at the offending characters.
                let inner = loc.span.start + 1 + at.start..loc.span.start + 1 + at.end;
                let span = if inner.end < loc.span.end {
                    inner
                } else {
                    loc.span.clone()
                };
                (span, None)
            }
        };
        let mut labels = vec![Label::primary(loc.file, span).with_message(label)];
        if let Some((s, m)) = secondary {
            labels.push(Label::secondary(loc.file, s).with_message(m));
        }
        d.with_labels(labels).with_notes(notes)
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
        render_text(&self.diagnostic_in(ascii), files, ascii).unwrap_or_else(|| {
            let r = self.report();
            format!("error[{}]: {}\n", r.code, r.message)
        })
    }

    /// The diagnostic as text with ANSI colour codes, as a terminal would show it (a
    /// notebook's traceback); plain when a shown line is too long, as on stderr.
    pub fn render_ansi(&self, files: &Files, ascii: bool) -> String {
        let d = self.diagnostic_in(ascii);
        render_ansi_text(&d, files, ascii).unwrap_or_else(|| self.render(files, ascii))
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
    /// A sequence file marked partial (a `write_sequence` that was stopped): it reads as the
    /// `heaps` it holds.
    PartialFile { path: String, heaps: u64 },
    /// `periodicity(g)` stopped its default search early: every heap of `game` is common, so
    /// its kernel is quadratic.
    DenseStop { game: String, heaps: u64 },
    /// A save of pruned search's table while it ran (`--save-every`) failed; the search went on.
    AutosaveFailed { path: String, message: String },
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
            WarningKind::ShadowsBuiltin { .. } => SHADOWS_BUILTIN,
            WarningKind::Replaces { .. } => REPLACES,
            WarningKind::PartialFile { .. } => PARTIAL_FILE,
            WarningKind::DenseStop { .. } => DENSE_STOP,
            WarningKind::AutosaveFailed { .. } => AUTOSAVE_FAILED,
        }
        .code()
    }

    pub fn message(&self) -> String {
        match &self.kind {
            WarningKind::ShadowsBuiltin { name, .. } => {
                format!("`{name}` shadows the built-in of that name")
            }
            WarningKind::Replaces { name, from, by } => {
                format!("{by} replaces the `{name}` defined in {from}")
            }
            WarningKind::PartialFile { path, .. } => {
                format!("`{path}` is marked partial: its writing was stopped")
            }
            WarningKind::DenseStop { game, heaps } => {
                format!("the default search of {game} for a period stopped at heap {heaps}")
            }
            WarningKind::AutosaveFailed { path, message } => {
                format!("saving the table to `{path}` while searching failed: {message}")
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
            WarningKind::PartialFile { heaps, .. } => (
                "read here",
                format!("it holds {heaps} heaps, fewer than were asked of `write_sequence`"),
            ),
            WarningKind::DenseStop { .. } => (
                "searched here",
                "no heap of this game is rare, so each value scans every pair of smaller heaps \
                 and each doubling of the search takes four times as long; \
                 `periodicity(g, heaps)` searches as far as you ask"
                    .to_string(),
            ),
            WarningKind::AutosaveFailed { .. } => (
                "searching here",
                "the search goes on and tries again after the next interval; what it learns \
                 is saved at the end, which is an error if it fails too"
                    .to_string(),
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

fn render_ansi_text(d: &Diagnostic<FileId>, files: &Files, ascii: bool) -> Option<String> {
    if shows_long_line(d, files) {
        // Cut in plain text: colour codes would break the columns the cut keeps aligned.
        return render_text(d, files, ascii);
    }
    let mut out = term::termcolor::Ansi::new(Vec::new());
    term::emit_to_write_style(&mut out, &config(ascii), files, d).ok()?;
    String::from_utf8(out.into_inner()).ok()
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
/// `severity` for a warning (the `--json` contract; fields in this order).
fn render_json(d: &Diagnostic<FileId>, files: &Files) -> String {
    use codespan_reporting::files::Files as _;
    #[derive(serde::Serialize)]
    struct Span {
        file: String,
        start: usize,
        end: usize,
        line: usize,
        column: usize,
        end_line: usize,
        end_column: usize,
    }
    #[derive(serde::Serialize)]
    struct Json<'a> {
        code: &'a str,
        message: &'a str,
        span: Option<Span>,
        label: Option<&'a str>,
        notes: &'a [String],
        #[serde(skip_serializing_if = "Option::is_none")]
        severity: Option<&'a str>,
    }
    let primary = d.labels.first();
    let span = primary.map(|l| {
        let at = |i: usize| {
            files
                .location(l.file_id, i)
                .map_or((0, 0), |p| (p.line_number, p.column_number))
        };
        let ((line, column), (end_line, end_column)) = (at(l.range.start), at(l.range.end));
        Span {
            file: files.name(l.file_id).unwrap_or_default(),
            start: l.range.start,
            end: l.range.end,
            line,
            column,
            end_line,
            end_column,
        }
    });
    crate::json::to_string(&Json {
        code: d.code.as_deref().unwrap_or_default(),
        message: &d.message,
        span,
        label: primary.map(|l| l.message.as_str()),
        notes: &d.notes,
        severity: (d.severity == codespan_reporting::diagnostic::Severity::Warning)
            .then_some("warning"),
    })
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
        Error::new(CoreError::InfinitiesCollide)
    }
}

/// A string as a JSON string literal (see [`crate::json`]).
pub fn json_string(s: &str) -> String {
    crate::json::string(s)
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

crate::codes! {
    /// The warnings' `--explain` texts.
    WARNING_CODES;
    SHADOWS_BUILTIN = "W0001",
        "A `let`, `fn` or `ruleset` named like a built-in. The program goes on, but the \
         built-in is out of reach while the name is bound.\n\n\
         Choose another name (`let dk = heap(\"0.07\")` rather than `let heap = …`). \
         Parameters and `for` variables may use any name without a warning.";
    REPLACES = "W0002",
        "A definition that replaces one made elsewhere: your own `kayles` after \
         `import \"std/kayles\"`, or an import whose module replaces a `kayles` you defined.\n\n\
         From there on the name means the new definition. Redefining a name in the program or \
         module that defined it is silent.";
    PARTIAL_FILE = "W0003",
        "A nim-sequence file that `write_sequence` did not finish (it was stopped with Ctrl-C, \
         or a write failed): a text file's last line says `# partial`, a binary file's header \
         has its complete flag clear. It reads as the heaps it holds.\n\n\
         Write it again to have every heap.";
    DENSE_STOP = "W0004",
        "`periodicity(g)` without a bound searches up to 1 000 000 heaps, but stops at \
         131 071 for a game none of whose heaps is rare (0.106, 0.007): its kernel scans every \
         pair of smaller heaps, so the search to 262 143 would take four times as long as \
         the one to 131 071, and the default would run for many minutes. The record's \
         `checked_up_to` says how far it went.\n\n\
         Give the number of heaps to search (`periodicity(heap(\"0.106\"), 500000)`) to go \
         further.";
    AUTOSAVE_FAILED = "W0005",
        "Under `--table FILE --save-every SECONDS`, a search saves its table to the file \
         while it runs; one of those saves failed (a full disk, a directory that went away, \
         no permission). The search goes on and tries again after the next interval, and \
         the session saves at its end, which is an error if it fails then.\n\n\
         Make room or fix the path; what the search learned stays in the session meanwhile.";
}
