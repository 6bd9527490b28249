//! Questions about games, answered through the position-graph layer: the explorer builds the
//! query's graph, [`classify`] picks the engine for each part, and the exact solver answers
//! outcomes the theory leaves open. Nothing here walks a game itself.

use crate::cx::Cx;
use crate::error::EvalError;
use loony_core::class::{Class, Outcome, Outside};
use loony_core::diag::Error;
use loony_core::game::display;
use loony_core::game::{GameId, Node, Store};
use loony_graph::{Explorer, Kind, Reach, Side};
use loony_theory::TheoryError;
use loony_theory::affine;
use loony_theory::classify::{self, Analysis, Key, PARTIZAN};
use loony_theory::exact::{self, Result3};

/// How a move leaves the opponent, from the opponent's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveResult {
    /// The opponent, to move, loses: a winning move.
    Wins,
    /// The opponent can only draw.
    Draws,
    /// The opponent wins.
    Loses,
}

impl Cx {
    fn exact_options(&self) -> exact::Options {
        exact::Options {
            collapse_nimbers: true,
            budget: self.limits.budget,
        }
    }

    /// The class of a game (its value, or why it has none).
    pub fn class_of(&mut self, store: &mut Store, g: GameId) -> Result<Class, Error> {
        match store.node(g) {
            Node::Nimber(n) => return Ok(Class::Nimber(n)),
            Node::LeftWin => return Ok(Class::LeftWin),
            Node::RightWin => return Ok(Class::RightWin),
            // A position of a row valued already (every element of `[wu(n, s, i) for i in
            // 0..n]` after the first): one look-up in the row's table, before the memo's two
            // misses.
            Node::Position { pos, .. } => {
                if let Some(c) = self.row_table_class(store, pos) {
                    return Ok(c);
                }
            }
            _ => {}
        }
        if let Some((c, _)) = self.engines.memo.get(Key::Game(g)) {
            return Ok(c);
        }
        // A ruleset position valued already (every element of `[r(i) for i in …]` after the
        // first): its class straight from the memo, as the explorer would find it, without
        // building a graph.
        if let Node::Position { .. } = store.node(g) {
            let p = loony_graph::Source::pos_of(self, store, g);
            if let Some((c, _)) = self.engines.memo.get(Key::Pos(p)) {
                return Ok(c);
            }
            // A ruleset whose moves stay in one dense row: valued over the row's coordinates.
            if let Some(c) = self.row_class(store, p)? {
                return Ok(c);
            }
        }
        // A sum of row positions (`sum([kayles(n) for n in 0..=3000])`): its parts' classes
        // added by Table 1, as the explorer adds valued parts.
        if let Node::Sum(parts) = store.node(g) {
            let parts = parts.to_vec();
            if parts.len() > 1
                && parts
                    .iter()
                    .all(|&p| matches!(store.node(p), Node::Position { .. } | Node::Nimber(_)))
            {
                let mut classes = Vec::with_capacity(parts.len());
                for &p in &parts {
                    let c = match store.node(p) {
                        Node::Nimber(n) => Some(Class::Nimber(n)),
                        _ => {
                            let pos = loony_graph::Source::pos_of(self, store, p);
                            match self.engines.memo.get(Key::Pos(pos)) {
                                Some((c, _)) => Some(c),
                                None => self.row_class(store, pos)?,
                            }
                        }
                    };
                    match c {
                        Some(c @ (Class::Nimber(_) | Class::Loopy(_))) => classes.push(c),
                        _ => break,
                    }
                }
                if classes.len() == parts.len() {
                    return Ok(loony_core::class::sum(classes.iter()));
                }
            }
        }
        // Sums of positions of rulesets that split: pruned search, part by part.
        if let Some(c) = self.pruned_class(store, g)? {
            return Ok(c);
        }
        let _what = loony_core::memory::building("the graph of this game's positions");
        let mut ex = Explorer::new(store, self, Reach::values());
        let root = ex.node(g)?;
        let an = classify::classify(&mut ex, root)?;
        Ok(an.class(root).expect("the root is classed"))
    }

    /// The printed value of a game; an error when it has none.
    pub fn game_value(&mut self, store: &mut Store, g: GameId) -> Result<Class, Error> {
        let c = self.class_of(store, g).map_err(|e| self.locate(e))?;
        if c.is_determined() {
            return Ok(c);
        }
        let e = self.no_value(store, g, &c)?;
        Err(self.locate(e))
    }

    /// The diagnostic for a game without a value: the offending form if it is not impartial,
    /// otherwise what the theory leaves open, with the outcome the exact solver finds.
    fn no_value(&mut self, store: &mut Store, g: GameId, c: &Class) -> Result<Error, Error> {
        let (opts, nt) = (self.exact_options(), self.out.notation);
        // The memo keeps classes, not reasons: look again, past what is known.
        let reach = Reach {
            stop_at_known: false,
            ..Reach::default()
        };
        let _what = loony_core::memory::building("the graph of this game's positions");
        let mut ex = Explorer::new(store, self, reach);
        let root = ex.node(g)?;
        let an = classify::classify(&mut ex, root)?;
        if *c == Class::Partizan {
            if let Some(e) = an.reason(root) {
                return Ok(e.clone());
            }
            let form = display::form(ex.store, g, Default::default());
            return Ok(classify::not_impartial(ex.store, g).with_note(format!(
                "`{form}` has a follower whose Left and Right options differ"
            )));
        }
        let reason = match c {
            Class::Undetermined(Outside::MoonBesideLoopy) => {
                "beside a loopy game, a component equal to ☾ that is neither the literal moon \
                 nor a special moon ⟫(n) has no class in seed 001's algebra"
            }
            _ => {
                "it has entailing moves and cycles among its followers, which no theory of \
                 Loony's covers yet"
            }
        };
        let outcome = solve_outcome(&mut ex, &an, opts, root).ok().flatten();
        Ok(Error::new(TheoryError::Undetermined {
            form: display::form(ex.store, g, nt),
            reason: reason.into(),
            outcome: outcome.map(|o| o.to_string()),
        }))
    }

    /// The outcome class: from the value where the theory gives one, otherwise by exact search.
    pub fn outcome(&mut self, store: &mut Store, g: GameId) -> Result<Outcome, Error> {
        // A sum of split positions: one question of the sum, without its nimber.
        if let Some(o) = self.pruned_outcome(store, g).map_err(|e| self.locate(e))? {
            return Ok(o);
        }
        let c = self.class_of(store, g).map_err(|e| self.locate(e))?;
        if let Some(o) = c.outcome() {
            return Ok(o);
        }
        self.outcome_by_search(store, g)
    }

    /// The outcome by exact search from the axioms, never from a value: the oracle.
    pub fn outcome_by_search(&mut self, store: &mut Store, g: GameId) -> Result<Outcome, Error> {
        self.exact_outcome(store, g, false)
    }

    /// The outcome by exact search; `collapse` folds normal-play components into one nim heap
    /// (Sprague–Grundy) instead of playing them out.
    pub fn exact_outcome(
        &mut self,
        store: &mut Store,
        g: GameId,
        collapse: bool,
    ) -> Result<Outcome, Error> {
        let opts = exact::Options {
            collapse_nimbers: collapse,
            budget: self.limits.budget,
        };
        let _what = loony_core::memory::building("the graph of this game's positions");
        let mut ex = Explorer::new(store, self, Reach::default());
        let root = ex.node(g)?;
        let an = classify::classify(&mut ex, root)?;
        match solve_outcome(&mut ex, &an, opts, root) {
            Ok(Some(o)) => Ok(o),
            Ok(None) => Err(Error::new(TheoryError::NoValue {
                form: display::form(ex.store, g, Default::default()),
                reason: "one player can force a win moving first and the other only a draw".into(),
            })),
            Err(e) => Err(e),
        }
        .map_err(|e| self.locate(e))
    }

    /// The options of a game with how each leaves the opponent (Left moving). The values
    /// decide where they can (a quiet option, or a check whose answers are all quiet); the rest
    /// share one exact search.
    pub fn moves(
        &mut self,
        store: &mut Store,
        g: GameId,
    ) -> Result<Vec<(GameId, MoveResult)>, Error> {
        // A sum of split positions: one pruned question an option, no graph of the whole.
        if let Some(m) = self.pruned_moves(store, g).map_err(|e| self.locate(e))? {
            return Ok(m);
        }
        let opts = self.exact_options();
        let _what = loony_core::memory::building("the graph of this game's positions");
        let mut ex = Explorer::new(store, self, Reach::default());
        let root = ex.node(g)?;
        let an = classify::classify(&mut ex, root)?;
        let options = distinct(ex.options(root, Side::Left)?);
        let mut results: Vec<Option<MoveResult>> = Vec::with_capacity(options.len());
        for &o in &options {
            results.push(by_values(&mut ex, &an, o)?);
        }
        if results.iter().any(Option::is_none) {
            let mut solver = exact::Solver::new(opts);
            let mut roots = Vec::new();
            let mut states = Vec::with_capacity(options.len());
            for (&o, r) in options.iter().zip(&results) {
                let st = if r.is_none() {
                    solver.root(&mut ex, &an, o, 1)
                } else {
                    Err(u32::MAX)
                };
                if let Ok(s) = st {
                    roots.push(s);
                }
                states.push(st);
            }
            solver.solve(&mut ex, &an, &roots)?;
            for (r, st) in results.iter_mut().zip(states) {
                if r.is_some() {
                    continue;
                }
                *r = Some(match st {
                    Ok(s) => match solver.result(s) {
                        Result3::Loss => MoveResult::Wins,
                        Result3::Draw => MoveResult::Draws,
                        Result3::Win => MoveResult::Loses,
                    },
                    // Right to move in ∞ (Left has won) or ∞̄.
                    Err(0) => MoveResult::Wins,
                    Err(_) => MoveResult::Loses,
                });
            }
        }
        let mut out = Vec::with_capacity(options.len());
        for (o, r) in options.into_iter().zip(results) {
            let shown = ex.shown(o)?;
            out.push((shown, r.expect("every option decided")));
        }
        Ok(out)
    }

    /// The `side` options of a game, each listed once.
    pub fn options_of(
        &mut self,
        store: &mut Store,
        g: GameId,
        side: Side,
    ) -> Result<Vec<GameId>, Error> {
        let _what = loony_core::memory::building("the graph of this game's positions");
        let mut ex = Explorer::new(
            store,
            self,
            Reach {
                stop_at_known: true,
                heaps_as_nimbers: false,
                fold_known: false,
            },
        );
        let root = ex.node(g)?;
        let options = distinct(ex.options(root, side)?);
        let mut out = Vec::with_capacity(options.len());
        for o in options {
            out.push(ex.shown(o)?);
        }
        Ok(out)
    }
}

impl Cx {
    /// `affine_value(G)`: the value modulo affine impartial games, a nimber or ☾.
    pub fn affine_value(&mut self, store: &mut Store, g: GameId) -> Result<Class, Error> {
        let c = self.game_value(store, g)?;
        c.affine().ok_or_else(|| {
            Error::new(EvalError::NotApplicable {
                function: "`affine_value`".into(),
                form: c.show(self.out.notation.ascii).unwrap_or_default(),
                reason: "a loopy game has no value among affine impartial games".into(),
            })
        })
    }

    /// `explain(G)`: the immediate and protected nimbers and the rule that gave the value.
    pub fn explain(&mut self, store: &mut Store, g: GameId) -> Result<crate::value::Value, Error> {
        let ascii = self.out.notation.ascii;
        let nt = self.out.notation;
        if let Class::Loopy(a) = self.game_value(store, g)? {
            return Err(Error::new(EvalError::NotApplicable {
                function: "`explain`".into(),
                form: loony_core::class::loopy(&a, ascii),
                reason: "a loopy game: `explain` shows the immediate and protected nimbers of \
                         entailing games"
                    .into(),
            }));
        }
        let _what = loony_core::memory::building("the graph of this game's positions");
        let mut ex = Explorer::new(store, self, Reach::default());
        let root = ex.node(g)?;
        let ex_result = classify::explain(&mut ex, root);
        let explanation = match ex_result {
            Ok(x) => x,
            Err(e) => return Err(self.locate(e)),
        };
        let text = match &explanation {
            affine::Explanation::Sum { parts, value } => {
                let mut shown: Vec<String> = Vec::new();
                for (p, v) in parts {
                    let val = if ascii {
                        v.ascii().to_string()
                    } else {
                        v.to_string()
                    };
                    let g = ex.shown(*p)?;
                    shown.push(format!("{} = {val}", display::form(ex.store, g, nt)));
                }
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
            ex => {
                if ascii {
                    ex.ascii().to_string()
                } else {
                    ex.to_string()
                }
            }
        };
        Ok(crate::value::Value::Text(std::rc::Rc::from(text)))
    }
}

/// The class of a node: from the analysis, from the session memo (nodes listed after the
/// analysis, below a remembered position), or for sums made by a move from their parts.
fn option_class(ex: &mut Explorer, an: &Analysis, o: u32) -> Option<Class> {
    if let Some(c) = an.class(o) {
        return Some(c.clone());
    }
    if let Some(k) = ex.graph.key(o)
        && let Some((c, _)) = ex.src.memo().get(k)
    {
        return Some(c);
    }
    if ex.graph.kind(o) == Kind::Sum {
        let mut parts = Vec::new();
        for p in ex.graph.parts(o).to_vec() {
            parts.push(option_class(ex, an, p)?);
        }
        return Some(loony_core::class::sum(parts.iter()));
    }
    None
}

/// How an option leaves Right (to move), read off the values: a quiet option by its outcome;
/// a check by Right's best answer inside it (each answer quiet). `None` when the values do not
/// say.
fn by_values(ex: &mut Explorer, an: &Analysis, o: u32) -> Result<Option<MoveResult>, Error> {
    let (lw, rw) = (ex.left_win(), ex.right_win());
    if o == lw {
        return Ok(Some(MoveResult::Wins));
    }
    if o == rw {
        return Ok(Some(MoveResult::Loses));
    }
    let from_outcome = |c: Option<Class>| {
        c.and_then(|c| c.outcome()).and_then(|o| match o {
            Outcome::P => Some(MoveResult::Wins),
            Outcome::D => Some(MoveResult::Draws),
            Outcome::N => Some(MoveResult::Loses),
            _ => None,
        })
    };
    if is_quiet(ex, o) {
        return Ok(from_outcome(option_class(ex, an, o)));
    }
    // One check among the parts: Right must answer inside it.
    let parts: Vec<u32> = match ex.graph.kind(o) {
        Kind::Sum => ex.graph.parts(o).to_vec(),
        _ => vec![o],
    };
    let checks: Vec<usize> = (0..parts.len())
        .filter(|&i| ex.is_check(parts[i]))
        .collect();
    let [i] = checks[..] else {
        return Ok(None);
    };
    let c = parts[i];
    if !ex.graph.left(c).contains(&lw) || ex.graph.right(c).contains(&rw) {
        return Ok(None);
    }
    let mut rest: Vec<Class> = Vec::new();
    for (j, &p) in parts.iter().enumerate() {
        if j != i {
            match option_class(ex, an, p) {
                Some(cl) => rest.push(cl),
                None => return Ok(None),
            }
        }
    }
    let mut best = MoveResult::Wins;
    for x in ex.graph.right(c).to_vec() {
        if x == lw {
            continue; // Right moving to ∞ loses at once
        }
        if !is_quiet(ex, x) {
            return Ok(None);
        }
        let Some(cx) = option_class(ex, an, x) else {
            return Ok(None);
        };
        let total = loony_core::class::sum(rest.iter().chain(std::iter::once(&cx)));
        // Left moves next: N means Left wins after this answer.
        match total.outcome() {
            Some(Outcome::N) => {}
            Some(Outcome::D) => best = MoveResult::Draws,
            Some(Outcome::P) => return Ok(Some(MoveResult::Loses)),
            _ => return Ok(None),
        }
    }
    Ok(Some(best))
}

/// No check is pending after moving there: the opponent may move anywhere.
fn is_quiet(ex: &mut Explorer, o: u32) -> bool {
    let parts = match ex.graph.kind(o) {
        Kind::Sum => ex.graph.parts(o).to_vec(),
        _ => vec![o],
    };
    parts.into_iter().all(|u| !ex.is_check(u))
}

fn distinct(mut v: Vec<u32>) -> Vec<u32> {
    let mut seen = rustc_hash::FxHashSet::default();
    v.retain(|x| seen.insert(*x));
    v
}

/// The outcome of node `u` by exact search (both players first when it may be partizan).
fn solve_outcome(
    ex: &mut Explorer,
    an: &Analysis,
    opts: exact::Options,
    u: u32,
) -> Result<Option<Outcome>, Error> {
    let _what = loony_core::memory::building("the states of the exact search");
    let mut s = exact::Solver::new(opts);
    let left = s.root(ex, an, u, 0);
    let right = s.root(ex, an, u, 1);
    let roots: Vec<u32> = [left, right].iter().filter_map(|r| r.ok()).collect();
    if !roots.is_empty() {
        s.solve(ex, an, &roots)?;
    }
    let res = |r: Result<u32, u32>, mover: u32| match r {
        Ok(st) => s.result(st),
        Err(w) if w == mover => Result3::Win,
        Err(_) => Result3::Loss,
    };
    let (l, r) = (res(left, 0), res(right, 1));
    let _ = an.flags(u) & PARTIZAN;
    Ok(exact::outcome_of(l, r))
}
