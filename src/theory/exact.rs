//! The exact solver: the outcome of any finite sum of impartial components — loopy or not,
//! with entailing and carry-on moves — by retrograde analysis of the sum's state graph, from the
//! axioms alone: players alternate; a move to ∞ wins for Left and to ∞̄ for Right, so a check
//! left unanswered loses to ∞ at once; a player with no move loses; infinite play is a draw.
//!
//! A state is the multiset of the sum's atomic components (graph nodes that are not sums), the
//! player to move, and — when asked to — one nim heap standing for every normal-play component
//! (no cycle, no infinity below): by Sprague–Grundy such a component equals the nimber of its
//! value in every sum, entailing and loopy ones included (seed 001, Lemma 3 and Theorem 10).
//! The oracle used in the tests turns that off and plays nimbers out move by move.

use super::classify::Analysis;
use super::value::Outcome;
use crate::diag::{Error, ErrorKind};
use crate::graph::{Explorer, Kind, Side};
use hashbrown::HashTable;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// The result for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result3 {
    Win,
    Loss,
    Draw,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Fold normal-play components into one nim heap.
    pub collapse_nimbers: bool,
    /// Stop with an error past this many states.
    pub budget: usize,
}

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;

/// The solved state graph of one sum.
pub struct Solver {
    /// State keys: `[nim, mover, atoms…]`, concatenated.
    pool: Vec<u32>,
    key_start: Vec<u32>,
    table: HashTable<u32>,
    succ_start: Vec<u32>,
    succ: Vec<u32>,
    result: Vec<u8>,
    opts: Options,
}

fn hash_key(k: &[u32]) -> u64 {
    let mut h = FxHasher::default();
    k.hash(&mut h);
    h.finish()
}

fn side_of(mover: u32) -> Side {
    if mover == 0 { Side::Left } else { Side::Right }
}

impl Solver {
    pub fn new(opts: Options) -> Self {
        Solver {
            pool: Vec::new(),
            key_start: vec![0],
            table: HashTable::new(),
            succ_start: Vec::new(),
            succ: Vec::new(),
            result: Vec::new(),
            opts,
        }
    }

    pub fn states(&self) -> usize {
        self.key_start.len() - 1
    }

    fn key(&self, s: u32) -> &[u32] {
        &self.pool[self.key_start[s as usize] as usize..self.key_start[s as usize + 1] as usize]
    }

    fn intern(&mut self, key: &[u32]) -> (u32, bool) {
        let h = hash_key(key);
        let (pool, starts) = (&self.pool, &self.key_start);
        let get = |s: u32| &pool[starts[s as usize] as usize..starts[s as usize + 1] as usize];
        if let Some(&s) = self.table.find(h, |&s| get(s) == key) {
            return (s, false);
        }
        let s = self.states() as u32;
        self.pool.extend_from_slice(key);
        self.key_start.push(self.pool.len() as u32);
        let (pool, starts) = (&self.pool, &self.key_start);
        self.table.insert_unique(h, s, |&t| {
            hash_key(&pool[starts[t as usize] as usize..starts[t as usize + 1] as usize])
        });
        (s, true)
    }

    /// Adds node `u` to a state under construction: sums split into their parts, normal-play
    /// components fold into the nim heap. `Err(winner)` when `u` is ∞ or ∞̄.
    fn add(
        &self,
        ex: &Explorer,
        an: &Analysis,
        u: u32,
        atoms: &mut Vec<u32>,
        nim: &mut u32,
    ) -> Result<(), u32> {
        match ex.graph.kind(u) {
            Kind::Sum => {
                for &p in ex.graph.parts(u) {
                    self.add(ex, an, p, atoms, nim)?;
                }
            }
            Kind::LeftWin => return Err(0),
            Kind::RightWin => return Err(1),
            Kind::Nimber(0) => {}
            Kind::Nimber(k) if self.opts.collapse_nimbers => *nim ^= k,
            _ if self.opts.collapse_nimbers && an.is_pure_nimber(u) => {
                *nim ^= an.class(u).and_then(|c| c.nimber()).unwrap_or(0)
            }
            _ => atoms.push(u),
        }
        Ok(())
    }

    /// The state of node `u` with `mover` (0 Left, 1 Right) to move; `Err(winner)` for ∞/∞̄.
    pub fn root(&mut self, ex: &Explorer, an: &Analysis, u: u32, mover: u32) -> Result<u32, u32> {
        let mut atoms = Vec::new();
        let mut nim = 0;
        self.add(ex, an, u, &mut atoms, &mut nim)?;
        atoms.sort_unstable();
        let mut key = vec![nim, mover];
        key.extend_from_slice(&atoms);
        Ok(self.intern(&key).0)
    }

    /// Builds every state reachable from `roots` and solves them.
    pub fn solve(&mut self, ex: &mut Explorer, an: &Analysis, roots: &[u32]) -> Result<(), Error> {
        debug_assert!(roots.iter().all(|&r| (r as usize) < self.states()));
        // States are numbered in discovery order; successors are listed in that order too.
        let mut listed = self.succ_start.len() as u32;
        let mut immediate = Vec::new();
        let mut atoms = Vec::new();
        let mut key = Vec::new();
        let mut poll = 0u32;
        while listed < self.states() as u32 {
            let s = listed;
            listed += 1;
            poll = poll.wrapping_add(1);
            if poll.is_multiple_of(1024) && ex.src.interrupted() {
                return Err(Error::new(ErrorKind::Interrupted));
            }
            if self.states() > self.opts.budget {
                return Err(Error::new(ErrorKind::SearchBudget {
                    budget: self.opts.budget,
                }));
            }
            let k = self.key(s).to_vec();
            let (nim, mover) = (k[0], k[1]);
            let parts = &k[2..];
            let side = side_of(mover);
            let mut win_now = false;
            self.succ_start.push(self.succ.len() as u32);
            let mut out: Vec<u32> = Vec::new();
            for i in 0..parts.len() {
                if i > 0 && parts[i] == parts[i - 1] {
                    continue;
                }
                for o in ex.options(parts[i], side)? {
                    atoms.clear();
                    atoms.extend(
                        parts
                            .iter()
                            .enumerate()
                            .filter(|&(j, _)| j != i)
                            .map(|(_, &a)| a),
                    );
                    let mut n2 = nim;
                    match self.add(ex, an, o, &mut atoms, &mut n2) {
                        Err(w) if w == mover => {
                            win_now = true;
                            break;
                        }
                        Err(_) => continue, // a move to the opponent's infinity loses at once
                        Ok(()) => {}
                    }
                    atoms.sort_unstable();
                    key.clear();
                    key.push(n2);
                    key.push(1 - mover);
                    key.extend_from_slice(&atoms);
                    out.push(self.intern(&key).0);
                }
                if win_now {
                    break;
                }
            }
            if !win_now {
                for n2 in 0..nim {
                    key.clear();
                    key.push(n2);
                    key.push(1 - mover);
                    key.extend_from_slice(parts);
                    out.push(self.intern(&key).0);
                }
            }
            if win_now {
                immediate.push(s);
                out.clear();
            }
            out.sort_unstable();
            out.dedup();
            self.succ.extend_from_slice(&out);
        }
        self.succ_start.push(self.succ.len() as u32);
        self.retrograde(&immediate);
        Ok(())
    }

    fn successors(&self, s: u32) -> &[u32] {
        &self.succ[self.succ_start[s as usize] as usize..self.succ_start[s as usize + 1] as usize]
    }

    fn retrograde(&mut self, immediate: &[u32]) {
        let n = self.states();
        // Predecessor lists.
        let mut pstart = vec![0u32; n + 1];
        for &t in &self.succ {
            pstart[t as usize + 1] += 1;
        }
        for i in 0..n {
            pstart[i + 1] += pstart[i];
        }
        let mut fill = pstart.clone();
        let mut pred = vec![0u32; self.succ.len()];
        for s in 0..n as u32 {
            for &t in self.successors(s) {
                pred[fill[t as usize] as usize] = s;
                fill[t as usize] += 1;
            }
        }
        drop(fill);
        self.result = vec![UNKNOWN; n];
        let mut left: Vec<u32> = (0..n as u32)
            .map(|s| self.successors(s).len() as u32)
            .collect();
        let mut queue: Vec<u32> = Vec::new();
        for &s in immediate {
            self.result[s as usize] = WIN;
            queue.push(s);
        }
        for s in 0..n as u32 {
            if self.result[s as usize] == UNKNOWN && left[s as usize] == 0 {
                self.result[s as usize] = LOSS;
                queue.push(s);
            }
        }
        while let Some(t) = queue.pop() {
            let rt = self.result[t as usize];
            for k in pstart[t as usize]..pstart[t as usize + 1] {
                let s = pred[k as usize] as usize;
                if self.result[s] != UNKNOWN {
                    continue;
                }
                if rt == LOSS {
                    self.result[s] = WIN;
                    queue.push(s as u32);
                } else {
                    left[s] -= 1;
                    if left[s] == 0 {
                        self.result[s] = LOSS;
                        queue.push(s as u32);
                    }
                }
            }
        }
    }

    /// The result of a solved state for its player to move.
    pub fn result(&self, s: u32) -> Result3 {
        match self.result[s as usize] {
            WIN => Result3::Win,
            LOSS => Result3::Loss,
            _ => Result3::Draw,
        }
    }
}

/// Left-first and Right-first results as one outcome class; `None` when a draw meets a win or a
/// loss (possible only for partizan games).
pub fn outcome_of(left_first: Result3, right_first: Result3) -> Option<Outcome> {
    use Result3::*;
    Some(match (left_first, right_first) {
        (Win, Win) => Outcome::N,
        (Loss, Loss) => Outcome::P,
        (Win, Loss) => Outcome::L,
        (Loss, Win) => Outcome::R,
        (Draw, Draw) => Outcome::D,
        _ => return None,
    })
}

/// The result, for the player to move, of node `u` with `mover` (0 Left, 1 Right) to move.
pub fn result_of(
    ex: &mut Explorer,
    an: &Analysis,
    opts: Options,
    u: u32,
    mover: u32,
) -> Result<Result3, Error> {
    let mut s = Solver::new(opts);
    match s.root(ex, an, u, mover) {
        Err(w) => Ok(if w == mover {
            Result3::Win
        } else {
            Result3::Loss
        }),
        Ok(r) => {
            s.solve(ex, an, &[r])?;
            Ok(s.result(r))
        }
    }
}
