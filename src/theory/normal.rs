//! Normal play: the nimber of an impartial game by mex over its options, sums by nim-sum.
//!
//! The search is an explicit depth-first walk (no native recursion), so a ruleset with a
//! million positions in a chain or a form nested 100 000 deep is answered, not a stack overflow.
//! A node on the current path that is met again is a cycle in a ruleset's positions.

use crate::diag::{Error, ErrorKind};
use crate::game::display::{self, Notation};
use crate::game::{Expander, GameId, Node, Store};

const UNKNOWN: u32 = u32::MAX;
const IN_PROGRESS: u32 = u32::MAX - 1;

pub enum NormalError {
    /// The game has entailing moves or infinities: the affine engine must answer.
    NeedsAffine,
    Fail(Error),
}

impl From<Error> for NormalError {
    fn from(e: Error) -> Self {
        NormalError::Fail(e)
    }
}

/// Nimbers found so far, kept for the whole session.
#[derive(Default)]
pub struct NormalEngine {
    memo: Vec<u32>,
}

/// Minimum excluded value of `values`, using a word mask while values are small.
pub fn mex(values: &[u32], scratch: &mut Vec<u64>) -> u32 {
    let mut small = 0u64;
    let mut any_big = false;
    for &v in values {
        if v < 64 {
            small |= 1 << v;
        } else {
            any_big = true;
        }
    }
    if small != u64::MAX || !any_big {
        return (!small).trailing_zeros();
    }
    scratch.clear();
    scratch.resize(values.len() / 64 + 1, 0);
    for &v in values {
        let v = v as usize;
        if v / 64 < scratch.len() {
            scratch[v / 64] |= 1 << (v % 64);
        }
    }
    for (i, w) in scratch.iter().enumerate() {
        if *w != u64::MAX {
            return (i * 64) as u32 + (!w).trailing_zeros();
        }
    }
    (scratch.len() * 64) as u32
}

impl NormalEngine {
    pub fn known(&self, g: GameId) -> Option<u32> {
        match self.memo.get(g.index()) {
            Some(&v) if v < IN_PROGRESS => Some(v),
            _ => None,
        }
    }

    fn state(&mut self, g: GameId) -> u32 {
        if self.memo.len() <= g.index() {
            self.memo.resize(g.index() + 1, UNKNOWN);
        }
        self.memo[g.index()]
    }

    fn set(&mut self, g: GameId, v: u32) {
        if self.memo.len() <= g.index() {
            self.memo.resize(g.index() + 1, UNKNOWN);
        }
        self.memo[g.index()] = v;
    }

    pub fn nimber(
        &mut self,
        store: &mut Store,
        exp: &mut dyn Expander,
        g: GameId,
    ) -> Result<u32, NormalError> {
        if let Some(v) = self.known(g) {
            return Ok(v);
        }
        let mut stack = vec![g];
        let result = self.walk(store, exp, &mut stack);
        if result.is_err() {
            // Leave no half-finished marks behind: the next query must not see a false cycle.
            for &x in &stack {
                if self.state(x) == IN_PROGRESS {
                    self.set(x, UNKNOWN);
                }
            }
            for v in self.memo.iter_mut() {
                if *v == IN_PROGRESS {
                    *v = UNKNOWN;
                }
            }
        }
        result?;
        Ok(self.known(g).expect("walk finished"))
    }

    fn walk(
        &mut self,
        store: &mut Store,
        exp: &mut dyn Expander,
        stack: &mut Vec<GameId>,
    ) -> Result<(), NormalError> {
        let mut values: Vec<u32> = Vec::new();
        let mut scratch: Vec<u64> = Vec::new();
        let mut steps: u32 = 0;
        while let Some(&x) = stack.last() {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(4096) && exp.interrupted() {
                return Err(Error::new(ErrorKind::Interrupted).into());
            }
            let state = self.state(x);
            if state < IN_PROGRESS {
                stack.pop();
                continue;
            }
            let first_visit = state == UNKNOWN;
            // Children whose values this node needs.
            let children: Vec<GameId> = match store.node(x) {
                Node::Nimber(n) => {
                    self.set(x, n);
                    stack.pop();
                    continue;
                }
                Node::LeftWin | Node::RightWin | Node::EntailLeft(_) | Node::EntailRight(_) => {
                    return Err(NormalError::NeedsAffine);
                }
                Node::Heap { rules, size } => {
                    let v = exp.heap_nimber(rules, size)?;
                    self.set(x, v);
                    stack.pop();
                    continue;
                }
                Node::Form { left, right } => {
                    if left != right {
                        return Err(self.asymmetric(store, x));
                    }
                    left.to_vec()
                }
                Node::Sum(parts) => parts.to_vec(),
                Node::Position { .. } => vec![exp.expand(store, x)?],
            };
            if first_visit {
                self.set(x, IN_PROGRESS);
                let mut pushed = false;
                for &c in &children {
                    match self.state(c) {
                        UNKNOWN => {
                            stack.push(c);
                            pushed = true;
                        }
                        IN_PROGRESS => return Err(self.cycle(store, stack, c).into()),
                        _ => {}
                    }
                }
                if pushed {
                    continue;
                }
            }
            let v = match store.node(x) {
                Node::Sum(_) => children
                    .iter()
                    .fold(0, |acc, &c| acc ^ self.known(c).expect("child done")),
                Node::Position { .. } => self.known(children[0]).expect("child done"),
                _ => {
                    values.clear();
                    values.extend(children.iter().map(|&c| self.known(c).expect("child done")));
                    mex(&values, &mut scratch)
                }
            };
            self.set(x, v);
            stack.pop();
        }
        Ok(())
    }

    /// A form whose sides differ: entailing (affine engine) if infinities are involved,
    /// otherwise not impartial.
    fn asymmetric(&self, store: &Store, x: GameId) -> NormalError {
        let Node::Form { left, right } = store.node(x) else {
            unreachable!("asymmetric is only called on forms")
        };
        let infinite = |g: GameId| match store.node(g) {
            Node::LeftWin | Node::RightWin | Node::EntailLeft(_) | Node::EntailRight(_) => true,
            Node::Form { left, right } => left
                .iter()
                .chain(right)
                .any(|&o| matches!(store.node(o), Node::LeftWin | Node::RightWin)),
            _ => false,
        };
        if left.iter().chain(right).any(|&o| infinite(o)) {
            return NormalError::NeedsAffine;
        }
        NormalError::Fail(not_impartial(store, x))
    }

    fn cycle(&self, store: &Store, stack: &[GameId], again: GameId) -> Error {
        let nt = Notation::default();
        let on_path: Vec<GameId> = stack
            .iter()
            .copied()
            .filter(|&g| self.memo.get(g.index()) == Some(&IN_PROGRESS))
            .collect();
        let from = on_path.iter().position(|&g| g == again).unwrap_or(0);
        let mut path: Vec<GameId> = on_path[from..]
            .iter()
            .copied()
            .filter(|&g| matches!(store.node(g), Node::Position { .. }))
            .collect();
        // Name the cycle by a position: the node met again may be a shared literal form.
        let again = if matches!(store.node(again), Node::Position { .. }) {
            again
        } else {
            path.first().copied().unwrap_or(again)
        };
        if path.first() != Some(&again) {
            path.insert(0, again);
        }
        path.push(again);
        let mut path: Vec<String> = path.iter().map(|&g| display::form(store, g, nt)).collect();
        let position = display::form(store, again, nt);
        let ruleset = match store.node(again) {
            Node::Position { ruleset, .. } => store.ruleset_name(ruleset).to_string(),
            _ => "?".into(),
        };
        if path.len() > 8 {
            let tail = path.split_off(path.len() - 4);
            path.truncate(3);
            path.push("…".into());
            path.extend(tail);
        }
        Error::new(ErrorKind::Cycle {
            ruleset,
            position,
            path,
        })
    }
}

/// The error for a form whose Left and Right options differ, naming what differs.
pub fn not_impartial(store: &Store, x: GameId) -> Error {
    let nt = Notation::default();
    let Node::Form { left, right } = store.node(x) else {
        unreachable!("not_impartial is only called on forms")
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
    let detail = match (only_left.is_empty(), only_right.is_empty()) {
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
    };
    Error::new(ErrorKind::NotImpartial {
        form: display::form(store, x, nt),
        detail,
    })
    .about(x)
}
