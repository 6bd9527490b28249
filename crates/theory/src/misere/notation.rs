//! CGSuite's notation for misère canonical games (§5), both ways.
//!
//! Output: a game is peeled into a *base* and a chain of tokens — `#` ("the game whose only
//! option is"), `n` ("plus `*n`"), `-n` ("minus `*n`", a part) and `1` ("plus `*`") — and a
//! multi-option base prints its options' chains in descending canonical order. The printed
//! text is a tree over a DAG and can be exponentially long, so each game's step is memoised,
//! lengths are summed before anything is written, and the text is produced by one walk with an
//! explicit stack.
//!
//! Input: the same strings parse back (`*[2#0]`, `2[#-2]`, `(2#0)[1#]`, `&10;`).

use super::canonical::{Mid, MisereStore};
use super::{MisereError, Result};
use rustc_hash::FxHashMap;

/// Printed strings longer than this are refused (the text is a tree over a DAG).
pub const MAX_STRING: u64 = 20_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// `#`: the game `{Y}`.
    Sharp,
    /// `n`: `Y + *n` (`1` is `Y + *`).
    Plus(u32),
    /// `-n`: `Y − *n`.
    Minus(u32),
}

#[derive(Clone, Copy)]
enum Step {
    Base,
    Token(Token, Mid),
}

#[derive(Default)]
pub struct NotationCache {
    steps: FxHashMap<Mid, Step>,
    /// Length of `chain(x, paren = true)`.
    lengths: FxHashMap<Mid, u64>,
}

/// A chain: its base and its tokens in the order they are written (innermost first).
struct Chain {
    base: Mid,
    tokens: Vec<Token>,
}

fn num_len(n: u32) -> u64 {
    if n < 10 {
        1
    } else {
        n.to_string().len() as u64 + 2
    }
}

fn push_num(out: &mut String, n: u32) {
    if n < 10 {
        out.push(char::from(b'0' + n as u8));
    } else {
        out.push('&');
        out.push_str(&n.to_string());
        out.push(';');
    }
}

fn token_len(t: Token) -> u64 {
    match t {
        Token::Sharp => 1,
        Token::Plus(n) => num_len(n),
        Token::Minus(n) => 1 + num_len(n),
    }
}

impl MisereStore {
    /// One decomposition step of `x` (§5.1).
    fn step(&mut self, x: Mid) -> Result<Step> {
        if let Some(&s) = self.notation.steps.get(&x) {
            return Ok(s);
        }
        let s = self.compute_step(x)?;
        self.notation.steps.insert(x, s);
        Ok(s)
    }

    fn compute_step(&mut self, x: Mid) -> Result<Step> {
        if self.is_nim_heap(x) {
            return Ok(Step::Base);
        }
        let b = self.birthday(x);
        let first = if x.is_odd() { 3 } else { 2 };
        for i in (first..b).step_by(2) {
            let heap = self.nim(u64::from(i))?;
            match self.misere_minus(x, heap) {
                Ok(y) if self.birthday(y) < b => return Ok(Step::Token(Token::Plus(i), y)),
                Ok(_) | Err(MisereError::NotSubtractable(..)) => {}
                Err(e) => return Err(e),
            }
            let z = self.add(x, heap)?;
            if self.birthday(z) < b {
                return Ok(Step::Token(Token::Minus(i), z));
            }
        }
        if x.is_odd() {
            return Ok(Step::Token(Token::Plus(1), x.plus_star()));
        }
        if self.num_options(x) == 1 {
            return Ok(Step::Token(Token::Sharp, self.options(x)[0]));
        }
        Ok(Step::Base)
    }

    fn chain(&mut self, mut x: Mid) -> Result<Chain> {
        let mut tokens = Vec::new();
        loop {
            self.poll()?;
            match self.step(x)? {
                Step::Base => break,
                Step::Token(t, y) => {
                    tokens.push(t);
                    x = y;
                }
            }
        }
        tokens.reverse();
        Ok(Chain { base: x, tokens })
    }

    /// Length of `chain(x, paren)` without the parentheses a multi-option base may get.
    fn chain_len(&mut self, root: Mid) -> Result<u64> {
        let mut stack = vec![root];
        while let Some(&x) = stack.last() {
            self.poll()?;
            if self.notation.lengths.contains_key(&x) {
                stack.pop();
                continue;
            }
            let c = self.chain(x)?;
            let tokens: u64 = c.tokens.iter().map(|&t| token_len(t)).sum::<u64>()
                + if c.tokens.iter().any(|&t| t != Token::Sharp) {
                    2
                } else {
                    0
                };
            let len = if self.is_nim_heap(c.base) {
                num_len(self.birthday(c.base)) + tokens
            } else {
                let opts: Vec<Mid> = self.options(c.base).to_vec();
                let missing: Vec<Mid> = opts
                    .iter()
                    .copied()
                    .filter(|o| !self.notation.lengths.contains_key(o))
                    .collect();
                if !missing.is_empty() {
                    stack.extend(missing);
                    continue;
                }
                let inner: u64 = opts
                    .iter()
                    .map(|o| self.notation.lengths[o])
                    .fold(0u64, u64::saturating_add);
                inner.saturating_add(2).saturating_add(tokens)
            };
            self.notation.lengths.insert(x, len);
            stack.pop();
        }
        Ok(self.notation.lengths[&root])
    }

    /// The game in CGSuite's notation, `*[…]`.
    pub fn to_cgsuite(&mut self, g: Mid) -> Result<String> {
        let mut len = self.chain_len(g)?;
        let top = self.chain(g)?;
        if top.tokens.is_empty() && !self.is_nim_heap(top.base) {
            len -= 2; // a token-less top-level base has no parentheses
        }
        let len = len + 3;
        if len > MAX_STRING {
            return Err(MisereError::TooLarge {
                what: super::Limited::Printed,
                size: len,
                limit: MAX_STRING,
            });
        }
        let mut out = String::with_capacity(len as usize);
        out.push_str("*[");
        self.write_chain(g, false, &mut out)?;
        out.push(']');
        Ok(out)
    }

    /// The body of the notation (without `*[` … `]`), as the digest's tables list games.
    pub fn to_cgsuite_body(&mut self, g: Mid) -> Result<String> {
        let s = self.to_cgsuite(g)?;
        Ok(s[2..s.len() - 1].to_string())
    }

    fn write_chain(&mut self, root: Mid, root_paren: bool, out: &mut String) -> Result<()> {
        enum Work {
            Chain(Mid, bool),
            Text(&'static str),
            Tokens(Vec<Token>),
        }
        let mut work = vec![Work::Chain(root, root_paren)];
        while let Some(w) = work.pop() {
            self.poll()?;
            match w {
                Work::Text(t) => out.push_str(t),
                Work::Tokens(ts) => {
                    let bracket = ts.iter().any(|&t| t != Token::Sharp);
                    if bracket {
                        out.push('[');
                    }
                    for t in ts {
                        match t {
                            Token::Sharp => out.push('#'),
                            Token::Plus(n) => push_num(out, n),
                            Token::Minus(n) => {
                                out.push('-');
                                push_num(out, n);
                            }
                        }
                    }
                    if bracket {
                        out.push(']');
                    }
                }
                Work::Chain(x, paren) => {
                    let c = self.chain(x)?;
                    if !c.tokens.is_empty() {
                        work.push(Work::Tokens(c.tokens.clone()));
                    }
                    if self.is_nim_heap(c.base) {
                        push_num(out, self.birthday(c.base));
                        continue;
                    }
                    let wrap = paren || !c.tokens.is_empty();
                    if wrap {
                        work.push(Work::Text(")"));
                    }
                    // Options in descending order: pushed ascending, so popped descending.
                    for &o in self.options(c.base) {
                        work.push(Work::Chain(o, true));
                    }
                    if wrap {
                        out.push('(');
                    }
                }
            }
        }
        Ok(())
    }

    /// Parses CGSuite's notation: `*[2#0]`, or just the body `2#0`.
    pub fn parse_cgsuite(&mut self, text: &str) -> Result<Mid> {
        let body = text.trim();
        let (body, offset) = match body.strip_prefix("*[") {
            Some(rest) => match rest.strip_suffix(']') {
                Some(inner) => (inner, text.len() - text.trim_start().len() + 2),
                None => {
                    return Err(MisereError::Parse {
                        message: "`*[` is not closed by `]`".into(),
                        at: text.len(),
                    });
                }
            },
            None => (body, text.len() - text.trim_start().len()),
        };
        let bytes = body.as_bytes();
        let err = |message: &str, at: usize| MisereError::Parse {
            message: message.to_string(),
            at: offset + at,
        };
        // Groups of options under construction: the top level, then one per open `(`.
        let mut groups: Vec<(Vec<Mid>, usize)> = vec![(Vec::new(), 0)];
        // The chain being read, still open for `#` or `[…]`.
        let mut cur: Option<Mid> = None;
        let mut i = 0;
        let read_num = |i: &mut usize| -> std::result::Result<u32, MisereError> {
            match bytes.get(*i) {
                Some(c @ b'0'..=b'9') => {
                    *i += 1;
                    Ok(u32::from(c - b'0'))
                }
                Some(b'&') => {
                    let start = *i;
                    let end = body[start..]
                        .find(';')
                        .ok_or_else(|| err("`&` starts a number that `;` must end", start))?;
                    let n = body[start + 1..start + end]
                        .parse::<u32>()
                        .map_err(|_| err("expected a number between `&` and `;`", start))?;
                    *i = start + end + 1;
                    Ok(n)
                }
                _ => Err(err("expected a digit or `&n;`", *i)),
            }
        };
        while i < bytes.len() {
            self.poll()?;
            match bytes[i] {
                b'0'..=b'9' | b'&' => {
                    if let Some(g) = cur.take() {
                        groups.last_mut().expect("top group").0.push(g);
                    }
                    let n = read_num(&mut i)?;
                    cur = Some(self.nim(u64::from(n))?);
                }
                b'(' => {
                    if let Some(g) = cur.take() {
                        groups.last_mut().expect("top group").0.push(g);
                    }
                    groups.push((Vec::new(), i));
                    i += 1;
                }
                b')' => {
                    if groups.len() == 1 {
                        return Err(err("`)` without a matching `(`", i));
                    }
                    let (mut opts, _) = groups.pop().expect("checked");
                    opts.extend(cur.take());
                    cur = Some(self.construct(&opts));
                    i += 1;
                }
                b'#' => {
                    let g = cur.ok_or_else(|| err("`#` must follow a game", i))?;
                    cur = Some(self.construct(&[g]));
                    i += 1;
                }
                b'[' => {
                    let mut g = cur.ok_or_else(|| err("`[` must follow a game", i))?;
                    i += 1;
                    loop {
                        match bytes.get(i) {
                            Some(b']') => {
                                i += 1;
                                break;
                            }
                            Some(b'#') => {
                                g = self.construct(&[g]);
                                i += 1;
                            }
                            Some(b'-') => {
                                i += 1;
                                let n = read_num(&mut i)?;
                                let heap = self.nim(u64::from(n))?;
                                g = self.misere_minus(g, heap)?;
                            }
                            Some(_) => {
                                let n = read_num(&mut i)?;
                                let heap = self.nim(u64::from(n))?;
                                g = self.add(g, heap)?;
                            }
                            None => return Err(err("`[` is not closed by `]`", i)),
                        }
                    }
                    cur = Some(g);
                }
                b' ' => i += 1,
                _ => return Err(err("unexpected character in misère notation", i)),
            }
        }
        if groups.len() > 1 {
            return Err(err("`(` is not closed by `)`", groups[groups.len() - 1].1));
        }
        let (mut top, _) = groups.pop().expect("top group");
        top.extend(cur);
        Ok(match top.len() {
            1 => top[0],
            _ => self.construct(&top),
        })
    }
}
