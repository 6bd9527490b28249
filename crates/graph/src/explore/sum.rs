//! Disjunctive sums in the explorer: flattened and interned by their parts, and, when a query
//! asks for values alone, an option whose parts the session has valued folded into the value
//! leaf of its class (so the sum needs no node of its own).

use super::Explorer;
use super::pos_graph::{GROUPED, Kind, NO_GAME};
use crate::memo::Key;
use crate::options::Atom;
use loony_core::class::Class;
use loony_core::diag::{CoreError, Error};
use loony_core::game::Node;

/// The most parts of an option folded into a value leaf (larger sums stay nodes).
const FOLD_MOST: usize = 4;

impl Explorer<'_> {
    /// The value leaf of an option whose parts the session has valued (plain values only:
    /// nimbers, loopy values, the moons with literal forms), or `None`.
    pub(super) fn fold(&mut self, parts: &[Atom]) -> Option<u32> {
        if parts.len() > FOLD_MOST {
            return None;
        }
        // Most options of a position explored for the first time have a new part: reject
        // those before decoding any class.
        let memo = self.src.memo_ref();
        let known = |a: &Atom| match *a {
            Atom::Pos(p) => memo.contains(Key::Pos(p)),
            Atom::Game(_) => true,
        };
        if !parts.iter().all(known) {
            return None;
        }
        // Nimbers of normal play (the common case): one nim-sum, one leaf per value.
        let mut x = 0u32;
        let all_nimbers = parts.iter().all(|a| match *a {
            Atom::Pos(p) => match memo.nimber(Key::Pos(p)) {
                Some((k, 0)) => {
                    x ^= k;
                    true
                }
                _ => false,
            },
            Atom::Game(_) => false,
        });
        if all_nimbers {
            if let Some(&u) = self.nimber_leaves.get(x as usize)
                && u != NO_GAME
            {
                return Some(u);
            }
            let u = self.leaf(Class::Nimber(x), 0);
            if (x as usize) < 1 << 20 {
                if self.nimber_leaves.len() <= x as usize {
                    self.nimber_leaves.resize(x as usize + 1, NO_GAME);
                }
                self.nimber_leaves[x as usize] = u;
            }
            return Some(u);
        }
        let mut classes: [Option<(Class, u8)>; FOLD_MOST] = Default::default();
        for (i, &a) in parts.iter().enumerate() {
            let key = match a {
                Atom::Pos(p) => Key::Pos(p),
                Atom::Game(g) => match self.store.node(g) {
                    Node::Nimber(n) => {
                        classes[i] = Some((Class::Nimber(n), 0));
                        continue;
                    }
                    _ => Key::Game(g),
                },
            };
            let (c, f) = self.src.memo_ref().get(key)?;
            if !matches!(
                c,
                Class::Nimber(_) | Class::Loopy(_) | Class::SpecialMoon(_) | Class::Moon
            ) {
                return None;
            }
            classes[i] = Some((c, f));
        }
        let flags = classes.iter().flatten().fold(0, |f, (_, g)| f | g);
        let class = loony_core::class::sum(classes.iter().flatten().map(|(c, _)| c));
        Some(self.leaf(class, flags))
    }

    fn leaf(&mut self, class: Class, flags: u8) -> u32 {
        if let Some(&u) = self.graph.index.value_index.get(&(class.clone(), flags)) {
            return u;
        }
        let i = self.graph.index.values.len() as u32;
        let u = self.graph.push(Kind::Value(i), NO_GAME, true);
        self.graph.index.values.push((class.clone(), flags, u));
        self.graph.index.value_index.insert((class, flags), u);
        u
    }

    /// The sum of local nodes: nested sums flattened, the literal 0 dropped, ∞ absorbing.
    pub fn sum(&mut self, parts: &[u32]) -> Result<u32, Error> {
        let mut flat = std::mem::take(&mut self.scratch.flat);
        flat.clear();
        let (mut lw, mut rw) = (false, false);
        for &p in parts {
            match self.graph.kind(p) {
                Kind::Sum => flat.extend_from_slice(self.graph.parts(p)),
                // Only the literal 0 vanishes: a heap or position worth 0 still has moves.
                _ if p == self.zero => {}
                Kind::LeftWin => lw = true,
                Kind::RightWin => rw = true,
                _ => flat.push(p),
            }
        }
        let r = match (lw, rw, flat.len()) {
            (true, true, _) => Err(Error::new(CoreError::InfinitiesCollide)),
            (true, false, _) => Ok(self.left_win),
            (false, true, _) => Ok(self.right_win),
            (_, _, 0) => Ok(self.zero),
            (_, _, 1) => Ok(flat[0]),
            _ => {
                flat.sort_unstable();
                Ok(self.graph.intern_sum(&flat))
            }
        };
        self.scratch.flat = flat;
        r
    }

    /// Turns a grouped node's sums into sum nodes, so its lists are plain option lists. When
    /// the query wants values only, a sum whose parts the session has valued becomes the
    /// value leaf of its class instead (as `fold` does for options valued when listed).
    pub fn ungroup(&mut self, u: u32) -> Result<(), Error> {
        if !self.graph.is_grouped(u) {
            return Ok(());
        }
        let groups: Vec<Vec<u32>> = self.graph.groups(u).map(<[u32]>::to_vec).collect();
        let right = (!self.graph.is_symmetric_list(u)).then(|| self.graph.right(u).to_vec());
        let (mut left_list, mut right_list) = (Vec::with_capacity(groups.len()), Vec::new());
        let mut at = 0;
        for parts in groups {
            let x = match parts[..] {
                [one] => one,
                _ => match self.late_fold(&parts) {
                    Some(leaf) => leaf,
                    None => self.sum(&parts)?,
                },
            };
            left_list.push(x);
            // Sums are plain options, the same on both sides; single options may differ.
            if let Some(r) = &right {
                right_list.push(if parts.len() == 1 { r[at] } else { x });
            }
            at += parts.len();
        }
        match right {
            Some(_) => self.graph.set_lists(u, &left_list, &right_list),
            None => self.graph.set_lists(u, &left_list, &left_list),
        }
        self.graph.groups.remove(&u);
        self.graph.bits[u as usize] &= !GROUPED;
        Ok(())
    }

    /// The value leaf of a sum of nodes the session has valued (see `fold`), if the query
    /// wants values only.
    fn late_fold(&mut self, parts: &[u32]) -> Option<u32> {
        if !self.reach.fold_known {
            return None;
        }
        if parts.len() > FOLD_MOST {
            return None;
        }
        let mut atoms = [Atom::Pos(0); FOLD_MOST];
        for (a, &p) in atoms.iter_mut().zip(parts) {
            *a = match self.graph.key(p)? {
                Key::Pos(q) => Atom::Pos(q),
                Key::Game(g) => Atom::Game(g),
            };
        }
        self.fold(&atoms[..parts.len()])
    }
}
