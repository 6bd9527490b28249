//! The session's quotients ([`QuotientCache`]), held by the context
//! ([`crate::cx::Engines`]): the most complete quotient of each game, the outcome searches,
//! and the numbered quotients whose elements are values.

use loony_theory::quotient::{Limits, Listed, Quotient, search::Searcher};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Quotients and outcome memos of the session, per game.
#[derive(Default)]
pub struct QuotientCache {
    /// Heap rules id → the most complete quotient computed.
    pub(super) heaps: FxHashMap<u32, Rc<Quotient>>,
    /// Ruleset id → the same.
    pub(super) rulesets: FxHashMap<u32, Rc<Quotient>>,
    pub(super) searchers: FxHashMap<GameKey, Searcher>,
    /// Ruleset id → moves read so far (heap n at index n).
    pub(super) ruleset_moves: FxHashMap<u32, Listed>,
    /// Size ceilings a host set (tests); `None`: from the session's memory budget.
    pub limits: Option<Limits>,
    /// The largest order whose table a record holds, if a host set one (tests);
    /// `None`: `TABLE_ORDER` (`quotient.rs`).
    pub table_in_record: Option<usize>,
    /// The quotients whose elements are values, by number
    /// ([`crate::value::Value::Element`]), with their presentations.
    pub(super) numbered: Vec<(Rc<Quotient>, String)>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum GameKey {
    Heap(u32),
    Ruleset(u32),
}

impl QuotientCache {
    /// The number of `q` for its elements: one bipartite monoid (one presentation, one
    /// P-portion) keeps one number, so `quotient(g)` asked twice gives elements that mix.
    pub(super) fn number(&mut self, q: &Rc<Quotient>) -> u32 {
        let presentation = q.monoid().presentation();
        if let Some(i) = self.numbered.iter().position(|(x, p)| {
            Rc::ptr_eq(x, q) || (*p == presentation && x.bipartite.p == q.bipartite.p)
        }) {
            return i as u32;
        }
        self.numbered.push((q.clone(), presentation));
        self.numbered.len() as u32 - 1
    }

    /// The quotient of number `i`.
    pub(crate) fn numbered(&self, i: u32) -> &Rc<Quotient> {
        &self.numbered[i as usize].0
    }

    /// An element's normal word (`1` for the identity).
    pub(crate) fn word(&self, q: u32, x: u32) -> String {
        self.numbered(q).monoid().word(x)
    }

    pub(super) fn get(&self, key: GameKey) -> Option<&Rc<Quotient>> {
        match key {
            GameKey::Heap(h) => self.heaps.get(&h),
            GameKey::Ruleset(r) => self.rulesets.get(&r),
        }
    }

    /// Keeps `q` if it covers more than what is kept.
    pub(super) fn offer(&mut self, key: GameKey, q: &Rc<Quotient>) {
        let map = match key {
            GameKey::Heap(h) => self.heaps.entry(h),
            GameKey::Ruleset(r) => self.rulesets.entry(r),
        };
        let better = |old: &Quotient| !old.certified() && (q.certified() || q.heap > old.heap);
        match map {
            std::collections::hash_map::Entry::Occupied(mut e) => {
                if better(e.get()) {
                    e.insert(q.clone());
                }
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(q.clone());
            }
        }
    }
}
