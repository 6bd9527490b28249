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
        self.try_options(n, out, usize::MAX);
    }

    /// [`HeapRules::options`], giving up (and returning `false`) once more than `limit`
    /// moves are found: with many-heap digits a heap can have astronomically many.
    pub fn try_options(&self, n: usize, out: &mut Vec<Vec<usize>>, limit: usize) -> bool {
        out.clear();
        match self {
            HeapRules::TakeBreak(code) => code_options(code, n, out, limit),
            HeapRules::Subtraction(set) => {
                for &k in set.iter().filter(|&&k| k > 0).take_while(|&&k| k <= n) {
                    out.push(if k == n { vec![] } else { vec![n - k] });
                }
                true
            }
            HeapRules::AllBut(excluded) => {
                for k in 1..=n {
                    if excluded.binary_search(&k).is_err() {
                        out.push(if k == n { vec![] } else { vec![n - k] });
                    }
                }
                true
            }
        }
    }

    /// The rules as a take-and-break code (CGSuite's view of subtraction games).
    pub fn code(&self) -> Code {
        match self {
            HeapRules::TakeBreak(code) => code.clone(),
            HeapRules::Subtraction(set) => Code::from_subtraction(set, false),
            HeapRules::AllBut(set) => Code::from_subtraction(set, true),
        }
    }
}

/// The moves of a code from heap `n`, in CGSuite's order: by tokens removed (added tokens
/// first), then by number of heaps, then the heaps in lexicographic order.
fn code_options(code: &Code, n: usize, out: &mut Vec<Vec<usize>>, limit: usize) -> bool {
    let first = -(code.additive_len() as isize);
    for j in first..=n as isize {
        let digit = code.digit(j);
        if digit.is_zero() {
            continue;
        }
        let s = (n as isize - j) as usize;
        let top = digit.max_count().map_or(s, |m| m.min(s));
        for r in 0..=top {
            let Some(constraint) = digit.allows(r) else {
                continue;
            };
            if r == 0 {
                if s == 0 {
                    out.push(vec![]);
                }
                continue;
            }
            let room = limit - out.len();
            if !partitions(s, r, constraint, &mut |p| out.push(p.to_vec()), room) {
                return false;
            }
            if out.len() > limit {
                return false;
            }
        }
    }
    true
}

/// Calls `visit` on every partition of `s` into `r >= 1` positive parts (sorted ascending,
/// in lexicographic order) allowed by `constraint`; `false` if more than `limit` were found.
/// Iterative: the next partition comes from the rightmost part that can grow.
pub(super) fn partitions(
    s: usize,
    r: usize,
    constraint: Constraint,
    visit: &mut dyn FnMut(&[usize]),
    limit: usize,
) -> bool {
    if r == 0 || s < r {
        return true;
    }
    if constraint == Constraint::AllEqual {
        if s.is_multiple_of(r) {
            visit(&vec![s / r; r]);
        }
        return limit >= 1 || !s.is_multiple_of(r);
    }
    let mut parts = vec![1; r];
    parts[r - 1] = s - (r - 1);
    let mut found = 0usize;
    loop {
        if constraint.allows(&parts) {
            found += 1;
            if found > limit {
                return false;
            }
            visit(&parts);
        }
        // Grow part i by one, make the parts after it as small as allowed, the last takes
        // the rest (it must stay the largest).
        let mut advanced = false;
        let mut rest = parts[r - 1];
        for i in (0..r - 1).rev() {
            rest += parts[i];
            let grown = parts[i] + 1;
            if grown * (r - i) <= rest {
                for p in &mut parts[i..r - 1] {
                    *p = grown;
                }
                parts[r - 1] = rest - grown * (r - 1 - i);
                advanced = true;
                break;
            }
        }
        if !advanced {
            return true;
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
    /// A code beyond the fast kernels (periods, added tokens, many heaps): the general
    /// kernel plays it; the lists above are then empty.
    pub general: Option<Code>,
}

impl Moves {
    pub fn new(rules: &HeapRules) -> Moves {
        let mut moves = Moves::default();
        match rules {
            HeapRules::TakeBreak(code) if code.is_hexadecimal() => {
                for (d, digit) in code.digits().iter().enumerate() {
                    // Digit 0 never takes: the parser rejects it, but stay safe.
                    let take = if d == 0 {
                        0
                    } else {
                        u8::from(digit.allows(0).is_some())
                            | u8::from(digit.allows(1).is_some()) << 1
                    };
                    if take != 0 {
                        moves.take.push((d, take));
                    }
                    if let Some(c) = digit.allows(2) {
                        moves.split2.push((d, c));
                    }
                    if let Some(c) = digit.allows(3) {
                        moves.split3.push((d, c));
                    }
                }
            }
            HeapRules::TakeBreak(code) => moves.general = Some(code.clone()),
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
        if let Some(code) = &self.general {
            return code.max_removal();
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
        assert_eq!(options(&kayles, 1), vec![Vec::<usize>::new()]);
        assert_eq!(
            options(&kayles, 4),
            vec![vec![3], vec![1, 2], vec![2], vec![1, 1]]
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

    /// CGSuite's traversal table (TBCodeTest.scala): every move of a heap, in its order.
    #[test]
    fn cgsuite_traversals() {
        let table = [
            ("0.3", 9, "8"),
            ("0.7", 9, "8  1,7  2,6  3,5  4,4"),
            ("0.77", 9, "8  1,7  2,6  3,5  4,4  7  1,6  2,5  3,4"),
            ("4.0", 8, "1,7  2,6  3,5  4,4"),
            ("4!.0", 8, "1,7  2,6  3,5"),
            ("0.3F", 9, "8  7  1,6  2,5  3,4  1,1,5  1,2,4  1,3,3  2,2,3"),
            (
                "0.3F?",
                9,
                "8  7  1,6  2,5  3,4  1,1,5  1,2,4  1,3,3  2,2,3",
            ),
            ("0.3F!", 9, "8  7  1,6  2,5  3,4  1,2,4"),
            (
                "0.3f",
                11,
                "10  9  1,8  2,7  3,6  4,5  1,1,7  1,2,6  1,3,5  1,4,4  2,2,5  2,3,4  3,3,3",
            ),
            (
                "0.3f?",
                11,
                "10  9  1,8  2,7  3,6  4,5  1,1,7  1,2,6  1,3,5  1,4,4  2,2,5  2,3,4",
            ),
            (
                "0.3f!",
                11,
                "10  9  1,8  2,7  3,6  4,5  1,2,6  1,3,5  2,3,4",
            ),
            (
                "0.*3",
                7,
                "6  1,5  2,4  3,3  1,1,4  1,2,3  2,2,2  1,1,1,3  1,1,2,2  1,1,1,1,2  1,1,1,1,1,1  5",
            ),
            (
                "0.*?3",
                7,
                "6  1,5  2,4  1,1,4  1,2,3  1,1,1,3  1,1,2,2  1,1,1,1,2  5",
            ),
            ("0.*!3", 7, "6  1,5  2,4  1,2,3  5"),
            ("0.[3]", 7, "6  5  4  3  2  1  -"),
            ("0.[2]", 7, "6  5  4  3  2  1"),
            ("0.3[1]", 7, "6  -"),
            ("0.7[03]", 7, "6  1,5  2,4  3,3  4  2  -"),
            ("80.0", 7, "1,1,6  1,2,5  1,3,4  2,2,4  2,3,3"),
            ("0.*=", 11, "10  5,5  2,2,2,2,2  1,1,1,1,1,1,1,1,1,1"),
            ("{2+}=.0", 10, "5,5  2,2,2,2,2  1,1,1,1,1,1,1,1,1,1"),
            ("0.{0,1,3+}", 1, "-"),
            ("0.{0,1,3+}", 2, "1"),
            (
                "0.{0,1,3+}",
                7,
                "6  1,1,4  1,2,3  2,2,2  1,1,1,3  1,1,2,2  1,1,1,1,2  1,1,1,1,1,1",
            ),
            ("0.{1,3+}", 1, ""),
            (
                "0.{2,3?+}",
                7,
                "1,5  2,4  3,3  1,1,4  1,2,3  1,1,1,3  1,1,2,2  1,1,1,1,2",
            ),
        ];
        for (code, n, expected) in table {
            let rules = HeapRules::from(Code::parse(code).unwrap());
            let shown: Vec<String> = options(&rules, n)
                .iter()
                .map(|heaps| {
                    if heaps.is_empty() {
                        "-".to_string()
                    } else {
                        heaps
                            .iter()
                            .map(|h| h.to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    }
                })
                .collect();
            assert_eq!(shown.join("  "), expected, "{code} at {n}");
        }
    }

    /// Option counts of heap 20 from CGSuite's GameHeapTest.scala.
    #[test]
    fn cgsuite_option_counts() {
        let code = |s: &str| HeapRules::from(Code::parse(s).unwrap());
        for (rules, count) in [
            (code("0.[3]"), 20),
            (code("4!.0"), 9),
            (code("0.77"), 20),
            (code("0.07"), 10),
            (HeapRules::subtraction([2, 3, 7]), 3),
            (code("0.0330003"), 3),
            (HeapRules::all_but([2, 3, 7]), 17),
            (code("0.3003330[3]"), 17),
            (code("0.3F"), 38),
        ] {
            assert_eq!(options(&rules, 20).len(), count, "{rules}");
        }
    }

    #[test]
    fn try_options_gives_up_past_the_limit() {
        let star = HeapRules::from(Code::parse("0.*").unwrap());
        let mut out = Vec::new();
        assert!(!star.try_options(60, &mut out, 1000));
        assert!(star.try_options(8, &mut out, 1000));
        // Partitions of 7 into any number of parts: 15.
        assert_eq!(out.len(), 15);
    }
}
