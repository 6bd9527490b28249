//! The options of one position, as a position source produces them for the explorer: each
//! option a kind and its parts (one part, or the parts of a sum), written into reusable buffers.

use loony_core::game::GameId;
use loony_core::positions::PosId;
use loony_syntax::ast::OptionKind;

/// One option of an expansion: its kind and its parts (one part, or the parts of a sum).
#[derive(Clone, Copy, Debug)]
pub struct OptRec {
    pub kind: OptionKind,
    pub start: u32,
    pub len: u32,
}

impl OptRec {
    /// A move of normal play (neither entailing nor carry-on).
    pub fn is_plain(&self) -> bool {
        self.kind == OptionKind::Plain
    }
}

/// A part of an option: a ruleset position by key, or any other game of the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atom {
    Pos(PosId),
    Game(GameId),
}

/// The options of one position, produced into reusable buffers.
#[derive(Default)]
pub struct OptBuf {
    pub atoms: Vec<Atom>,
    pub opts: Vec<OptRec>,
}

impl OptBuf {
    pub fn clear(&mut self) {
        self.atoms.clear();
        self.opts.clear();
    }

    pub fn parts(&self, o: &OptRec) -> &[Atom] {
        &self.atoms[o.start as usize..(o.start + o.len) as usize]
    }
}
