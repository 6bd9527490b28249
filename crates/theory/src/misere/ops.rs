//! Mates, distinguishers and links (§4.3, §4.7; ONAG Theorems 75–76).
//!
//! `distinguisher`, `link` and the oriented distinguisher call one another on smaller games;
//! they run as a state machine on the graph layer's demand-driven walk, each frame waiting for
//! the answer of the trial it asked for.

use super::canonical::{Mid, MisereStore};
use super::{MisereError, Result};
use loony_graph::demand::{self, Demand, Step};
use rustc_hash::FxHashMap;

#[derive(Default)]
pub struct OpsCache {
    mates: FxHashMap<Mid, Mid>,
    /// Distinguishers, symmetric in the pair (CGSuite's memo; the oriented version fixes the
    /// direction).
    discs: FxHashMap<(Mid, Mid), Option<Mid>>,
}

#[derive(Clone, Copy, PartialEq)]
enum Task {
    /// Some X with exactly one of g + X, h + X a P-position.
    Disc,
    /// X with g + X a P-position and h + X an N-position.
    DiscPN,
    /// X with g + X and h + X both P-positions.
    Link,
}

struct Frame {
    task: Task,
    g: Mid,
    h: Mid,
    stage: u8,
    i: usize,
    /// Link: the pairs whose oriented distinguishers become the options; Disc: its trials.
    pairs: Vec<(Mid, Mid)>,
    acc: Vec<Mid>,
    /// The answer of the trial this frame asked for last.
    answer: Option<Option<Mid>>,
    result: Option<Option<Mid>>,
}

impl Frame {
    fn new(task: Task, g: Mid, h: Mid) -> Self {
        Frame {
            task,
            g,
            h,
            stage: 0,
            i: 0,
            pairs: Vec::new(),
            acc: Vec::new(),
            answer: None,
            result: None,
        }
    }
}

fn pair_key(g: Mid, h: Mid) -> (Mid, Mid) {
    (g.min(h), g.max(h))
}

impl MisereStore {
    /// The mate: `mate(0) = *`, `mate(*) = 0`, otherwise the game of the options' mates. `G +
    /// mate(G)` is always a P-position.
    pub fn mate(&mut self, g: Mid) -> Result<Mid> {
        let mut stack = vec![g];
        let mut buf = Vec::new();
        while let Some(&x) = stack.last() {
            self.poll()?;
            if x.even_part() == Mid::ZERO {
                self.ops.mates.insert(x, x.plus_star());
            }
            if self.ops.mates.contains_key(&x) {
                stack.pop();
                continue;
            }
            let missing: Vec<Mid> = self
                .options(x)
                .iter()
                .copied()
                .filter(|o| !self.ops.mates.contains_key(o))
                .collect();
            if !missing.is_empty() {
                stack.extend(missing);
                continue;
            }
            buf.clear();
            buf.extend(self.options(x).iter().map(|o| self.ops.mates[o]));
            let m = self.construct(&buf);
            self.ops.mates.insert(x, m);
            stack.pop();
        }
        Ok(self.ops.mates[&g])
    }

    /// Whether some `X` makes `g + X` and `h + X` both P-positions: neither is an option of the
    /// other.
    pub fn is_linked(&self, g: Mid, h: Mid) -> bool {
        !self.has_option(g, h) && !self.has_option(h, g)
    }

    /// `X` with `g + X` a P-position and `h + X` an N-position (CGSuite's `Distinguisher`).
    pub fn distinguisher(&mut self, g: Mid, h: Mid) -> Result<Mid> {
        if g == h {
            return Err(MisereError::Identical(g));
        }
        self.run(Task::DiscPN, g, h)?
            .ok_or(MisereError::Identical(g))
    }

    /// `X` with `g + X` and `h + X` both P-positions (CGSuite's `Link`).
    pub fn link(&mut self, g: Mid, h: Mid) -> Result<Mid> {
        if !self.is_linked(g, h) {
            return Err(MisereError::NotLinked(g, h));
        }
        self.run(Task::Link, g, h)?
            .ok_or(MisereError::NotLinked(g, h))
    }

    fn is_p(&self, g: Mid) -> bool {
        self.nim_minus(g) == 0
    }

    fn run(&mut self, task: Task, g: Mid, h: Mid) -> Result<Option<Mid>> {
        demand::solve(&mut Walk { store: self }, (task, g, h))
    }
}

/// Distinguishers and links as a demand-driven walk: a frame tries pairs in turn, each trial
/// the answer of another frame.
struct Walk<'a> {
    store: &'a mut MisereStore,
}

impl Demand for Walk<'_> {
    type Key = (Task, Mid, Mid);
    type Frame = Frame;
    type Out = Option<Mid>;
    type Error = MisereError;

    // The memo of distinguishers is read inside the frame, at its first step.
    fn known(&mut self, _: &(Task, Mid, Mid)) -> Option<Option<Mid>> {
        None
    }

    fn open(&mut self, (task, g, h): (Task, Mid, Mid)) -> Result<Frame> {
        Ok(Frame::new(task, g, h))
    }

    fn take(&mut self, f: &mut Frame, out: Option<Mid>) {
        f.answer = Some(out);
    }

    fn finish(&mut self, f: Frame) -> Result<Option<Mid>> {
        Ok(f.result.flatten())
    }

    // The store polls itself (Ctrl-C and the budget), at every step.
    fn poll(&mut self) -> Result<()> {
        Ok(())
    }

    fn step(&mut self, f: &mut Frame) -> Result<Step<(Task, Mid, Mid)>> {
        let st = &mut *self.store;
        let (g, h) = (f.g, f.h);
        loop {
            st.poll()?;
            let answer = &mut f.answer;
            let done: Option<Option<Mid>> = match f.task {
                Task::Disc => {
                    if f.stage == 0 {
                        if g == h {
                            Some(None)
                        } else if (g == Mid::ZERO && st.is_p(h)) || (h == Mid::ZERO && st.is_p(g)) {
                            Some(Some(Mid::ZERO))
                        } else if let Some(&t) = st.ops.discs.get(&pair_key(g, h)) {
                            Some(t)
                        } else {
                            // Trials in order: link(h, g') for g's options, then link(g, h').
                            f.pairs = st.options(g).iter().map(|&o| (h, o)).collect();
                            f.pairs.extend(st.options(h).iter().map(|&o| (g, o)));
                            f.stage = 1;
                            None
                        }
                    } else {
                        match answer.take() {
                            Some(Some(t)) => {
                                st.ops.discs.insert(pair_key(g, h), Some(t));
                                Some(Some(t))
                            }
                            _ => {
                                if f.stage == 2 {
                                    f.i += 1;
                                }
                                f.stage = 2;
                                if f.i < f.pairs.len() {
                                    let (a, b) = f.pairs[f.i];
                                    return Ok(Step::Need((Task::Link, a, b)));
                                }
                                st.ops.discs.insert(pair_key(g, h), None);
                                Some(None)
                            }
                        }
                    }
                }
                Task::DiscPN => match f.stage {
                    0 => {
                        f.stage = 1;
                        return Ok(Step::Need((Task::Disc, g, h)));
                    }
                    _ => match answer.take().flatten() {
                        None => Some(None),
                        Some(t) => {
                            let s = st.add(g, t)?;
                            if st.is_p(s) {
                                Some(Some(t))
                            } else {
                                let opts: Vec<Mid> = st.options(g).to_vec();
                                let mut buf = Vec::with_capacity(opts.len() + 1);
                                for o in opts {
                                    buf.push(st.mate(o)?);
                                }
                                buf.push(t);
                                Some(Some(st.construct(&buf)))
                            }
                        }
                    },
                },
                Task::Link => {
                    if f.stage == 0 {
                        if g == Mid::ZERO && h == Mid::ZERO {
                            Some(Some(Mid::STAR))
                        } else if !st.is_linked(g, h) {
                            Some(None)
                        } else {
                            // g's options in descending order, then h's in ascending order.
                            f.pairs = st.options(g).iter().rev().map(|&o| (o, h)).collect();
                            f.pairs.extend(st.options(h).iter().map(|&o| (o, g)));
                            f.stage = 1;
                            f.i = 0;
                            if let Some(&(a, b)) = f.pairs.first() {
                                return Ok(Step::Need((Task::DiscPN, a, b)));
                            }
                            Some(Some(st.construct(&[])))
                        }
                    } else {
                        match answer.take().flatten() {
                            None => Some(None),
                            Some(x) => {
                                f.acc.push(x);
                                f.i += 1;
                                if f.i < f.pairs.len() {
                                    let (a, b) = f.pairs[f.i];
                                    return Ok(Step::Need((Task::DiscPN, a, b)));
                                }
                                let acc = std::mem::take(&mut f.acc);
                                Some(Some(st.construct(&acc)))
                            }
                        }
                    }
                }
            };
            if let Some(r) = done {
                f.result = Some(r);
                return Ok(Step::Done);
            }
        }
    }
}
