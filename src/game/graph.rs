//! The moves of every kind of node, produced on demand. Ruleset positions and heaps need the
//! evaluator or a heap engine to list their options; they reach it through [`Expander`].

use super::store::{GameId, Node, Store};
use crate::diag::Error;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    Left,
    Right,
}

/// What the store cannot answer alone: the literal form of a ruleset position and the options of
/// heaps. Implemented by the evaluator.
pub trait Expander {
    /// The literal form (a `Form` node) of a ruleset position, memoised by the implementor.
    fn expand(&mut self, store: &mut Store, pos: GameId) -> Result<GameId, Error>;
    /// The options of a heap of `size` under heap rules `rules` (the same for both players).
    fn heap_options(
        &mut self,
        store: &mut Store,
        rules: u32,
        size: u64,
        out: &mut Vec<GameId>,
    ) -> Result<(), Error>;
    /// The nimber of a heap, from the heap engine's nim-sequence.
    fn heap_nimber(&mut self, rules: u32, size: u64) -> Result<u32, Error>;
    /// True once the user asked to stop (Ctrl-C).
    fn interrupted(&self) -> bool;
}

/// Appends the `side` options of `g` to `out`.
pub fn options(
    store: &mut Store,
    exp: &mut dyn Expander,
    g: GameId,
    side: Side,
    out: &mut Vec<GameId>,
) -> Result<(), Error> {
    match store.node(g) {
        Node::LeftWin | Node::RightWin => {}
        Node::Nimber(n) => {
            for k in 0..n {
                let x = store.nimber(k);
                out.push(x);
            }
        }
        Node::Form { left, right } => {
            out.extend_from_slice(if side == Side::Left { left } else { right })
        }
        Node::Sum(parts) => {
            let parts = parts.to_vec();
            let mut sub = Vec::new();
            for (i, &p) in parts.iter().enumerate() {
                sub.clear();
                options(store, exp, p, side, &mut sub)?;
                for &o in &sub {
                    out.push(store.replace_part(&parts, i, o)?);
                }
            }
        }
        Node::Position { .. } => {
            let f = exp.expand(store, g)?;
            options(store, exp, f, side, out)?;
        }
        Node::EntailLeft(p) => match side {
            Side::Left => out.push(store.left_win()),
            Side::Right => options(store, exp, p, Side::Right, out)?,
        },
        Node::EntailRight(p) => match side {
            Side::Left => options(store, exp, p, Side::Left, out)?,
            Side::Right => out.push(store.right_win()),
        },
        Node::Heap { rules, size } => exp.heap_options(store, rules, size, out)?,
    }
    Ok(())
}
