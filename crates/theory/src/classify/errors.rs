//! The errors a classification ends with (a game with no end, a partizan form, an affine
//! engine's refusal) as diagnostics that show the positions, and `explain`'s walk.

use super::*;

pub(super) fn infinite_game_parts(
    ex: &mut Explorer,
    s: u32,
    parts: &[u32],
    inside: &dyn Fn(u32) -> bool,
) -> Error {
    let nt = loony_core::game::display::Notation::default();
    let part = parts.iter().copied().find(|&p| inside(p)).unwrap_or(s);
    let mut show = |u: u32| match ex.game(u) {
        Ok(g) => loony_core::game::display::form(ex.store, g, nt),
        Err(_) => "?".into(),
    };
    let position = show(part);
    let follower = show(s);
    Error::new(TheoryError::InfiniteGame { position, follower })
}

/// A sum on a cycle: a part of it recurs inside one of its own followers, so the positions
/// grow without end.
pub(super) fn infinite_game(ex: &mut Explorer, s: u32, inside: &dyn Fn(u32) -> bool) -> Error {
    let nt = loony_core::game::display::Notation::default();
    let part = ex
        .graph
        .parts(s)
        .iter()
        .copied()
        .find(|&p| inside(p))
        .unwrap_or(s);
    let show = |ex: &mut Explorer, u: u32| match ex.game(u) {
        Ok(g) => loony_core::game::display::form(ex.store, g, nt),
        Err(_) => "?".into(),
    };
    let position = show(ex, part);
    let follower = show(ex, s);
    Error::new(TheoryError::InfiniteGame { position, follower })
}

/// The error for a node whose Left and Right options differ, read off the graph (so ruleset
/// positions, which have no literal form, are described too).
pub fn not_impartial_node(ex: &mut Explorer, u: u32) -> Result<Error, Error> {
    let nt = Notation::default();
    let (l, r) = (ex.graph.left(u).to_vec(), ex.graph.right(u).to_vec());
    let show = |ex: &mut Explorer, xs: Vec<u32>| -> Result<Vec<String>, Error> {
        let mut out = Vec::new();
        for x in xs {
            let g = ex.shown(x)?;
            out.push(display::form(ex.store, g, nt));
        }
        Ok(out)
    };
    let only_left = show(ex, l.iter().copied().filter(|o| !r.contains(o)).collect())?;
    let only_right = show(ex, r.iter().copied().filter(|o| !l.contains(o)).collect())?;
    let detail = sides_differ(&only_left, &only_right);
    let g = ex.game(u)?;
    Ok(Error::new(TheoryError::NotImpartial {
        form: display::form(ex.store, g, nt),
        detail,
    })
    .about(g))
}

/// The error for a form whose Left and Right options differ, naming what differs.
pub fn not_impartial(store: &Store, x: GameId) -> Error {
    let nt = Notation::default();
    // A labelled node is shown with its form; the sides are the form's.
    let shown = x;
    let x = match store.node(x) {
        Node::Labelled(k) => store.label_form(k).unwrap_or(x),
        _ => x,
    };
    let Node::Form { left, right } = store.node(x) else {
        return Error::new(TheoryError::NotImpartial {
            form: display::form(store, x, nt),
            detail: "its Left and Right options differ".into(),
        })
        .about(x);
    };
    let only_left: Vec<String> = left
        .iter()
        .filter(|o| !right.contains(o))
        .map(|&o| display::form(store, o, nt))
        .collect();
    let only_right: Vec<String> = right
        .iter()
        .filter(|o| !left.contains(o))
        .map(|&o| display::form(store, o, nt))
        .collect();
    let detail = sides_differ(&only_left, &only_right);
    Error::new(TheoryError::NotImpartial {
        form: display::form(store, shown, nt),
        detail,
    })
    .about(shown)
}

/// An affine engine error as a diagnostic about the offending form.
pub fn affine_error(ex: &mut Explorer, e: AffineError<u32, Error>) -> Error {
    let nt = Notation::default();
    let mut show = |u: u32| match ex.shown(u) {
        Ok(g) => (display::form(ex.store, g, nt), Some(g)),
        Err(_) => ("?".into(), None),
    };
    let about = |e: Error, g: Option<GameId>| match g {
        Some(g) => e.about(g),
        None => e,
    };
    match e {
        AffineError::Graph(e) => e,
        AffineError::NotSymmetric { form, side, option } => {
            let (form, g) = show(form);
            let (option, _) = show(option);
            let detail = match side {
                affine::Side::Left => {
                    format!("Left can move to `{option}` but Right has no matching move")
                }
                affine::Side::Right => {
                    format!("Right can move to `{option}` but Left has no matching move")
                }
            };
            about(Error::new(TheoryError::NotAffine { form, detail }), g)
        }
        AffineError::Infinite { form } => {
            let (form, g) = show(form);
            about(
                Error::new(TheoryError::NoValue {
                    form,
                    reason: "∞ and ∞̄ end the game; they are not affine impartial values".into(),
                }),
                g,
            )
        }
        AffineError::UndefinedSum => Error::new(CoreError::InfinitiesCollide),
        AffineError::Cycle { form } => {
            let (form, g) = show(form);
            about(
                Error::new(TheoryError::NoValue {
                    form,
                    reason: "its entailing moves lie on a cycle".into(),
                }),
                g,
            )
        }
        AffineError::Interrupted => Error::new(CoreError::Interrupted),
    }
}

/// The affine engine's account of an entailing game `root` (immediate and protected nimbers,
/// and the rule that gave the value); the graph is classified first so valued parts are not
/// walked again.
pub fn explain(ex: &mut Explorer, root: u32) -> Result<affine::Explanation<u32>, Error> {
    let mut an = classify(ex, root)?;
    ex.ungroup(root)?;
    let table = std::mem::take(&mut an.table);
    let r = run_affine(ex, &mut an.affine, &table, |eng, view| {
        eng.explain(view, root)
    });
    r.map_err(|e| affine_error(ex, e))
}

/// How a form's sides differ, from the options only one side has.
fn sides_differ(only_left: &[String], only_right: &[String]) -> String {
    match (only_left.is_empty(), only_right.is_empty()) {
        (false, true) => format!("Left can move to {} but Right cannot", only_left.join(", ")),
        (true, false) => format!(
            "Right can move to {} but Left cannot",
            only_right.join(", ")
        ),
        _ => format!(
            "Left's options {{{}}} differ from Right's {{{}}}",
            only_left.join(", "),
            only_right.join(", ")
        ),
    }
}
