//! Misère outcomes of sums of heaps by exhaustive search, for when no quotient covers them.
//!
//! A position is the multiset of its live heaps (heaps with no move are 0 and dropped),
//! largest first; outcomes are memoised per multiset. The search is the graph layer's
//! demand-driven walk, so deep games do not recurse on the native stack.

use super::Stop;
use super::game::{HeapGame, HeapOptions};
use loony_graph::demand::{self, Demand, Step};
use rustc_hash::FxHashMap;

/// A memo of misère outcomes for one heap game, kept across queries.
#[derive(Default)]
pub struct Searcher {
    opts: Option<HeapOptions>,
    /// Position → is it a misère P-position.
    memo: FxHashMap<Box<[u32]>, bool>,
}

struct Frame {
    pos: Box<[u32]>,
    options: Vec<Box<[u32]>>,
    next: usize,
    /// Whether an option seen so far is a P-position.
    p_option: bool,
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher::default()
    }

    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    fn ensure(&mut self, game: &mut dyn HeapGame, n: usize) -> Result<(), Stop> {
        let opts = self.opts.get_or_insert_with(HeapOptions::new);
        while opts.heaps() < n {
            let h = opts.heaps() + 1;
            opts.read(game, h)?;
        }
        Ok(())
    }

    /// Whether the sum of `heaps` is a misère P-position. At most `limit` positions are
    /// memoised.
    pub fn is_p(
        &mut self,
        game: &mut dyn HeapGame,
        heaps: &[usize],
        limit: usize,
        cancel: &dyn Fn() -> bool,
    ) -> Result<bool, Stop> {
        let max = heaps.iter().copied().max().unwrap_or(0);
        self.ensure(game, max)?;
        let opts = self.opts.as_ref().expect("read above");
        let start = normalise(opts, heaps.iter().map(|&h| h as u32).collect());
        if let Some(&r) = self.memo.get(&start) {
            return Ok(r);
        }
        let mut walk = Walk {
            opts,
            memo: &mut self.memo,
            limit,
            cancel,
        };
        demand::solve(&mut walk, start)
    }
}

/// The search as a demand-driven walk: a frame looks at its options in turn and stops at the
/// first P option.
struct Walk<'a> {
    opts: &'a HeapOptions,
    memo: &'a mut FxHashMap<Box<[u32]>, bool>,
    limit: usize,
    cancel: &'a dyn Fn() -> bool,
}

impl Demand for Walk<'_> {
    type Key = Box<[u32]>;
    type Frame = Frame;
    type Out = bool;
    type Error = Stop;

    fn known(&mut self, pos: &Box<[u32]>) -> Option<bool> {
        self.memo.get(pos).copied()
    }

    fn open(&mut self, pos: Box<[u32]>) -> Result<Frame, Stop> {
        Ok(frame(self.opts, pos))
    }

    fn step(&mut self, f: &mut Frame) -> Result<Step<Box<[u32]>>, Stop> {
        if f.p_option || f.next == f.options.len() {
            return Ok(Step::Done);
        }
        Ok(Step::Need(f.options[f.next].clone()))
    }

    fn take(&mut self, f: &mut Frame, is_p: bool) {
        // A P option settles this position as N.
        f.p_option |= is_p;
        f.next += 1;
    }

    fn finish(&mut self, f: Frame) -> Result<bool, Stop> {
        // No option is P: P iff there is a move at all.
        let r = !f.p_option && !f.options.is_empty();
        if self.memo.len() >= self.limit {
            return Err(Stop::TooLarge {
                elements: self.memo.len(),
                grew: super::Grew::Search,
            });
        }
        self.memo.insert(f.pos, r);
        Ok(r)
    }

    fn poll(&mut self) -> Result<(), Stop> {
        if (self.cancel)() {
            return Err(Stop::Interrupted);
        }
        Ok(())
    }
}

/// Drops dead heaps and sorts, largest first.
fn normalise(opts: &HeapOptions, mut heaps: Vec<u32>) -> Box<[u32]> {
    heaps.retain(|&h| h != 0 && !opts.of[h as usize].is_empty());
    heaps.sort_unstable_by(|a, b| b.cmp(a));
    heaps.into_boxed_slice()
}

fn frame(opts: &HeapOptions, pos: Box<[u32]>) -> Frame {
    let mut options = Vec::new();
    for (i, &h) in pos.iter().enumerate() {
        if i > 0 && pos[i - 1] == h {
            continue;
        }
        for o in &opts.of[h as usize] {
            let mut v: Vec<u32> = pos[..i].iter().chain(&pos[i + 1..]).copied().collect();
            v.extend_from_slice(o);
            options.push(normalise(opts, v));
        }
    }
    options.sort_unstable();
    options.dedup();
    Frame {
        pos,
        options,
        next: 0,
        p_option: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::{Code, HeapRules};

    #[test]
    fn misere_nim_and_kayles() {
        // Nim = all-but(∅): P iff (some heap > 1 and xor 0) or (all ≤ 1 and xor 1).
        let mut nim = HeapRules::all_but([]);
        let mut s = Searcher::new();
        for heaps in [vec![1], vec![1, 1, 1], vec![2, 2], vec![1, 2, 3]] {
            assert!(
                s.is_p(&mut nim, &heaps, 1 << 20, &|| false).unwrap(),
                "{heaps:?}"
            );
        }
        for heaps in [vec![], vec![1, 1], vec![2], vec![1, 2, 2]] {
            assert!(
                !s.is_p(&mut nim, &heaps, 1 << 20, &|| false).unwrap(),
                "{heaps:?}"
            );
        }
        // Misère Kayles single-heap P-positions ≤ 40 are 1 4 9 12 20 (digest §6).
        let mut kayles = HeapRules::from(Code::parse("0.77").unwrap());
        let mut s = Searcher::new();
        let p: Vec<usize> = (1..=25)
            .filter(|&n| s.is_p(&mut kayles, &[n], 1 << 22, &|| false).unwrap())
            .collect();
        assert_eq!(p, [1, 4, 9, 12, 20]);
    }
}
