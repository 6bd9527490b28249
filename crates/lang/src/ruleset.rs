//! Exploring ruleset positions: a position's options come from running its ruleset's compiled
//! rules with the position's arguments bound. Each expansion counts against the position budget;
//! a position met again while its own options are being listed (a rule that asks for the value
//! of its own position) is an error, not an endless recursion.

use crate::compile::MaskRule;
use crate::cx::Cx;
use crate::error::{EvalError, Nesting};
use loony_core::diag::{CoreError, Error};
use loony_core::game::display::{self, Notation};
use loony_core::game::{GameId, Node, Store};
use loony_core::positions::PosId;
use loony_graph::Source;
use loony_graph::options::OptBuf;

/// Positions nested this deep in [`Cx::expanding`] are also kept in a set, so that checking
/// a deep nest of expansions stays linear.
const SHALLOW: usize = 16;

impl Cx {
    fn is_expanding(&self, pos: PosId) -> bool {
        let n = self.rules.expanding.len().min(SHALLOW);
        self.rules.expanding[..n].contains(&pos)
            || (self.rules.expanding.len() > SHALLOW && self.rules.expanding_deep.contains(&pos))
    }

    fn pos_display(&mut self, store: &mut Store, pos: PosId) -> String {
        let g = self.pos_game(store, pos);
        display::form(store, g, Notation::default())
    }
}

impl Source for Cx {
    fn expand_pos(&mut self, store: &mut Store, pos: PosId, out: &mut OptBuf) -> Result<(), Error> {
        let rid = store.positions.ruleset(pos);
        self.limits.explored += 1;
        let heavy = store.positions.heavy - self.limits.heavy_at_start;
        if self.limits.explored + heavy > self.limits.budget {
            return Err(Error::new(EvalError::Runaway {
                ruleset: store.ruleset_name(rid).to_string(),
                budget: self.limits.budget,
                last: self.pos_display(store, pos),
                heavy,
            }));
        }
        if self.limits.explored.is_multiple_of(1024) && self.interrupted() {
            return Err(Error::new(CoreError::Interrupted));
        }
        if super::stack::exhausted() {
            // Rules that ask about other positions nest expansions on the native stack.
            return Err(Error::new(EvalError::TooDeep {
                what: Nesting::Exploration,
                limit: self.rules.expanding.len(),
            }));
        }
        if self.is_expanding(pos) {
            let shown = self.pos_display(store, pos);
            return Err(Error::new(EvalError::SelfDependent { position: shown }));
        }
        let comp = self.compiled(rid);
        if let Some(MaskRule::Kayles(k)) = comp.mask_rule
            && self.kayles_options(store, rid, pos, k.kind, out)
        {
            return Ok(());
        }
        if let Some(code) = &comp.fast {
            // The register code lists it, or gives up and leaves it to the tree below.
            let (atoms, opts) = (out.atoms.len(), out.opts.len());
            let (regs, stop) = (&mut self.rules.int_regs, &self.limits.interrupt);
            if code.expand(regs, stop, store, pos, out) {
                return Ok(());
            }
            out.atoms.truncate(atoms);
            out.opts.truncate(opts);
        }
        let mut args = self.rules.frames.pop().unwrap_or_default();
        args.clear();
        store.positions.args(pos, &mut args);
        if comp
            .norm
            .as_ref()
            .and_then(|n| n.native)
            .is_some_and(|n| n.canonical)
        {
            self.rules.canonical.as_met(&mut args[0]);
        }
        let (saved_frame, saved_file, saved_depth) =
            (self.scope.frame, self.scope.file, self.scope.depth);
        // Rules are not inside the `fn` that asked about the position: a stack that runs out
        // in them is an exploration too deep, not that function's recursion.
        let saved_calling = self.scope.calling.take();
        let base = self.scope.locals.len();
        self.scope.frame = base;
        self.scope.file = comp.file;
        if self.rules.expanding.len() >= SHALLOW {
            self.rules.expanding_deep.insert(pos);
        }
        self.rules.expanding.push(pos);
        let result = comp.expand(self, store, &mut args, out);
        args.clear();
        self.rules.frames.push(args);
        self.rules.expanding.pop();
        if self.rules.expanding.len() >= SHALLOW {
            self.rules.expanding_deep.remove(&pos);
        }
        self.scope.locals.truncate(base);
        self.scope.frame = saved_frame;
        self.scope.file = saved_file;
        self.scope.depth = saved_depth;
        self.scope.calling = saved_calling;
        result.map_err(|e| {
            let shown = self.pos_display(store, pos);
            e.with_note(format!("while exploring `{shown}`"))
        })
    }

    fn pos_of(&mut self, store: &Store, g: GameId) -> PosId {
        let Node::Position { pos, .. } = store.node(g) else {
            unreachable!("pos_of is asked about store positions")
        };
        pos
    }

    fn pos_game(&mut self, store: &mut Store, pos: PosId) -> GameId {
        store.position(pos)
    }

    fn heap_options(
        &mut self,
        store: &mut Store,
        rules: u32,
        size: u64,
        out: &mut Vec<GameId>,
    ) -> Result<(), Error> {
        self.engines.heaps.options(store, rules, size, out)
    }

    fn heap_nimber(&mut self, rules: u32, size: u64) -> Result<u32, Error> {
        let interrupt = self.limits.interrupt.clone();
        self.engines.heaps.nimber(rules, size, &interrupt)
    }

    fn memo(&mut self) -> &mut loony_theory::classify::Memo {
        &mut self.engines.memo
    }

    fn memo_ref(&self) -> &loony_theory::classify::Memo {
        &self.engines.memo
    }

    fn interrupted(&self) -> bool {
        Cx::interrupted(self)
    }
}
