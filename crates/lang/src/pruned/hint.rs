//! A ruleset's hints to pruned search (`bound by`, `order by`, `value by`), evaluated on one
//! part at a time and kept, so that each part's hints are worked out once.
//!
//! A true hint never changes what a game is: it tells the search where to look first
//! (`order`), where it need not look (`bound`: the nimber is at most this), or what it need
//! not look at (`value`: a table of parts the ruleset knows). Both are trusted where they save
//! work; the search checks a bound wherever it values a part by its options anyway
//! (`loony_theory::pruned`).

use super::state::NOT_YET;
use crate::compile::MaskRule;
use crate::compile::run;
use crate::cx::Cx;
use crate::error::EvalError;
use crate::value::Value;
use loony_core::diag::Error;
use loony_core::game::Store;
use loony_core::positions::PosId;
use loony_syntax::ast::Span;
use loony_theory::pruned::{Hint, UNKNOWN};

impl Cx {
    /// The hints of the part `p`, worked out by its ruleset's clauses if not already.
    pub(crate) fn part_hint(&mut self, store: &mut Store, p: PosId) -> Result<Hint, Error> {
        if let Some(h) = self.engines.pruned.hints.lookup(p) {
            return Ok(h);
        }
        let rid = store.positions.ruleset(p);
        let comp = self.compiled(rid);
        // What the engine knows of the rule's form comes before what its clauses say.
        if let Some(MaskRule::Domino(d)) = comp.mask_rule
            && let Some((rows, cols, kind, free)) = store.positions.board_mask(p)
            && kind == d.free
            && d.half_turn_zero(rows, cols, free)
        {
            let hint = Hint {
                value: 0,
                ..Hint::NONE
            };
            self.engines.pruned.hints.keep(p, hint);
            return Ok(hint);
        }
        let Some(norm) = comp.norm.as_ref() else {
            return Ok(Hint::NONE);
        };
        let Some(clauses) = norm.hints.as_deref() else {
            return Ok(Hint::NONE);
        };
        let mut args = Vec::new();
        store.positions.args(p, &mut args);
        let name = self.rules.rulesets[rid as usize].def.name.name.to_string();
        // The clauses' spans are in the ruleset's file.
        let saved_file = std::mem::replace(&mut self.scope.file, comp.file);
        let r = run::with_frame(self, norm.slots, |cx, f| {
            for (pat, a) in norm.params.iter().zip(args) {
                run::bind(cx, f, pat, a)?;
            }
            let mut hint = Hint::NONE;
            if let Some((e, span)) = &clauses.bound {
                let v = run::eval(cx, store, f, e)?;
                hint.bound =
                    natural(cx, &name, "bound by", v, span)?.min(u64::from(UNKNOWN - 1)) as u32;
            }
            if let Some((e, span)) = &clauses.order {
                let v = run::eval(cx, store, f, e)?;
                hint.order = Some(natural(cx, &name, "order by", v, span)?);
            }
            if let Some((e, span)) = &clauses.value {
                match run::eval(cx, store, f, e)? {
                    Value::None => {}
                    v => {
                        let n = natural(cx, &name, "value by", v, span)?;
                        hint.value =
                            u32::try_from(n)
                                .ok()
                                .filter(|&n| n < NOT_YET)
                                .ok_or_else(|| {
                                    bad(
                                        cx,
                                        &name,
                                        format!("(`value by`) gave {n}, a nimber too large"),
                                        span,
                                    )
                                })?;
                    }
                }
            }
            Ok(hint)
        });
        self.scope.file = saved_file;
        let hint = r?;
        self.engines.pruned.hints.keep(p, hint);
        Ok(hint)
    }

    /// Whether the part's ruleset has an `order by` clause (its options are ordered by what
    /// it says of each part listed).
    pub(crate) fn orders_options(&mut self, store: &Store, p: PosId) -> bool {
        let rid = store.positions.ruleset(p);
        self.compiled(rid)
            .norm
            .as_ref()
            .and_then(|n| n.hints.as_ref())
            .is_some_and(|h| h.order.is_some())
    }

    /// The error of a ruleset whose `bound by` is below a part's nimber.
    pub(crate) fn wrong_bound(&mut self, store: &mut Store, p: PosId, n: u32, bound: u32) -> Error {
        let rid = store.positions.ruleset(p);
        let comp = self.compiled(rid);
        let span = comp
            .norm
            .as_ref()
            .and_then(|n| n.hints.as_ref())
            .and_then(|h| h.bound.as_ref())
            .map_or(0..0, |(_, s)| s.clone());
        let name = self.rules.rulesets[rid as usize].def.name.name.to_string();
        let g = store.position(p);
        let part = self
            .show_one(store, &Value::Position(g))
            .unwrap_or_else(|_| format!("{name}(…)"));
        Error::at(
            EvalError::BadHint {
                ruleset: name.clone(),
                detail: format!(
                    "(`bound by`) gave {bound} for the part `{part}`, whose nimber is {n}"
                ),
            },
            comp.file,
            span,
        )
        .with_note("a bound must be at least the nimber of every part: the search trusts it")
    }
}

/// A hint's integer from 0.
fn natural(cx: &Cx, name: &str, clause: &str, v: Value, span: &Span) -> Result<u64, Error> {
    match v {
        Value::Int(n) if n >= 0 => Ok(n as u64),
        Value::Int(n) => Err(bad(
            cx,
            name,
            format!("(`{clause}`) gave {n}, not an integer from 0"),
            span,
        )),
        other => Err(bad(
            cx,
            name,
            format!(
                "(`{clause}`) gave {}, not an integer from 0",
                other.type_name()
            ),
            span,
        )),
    }
}

fn bad(cx: &Cx, name: &str, detail: String, span: &Span) -> Error {
    cx.err(
        EvalError::BadHint {
            ruleset: name.to_string(),
            detail,
        },
        span,
    )
}
