//! Misère play of impartial short games: Conway's simplest (canonical) forms, genus, the phyla
//! (tame, restive, restless, …), parts and partitions, mates, distinguishers and links, and
//! CGSuite's notation for all of them, string for string.
//!
//! Everything lives in one hash-consed [`MisereStore`] of canonical forms with `u32` ids
//! ([`Mid`]). As in CGSuite, games come in pairs: an even game has an even id and the odd game
//! `G + *` the next id, so `+ *` and "even part" are bit operations. Every value enters the
//! store through [`MisereStore::construct`], which applies the simplification rules, so equal
//! games have equal ids.
//!
//! The theory is in `/work/shared/theory/misere-canonical.md` (ONAG ch. 12, Winning Ways ch. 13,
//! CGSuite's `MisereCanonicalGameOps`); section numbers in comments refer to that digest.
//! The engine owns no walk over other games: the evaluator folds the position-graph layer's
//! components through [`MisereStore::fold`].

pub mod canonical;
pub mod convert;
pub mod day;
pub mod genus;
pub mod notation;
pub mod ops;
pub mod outcome;
pub mod parts;
pub mod phylum;

#[cfg(test)]
mod tests;

pub use canonical::{Mid, MisereStore};
pub use convert::Shape;
pub use genus::Genus;
pub use outcome::MisereOutcome;
pub use phylum::Phylum;

/// Why a misère computation stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MisereError {
    /// The user asked to stop (Ctrl-C).
    Interrupted,
    /// A nim heap, or a printed string, beyond what the engine builds.
    TooLarge {
        what: Limited,
        size: u64,
        limit: u64,
    },
    /// `misere_minus(g, h)`: `h` is not a part of `g`.
    NotSubtractable(Mid, Mid),
    /// `link(g, h)`: the games are not linked (one is an option of the other).
    NotLinked(Mid, Mid),
    /// `distinguisher(g, g)`: no game tells a game from itself.
    Identical(Mid),
    /// A string in CGSuite's notation that does not parse.
    Parse { message: String, at: usize },
    /// One computation created more games than its budget allows.
    Budget(usize),
}

/// What went past one of the engine's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limited {
    NimHeap,
    /// A game's CGSuite string.
    Printed,
    DayListed,
    DayCounted,
    /// The games whose option sets are enumerated for the next day.
    Enumerated,
}

pub type Result<T> = std::result::Result<T, MisereError>;

/// Minimum excluded value of `values` (a word mask for small values, a sort otherwise).
pub(crate) fn mex(values: &mut [u32]) -> u32 {
    let mut small = 0u64;
    let mut big = false;
    for &v in values.iter() {
        if v < 64 {
            small |= 1 << v;
        } else {
            big = true;
        }
    }
    if small != u64::MAX || !big {
        return (!small).trailing_zeros();
    }
    values.sort_unstable();
    let mut m = 0;
    for &v in values.iter() {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

#[cfg(test)]
mod mex_tests {
    #[test]
    fn mex_small_and_large() {
        assert_eq!(super::mex(&mut []), 0);
        assert_eq!(super::mex(&mut [1, 2]), 0);
        assert_eq!(super::mex(&mut [0, 2, 1, 4]), 3);
        let mut all: Vec<u32> = (0..70).rev().collect();
        assert_eq!(super::mex(&mut all), 70);
        let mut gap: Vec<u32> = (0..70).filter(|&v| v != 66).collect();
        assert_eq!(super::mex(&mut gap), 66);
    }
}
