//! Tokens of the Loony language (logos) and the adapter that feeds lalrpop.
//!
//! Two things are decided here rather than in the grammar, because an LR(1) grammar cannot:
//! whether `<`/`>` open/close a form or compare numbers (by the previous token and the stack of
//! open brackets), and whether a newline ends a statement (only outside brackets, only after
//! a token that can end an expression, and not before `then` or `else`).

use logos::Logos;
use std::ops::Range;

#[derive(Debug, Clone, PartialEq, Default)]
pub enum LexErrorKind {
    #[default]
    UnexpectedChar,
    IntTooLarge,
    UnterminatedString,
    /// A `\` in a string that is not one of `\"`, `\\`, `\n`, `\t`: its byte offset in the
    /// token and its length.
    BadEscape(usize, usize),
}

#[derive(Debug, Clone, PartialEq)]
pub struct LexError {
    pub kind: LexErrorKind,
    pub span: Range<usize>,
}

impl From<std::num::ParseIntError> for LexErrorKind {
    fn from(_: std::num::ParseIntError) -> Self {
        LexErrorKind::IntTooLarge
    }
}

#[derive(Logos, Debug, Clone, PartialEq)]
#[logos(error = LexErrorKind)]
#[logos(skip r"[ \t\r\f]+")]
#[logos(skip(r"#[^\n]*", allow_greedy = true))]
pub enum Tok<'s> {
    #[token("\n")]
    Newline,
    #[token("{")]
    LBrace,
    /// The `{` that opens a ruleset's body (told from a form's by the adapter).
    LBody,
    #[token("}")]
    RBrace,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    /// Raw `<`; the adapter turns it into [`Tok::LAngle`] or [`Tok::Lt`].
    #[token("<")]
    Less,
    /// Raw `>`; the adapter turns it into [`Tok::RAngle`] or [`Tok::Gt`].
    #[token(">")]
    Greater,
    LAngle,
    RAngle,
    Lt,
    Gt,
    #[token("<=")]
    Le,
    #[token(">=")]
    Ge,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("=")]
    Eq,
    #[token("=>")]
    FatArrow,
    /// Raw `|`; the adapter keeps it a form's bar inside `{…}` and `<…>`, and makes it
    /// [`Tok::BitOr`] elsewhere.
    #[token("|")]
    Bar,
    BitOr,
    #[token("&")]
    Amp,
    /// Raw `<<`: a shift after an operand, else two `<` that open forms (`<<0|0>|0>`).
    #[token("<<")]
    LessLess,
    /// Raw `>>`: two `>` that close forms inside `<…>`, else a shift.
    #[token(">>")]
    GreaterGreater,
    Shl,
    Shr,
    #[token("^^")]
    #[token("xor")]
    Xor,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(".")]
    Dot,
    #[token("..")]
    DotDot,
    #[token("..=")]
    DotDotEq,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("^")]
    Caret,
    #[token("∞")]
    #[token("inf")]
    Infinity,
    #[token("∞̄")]
    NegInfinity,
    #[token("☾")]
    #[token("moon")]
    Moon,
    /// `⟫`, the special moon (always written `⟫(n)`).
    #[token("⟫")]
    SpecialMoon,
    /// `∅`, the empty set (as in `∞(∅)`).
    #[token("∅")]
    EmptySet,
    #[token("let")]
    Let,
    #[token("fn")]
    Fn,
    #[token("ruleset")]
    Ruleset,
    #[token("import")]
    Import,
    /// `split`, `canonical`, `bound`, `order`, `value` and `by` are keywords only in a
    /// ruleset's header (between its parameters and its body), so they stay free as names
    /// everywhere else.
    Split,
    By,
    Canonical,
    Bound,
    Order,
    ValueBy,
    #[token("for")]
    For,
    #[token("in")]
    In,
    #[token("if")]
    If,
    #[token("then")]
    Then,
    #[token("else")]
    Else,
    #[token("entail")]
    Entail,
    #[token("carry")]
    Carry,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("and")]
    And,
    #[token("or")]
    Or,
    #[token("not")]
    Not,
    /// The absent value (a period that was not found).
    #[token("none")]
    NoneValue,
    #[regex("[0-9]+", |lex| lex.slice().parse::<i64>())]
    Int(i64),
    #[regex("[A-Za-z_][A-Za-z0-9_]*")]
    Ident(&'s str),
    /// A string literal, as written between its quotes (escapes checked, not yet replaced:
    /// [`unescape`] does that).
    #[regex(r#""([^"\\\n]|\\[^\n])*""#, string)]
    Str(&'s str),
    #[regex(r#""([^"\\\n]|\\[^\n])*\\?"#, unterminated, priority = 1)]
    UnterminatedStr,
}

fn string<'s>(lex: &mut logos::Lexer<'s, Tok<'s>>) -> Result<&'s str, LexErrorKind> {
    let s = lex.slice();
    let inner = &s[1..s.len() - 1];
    let mut chars = inner.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some((_, '"' | '\\' | 'n' | 't')) => {}
                Some((j, e)) => return Err(LexErrorKind::BadEscape(1 + i, j + e.len_utf8() - i)),
                None => return Err(LexErrorKind::BadEscape(1 + i, 1)),
            }
        }
    }
    Ok(inner)
}

fn unterminated<'s>(_: &mut logos::Lexer<'s, Tok<'s>>) -> Result<(), LexErrorKind> {
    Err(LexErrorKind::UnterminatedString)
}

/// The comments of `src` (each from its `#` to the end of its line): what lies between tokens
/// past the blanks.
pub fn comments(src: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut gap = |from: usize, to: usize| {
        if let Some(i) = src[from..to].find('#') {
            out.push(from + i..to);
        }
    };
    let mut end = 0;
    for (_, span) in Tok::lexer(src).spanned() {
        gap(end, span.start);
        end = span.end;
    }
    gap(end, src.len());
    out
}

/// True when `src` holds nothing but line breaks, blanks and comments.
pub fn only_newlines(src: &str) -> bool {
    Tok::lexer(src).all(|t| t == Ok(Tok::Newline))
}

/// The text of a string literal whose escapes the lexer has checked (`\"`, `\\`, `\n`, `\t`).
pub fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(e) => out.push(e),
            None => {}
        }
    }
    out
}

/// A string as a literal that reads back as the same string (used where strings print quoted,
/// inside lists and tuples).
pub fn quote(s: &str) -> String {
    quote_with(s, |_, _| false)
}

/// [`quote`], with `extra` given the first say on each character (it writes an escape and
/// returns `true`, or leaves the character to the usual escapes).
pub fn quote_with(s: &str, mut extra: impl FnMut(char, &mut String) -> bool) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if extra(c, &mut out) => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl Tok<'_> {
    /// Tokens after which an expression may have ended: a newline there ends a statement and a
    /// following `<` compares rather than opens a form.
    fn ends_operand(&self) -> bool {
        matches!(
            self,
            Tok::RBrace
                | Tok::RParen
                | Tok::RBracket
                | Tok::RAngle
                | Tok::Star
                | Tok::Infinity
                | Tok::NegInfinity
                | Tok::Moon
                | Tok::SpecialMoon
                | Tok::EmptySet
                | Tok::True
                | Tok::False
                | Tok::NoneValue
                | Tok::Int(_)
                | Tok::Ident(_)
                | Tok::Str(_)
        )
    }

    /// How the token is named to a user in "expected one of …" and "found …".
    pub fn describe(&self) -> String {
        match self {
            Tok::Newline => "end of line".into(),
            Tok::Int(_) => "an integer".into(),
            Tok::Ident(s) => format!("the name `{s}`"),
            Tok::Str(_) => "a string".into(),
            Tok::LAngle => "`<`".into(),
            Tok::RAngle => "`>`".into(),
            Tok::Lt | Tok::Less => "`<`".into(),
            Tok::Gt | Tok::Greater => "`>`".into(),
            other => format!("`{}`", other.spelling()),
        }
    }

    fn spelling(&self) -> &'static str {
        match self {
            Tok::LBrace | Tok::LBody => "{",
            Tok::RBrace => "}",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Le => "<=",
            Tok::Ge => ">=",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::Eq => "=",
            Tok::FatArrow => "=>",
            Tok::Bar | Tok::BitOr => "|",
            Tok::Amp => "&",
            Tok::Shl | Tok::LessLess => "<<",
            Tok::Shr | Tok::GreaterGreater => ">>",
            Tok::Xor => "xor",
            Tok::Split => "split",
            Tok::By => "by",
            Tok::Canonical => "canonical",
            Tok::Bound => "bound",
            Tok::Order => "order",
            Tok::ValueBy => "value",
            Tok::Comma => ",",
            Tok::Semi => ";",
            Tok::Dot => ".",
            Tok::DotDot => "..",
            Tok::DotDotEq => "..=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::Caret => "^",
            Tok::Infinity => "∞",
            Tok::NegInfinity => "∞̄",
            Tok::Moon => "☾",
            Tok::SpecialMoon => "⟫",
            Tok::EmptySet => "∅",
            Tok::Let => "let",
            Tok::Fn => "fn",
            Tok::Ruleset => "ruleset",
            Tok::Import => "import",
            Tok::For => "for",
            Tok::In => "in",
            Tok::If => "if",
            Tok::Then => "then",
            Tok::Else => "else",
            Tok::Entail => "entail",
            Tok::Carry => "carry",
            Tok::True => "true",
            Tok::False => "false",
            Tok::And => "and",
            Tok::Or => "or",
            Tok::Not => "not",
            Tok::NoneValue => "none",
            _ => "?",
        }
    }
}

pub type Spanned<'s> = Result<(usize, Tok<'s>, usize), LexError>;

/// A bracket the adapter has seen open and not yet closed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Open {
    /// A form's brace, `{L | R}`.
    Brace,
    /// A ruleset's body, `ruleset r(n) { … }`.
    Body,
    Paren,
    Bracket,
    Angle,
}

/// The token stream lalrpop consumes, with contextual `<`/`>` and significant newlines.
pub struct Lexer<'s> {
    inner: logos::SpannedIter<'s, Tok<'s>>,
    open: Vec<(Open, usize)>,
    prev_ends_operand: bool,
    /// A statement-ending newline seen but not yet emitted (newlines collapse into one).
    pending_newline: Option<usize>,
    /// The token read after a pending newline, returned on the next call.
    stash: Option<(Tok<'s>, Range<usize>)>,
    at_end: bool,
    /// Inside a ruleset's header (after `ruleset`, before its body's `{`): the number of
    /// brackets open at `ruleset`.
    header: Option<usize>,
    /// The last token was a clause's word (`split`, `canonical`, …) in a ruleset's header.
    prev_clause: bool,
}

pub fn lex(src: &str) -> Lexer<'_> {
    Lexer {
        inner: Tok::lexer(src).spanned(),
        open: Vec::new(),
        prev_ends_operand: false,
        pending_newline: None,
        stash: None,
        at_end: false,
        header: None,
        prev_clause: false,
    }
}

impl<'s> Lexer<'s> {
    /// Brackets still open, innermost last, with the offset where each opened.
    pub fn open_brackets(&self) -> &[(Open, usize)] {
        &self.open
    }

    fn classify(&mut self, tok: Tok<'s>, span: &Range<usize>) -> Tok<'s> {
        let at = span.start;
        let in_form = matches!(self.open.last(), Some((Open::Brace | Open::Angle, _)));
        let header_top = self.header == Some(self.open.len());
        let tok = match tok {
            Tok::Less if !self.prev_ends_operand => Tok::LAngle,
            Tok::Less => Tok::Lt,
            Tok::Greater if matches!(self.open.last(), Some((Open::Angle, _))) => Tok::RAngle,
            Tok::Greater => Tok::Gt,
            Tok::LessLess if self.prev_ends_operand => Tok::Shl,
            Tok::GreaterGreater if !matches!(self.open.last(), Some((Open::Angle, _))) => Tok::Shr,
            // Two brackets: the first now, the second on the next call.
            Tok::LessLess | Tok::GreaterGreater => {
                let (one, first) = if tok == Tok::LessLess {
                    (Tok::Less, Tok::LAngle)
                } else {
                    (Tok::Greater, Tok::RAngle)
                };
                self.stash = Some((one, at + 1..span.end));
                first
            }
            Tok::Bar if !in_form => Tok::BitOr,
            Tok::Ruleset if self.header.is_none() => {
                self.header = Some(self.open.len());
                Tok::Ruleset
            }
            // A clause starts where an expression could have ended (`canonical(b)` after `by`
            // stays a call), and `by` follows its clause's word.
            Tok::Ident("split") if header_top && self.prev_ends_operand => Tok::Split,
            Tok::Ident("canonical") if header_top && self.prev_ends_operand => Tok::Canonical,
            Tok::Ident("bound") if header_top && self.prev_ends_operand => Tok::Bound,
            Tok::Ident("order") if header_top && self.prev_ends_operand => Tok::Order,
            Tok::Ident("value") if header_top && self.prev_ends_operand => Tok::ValueBy,
            Tok::Ident("by") if header_top && self.prev_clause => Tok::By,
            t => t,
        };
        match tok {
            Tok::LBrace if header_top => {
                self.header = None;
                self.open.push((Open::Body, at));
                return Tok::LBody;
            }
            Tok::LBrace => self.open.push((Open::Brace, at)),
            Tok::LParen => self.open.push((Open::Paren, at)),
            Tok::LBracket => self.open.push((Open::Bracket, at)),
            Tok::LAngle => self.open.push((Open::Angle, at)),
            Tok::RBrace | Tok::RParen | Tok::RBracket | Tok::RAngle => {
                self.open.pop();
            }
            _ => {}
        }
        tok
    }
}

impl<'s> Iterator for Lexer<'s> {
    type Item = Spanned<'s>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (tok, span) = if let Some(stashed) = self.stash.take() {
                stashed
            } else {
                match self.inner.next() {
                    Some((Ok(tok), span)) => (tok, span),
                    Some((Err(kind), span)) => {
                        // A bad escape is reported at the escape, not the whole string.
                        let span = match kind {
                            LexErrorKind::BadEscape(at, len) => {
                                span.start + at..span.start + at + len
                            }
                            _ => span,
                        };
                        return Some(Err(LexError { kind, span }));
                    }
                    None => {
                        // A final newline ends the last statement even if the source has none.
                        if self.at_end {
                            return None;
                        }
                        self.at_end = true;
                        let at = self.pending_newline.take()?;
                        return Some(Ok((at, Tok::Newline, at + 1)));
                    }
                }
            };
            if tok == Tok::Newline {
                // A ruleset's header may run over several lines (`split by …` on its own).
                if self.open.is_empty() && self.prev_ends_operand && self.header.is_none() {
                    self.pending_newline.get_or_insert(span.start);
                }
                continue;
            }
            // `then` and `else` continue an `if` across a line break.
            if matches!(tok, Tok::Then | Tok::Else) {
                self.pending_newline = None;
            }
            if let Some(at) = self.pending_newline.take() {
                self.stash = Some((tok, span));
                self.prev_ends_operand = false;
                return Some(Ok((at, Tok::Newline, at + 1)));
            }
            let tok = self.classify(tok, &span);
            let span = match tok {
                // The first of two brackets read as one token.
                Tok::LAngle | Tok::RAngle if span.len() == 2 => span.start..span.start + 1,
                _ => span,
            };
            self.prev_ends_operand = tok.ends_operand();
            self.prev_clause = matches!(
                tok,
                Tok::Split | Tok::Canonical | Tok::Bound | Tok::Order | Tok::ValueBy
            );
            return Some(Ok((span.start, tok, span.end)));
        }
    }
}
