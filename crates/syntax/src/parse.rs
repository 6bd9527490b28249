//! The parser facade: runs the generated LALRPOP parser over the lexer and turns its errors into
//! [`ParseError`]s that name tokens the way a user would.

use super::ast::Program;
use super::lexer::{self, LexErrorKind, Open, Tok};
use std::ops::Range;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused)]
    grammar,
    "/loony.rs"
);

/// A syntax error, already phrased for the user.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseError {
    UnexpectedChar {
        span: Range<usize>,
        found: String,
    },
    IntTooLarge {
        span: Range<usize>,
    },
    UnterminatedString {
        span: Range<usize>,
    },
    /// A `\` in a string that starts no known escape.
    BadEscape {
        span: Range<usize>,
        found: String,
    },
    /// The input ended while a bracket was still open.
    Unclosed {
        open: Range<usize>,
        bracket: char,
        end: usize,
        /// The comment that holds the closing bracket, if one does.
        comment: Option<InComment>,
    },
    /// A form `{…}` or `<…>` closed without the `|` between its sides.
    MissingBar {
        form: Range<usize>,
        at: Range<usize>,
    },
    UnexpectedToken {
        span: Range<usize>,
        found: String,
        expected: Vec<String>,
    },
    UnexpectedEof {
        at: usize,
        expected: Vec<String>,
    },
    /// `0.07`: Loony has no fractions, and a take-and-break code is a string.
    DecimalNumber {
        span: Range<usize>,
        text: String,
    },
}

impl ParseError {
    /// True when more input could complete the program `src` (the REPL then asks for another
    /// line): a bracket is open, an operator dangles, or an `if` still needs its `then` or
    /// `else`, which may follow a line break.
    pub fn is_incomplete(&self, src: &str) -> bool {
        match self {
            // A bracket closed inside a comment would wait for a line that never comes.
            ParseError::Unclosed { comment, .. } => comment.is_none(),
            ParseError::UnexpectedEof { .. } => true,
            ParseError::UnexpectedToken { span, expected, .. } => {
                expected.iter().any(|e| e == "then" || e == "else")
                    && lexer::only_newlines(&src[span.start.min(src.len())..])
            }
            _ => false,
        }
    }
}

pub fn parse_program(src: &str) -> Result<Program, ParseError> {
    let parser = grammar::ProgramParser::new();
    match parser.parse(lexer::lex(src)) {
        Ok(p) => Ok(p),
        Err(e) => Err(convert(src, e)),
    }
}

type LalrpopError<'s> = lalrpop_util::ParseError<usize, Tok<'s>, lexer::LexError>;

fn convert(src: &str, err: LalrpopError<'_>) -> ParseError {
    use lalrpop_util::ParseError as E;
    match err {
        E::User { error } => match error.kind {
            LexErrorKind::UnexpectedChar => {
                let mut span = error.span;
                // A combining mark after `∞` that is not the macron of `∞̄`: report the pair,
                // so the diagnostic can point to the spelling Loony knows.
                let combining = src[span.clone()]
                    .chars()
                    .next()
                    .is_some_and(|c| ('\u{300}'..='\u{36f}').contains(&c));
                if combining && src[..span.start].ends_with('∞') {
                    span.start -= '∞'.len_utf8();
                }
                ParseError::UnexpectedChar {
                    found: src[span.clone()].to_string(),
                    span,
                }
            }
            LexErrorKind::IntTooLarge => ParseError::IntTooLarge { span: error.span },
            LexErrorKind::UnterminatedString => ParseError::UnterminatedString { span: error.span },
            LexErrorKind::BadEscape(..) => ParseError::BadEscape {
                found: src[error.span.clone()].to_string(),
                span: error.span,
            },
        },
        E::UnrecognizedEof { expected, .. } => {
            let open = open_brackets_before(src, src.len());
            match open.last() {
                Some(&(kind, at)) => ParseError::Unclosed {
                    open: at..at + bracket_len(src, at),
                    bracket: bracket_char(kind),
                    end: src.trim_end().len(),
                    // The first comment past the bracket, if the closing bracket is in it.
                    comment: lexer::comments(src)
                        .into_iter()
                        .find(|c| c.start > at)
                        .filter(|c| src[c.clone()].contains(closing(bracket_char(kind))))
                        .map(|span| InComment {
                            span,
                            misere: kind == Open::Bracket && src[..at].ends_with('*'),
                        }),
                },
                None => ParseError::UnexpectedEof {
                    at: src.trim_end().len(),
                    expected: friendly(&expected),
                },
            }
        }
        E::UnrecognizedToken {
            token: (l, tok, r),
            expected,
        } => {
            let closes_form = matches!(tok, Tok::RBrace | Tok::RAngle);
            if closes_form && expected.iter().any(|e| e == "\"|\"") {
                let open = open_brackets_before(src, l);
                if let Some(&(_, at)) = open.last() {
                    return ParseError::MissingBar {
                        form: at..r,
                        at: l..r,
                    };
                }
            }
            if let Some(start) = matches!(tok, Tok::Int(_))
                .then(|| decimal_start(src, l))
                .flatten()
            {
                return ParseError::DecimalNumber {
                    span: start..r,
                    text: src[start..r].to_string(),
                };
            }
            ParseError::UnexpectedToken {
                span: l..r,
                found: tok.describe(),
                expected: friendly(&expected),
            }
        }
        E::ExtraToken { token: (l, tok, r) } => ParseError::UnexpectedToken {
            span: l..r,
            found: tok.describe(),
            expected: vec![],
        },
        E::InvalidToken { location } => ParseError::UnexpectedChar {
            span: location..location + 1,
            found: src[location..]
                .chars()
                .next()
                .map(String::from)
                .unwrap_or_default(),
        },
    }
}

/// Where `12.` starts when the source just before `at` is digits and a point (an integer
/// right after reads as a decimal number, `0.07`).
fn decimal_start(src: &str, at: usize) -> Option<usize> {
    let before = src[..at].strip_suffix('.')?;
    let digits = before.len() - before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let start = before.len() - digits;
    // `x1.5` is a name, not a number.
    let part_of_name = src[..start]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '_');
    (digits > 0 && !part_of_name).then_some(start)
}

/// Replays the lexer over the source before `limit` to learn which brackets are open there.
fn open_brackets_before(src: &str, limit: usize) -> Vec<(Open, usize)> {
    let mut lx = lexer::lex(&src[..limit.min(src.len())]);
    for t in lx.by_ref() {
        if t.is_err() {
            break;
        }
    }
    lx.open_brackets().to_vec()
}

fn bracket_char(kind: Open) -> char {
    match kind {
        Open::Brace | Open::Body => '{',
        Open::Paren => '(',
        Open::Bracket => '[',
        Open::Angle => '<',
    }
}

/// A closing bracket found in a comment: `*[2#0]`, CGSuite's misère notation, whose `#` starts
/// a comment here.
#[derive(Debug, Clone, PartialEq)]
pub struct InComment {
    /// From the `#` to the end of its line.
    pub span: Range<usize>,
    /// The bracket is `*[`, as in CGSuite's misère notation.
    pub misere: bool,
}

/// The bracket that closes `open`.
pub fn closing(open: char) -> char {
    match open {
        '{' => '}',
        '(' => ')',
        '[' => ']',
        _ => '>',
    }
}

fn bracket_len(src: &str, at: usize) -> usize {
    src[at..].chars().next().map_or(1, char::len_utf8)
}

/// lalrpop names terminals by their quoted grammar names; turn them into what a user types.
fn friendly(expected: &[String]) -> Vec<String> {
    let mut out: Vec<String> = expected
        .iter()
        .map(|e| {
            let name = e.trim_matches('"');
            match name {
                "newline" => "end of line".to_string(),
                "int" => "an integer".to_string(),
                "name" => "a name".to_string(),
                "string" => "a string".to_string(),
                "lt" => "<".to_string(),
                "gt" => ">".to_string(),
                "∞\\u{304}" => "∞̄".to_string(),
                "body{" => "{".to_string(),
                "bitor" => "|".to_string(),
                other => other.replace("\\\"", "\""),
            }
        })
        .collect();
    out.dedup();
    out
}
