//! The one value type for everything printed, and the one outcome type.
//!
//! Seed 001 (Corollary 8) classes the sums of loopy games with nimber-valued entailing games,
//! the literal moon and the special moons: every such game is exactly one of `*k`, `☾`,
//! `⟫(n)` or `∞(A)`, and Table 1 adds them. Games outside that algebra get a class that says
//! so, and their outcome is found by exact search instead.

use std::fmt;
use std::rc::Rc;

/// Who wins: the previous or next player, Left or Right whoever starts, or nobody (a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The previous player wins.
    P,
    /// The next player wins.
    N,
    /// Left wins whoever starts.
    L,
    /// Right wins whoever starts.
    R,
    /// Neither player can force a win (loopy games).
    D,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::P => "P",
            Outcome::N => "N",
            Outcome::L => "L",
            Outcome::R => "R",
            Outcome::D => "D",
        })
    }
}

/// Why a game has no class in seed 001's algebra.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outside {
    /// A sum of a loopy component with an entailing component equal to ☾ that is neither the
    /// literal moon nor a special moon (seed 001 §2, the end: such moons split further).
    MoonBesideLoopy,
    /// A position with both entailing moves and cycles among its followers (seed 001's
    /// "future work").
    LoopyAndEntailing,
}

/// The value of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// `*k`: a normal-play, loopy or entailing game equal to a nimber.
    Nimber(u32),
    /// `☾`: the moon, absorbing (the first player moves to ∞, or checks where no answer exists).
    Moon,
    /// `⟫(n)`: a special moon `{{∞ | *n}, A | A, {*n | ∞̄}}` (seed 001 Def. 22).
    SpecialMoon(u32),
    /// `∞(A)`: a loopy game whose finite options are A (sorted, distinct).
    Loopy(Rc<[u32]>),
    /// Equal to ☾ among entailing (affine impartial) games, but neither the literal moon nor a
    /// special moon: seed 001 gives it no class beside loopy games.
    EntailingMoon,
    /// `∞`: Left has won.
    LeftWin,
    /// `∞̄`: Right has won.
    RightWin,
    /// Not impartial: no impartial value (its outcome still exists).
    Partizan,
    /// The theory does not determine the value.
    Undetermined(Outside),
}

impl Class {
    pub fn loopy(mut a: Vec<u32>) -> Class {
        a.sort_unstable();
        a.dedup();
        Class::Loopy(a.into())
    }

    /// `Some(k)` for `*k`.
    pub fn nimber(&self) -> Option<u32> {
        match self {
            Class::Nimber(k) => Some(*k),
            _ => None,
        }
    }

    /// The value modulo affine impartial games (seed 000): the nimbers and ☾. `None` for
    /// games that are not entailing-and-short (loopy, partizan, undetermined).
    pub fn affine(&self) -> Option<Class> {
        match self {
            Class::Nimber(k) => Some(Class::Nimber(*k)),
            Class::Moon | Class::SpecialMoon(_) | Class::EntailingMoon => Some(Class::Moon),
            _ => None,
        }
    }

    /// The outcome, where the class alone decides it (seed 001 Theorems 3 and 12).
    pub fn outcome(&self) -> Option<Outcome> {
        Some(match self {
            Class::Nimber(0) => Outcome::P,
            Class::Nimber(_) | Class::Moon | Class::SpecialMoon(_) | Class::EntailingMoon => {
                Outcome::N
            }
            Class::Loopy(a) if a.contains(&0) => Outcome::N,
            Class::Loopy(_) => Outcome::D,
            Class::LeftWin => Outcome::L,
            Class::RightWin => Outcome::R,
            Class::Partizan | Class::Undetermined(_) => return None,
        })
    }

    /// Does the class have a printed value?
    pub fn is_determined(&self) -> bool {
        !matches!(self, Class::Partizan | Class::Undetermined(_))
    }

    /// The disjunctive sum (seed 001 Theorem 5, Theorem 13 and Table 1; seed 000's ☾
    /// absorbing among entailing games).
    pub fn add(&self, other: &Class) -> Class {
        sum([self, other])
    }
}

/// The class of a sum of components of the given classes.
pub fn sum<'a>(parts: impl IntoIterator<Item = &'a Class>) -> Class {
    let mut k = 0u32; // nim-sum of the nimbers and the special moons' n
    let mut specials = 0usize;
    let mut loopy: Option<Rc<[u32]>> = None;
    let mut loopies = 0usize;
    let (mut moon, mut other_moon, mut partizan) = (false, false, false);
    let (mut left, mut right) = (false, false);
    let mut undetermined = None;
    for p in parts {
        match p {
            Class::Nimber(n) => k ^= n,
            Class::SpecialMoon(n) => {
                k ^= n;
                specials += 1;
            }
            Class::Loopy(a) => {
                loopies += 1;
                loopy = Some(a.clone());
            }
            Class::Moon => moon = true,
            Class::EntailingMoon => other_moon = true,
            Class::LeftWin => left = true,
            Class::RightWin => right = true,
            Class::Partizan => partizan = true,
            Class::Undetermined(why) => undetermined = Some(*why),
        }
    }
    // The infinities end the game (seed 001 Axiom 1); ∞ + ∞̄ is refused before a sum exists.
    if left {
        return Class::LeftWin;
    }
    if right {
        return Class::RightWin;
    }
    if partizan {
        return Class::Partizan;
    }
    // o(☾ + X) = N for every X: the mover plays ∞ (seed 001 Corollary 3).
    if moon {
        return Class::Moon;
    }
    if let Some(why) = undetermined {
        return Class::Undetermined(why);
    }
    if other_moon {
        return if loopies > 0 {
            Class::Undetermined(Outside::MoonBesideLoopy)
        } else {
            Class::EntailingMoon
        };
    }
    match (loopies, loopy) {
        (0, _) if specials > 0 => Class::SpecialMoon(k),
        (0, _) => Class::Nimber(k),
        (1, Some(a)) => Class::loopy(a.iter().map(|x| x ^ k).collect()),
        _ => Class::Loopy(Rc::from(Vec::new())),
    }
}

/// How values are spelled: Unicode by default, ASCII for `--ascii`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Spelling {
    pub ascii: bool,
}

pub fn nimber(n: u32) -> String {
    let mut s = String::new();
    write_nimber(n, &mut s);
    s
}

/// `0`, `*`, `*2`.
fn write_nimber(n: u32, out: &mut String) {
    use std::fmt::Write;
    match n {
        0 => out.push('0'),
        1 => out.push('*'),
        n => {
            let _ = write!(out, "*{n}");
        }
    }
}

/// `∞(0,1,2)`, `∞(∅)`; ASCII `inf(0,1,2)`, `inf()`.
pub fn loopy(a: &[u32], ascii: bool) -> String {
    let mut s = String::with_capacity(6 + 3 * a.len());
    write_loopy(a, ascii, &mut s);
    s
}

fn write_loopy(a: &[u32], ascii: bool, out: &mut String) {
    use std::fmt::Write;
    if a.is_empty() && !ascii {
        out.push_str("∞(∅)");
        return;
    }
    out.push_str(if ascii { "inf(" } else { "∞(" });
    for (i, x) in a.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{x}");
    }
    out.push(')');
}

/// `⟫(3)`; ASCII `moon(3)`.
pub fn special_moon(n: u32, ascii: bool) -> String {
    if ascii {
        format!("moon({n})")
    } else {
        format!("⟫({n})")
    }
}

impl Class {
    /// The printed value; `None` for classes without one.
    pub fn show(&self, ascii: bool) -> Option<String> {
        let mut s = String::new();
        self.show_into(ascii, &mut s).then_some(s)
    }

    /// Appends the printed value to `out` (a list of a million values prints into one
    /// string); `false`, and nothing written, for classes without one.
    pub fn show_into(&self, ascii: bool, out: &mut String) -> bool {
        match self {
            Class::Nimber(n) => write_nimber(*n, out),
            Class::Moon | Class::EntailingMoon => out.push_str(if ascii { "moon" } else { "☾" }),
            Class::SpecialMoon(n) => out.push_str(&special_moon(*n, ascii)),
            Class::Loopy(a) => write_loopy(a, ascii, out),
            Class::LeftWin => out.push_str(if ascii { "inf" } else { "∞" }),
            Class::RightWin => out.push_str(if ascii { "-inf" } else { "∞̄" }),
            Class::Partizan | Class::Undetermined(_) => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inf(a: &[u32]) -> Class {
        Class::loopy(a.to_vec())
    }

    #[test]
    fn table_1() {
        use Class::*;
        // Rows and columns of seed 001 Table 1 with k1 = 1, k2 = 2, n1 = 3, n2 = 5,
        // B1 = {0, 4}, B2 = {1, 6}.
        let row = [Moon, Nimber(2), SpecialMoon(5), inf(&[1, 6])];
        let col = [Moon, Nimber(1), SpecialMoon(3), inf(&[0, 4])];
        let want = [
            [Moon, Moon, Moon, Moon],
            [Moon, Nimber(3), SpecialMoon(1), inf(&[2, 6])],
            [Moon, SpecialMoon(4), SpecialMoon(6), inf(&[5, 1])],
            [Moon, inf(&[0, 7]), inf(&[2, 5]), inf(&[])],
        ];
        for (i, r) in row.iter().enumerate() {
            for (j, c) in col.iter().enumerate() {
                assert_eq!(r.add(c), want[i][j], "row {i}, column {j}");
                assert_eq!(c.add(r), want[i][j], "commutes at {i}, {j}");
            }
        }
    }

    #[test]
    fn theorem_12_outcomes() {
        use Class::*;
        let o = |parts: &[Class]| sum(parts.iter()).outcome().expect("determined");
        assert_eq!(o(&[Nimber(3), Nimber(3)]), Outcome::P);
        assert_eq!(o(&[Nimber(3), SpecialMoon(3)]), Outcome::N); // t ≥ 1, u = 0
        assert_eq!(o(&[inf(&[0]), inf(&[0])]), Outcome::D); // u ≥ 2
        assert_eq!(o(&[inf(&[2]), Nimber(1), SpecialMoon(3)]), Outcome::N); // 1⊕3 = 2 ∈ B
        assert_eq!(o(&[inf(&[2]), Nimber(1)]), Outcome::D);
        assert_eq!(o(&[Moon, inf(&[]), inf(&[])]), Outcome::N); // b ≥ 1
    }

    #[test]
    fn moons_outside_the_algebra() {
        use Class::*;
        assert_eq!(
            EntailingMoon.add(&inf(&[0])),
            Undetermined(Outside::MoonBesideLoopy)
        );
        assert_eq!(EntailingMoon.add(&SpecialMoon(2)), EntailingMoon);
        assert_eq!(EntailingMoon.add(&Nimber(2)).outcome(), Some(Outcome::N));
        assert_eq!(Moon.add(&Undetermined(Outside::MoonBesideLoopy)), Moon);
    }

    #[test]
    fn spellings() {
        assert_eq!(inf(&[2, 0, 1]).show(false).as_deref(), Some("∞(0,1,2)"));
        assert_eq!(inf(&[]).show(false).as_deref(), Some("∞(∅)"));
        assert_eq!(inf(&[]).show(true).as_deref(), Some("inf()"));
        assert_eq!(inf(&[1, 0]).show(true).as_deref(), Some("inf(0,1)"));
        assert_eq!(Class::SpecialMoon(3).show(true).as_deref(), Some("moon(3)"));
        assert_eq!(Class::SpecialMoon(3).show(false).as_deref(), Some("⟫(3)"));
    }
}
