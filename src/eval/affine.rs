//! The affine engine (entailing and carry-on moves) over the game store: the store implements
//! the engine's graph interface, and engine errors become diagnostics about the offending form.

use super::show::GameValue;
use super::value::Outcome;
use super::{Cx, Value};
use crate::diag::{Error, ErrorKind};
use crate::game::display::{self, Notation};
use crate::game::{GameId, Node, Side, Store, graph};
use crate::theory::affine::{self, AffineError, AffineGraph, AffineValue, Explanation, Shape};
use std::rc::Rc;

/// The store seen by the affine engine; positions are expanded through the context.
struct StoreGraph<'a> {
    store: &'a mut Store,
    cx: &'a mut Cx,
}

impl AffineGraph for StoreGraph<'_> {
    type Id = GameId;
    type Error = Error;

    fn shape(&mut self, g: GameId) -> Result<Shape<GameId>, Error> {
        Ok(match self.store.node(g) {
            Node::LeftWin => Shape::LeftWin,
            Node::RightWin => Shape::RightWin,
            Node::Sum(parts) => Shape::Sum(parts.to_vec()),
            _ => Shape::Form,
        })
    }

    fn left_options(&mut self, g: GameId, out: &mut Vec<GameId>) -> Result<(), Error> {
        graph::options(self.store, self.cx, g, Side::Left, out)
    }

    fn right_options(&mut self, g: GameId, out: &mut Vec<GameId>) -> Result<(), Error> {
        graph::options(self.store, self.cx, g, Side::Right, out)
    }

    fn conjugate(&mut self, g: GameId) -> Result<GameId, Error> {
        Ok(self.store.conjugate(g)?)
    }

    fn nimber(&mut self, n: u32) -> GameId {
        self.store.nimber(n)
    }

    fn sum(&mut self, parts: &[GameId]) -> Result<GameId, Error> {
        Ok(self.store.sum(parts)?)
    }

    fn interrupted(&self) -> bool {
        self.cx.interrupted()
    }
}

#[derive(Default)]
pub struct AffineEngines {
    pub value: Option<affine::AffineEngine<GameId>>,
    pub outcome: Option<affine::OutcomeSearch<GameId>>,
}

impl Cx {
    fn affine_error(&self, store: &Store, e: AffineError<GameId, Error>) -> Error {
        let nt = Notation::default();
        let show = |g: GameId| display::form(store, g, nt);
        match e {
            AffineError::Graph(e) => e,
            AffineError::NotSymmetric { form, side, option } => {
                let detail = match side {
                    affine::Side::Left => format!(
                        "Left can move to `{}` but Right has no matching move",
                        show(option)
                    ),
                    affine::Side::Right => format!(
                        "Right can move to `{}` but Left has no matching move",
                        show(option)
                    ),
                };
                Error::new(ErrorKind::NotAffine { form: show(form), detail })
                    .about(form)
                    .with_note("an affine impartial game has Right's options the conjugates of Left's, and so do its quiet followers")
            }
            AffineError::Infinite { form } => Error::new(ErrorKind::NoValue {
                form: show(form),
                reason: "∞ and ∞̄ end the game; they are not affine impartial values".into(),
            })
            .about(form),
            AffineError::UndefinedSum => Error::new(ErrorKind::InfinitiesCollide),
            AffineError::Cycle { form } => Error::new(ErrorKind::Cycle {
                ruleset: match store.node(form) {
                    Node::Position { ruleset, .. } => store.ruleset_name(ruleset).to_string(),
                    _ => "?".into(),
                },
                position: show(form),
                path: vec![],
            }),
            AffineError::Interrupted => Error::new(ErrorKind::Interrupted),
        }
    }

    pub fn affine_value(&mut self, store: &mut Store, g: GameId) -> Result<GameValue, Error> {
        let mut eng = self.engines.affine.value.take().unwrap_or_default();
        let r = eng.value(&mut StoreGraph { store, cx: self }, g);
        self.engines.affine.value = Some(eng);
        match r {
            Ok(AffineValue::Nimber(n)) => Ok(GameValue::Nimber(n)),
            Ok(AffineValue::Moon) => Ok(GameValue::Moon),
            Err(e) => Err(self.affine_error(store, e)),
        }
    }

    /// The outcome of any short game: from its value when it has one, otherwise by search
    /// (games with infinities that are not affine impartial, and partizan forms).
    pub fn outcome(&mut self, store: &mut Store, g: GameId) -> Result<Outcome, Error> {
        match self.game_value(store, g) {
            Ok(v) => Ok(match v {
                GameValue::Nimber(0) => Outcome::P,
                GameValue::Nimber(_) | GameValue::Moon => Outcome::N,
                GameValue::LeftWin => Outcome::L,
                GameValue::RightWin => Outcome::R,
            }),
            Err(e)
                if matches!(
                    e.kind,
                    ErrorKind::NotImpartial { .. }
                        | ErrorKind::NotAffine { .. }
                        | ErrorKind::NoValue { .. }
                ) =>
            {
                self.outcome_by_search(store, g)
            }
            Err(e) => Err(e),
        }
    }

    /// The outcome by exhaustive search from the axioms, never from a value: the oracle that
    /// values are checked against.
    pub fn outcome_by_search(&mut self, store: &mut Store, g: GameId) -> Result<Outcome, Error> {
        {
            {
                let mut search = self.engines.affine.outcome.take().unwrap_or_default();
                let r = search.outcome(&mut StoreGraph { store, cx: self }, g);
                self.engines.affine.outcome = Some(search);
                match r {
                    Ok(o) => Ok(match o {
                        affine::Outcome::L => Outcome::L,
                        affine::Outcome::R => Outcome::R,
                        affine::Outcome::N => Outcome::N,
                        affine::Outcome::P => Outcome::P,
                    }),
                    Err(e) => Err(self.locate(self.affine_error(store, e))),
                }
            }
        }
    }

    /// `explain(G)`: the immediate and protected nimbers and the rule that gave the value.
    pub fn explain(&mut self, store: &mut Store, g: GameId) -> Result<Value, Error> {
        let mut eng = self.engines.affine.value.take().unwrap_or_default();
        let r = eng.explain(&mut StoreGraph { store, cx: self }, g);
        self.engines.affine.value = Some(eng);
        let ex = r.map_err(|e| self.locate(self.affine_error(store, e)))?;
        let ascii = self.notation.ascii;
        let text = match &ex {
            Explanation::Sum { parts, value } => {
                let nt = self.notation;
                let shown: Vec<String> = parts
                    .iter()
                    .map(|(p, v)| {
                        let val = if ascii {
                            v.ascii().to_string()
                        } else {
                            v.to_string()
                        };
                        format!("{} = {val}", display::form(store, *p, nt))
                    })
                    .collect();
                let total = if ascii {
                    value.ascii().to_string()
                } else {
                    value.to_string()
                };
                format!(
                    "a sum: {}; nim-sum (☾ absorbing) = {total}",
                    shown.join(", ")
                )
            }
            _ => {
                if ascii {
                    ex.ascii().to_string()
                } else {
                    ex.to_string()
                }
            }
        };
        Ok(Value::Text(Rc::from(text)))
    }
}
