//! Which games the pruned search values (`loony_theory::pruned`), and how it weighs a part.
//!
//! A ruleset that declares `split by` says its positions are sums of parts: that is where
//! the search pays (Lemoine and Viennot's point is that a sum's parts' nimbers are computed
//! only as far as a question needs). A game made of such positions and nimbers is valued by
//! it: `outcome` asks one question of the sum (whether it is a P-position) without the
//! whole nimber, a value asks each part's nimber. What it cannot answer (a cycle of moves, an
//! entailing option) it says so, and the game goes to the explorer and the general engines.
//!
//! The search's table ([`Pruned`]) lives inside the session's memory budget: before each
//! search its capacity is set to a quarter of the budget (in entries of
//! [`pruned::ENTRY_BYTES`]), or less if `:table capacity N` asks for less; when full it
//! replaces entries (see `loony_theory::pruned::Table`). A search longer than a second shows
//! the table's fill and hit rate on a progress line (a spinner on a terminal, a log line now
//! and then off one).

use crate::cx::Cx;
use crate::query::MoveResult;
use crate::value::Value;
use loony_core::board::BLOCKED;
use loony_core::class::{Class, Outcome};
use loony_core::diag::Error;
use loony_core::game::{GameId, Node, Store};
use loony_core::positions::PosId;
use loony_graph::Side;
use loony_theory::pruned::{self, Hint, Place, Stats, Stop, Table, Weigh};

mod file;
mod format;
mod hint;
pub(crate) mod state;

use state::Meter;
pub use state::summary;

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
        let mut table = self.take_table(store)?;
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
        self.put_table(table);
        if let Err(Stop::Error(e)) = &r {
            self.save_if_stopped(store, e);
        }
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
        let mut table = self.take_table(store)?;
        let r = pruned::is_p(store, self, &mut table, &parts, heap);
        self.put_table(table);
        if let Err(Stop::Error(e)) = &r {
            self.save_if_stopped(store, e);
        }
        match r {
            Ok(true) => Ok(Some(Outcome::P)),
            Ok(false) => Ok(Some(Outcome::N)),
            Err(stop) => unresolved(stop),
        }
    }
}

impl Cx {
    /// The table, sized for the budget, taken out for a search (see [`Cx::put_table`]),
    /// after loading what a pending table file holds of rulesets defined since.
    fn take_table(&mut self, store: &mut Store) -> Result<Table, Error> {
        self.apply_pending(store)?;
        let cap = self.engines.pruned.capacity_for(self.limits.memory);
        let mut table = std::mem::take(&mut self.engines.pruned.table);
        table.set_capacity(cap);
        self.engines.pruned.meter = Some(Meter {
            started: std::time::Instant::now(),
            terminal: self.engines.heaps.progress,
            bar: None,
            log: super::progress::Log::new("pruned search"),
        });
        Ok(table)
    }

    /// The table back after a search, whatever it ended with: what it learned stays.
    fn put_table(&mut self, table: Table) {
        self.engines.pruned.table = table;
        if let Some(b) = self.engines.pruned.meter.take().and_then(|m| m.bar) {
            b.finish_and_clear();
        }
    }

    /// A search stopped by Ctrl-C (or the memory budget) under `--table FILE` saves the table
    /// there at once, so what it learned outlives a session killed next. A failure to write
    /// is reported by the save at the end.
    fn save_if_stopped(&mut self, store: &mut Store, e: &Error) {
        if !e.is_interrupted() || !self.engines.pruned.has_file() {
            return;
        }
        let flag = self.limits.interrupt.clone();
        let _ = self.save_table_file(store);
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Sets the most entries the table may hold (`None`: its share of the memory budget).
    pub fn set_table_capacity(&mut self, entries: Option<usize>) {
        self.engines.pruned.asked = entries;
        let cap = self.engines.pruned.capacity_for(self.limits.memory);
        self.engines.pruned.table.set_capacity(cap);
    }

    /// The table's state in a line (see [`summary`]).
    pub fn table_summary(&self) -> String {
        self.engines.pruned.summary()
    }

    /// The table's counters now.
    pub fn table_stats(&self) -> Stats {
        self.engines.pruned.table.stats()
    }

    /// Forgets what pruned search learned (the memo keeps the nimbers it found).
    pub fn clear_table(&mut self) {
        self.engines.pruned.table.clear();
        self.engines.pruned.hints.clear();
    }
}

impl Cx {
    /// How each option of a sum of split positions leaves the opponent, by one pruned
    /// question an option (no graph of the whole game); `None` when an option is outside
    /// what the search values (the caller then explores).
    pub(crate) fn pruned_moves(
        &mut self,
        store: &mut Store,
        g: GameId,
    ) -> Result<Option<Vec<(GameId, MoveResult)>>, Error> {
        if self.split_parts(store, g).is_none() {
            return Ok(None);
        }
        let options = self.options_of(store, g, Side::Left)?;
        let mut out = Vec::with_capacity(options.len());
        for o in options {
            let outcome = match store.node(o) {
                Node::Nimber(0) => Outcome::P,
                Node::Nimber(_) => Outcome::N,
                _ => match self.pruned_outcome(store, o)? {
                    Some(x) => x,
                    None => return Ok(None),
                },
            };
            let r = if outcome == Outcome::P {
                MoveResult::Wins
            } else {
                MoveResult::Loses
            };
            out.push((o, r));
        }
        Ok(Some(out))
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
        // A board's free cells, read off its mask (most parts of boards are kept so).
        if let Some(n) = store.positions.free_cells(p) {
            return n;
        }
        let mut args = Vec::new();
        store.positions.args(p, &mut args);
        args.iter().map(weight).sum()
    }

    fn hint(&mut self, store: &mut Store, p: PosId) -> Result<Hint, Error> {
        self.part_hint(store, p)
    }

    fn hinted(&self, p: PosId) -> Hint {
        self.engines.pruned.hints.get(p)
    }

    fn listed_hint(&mut self, store: &mut Store, p: PosId) -> Result<Hint, Error> {
        if let Some(h) = self.engines.pruned.hints.lookup(p) {
            return Ok(h);
        }
        if self.orders_options(store, p) {
            return self.part_hint(store, p);
        }
        Ok(Hint::NONE)
    }

    /// A ruleset whose rule has a mask form is finite: each of those moves takes free cells
    /// (a domino's two, a bite's at least one) or vertices, and never gives one back.
    fn finite(&mut self, store: &Store, p: PosId) -> bool {
        let rid = store.positions.ruleset(p);
        self.compiled(rid).mask_rule.is_some()
    }

    fn wrong_bound(&mut self, store: &mut Store, p: PosId, n: u32, bound: u32) -> Error {
        Cx::wrong_bound(self, store, p, n, bound)
    }

    fn progress(&mut self, store: &Store, table: &Table, at: &Place) {
        self.autosave(store, table);
        let stats = &table.stats();
        let Some(m) = self.engines.pruned.meter.as_mut() else {
            return;
        };
        // `…, 62853123 questions; depth 31, is it *3: option 12 of 70` (of the root).
        let line = || {
            let root = at.root.map_or(String::new(), |(n, i, k)| {
                let n = match n {
                    0 => "0".to_string(),
                    1 => "*".to_string(),
                    n => format!("*{n}"),
                };
                format!(", is it {n}: option {i} of {k}")
            });
            format!("{}; depth {}{root}", summary(stats), at.depth)
        };
        if !m.terminal {
            m.log.line(line);
            return;
        }
        if m.started.elapsed().as_secs_f64() < 1.0 {
            return;
        }
        let b = m
            .bar
            .get_or_insert_with(|| super::progress::bar(0, super::progress::PRUNED));
        b.set_message(line());
        b.tick();
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
