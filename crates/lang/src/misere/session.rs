//! The session's misère store ([`MisereSlot`]), kept by the context by its type
//! (`cx::Slots`); `misere.rs` converts games into it and runs the built-ins.

use loony_core::game::GameId;
use loony_theory::misere::{Mid, MisereStore};
use rustc_hash::FxHashMap;

/// The session's misère store and the forms of the evaluator's games converted so far.
#[derive(Default)]
pub struct MisereSession {
    pub games: MisereStore,
    pub(super) forms: FxHashMap<GameId, Mid>,
}

/// Where the session lives between queries; taken out while a query runs, because converting a
/// ruleset position calls back into the evaluator.
#[derive(Default)]
pub struct MisereSlot {
    pub(super) session: Option<Box<MisereSession>>,
    pub(super) busy: bool,
}
