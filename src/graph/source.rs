//! What the graph layer asks of the evaluator: the literal form of a ruleset position, the moves
//! and nimbers of heaps, whether the session already knows a game's value, and Ctrl-C.

use crate::diag::Error;
use crate::game::{GameId, Store};

pub trait Source {
    /// The literal form of a ruleset position (memoised by the implementor; counts against the
    /// position budget).
    fn expand(&mut self, store: &mut Store, pos: GameId) -> Result<GameId, Error>;
    /// The options of a heap of `size` under heap rules `rules` (sums of heaps).
    fn heap_options(
        &mut self,
        store: &mut Store,
        rules: u32,
        size: u64,
        out: &mut Vec<GameId>,
    ) -> Result<(), Error>;
    /// The nimber of a heap, from the heap engine's nim-sequence.
    fn heap_nimber(&mut self, rules: u32, size: u64) -> Result<u32, Error>;
    /// Does the session know this game's class already (so it need not be explored)?
    fn known(&self, g: GameId) -> bool;
    /// The session's memo of classes (and the affine engine's memo).
    fn memo(&mut self) -> &mut crate::theory::classify::Memo;
    /// True once the user asked to stop (Ctrl-C).
    fn interrupted(&self) -> bool;
}
