//! Games born by day n (§6): every game born by day n + 1 is `{S}` for a set S of games born by
//! day n, and distinct simplest forms are distinct games. Day 5 has 4 171 780 games: counted by
//! running the simplification rules on all 2²² option sets of the 22 day-4 games, without
//! interning the results (a set that does not simplify is a new game, and new games from
//! different sets differ).

use super::canonical::{Mid, MisereStore};
use super::{MisereError, Result};
use rustc_hash::FxHashSet;

/// Option sets of more games than this are not enumerated (2^26 sets).
const MAX_ENUMERATED: usize = 26;

impl MisereStore {
    /// The games born by day `n`, in ascending canonical order; only up to day 4 (day 5 has
    /// millions of games: count them with [`MisereStore::count_born_by`]).
    pub fn born_by(&mut self, n: u32) -> Result<Vec<Mid>> {
        if n > 4 {
            return Err(MisereError::TooLarge {
                what: super::Limited::DayListed,
                size: n.into(),
                limit: 4,
            });
        }
        let mut games = vec![Mid::ZERO];
        for _ in 0..n {
            let mut next = FxHashSet::default();
            let mut opts = Vec::new();
            for mask in 0u32..(1 << games.len()) {
                self.poll()?;
                opts.clear();
                opts.extend(
                    (0..games.len())
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| games[i]),
                );
                next.insert(self.construct(&opts));
            }
            games = next.into_iter().collect();
            games.sort_by(|&a, &b| self.cmp_canonical(a, b));
        }
        Ok(games)
    }

    /// How many games are born by day `n` (up to day 5).
    pub fn count_born_by(&mut self, n: u32) -> Result<u64> {
        if n <= 4 {
            return Ok(self.born_by(n)?.len() as u64);
        }
        if n > 5 {
            return Err(MisereError::TooLarge {
                what: super::Limited::DayCounted,
                size: n.into(),
                limit: 5,
            });
        }
        let mut prev = self.born_by(n - 1)?;
        if prev.len() > MAX_ENUMERATED {
            return Err(MisereError::TooLarge {
                what: super::Limited::Enumerated,
                size: prev.len() as u64,
                limit: MAX_ENUMERATED as u64,
            });
        }
        // Sets are built in id order, as `reduce` wants them.
        prev.sort_unstable();
        let mut new_games: u64 = 0;
        let mut old_games = FxHashSet::default();
        let mut opts = Vec::with_capacity(prev.len());
        for mask in 0u64..(1 << prev.len()) {
            if mask % 4096 == 0 {
                self.check_cancel()?;
            }
            opts.clear();
            let mut m = mask;
            while m != 0 {
                opts.push(prev[m.trailing_zeros() as usize]);
                m &= m - 1;
            }
            match self.reduce(&opts) {
                Some(g) => {
                    old_games.insert(g);
                }
                None => new_games += 1,
            }
        }
        Ok(new_games + old_games.len() as u64)
    }
}
