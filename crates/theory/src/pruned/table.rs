//! The transposition table of pruned search: what the questions learned about parts, kept for
//! the session within a fixed number of entries.
//!
//! An entry is a part's [`Fact`] (its exact nimber, the values below 64 it is known not to
//! have, its option count) and the work it cost: how many questions were opened while it was
//! learned (the size of the search it saves when it is found again). Entries live in buckets
//! of [`WAYS`] slots, a part's bucket chosen by a hash of its id. The slots grow by doubling,
//! while the session's memory budget has room for the larger array, up to the capacity
//! ([`Table::set_capacity`]; `loony_lang` gives a quarter of the memory budget). Once the
//! table cannot grow, a new part takes the slot of its bucket whose entry cost the least work
//! (**least work in a bucket of four**): what saves most stays, and the replaced part is
//! relearned if it is met again. A full table never stops a query or fails it.
//!
//! Exact nimbers (and the parts' weights) are also kept by part id in an array of pages,
//! four bytes each, made while the memory budget has room: they are read for every part of
//! every option listed, and an array costs one load where the slots cost a hash probe. They
//! are never given up.
//!
//! Every fact is true of its part whatever else the table holds, so losing one costs time,
//! never an answer. The values `n ≥ 64` a part is known not to have are kept in a small set
//! beside the slots, emptied when it reaches an eighth of the capacity. Exact nimbers also go
//! to the session's memo (which keeps them all), so the table is where the partial knowledge
//! lives: the bit sets and option counts of parts whose nimbers are not known.

use loony_core::pages::Pages;
use loony_core::positions::PosId;
use rustc_hash::FxHashSet;

/// Slots a bucket holds: a part is looked for in one bucket, and a new part replaces the
/// least-work entry of its bucket when the table is full.
pub const WAYS: usize = 4;

/// Slots a table starts with.
const FIRST: usize = 1 << 10;

/// The capacity of a table no one sized: 2^22 entries (96 MiB).
pub const DEFAULT_CAPACITY: usize = 1 << 22;

/// The bytes an entry takes (a slot of the array).
pub const ENTRY_BYTES: usize = std::mem::size_of::<Slot>();

/// What is known of one part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The exact nimber, or [`UNKNOWN`].
    pub exact: u32,
    /// Bit `m`: the nimber is not `m` (for `m < 64`).
    pub not: u64,
    /// How many options the part has (a bound on its nimber), or [`UNKNOWN`].
    pub options: u32,
}

/// A field of a [`Fact`] that is not known.
pub const UNKNOWN: u32 = u32::MAX;

impl Default for Fact {
    fn default() -> Self {
        Fact {
            exact: UNKNOWN,
            not: 0,
            options: UNKNOWN,
        }
    }
}

impl Fact {
    /// Everything both facts say (they are facts of one part, so they agree).
    fn merge(&mut self, other: &Fact) {
        if other.exact != UNKNOWN {
            self.exact = other.exact;
        }
        self.not |= other.not;
        if other.options != UNKNOWN {
            self.options = other.options;
        }
    }
}

#[derive(Clone, Copy)]
struct Slot {
    /// The part, or [`EMPTY`].
    p: PosId,
    /// Questions opened while the fact was learned (at least 1).
    work: u32,
    fact: Fact,
}

const EMPTY: PosId = PosId::MAX;

const EMPTY_SLOT: Slot = Slot {
    p: EMPTY,
    work: 0,
    fact: Fact {
        exact: UNKNOWN,
        not: 0,
        options: UNKNOWN,
    },
};

/// What a table has done, for `:table` and the progress line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Parts it holds something about.
    pub entries: usize,
    /// The most entries it may hold.
    pub capacity: usize,
    /// Questions looked up in it (or in the memo through it), and those it answered.
    pub lookups: u64,
    pub hits: u64,
    /// Entries given up for new ones in a full bucket.
    pub replacements: u64,
    /// Questions opened (each expands its part once).
    pub opened: u64,
}

impl Stats {
    /// Hits per lookup, from 0 to 1 (0 before any lookup).
    pub fn hit_rate(&self) -> f64 {
        if self.lookups == 0 {
            0.0
        } else {
            self.hits as f64 / self.lookups as f64
        }
    }

    /// Entries per capacity, from 0 to 1.
    pub fn fill(&self) -> f64 {
        if self.capacity == 0 {
            0.0
        } else {
            self.entries as f64 / self.capacity as f64
        }
    }
}

/// What is read of a part for every option it is in, by its id: its exact nimber and its
/// weight (a search looks both up for each part of each option it lists, so an array
/// indexed by id, where a hash would cost a probe each).
#[derive(Clone, Copy)]
struct Known {
    /// The exact nimber, or [`UNKNOWN`].
    exact: u32,
    /// The weight plus one, or 0 when not worked out.
    weight: u32,
}

const NOTHING_KNOWN: Known = Known {
    exact: UNKNOWN,
    weight: 0,
};

/// What the search has learned about parts, kept for the session (see the module's doc).
pub struct Table {
    /// `buckets × WAYS` slots, `buckets` a power of two.
    slots: Vec<Slot>,
    /// Exact nimbers and weights by part id (where the memory budget has no room for a page,
    /// facts go to the slots alone and weights are worked out again). Exact nimbers are
    /// never given up here.
    known: Pages<Known>,
    /// The most slots (a power of two, at least [`WAYS`]).
    capacity: usize,
    len: usize,
    /// `(part, n)` for `n ≥ 64` that the part's nimber is known not to be.
    not_high: FxHashSet<(PosId, u32)>,
    pub(super) stats: Stats,
}

impl Default for Table {
    fn default() -> Self {
        Table::with_capacity(DEFAULT_CAPACITY)
    }
}

impl Table {
    /// An empty table of at most `capacity` entries (rounded down to a power of two, at least
    /// one bucket).
    pub fn with_capacity(capacity: usize) -> Table {
        Table {
            slots: Vec::new(),
            known: Pages::new(NOTHING_KNOWN),
            capacity: round(capacity),
            len: 0,
            not_high: FxHashSet::default(),
            stats: Stats::default(),
        }
    }

    /// How many parts the table holds something about.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The most entries it may hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Its counters, with its size and capacity now.
    pub fn stats(&self) -> Stats {
        Stats {
            entries: self.len,
            capacity: self.capacity,
            ..self.stats
        }
    }

    /// Forgets every entry and counter; the capacity stays.
    pub fn clear(&mut self) {
        *self = Table::with_capacity(self.capacity);
    }

    /// Sets the most entries the table may hold (rounded down to a power of two, at least
    /// one bucket). A table holding more slots is rebuilt at the new size, keeping in each
    /// bucket the entries that cost the most work.
    pub fn set_capacity(&mut self, capacity: usize) {
        let capacity = round(capacity);
        self.capacity = capacity;
        if self.slots.len() > capacity {
            self.rebuild(capacity);
        }
        if self.not_high.len() > self.most_high() {
            self.not_high.clear();
        }
    }

    /// Every entry: the part, what is known of it, and the work it cost.
    pub fn entries(&self) -> impl Iterator<Item = (PosId, Fact, u32)> + '_ {
        self.slots
            .iter()
            .filter(|s| s.p != EMPTY)
            .map(|s| (s.p, s.fact, s.work))
    }

    /// What the table knows of `p`.
    pub fn get(&self, p: PosId) -> Option<&Fact> {
        let b = self.bucket(p)?;
        self.slots[b..b + WAYS]
            .iter()
            .find(|s| s.p == p)
            .map(|s| &s.fact)
    }

    /// The exact nimber of `p` if the table learned it: `Some(UNKNOWN)` when it did not,
    /// `None` when its page could not be made (then only the slots know).
    pub fn known_exact(&self, p: PosId) -> Option<u32> {
        self.known.get(p).map(|k| k.exact)
    }

    /// The weight of `p`, if set.
    pub fn weight(&self, p: PosId) -> Option<u64> {
        self.known
            .get(p)
            .and_then(|k| k.weight.checked_sub(1))
            .map(u64::from)
    }

    /// Keeps the weight of `p` (if its page can be made).
    pub fn set_weight(&mut self, p: PosId, w: u64) {
        if let Some(k) = self.known.get_mut(p) {
            k.weight = w.min(u64::from(u32::MAX - 1)) as u32 + 1;
        }
    }

    /// Whether the part's nimber is known not to be `n ≥ 64`.
    pub fn not_high(&self, p: PosId, n: u32) -> bool {
        self.not_high.contains(&(p, n))
    }

    /// Adds what is known of `p` (learned with `work` questions) to its entry, making one if
    /// there is none (and replacing the least-work entry of its bucket if that is full).
    pub fn learn(&mut self, p: PosId, fact: &Fact, work: u32) {
        let work = work.max(1);
        if fact.exact != UNKNOWN
            && let Some(k) = self.known.get_mut(p)
        {
            k.exact = fact.exact;
        }
        if let Some(b) = self.bucket(p)
            && let Some(s) = self.slots[b..b + WAYS].iter_mut().find(|s| s.p == p)
        {
            s.fact.merge(fact);
            s.work = s.work.max(work);
            return;
        }
        if self.slots.is_empty() || (self.len * 4 >= self.slots.len() * 3 && self.can_grow()) {
            self.grow();
        }
        loop {
            let b = self.bucket(p).expect("a table with slots");
            let free = self.slots[b..b + WAYS].iter().position(|s| s.p == EMPTY);
            if let Some(i) = free {
                self.slots[b + i] = Slot {
                    p,
                    work,
                    fact: *fact,
                };
                self.len += 1;
                return;
            }
            // A full bucket in a table under half full is bad luck, not a small table: an
            // entry gives way, and the slots are not doubled yet (doubling at the first full
            // bucket left them a quarter used, and the copying cost a twentieth of a search).
            if self.len * 2 >= self.slots.len() && self.can_grow() {
                self.grow();
                continue;
            }
            let s = self.slots[b..b + WAYS]
                .iter_mut()
                .min_by_key(|s| s.work)
                .expect("a bucket has slots");
            *s = Slot {
                p,
                work,
                fact: *fact,
            };
            self.stats.replacements += 1;
            return;
        }
    }

    /// Records that the nimber of `p` is not `n` (learned with `work` questions).
    pub fn set_not(&mut self, p: PosId, n: u32, work: u32) {
        if n < 64 {
            let fact = Fact {
                not: 1 << n,
                ..Fact::default()
            };
            self.learn(p, &fact, work);
        } else {
            if self.not_high.len() >= self.most_high() {
                self.not_high.clear();
            }
            self.not_high.insert((p, n));
        }
    }

    /// The first slot of `p`'s bucket, if there are slots.
    fn bucket(&self, p: PosId) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        // Fibonacci hashing: the top bits of the product, as many as the buckets need.
        let bits = (self.slots.len() / WAYS).trailing_zeros();
        let h = u64::from(p).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Some(if bits == 0 {
            0
        } else {
            (h >> (64 - bits)) as usize * WAYS
        })
    }

    /// Whether the slots may double: under the capacity, and room in the memory budget for
    /// the new array beside the old.
    fn can_grow(&self) -> bool {
        let next = (self.slots.len() * 2).max(FIRST.min(self.capacity));
        next <= self.capacity
            && next > self.slots.len()
            && loony_core::memory::room_for(next * ENTRY_BYTES)
    }

    fn grow(&mut self) {
        let next = (self.slots.len() * 2).max(FIRST.min(self.capacity));
        self.rebuild(next);
    }

    /// The slots made `size` long, every entry put again (the most work first, so a smaller
    /// table keeps what saves most).
    fn rebuild(&mut self, size: usize) {
        let mut old: Vec<Slot> = std::mem::replace(&mut self.slots, vec![EMPTY_SLOT; size])
            .into_iter()
            .filter(|s| s.p != EMPTY)
            .collect();
        self.len = 0;
        if old.len() > size {
            old.sort_unstable_by_key(|s| std::cmp::Reverse(s.work));
        }
        for s in old {
            let b = self.bucket(s.p).expect("slots");
            if let Some(free) = self.slots[b..b + WAYS].iter_mut().find(|x| x.p == EMPTY) {
                *free = s;
                self.len += 1;
            } else {
                self.stats.replacements += 1;
            }
        }
    }

    /// The most values `n ≥ 64` kept beside the slots.
    fn most_high(&self) -> usize {
        (self.capacity / 8).max(64)
    }
}

/// A capacity as the table keeps it: a power of two, at least one bucket.
fn round(capacity: usize) -> usize {
    let c = capacity.max(WAYS);
    if c.is_power_of_two() {
        c
    } else {
        c.next_power_of_two() / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(n: u32) -> Fact {
        Fact {
            exact: n,
            ..Fact::default()
        }
    }

    #[test]
    fn a_full_table_keeps_its_capacity_and_the_costliest_entries() {
        let mut t = Table::with_capacity(8);
        assert_eq!(t.capacity(), 8);
        for p in 0..1000u32 {
            t.learn(p, &exact(p % 7), 1 + p % 3);
        }
        assert!(t.len() <= 8);
        assert!(t.stats().replacements >= 992);
        // Whatever stays is what was learned of it.
        for (p, f, w) in t.entries() {
            assert_eq!(f.exact, p % 7);
            assert_eq!(w, 1 + p % 3);
        }
        // A costly entry is not replaced by cheaper ones in its bucket.
        let mut t = Table::with_capacity(4);
        t.learn(5, &exact(1), 1000);
        for p in 100..200 {
            t.learn(p, &exact(0), 1);
        }
        assert_eq!(t.get(5).map(|f| f.exact), Some(1));
    }

    /// Below its capacity the table grows instead of replacing (the hash spreads the ids
    /// over the buckets): 150 000 parts in at most 2^18 slots, none lost.
    #[test]
    fn a_table_with_room_loses_nothing() {
        let mut t = Table::with_capacity(1 << 18);
        for p in 0..150_000u32 {
            t.learn(p * 3, &exact(p % 5), 1);
        }
        assert_eq!((t.len(), t.stats().replacements), (150_000, 0));
        assert!((0..150_000u32).all(|p| t.get(p * 3).map(|f| f.exact) == Some(p % 5)));
    }

    /// Exact nimbers and weights stay by id when the slots give their entries up.
    #[test]
    fn a_full_table_keeps_exact_nimbers_and_weights_by_id() {
        let mut t = Table::with_capacity(8);
        for p in 0..100_000u32 {
            t.learn(p * 7, &exact(p % 5), 1);
            t.set_weight(p * 7, u64::from(p % 11));
        }
        assert!(t.len() <= 8);
        for p in 0..100_000u32 {
            assert_eq!(t.known_exact(p * 7), Some(p % 5));
            assert_eq!(t.weight(p * 7), Some(u64::from(p % 11)));
        }
        assert_eq!(t.known_exact(1), Some(UNKNOWN));
        assert_eq!(t.weight(1), None);
        assert_eq!(t.known_exact(u32::MAX - 1), None, "no page there");
        t.clear();
        assert_eq!(t.known_exact(7), None);
    }

    #[test]
    fn facts_merge_and_capacities_round_down() {
        let mut t = Table::with_capacity(100);
        assert_eq!(t.capacity(), 64);
        t.set_not(3, 0, 1);
        t.set_not(3, 2, 5);
        t.learn(
            3,
            &Fact {
                options: 4,
                ..Fact::default()
            },
            1,
        );
        assert_eq!(
            t.get(3),
            Some(&Fact {
                exact: UNKNOWN,
                not: 0b101,
                options: 4
            })
        );
        t.set_not(3, 70, 1);
        assert!(t.not_high(3, 70) && !t.not_high(3, 71));
        t.set_capacity(1);
        assert_eq!(t.capacity(), WAYS);
        assert!(t.len() <= WAYS);
    }
}
