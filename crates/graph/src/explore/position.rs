//! The options of a compiled ruleset position, listed as a set.

use super::Explorer;
use super::pos_graph::{EXPANDED, GROUPED, Kind, Synth};
use crate::options::{Atom, OptBuf};
use loony_core::diag::{CoreError, Error};
use loony_core::positions::PosId;
use loony_syntax::ast::OptionKind;

impl Explorer<'_> {
    /// Lists the options of a compiled ruleset position. Each option's parts are put in order
    /// and the list is made a set; a sum gets a node of its own without being looked up (sums
    /// are cheap to value from their parts, and most are met once).
    pub(super) fn expand_pos(&mut self, u: u32, p: PosId) -> Result<(), Error> {
        let mut buf = std::mem::take(&mut self.scratch.buf);
        buf.clear();
        let r = self.src.expand_pos(self.store, p, &mut buf);
        if let Err(e) = r {
            self.scratch.buf = buf;
            return Err(e);
        }
        if self.expand_to_positions(u, &buf) {
            self.scratch.buf = buf;
            return Ok(());
        }
        let mut pool = std::mem::take(&mut self.scratch.pool);
        let mut opts = std::mem::take(&mut self.scratch.opts);
        pool.clear();
        opts.clear();
        let result = self.option_parts(&buf, &mut pool, &mut opts);
        self.scratch.buf = buf;
        let result = result.and_then(|()| {
            self.options_as_set(&mut pool, &mut opts);
            if opts.iter().all(|o| o.0 == OptionKind::Plain) {
                self.set_plain_options(u, &pool, &opts);
                Ok(())
            } else {
                self.set_entailing_options(u, &pool, &opts)
            }
        });
        self.scratch.pool = pool;
        self.scratch.opts = opts;
        result
    }

    /// Every option one position, plain (most rulesets): the node's list is their nodes, the
    /// set sorted. False (nothing set) for any other list of options.
    #[inline]
    fn expand_to_positions(&mut self, u: u32, buf: &OptBuf) -> bool {
        if !buf
            .opts
            .iter()
            .all(|o| o.kind == OptionKind::Plain && o.len == 1)
        {
            return false;
        }
        let mut list = std::mem::take(&mut self.scratch.list_buf);
        list.clear();
        for o in &buf.opts {
            let a = buf.atoms[o.start as usize];
            let x = match a {
                Atom::Pos(p) => {
                    let folded = if self.reach.fold_known {
                        self.fold(std::slice::from_ref(&a))
                    } else {
                        None
                    };
                    folded.unwrap_or_else(|| self.pos(p))
                }
                Atom::Game(_) => break,
            };
            list.push(x);
        }
        let done = list.len() == buf.opts.len();
        if done {
            list.sort_unstable();
            list.dedup();
            self.graph.set_kind(u, Kind::Form);
            self.graph.set_list(u, &list);
            self.graph.bits[u as usize] |= EXPANDED;
        }
        self.scratch.list_buf = list;
        done
    }

    /// The parts of each option into `pool` (sums flattened, zeros dropped, a part ∞ or ∞̄
    /// standing for the whole option), one `(kind, start, len)` in `opts` an option; a known
    /// plain option folded to its value leaf.
    #[inline]
    fn option_parts(
        &mut self,
        buf: &OptBuf,
        pool: &mut Vec<u32>,
        opts: &mut Vec<(OptionKind, u32, u32)>,
    ) -> Result<(), Error> {
        let (lw, rw) = (self.left_win, self.right_win);
        for o in &buf.opts {
            let start = pool.len() as u32;
            if self.reach.fold_known
                && o.kind == OptionKind::Plain
                && let Some(leaf) = self.fold(buf.parts(o))
            {
                pool.push(leaf);
                opts.push((o.kind, start, 1));
                continue;
            }
            let (mut l, mut r) = (false, false);
            for &a in buf.parts(o) {
                let x = self.atom(a)?;
                match self.graph.kind(x) {
                    Kind::Sum => pool.extend_from_slice(self.graph.parts(x)),
                    _ if x == self.zero => {}
                    Kind::LeftWin => l = true,
                    Kind::RightWin => r = true,
                    _ => pool.push(x),
                }
            }
            if l && r {
                return Err(Error::new(CoreError::InfinitiesCollide));
            }
            if l || r {
                pool.truncate(start as usize);
                pool.push(if l { lw } else { rw });
            }
            pool[start as usize..].sort_unstable();
            opts.push((o.kind, start, pool.len() as u32 - start));
        }
        Ok(())
    }

    /// A position's options are a set: the same option written twice is one move. Options of
    /// at most two parts (nearly all) are compared as one packed word.
    #[inline]
    fn options_as_set(&mut self, pool: &mut Vec<u32>, opts: &mut Vec<(OptionKind, u32, u32)>) {
        let packed = |o: &(OptionKind, u32, u32)| -> Option<u64> {
            let p = &pool[o.1 as usize..(o.1 + o.2) as usize];
            let k = (o.0 as u64) << 62;
            match p {
                [] => Some(k),
                [a] => Some(k | 1 << 61 | *a as u64),
                [a, b] if *a < 1 << 29 && *b < 1 << 29 => {
                    Some(k | 2 << 59 | (*a as u64) << 29 | *b as u64)
                }
                _ => None,
            }
        };
        let mut keys = std::mem::take(&mut self.scratch.keys);
        keys.clear();
        keys.extend(opts.iter().map_while(packed));
        if keys.len() == opts.len() {
            // Sort the packed words with the option's index in the low bits of nothing: the
            // word determines the option, so the sorted distinct words are the options.
            keys.sort_unstable();
            keys.dedup();
            opts.clear();
            pool.clear();
            for &k in &keys {
                let kind = match k >> 62 {
                    0 => OptionKind::Plain,
                    1 => OptionKind::Entail,
                    _ => OptionKind::Carry,
                };
                let start = pool.len() as u32;
                if k >> 61 & 1 == 1 {
                    pool.push((k & 0x1FFF_FFFF_FFFF) as u32);
                } else if k >> 60 & 1 == 1 {
                    pool.push((k >> 29 & 0x1FFF_FFFF) as u32);
                    pool.push((k & 0x1FFF_FFFF) as u32);
                }
                opts.push((kind, start, pool.len() as u32 - start));
            }
        } else {
            let key =
                |o: &(OptionKind, u32, u32)| (o.0 as u8, &pool[o.1 as usize..(o.1 + o.2) as usize]);
            opts.sort_unstable_by(|a, b| key(a).cmp(&key(b)));
            opts.dedup_by(|a, b| key(a) == key(b));
        }
        self.scratch.keys = keys;
    }

    /// All options plain: sums kept as groups of parts in the node's own list (no sum nodes).
    #[inline]
    fn set_plain_options(&mut self, u: u32, pool: &[u32], opts: &[(OptionKind, u32, u32)]) {
        let mut list = std::mem::take(&mut self.scratch.list_buf);
        let mut ends = std::mem::take(&mut self.scratch.ends_buf);
        list.clear();
        ends.clear();
        ends.push(opts.len() as u32);
        let mut multi = false;
        for &(_, start, len) in opts.iter() {
            let parts = &pool[start as usize..(start + len) as usize];
            match parts {
                [] => list.push(self.zero),
                _ => list.extend_from_slice(parts),
            }
            multi |= parts.len() > 1;
            ends.push(list.len() as u32);
        }
        self.graph.set_kind(u, Kind::Form);
        self.graph.set_list(u, &list);
        if multi {
            self.set_groups(u, &ends);
        }
        self.graph.bits[u as usize] |= EXPANDED;
        self.scratch.list_buf = list;
        self.scratch.ends_buf = ends;
    }

    /// Marks node `u`'s list as groups of parts ending at `ends` (their number first).
    fn set_groups(&mut self, u: u32, ends: &[u32]) {
        let at = self.graph.group_pool.len() as u32;
        self.graph.groups.insert(u, at);
        self.graph.bits[u as usize] |= GROUPED;
        self.graph.group_pool.extend_from_slice(ends);
    }

    /// Entailing or carry-on options beside sums (Top Entails): the sums stay groups of
    /// parts as well, and become value leaves when the node is classed and their parts are
    /// valued (`ungroup`), not a sum node each. Plain options come first, the same on
    /// both sides, so one list of group ends serves Left's list and Right's.
    fn set_entailing_options(
        &mut self,
        u: u32,
        pool: &[u32],
        opts: &[(OptionKind, u32, u32)],
    ) -> Result<(), Error> {
        let grouping =
            self.reach.fold_known && opts.iter().any(|o| o.0 == OptionKind::Plain && o.2 > 1);
        let mut ends = std::mem::take(&mut self.scratch.ends_buf);
        ends.clear();
        if grouping {
            ends.push(opts.len() as u32);
        }
        let (mut left, mut right) = (
            Vec::with_capacity(opts.len()),
            Vec::with_capacity(opts.len()),
        );
        if grouping {
            for &(kind, start, len) in opts.iter() {
                if kind != OptionKind::Plain {
                    continue;
                }
                match &pool[start as usize..(start + len) as usize] {
                    [] => left.push(self.zero),
                    parts => left.extend_from_slice(parts),
                }
                ends.push(left.len() as u32);
            }
            right.clone_from(&left);
        }
        let mut parts = std::mem::take(&mut self.scratch.list_buf);
        let mut result = Ok(());
        for &(kind, start, len) in opts.iter() {
            if grouping && kind == OptionKind::Plain {
                continue;
            }
            parts.clear();
            parts.extend_from_slice(&pool[start as usize..(start + len) as usize]);
            match self.option_pair(kind, &parts) {
                Ok((a, b)) => {
                    left.push(a);
                    right.push(b);
                    if grouping {
                        ends.push(left.len() as u32);
                    }
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.scratch.list_buf = parts;
        if result.is_ok() {
            self.graph.set_kind(u, Kind::Form);
            self.graph.set_lists(u, &left, &right);
            if grouping {
                self.set_groups(u, &ends);
            }
            self.graph.bits[u as usize] |= EXPANDED;
        }
        self.scratch.ends_buf = ends;
        result
    }

    /// Left's and Right's node for one option of these parts: the same node for a plain
    /// option, the synthetic wrappers for an entailing or carry-on one.
    fn option_pair(&mut self, kind: OptionKind, parts: &[u32]) -> Result<(u32, u32), Error> {
        let x = match parts {
            [] => self.zero,
            [one] => *one,
            _ => self.sum(parts)?,
        };
        match kind {
            OptionKind::Plain => Ok((x, x)),
            OptionKind::Entail => Ok((
                self.synthetic(Synth::EntailLeft, x)?,
                self.synthetic(Synth::EntailRight, x)?,
            )),
            OptionKind::Carry => Ok((
                self.synthetic(Synth::CarryLeft, x)?,
                self.synthetic(Synth::CarryRight, x)?,
            )),
        }
    }
}
