//! What the graph layer asks of the evaluator: the options of a ruleset position (by its compact
//! key), the moves and nimbers of heaps, what the session already knows, and Ctrl-C.

use crate::options::OptBuf;
use loony_core::diag::Error;
use loony_core::game::{GameId, Store};
use loony_core::positions::PosId;

pub trait Source {
    /// The options of a ruleset position, produced into `out` (counts against the position
    /// budget).
    fn expand_pos(&mut self, store: &mut Store, pos: PosId, out: &mut OptBuf) -> Result<(), Error>;
    /// The key of a store position (`r(…)` written in source or held in a value).
    fn pos_of(&mut self, store: &Store, g: GameId) -> PosId;
    /// A position as a store form, for showing it.
    fn pos_game(&mut self, store: &mut Store, pos: PosId) -> GameId;
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
    /// The session's memo of classes (and the affine engine's memo).
    fn memo(&mut self) -> &mut crate::memo::Memo;
    fn memo_ref(&self) -> &crate::memo::Memo;
    /// True once the user asked to stop (Ctrl-C).
    fn interrupted(&self) -> bool;
}
