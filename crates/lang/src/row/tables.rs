//! The classes of dense rows' positions found in the session ([`RowTables`]), held by the
//! context ([`crate::cx::Engines`]); `row.rs` lists and labels the rows.

use loony_graph::row::Grid;
use rustc_hash::FxHashMap;

/// The classes found in each row, by key header, then by the fixed arguments' key words: memo
/// codes by coordinates.
#[derive(Default)]
pub struct RowTables {
    pub(super) rows: FxHashMap<u32, Vec<(Vec<u32>, Grid)>>,
}

impl RowTables {
    /// The table of the row with key header `header` and fixed words `fixed`, made if new
    /// and grown to hold the coordinates `top`.
    pub(super) fn grown(&mut self, header: u32, fixed: &[u32], top: &[i64]) -> &mut Grid {
        let t = self
            .rows
            .entry(header)
            .or_default()
            .entry_for(fixed, top.len());
        t.grow_to(top, usize::MAX);
        t
    }
}

trait EntryFor {
    fn entry_for(&mut self, fixed: &[u32], k: usize) -> &mut Grid;
}

impl EntryFor for Vec<(Vec<u32>, Grid)> {
    fn entry_for(&mut self, fixed: &[u32], k: usize) -> &mut Grid {
        let i = match self.iter().position(|(f, _)| f == fixed) {
            Some(i) => i,
            None => {
                self.push((fixed.to_vec(), Grid::new(k)));
                self.len() - 1
            }
        };
        &mut self[i].1
    }
}
