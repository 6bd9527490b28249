//! Pruned search's state in the session (what `Cx` holds of it): the table, its capacity,
//! its progress line, the table file pending (`--table`) and the rulesets' hints by part.
//! Names no session, so the context can hold it without a circle of files.

use super::format::Pending;
use loony_core::positions::PosId;
use loony_theory::pruned::{self, Hint, Stats, Table};
use rustc_hash::FxHashMap;

/// The share of the memory budget the table may take: a quarter.
const BUDGET_SHARE: usize = 4;

/// Pruned search's state in the session: its table, the capacity asked for, and the progress
/// shown during a search.
#[derive(Default)]
pub struct Pruned {
    pub table: Table,
    /// The most entries asked for (`:table capacity N`), below the budget's share.
    pub(crate) asked: Option<usize>,
    pub(super) meter: Option<Meter>,
    /// A table file read at start (`--table`), loaded as its rulesets are defined.
    pub(super) pending: Pending,
    /// The rulesets' hints, by part.
    pub(super) hints: Hints,
}

/// What a search shows of itself once it has run a second.
pub(super) struct Meter {
    pub(super) started: std::time::Instant,
    /// On a terminal (a spinner), else log lines.
    pub(super) terminal: bool,
    pub(super) bar: Option<indicatif::ProgressBar>,
    pub(super) log: crate::progress::Log,
}

impl Pruned {
    /// The capacity the table gets for a session of `memory` bytes of budget.
    pub fn capacity_for(&self, memory: usize) -> usize {
        let share = memory / BUDGET_SHARE / pruned::ENTRY_BYTES;
        share.min(self.asked.unwrap_or(usize::MAX))
    }

    /// Whether the session saves its table to a file (`--table FILE`).
    pub fn has_file(&self) -> bool {
        self.pending.path.is_some()
    }

    /// The table's state in a line: `12034 of 1048576 entries (1.1% full), 41.2% of 96102
    /// lookups hit, 0 replaced, 20311 questions`.
    pub fn summary(&self) -> String {
        summary(&self.table.stats()) + &self.pending.summary()
    }
}

/// The counters of a table as `:table` and the progress line show them.
pub fn summary(s: &Stats) -> String {
    format!(
        "{} of {} entries ({:.1}% full), {:.1}% of {} lookups hit, {} replaced, {} questions",
        s.entries,
        s.capacity,
        100.0 * s.fill(),
        100.0 * s.hit_rate(),
        s.lookups,
        s.replacements,
        s.opened
    )
}

/// Hints worked out, by part. Cleared when it grows past [`Hints::MOST`] entries (a part's
/// hints are worked out again when it is met again).
#[derive(Default)]
pub(crate) struct Hints {
    pub(super) by_part: FxHashMap<PosId, Hint>,
}

impl Hints {
    pub(super) const MOST: usize = 1 << 20;

    pub(crate) fn get(&self, p: PosId) -> Hint {
        if self.by_part.is_empty() {
            return Hint::NONE;
        }
        self.by_part.get(&p).copied().unwrap_or(Hint::NONE)
    }

    pub(crate) fn clear(&mut self) {
        self.by_part.clear();
    }
}
