//! The rules of a heap game, and the moves they allow from one heap.

use std::fmt;

use super::code::{Code, Constraint};

/// Rules for play on a single heap; a position is a sum of heaps under the same rules.
///
/// - `TakeBreak(code)`: a take-and-break code such as `0.07` or `4!.0`.
/// - `Subtraction(set)`: remove `k ∈ set` tokens (leaving one heap, or none).
/// - `AllBut(set)`: remove any `k ≥ 1` tokens with `k ∉ set`.
///
/// Sets are kept sorted without duplicates; `0` is never a move and is ignored.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HeapRules {
    TakeBreak(Code),
    Subtraction(Vec<usize>),
    AllBut(Vec<usize>),
}

impl HeapRules {
    /// The subtraction game `S(set)`; `0` is dropped (removing nothing is not a move).
    pub fn subtraction(set: impl IntoIterator<Item = usize>) -> HeapRules {
        HeapRules::Subtraction(normalise(set))
    }

    /// The all-but subtraction game: remove any positive number of tokens not in `set`.
    pub fn all_but(set: impl IntoIterator<Item = usize>) -> HeapRules {
        HeapRules::AllBut(normalise(set))
    }

    /// Every move from a heap of `n` tokens, each as the sorted list of nonzero heaps it
    /// leaves; no list appears twice. `out` is cleared first.
    pub fn options(&self, n: usize, out: &mut Vec<Vec<usize>>) {
        out.clear();
        let moves = Moves::new(self);
        if let Some(excluded) = &moves.all_but {
            for k in 1..=n {
                if excluded.binary_search(&k).is_err() {
                    out.push(if k == n { vec![] } else { vec![n - k] });
                }
            }
            return;
        }
        for &(d, bits) in &moves.take {
            if bits & 1 != 0 && n == d {
                out.push(vec![]);
            }
            if bits & 2 != 0 && n > d {
                out.push(vec![n - d]);
            }
        }
        for &(d, constraint) in &moves.split2 {
            let Some(s) = n.checked_sub(d) else { continue };
            for i in 1..=s / 2 {
                let heaps = [i, s - i];
                if constraint.allows(&heaps) {
                    out.push(heaps.to_vec());
                }
            }
        }
        for &(d, constraint) in &moves.split3 {
            let Some(s) = n.checked_sub(d) else { continue };
            for a in 1..=s / 3 {
                for b in a..=(s - a) / 2 {
                    let heaps = [a, b, s - a - b];
                    if constraint.allows(&heaps) {
                        out.push(heaps.to_vec());
                    }
                }
            }
        }
    }
}

fn normalise(set: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut set: Vec<usize> = set.into_iter().filter(|&k| k > 0).collect();
    set.sort_unstable();
    set.dedup();
    set
}

impl From<Code> for HeapRules {
    fn from(code: Code) -> HeapRules {
        HeapRules::TakeBreak(code)
    }
}

impl fmt::Display for HeapRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, name: &str, set: &[usize]| {
            write!(f, "{name}(")?;
            for (i, k) in set.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{k}")?;
            }
            f.write_str(")")
        };
        match self {
            HeapRules::TakeBreak(code) => write!(f, "{code}"),
            HeapRules::Subtraction(set) => list(f, "subtraction", set),
            HeapRules::AllBut(set) => list(f, "allbut", set),
        }
    }
}

/// The rules flattened into move lists by the number of heaps left, sorted by tokens removed.
#[derive(Clone, Debug, Default)]
pub(super) struct Moves {
    /// `(d, bits)`: remove `d`, bit 0 = may leave nothing (heap was exactly `d`),
    /// bit 1 = may leave one heap.
    pub take: Vec<(usize, u8)>,
    /// Remove `d` and split the rest into two nonempty heaps.
    pub split2: Vec<(usize, Constraint)>,
    /// Remove `d` and split the rest into three nonempty heaps.
    pub split3: Vec<(usize, Constraint)>,
    /// All-but rules: the excluded removals (sorted); the lists above are then empty.
    pub all_but: Option<Vec<usize>>,
}

impl Moves {
    pub fn new(rules: &HeapRules) -> Moves {
        let mut moves = Moves::default();
        match rules {
            HeapRules::TakeBreak(code) => {
                for (d, digit) in code.digits().iter().enumerate() {
                    // Digit 0 never takes: the parser rejects it, but stay safe.
                    let take = if d == 0 { 0 } else { digit.heaps & 3 };
                    if take != 0 {
                        moves.take.push((d, take));
                    }
                    if digit.heaps & 4 != 0 {
                        moves.split2.push((d, digit.constraint));
                    }
                    if digit.heaps & 8 != 0 {
                        moves.split3.push((d, digit.constraint));
                    }
                }
            }
            HeapRules::Subtraction(set) => {
                moves.take = normalise(set.iter().copied())
                    .into_iter()
                    .map(|d| (d, 3))
                    .collect();
            }
            HeapRules::AllBut(set) => moves.all_but = Some(normalise(set.iter().copied())),
        }
        moves
    }

    /// Largest number of tokens any move removes, if finite.
    pub fn max_removal(&self) -> Option<usize> {
        if self.all_but.is_some() {
            return None;
        }
        let take = self.take.iter().map(|m| m.0);
        let split = self.split2.iter().chain(&self.split3).map(|m| m.0);
        Some(take.chain(split).max().unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(rules: &HeapRules, n: usize) -> Vec<Vec<usize>> {
        let mut out = vec![vec![99]];
        rules.options(n, &mut out);
        out
    }

    #[test]
    fn kayles_options() {
        let kayles = HeapRules::from(Code::parse("0.77").unwrap());
        assert_eq!(options(&kayles, 0), Vec::<Vec<usize>>::new());
        assert_eq!(options(&kayles, 1), vec![vec![]]);
        assert_eq!(
            options(&kayles, 4),
            vec![vec![3], vec![2], vec![1, 2], vec![1, 1]]
        );
    }

    #[test]
    fn grundy_options_are_unequal_splits() {
        let grundy = HeapRules::from(Code::parse("4!.0").unwrap());
        assert_eq!(options(&grundy, 2), Vec::<Vec<usize>>::new());
        assert_eq!(options(&grundy, 6), vec![vec![1, 5], vec![2, 4]]);
    }

    #[test]
    fn three_heap_options() {
        let rules = HeapRules::from(Code::parse("8.0").unwrap());
        assert_eq!(options(&rules, 5), vec![vec![1, 1, 3], vec![1, 2, 2]]);
        let distinct = HeapRules::from(Code::parse("8!.0").unwrap());
        assert_eq!(options(&distinct, 6), vec![vec![1, 2, 3]]);
    }

    #[test]
    fn subtraction_and_all_but() {
        let s = HeapRules::subtraction([4, 1, 3, 0, 3]);
        assert_eq!(s, HeapRules::Subtraction(vec![1, 3, 4]));
        assert_eq!(s.to_string(), "subtraction(1, 3, 4)");
        assert_eq!(options(&s, 3), vec![vec![2], vec![]]);
        let a = HeapRules::all_but([2]);
        assert_eq!(a.to_string(), "allbut(2)");
        assert_eq!(options(&a, 3), vec![vec![2], vec![]]);
        // A hand-built set with 0 still never yields a pass.
        assert_eq!(
            options(&HeapRules::Subtraction(vec![0, 1]), 2),
            vec![vec![1]]
        );
    }
}
