//! Misère quotients of heap games [Plambeck–Siegel, "Misère quotients for impartial games",
//! JCTA 2008; digest `misere-quotients.md`].
//!
//! For a heap game Γ, Q_n is the misère quotient of A_n, the sums of heaps H_1 … H_n: sums
//! modulo `G ≡ H ⇔ ∀X ∈ A_n: o⁻(G+X) = o⁻(H+X)`. It is a finite commutative monoid Q with
//! a P-portion P and the map Φ (the pretending function): G is a misère P-position iff
//! `Π Φ(H_i) ∈ P`. Q_n is computed heap by heap and, once Φ is periodic for long enough, the
//! periodicity theorem proves Q = Q_n for the whole game.
//!
//! Std-only and independent of the evaluator. Modules: `bitset` (bit rows), `game` (the
//! input: options of each heap), `candidate` (monoids given by heap actions: products,
//! marking, reduction), `transition` (checking a candidate against every position),
//! `solver` (the per-heap algorithm), `periodicity` (the certificate), `monoid` (the result:
//! lex-least words, presentations, isomorphism), `tame` (names T0, T1, …, R8), `search`
//! (misère outcomes of heap sums by exhaustive search).
//!
//! ```text
//! let mut kayles = HeapRules::from(Code::parse("0.77")?);
//! let q = solve(&mut kayles, None, Limits::default(), &Control::default())?;
//! q.order() == 40 && q.certified_at == Some(169)
//! ```

mod bitset;
mod candidate;
mod game;
mod monoid;
mod periodicity;
pub mod search;
mod solver;
mod tame;
mod transition;

use crate::quotient::candidate::NONE;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

pub use game::{Certificate, HeapGame, Listed};
pub use monoid::{Bipartite, Monoid, ParseError, generator_name};
pub use periodicity::Period;
pub use solver::{Limits, Probe, Solver, Stats};
pub use tame::{R8, name, tame_index};

/// Why a computation stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The cancel flag was raised.
    Interrupted,
    /// A candidate, reduced quotient or search grew past its ceiling (`elements` of them).
    TooLarge { elements: usize, grew: Grew },
    /// The game's moves could not be read or are not sums of smaller heaps.
    Game(String),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Interrupted => f.write_str("interrupted"),
            Stop::TooLarge { elements, .. } => write!(f, "grew to {elements} elements"),
            Stop::Game(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Stop {}

/// Which ceiling of [`Limits`] a computation passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grew {
    /// An unreduced candidate (a product of the quotient so far and the new heap's part).
    Product,
    /// A reduced candidate.
    Reduced,
    /// The N-side antichain of the verification (counted in elements, limited in bytes).
    Antichain,
    /// The positions of an exhaustive outcome search.
    Search,
}

/// A stop together with how far the computation got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Halted {
    pub stop: Stop,
    /// The heap being added when it stopped.
    pub heap: usize,
    /// |Q_{heap−1}|, the last quotient computed.
    pub order: usize,
}

/// What a long computation reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Q_heap is computed, of this order.
    Heap { heap: usize, order: usize },
    /// A candidate for Q_heap was rejected (`tried` so far for this heap).
    Candidate {
        heap: usize,
        order: usize,
        tried: usize,
    },
}

/// Steering for long computations: a cancel flag and a progress callback, called after every
/// heap and every rejected candidate.
#[derive(Clone, Copy, Default)]
pub struct Control<'a> {
    pub cancel: Option<&'a AtomicBool>,
    pub progress: Option<&'a dyn Fn(Progress)>,
}

impl<'a> Control<'a> {
    pub fn with_cancel(mut self, flag: &'a AtomicBool) -> Self {
        self.cancel = Some(flag);
        self
    }

    pub fn with_progress(mut self, progress: &'a dyn Fn(Progress)) -> Self {
        self.progress = Some(progress);
        self
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

impl fmt::Debug for Control<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Control")
            .field("cancel", &self.cancel)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// A computed partial quotient Q_N, possibly certified to be the quotient of the whole game.
#[derive(Clone, Debug)]
pub struct Quotient {
    /// N: the quotient covers heaps 1..=N.
    pub heap: usize,
    pub bipartite: Bipartite,
    /// Φ(H_n) for n = 0..=N, as elements of `bipartite.monoid`.
    pub phi: Vec<u32>,
    /// The certified period, or the apparent one when not certified.
    pub period: Option<Period>,
    /// The heap at which the periodicity theorem proved Q_N final.
    pub certified_at: Option<usize>,
    /// |Q_n| for n = 0..=N.
    pub orders: Vec<usize>,
    pub stats: Stats,
}

impl Quotient {
    pub fn order(&self) -> usize {
        self.bipartite.monoid.size()
    }

    pub fn monoid(&self) -> &Monoid {
        &self.bipartite.monoid
    }

    pub fn certified(&self) -> bool {
        self.certified_at.is_some()
    }

    /// Φ(H_n), also beyond N when certified; `None` otherwise.
    pub fn phi_of(&self, n: usize) -> Option<u32> {
        if n <= self.heap {
            return Some(self.phi[n]);
        }
        let p = self.period.filter(|_| self.certified())?;
        let n = p.preperiod + (n - p.preperiod) % p.period;
        Some(self.phi[n])
    }

    /// Whether a sum of heaps is a misère P-position: one product per heap. `None` when a heap
    /// is beyond N and the quotient is not certified.
    pub fn is_p(&self, heaps: &[usize]) -> Option<bool> {
        let m = self.monoid();
        let mut x = 0;
        for &h in heaps {
            x = m.mul(x, self.phi_of(h)?);
        }
        Some(self.bipartite.p[x as usize])
    }

    /// Φ(H_1), Φ(H_2), … as words, the repeating block in parentheses when certified:
    /// `a b a b c b c (b ab2)`; a block from heap 0 is marked `from heap 0`.
    pub fn phi_listing(&self) -> String {
        let m = self.monoid();
        let w = |n: usize| m.word(self.phi[n]);
        match self.period.filter(|_| self.certified()) {
            Some(p) if p.preperiod == 0 => {
                let block: Vec<String> = (0..p.period).map(w).collect();
                format!("({}) from heap 0", block.join(" "))
            }
            Some(p) => {
                let mut parts: Vec<String> = (1..p.preperiod).map(w).collect();
                let block: Vec<String> = (p.preperiod..p.preperiod + p.period).map(w).collect();
                parts.push(format!("({})", block.join(" ")));
                parts.join(" ")
            }
            None => (1..=self.heap).map(w).collect::<Vec<_>>().join(" "),
        }
    }

    /// `T2`, `R8`, … when the quotient is a named one.
    pub fn name(&self) -> Option<String> {
        tame::name(&self.bipartite)
    }
}

/// Builds the result from the solver's current candidate: presentation generators are the
/// heap values in order of first appearance, less each one (latest first) generated by the
/// others; elements are renumbered in lex order of their words over those generators.
fn quotient_of(solver: &Solver, certified_at: Option<usize>, period: Option<Period>) -> Quotient {
    let cand = solver.cand();
    let acts = &cand.acts;
    let heaps = solver.heaps();
    // Distinct non-identity heap values, by first heap; their action tables.
    let mut values: Vec<(u32, usize)> = Vec::new();
    for h in 1..=heaps {
        let g = acts.gen_of[h];
        if g != NONE && !values.iter().any(|&(gg, _)| gg == g) {
            values.push((g, h));
        }
    }
    let m = acts.m;
    // Whether element x lies in the submonoid generated by the tables `gens`.
    let generates = |gens: &[u32], x: u32| -> bool {
        let mut seen = vec![false; m];
        seen[0] = true;
        let mut stack = vec![0u32];
        while let Some(y) = stack.pop() {
            for &g in gens {
                let z = acts.table(g as usize)[y as usize];
                if !seen[z as usize] {
                    seen[z as usize] = true;
                    stack.push(z);
                }
            }
        }
        seen[x as usize]
    };
    let mut keep: Vec<u32> = values.iter().map(|&(g, _)| g).collect();
    for i in (0..keep.len()).rev() {
        let mut others = keep.clone();
        let g = others.remove(i);
        if generates(&others, acts.table(g as usize)[0]) {
            keep = others;
        }
    }
    let tables: Vec<Vec<u32>> = keep
        .iter()
        .map(|&g| acts.table(g as usize).to_vec())
        .collect();
    let (monoid, new_of) = Monoid::from_actions(m, tables);
    debug_assert_eq!(monoid.size(), m);
    let mut p = vec![false; m];
    for (x, &is_p) in cand.p.iter().enumerate() {
        p[new_of[x] as usize] = is_p;
    }
    let phi = (0..=heaps).map(|h| new_of[acts.phi(h) as usize]).collect();
    Quotient {
        heap: heaps,
        bipartite: Bipartite { monoid, p },
        phi,
        period,
        certified_at,
        orders: solver.orders().to_vec(),
        stats: solver.stats,
    }
}

/// Computes Q_n for `n = bound`, or, without a bound, until the periodicity theorem certifies
/// the quotient (games without a certificate then run until they are stopped or too large).
/// Progress is reported after every heap.
pub fn solve(
    game: &mut dyn HeapGame,
    bound: Option<usize>,
    limits: Limits,
    ctl: &Control,
) -> Result<Quotient, Halted> {
    let cert = game.certificate();
    let mut solver = Solver::new(game, limits);
    if let Some(progress) = ctl.progress {
        let mut tried = (0, 0);
        solver.observe(move |probe| {
            tried = if tried.0 == probe.heap {
                (probe.heap, tried.1 + 1)
            } else {
                (probe.heap, 1)
            };
            progress(Progress::Candidate {
                heap: probe.heap,
                order: probe.order,
                tried: tried.1,
            });
        });
    }
    let cancel = || ctl.cancelled();
    let mut certified: Option<(usize, Period)> = None;
    let mut phi: Vec<u32> = vec![0];
    let mut watch = cert.map(periodicity::Watch::new);
    let mut renamed = solver.renamed();
    loop {
        let n = solver.heaps();
        if bound.is_some_and(|b| n >= b) || (bound.is_none() && certified.is_some()) {
            break;
        }
        // Once a heap, not only inside the searches: a heap without moves runs none.
        if cancel() {
            return Err(Halted {
                stop: Stop::Interrupted,
                heap: n + 1,
                order: solver.order(),
            });
        }
        solver.step(&cancel).map_err(|stop| Halted {
            stop,
            heap: n + 1,
            order: solver.order(),
        })?;
        // Φ grows by one heap, unless the candidate was replaced: then it is read anew (and
        // the watch compares it with what it had).
        let acts = &solver.cand().acts;
        let fresh = renamed != solver.renamed();
        if fresh {
            renamed = solver.renamed();
            phi.clear();
            phi.extend((0..=n + 1).map(|h| acts.phi(h)));
        } else {
            phi.push(acts.phi(n + 1));
        }
        if certified.is_none()
            && let Some(w) = watch.as_mut()
            && let Some(p) = {
                if fresh {
                    w.update(&phi);
                } else {
                    w.extend(&phi);
                }
                w.certified()
            }
        {
            certified = Some((n + 1, p));
        }
        if let Some(progress) = ctl.progress {
            progress(Progress::Heap {
                heap: n + 1,
                order: solver.order(),
            });
        }
    }
    let (at, period) = match certified {
        Some((at, p)) => (Some(at), Some(p)),
        None => (None, periodicity::apparent(&phi)),
    };
    Ok(quotient_of(&solver, at, period))
}
