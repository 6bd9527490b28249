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
use crate::error::TheoryError;
use hashbrown::HashTable;
use loony_core::class::{Class, Outcome};
use loony_core::diag::{CoreError, Error};
use loony_graph::{Explorer, Kind, Side};
use rustc_hash::FxHashMap;

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

/// A move from an atom, decomposed once: who wins at once (a move to ∞ or ∞̄), the nim heap it
/// adds, and the atoms it leaves (sorted).
#[derive(Clone, Copy)]
struct Move {
    winner: u32,
    nim: u32,
    start: u32,
    len: u32,
}

const NOBODY: u32 = 2;

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
    /// Moves of each (atom, side), decomposed.
    moves: FxHashMap<(u32, u32), (u32, u32)>,
    move_pool: Vec<Move>,
    atom_pool: Vec<u32>,
}

/// A strong mix of the key (states differ in a few small numbers, so plain multiplicative
/// hashing collides).
fn hash_key(k: &[u32]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3 ^ k.len() as u64;
    for &x in k {
        h = (h ^ x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^ (h >> 29)
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
            moves: FxHashMap::default(),
            move_pool: Vec::new(),
            atom_pool: Vec::new(),
        }
    }

    pub fn states(&self) -> usize {
        self.key_start.len() - 1
    }

    fn intern(&mut self, key: &[u32]) -> u32 {
        let h = hash_key(key);
        let (pool, starts) = (&self.pool, &self.key_start);
        let get = |s: u32| &pool[starts[s as usize] as usize..starts[s as usize + 1] as usize];
        if let Some(&s) = self.table.find(h, |&s| get(s) == key) {
            return s;
        }
        let s = self.states() as u32;
        self.pool.extend_from_slice(key);
        self.key_start.push(self.pool.len() as u32);
        let (pool, starts) = (&self.pool, &self.key_start);
        self.table.insert_unique(h, s, |&t| {
            hash_key(&pool[starts[t as usize] as usize..starts[t as usize + 1] as usize])
        });
        s
    }

    /// The nimber of a normal-play node (no cycle, no infinity below), if the analysis or the
    /// session memo knows it.
    fn pure_nimber(ex: &mut Explorer, an: &Analysis, u: u32) -> Option<u32> {
        if an.class(u).is_some() {
            return an
                .is_pure_nimber(u)
                .then(|| an.class(u).and_then(|c| c.nimber()))
                .flatten();
        }
        let k = ex.graph.key(u)?;
        match ex.src.memo().get(k) {
            Some((Class::Nimber(k), 0)) => Some(k),
            _ => None,
        }
    }

    /// Adds node `u` to a state under construction: sums split into their parts, normal-play
    /// components fold into the nim heap. `Err(winner)` when `u` is ∞ or ∞̄.
    fn add(
        &self,
        ex: &mut Explorer,
        an: &Analysis,
        u: u32,
        atoms: &mut Vec<u32>,
        nim: &mut u32,
    ) -> Result<(), u32> {
        match ex.graph.kind(u) {
            Kind::Sum => {
                for p in ex.graph.parts(u).to_vec() {
                    self.add(ex, an, p, atoms, nim)?;
                }
            }
            Kind::LeftWin => return Err(0),
            Kind::RightWin => return Err(1),
            Kind::Nimber(0) => {}
            Kind::Nimber(k) if self.opts.collapse_nimbers => *nim ^= k,
            _ => match Self::pure_nimber(ex, an, u) {
                Some(k) if self.opts.collapse_nimbers => *nim ^= k,
                _ => atoms.push(u),
            },
        }
        Ok(())
    }

    /// The state of node `u` with `mover` (0 Left, 1 Right) to move; `Err(winner)` for ∞/∞̄.
    pub fn root(
        &mut self,
        ex: &mut Explorer,
        an: &Analysis,
        u: u32,
        mover: u32,
    ) -> Result<u32, u32> {
        let mut atoms = Vec::new();
        let mut nim = 0;
        self.add(ex, an, u, &mut atoms, &mut nim)?;
        atoms.sort_unstable();
        let mut key = vec![nim, mover];
        key.extend_from_slice(&atoms);
        Ok(self.intern(&key))
    }

    /// The decomposed moves of `atom` for `mover`, listed once.
    fn moves_of(
        &mut self,
        ex: &mut Explorer,
        an: &Analysis,
        atom: u32,
        mover: u32,
    ) -> Result<(u32, u32), Error> {
        if let Some(&r) = self.moves.get(&(atom, mover)) {
            return Ok(r);
        }
        let start = self.move_pool.len() as u32;
        let mut atoms = Vec::new();
        for o in ex.options(atom, side_of(mover))? {
            atoms.clear();
            let mut nim = 0;
            let winner = match self.add(ex, an, o, &mut atoms, &mut nim) {
                Ok(()) => NOBODY,
                Err(w) => w,
            };
            atoms.sort_unstable();
            let a = self.atom_pool.len() as u32;
            self.atom_pool.extend_from_slice(&atoms);
            self.move_pool.push(Move {
                winner,
                nim,
                start: a,
                len: atoms.len() as u32,
            });
        }
        let r = (start, self.move_pool.len() as u32 - start);
        self.moves.insert((atom, mover), r);
        Ok(r)
    }

    /// Builds every state reachable from `roots` and solves them.
    pub fn solve(&mut self, ex: &mut Explorer, an: &Analysis, roots: &[u32]) -> Result<(), Error> {
        debug_assert!(roots.iter().all(|&r| (r as usize) < self.states()));
        // States are numbered in discovery order; successors are listed in that order too.
        let mut listed = self.succ_start.len() as u32;
        let mut immediate = Vec::new();
        let mut key: Vec<u32> = Vec::new();
        let mut cur: Vec<u32> = Vec::new();
        let mut out: Vec<u32> = Vec::new();
        while listed < self.states() as u32 {
            let s = listed;
            listed += 1;
            if s.is_multiple_of(1024) && ex.src.interrupted() {
                return Err(Error::new(CoreError::Interrupted));
            }
            if self.states() > self.opts.budget {
                return Err(Error::new(TheoryError::SearchBudget {
                    budget: self.opts.budget,
                }));
            }
            cur.clear();
            cur.extend_from_slice(
                &self.pool
                    [self.key_start[s as usize] as usize..self.key_start[s as usize + 1] as usize],
            );
            let (nim, mover) = (cur[0], cur[1]);
            let parts = &cur[2..];
            let mut win_now = false;
            self.succ_start.push(self.succ.len() as u32);
            out.clear();
            'atoms: for i in 0..parts.len() {
                if i > 0 && parts[i] == parts[i - 1] {
                    continue;
                }
                let (m0, mn) = self.moves_of(ex, an, parts[i], mover)?;
                for k in m0..m0 + mn {
                    let mv = self.move_pool[k as usize];
                    if mv.winner == mover {
                        win_now = true;
                        break 'atoms;
                    }
                    if mv.winner != NOBODY {
                        continue; // a move to the opponent's infinity loses at once
                    }
                    // The rest of the atoms merged with the move's, both sorted.
                    key.clear();
                    key.push(nim ^ mv.nim);
                    key.push(1 - mover);
                    let add = &self.atom_pool[mv.start as usize..(mv.start + mv.len) as usize];
                    let (mut a, mut b) = (0, 0);
                    while a < parts.len() || b < add.len() {
                        if a == i {
                            a += 1;
                            continue;
                        }
                        if b == add.len() || (a < parts.len() && parts[a] <= add[b]) {
                            key.push(parts[a]);
                            a += 1;
                        } else {
                            key.push(add[b]);
                            b += 1;
                        }
                    }
                    out.push(self.intern(&key));
                }
            }
            if win_now {
                immediate.push(s);
                out.clear();
            } else {
                for n2 in 0..nim {
                    key.clear();
                    key.push(n2);
                    key.push(1 - mover);
                    key.extend_from_slice(parts);
                    out.push(self.intern(&key));
                }
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
