//! What a syntax error says ([`ParseError`] is the syntax crate's; its report is written
//! here, where diagnostics are known).

use super::{Diagnose, Place, Report};
use loony_syntax::{ParseError, closing};

impl Diagnose for ParseError {
    fn report(&self) -> Report {
        match self {
            ParseError::UnexpectedChar { found, .. } => {
                let message = match visible(found) {
                    Some(shown) => format!("unexpected character `{shown}`"),
                    None => format!("unexpected character {}", code_points(found)),
                };
                if found.starts_with('∞') {
                    Report::new(UNEXPECTED_CHAR, message, "not a symbol Loony knows").note(format!(
                        "this is ∞ followed by {}; minus infinity is `∞̄`, ∞ with U+0304 \
                         (combining macron), or `-inf` in ASCII",
                        code_points(&found['∞'.len_utf8()..])
                    ))
                } else if visible(found).is_none() {
                    Report::new(UNEXPECTED_CHAR, message, "an invisible character").note(
                        "invisible and control characters are not part of Loony's syntax; \
                         delete it (it may have come with pasted text)",
                    )
                } else {
                    Report::new(UNEXPECTED_CHAR, message, "Loony does not know this character")
                }
            }
            ParseError::Unclosed {
                open,
                bracket,
                end,
                comment,
            } => {
                let close = closing(*bracket);
                match comment {
                    Some(c) => {
                        let at = c.span.start;
                        let mut r = Report::new(
                            UNCLOSED,
                            format!("unclosed `{bracket}`: its `{close}` is in a comment"),
                            "opened here",
                        )
                        .note(format!(
                            "`#` starts a comment, which runs to the end of the line: the `{close}` \
                             in it closes nothing"
                        ))
                        .place(Place::Spans {
                            primary: open.clone(),
                            secondary: Some((at..at + 1, "a comment starts here".into())),
                        });
                        if c.misere {
                            r = r.note(
                                "CGSuite's misère notation (`*[2#0]`) is read from a string: \
                                 `misere_form(\"2#0\")`",
                            );
                        }
                        r
                    }
                    None => Report::new(UNCLOSED, format!("unclosed `{bracket}`"), "opened here")
                        .note(format!("the input ended before the matching `{close}`"))
                        .place(Place::Spans {
                            primary: open.clone(),
                            secondary: Some((*end..*end, "input ends here".into())),
                        }),
                }
            }
            ParseError::MissingBar { form, at } => Report::new(
                MISSING_BAR,
                "this form has no `|` between its Left and Right options",
                "form without `|`",
            )
            .note("a form is written `{L | R}` (or `<L | R>`); `{ | }` is 0")
            .place(Place::Spans {
                primary: form.clone(),
                secondary: Some((at.clone(), "the form closes here".into())),
            }),
            ParseError::UnexpectedToken {
                found, expected, ..
            } => Report::new(
                UNEXPECTED_TOKEN,
                format!("did not expect {found} here"),
                "not expected here",
            )
            .notes(expected_note(expected)),
            ParseError::UnexpectedEof { expected, .. } => {
                Report::new(UNEXPECTED_EOF, "unexpected end of input", "input ends here")
                    .notes(expected_note(expected))
            }
            ParseError::IntTooLarge { .. } => {
                Report::new(INT_TOO_LARGE, "integer literal is too large", "too large")
                    .note(format!("integers are 64-bit: at most {}", i64::MAX))
            }
            ParseError::UnterminatedString { .. } => Report::new(
                UNTERMINATED_STRING,
                "unterminated string",
                "this string has no closing `\"`",
            ),
            ParseError::BadEscape { found, .. } => Report::new(
                BAD_ESCAPE,
                format!("unknown escape `{found}` in a string"),
                "not an escape",
            )
            .note(
                "a string may contain `\\\"` (a quote), `\\\\` (a backslash), `\\n` (a newline) and `\\t` (a tab)",
            ),
            ParseError::DecimalNumber { text, .. } => Report::new(
                DECIMAL_NUMBER,
                format!("`{text}` is not a Loony number: numbers are integers"),
                "a decimal number",
            )
            .note(format!(
                "a take-and-break code is a string, in quotes: heap(\"{text}\")"
            )),
        }
    }
}

fn expected_note(expected: &[String]) -> Option<String> {
    match expected {
        [] => None,
        [one] => Some(format!("expected {one}")),
        many => Some(format!("expected one of {}", many.join(", "))),
    }
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

crate::codes! {
    /// The `--explain` texts of these codes.
    pub(super) CODES;
    UNEXPECTED_CHAR = "E0001",
        "A character that is not part of Loony's syntax, like `@` or `$`.\n\n\
         Games are written with `*`, `{`, `|`, `}`, `<`, `>`, `∞` (or `inf`), `∞̄` (or `-inf`) and \
         `☾` (or `moon`); names, integers, strings in double quotes and the operators \
         `+ - * / % == != < <= > >= and or not` make up the rest. Remove the character, or put \
         it inside a string.";
    UNCLOSED = "E0002",
        "A bracket `{`, `(`, `[` or `<` was opened and the input ended before it was closed.\n\n\
         The diagnostic points at the opening bracket and at the end of the input. Add the \
         matching closing bracket; in the REPL an open bracket continues the input on the next \
         line, so this appears for files and `-e`.\n\n\
         When the closing bracket is in a comment (`#` to the end of the line), the diagnostic \
         points at the comment instead, and the REPL reports it at once. CGSuite's misère \
         notation `*[2#0]` is such a case: `#` starts a comment in Loony, so a misère form in \
         that notation is read from a string, `misere_form(\"2#0\")`.";
    MISSING_BAR = "E0003",
        "A game form `{…}` or `<…>` closed without the `|` that separates Left's options from \
         Right's.\n\n\
         Write `{L | R}`: `{0, * | 0, *}` is *2, and `{ | }` is 0. A list of values is written \
         with square brackets: `[0, *]`, and a set of integers with braces and no bar: \
         `{1, 2}`.\n\n\
         A labelled form `a{…}` and a form in angle brackets `<…>` always need the bar; braces \
         without a bar read as a set, and a game inside one is E0108.";
    UNEXPECTED_TOKEN = "E0004",
        "A token where the grammar cannot use it, such as `let = 3` (a name is missing) or two \
         values side by side.\n\n\
         The note lists what could have come there instead. Statements are separated by line \
         breaks or `;`.";
    UNEXPECTED_EOF = "E0005",
        "The input ended in the middle of a statement: after an operator (`*2 +`), after `let x \
         =`, or in an `if` without its `else`.\n\n\
         Complete the statement. The REPL asks for another line in these cases.";
    INT_TOO_LARGE = "E0006",
        "An integer literal too large for Loony's 64-bit integers (more than \
         9223372036854775807).\n\n\
         Loony computes with signed 64-bit integers; arithmetic that overflows is E0105.";
    UNTERMINATED_STRING = "E0007",
        "A string that is not closed: its opening `\"` has no closing `\"`.\n\n\
         Close the string. A `\"` inside a string is written `\\\"`.";
    BAD_ESCAPE = "E0008",
        "A `\\` inside a string followed by a character that starts no escape.\n\n\
         The escapes are `\\\"` (a quote), `\\\\` (a backslash), `\\n` (a line break) and `\\t` \
         (a tab). To write a backslash itself, double it.";
    DECIMAL_NUMBER = "E0010",
        "A number with a decimal point, like `0.07`. Loony's numbers are integers.\n\n\
         A take-and-break code is text in CGSuite's notation and is written as a string: \
         `heap(\"0.07\")` is Dawson's Kayles, `heap(\"4.07\")` another octal game.";
}
