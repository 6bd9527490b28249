//! Exact outcomes of short forms with infinities, by search from the axioms.
//!
//! A move to `∞` (in any component) wins for Left, to `∞̄` for Right, and a
//! player with no move loses. This knows nothing of values or symmetry, so it
//! works for any short form (partizan too) and serves as the brute-force
//! oracle for the affine engine.

use std::fmt;

use super::error::AffineError;
use super::graph::{AffineGraph, Shape};
use super::hash::FxHashMap;
use super::value::AffineValue;

/// The four outcome classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Left wins whoever starts.
    L,
    /// Right wins whoever starts.
    R,
    /// The player to move wins.
    N,
    /// The player to move loses.
    P,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::L => "L",
            Outcome::R => "R",
            Outcome::N => "N",
            Outcome::P => "P",
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Player {
    Left,
    Right,
}

struct Frame<Id> {
    id: Id,
    mover: Player,
    opts: Vec<Id>,
    idx: usize,
}

type Res<T, Id, E> = Result<T, AffineError<Id, E>>;

const POLL: u32 = 1 << 12;

/// Memoised outcome search (explicit stack: deep games use heap only).
pub struct OutcomeSearch<Id> {
    /// Does the player to move win from this (non-infinite) position?
    wins: FxHashMap<(Id, Player), bool>,
    shapes: FxHashMap<Id, Option<Player>>,
    on_stack: FxHashMap<(Id, Player), ()>,
}

impl<Id: Copy + Eq + std::hash::Hash + Ord + fmt::Debug> Default for OutcomeSearch<Id> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Id: Copy + Eq + std::hash::Hash + Ord + fmt::Debug> OutcomeSearch<Id> {
    pub fn new() -> Self {
        OutcomeSearch {
            wins: FxHashMap::default(),
            shapes: FxHashMap::default(),
            on_stack: FxHashMap::default(),
        }
    }

    pub fn clear(&mut self) {
        *self = Self::new();
    }

    /// `Some(winner)` for `∞`/`∞̄`.
    fn terminal<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        g: Id,
    ) -> Res<Option<Player>, Id, G::Error> {
        if let Some(&t) = self.shapes.get(&g) {
            return Ok(t);
        }
        let t = match graph.shape(g)? {
            Shape::LeftWin => Some(Player::Left),
            Shape::RightWin => Some(Player::Right),
            _ => None,
        };
        self.shapes.insert(g, t);
        Ok(t)
    }

    /// The outcome class of `g`.
    pub fn outcome<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        g: Id,
    ) -> Res<Outcome, Id, G::Error> {
        match self.terminal(graph, g)? {
            Some(Player::Left) => return Ok(Outcome::L),
            Some(Player::Right) => return Ok(Outcome::R),
            None => {}
        }
        let left_first = self.mover_wins(graph, g, Player::Left)?;
        let right_first = self.mover_wins(graph, g, Player::Right)?;
        Ok(match (left_first, right_first) {
            (true, true) => Outcome::N,
            (true, false) => Outcome::L,
            (false, true) => Outcome::R,
            (false, false) => Outcome::P,
        })
    }

    /// The outcome class of the sum of `parts` (`∞ + ∞̄` is an error).
    pub fn outcome_of_sum<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        parts: &[Id],
    ) -> Res<Outcome, Id, G::Error> {
        let (mut l, mut r) = (false, false);
        for &p in parts {
            match self.terminal(graph, p)? {
                Some(Player::Left) => l = true,
                Some(Player::Right) => r = true,
                None => {}
            }
        }
        match (l, r) {
            (true, true) => Err(AffineError::UndefinedSum),
            (true, false) => Ok(Outcome::L),
            (false, true) => Ok(Outcome::R),
            (false, false) => {
                let s = graph.sum(parts)?;
                self.outcome(graph, s)
            }
        }
    }

    fn open<G: AffineGraph<Id = Id>>(
        graph: &mut G,
        id: Id,
        mover: Player,
    ) -> Res<Frame<Id>, Id, G::Error> {
        let mut opts = Vec::new();
        match mover {
            Player::Left => graph.left_options(id, &mut opts)?,
            Player::Right => graph.right_options(id, &mut opts)?,
        }
        Ok(Frame {
            id,
            mover,
            opts,
            idx: 0,
        })
    }

    /// Does `mover`, to move in the non-infinite position `g`, win?
    fn mover_wins<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        g: Id,
        mover: Player,
    ) -> Res<bool, Id, G::Error> {
        if let Some(&w) = self.wins.get(&(g, mover)) {
            return Ok(w);
        }
        let result = self.search(graph, g, mover);
        self.on_stack.clear();
        result?;
        Ok(self.wins[&(g, mover)])
    }

    fn search<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        g: Id,
        mover: Player,
    ) -> Res<(), Id, G::Error> {
        let mut stack = vec![Self::open(graph, g, mover)?];
        self.on_stack.insert((g, mover), ());
        let mut steps = 0u32;
        while let Some(mut f) = stack.pop() {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(POLL) && graph.interrupted() {
                return Err(AffineError::Interrupted);
            }
            let other = match f.mover {
                Player::Left => Player::Right,
                Player::Right => Player::Left,
            };
            // A player with no (winning) move left loses.
            let mut won = false;
            let mut descend = None;
            while f.idx < f.opts.len() {
                let x = f.opts[f.idx];
                match self.terminal(graph, x)? {
                    Some(p) if p == f.mover => {
                        won = true;
                        break;
                    }
                    Some(_) => {}
                    None => match self.wins.get(&(x, other)) {
                        Some(false) => {
                            won = true;
                            break;
                        }
                        Some(true) => {}
                        None => {
                            descend = Some(x);
                            break;
                        }
                    },
                }
                f.idx += 1;
            }
            if let Some(x) = descend {
                if self.on_stack.insert((x, other), ()).is_some() {
                    return Err(AffineError::Cycle { form: x });
                }
                let child = Self::open(graph, x, other)?;
                stack.push(f);
                stack.push(child);
                continue;
            }
            self.on_stack.remove(&(f.id, f.mover));
            self.wins.insert((f.id, f.mover), won);
        }
        Ok(())
    }

    /// Brute-force value: the unique `k < bound` with `g + *k ∈ P`, or `☾`
    /// when there is none. `None` when several `k` qualify (then `g` is not
    /// affine impartial).
    pub fn probe_value<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        g: Id,
        bound: u32,
    ) -> Res<Option<AffineValue>, Id, G::Error> {
        let mut found = None;
        for k in 0..bound {
            let nim = graph.nimber(k);
            if self.outcome_of_sum(graph, &[g, nim])? == Outcome::P {
                if found.is_some() {
                    return Ok(None);
                }
                found = Some(k);
            }
        }
        Ok(Some(found.map_or(AffineValue::Moon, AffineValue::Nimber)))
    }
}
