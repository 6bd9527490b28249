//! The generalized Sprague–Grundy function γ of a finite graph (Smith; Fraenkel–Yesha's
//! labelling with a counter), one strongly connected component at a time.
//!
//! γ(u) is a nimber `m` or ∞(A), A the finite values among u's options (seed 001, Defs 10–11).
//! Stage `i` labels `i` every unlabelled u such that (a) no option of u is labelled `i` and (b)
//! every option of u that is unlabelled or ∞ has an option labelled `i` (so a move into a loop
//! can be answered by a move back to `i`); then every unlabelled u with no option labelled `i`
//! is ∞. An unlabelled vertex at stage `i` already has options labelled 0..i−1, so `i` is the
//! mex of its finite options. The counter `c` records the order of labelling: a finite vertex
//! can always be reached back from above through a vertex of smaller counter (condition B),
//! which is what makes the P-positions' strategy terminate.
//!
//! Each stage is a work list: a vertex becomes a candidate when its count of "bad" options
//! (unlabelled or ∞, and without an option labelled `i`) drops to zero, so a stage costs time
//! linear in the edges still involved. Options outside the component are final already and are
//! read through [`LoopyView::outside`].

/// `γ = ∞`.
pub const INF: u32 = u32::MAX;
const UNLABELLED: u32 = u32::MAX - 1;
/// A cell of a box that is not being labelled ([`Labeller::label_all`]).
const ABSENT: u32 = u32::MAX - 2;

/// The final γ of a vertex outside the component being labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outside<'a> {
    Finite(u32),
    /// ∞(A), with A sorted.
    Infinite(&'a [u32]),
}

/// What the labeller reads of a graph.
pub trait LoopyView {
    fn options(&self, u: u32) -> &[u32];
    /// γ of a vertex labelled before the current component.
    fn outside(&self, v: u32) -> Outside<'_>;
}

/// The γ of one vertex of the component just labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    /// A nimber, or [`INF`].
    pub label: u32,
    /// Order of labelling (condition B of the counter function), if the labeller counts.
    pub counter: Option<u32>,
    /// For ∞ vertices: A is `Labeller::set(a)`.
    pub a: (u32, u32),
}

/// Scratch space for labelling components, reused across components of one graph.
#[derive(Default)]
pub struct Labeller {
    /// Local index of each graph vertex in the current component (`u32::MAX` outside).
    local: Vec<u32>,
    counter: u32,
    /// Whether the order of labelling is kept (the counter of [`gamma`]).
    counted: bool,
    // Per local vertex:
    label: Vec<u32>,
    /// How many options are labelled `i` (saturating: only zero, one and more matter).
    has: Vec<u8>,
    /// How many options are bad: open and unable to answer with `i`. Once the stages are
    /// over, an ∞ vertex's word says where its A-set starts in `sets` (its length, then
    /// its elements).
    bad: Vec<u32>,
    /// 1 for a vertex that is open (unlabelled or ∞) with no option labelled `i` when stage
    /// `i` starts: the one byte the stage's scan of every edge reads (a dense byte array
    /// stays in cache where the two word arrays it summarises do not).
    blocks: Vec<u8>,
    /// The component's edges, in local ids.
    edges: Edges,
    queue: Vec<u32>,
    remaining: Vec<u32>,
    infinite: Vec<u32>,
    /// Order of labelling, when counted.
    order: Vec<u32>,
    sets: Vec<u32>,
    scratch: Vec<u32>,
}

/// The edges of the component being labelled, in compressed rows by local vertex: options
/// inside it, their predecessors, and the options outside it (finite values, then ∞).
#[derive(Default)]
struct Edges {
    int_start: Vec<u32>,
    int_succ: Vec<u32>,
    pred_start: Vec<u32>,
    pred: Vec<u32>,
    ext_start: Vec<u32>,
    /// Finite values of outside options, sorted and distinct per vertex.
    ext_finite: Vec<u32>,
    inf_start: Vec<u32>,
    /// Outside options that are ∞.
    ext_inf: Vec<u32>,
}

impl Labeller {
    pub fn new() -> Self {
        Self::default()
    }

    /// A labeller that keeps the order of labelling ([`Labelled::counter`]).
    pub fn counting() -> Self {
        Self {
            counted: true,
            ..Self::default()
        }
    }

    /// The γ of `members[i]` of the last [`Labeller::label`].
    /// Whether cell `i` was a member of the box [`Labeller::label_all`] labelled.
    pub fn is_member(&self, i: usize) -> bool {
        self.label.get(i).is_some_and(|&l| l != ABSENT)
    }

    pub fn result(&self, i: usize) -> Labelled {
        let label = self.label[i];
        let a = if label == INF {
            let at = self.bad[i];
            (at + 1, self.sets[at as usize])
        } else {
            (0, 0)
        };
        Labelled {
            label,
            counter: self.counted.then(|| self.order[i]),
            a,
        }
    }

    /// The elements of an A-set handed out in [`Labelled::a`] (valid until the next call).
    pub fn set(&self, a: (u32, u32)) -> &[u32] {
        &self.sets[a.0 as usize..(a.0 + a.1) as usize]
    }

    /// Labels the component `members` (a strongly connected component, or a single vertex,
    /// whose every option outside it is already labelled); [`Labeller::result`] then reads
    /// each member's γ. `poll` is called now and then; `true` stops with `false`.
    pub fn label<V: LoopyView + ?Sized>(
        &mut self,
        view: &V,
        members: &[u32],
        poll: &mut dyn FnMut() -> bool,
    ) -> bool {
        self.sets.clear();
        if let [u] = *members
            && !view.options(u).contains(&u)
        {
            self.single(view, u);
            return true;
        }
        self.prepare(view, members);
        self.remaining.clear();
        self.remaining.extend(0..members.len() as u32);
        let edges = std::mem::take(&mut self.edges);
        let ok = self.stages(&Local { e: &edges, view }, poll);
        self.edges = edges;
        for &u in members {
            self.local[u as usize] = u32::MAX;
        }
        ok
    }

    /// Room for `s` local vertices' results, all unlabelled.
    fn results(&mut self, s: usize) {
        self.results_as(s, UNLABELLED);
    }

    fn results_as(&mut self, s: usize, label: u32) {
        self.label.clear();
        self.label.resize(s, label);
        self.bad.clear();
        self.bad.resize(s, 0);
        self.order.clear();
        if self.counted {
            self.order.resize(s, 0);
        }
    }

    /// Records that local vertex `u` is labelled now.
    fn labelled(&mut self, u: usize) {
        if self.counted {
            self.order[u] = self.counter;
        }
        self.counter += 1;
    }

    /// A vertex on no cycle: the generalized mex of its options.
    fn single<V: LoopyView + ?Sized>(&mut self, view: &V, u: u32) {
        let mut finite = std::mem::take(&mut self.scratch);
        finite.clear();
        for &v in view.options(u) {
            if let Outside::Finite(k) = view.outside(v) {
                finite.push(k);
            }
        }
        finite.sort_unstable();
        finite.dedup();
        let m = mex_sorted(&finite);
        let escapes = view.options(u).iter().all(|&v| match view.outside(v) {
            Outside::Finite(_) => true,
            Outside::Infinite(a) => a.binary_search(&m).is_ok(),
        });
        self.results(1);
        self.labelled(0);
        if escapes {
            self.label[0] = m;
        } else {
            self.label[0] = INF;
            self.bad[0] = self.sets.len() as u32;
            self.sets.push(finite.len() as u32);
            self.sets.extend_from_slice(&finite);
        }
        self.scratch = finite;
    }

    /// Local adjacency of the component: inside edges both ways, outside options by kind.
    fn prepare<V: LoopyView + ?Sized>(&mut self, view: &V, members: &[u32]) {
        let s = members.len();
        let top = members.iter().copied().max().unwrap_or(0) as usize + 1;
        if self.local.len() < top {
            self.local.resize(top, u32::MAX);
        }
        for (i, &u) in members.iter().enumerate() {
            self.local[u as usize] = i as u32;
        }
        for v in [
            &mut self.edges.int_start,
            &mut self.edges.int_succ,
            &mut self.edges.ext_start,
            &mut self.edges.ext_finite,
            &mut self.edges.inf_start,
            &mut self.edges.ext_inf,
        ] {
            v.clear();
        }
        // Room for every row at once: a component can be most of a large graph, and arrays
        // grown by doubling would copy it several times over.
        let options: usize = members.iter().map(|&u| view.options(u).len()).sum();
        self.edges.int_start.reserve(s + 1);
        self.edges.ext_start.reserve(s + 1);
        self.edges.inf_start.reserve(s + 1);
        self.edges.int_succ.reserve(options);
        let mut finite = std::mem::take(&mut self.scratch);
        for &u in members {
            self.edges.int_start.push(self.edges.int_succ.len() as u32);
            self.edges
                .ext_start
                .push(self.edges.ext_finite.len() as u32);
            self.edges.inf_start.push(self.edges.ext_inf.len() as u32);
            finite.clear();
            for &v in view.options(u) {
                let lv = self.local.get(v as usize).copied().unwrap_or(u32::MAX);
                if lv != u32::MAX {
                    self.edges.int_succ.push(lv);
                    continue;
                }
                match view.outside(v) {
                    Outside::Finite(k) => finite.push(k),
                    Outside::Infinite(_) => self.edges.ext_inf.push(v),
                }
            }
            finite.sort_unstable();
            finite.dedup();
            self.edges.ext_finite.extend_from_slice(&finite);
        }
        self.scratch = finite;
        self.edges.int_start.push(self.edges.int_succ.len() as u32);
        self.edges
            .ext_start
            .push(self.edges.ext_finite.len() as u32);
        self.edges.inf_start.push(self.edges.ext_inf.len() as u32);
        // Predecessors inside the component, with multiplicity.
        self.edges.pred_start.clear();
        self.edges.pred_start.resize(s + 1, 0);
        for &v in &self.edges.int_succ {
            self.edges.pred_start[v as usize + 1] += 1;
        }
        for i in 0..s {
            self.edges.pred_start[i + 1] += self.edges.pred_start[i];
        }
        self.edges.pred.clear();
        self.edges.pred.resize(self.edges.int_succ.len(), 0);
        let mut fill = std::mem::take(&mut self.queue);
        fill.clear();
        fill.extend_from_slice(&self.edges.pred_start[..s]);
        for u in 0..s {
            for k in self.edges.int_start[u]..self.edges.int_start[u + 1] {
                let v = self.edges.int_succ[k as usize] as usize;
                self.edges.pred[fill[v] as usize] = u as u32;
                fill[v] += 1;
            }
        }
        self.queue = fill;
        self.results(s);
        self.has.clear();
        self.has.resize(s, 0);
        self.blocks.clear();
        self.blocks.resize(s, 0);
    }

    /// Labels every member of `adj` (cells of a box read from its rules, [`Adjacency`]):
    /// the labeller's arrays are indexed by cell, and cells that are not members are never
    /// labelled. [`Labeller::result`] then reads each member's γ ([`Labeller::is_member`]).
    /// The members become the stages' list of unlabelled cells (not copied: a torus of 10⁶
    /// cells would hold them twice).
    pub fn label_all<A: Adjacency>(
        &mut self,
        adj: &A,
        cells: usize,
        members: Vec<u32>,
        poll: &mut dyn FnMut() -> bool,
    ) -> bool {
        self.sets.clear();
        self.results_as(cells, ABSENT);
        for &u in &members {
            self.label[u as usize] = UNLABELLED;
        }
        self.has.clear();
        self.has.resize(cells, 0);
        self.blocks.clear();
        self.blocks.resize(cells, 0);
        self.remaining = members;
        self.stages(adj, poll)
    }

    fn stages<A: Adjacency>(&mut self, adj: &A, poll: &mut dyn FnMut() -> bool) -> bool {
        let mut remaining = std::mem::take(&mut self.remaining);
        let mut infinite = std::mem::take(&mut self.infinite);
        let mut queue = std::mem::take(&mut self.queue);
        infinite.clear();
        let mut work = 0u64;
        let mut i = 0u32;
        let mut ok = true;
        while !remaining.is_empty() {
            // Who has an option labelled i (only outside ones, so far).
            for &u in remaining.iter().chain(infinite.iter()) {
                let has = adj.outside_has(u, i);
                self.has[u as usize] = has as u8;
                // Open, so it blocks unless it can answer with a move to i.
                self.blocks[u as usize] = !has as u8;
            }
            queue.clear();
            for &u in &remaining {
                let mut bad = adj.outside_blocking(u, i);
                adj.succ(u, |v| {
                    bad += self.blocks[v as usize] as u32;
                    work += 1;
                });
                let u = u as usize;
                self.bad[u] = bad;
                if bad == 0 && self.has[u] == 0 {
                    queue.push(u as u32);
                }
                work += 1;
            }
            while let Some(u) = queue.pop() {
                let u = u as usize;
                if self.label[u] != UNLABELLED || self.has[u] != 0 || self.bad[u] != 0 {
                    continue;
                }
                self.label[u] = i;
                // Labelled finite: never open again.
                self.blocks[u] = 0;
                self.labelled(u);
                let (label, has, bad) = (&self.label, &mut self.has, &mut self.bad);
                adj.pred(u as u32, |p| {
                    let p = p as usize;
                    has[p] = has[p].saturating_add(1);
                    if has[p] == 1 && matches!(label[p], UNLABELLED | INF) {
                        // p can now answer a move into it with a move to i.
                        adj.pred(p as u32, |q| {
                            let q = q as usize;
                            if label[q] == UNLABELLED {
                                bad[q] -= 1;
                                if bad[q] == 0 && has[q] == 0 {
                                    queue.push(q as u32);
                                }
                            }
                        });
                    }
                    work += 1;
                });
                if work > 1 << 20 {
                    work = 0;
                    if poll() {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                break;
            }
            // Whoever is still unlabelled and has no option labelled i can never be finite.
            let mut kept = 0;
            for j in 0..remaining.len() {
                let u = remaining[j];
                match self.label[u as usize] {
                    UNLABELLED if self.has[u as usize] == 0 => {
                        self.label[u as usize] = INF;
                        infinite.push(u);
                    }
                    UNLABELLED => {
                        remaining[kept] = u;
                        kept += 1;
                    }
                    _ => {}
                }
            }
            remaining.truncate(kept);
            i += 1;
        }
        if ok {
            // A-sets of the ∞ vertices: the finite labels of their options.
            let mut a = std::mem::take(&mut self.scratch);
            let mut last: Option<usize> = None;
            for &u in &infinite {
                a.clear();
                a.extend_from_slice(adj.outside_finite(u));
                adj.succ(u, |v| {
                    let l = self.label[v as usize];
                    if l != INF {
                        a.push(l);
                    }
                });
                a.sort_unstable();
                a.dedup();
                // Most ∞ vertices of a large component share their A with the one before
                // (WindUp: ∅ or {0}): one copy of it serves them all.
                // (Compared in place: slice equality calls `memcmp` once per vertex.)
                let same = last.is_some_and(|at: usize| {
                    let len = self.sets[at] as usize;
                    len == a.len()
                        && self.sets[at + 1..at + 1 + len]
                            .iter()
                            .zip(&a)
                            .all(|(x, y)| x == y)
                });
                if !same {
                    last = Some(self.sets.len());
                    self.sets.push(a.len() as u32);
                    self.sets.extend_from_slice(&a);
                }
                self.bad[u as usize] = last.expect("set just above") as u32;
                self.labelled(u as usize);
            }
            self.scratch = a;
        }
        self.remaining = remaining;
        self.infinite = infinite;
        self.queue = queue;
        ok
    }
}

/// What the stages read of the vertices being labelled (local ids): options inside and
/// predecessors inside, with the same multiplicities, and what is known of options outside.
pub trait Adjacency {
    /// Each option of `u` among the vertices being labelled.
    fn succ(&self, u: u32, f: impl FnMut(u32));
    /// Each vertex with a move to `u`, once per such move; vertices that are not being
    /// labelled may be among them (they keep a label that is neither a value nor open).
    fn pred(&self, u: u32, f: impl FnMut(u32));
    /// Whether an option of `u` outside has the value `i`.
    fn outside_has(&self, _u: u32, _i: u32) -> bool {
        false
    }
    /// How many options of `u` outside are ∞(A) with `i` not in A.
    fn outside_blocking(&self, _u: u32, _i: u32) -> u32 {
        0
    }
    /// The finite values of the options of `u` outside, sorted and distinct.
    fn outside_finite(&self, _u: u32) -> &[u32] {
        &[]
    }
}

/// A component copied into [`Edges`], outside options read through the view.
struct Local<'a, V: ?Sized> {
    e: &'a Edges,
    view: &'a V,
}

impl<V: LoopyView + ?Sized> Adjacency for Local<'_, V> {
    #[inline]
    fn succ(&self, u: u32, mut f: impl FnMut(u32)) {
        let u = u as usize;
        for &v in &self.e.int_succ[self.e.int_start[u] as usize..self.e.int_start[u + 1] as usize] {
            f(v);
        }
    }
    #[inline]
    fn pred(&self, u: u32, mut f: impl FnMut(u32)) {
        let u = u as usize;
        for &p in &self.e.pred[self.e.pred_start[u] as usize..self.e.pred_start[u + 1] as usize] {
            f(p);
        }
    }
    fn outside_has(&self, u: u32, i: u32) -> bool {
        self.outside_finite(u).binary_search(&i).is_ok()
    }
    fn outside_blocking(&self, u: u32, i: u32) -> u32 {
        let u = u as usize;
        let mut bad = 0;
        for &v in &self.e.ext_inf[self.e.inf_start[u] as usize..self.e.inf_start[u + 1] as usize] {
            if let Outside::Infinite(a) = self.view.outside(v) {
                bad += a.binary_search(&i).is_err() as u32;
            }
        }
        bad
    }
    fn outside_finite(&self, u: u32) -> &[u32] {
        let u = u as usize;
        &self.e.ext_finite[self.e.ext_start[u] as usize..self.e.ext_start[u + 1] as usize]
    }
}

/// mex of a sorted list of distinct values.
pub fn mex_sorted(values: &[u32]) -> u32 {
    let mut m = 0;
    for &v in values {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

/// γ of every vertex of an explicit graph, with its counter and A-sets.
#[derive(Clone, Debug, Default)]
pub struct Gamma {
    pub label: Vec<u32>,
    pub counter: Vec<u32>,
    a_start: Vec<u32>,
    a_len: Vec<u32>,
    a_pool: Vec<u32>,
}

impl Gamma {
    /// A of an ∞ vertex (empty for finite ones).
    pub fn a(&self, u: u32) -> &[u32] {
        let s = self.a_start[u as usize] as usize;
        &self.a_pool[s..s + self.a_len[u as usize] as usize]
    }
}

struct GammaView<'a> {
    g: &'a loony_graph::Csr,
    gamma: &'a Gamma,
}

impl LoopyView for GammaView<'_> {
    fn options(&self, u: u32) -> &[u32] {
        self.g.options(u)
    }
    fn outside(&self, v: u32) -> Outside<'_> {
        match self.gamma.label[v as usize] {
            INF => Outside::Infinite(self.gamma.a(v)),
            k => Outside::Finite(k),
        }
    }
}

/// Labels a whole explicit graph (components sinks first). `poll` returning `true` stops it.
pub fn gamma(g: &loony_graph::Csr, poll: &mut dyn FnMut() -> bool) -> Option<Gamma> {
    let n = g.len();
    let sccs = loony_graph::sccs(g, poll)?;
    let mut out = Gamma {
        label: vec![INF; n],
        counter: vec![0; n],
        a_start: vec![0; n],
        a_len: vec![0; n],
        a_pool: Vec::new(),
    };
    let mut lab = Labeller::counting();
    for c in 0..sccs.count() {
        let members = sccs.component(c);
        let view = GammaView { g, gamma: &out };
        if !lab.label(&view, members, poll) {
            return None;
        }
        for (k, &u) in members.iter().enumerate() {
            let r = lab.result(k);
            let u = u as usize;
            out.label[u] = r.label;
            out.counter[u] = r.counter.expect("a counting labeller");
            if r.label == INF {
                out.a_start[u] = out.a_pool.len() as u32;
                out.a_len[u] = r.a.1;
                out.a_pool.extend_from_slice(lab.set(r.a));
            }
        }
    }
    Some(out)
}
