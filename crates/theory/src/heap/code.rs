//! Take-and-break codes in CGSuite's notation: `0.07`, `4!.0`, `0.[3]`, `0.{1,2!}`, `80.0`.
//!
//! Digit `j` of a code (digit 0 stands just before the point; digits further left, `-1`,
//! `-2`, …, *add* tokens) says what may be done to a heap after removing `j` tokens from it:
//! the set of heap counts `r` it allows, each with a constraint on the `r` heaps left:
//! - a base-32 digit (`0`–`9`, `A`–`V`, any case): bit `r` allows `r` nonempty heaps;
//! - `&N;` the same with a decimal bit mask `N` (for counts beyond 4);
//! - `*`: any number of heaps;
//! - `{0,2,4+}`: the listed counts, the last with `+` meaning "this many or more";
//! - a suffix `!` (heaps pairwise unequal), `?` (not all equal) or `=` (all equal), after a
//!   digit, after a `}`, or after one count inside the braces (not both).
//!
//! Digits after the point may end in a periodic block `[…]`, repeated forever (`0.[3]` is
//! Nim). Codes are kept in CGSuite's standard form (see [`Code`]'s `Display`), so equal codes
//! print alike: `04.30` is `4.3`, `0.{1,2!}` is `0.6!`.
//!
//! A code whose play could go on forever is rejected: digit 0 may not leave 0 or 1 heaps
//! (that removes nothing), and digit `−k` must leave at least `k + 2` heaps, so every heap
//! left is smaller than the one moved on.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// How the heaps left by a split must relate to each other (CGSuite's suffixes).
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

    fn from_char(ch: char) -> Option<Constraint> {
        match ch {
            '!' => Some(Constraint::Distinct),
            '?' => Some(Constraint::NotAllEqual),
            '=' => Some(Constraint::AllEqual),
            _ => None,
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

/// The largest heap count a code may name (CGSuite's limit: one bit of a 64-bit mask).
pub const MAX_COUNT: usize = 63;

/// One digit: which heap counts may be left, each with its constraint.
///
/// `counts[r]` is `Some(c)` when `r` heaps may be left under constraint `c`; with `more`, every
/// count past the end is allowed with the last entry's constraint. Kept in CGSuite's normal
/// form, so digits that print alike are equal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Digit {
    counts: Vec<Option<Constraint>>,
    more: bool,
}

impl Digit {
    /// A base-32 or `&N;` digit: bit `r` of `mask` allows `r` heaps, all under `constraint`.
    pub fn from_mask(mask: u64, constraint: Constraint) -> Digit {
        let counts = (0..64)
            .map(|r| (mask >> r & 1 != 0).then_some(constraint))
            .collect();
        Digit::normalised(counts, false)
    }

    /// Normal form (as CGSuite keeps it): a constraint on 0 or 1 heaps means nothing, so when
    /// all counts of two or more heaps share one constraint every count carries it (and it
    /// prints once, after the digit), otherwise counts 0 and 1 carry none; a `+` tail starts
    /// at the first count of the final run (and at least at 3, so `*` reads `{0+}`).
    fn normalised(mut counts: Vec<Option<Constraint>>, more: bool) -> Digit {
        while counts.last() == Some(&None) {
            counts.pop();
        }
        if counts.is_empty() {
            return Digit::default();
        }
        if more && counts.len() < 4 {
            let last = *counts.last().expect("nonempty");
            counts.resize(4, last);
        }
        let mut effective: Vec<Constraint> = counts.iter().skip(2).flatten().copied().collect();
        effective.sort_by_key(|c| c.suffix());
        effective.dedup();
        for (r, slot) in counts.iter_mut().enumerate() {
            if let Some(c) = slot {
                if effective.len() == 1 {
                    *c = effective[0];
                } else if r < 2 {
                    *c = Constraint::Free;
                }
            }
        }
        if more {
            let last = *counts.last().expect("nonempty");
            let run_start = counts.iter().rposition(|c| *c != last).map_or(0, |i| i + 1);
            counts.truncate(run_start + 1);
        }
        Digit { counts, more }
    }

    pub fn is_zero(&self) -> bool {
        self.counts.is_empty()
    }

    /// The constraint under which `r` heaps may be left, if they may.
    pub fn allows(&self, r: usize) -> Option<Constraint> {
        match self.counts.get(r) {
            Some(c) => *c,
            None if self.more => *self.counts.last().expect("a tail has a count"),
            None => None,
        }
    }

    /// The largest count allowed (0 for the zero digit), `None` for a `+` tail.
    pub fn max_count(&self) -> Option<usize> {
        if self.more {
            None
        } else {
            Some(self.counts.len().saturating_sub(1))
        }
    }

    /// Counts `0..counts_len()` are listed; with [`Digit::more`] the last one continues.
    pub fn counts_len(&self) -> usize {
        self.counts.len()
    }

    pub fn more(&self) -> bool {
        self.more
    }

    /// The bit mask of allowed counts if they are finite and fit in a `u64`.
    fn mask(&self) -> Option<u64> {
        if self.more {
            return None;
        }
        Some(
            self.counts
                .iter()
                .enumerate()
                .filter(|(_, c)| c.is_some())
                .fold(0, |m, (r, _)| m | 1 << r),
        )
    }

    /// Allows counts 0..=3 only, all without constraint (an ordinary hexadecimal digit).
    fn is_plain_hex(&self) -> bool {
        !self.more
            && self.counts.len() <= 4
            && self.counts.iter().flatten().all(|&c| c == Constraint::Free)
    }
}

const BASE32: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUV";

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(&Some(last)) = self.counts.last() else {
            return f.write_str("0");
        };
        let consistent = self.counts.iter().flatten().all(|&c| c == last);
        match (consistent, self.mask()) {
            (true, Some(mask)) => {
                if mask < 32 {
                    write!(f, "{}", &BASE32[mask as usize..mask as usize + 1])?;
                } else {
                    write!(f, "&{mask};")?;
                }
                f.write_str(last.suffix())
            }
            (true, None) if self.counts.len() == 1 => write!(f, "*{}", last.suffix()),
            (true, None) => {
                let listed: Vec<String> = (0..self.counts.len())
                    .filter(|&r| self.counts[r].is_some())
                    .map(|r| r.to_string())
                    .collect();
                write!(f, "{{{}+}}{}", listed.join(","), last.suffix())
            }
            (false, _) => {
                let listed: Vec<String> = (0..self.counts.len())
                    .filter_map(|r| self.counts[r].map(|c| format!("{r}{}", c.suffix())))
                    .collect();
                let more = if self.more { "+" } else { "" };
                write!(f, "{{{}{more}}}", listed.join(","))
            }
        }
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

/// A take-and-break code in CGSuite's standard form.
///
/// `digits[j]` is digit `j >= 0`; `additive[k - 1]` is digit `−k` (adds `k` tokens). The last
/// `period` digits repeat forever. Leading additive zeros, an all-zero period and (without a
/// period) trailing zeros are dropped, as CGSuite does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Code {
    digits: Vec<Digit>,
    additive: Vec<Digit>,
    period: usize,
}

/// One parsed digit with its place in the text.
struct Placed {
    digit: Digit,
    at: Range<usize>,
}

impl Code {
    /// Parses CGSuite's notation, e.g. `0.07`, `4.7`, `.6`, `0.8F`, `4!.0`, `0.[3]`,
    /// `{2+}=.0`, `0.{0,1,3+}`, `80.0`.
    pub fn parse(text: &str) -> Result<Code, CodeError> {
        if text.trim().is_empty() {
            return Err(CodeError::new(0..text.len(), "empty code"));
        }
        let mut p = Parser {
            text,
            pos: 0,
            before: Vec::new(),
            after: Vec::new(),
            point: None,
            period_start: None,
            open_at: 0,
        };
        p.run()?;
        let Parser {
            before,
            after,
            period_start,
            ..
        } = p;
        // Digit 0 is the last one before the point (".07" reads as "0.07").
        let mut before = before;
        let digit0 = before.pop();
        if let Some(d0) = &digit0 {
            for r in [0, 1] {
                if d0.digit.allows(r).is_some() {
                    return Err(CodeError::new(
                        d0.at.clone(),
                        format!(
                            "digit 0 (just before the '.') allows leaving {r} heap{}: that removes \
                             no tokens, so play would never end (digit 0 may only split, into 2 \
                             or more heaps)",
                            if r == 1 { "" } else { "s" }
                        ),
                    ));
                }
            }
        }
        for (k, placed) in before.iter().rev().enumerate() {
            let k = k + 1;
            if let Some(r) = (0..k + 2).find(|&r| placed.digit.allows(r).is_some()) {
                return Err(CodeError::new(
                    placed.at.clone(),
                    format!(
                        "digit -{k} adds {k} token{} and allows leaving {r} heap{}: a heap as \
                         large as the one moved on could be left, so play could go on forever \
                         (digit -{k} must leave at least {} heaps)",
                        if k == 1 { "" } else { "s" },
                        if r == 1 { "" } else { "s" },
                        k + 2
                    ),
                ));
            }
        }
        let mut digits = vec![digit0.map(|p| p.digit).unwrap_or_default()];
        let period = period_start.map_or(0, |start| after.len() - start);
        digits.extend(after.into_iter().map(|p| p.digit));
        let additive = before.into_iter().rev().map(|p| p.digit).collect();
        Ok(Code::normalised(digits, additive, period))
    }

    /// CGSuite's normal form of the parts.
    fn normalised(mut digits: Vec<Digit>, mut additive: Vec<Digit>, mut period: usize) -> Code {
        while additive.last().is_some_and(Digit::is_zero) {
            additive.pop();
        }
        if digits[digits.len() - period..].iter().all(Digit::is_zero) {
            digits.truncate(digits.len() - period);
            period = 0;
        }
        if period == 0 {
            while digits.last().is_some_and(Digit::is_zero) {
                digits.pop();
            }
        }
        if digits.is_empty() {
            digits.push(Digit::default());
        }
        Code {
            digits,
            additive,
            period,
        }
    }

    /// The code of a subtraction game (`all_but = false`: remove `k ∈ set`) or of an all-but
    /// game (remove any `k ∉ set`), as CGSuite writes them: `0.0330003`, `0.3003330[3]`.
    pub fn from_subtraction(set: &[usize], all_but: bool) -> Code {
        let top = set.iter().copied().max().unwrap_or(0);
        let three = Digit::from_mask(3, Constraint::Free);
        let mut digits = vec![Digit::default()];
        for k in 1..=top {
            let member = set.contains(&k);
            digits.push(if member != all_but {
                three.clone()
            } else {
                Digit::default()
            });
        }
        let period = if all_but {
            digits.push(three);
            1
        } else {
            0
        };
        Code::normalised(digits, Vec::new(), period)
    }

    /// Digit `j` (`j < 0` adds `−j` tokens); zero beyond the written digits unless periodic.
    pub fn digit(&self, j: isize) -> &Digit {
        static ZERO: Digit = Digit {
            counts: Vec::new(),
            more: false,
        };
        if j < 0 {
            return self.additive.get((-j - 1) as usize).unwrap_or(&ZERO);
        }
        let j = j as usize;
        if let Some(d) = self.digits.get(j) {
            d
        } else if self.period > 0 {
            let pre = self.preperiod();
            &self.digits[pre + (j - pre) % self.period]
        } else {
            &ZERO
        }
    }

    /// Digits `0..` as written (for a periodic code, through the first period).
    pub fn digits(&self) -> &[Digit] {
        &self.digits
    }

    /// How many tokens digits before digit 0 may add (0 for most codes).
    pub fn additive_len(&self) -> usize {
        self.additive.len()
    }

    /// Length of the repeating block (0: none).
    pub fn period(&self) -> usize {
        self.period
    }

    /// Index of the first repeating digit (the digits' length when there is no period).
    pub fn preperiod(&self) -> usize {
        self.digits.len() - self.period
    }

    /// The largest number of tokens a move removes; `None` when periodic (unbounded).
    pub fn max_removal(&self) -> Option<usize> {
        if self.period > 0 {
            return None;
        }
        Some(self.digits.iter().rposition(|d| !d.is_zero()).unwrap_or(0))
    }

    /// Index of the last nonzero digit (the `t` of the Guy–Smith periodicity theorem);
    /// for periodic codes, of the last written one.
    pub fn last_nonzero(&self) -> usize {
        self.digits.iter().rposition(|d| !d.is_zero()).unwrap_or(0)
    }

    /// Largest number of heaps any move may leave; `None` if unbounded (`*`, `+`).
    pub fn max_heaps(&self) -> Option<usize> {
        let mut most = 0;
        for d in self.digits.iter().chain(&self.additive) {
            most = most.max(d.max_count()?);
        }
        Some(most)
    }

    /// An octal code: no digit leaves more than two heaps, none carries a constraint, no
    /// digit adds tokens, no period.
    pub fn is_octal(&self) -> bool {
        self.is_plain_hex() && self.max_heaps().is_some_and(|m| m <= 2)
    }

    /// Finite, digits 0.. only, counts 0..=3 with any constraint per count: the codes the
    /// fast kernels handle.
    pub fn is_hexadecimal(&self) -> bool {
        self.period == 0
            && self.additive.is_empty()
            && self.digits.iter().all(|d| !d.more && d.counts.len() <= 4)
    }

    fn is_plain_hex(&self) -> bool {
        self.is_hexadecimal() && self.digits.iter().all(Digit::is_plain_hex)
    }
}

struct Parser<'t> {
    text: &'t str,
    pos: usize,
    before: Vec<Placed>,
    after: Vec<Placed>,
    point: Option<usize>,
    /// Index into `after` where the `[` block starts.
    period_start: Option<usize>,
    /// Where the `[` stands in the text.
    open_at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn span_here(&self) -> Range<usize> {
        let len = self.peek().map_or(0, char::len_utf8);
        self.pos..self.pos + len
    }

    fn run(&mut self) -> Result<(), CodeError> {
        let mut closed_at: Option<usize> = None;
        while let Some(ch) = self.peek() {
            let at = self.span_here();
            if let Some(close) = closed_at {
                return Err(CodeError::new(
                    at,
                    format!("nothing may follow the periodic block closed at {close}"),
                ));
            }
            match ch {
                '.' => {
                    if self.point.is_some() {
                        return Err(CodeError::new(at, "a code has only one '.'"));
                    }
                    self.point = Some(self.pos);
                    self.pos += 1;
                }
                '[' => {
                    if self.point.is_none() {
                        return Err(CodeError::new(
                            at,
                            "a periodic block '[…]' may only stand after the '.'",
                        ));
                    }
                    if self.period_start.is_some() {
                        return Err(CodeError::new(at, "a code has only one periodic block"));
                    }
                    self.period_start = Some(self.after.len());
                    self.open_at = self.pos;
                    self.pos += 1;
                }
                ']' => {
                    let Some(start) = self.period_start else {
                        return Err(CodeError::new(at, "']' without a '['"));
                    };
                    if start == self.after.len() {
                        return Err(CodeError::new(at, "the periodic block '[]' is empty"));
                    }
                    closed_at = Some(self.pos);
                    self.pos += 1;
                }
                '!' | '?' | '=' => {
                    return Err(CodeError::new(at, format!("'{ch}' must follow a digit")));
                }
                _ => {
                    let placed = self.digit()?;
                    if self.point.is_some() {
                        self.after.push(placed);
                    } else {
                        self.before.push(placed);
                    }
                }
            }
        }
        if self.point.is_none() {
            return Err(CodeError::new(0..self.text.len(), "a code needs a '.'"));
        }
        if self.period_start.is_some() && closed_at.is_none() {
            return Err(CodeError::new(
                self.open_at..self.open_at + 1,
                "this periodic block '[' is not closed with ']'",
            ));
        }
        Ok(())
    }

    /// An optional constraint suffix at the current position.
    fn suffix(&mut self, on: &str) -> Result<Option<Constraint>, CodeError> {
        let Some(c) = self.peek().and_then(Constraint::from_char) else {
            return Ok(None);
        };
        self.pos += 1;
        if let Some(ch) = self
            .peek()
            .filter(|&ch| Constraint::from_char(ch).is_some())
        {
            return Err(CodeError::new(
                self.span_here(),
                format!("{on} takes at most one of '!', '?', '=' (a second '{ch}')"),
            ));
        }
        Ok(Some(c))
    }

    fn digit(&mut self) -> Result<Placed, CodeError> {
        let start = self.pos;
        let ch = self.peek().expect("called on a character");
        let at = self.span_here();
        let digit = match ch {
            '*' => {
                self.pos += 1;
                let c = self.suffix("a digit")?.unwrap_or_default();
                Digit::normalised(vec![Some(c)], true)
            }
            '{' => self.braces()?,
            '&' => {
                self.pos += 1;
                let num_start = self.pos;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.pos += 1;
                }
                if self.peek() != Some(';') {
                    let here = self.span_here();
                    return Err(CodeError::new(
                        if here.is_empty() { at.clone() } else { here },
                        "a '&' digit is a decimal bit mask closed by ';', like &33;",
                    ));
                }
                let number = &self.text[num_start..self.pos];
                let mask: u64 = number.parse().map_err(|_| {
                    CodeError::new(
                        start..self.pos + 1,
                        "the '&…;' digit needs a bit mask below 2^64",
                    )
                })?;
                self.pos += 1;
                let c = self.suffix("a digit")?.unwrap_or_default();
                Digit::from_mask(mask, c)
            }
            _ => {
                let Some(value) = BASE32
                    .find(ch.to_ascii_uppercase())
                    .filter(|_| ch.is_ascii())
                else {
                    let message = if ch.is_alphanumeric() {
                        format!(
                            "'{ch}' is not a code digit (digits are 0-9 and A-V, base 32; \
                             larger heap counts are written &N; or in braces)"
                        )
                    } else {
                        format!("unexpected character '{ch}' in a code")
                    };
                    return Err(CodeError::new(at, message));
                };
                self.pos += 1;
                let c = self.suffix("a digit")?.unwrap_or_default();
                Digit::from_mask(value as u64, c)
            }
        };
        Ok(Placed {
            digit,
            at: start..self.pos,
        })
    }

    /// `{r1, r2!, r3+}` with an optional constraint after the `}`.
    fn braces(&mut self) -> Result<Digit, CodeError> {
        let open = self.pos;
        self.pos += 1;
        let mut entries: Vec<(usize, Option<Constraint>, Range<usize>)> = Vec::new();
        let mut more = false;
        loop {
            let item = self.pos;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
            if self.pos == item {
                let here = self.span_here();
                return Err(match self.peek() {
                    None => CodeError::new(open..open + 1, "this '{' is not closed with '}'"),
                    Some(ch) => CodeError::new(
                        here,
                        format!("expected a heap count (a number) in braces, found '{ch}'"),
                    ),
                });
            }
            let count: usize = self.text[item..self.pos]
                .parse()
                .ok()
                .filter(|&r| r <= MAX_COUNT)
                .ok_or_else(|| {
                    CodeError::new(
                        item..self.pos,
                        format!("a heap count in braces is at most {MAX_COUNT}"),
                    )
                })?;
            let own = self.suffix("a heap count")?;
            entries.push((count, own, item..self.pos));
            match self.peek() {
                Some(',') => self.pos += 1,
                Some('+') => {
                    self.pos += 1;
                    more = true;
                    if self.peek() != Some('}') {
                        let here = self.span_here();
                        return Err(if here.is_empty() {
                            CodeError::new(open..open + 1, "this '{' is not closed with '}'")
                        } else {
                            CodeError::new(
                                self.pos - 1..self.pos,
                                "'+' (this many heaps or more) may only follow the last count",
                            )
                        });
                    }
                }
                Some('}') => {}
                None => {
                    return Err(CodeError::new(
                        open..open + 1,
                        "this '{' is not closed with '}'",
                    ));
                }
                Some(ch) => {
                    return Err(CodeError::new(
                        self.span_here(),
                        format!("expected ',' or '}}' in braces, found '{ch}'"),
                    ));
                }
            }
            if self.peek() == Some('}') {
                self.pos += 1;
                break;
            }
        }
        if more {
            let (last, ..) = entries.last().expect("nonempty");
            if let Some((_, _, at)) = entries.iter().find(|e| e.0 > *last) {
                return Err(CodeError::new(
                    at.clone(),
                    "with '+', the last count must be the largest",
                ));
            }
        }
        let after = self.pos;
        let global = self.suffix("a digit")?;
        if let Some(global) = global
            && let Some((_, _, at)) = entries.iter().find(|e| e.1.is_some())
        {
            return Err(CodeError::new(
                at.clone(),
                format!(
                    "a count has its own constraint, so the braces may not also take '{}' \
                         (at {after})",
                    global.suffix()
                ),
            ));
        }
        let size = entries.iter().map(|e| e.0).max().expect("nonempty") + 1;
        let mut counts = vec![None; size];
        for (r, own, _) in entries {
            counts[r] = Some(own.or(global).unwrap_or_default());
        }
        Ok(Digit::normalised(counts, more))
    }
}

impl FromStr for Code {
    type Err = CodeError;
    fn from_str(s: &str) -> Result<Code, CodeError> {
        Code::parse(s)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in self.additive.iter().rev() {
            write!(f, "{d}")?;
        }
        write!(f, "{}.", self.digits[0])?;
        let pre = self.preperiod();
        for d in &self.digits[1..pre.max(1)] {
            write!(f, "{d}")?;
        }
        if self.period > 0 {
            f.write_str("[")?;
            for d in &self.digits[pre..] {
                write!(f, "{d}")?;
            }
            f.write_str("]")?;
        } else if self.digits.len() == 1 {
            f.write_str("0")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        Code::parse(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .to_string()
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
        assert_eq!(round_trip("0.[3]"), "0.[3]");
        assert_eq!(round_trip("0.7[03]"), "0.7[03]");
        assert_eq!(round_trip("0.&33;"), "0.&33;");
        assert_eq!(round_trip("0.&15;"), "0.F");
        assert_eq!(round_trip("0.v"), "0.V");
        assert_eq!(round_trip("80.0"), "80.0");
        assert_eq!(round_trip("{2+}=.0"), "{2+}=.0");
        assert_eq!(round_trip("0.{1+}"), "0.{1+}");
        assert_eq!(round_trip("0.*=3"), "0.*=3");
    }

    /// CGSuite's own normalisation table (TBCodeTest.scala).
    #[test]
    fn cgsuite_normal_forms() {
        let table = [
            ("04.30", "4.3"),
            ("04.00[30]", "4.00[30]"),
            ("04.00[00]", "4.0"),
            ("00.00[00]", "0.0"),
            ("0.{1,2!}", "0.6!"),
            ("0.{0!,2!,3!}", "0.D!"),
            ("0.{0!,2!,3}", "0.{0,2!,3}"),
            ("0.{0!,2!,3!+}", "0.{0,2+}!"),
            ("0.{0!,2,3!+}", "0.{0,2,3!+}"),
            ("0.{0!,3+}", "0.{0,3+}"),
            ("0.{0,2!,4!+}", "0.{0,2,4+}!"),
            ("0.{0!,2!,4+}", "0.{0,2!,4+}"),
            ("0.{0!,2!,4?+}", "0.{0,2!,4?+}"),
            ("0.{0!,2?,4?+}", "0.{0,2,4+}?"),
            ("0.{0!,2=,4?+}", "0.{0,2=,4?+}"),
            ("0.{0!,2=,3?,4?+}", "0.{0,2=,3?+}"),
            ("0.{0!,2?,3?,4?+}", "0.{0,2+}?"),
            ("0.{0,1!,2,3,4+}", "0.*"),
            ("0.{0,1,2!,3!,4!+}", "0.*!"),
        ];
        for (code, normal) in table {
            assert_eq!(round_trip(code), normal, "{code}");
        }
    }

    #[test]
    fn subtraction_codes_as_cgsuite_writes_them() {
        assert_eq!(
            Code::from_subtraction(&[2, 3, 7], false).to_string(),
            "0.0330003"
        );
        assert_eq!(
            Code::from_subtraction(&[2, 3, 7], true).to_string(),
            "0.3003330[3]"
        );
        assert_eq!(Code::from_subtraction(&[], true).to_string(), "0.[3]");
    }

    #[test]
    fn digit_semantics() {
        let code = Code::parse("4!.07").unwrap();
        assert_eq!(code.digit(0).allows(2), Some(Constraint::Distinct));
        assert_eq!(code.digit(0).allows(1), None);
        assert_eq!(code.digit(2).allows(1), Some(Constraint::Free));
        assert!(code.digit(9).is_zero());
        assert_eq!(code.last_nonzero(), 2);
        assert_eq!(code.max_heaps(), Some(2));
        assert!(!code.is_octal());
        assert!(Code::parse("0.77").unwrap().is_octal());
        assert_eq!(Code::parse("0.F").unwrap().max_heaps(), Some(3));
        let nim = Code::parse("0.3[1]").unwrap();
        assert_eq!(nim.digit(1).allows(1), Some(Constraint::Free));
        assert_eq!(nim.digit(1000).allows(0), Some(Constraint::Free));
        assert_eq!(nim.digit(1000).allows(1), None);
        assert_eq!(nim.max_removal(), None);
        let tail = Code::parse("0.{0,1,3+}").unwrap();
        assert_eq!(tail.digit(1).allows(2), None);
        assert_eq!(tail.digit(1).allows(40), Some(Constraint::Free));
        assert_eq!(tail.max_heaps(), None);
        let add = Code::parse("80.0").unwrap();
        assert_eq!(add.digit(-1).allows(3), Some(Constraint::Free));
        assert_eq!(add.additive_len(), 1);
    }

    #[test]
    fn errors_have_spans_and_messages() {
        let err = |s: &str| Code::parse(s).unwrap_err();
        assert_eq!(err("").message, "empty code");
        assert_eq!(err("077").message, "a code needs a '.'");
        let e = err("0.0x7");
        assert_eq!(e.span, 3..4);
        assert!(e.message.starts_with("'x' is not a code digit"));
        assert_eq!(err("0.0.7").span, 3..4);
        assert_eq!(err("0.!7").message, "'!' must follow a digit");
        assert_eq!(err("1.7").span, 0..1);
        assert!(err("3.7").message.contains("digit 0"));
        // 4 before digit 0 adds a token and leaves two heaps, one as large as before.
        let e = err("40.7");
        assert_eq!(e.span, 0..1);
        assert!(e.message.contains("digit -1"), "{}", e.message);
        assert_eq!(err("20.017").span, 0..1);
        assert_eq!(err("0.7!!").span, 4..5);
        assert_eq!(err("0.7 ").message, "unexpected character ' ' in a code");
        assert_eq!(err("0.é").span, 2..4);
        assert_eq!(err("[3].0").span, 0..1);
        assert_eq!(err("0.[3").span, 2..3);
        assert_eq!(err("0.[3]3").span, 5..6);
        assert_eq!(err("0.[]").span, 3..4);
        assert_eq!(err("0.3]").span, 3..4);
        assert_eq!(err("0.{1,2").span, 2..3);
        assert_eq!(err("0.{1,,2}").span, 5..6);
        assert_eq!(err("0.{64}").span, 3..5);
        assert_eq!(err("0.{2+,3}").span, 4..5);
        assert_eq!(err("0.{3,2+}").span, 3..4);
        assert_eq!(err("0.{2!,3}?").span, 3..5);
        assert_eq!(err("0.&12").span, 2..3);
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
