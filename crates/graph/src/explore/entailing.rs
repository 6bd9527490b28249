//! Entailing and carry-on options the explorer makes for compiled positions (`{∞ | P^R}`,
//! `{∞ | P}` and their mirrors): their lists, whether a move to one checks, and conjugates.

use super::Explorer;
use super::pos_graph::{EXPANDED, Kind, NO_GAME, SYNTH, Side, Synth};
use crate::memo::Key;
use loony_core::diag::Error;

impl Explorer<'_> {
    /// An entailing or carry-on option wrapping `p`. Its lists are made when it is expanded
    /// (an entailing option lists `p`'s options, so making them now would expand `p` at once,
    /// recursing down a chain of entailing options).
    pub(super) fn synthetic(&mut self, what: Synth, p: u32) -> Result<u32, Error> {
        if let Some(&u) = self.graph.index.synth_index.get(&(what, p)) {
            return Ok(u);
        }
        let u = self.graph.push(Kind::Form, NO_GAME, false);
        self.graph.bits[u as usize] |= SYNTH;
        self.graph.index.synth.insert(u, (what, p));
        self.graph.index.synth_index.insert((what, p), u);
        Ok(u)
    }

    pub(super) fn expand_synthetic(&mut self, u: u32) -> Result<(), Error> {
        let (what, p) = self.graph.index.synth[&u];
        let (lw, rw) = (self.left_win, self.right_win);
        let (left, right) = match what {
            Synth::EntailLeft => (vec![lw], self.options(p, Side::Right)?),
            Synth::EntailRight => (self.options(p, Side::Left)?, vec![rw]),
            Synth::CarryLeft => (vec![lw], vec![p]),
            Synth::CarryRight => (vec![p], vec![rw]),
        };
        self.graph.set_lists(u, &left, &right);
        self.graph.bits[u as usize] |= EXPANDED;
        Ok(())
    }

    /// Does moving to `u` check (∞ among Left's options or ∞̄ among Right's)? Entailing options
    /// made here are listed first if need be; a failure to list them counts as quiet.
    pub fn is_check(&mut self, u: u32) -> bool {
        if self.graph.kind(u) != Kind::Form {
            return false;
        }
        if self.graph.bits[u as usize] & SYNTH != 0 && self.expand(u).is_err() {
            return false;
        }
        let (lw, rw) = (self.left_win, self.right_win);
        self.graph.is_expanded(u)
            && (self.graph.left(u).contains(&lw) || self.graph.right(u).contains(&rw))
    }

    /// An entailing or carry-on option made here, not yet listed, whose target an earlier
    /// query valued along with the affine engine's set for it: the engine reads the set, so the target's followers need not be explored again (a chain of entailing
    /// moves, as in Top Entails, would otherwise be walked whole by every query). The
    /// target's remembered flags.
    pub fn remembered_check(&self, u: u32) -> Option<u8> {
        if self.graph.is_expanded(u) {
            return None;
        }
        let &(_, p) = self.synth_of(u)?;
        let (tag, key) = self.check_key(u)?;
        let memo = self.src.memo_ref();
        let (_, flags) = memo.get(key)?;
        let sets = &memo.affine_sets;
        (sets.contains_key(&(tag, key, true)) || sets.contains_key(&(tag, key, false)))
            .then_some(flags)
            .filter(|_| self.graph.kind(p) == Kind::Known)
    }

    pub(super) fn synth_of(&self, u: u32) -> Option<&(Synth, u32)> {
        if self.graph.bits[u as usize] & SYNTH == 0 {
            return None;
        }
        self.graph.index.synth.get(&u)
    }

    /// The conjugate of a node (Left and Right swapped): ruleset positions, nimbers and
    /// valued leaves are impartial, entailing options swap sides, sums and store forms are
    /// conjugated part by part.
    pub fn conjugate(&mut self, u: u32) -> Result<u32, Error> {
        match self.graph.kind(u) {
            Kind::LeftWin => return Ok(self.right_win),
            Kind::RightWin => return Ok(self.left_win),
            Kind::Nimber(_) | Kind::Value(_) => return Ok(u),
            Kind::Sum => {
                // Ruleset positions and nimbers are their own conjugates: a sum of only those
                // (nearly every sum a ruleset makes) is answered without building its twin.
                let fixed = |p: u32| {
                    matches!(self.graph.kind(p), Kind::Nimber(_) | Kind::Value(_))
                        || matches!(self.graph.key(p), Some(Key::Pos(_)))
                };
                if self.graph.parts(u).iter().all(|&p| fixed(p)) {
                    return Ok(u);
                }
                let parts = self.graph.parts(u).to_vec();
                let mut conj = Vec::with_capacity(parts.len());
                for &p in &parts {
                    conj.push(self.conjugate(p)?);
                }
                // A sum of impartial parts is its own conjugate.
                if conj == parts {
                    return Ok(u);
                }
                return self.sum(&conj);
            }
            _ => {}
        }
        if let Some(&(what, p)) = self.synth_of(u) {
            let q = self.conjugate(p)?;
            let twin = match what {
                Synth::EntailLeft => Synth::EntailRight,
                Synth::EntailRight => Synth::EntailLeft,
                Synth::CarryLeft => Synth::CarryRight,
                Synth::CarryRight => Synth::CarryLeft,
            };
            return self.synthetic(twin, q);
        }
        match self.graph.key(u) {
            Some(Key::Pos(_)) => Ok(u),
            Some(Key::Game(g)) => {
                let c = self.store.conjugate(g)?;
                self.node(c)
            }
            None => unreachable!("sums, entailing options and leaves are handled above"),
        }
    }

    /// What the session can remember a check by: its store form, or what an entailing or
    /// carry-on option made here wraps (tagged by kind).
    pub fn check_key(&self, u: u32) -> Option<(u8, Key)> {
        if let Some(&(what, p)) = self.synth_of(u) {
            let tag = match what {
                Synth::EntailLeft => 1,
                Synth::EntailRight => 2,
                Synth::CarryLeft => 3,
                Synth::CarryRight => 4,
            };
            return Some((tag, self.graph.key(p)?));
        }
        Some((0, self.graph.key(u)?))
    }
}
