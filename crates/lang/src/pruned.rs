//! Which games the pruned search values (`loony_theory::pruned`), and how it weighs a part.
//!
//! A ruleset that declares `split by` says its positions are sums of parts: that is where
//! the search pays (Lemoine and Viennot's point is that a sum's parts' nimbers are computed
//! only as far as a question needs). A game made of such positions and nimbers is valued by
//! it: `outcome` asks one question of the sum (whether it is a P-position) without the
//! whole nimber, a value asks each part's nimber. What it cannot answer (a cycle of moves, an
//! entailing option) it says so, and the game goes to the explorer and the general engines.

use super::{Cx, Value};
use loony_core::board::BLOCKED;
use loony_core::class::{Class, Outcome};
use loony_core::diag::Error;
use loony_core::game::{GameId, Node, Store};
use loony_core::positions::PosId;
use loony_theory::pruned::{self, Stop, Weigh};

impl Cx {
    /// The parts and folded nimber of a game that is a sum of positions of rulesets with a
    /// `split by` clause and nimbers; `None` for any other game.
    fn split_parts(&mut self, store: &Store, g: GameId) -> Option<(Vec<PosId>, u32)> {
        let one =
            |cx: &mut Cx, g: GameId, parts: &mut Vec<PosId>, heap: &mut u32| match store.node(g) {
                Node::Nimber(k) => {
                    *heap ^= k;
                    true
                }
                Node::Position { .. } => {
                    let p = loony_graph::Source::pos_of(cx, store, g);
                    let rid = store.positions.ruleset(p);
                    let splits = cx
                        .compiled(rid)
                        .norm
                        .as_ref()
                        .is_some_and(|n| n.split.is_some());
                    parts.push(p);
                    splits
                }
                _ => false,
            };
        let (mut parts, mut heap) = (Vec::new(), 0);
        let ok = match store.node(g) {
            Node::Sum(xs) => xs
                .iter()
                .copied()
                .all(|x| one(self, x, &mut parts, &mut heap)),
            _ => one(self, g, &mut parts, &mut heap),
        };
        (ok && !parts.is_empty()).then_some((parts, heap))
    }

    /// The value of a sum of split positions by pruned search: `None` when the search finds
    /// the game outside what it values (the caller then explores it).
    pub(crate) fn pruned_class(
        &mut self,
        store: &mut Store,
        g: GameId,
    ) -> Result<Option<Class>, Error> {
        let Some((parts, mut heap)) = self.split_parts(store, g) else {
            return Ok(None);
        };
        let mut table = std::mem::take(&mut self.engines.pruned);
        let mut r = Ok(());
        for p in parts {
            match pruned::nimber(store, self, &mut table, p) {
                Ok(k) => heap ^= k,
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        self.engines.pruned = table;
        match r {
            Ok(()) => Ok(Some(Class::Nimber(heap))),
            Err(stop) => unresolved(stop),
        }
    }

    /// The outcome of a sum of split positions by pruned search (one question, no nimber of
    /// the whole); `None` as for [`Cx::pruned_class`].
    pub(crate) fn pruned_outcome(
        &mut self,
        store: &mut Store,
        g: GameId,
    ) -> Result<Option<Outcome>, Error> {
        let Some((parts, heap)) = self.split_parts(store, g) else {
            return Ok(None);
        };
        let mut table = std::mem::take(&mut self.engines.pruned);
        let r = pruned::is_p(store, self, &mut table, &parts, heap);
        self.engines.pruned = table;
        match r {
            Ok(true) => Ok(Some(Outcome::P)),
            Ok(false) => Ok(Some(Outcome::N)),
            Err(stop) => unresolved(stop),
        }
    }
}

/// A search that stopped short: an error is the query's, anything else leaves the game to
/// the explorer.
fn unresolved<T>(stop: Stop) -> Result<Option<T>, Error> {
    match stop {
        Stop::Error(e) => Err(e),
        Stop::Cycle(_) | Stop::NotNormal => Ok(None),
    }
}

impl Weigh for Cx {
    /// The size of a position's arguments: free cells of a board, vertices and edges of a
    /// graph, the size of an integer, items of a list.
    fn weight(&self, store: &Store, p: PosId) -> u64 {
        let mut args = Vec::new();
        store.positions.args(p, &mut args);
        args.iter().map(weight).sum()
    }
}

fn weight(v: &Value) -> u64 {
    match v {
        Value::Int(n) => n.unsigned_abs(),
        Value::Board(b) => b.cells().iter().filter(|&&c| c != BLOCKED).count() as u64,
        Value::Graph(g) => (g.order() + g.edges().len()) as u64,
        Value::List(xs) | Value::Tuple(xs) => xs.len() as u64 + xs.iter().map(weight).sum::<u64>(),
        _ => 1,
    }
}
