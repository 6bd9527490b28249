//! The input: a heap game, given by the moves of each heap as lists of smaller heaps.

use super::Stop;
use crate::heap::{Code, HeapRules};

/// How a game's partial quotients can be certified for good (see `periodicity`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// Moves remove at most `d` tokens and leave at most `k` heaps (take-and-break codes
    /// without constraints, subtraction games).
    Octal { d: usize, k: usize },
    /// Remove any number of tokens except those in a finite set whose largest is `e`.
    AllBut { e: usize },
}

/// A heap game: positions are sums of heaps H_1, H_2, …; a move replaces one heap by a sum of
/// smaller heaps.
pub trait HeapGame {
    /// The moves of heap `n` (n ≥ 1), each as the list of nonzero heaps it leaves, all `< n`.
    /// `out` is cleared first. Errors stop the computation with their message.
    fn options(&mut self, n: usize, out: &mut Vec<Vec<usize>>) -> Result<(), String>;

    /// The periodicity certificate this game admits, if any.
    fn certificate(&self) -> Option<Certificate>;
}

impl HeapGame for HeapRules {
    fn options(&mut self, n: usize, out: &mut Vec<Vec<usize>>) -> Result<(), String> {
        HeapRules::options(self, n, out);
        Ok(())
    }

    fn certificate(&self) -> Option<Certificate> {
        match self {
            HeapRules::TakeBreak(code) => octal_certificate(code),
            HeapRules::Subtraction(set) => Some(Certificate::Octal {
                d: set.iter().copied().max().unwrap_or(0),
                k: 1,
            }),
            HeapRules::AllBut(set) => Some(Certificate::AllBut {
                e: set.iter().copied().max().unwrap_or(0),
            }),
        }
    }
}

/// Codes with constraints (`!`, `?`, `=`) break the correspondence between the splits of
/// H_M and H_{M−p} that the periodicity proof uses, so they get none.
fn octal_certificate(code: &Code) -> Option<Certificate> {
    // Digits that add tokens or repeat (unbounded removals) are outside the theorem too.
    if code.additive_len() > 0 {
        return None;
    }
    let free = code.digits().iter().all(|d| {
        (2..d.counts_len()).all(|r| {
            d.allows(r)
                .is_none_or(|c| c == crate::heap::Constraint::Free)
        })
    });
    match (code.max_removal(), code.max_heaps()) {
        (Some(d), Some(heaps)) if free => Some(Certificate::Octal { d, k: heaps.max(1) }),
        _ => None,
    }
}

/// A game given by explicit option lists (heap `n`'s moves at index `n`), e.g. read from a
/// user ruleset up to a bound.
#[derive(Clone, Debug, Default)]
pub struct Listed {
    pub moves: Vec<Vec<Vec<usize>>>,
}

impl HeapGame for Listed {
    fn options(&mut self, n: usize, out: &mut Vec<Vec<usize>>) -> Result<(), String> {
        out.clear();
        match self.moves.get(n) {
            Some(m) => {
                out.extend(m.iter().cloned());
                Ok(())
            }
            None => Err(format!("the moves of heap {n} were not listed")),
        }
    }

    fn certificate(&self) -> Option<Certificate> {
        None
    }
}

/// The options of every heap read so far, as heap lists (`of[h]`, `of[0]` empty).
#[derive(Clone, Debug, Default)]
pub struct HeapOptions {
    pub of: Vec<Vec<Box<[u32]>>>,
}

impl HeapOptions {
    pub fn new() -> HeapOptions {
        HeapOptions {
            of: vec![Vec::new()],
        }
    }

    /// Reads heap `n`'s moves (the next heap), checking that they leave smaller heaps.
    pub fn read(&mut self, game: &mut dyn HeapGame, n: usize) -> Result<(), Stop> {
        debug_assert_eq!(self.of.len(), n);
        let mut raw = Vec::new();
        game.options(n, &mut raw).map_err(Stop::Game)?;
        let mut list: Vec<Box<[u32]>> = Vec::with_capacity(raw.len());
        let mut seen: rustc_hash::FxHashSet<Box<[u32]>> = Default::default();
        for mut heaps in raw {
            heaps.retain(|&k| k != 0);
            if let Some(&bad) = heaps.iter().find(|&&k| k >= n) {
                return Err(Stop::Game(format!(
                    "a move from heap {n} leaves a heap of {bad}, which is not smaller"
                )));
            }
            heaps.sort_unstable_by(|a, b| b.cmp(a));
            let heaps: Box<[u32]> = heaps.iter().map(|&k| k as u32).collect();
            if seen.insert(heaps.clone()) {
                list.push(heaps);
            }
        }
        self.of.push(list);
        Ok(())
    }

    pub fn heaps(&self) -> usize {
        self.of.len() - 1
    }
}
