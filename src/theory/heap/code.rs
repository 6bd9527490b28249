//! Take-and-break codes in CGSuite's notation: `0.07`, `4.7`, `0.6`, `4!.0`, hex digits.
//!
//! Digit `d` of a code (digit 0 stands before the point) says what may be done to a heap
//! after removing `d` tokens from it: bit `k` of the digit set means the remaining tokens
//! may be left as exactly `k` nonempty heaps (bits 0..=3, so hexadecimal digits allow up
//! to three heaps). A digit may carry one of CGSuite's constraint suffixes, which restrict
//! the heaps a split leaves:
//! - `!` the heaps must be pairwise unequal (`4!.0` is Grundy's game: split a heap into two
//!   unequal heaps);
//! - `?` the heaps must not all be equal;
//! - `=` the heaps must all be equal.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// How the heaps left by one digit's split must relate to each other (CGSuite's suffixes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// No suffix: any sizes.
    #[default]
    Free,
    /// `!`: pairwise unequal sizes.
    Distinct,
    /// `?`: not all sizes equal.
    NotAllEqual,
    /// `=`: all sizes equal.
    AllEqual,
}

impl Constraint {
    fn suffix(self) -> &'static str {
        match self {
            Constraint::Free => "",
            Constraint::Distinct => "!",
            Constraint::NotAllEqual => "?",
            Constraint::AllEqual => "=",
        }
    }

    /// Whether the sorted heap sizes `heaps` are allowed.
    pub fn allows(self, heaps: &[usize]) -> bool {
        let equal_neighbours = heaps.windows(2).filter(|w| w[0] == w[1]).count();
        match self {
            Constraint::Free => true,
            Constraint::Distinct => equal_neighbours == 0,
            Constraint::NotAllEqual => heaps.len() < 2 || equal_neighbours + 1 < heaps.len(),
            Constraint::AllEqual => equal_neighbours + 1 >= heaps.len(),
        }
    }
}

/// One digit of a code: which heap counts may be left (bit k = k heaps), and a constraint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Digit {
    /// Bit `k` set: after the removal exactly `k` nonempty heaps may be left (k = 0..=3).
    pub heaps: u8,
    /// Restriction on the sizes of the heaps left; only meaningful for two or more heaps.
    pub constraint: Constraint,
}

impl Digit {
    fn new(heaps: u8, constraint: Constraint) -> Digit {
        // A constraint on fewer than two heaps says nothing: normalise it away (as CGSuite does).
        let constraint = if heaps < 4 {
            Constraint::Free
        } else {
            constraint
        };
        Digit { heaps, constraint }
    }

    pub fn is_zero(self) -> bool {
        self.heaps == 0
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:X}{}", self.heaps, self.constraint.suffix())
    }
}

/// A parse error inside a code string; `span` is a byte range of that string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeError {
    pub span: Range<usize>,
    pub message: String,
}

impl CodeError {
    fn new(span: Range<usize>, message: impl Into<String>) -> CodeError {
        CodeError {
            span,
            message: message.into(),
        }
    }
}

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CodeError {}

/// A take-and-break code. `digits[d]` is digit `d`; trailing zero digits are trimmed,
/// so equal games have equal codes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Code {
    digits: Vec<Digit>,
}

impl Code {
    /// Parses CGSuite's notation, e.g. `0.07`, `4.7`, `.6`, `0.8F`, `4!.0`.
    pub fn parse(text: &str) -> Result<Code, CodeError> {
        if text.trim().is_empty() {
            return Err(CodeError::new(0..text.len(), "empty code"));
        }
        let Some(point) = text.find('.') else {
            return Err(CodeError::new(0..text.len(), "a code needs a '.'"));
        };
        let mut before = Vec::new();
        parse_digits(text, 0..point, &mut before)?;
        let mut after = Vec::new();
        parse_digits(text, point + 1..text.len(), &mut after)?;

        if before.len() > 1 {
            let (_, at) = &before[before.len() - 2];
            return Err(CodeError::new(
                at.clone(),
                "only one digit may stand before the '.' (codes that add tokens are not supported)",
            ));
        }
        let digit0 = match before.first() {
            Some((digit, at)) => {
                if digit.heaps & 3 != 0 {
                    return Err(CodeError::new(
                        at.clone(),
                        format!(
                            "digit 0 (before the '.') is {:X} but may only split: bits 0 and 1 would \
                             remove no tokens and leave the heap as it was (use 0, 4, 8 or C)",
                            digit.heaps
                        ),
                    ));
                }
                *digit
            }
            None => Digit::default(), // ".07" is read as "0.07"
        };
        let mut digits = vec![digit0];
        digits.extend(after.into_iter().map(|(digit, _)| digit));
        while digits.len() > 1 && digits.last().is_some_and(|d| d.is_zero()) {
            digits.pop();
        }
        Ok(Code { digits })
    }

    /// Digit `d` (zero beyond the written digits).
    pub fn digit(&self, d: usize) -> Digit {
        self.digits.get(d).copied().unwrap_or_default()
    }

    /// All digits, digit 0 first, without trailing zeros (at least digit 0).
    pub fn digits(&self) -> &[Digit] {
        &self.digits
    }

    /// Index of the last nonzero digit (the `t` of the Guy–Smith periodicity theorem).
    pub fn last_nonzero(&self) -> usize {
        self.digits.iter().rposition(|d| !d.is_zero()).unwrap_or(0)
    }

    /// Largest number of heaps any move may leave (0..=3).
    pub fn max_heaps(&self) -> u32 {
        let bits = self.digits.iter().fold(0u8, |acc, d| acc | d.heaps);
        (8 - bits.leading_zeros()).saturating_sub(1)
    }

    /// An octal code: no digit leaves more than two heaps and none carries a constraint.
    pub fn is_octal(&self) -> bool {
        self.digits
            .iter()
            .all(|d| d.heaps < 8 && d.constraint == Constraint::Free)
    }
}

/// Reads hex digits with optional constraint suffixes from `text[range]`.
fn parse_digits(
    text: &str,
    range: Range<usize>,
    out: &mut Vec<(Digit, Range<usize>)>,
) -> Result<(), CodeError> {
    let start = range.start;
    for (offset, ch) in text[range].char_indices() {
        let at = start + offset..start + offset + ch.len_utf8();
        let constraint = match ch {
            '!' => Some(Constraint::Distinct),
            '?' => Some(Constraint::NotAllEqual),
            '=' => Some(Constraint::AllEqual),
            _ => None,
        };
        if let Some(constraint) = constraint {
            match out.last_mut() {
                Some((digit, digit_at)) if digit_at.end == at.start => {
                    if digit.constraint != Constraint::Free {
                        return Err(CodeError::new(
                            at,
                            "a digit takes at most one of '!', '?', '='",
                        ));
                    }
                    // Normalised at the end; the suffix joins the digit's span so a
                    // second suffix is caught above.
                    digit.constraint = constraint;
                    digit_at.end = at.end;
                }
                _ => {
                    return Err(CodeError::new(at, format!("'{ch}' must follow a digit")));
                }
            }
            continue;
        }
        match ch {
            '.' => return Err(CodeError::new(at, "a code has only one '.'")),
            '[' | ']' => {
                return Err(CodeError::new(
                    at,
                    "periodic digit blocks '[...]' are not supported; use an all-but set instead",
                ));
            }
            _ => {}
        }
        let Some(value) = ch.to_digit(16) else {
            let message = if ch.is_alphanumeric() {
                format!("digit '{ch}' is not a hexadecimal digit")
            } else {
                format!("unexpected character '{ch}' in a code")
            };
            return Err(CodeError::new(at, message));
        };
        out.push((Digit::new(value as u8, Constraint::Free), at));
    }
    // Normalise constraints on digits that cannot leave two heaps.
    for (digit, _) in out.iter_mut() {
        *digit = Digit::new(digit.heaps, digit.constraint);
    }
    Ok(())
}

impl FromStr for Code {
    type Err = CodeError;
    fn from_str(s: &str) -> Result<Code, CodeError> {
        Code::parse(s)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        if self.digits.len() == 1 {
            return f.write_str("0");
        }
        for digit in &self.digits[1..] {
            write!(f, "{digit}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        Code::parse(text).unwrap().to_string()
    }

    #[test]
    fn parses_and_prints_canonically() {
        assert_eq!(round_trip("0.07"), "0.07");
        assert_eq!(round_trip("0.77"), "0.77");
        assert_eq!(round_trip("4.7"), "4.7");
        assert_eq!(round_trip("0.137"), "0.137");
        assert_eq!(round_trip(".6"), "0.6");
        assert_eq!(round_trip("0.6000"), "0.6");
        assert_eq!(round_trip("0.fc"), "0.FC");
        assert_eq!(round_trip("4!.0"), "4!.0");
        assert_eq!(round_trip("4!."), "4!.0");
        assert_eq!(round_trip("0.3!"), "0.3"); // constraint on <2 heaps is meaningless
        assert_eq!(round_trip("0.0"), "0.0");
        assert_eq!(round_trip("8.F?"), "8.F?");
    }

    #[test]
    fn digit_semantics() {
        let code = Code::parse("4!.07").unwrap();
        assert_eq!(code.digit(0).heaps, 4);
        assert_eq!(code.digit(0).constraint, Constraint::Distinct);
        assert_eq!(code.digit(2).heaps, 7);
        assert_eq!(code.digit(9).heaps, 0);
        assert_eq!(code.last_nonzero(), 2);
        assert_eq!(code.max_heaps(), 2);
        assert!(!code.is_octal());
        assert!(Code::parse("0.77").unwrap().is_octal());
        assert_eq!(Code::parse("0.F").unwrap().max_heaps(), 3);
    }

    #[test]
    fn errors_have_spans_and_messages() {
        let err = |s: &str| Code::parse(s).unwrap_err();
        assert_eq!(err("").message, "empty code");
        assert_eq!(err("077").message, "a code needs a '.'");
        let e = err("0.0g7");
        assert_eq!(e.span, 3..4);
        assert_eq!(e.message, "digit 'g' is not a hexadecimal digit");
        assert_eq!(err("0.0.7").span, 3..4);
        assert_eq!(err("0.!7").message, "'!' must follow a digit");
        assert_eq!(err("1.7").span, 0..1);
        assert!(err("3.7").message.contains("digit 0"));
        assert_eq!(err("40.7").span, 0..1);
        assert_eq!(err("0.7!!").span, 4..5);
        assert!(err("0.[3]").message.contains("periodic"));
        assert_eq!(err("0.7 ").message, "unexpected character ' ' in a code");
        assert_eq!(err("0.é").span, 2..4);
    }

    #[test]
    fn constraint_allows() {
        assert!(Constraint::Distinct.allows(&[1, 2, 3]));
        assert!(!Constraint::Distinct.allows(&[1, 1, 3]));
        assert!(Constraint::NotAllEqual.allows(&[1, 1, 3]));
        assert!(!Constraint::NotAllEqual.allows(&[2, 2, 2]));
        assert!(Constraint::AllEqual.allows(&[2, 2, 2]));
        assert!(!Constraint::AllEqual.allows(&[2, 2, 3]));
    }
}
