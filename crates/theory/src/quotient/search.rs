//! Misère outcomes of sums of heaps by exhaustive search, for when no quotient covers them.
//!
//! A position is the multiset of its live heaps (heaps with no move are 0 and dropped),
//! largest first; outcomes are memoised per multiset. The search keeps its own stack, so deep
//! games do not recurse on the native stack.

use super::Stop;
use super::game::{HeapGame, HeapOptions};
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
        let mut stack = vec![frame(opts, start.clone())];
        let mut steps = 0usize;
        while let Some(top) = stack.last_mut() {
            steps += 1;
            if steps.is_multiple_of(4096) && cancel() {
                return Err(Stop::Interrupted);
            }
            // Look at the options in turn; a P option settles this position as N.
            let mut result = None;
            while top.next < top.options.len() {
                match self.memo.get(&top.options[top.next]) {
                    Some(true) => {
                        result = Some(false);
                        break;
                    }
                    Some(false) => top.next += 1,
                    None => break,
                }
            }
            if result.is_none() && top.next == top.options.len() {
                // No option is P: P iff there is a move at all.
                result = Some(!top.options.is_empty());
            }
            match result {
                Some(r) => {
                    let done = stack.pop().expect("nonempty");
                    if self.memo.len() >= limit {
                        return Err(Stop::TooLarge {
                            elements: self.memo.len(),
                        });
                    }
                    self.memo.insert(done.pos, r);
                }
                None => {
                    let child = top.options[top.next].clone();
                    stack.push(frame(opts, child));
                }
            }
        }
        Ok(self.memo[&start])
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
