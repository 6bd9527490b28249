//! Values of affine impartial forms: the affine minimum-excluded rule.
//!
//! Every affine impartial game equals a nimber or the moon `☾` (Larsson,
//! Nowakowski, Santos). For a symmetric form `G`:
//! * `∞ ∈ G^L` gives `☾` (then `P_G = nim`);
//! * otherwise `S_G` (immediate nimbers) collects the nimber values of the
//!   quiet left options and `P_G` (protected nimbers) collects, over the
//!   left-checks `C`, the sets `W(C)` of `k` for which Right, moving first in
//!   `C + *k`, loses; then `G = ☾` if `S_G ∪ P_G = nim`, else
//!   `*mex(S_G ∪ P_G)`.
//!
//! `W` and its dual `U` follow "check upon check" (digest §1.2): Right must
//! answer a check inside it, and may answer with a counter-check, which Left
//! in turn must answer inside it, and so on.
//!
//! The evaluation is the graph layer's demand-driven walk (`loony_graph::demand`), so deep
//! forms use heap, not native stack. Results are memoised per store id and survive
//! across queries (the store is hash-consed, so ids are stable).

use std::fmt;

use super::error::{AffineError, Side};
use super::graph::{AffineGraph, DenseId, Shape};
use super::hash::{FxHashMap, FxHashSet};
use loony_core::nimset::NimSet;
use loony_graph::demand::{self, Demand, Step};

/// The value of an affine impartial game modulo `Im^∞`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AffineValue {
    Nimber(u32),
    /// `☾`, the absorbing value: every sum with it is a next-player win.
    Moon,
}

/// Disjunctive sum: nim-sum, with the moon absorbing.
impl std::ops::Add for AffineValue {
    type Output = AffineValue;
    #[allow(clippy::suspicious_arithmetic_impl)] // game sum of nimbers is xor
    fn add(self, other: AffineValue) -> AffineValue {
        match (self, other) {
            (AffineValue::Nimber(a), AffineValue::Nimber(b)) => AffineValue::Nimber(a ^ b),
            _ => AffineValue::Moon,
        }
    }
}

impl AffineValue {
    pub fn nimber(self) -> Option<u32> {
        match self {
            AffineValue::Nimber(n) => Some(n),
            AffineValue::Moon => None,
        }
    }

    pub fn is_moon(self) -> bool {
        self == AffineValue::Moon
    }

    /// ASCII rendering: `0`, `*`, `*2`, `moon`.
    pub fn ascii(self) -> impl fmt::Display {
        Ascii(self)
    }
}

struct Ascii(AffineValue);

impl fmt::Display for Ascii {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            AffineValue::Moon => f.write_str("moon"),
            v => write!(f, "{v}"),
        }
    }
}

/// `0`, `*`, `*2`, `☾`.
impl fmt::Display for AffineValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AffineValue::Nimber(0) => f.write_str("0"),
            AffineValue::Nimber(1) => f.write_str("*"),
            AffineValue::Nimber(n) => write!(f, "*{n}"),
            AffineValue::Moon => f.write_str("☾"),
        }
    }
}

/// Which clause of the affine minimum-excluded rule decided a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// `∞` is a left option: `P = nim`, so the form is `☾`.
    InfinityOption,
    /// `S ∪ P = nim`: the form is `☾`.
    Covered,
    /// `S ∪ P ≠ nim`: the form is `*mex(S ∪ P)`.
    Mex,
}

/// Why a position has its value, for the front end to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explanation<Id> {
    Form {
        immediate_nimbers: NimSet,
        protected_nimbers: NimSet,
        rule: Rule,
        value: AffineValue,
    },
    /// A sum: the component values and their nim-sum (☾ absorbing).
    Sum {
        parts: Vec<(Id, AffineValue)>,
        value: AffineValue,
    },
}

impl<Id> Explanation<Id> {
    pub fn value(&self) -> AffineValue {
        match self {
            Explanation::Form { value, .. } | Explanation::Sum { value, .. } => *value,
        }
    }

    /// ASCII rendering (`nim\{0}`, `moon`).
    pub fn ascii(&self) -> impl fmt::Display + '_ {
        ExplainDisplay(self, true)
    }
}

struct ExplainDisplay<'a, Id>(&'a Explanation<Id>, bool);

impl<Id> fmt::Display for ExplainDisplay<'_, Id> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ascii = self.1;
        let val = |v: AffineValue| {
            if ascii {
                v.ascii().to_string()
            } else {
                v.to_string()
            }
        };
        let set = |s: &NimSet| {
            if ascii {
                s.ascii().to_string()
            } else {
                s.to_string()
            }
        };
        match self.0 {
            Explanation::Form {
                immediate_nimbers: s,
                protected_nimbers: p,
                rule,
                value,
            } => {
                write!(f, "S = {}, P = {}: ", set(s), set(p))?;
                let union = if ascii { "u" } else { "∪" };
                match rule {
                    Rule::InfinityOption => write!(f, "∞ is an option, so G = {}", val(*value)),
                    Rule::Covered => write!(f, "S {union} P = nim, so G = {}", val(*value)),
                    Rule::Mex => write!(f, "mex(S {union} P) = {}, so G = {}", value, val(*value)),
                }
            }
            Explanation::Sum { parts, value } => {
                for (i, (_, v)) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" + ")?;
                    }
                    f.write_str(&val(*v))?;
                }
                write!(f, " = {}", val(*value))
            }
        }
    }
}

/// `S = {0}, P = nim∖{0}: S ∪ P = nim, so G = ☾`.
impl<Id> fmt::Display for Explanation<Id> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        ExplainDisplay(self, f.alternate()).fmt(f)
    }
}

/// The kind of a position, as far as checks are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    LeftWin,
    RightWin,
    /// `left_check`: `∞` is a left option (in some component, for sums).
    Node {
        left_check: bool,
        right_check: bool,
    },
}

/// What is computed for an id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Task {
    /// The value of a symmetric form or a sum.
    Value,
    /// `W(C)` of a left-check: the `k` such that Right, first in `C + *k`, loses.
    Protect,
    /// `U(X)` of a right-check: the `k` such that Left, first in `X + *k`, wins.
    Counter,
    /// Only check that all quiet followers are symmetric (for checks whose
    /// answer does not matter, e.g. a check that is never met).
    Validate,
}

enum Acc {
    Form {
        infinity: bool,
        immediate: NimSet,
        protected: NimSet,
    },
    Sum(AffineValue),
    Set(NimSet),
    Nothing,
}

struct Frame<Id> {
    task: Task,
    id: Id,
    opts: Vec<Id>,
    /// Options before `split` are the ones that matter; the rest are only validated.
    split: usize,
    idx: usize,
    /// The task asked of `opts[idx]` while the frame waits for it.
    waiting: Task,
    acc: Acc,
}

#[derive(Clone, Debug)]
struct Detail {
    immediate: NimSet,
    protected: NimSet,
    rule: Rule,
}

type Res<T, Id, E> = Result<T, AffineError<Id, E>>;

/// A memo by dense id: one slot per id up to the largest seen.
struct Dense<V> {
    slots: Vec<Option<V>>,
    len: usize,
}

impl<V> Default for Dense<V> {
    fn default() -> Self {
        Dense {
            slots: Vec::new(),
            len: 0,
        }
    }
}

impl<V: Copy> Dense<V> {
    fn get(&self, id: impl DenseId) -> Option<&V> {
        self.slots.get(id.index()).and_then(Option::as_ref)
    }

    fn contains(&self, id: impl DenseId) -> bool {
        self.get(id).is_some()
    }

    /// The memoised entry (the engine only reads entries it has made).
    fn at(&self, id: impl DenseId) -> V {
        *self.get(id).expect("memoised before it is read")
    }

    fn insert(&mut self, id: impl DenseId, v: V) {
        let i = id.index();
        if self.slots.len() <= i {
            self.slots
                .resize_with((i + 1).max(self.slots.len() * 2), || None);
        }
        self.len += self.slots[i].is_none() as usize;
        self.slots[i] = Some(v);
    }
}

/// The affine value engine with a persistent memo.
pub struct AffineEngine<Id> {
    classes: Dense<Class>,
    values: Dense<AffineValue>,
    details: FxHashMap<Id, Detail>,
    protect: FxHashMap<Id, NimSet>,
    counter: FxHashMap<Id, NimSet>,
    validated: Dense<()>,
    in_progress: FxHashSet<Id>,
    scratch: Vec<Id>,
    scratch2: Vec<Id>,
}

impl<Id: Copy + Eq + std::hash::Hash + Ord + fmt::Debug + DenseId> Default for AffineEngine<Id> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Id: Copy + Eq + std::hash::Hash + Ord + fmt::Debug + DenseId> AffineEngine<Id> {
    pub fn new() -> Self {
        AffineEngine {
            classes: Dense::default(),
            values: Dense::default(),
            details: FxHashMap::default(),
            protect: FxHashMap::default(),
            counter: FxHashMap::default(),
            validated: Dense::default(),
            in_progress: FxHashSet::default(),
            scratch: Vec::new(),
            scratch2: Vec::new(),
        }
    }

    /// Forgets everything (e.g. when the store is reset).
    pub fn clear(&mut self) {
        *self = Self::new();
    }

    /// The protected sets `W(C)` (`true`) and counter sets `U(X)` (`false`) found so far.
    pub fn sets(&self) -> impl Iterator<Item = (Id, bool, &NimSet)> {
        self.protect
            .iter()
            .map(|(&g, s)| (g, true, s))
            .chain(self.counter.iter().map(|(&g, s)| (g, false, s)))
    }

    /// Number of memoised values.
    pub fn memo_len(&self) -> usize {
        self.values.len
    }

    /// The value of the affine impartial position `g` (a form or a sum).
    pub fn value<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        g: Id,
    ) -> Res<AffineValue, Id, G::Error> {
        self.run(graph, Task::Value, g)?;
        Ok(self.values.at(g))
    }

    /// The value of the sum of `parts` (`∞ + ∞̄` is an error).
    pub fn value_of_sum<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        parts: &[Id],
    ) -> Res<AffineValue, Id, G::Error> {
        let (mut left_win, mut right_win) = (None, None);
        for &p in parts {
            match graph.shape(p)? {
                Shape::LeftWin => left_win = Some(p),
                Shape::RightWin => right_win = Some(p),
                _ => {}
            }
        }
        match (left_win, right_win) {
            (Some(_), Some(_)) => return Err(AffineError::UndefinedSum),
            (Some(p), None) | (None, Some(p)) => return Err(AffineError::Infinite { form: p }),
            (None, None) => {}
        }
        let mut v = AffineValue::Nimber(0);
        for &p in parts {
            v = v + self.value(graph, p)?;
        }
        Ok(v)
    }

    /// `value(g)` together with `S_g`, `P_g` and the rule that fired.
    pub fn explain<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        g: Id,
    ) -> Res<Explanation<Id>, Id, G::Error> {
        let value = self.value(graph, g)?;
        if let Shape::Sum(parts) = graph.shape(g)? {
            let parts = parts.iter().map(|&p| (p, self.values.at(p))).collect();
            return Ok(Explanation::Sum { parts, value });
        }
        let (immediate_nimbers, protected_nimbers, rule) = match self.details.get(&g) {
            Some(d) => (d.immediate.clone(), d.protected.clone(), d.rule),
            None => (NimSet::empty(), NimSet::empty(), Rule::Mex),
        };
        Ok(Explanation::Form {
            immediate_nimbers,
            protected_nimbers,
            rule,
            value,
        })
    }

    /// Immediate nimbers `S_g` of a form.
    pub fn immediate_nimbers<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        g: Id,
    ) -> Res<Option<NimSet>, Id, G::Error> {
        self.value(graph, g)?;
        Ok(self.details.get(&g).map(|d| d.immediate.clone()))
    }

    /// Protected nimbers `P_g` of a form.
    pub fn protected_nimbers<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        g: Id,
    ) -> Res<Option<NimSet>, Id, G::Error> {
        self.value(graph, g)?;
        Ok(self.details.get(&g).map(|d| d.protected.clone()))
    }

    fn class<G: AffineGraph<Id = Id>>(&mut self, graph: &mut G, g: Id) -> Res<Class, Id, G::Error> {
        if let Some(&c) = self.classes.get(g) {
            return Ok(c);
        }
        // The parts of a sum go to a reused buffer: every option of every form is classed.
        let mut todo = std::mem::take(&mut self.scratch2);
        todo.clear();
        let c = if graph.parts_into(g, &mut todo)? {
            // A sum checks when a component does; nested sums are walked with an explicit
            // stack.
            let (mut lc, mut rc, mut win) = (false, false, None);
            while let Some(p) = todo.pop() {
                let pc = match self.classes.get(p) {
                    Some(&c) => c,
                    None if graph.parts_into(p, &mut todo)? => continue,
                    None if graph.is_win(p, true)? => Class::LeftWin,
                    None if graph.is_win(p, false)? => Class::RightWin,
                    None => {
                        let c = self.form_class(graph, p)?;
                        self.classes.insert(p, c);
                        c
                    }
                };
                match pc {
                    Class::Node {
                        left_check,
                        right_check,
                    } => {
                        lc |= left_check;
                        rc |= right_check;
                    }
                    // Not allowed by the `Shape::Sum` contract; follow the axioms.
                    w => {
                        if win.is_some_and(|x| x != w) {
                            return Err(AffineError::UndefinedSum);
                        }
                        win = Some(w);
                    }
                }
            }
            win.unwrap_or(Class::Node {
                left_check: lc,
                right_check: rc,
            })
        } else if graph.is_win(g, true)? {
            Class::LeftWin
        } else if graph.is_win(g, false)? {
            Class::RightWin
        } else {
            self.form_class(graph, g)?
        };
        self.scratch2 = todo;
        self.classes.insert(g, c);
        Ok(c)
    }

    fn form_class<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        g: Id,
    ) -> Res<Class, Id, G::Error> {
        let mut opts = std::mem::take(&mut self.scratch);
        opts.clear();
        graph.left_options(g, &mut opts)?;
        let mut left_check = false;
        for &o in &opts {
            left_check |= graph.is_win(o, true)?;
        }
        opts.clear();
        graph.right_options(g, &mut opts)?;
        let mut right_check = false;
        for &o in &opts {
            right_check |= graph.is_win(o, false)?;
        }
        self.scratch = opts;
        Ok(Class::Node {
            left_check,
            right_check,
        })
    }

    fn is_done(&self, task: Task, g: Id) -> bool {
        match task {
            Task::Value => self.values.contains(g),
            Task::Protect => self.protect.contains_key(&g),
            Task::Counter => self.counter.contains_key(&g),
            Task::Validate => self.validated.contains(g),
        }
    }

    fn open<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        task: Task,
        g: Id,
    ) -> Res<Frame<Id>, Id, G::Error> {
        let mut opts = Vec::new();
        let (split, acc) = match task {
            Task::Value => match graph.shape(g)? {
                Shape::LeftWin | Shape::RightWin => return Err(AffineError::Infinite { form: g }),
                Shape::Sum(parts) => {
                    opts = parts;
                    (opts.len(), Acc::Sum(AffineValue::Nimber(0)))
                }
                Shape::Form => {
                    graph.left_options(g, &mut opts)?;
                    opts.sort_unstable();
                    opts.dedup();
                    self.check_symmetric(graph, g, &opts)?;
                    let acc = Acc::Form {
                        infinity: false,
                        immediate: NimSet::empty(),
                        protected: NimSet::empty(),
                    };
                    (opts.len(), acc)
                }
            },
            Task::Protect => {
                graph.right_options(g, &mut opts)?;
                let split = opts.len();
                graph.left_options(g, &mut opts)?;
                (split, Acc::Set(NimSet::all()))
            }
            Task::Counter => {
                graph.left_options(g, &mut opts)?;
                let split = opts.len();
                graph.right_options(g, &mut opts)?;
                (split, Acc::Set(NimSet::empty()))
            }
            Task::Validate => {
                graph.left_options(g, &mut opts)?;
                graph.right_options(g, &mut opts)?;
                (0, Acc::Nothing)
            }
        };
        Ok(Frame {
            task,
            id: g,
            opts,
            split,
            idx: 0,
            waiting: Task::Validate,
            acc,
        })
    }

    /// `g^R` must equal the conjugates of `g^L` (as sets; ids are hash-consed).
    fn check_symmetric<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        g: Id,
        left: &[Id],
    ) -> Res<(), Id, G::Error> {
        let mut conj = std::mem::take(&mut self.scratch);
        let mut right = std::mem::take(&mut self.scratch2);
        conj.clear();
        right.clear();
        for &l in left {
            conj.push(graph.conjugate(l)?);
        }
        graph.right_options(g, &mut right)?;
        conj.sort_unstable();
        conj.dedup();
        right.sort_unstable();
        right.dedup();
        let mut result = Ok(());
        if conj != right {
            for &l in left {
                let c = graph.conjugate(l)?;
                if right.binary_search(&c).is_err() {
                    result = Err(AffineError::NotSymmetric {
                        form: g,
                        side: Side::Left,
                        option: l,
                    });
                    break;
                }
            }
            if result.is_ok()
                && let Some(&r) = right.iter().find(|r| conj.binary_search(r).is_err())
            {
                result = Err(AffineError::NotSymmetric {
                    form: g,
                    side: Side::Right,
                    option: r,
                });
            }
        }
        self.scratch = conj;
        self.scratch2 = right;
        result
    }

    /// What option `x` of a frame needs: `None` if it is settled by its class.
    fn need<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        frame: &mut Frame<Id>,
        x: Id,
    ) -> Res<Option<Task>, Id, G::Error> {
        let cls = self.class(graph, x)?;
        let relevant = frame.idx < frame.split;
        let (lc, rc) = match cls {
            Class::LeftWin | Class::RightWin => {
                if relevant {
                    match (&mut frame.acc, cls) {
                        // ∞ among the left options: the form is ☾.
                        (Acc::Form { infinity, .. }, Class::LeftWin) => *infinity = true,
                        // Right answers the check with ∞̄: no protection.
                        (Acc::Set(s), Class::RightWin) if frame.task == Task::Protect => {
                            *s = NimSet::empty()
                        }
                        // Left answers the counter-check with ∞.
                        (Acc::Set(s), Class::LeftWin) if frame.task == Task::Counter => {
                            *s = NimSet::all()
                        }
                        (Acc::Sum(_), _) => return Err(AffineError::Infinite { form: x }),
                        _ => {}
                    }
                }
                return Ok(None);
            }
            Class::Node {
                left_check,
                right_check,
            } => (left_check, right_check),
        };
        let quiet = !lc && !rc;
        if (quiet || matches!(frame.acc, Acc::Sum(_)))
            && !self.values.contains(x)
            && let Some(v) = graph.known_value(x)
        {
            self.values.insert(x, v);
            self.validated.insert(x, ());
        }
        Ok(Some(if quiet || matches!(frame.acc, Acc::Sum(_)) {
            // Quiet positions (and sum components) must have a value.
            Task::Value
        } else if !relevant || frame.task == Task::Validate {
            Task::Validate
        } else {
            match frame.task {
                // A left option that checks protects; one that only
                // counter-checks is refuted by ∞̄ and is merely validated.
                Task::Value if lc => Task::Protect,
                // Right's answer: still a left-check loses to ∞; a
                // counter-check must be answered by Left.
                Task::Protect if !lc => Task::Counter,
                // Left's answer: still a right-check loses to ∞̄; a check
                // continues the manoeuvre.
                Task::Counter if !rc => Task::Protect,
                _ => Task::Validate,
            }
        }))
    }

    /// Folds the finished result of `(task, x)` into the frame.
    fn fold(&self, frame: &mut Frame<Id>, task: Task, x: Id) {
        if frame.idx >= frame.split {
            return;
        }
        match (&mut frame.acc, task) {
            (Acc::Sum(v), Task::Value) => *v = *v + self.values.at(x),
            (Acc::Form { immediate, .. }, Task::Value) => {
                if let AffineValue::Nimber(n) = self.values.at(x) {
                    immediate.insert(n);
                }
            }
            (Acc::Form { protected, .. }, Task::Protect) => protected.union_with(&self.protect[&x]),
            (Acc::Set(s), Task::Value) => match (frame.task, self.values.at(x)) {
                // Left, first in X + *k with X = *j, wins unless k = j.
                (Task::Protect, AffineValue::Nimber(j)) => s.remove(j),
                // Right, first in Y + *k with Y = *j, loses iff k = j.
                (Task::Counter, AffineValue::Nimber(j)) => s.insert(j),
                // ☾ + *k is a first-player win: no effect on either side.
                _ => {}
            },
            (Acc::Set(s), Task::Counter) => s.intersect_with(&self.counter[&x]),
            (Acc::Set(s), Task::Protect) => s.union_with(&self.protect[&x]),
            _ => {}
        }
    }

    fn finish(&mut self, frame: Frame<Id>) {
        let g = frame.id;
        match frame.acc {
            Acc::Form {
                infinity,
                immediate,
                mut protected,
            } => {
                let (rule, value) = if infinity {
                    protected = NimSet::all();
                    (Rule::InfinityOption, AffineValue::Moon)
                } else {
                    match immediate.union(&protected).mex() {
                        None => (Rule::Covered, AffineValue::Moon),
                        Some(n) => (Rule::Mex, AffineValue::Nimber(n)),
                    }
                };
                self.values.insert(g, value);
                self.details.insert(
                    g,
                    Detail {
                        immediate,
                        protected,
                        rule,
                    },
                );
            }
            Acc::Sum(v) => {
                self.values.insert(g, v);
            }
            Acc::Set(s) => {
                if frame.task == Task::Protect {
                    self.protect.insert(g, s);
                } else {
                    self.counter.insert(g, s);
                }
            }
            Acc::Nothing => {}
        }
        self.validated.insert(g, ());
    }

    fn run<G: AffineGraph<Id = Id>>(
        &mut self,
        graph: &mut G,
        task: Task,
        g: Id,
    ) -> Res<(), Id, G::Error> {
        let result = demand::solve(
            &mut Walk {
                engine: self,
                graph,
            },
            (task, g),
        );
        // Finished results stay memoised; unfinished frames are dropped.
        self.in_progress.clear();
        result
    }
}

/// The affine rule as a demand-driven walk: a key is a task on a position; a frame waits on
/// its options one at a time, asking for what each one's class makes it need.
struct Walk<'a, Id, G> {
    engine: &'a mut AffineEngine<Id>,
    graph: &'a mut G,
}

impl<Id, G> Demand for Walk<'_, Id, G>
where
    Id: Copy + Eq + std::hash::Hash + Ord + fmt::Debug + DenseId,
    G: AffineGraph<Id = Id>,
{
    type Key = (Task, Id);
    type Frame = Frame<Id>;
    type Out = ();
    type Error = AffineError<Id, G::Error>;

    fn known(&mut self, &(task, g): &(Task, Id)) -> Option<()> {
        self.engine.is_done(task, g).then_some(())
    }

    fn open(&mut self, (task, g): (Task, Id)) -> Result<Frame<Id>, Self::Error> {
        self.engine.open(self.graph, task, g)
    }

    fn step(&mut self, frame: &mut Frame<Id>) -> Result<Step<(Task, Id)>, Self::Error> {
        let e = &mut *self.engine;
        while frame.idx < frame.opts.len() {
            let x = frame.opts[frame.idx];
            let need = e.need(self.graph, frame, x)?;
            // Sets remembered from earlier queries count as done.
            match need {
                Some(Task::Protect) if !e.protect.contains_key(&x) => {
                    if let Some(set) = self.graph.known_set(x, true) {
                        e.protect.insert(x, set);
                        e.validated.insert(x, ());
                    }
                }
                Some(Task::Counter) if !e.counter.contains_key(&x) => {
                    if let Some(set) = self.graph.known_set(x, false) {
                        e.counter.insert(x, set);
                        e.validated.insert(x, ());
                    }
                }
                _ => {}
            }
            match need {
                None => frame.idx += 1,
                Some(t) => {
                    frame.waiting = t;
                    return Ok(Step::Need((t, x)));
                }
            }
        }
        Ok(Step::Done)
    }

    fn finish(&mut self, frame: Frame<Id>) -> Result<(), Self::Error> {
        self.engine.finish(frame);
        Ok(())
    }

    fn take(&mut self, frame: &mut Frame<Id>, (): ()) {
        let x = frame.opts[frame.idx];
        self.engine.fold(frame, frame.waiting, x);
        frame.idx += 1;
    }

    fn poll(&mut self) -> Result<(), Self::Error> {
        if self.graph.interrupted() {
            return Err(AffineError::Interrupted);
        }
        Ok(())
    }

    fn enter(&mut self, &(_, x): &(Task, Id)) -> Result<(), Self::Error> {
        // The forms are acyclic; a position met again on the way down is a cycle.
        if !self.engine.in_progress.insert(x) {
            return Err(AffineError::Cycle { form: x });
        }
        Ok(())
    }

    fn leave(&mut self, frame: &Frame<Id>) {
        self.engine.in_progress.remove(&frame.id);
    }
}
