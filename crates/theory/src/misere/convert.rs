//! Misère canonical forms of games the engine does not own: literal forms, ruleset positions,
//! heaps, sums. The owner describes a node by its [`Shape`]; sums are canonicalised part by
//! part and then added (never by walking their product), everything else by constructing the
//! canonical forms of its options. The walk is an explicit stack, memoised by node in a map the
//! caller keeps, and a node met again on its own path is a cycle.

use super::MisereError;
use super::canonical::{Mid, MisereStore};
use rustc_hash::FxHashMap;
use std::hash::Hash;

/// What a node of an impartial game is, as far as misère play cares.
pub enum Shape<N> {
    /// The nim heap `*n`.
    Nim(u64),
    /// A game with these options.
    Options(Vec<N>),
    /// A disjunctive sum of these components.
    Sum(Vec<N>),
}

/// A source of impartial games: the evaluator implements it over its game store.
pub trait Impartial {
    type Node: Copy + Eq + Hash;
    type Error;
    /// The shape of `node`, or why it is not an impartial short game.
    fn shape(&mut self, node: Self::Node) -> Result<Shape<Self::Node>, Self::Error>;
}

pub enum ConvertError<N, E> {
    /// The source's own error (not impartial, entailing, …).
    Source(E),
    /// The nodes of a cycle, from the first repeated node back to it.
    Cycle(Vec<N>),
    Misere(MisereError),
}

impl<N, E> From<MisereError> for ConvertError<N, E> {
    fn from(e: MisereError) -> Self {
        ConvertError::Misere(e)
    }
}

struct Frame<N> {
    node: N,
    /// `None` until the node is opened (its shape read and its children pushed).
    shape: Option<Shape<N>>,
}

impl MisereStore {
    /// The misère canonical form of `root`; `memo` keeps the forms of nodes already converted.
    pub fn canonical_of<S: Impartial>(
        &mut self,
        src: &mut S,
        memo: &mut FxHashMap<S::Node, Mid>,
        root: S::Node,
    ) -> Result<Mid, ConvertError<S::Node, S::Error>> {
        if let Some(&g) = memo.get(&root) {
            return Ok(g);
        }
        let mut open: FxHashMap<S::Node, ()> = FxHashMap::default();
        let mut stack = vec![Frame {
            node: root,
            shape: None,
        }];
        let mut buf = Vec::new();
        while let Some(top) = stack.last_mut() {
            self.poll()?;
            let node = top.node;
            if memo.contains_key(&node) {
                stack.pop();
                continue;
            }
            if top.shape.is_none() {
                let shape = src.shape(node).map_err(ConvertError::Source)?;
                let children: Vec<S::Node> = match &shape {
                    Shape::Nim(_) => Vec::new(),
                    Shape::Options(v) | Shape::Sum(v) => v.clone(),
                };
                top.shape = Some(shape);
                open.insert(node, ());
                for c in children {
                    if memo.contains_key(&c) {
                        continue;
                    }
                    if open.contains_key(&c) {
                        let mut path: Vec<S::Node> = stack
                            .iter()
                            .filter(|f| f.shape.is_some())
                            .map(|f| f.node)
                            .skip_while(|&n| n != c)
                            .collect();
                        path.push(c);
                        return Err(ConvertError::Cycle(path));
                    }
                    stack.push(Frame {
                        node: c,
                        shape: None,
                    });
                }
                continue;
            }
            let g = match top.shape.as_ref().expect("opened") {
                Shape::Nim(n) => self.nim(*n)?,
                Shape::Options(v) => {
                    buf.clear();
                    buf.extend(v.iter().map(|c| memo[c]));
                    self.construct(&buf)
                }
                Shape::Sum(v) => {
                    let parts: Vec<Mid> = v.iter().map(|c| memo[c]).collect();
                    self.sum(&parts)?
                }
            };
            open.remove(&node);
            memo.insert(node, g);
            stack.pop();
        }
        Ok(memo[&root])
    }
}
