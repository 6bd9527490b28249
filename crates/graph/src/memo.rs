//! What the session knows, kept across queries: the class of every store form and ruleset
//! position valued so far ([`Memo`]), packed a word each by a [`Codec`]. The explorer stops at
//! what is known; the engines fill it in.

use loony_core::class::{Class, Outside};
use loony_core::game::GameId;
use loony_core::nimset::NimSet;
use loony_core::positions::PosId;
use rustc_hash::FxHashMap;

/// Infinities (∞, ∞̄, entailing moves) occur at or below the node.
pub const ENTAILING: u8 = 1;
/// A cycle of moves is reachable from the node.
pub const CYCLIC: u8 = 2;
/// A form whose sides differ (and that is no check) is reachable: not impartial.
pub const PARTIZAN: u8 = 4;

/// A game as the session remembers it: a store form, or a ruleset position by key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Game(GameId),
    Pos(PosId),
}

impl Key {
    /// The position's key (a position's game is its key marked), else the store form.
    fn pos(self) -> Result<PosId, GameId> {
        match self {
            Key::Pos(p) => Ok(p),
            Key::Game(g) => g.position().ok_or(g),
        }
    }
}

/// Classes packed in one word each (a tag in the top four bits), indexed by id.
#[derive(Default)]
struct Packed {
    code: Vec<u32>,
    flags: Vec<u8>,
}

impl Packed {
    fn get(&self, i: usize) -> Option<(u32, u8)> {
        let c = *self.code.get(i)?;
        (c != UNKNOWN).then(|| (c, self.flags[i]))
    }

    fn set(&mut self, i: usize, code: u32, flags: u8) -> bool {
        if self.code.len() <= i {
            self.code.resize(i + 1, UNKNOWN);
            self.flags.resize(i + 1, 0);
        }
        let new = self.code[i] == UNKNOWN;
        self.code[i] = code;
        self.flags[i] = flags;
        new
    }
}

/// Classes packed in one word: a tag in the top four bits, a nimber, a special moon's `n` or a
/// loopy set's id below. The sets live in the codec, interned once.
#[derive(Default)]
pub struct Codec {
    sets: Vec<std::rc::Rc<[u32]>>,
    set_index: FxHashMap<std::rc::Rc<[u32]>, u32>,
    /// The allocation of the set encoded last, one of `sets` (so never freed while cached),
    /// and its id: a labelled component's nodes share a few interned sets.
    last: (usize, u32),
}

pub const UNKNOWN: u32 = u32::MAX;
pub const PAYLOAD: u32 = (1 << 28) - 1;

impl Codec {
    fn set_id(&mut self, a: &std::rc::Rc<[u32]>) -> u32 {
        let at = std::rc::Rc::as_ptr(a) as *const u32 as usize;
        if self.last.0 == at {
            return self.last.1;
        }
        match self.set_index.get(a) {
            Some(&id) => {
                if std::rc::Rc::ptr_eq(a, &self.sets[id as usize]) {
                    self.last = (at, id);
                }
                id
            }
            None => {
                let id = self.sets.len() as u32;
                self.sets.push(a.clone());
                self.set_index.insert(a.clone(), id);
                id
            }
        }
    }

    /// The word of a class; `None` for nimbers too large for it.
    pub fn encode(&mut self, class: &Class) -> Option<u32> {
        Some(match class {
            Class::Nimber(k) if *k <= PAYLOAD => *k,
            Class::Nimber(_) => return None,
            Class::Moon => 1 << 28,
            Class::SpecialMoon(n) if *n <= PAYLOAD => 2 << 28 | n,
            Class::SpecialMoon(_) => return None,
            Class::Loopy(a) => 3 << 28 | self.set_id(a),
            Class::EntailingMoon => 4 << 28,
            Class::LeftWin => 5 << 28,
            Class::RightWin => 6 << 28,
            Class::Partizan => 7 << 28,
            Class::Undetermined(Outside::MoonBesideLoopy) => 8 << 28,
            Class::Undetermined(Outside::LoopyAndEntailing) => 9 << 28,
        })
    }

    /// The nimber a code stands for, if it stands for one (nimbers are their own codes).
    pub fn nimber(code: u32) -> Option<u32> {
        (code >> 28 == 0).then_some(code)
    }

    /// Whether a code stands for a value ([`Class::is_determined`]): not partizan, not left
    /// open by the theory.
    pub fn determined(code: u32) -> bool {
        code >> 28 < 7
    }

    pub fn decode(&self, code: u32) -> Class {
        let p = code & PAYLOAD;
        match code >> 28 {
            0 => Class::Nimber(p),
            1 => Class::Moon,
            2 => Class::SpecialMoon(p),
            3 => Class::Loopy(self.sets[p as usize].clone()),
            4 => Class::EntailingMoon,
            5 => Class::LeftWin,
            6 => Class::RightWin,
            7 => Class::Partizan,
            8 => Class::Undetermined(Outside::MoonBesideLoopy),
            _ => Class::Undetermined(Outside::LoopyAndEntailing),
        }
    }

    /// The loopy set of a word, if it is one.
    pub fn loopy(&self, code: u32) -> Option<&[u32]> {
        (code >> 28 == 3).then(|| &*self.sets[(code & PAYLOAD) as usize])
    }

    /// The loopy set interned for `a` (so equal sets share one allocation).
    pub fn intern_set(&mut self, a: &[u32]) -> std::rc::Rc<[u32]> {
        if let Some(&id) = self.set_index.get(a) {
            return self.sets[id as usize].clone();
        }
        let rc: std::rc::Rc<[u32]> = a.into();
        self.set_index.insert(rc.clone(), self.sets.len() as u32);
        self.sets.push(rc.clone());
        rc
    }
}

/// What the session knows, kept across queries: the class of every store form and ruleset
/// position valued so far.
#[derive(Default)]
pub struct Memo {
    games: Packed,
    positions: Packed,
    pub codec: Codec,
    count: usize,
    /// The affine engine's protected and counter sets of checks, by what the checks are
    /// remembered by ([`crate::Explorer::check_key`]) and which set (`true`: protected).
    pub affine_sets: FxHashMap<(u8, Key, bool), NimSet>,
}

impl Memo {
    fn table(&self, k: Key) -> (&Packed, usize) {
        match k.pos() {
            Ok(p) => (&self.positions, p as usize),
            Err(g) => (&self.games, g.index()),
        }
    }

    pub fn get(&self, k: Key) -> Option<(Class, u8)> {
        let (t, i) = self.table(k);
        let (code, flags) = t.get(i)?;
        Some((self.codec.decode(code), flags))
    }

    pub fn contains(&self, k: Key) -> bool {
        let (t, i) = self.table(k);
        t.get(i).is_some()
    }

    /// The nimber and flags of a game remembered as a nimber (without building its class).
    pub fn nimber(&self, k: Key) -> Option<(u32, u8)> {
        let (t, i) = self.table(k);
        let (code, flags) = t.get(i)?;
        (code >> 28 == 0).then_some((code & PAYLOAD, flags))
    }

    /// Remembers a class (nimbers too large for the packed word are simply not remembered).
    pub fn insert(&mut self, k: Key, class: &Class, flags: u8) {
        let Some(code) = self.codec.encode(class) else {
            return;
        };
        self.insert_code(k, code, flags);
    }

    /// Remembers a class by its word in this memo's codec.
    pub fn insert_code(&mut self, k: Key, code: u32, flags: u8) {
        let new = match k.pos() {
            Ok(p) => self.positions.set(p as usize, code, flags),
            Err(g) => self.games.set(g.index(), code, flags),
        };
        self.count += new as usize;
    }

    /// The loopy set interned for `a`.
    pub fn intern_set(&mut self, a: &[u32]) -> std::rc::Rc<[u32]> {
        self.codec.intern_set(a)
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn clear(&mut self) {
        *self = Memo::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A code read without decoding says what its class says: every kind of class, the
    /// largest nimber a code holds, and the codes no class has.
    #[test]
    fn codes_read_as_their_classes() {
        let mut codec = Codec::default();
        let classes = [
            Class::Nimber(0),
            Class::Nimber(PAYLOAD),
            Class::Moon,
            Class::SpecialMoon(3),
            Class::loopy(vec![0, 2]),
            Class::EntailingMoon,
            Class::LeftWin,
            Class::RightWin,
            Class::Partizan,
            Class::Undetermined(Outside::MoonBesideLoopy),
            Class::Undetermined(Outside::LoopyAndEntailing),
        ];
        for c in classes {
            let code = codec.encode(&c).expect("a code");
            assert_eq!(Codec::determined(code), c.is_determined(), "{c:?}");
            assert_eq!(Codec::nimber(code), c.nimber(), "{c:?}");
        }
        assert!(!Codec::determined(UNKNOWN));
    }
}
