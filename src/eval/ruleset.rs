//! Exploring ruleset positions: a position's literal form is built by running the ruleset's
//! rules with the position's arguments bound. Each position is expanded once (memoised by
//! ruleset and arguments through hash-consing) and counts against the position budget.

use super::{Cx, Value};
use crate::diag::{Error, ErrorKind};
use crate::game::display::{self, Notation};
use crate::game::{GameId, Node, Store};
use crate::graph::Source;
use crate::syntax::ast::OptionKind;

const NONE: u32 = u32::MAX;

impl Source for Cx {
    fn expand(&mut self, store: &mut Store, pos: GameId) -> Result<GameId, Error> {
        if let Some(&f) = self.expansions.get(pos.index()) {
            if f != NONE {
                return Ok(GameId::from_index(f));
            }
        }
        let Node::Position { ruleset, args } = store.node(pos) else {
            return Ok(pos);
        };
        self.explored += 1;
        if self.explored > self.budget {
            return Err(Error::new(ErrorKind::Runaway {
                ruleset: store.ruleset_name(ruleset).to_string(),
                budget: self.budget,
                last: display::form(store, pos, Notation::default()),
            }));
        }
        if self.explored.is_multiple_of(1024) && self.interrupted() {
            return Err(Error::new(ErrorKind::Interrupted));
        }
        let rs = self.rulesets[ruleset as usize].clone();
        let args: Vec<Value> = store.args_of(args).iter().map(Cx::from_arg).collect();
        let (saved_frame, saved_file, saved_depth) = (self.frame, self.file, self.depth);
        let base = self.locals.len();
        self.frame = base;
        self.file = rs.file;
        let mut left = Vec::new();
        let mut right = Vec::new();
        let mut result = Ok(());
        for (p, a) in rs.def.params.iter().zip(args) {
            result = self.bind(p, a);
            if result.is_err() {
                break;
            }
        }
        if result.is_ok() {
            for rule in &rs.def.rules {
                result = self.clauses(store, &rule.clauses, &mut |cx, store| {
                    let v = cx.eval(store, &rule.option)?;
                    let g = cx.as_game(store, &v, &rule.option.span)?;
                    match rule.kind {
                        OptionKind::Plain => {
                            left.push(g);
                            right.push(g);
                        }
                        OptionKind::Entail => {
                            left.push(store.entail_left(g));
                            right.push(store.entail_right(g));
                        }
                        OptionKind::Carry => {
                            let (lw, rw) = (store.left_win(), store.right_win());
                            left.push(store.form(&[lw], &[g]));
                            right.push(store.form(&[g], &[rw]));
                        }
                    }
                    Ok(())
                });
                if result.is_err() {
                    break;
                }
            }
        }
        self.locals.truncate(base);
        self.frame = saved_frame;
        self.file = saved_file;
        self.depth = saved_depth;
        result.map_err(|e| {
            e.with_note(format!(
                "while exploring `{}`",
                display::form(store, pos, Notation::default())
            ))
        })?;
        let form = store.form(&left, &right);
        if self.expansions.len() <= pos.index() {
            self.expansions
                .resize(store.len().max(pos.index() + 1), NONE);
        }
        self.expansions[pos.index()] = form.index() as u32;
        Ok(form)
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
        let interrupt = self.interrupt.clone();
        self.engines.heaps.nimber(rules, size, &interrupt)
    }

    fn known(&self, g: GameId) -> bool {
        self.engines.memo.contains(g)
    }

    fn memo(&mut self) -> &mut crate::theory::classify::Memo {
        &mut self.engines.memo
    }

    fn interrupted(&self) -> bool {
        Cx::interrupted(self)
    }
}
