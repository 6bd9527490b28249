//! Pruned search's state in the session (what `Cx` holds of it): the table, its capacity,
//! its progress line, the table file pending (`--table`) and the rulesets' hints by part.
//! Names no session, so the context can hold it without a circle of files.

use super::format::Pending;
use loony_core::pages::Pages;
use loony_core::positions::PosId;
use loony_theory::pruned::{self, Hint, Stats, Table, UNKNOWN};

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

    /// Whether a search is running (it has a meter from the table's taking to its return).
    pub(crate) fn searching(&self) -> bool {
        self.meter.is_some()
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

/// Hints worked out, by part id ([`Pages`]: a part without a page, where the memory budget had
/// no room, has its hints worked out again when met again). A
/// search reads a part's hints for every option the part is in, so an array, not a hash.
pub(crate) struct Hints {
    pages: Pages<Packed>,
}

impl Default for Hints {
    fn default() -> Self {
        Hints {
            pages: Pages::new(UNSET),
        }
    }
}

/// A [`Hint`] in 16 bytes: `order` `u64::MAX` for none (an order is at most `i64::MAX`),
/// `value` [`NOT_YET`] for hints not worked out (`value by` gives less).
#[derive(Clone, Copy)]
struct Packed {
    bound: u32,
    value: u32,
    order: u64,
}

/// The `value` of a part whose hints are not worked out.
pub(super) const NOT_YET: u32 = UNKNOWN - 1;

const UNSET: Packed = Packed {
    bound: UNKNOWN,
    value: NOT_YET,
    order: u64::MAX,
};

impl Hints {
    /// The part's hints, none when not worked out.
    pub(crate) fn get(&self, p: PosId) -> Hint {
        self.lookup(p).unwrap_or(Hint::NONE)
    }

    /// The part's hints if they were worked out.
    pub(crate) fn lookup(&self, p: PosId) -> Option<Hint> {
        let k = self.pages.get(p)?;
        (k.value != NOT_YET).then_some(Hint {
            bound: k.bound,
            order: (k.order != u64::MAX).then_some(k.order),
            value: k.value,
        })
    }

    /// Keeps the part's hints, if its page is there or there is room to make it.
    pub(crate) fn keep(&mut self, p: PosId, h: Hint) {
        if let Some(k) = self.pages.get_mut(p) {
            *k = Packed {
                bound: h.bound,
                value: h.value,
                order: h.order.unwrap_or(u64::MAX),
            };
        }
    }

    pub(crate) fn clear(&mut self) {
        self.pages.clear();
    }
}
