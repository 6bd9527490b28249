//! The labellings a `canonical by canonical(g)` clause has found, kept for the session (the
//! context holds them: [`crate::cx`]).

use super::subsets::Subsets;
use crate::value::Value;
use loony_core::graphs::Graph;
use loony_core::positions::PosId;
use std::rc::Rc;

/// Canonical labellings already found, by the graph labelled as it was met: a component
/// recurs in many positions (a move far away leaves it as it was), and looking it up costs a
/// hash where labelling it again costs a refinement search. Cleared when it grows past
/// [`Canonical::MOST`] entries, so it stays small beside the positions themselves.
///
/// It also keeps, for each canonical graph, the graph it was first met as, and a position is
/// expanded through that one ([`Canonical::as_met`]): its options are then labelled as the
/// rest of the search labels them (subsets of the first position's vertices, renumbered in
/// order), so their labellings are found here, where options of the canonical graph itself
/// would be new labellings of the same parts (seven times as many searches on random graphs
/// of 40 vertices). The two are isomorphic, so the options' values are the same.
///
/// For boards of one kind of free cell (Cram's), it keeps each region's part by the region's
/// mask ([`Region`]), one slot a hash: a region recurs in many options (a domino far away
/// leaves it as it was), and a probe costs less than its eight images and the interning of
/// the least. Positions are never forgotten in a session, so a part found stays right.
#[derive(Default)]
pub(crate) struct Canonical {
    graphs: rustc_hash::FxHashMap<Rc<Graph>, Rc<Graph>>,
    met: rustc_hash::FxHashMap<Rc<Graph>, Rc<Graph>>,
    /// Parts of regions, a slot for each hash of a region (2^[`Canonical::REGION_BITS`],
    /// made at first use if the memory budget has room): a region found again is one probe,
    /// and a new one takes its slot. A slot is the key's head and the part in one word, its
    /// bits in the other; all zero when empty, so the memory is had zeroed, page by page as
    /// it is first written.
    regions: Vec<[u64; 2]>,
    region_families: Vec<(u32, u8)>,
    /// Graph parts as vertex masks of graphs met before (the Node Kayles rule's).
    pub(crate) subsets: Subsets,
    /// Positions of a bite rule by their boards' masks (`compile/bite.rs`), each mask in the
    /// family of its ruleset and board shape (`board_families`): a map that keeps them all,
    /// as each is met as an option of some thirty others (a slot a hash, as for regions, lost
    /// most of Chomp 11 × 11's 705 432 to others of the same slot).
    boards: loony_core::masks::MaskMap,
    board_families: Vec<(u32, u8, u8, u8)>,
}

/// A region of a board of one kind of free cell, as a key: its family (the ruleset whose
/// part it is and the kind, [`Canonical::region_family`]) and the region moved to the corner
/// of its bounding box (`Board::region_box`: rows, columns, cells as bits), so that a region
/// met anywhere on any board is one key. Only regions whose box has at most 64 cells have
/// one: a slot is then two words.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Region {
    /// The family's index + 1 (bits 0–15, so no key is 0), rows (16–23), columns (24–31).
    head: u32,
    bits: u64,
}

impl Region {
    /// The key of the region `mask` of board `b`, of family `family`; `None` when its box
    /// has more than 64 cells.
    pub(crate) fn of(family: u16, b: &loony_core::board::Board, mask: u128) -> Option<Region> {
        Region::of_box(family, b.region_box(mask))
    }

    /// The key of a region given as its box (rows, columns, cells as bits).
    pub(crate) fn of_box(family: u16, (rows, cols, bits): (u8, u8, u128)) -> Option<Region> {
        (usize::from(rows) * usize::from(cols) <= 64).then(|| Region {
            head: (u32::from(family) + 1) | u32::from(rows) << 16 | u32::from(cols) << 24,
            bits: bits as u64,
        })
    }

    /// The family the key was made for.
    pub(crate) fn family(&self) -> u16 {
        (self.head & 0xFFFF) as u16 - 1
    }

    fn hash(&self) -> u64 {
        let mix = |h: u64, x: u64| (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        mix(mix(0, u64::from(self.head)), self.bits)
    }
}

impl Canonical {
    const MOST: usize = 1 << 20;
    /// Region slots (32 MiB): a miss costs a few hundred instructions (the eight images and
    /// the interning of the least). A map of 2¹⁸ regions cleared when full missed most
    /// lookups on 5 × 9 Cram, where millions of regions recur.
    const REGION_BITS: u32 = 21;

    pub(super) fn graph(&mut self, g: &Rc<Graph>) -> Rc<Graph> {
        if let Some(c) = self.graphs.get(g) {
            return c.clone();
        }
        if self.graphs.len() >= Self::MOST {
            self.graphs.clear();
            self.met.clear();
        }
        let c = Rc::new(g.canonical());
        self.graphs.insert(g.clone(), c.clone());
        self.met.entry(c.clone()).or_insert_with(|| g.clone());
        c
    }

    /// The family of the regions of ruleset `rid` whose free cells are `kind`; `None` once
    /// there are 65 535 (their regions are then made canonical each time they are met).
    pub(crate) fn region_family(&mut self, rid: u32, kind: u8) -> Option<u16> {
        let f = (rid, kind);
        match self.region_families.iter().position(|&g| g == f) {
            Some(i) => Some(i as u16),
            None if self.region_families.len() < usize::from(u16::MAX) => {
                self.region_families.push(f);
                Some((self.region_families.len() - 1) as u16)
            }
            None => None,
        }
    }

    /// The part a region was found to be, if its slot still holds it.
    pub(crate) fn region(&self, r: &Region) -> Option<PosId> {
        let [head, bits] = *self.regions.get(Self::slot(r))?;
        (head as u32 == r.head && bits == r.bits).then_some((head >> 32) as PosId)
    }

    /// Asks the processor for a region's slot, to be read soon.
    pub(crate) fn prefetch_region(&self, r: &Region) {
        if let Some(slot) = self.regions.get(Self::slot(r)) {
            loony_core::masks::prefetch(slot);
        }
    }

    /// Keeps the part of a region in its slot (the region there before is forgotten).
    pub(crate) fn keep_region(&mut self, r: Region, p: PosId) {
        if self.regions.is_empty() {
            let slots = 1 << Self::REGION_BITS;
            // Without room the region is made canonical again when met again.
            if !loony_core::memory::room_for(slots * std::mem::size_of::<[u64; 2]>()) {
                return;
            }
            self.regions = vec![[0; 2]; slots];
        }
        self.regions[Self::slot(&r)] = [u64::from(r.head) | u64::from(p) << 32, r.bits];
    }

    fn slot(r: &Region) -> usize {
        (r.hash() >> (64 - Self::REGION_BITS)) as usize
    }

    /// The family of the boards of ruleset `rid`, their free cells `kind`, of a shape.
    pub(crate) fn board_family(&mut self, rid: u32, kind: u8, rows: u8, cols: u8) -> u32 {
        let f = (rid, kind, rows, cols);
        match self.board_families.iter().position(|&g| g == f) {
            Some(i) => i as u32,
            None => {
                self.board_families.push(f);
                (self.board_families.len() - 1) as u32
            }
        }
    }

    /// Asks for the cache line where a board of a family is looked up.
    pub(crate) fn prefetch_board(&self, family: u32, mask: u128) {
        self.boards.prefetch(family, mask);
    }

    /// The position a board of a bite rule was found to be, if kept.
    pub(crate) fn board(&self, family: u32, mask: u128) -> Option<PosId> {
        self.boards.get(family, mask)
    }

    /// Keeps the position of a board of a bite rule; all are forgotten at once when the map
    /// would grow past the memory budget.
    pub(crate) fn keep_board(&mut self, family: u32, mask: u128, p: PosId) {
        if !self
            .boards
            .insert(family, mask, p, loony_core::memory::room_for)
        {
            self.boards.clear();
            self.boards
                .insert(family, mask, p, loony_core::memory::room_for);
        }
    }

    /// The graph that the canonical graph `v` was first met as (`v` itself if unknown).
    pub(crate) fn as_met(&self, v: &mut Value) {
        if let Value::Graph(g) = v
            && let Some(m) = self.met.get(g)
        {
            *v = Value::Graph(m.clone());
        }
    }
}
