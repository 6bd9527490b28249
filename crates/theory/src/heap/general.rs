//! The general kernel: nim-sequences of every code the language accepts (periodic digits,
//! digits that add tokens, moves that leave any number of heaps under any constraint).
//!
//! A move removes `j` tokens from heap `n` and leaves `r` heaps summing to `s = n − j`. Its
//! values, over all allowed splits, form a *split set*: the xors `g(a₁) ^ … ^ g(a_r)`. For each
//! (constraint, count) the code uses, a table holds the split set of every `s`, built as a
//! knapsack over part sizes: when heap `M`'s value is known, every partition gains the ways to
//! add parts of size `M` (any number of them for free splits, at most one for `!`). Counts are
//! capped at the table's count (a `+` tail saturates there), and `?` keeps the partitions with
//! two or more part sizes apart from the pure ones (all parts equal), which is also the whole
//! table for `=`. Sets are bit sets, moved by `xor g(M)` a word at a time.
//!
//! Periodic digits reach every smaller heap: for each residue of the heap modulo the period
//! the union of the split sets they reach only grows, so it is kept, extended by `p` sizes
//! per heap, with the least value it misses.

use super::code::{Code, Constraint};
use super::kernel::{Marks, xor_bit_positions};
use super::{Control, Values};

const HEAPS_PER_POLL: usize = 1024;
const WORK_PER_POLL: u64 = 1 << 22;

/// `dst |= src ^ v`, `src` and `dst` of the same power-of-two number of words above `v`.
fn or_shifted(dst: &mut [u64], src: &[u64], v: u32) {
    let (hi, lo) = ((v / 64) as usize, v % 64);
    for (w, &word) in src.iter().enumerate() {
        if word != 0 {
            dst[w ^ hi] |= xor_bit_positions(word, lo);
        }
    }
}

/// The split sets of one (constraint, count) for every sum `t <= cap`.
struct Table {
    constraint: Constraint,
    /// Exact count, or the first count of a `+` tail.
    count: usize,
    tail: bool,
    cap: usize,
    words: usize,
    /// Free and `!`: partitions by count; `?`: those with two or more part sizes.
    mixed: Vec<u64>,
    /// `?` and `=`: partitions whose parts are all equal.
    pure: Vec<u64>,
    scratch: Vec<u64>,
}

impl Table {
    fn new(constraint: Constraint, count: usize, tail: bool) -> Table {
        Table {
            constraint,
            count,
            tail,
            cap: 0,
            words: 0,
            mixed: Vec::new(),
            pure: Vec::new(),
            scratch: Vec::new(),
        }
    }

    fn at(&self, count: usize, t: usize) -> usize {
        (count * (self.cap + 1) + t) * self.words
    }

    /// Starts over for sums up to `cap` and values below `64 * words`, then adds the heaps
    /// `1..values.len()`.
    fn rebuild(&mut self, values: &[u32], cap: usize, words: usize) -> u64 {
        self.cap = cap;
        self.words = words;
        let size = (self.count + 1) * (cap + 1) * words;
        self.mixed.clear();
        self.pure.clear();
        self.scratch = vec![0; words];
        match self.constraint {
            Constraint::Free | Constraint::Distinct => {
                self.mixed.resize(size, 0);
                self.mixed[0] = 1; // the empty partition of 0, xor 0
            }
            Constraint::NotAllEqual => {
                self.mixed.resize(size, 0);
                self.pure.resize(size, 0);
            }
            Constraint::AllEqual => self.pure.resize(size, 0),
        }
        let mut work = 0;
        for (m, &v) in values.iter().enumerate().skip(1) {
            work += self.add(m, v);
        }
        work
    }

    /// The split set of `t` (all partitions into the table's count, parts added so far).
    fn get(&self, t: usize) -> &[u64] {
        let i = self.at(self.count, t);
        let layer = match self.constraint {
            Constraint::AllEqual => &self.pure,
            _ => &self.mixed,
        };
        &layer[i..i + self.words]
    }

    /// Adds part size `m` of value `v`; returns the work done.
    fn add(&mut self, m: usize, v: u32) -> u64 {
        if m > self.cap {
            return 0;
        }
        let (r, w) = (self.count, self.words);
        let mut work = 0u64;
        // (from, to) count pairs: one more part of size m.
        let steps: Vec<(usize, usize)> = (1..=r)
            .map(|c| (c - 1, c))
            .chain(self.tail.then_some((r, r)))
            .collect();
        match self.constraint {
            Constraint::Free | Constraint::Distinct => {
                let sums: Vec<usize> = if self.constraint == Constraint::Free {
                    (m..=self.cap).collect() // ascending: copies of m may repeat
                } else {
                    (m..=self.cap).rev().collect() // descending: at most one m
                };
                for t in sums {
                    for &(from, to) in &steps {
                        let src = self.at(from, t - m);
                        if self.mixed[src..src + w].iter().all(|&x| x == 0) {
                            continue;
                        }
                        self.scratch.copy_from_slice(&self.mixed[src..src + w]);
                        let dst = self.at(to, t);
                        or_shifted(&mut self.mixed[dst..dst + w], &self.scratch, v);
                        work += w as u64;
                    }
                }
            }
            Constraint::NotAllEqual => {
                // A partition with two part sizes and a part m, less one m, is one with two
                // sizes, or a pure one of a size below m (pure is updated after).
                for t in m..=self.cap {
                    for &(from, to) in &steps {
                        if from == 0 {
                            continue;
                        }
                        let src = self.at(from, t - m);
                        for (s, (&a, &b)) in self.scratch.iter_mut().zip(
                            self.mixed[src..src + w]
                                .iter()
                                .zip(&self.pure[src..src + w]),
                        ) {
                            *s = a | b;
                        }
                        if self.scratch.iter().all(|&x| x == 0) {
                            continue;
                        }
                        let dst = self.at(to, t);
                        let scratch = std::mem::take(&mut self.scratch);
                        or_shifted(&mut self.mixed[dst..dst + w], &scratch, v);
                        self.scratch = scratch;
                        work += w as u64;
                    }
                }
            }
            Constraint::AllEqual => {}
        }
        if matches!(
            self.constraint,
            Constraint::NotAllEqual | Constraint::AllEqual
        ) {
            // c parts of size m: xor g(m) for odd c, 0 for even.
            for c in 1..=self.cap / m {
                let state = if c <= r {
                    c
                } else if self.tail {
                    r
                } else {
                    break;
                };
                let x = if c % 2 == 1 { v } else { 0 } as usize;
                let i = self.at(state, c * m) + x / 64;
                self.pure[i] |= 1 << (x % 64);
                work += 1;
            }
        }
        work
    }
}

/// What one digit allows, compiled: leave nothing, one heap, or the split sets of tables.
#[derive(Clone, Debug, Default)]
struct Plan {
    zero: bool,
    one: bool,
    tables: Vec<usize>,
}

pub(super) struct General {
    values: Vec<u32>,
    max_value: u32,
    marks: Marks,
    tables: Vec<Table>,
    /// `(j, plan)` for the digits enumerated one by one (all, without a period).
    explicit: Vec<(isize, Plan)>,
    added: usize,
    /// Periodic digits from `first` on: the plan of residue `i` (digit `pre + i`).
    periodic: Vec<Plan>,
    first: usize,
    pre: usize,
    /// Per residue of `n` modulo the period: the union of what periodic digits reach, the
    /// largest sum added to it, and its first holes.
    unions: Vec<Vec<u64>>,
    union_upto: Vec<usize>,
    holes: Vec<Holes>,
}

/// The first values missing from a growing union: every hole below `scanned` that is still
/// a hole is in `list`. A mex over the union and a few other values needs only the first
/// few holes, so the scan moves on only when they are all taken.
#[derive(Clone, Default)]
struct Holes {
    list: Vec<u32>,
    scanned: u32,
}

fn has(bits: &[u64], v: u32) -> bool {
    bits.get(v as usize / 64)
        .is_some_and(|w| w >> (v % 64) & 1 != 0)
}

impl Holes {
    /// The least value in neither `union` nor `marks`.
    fn mex(&mut self, union: &[u64], marks: &Marks) -> u32 {
        self.list.retain(|&h| !has(union, h));
        if let Some(&h) = self.list.iter().find(|&&h| !marks.contains(h)) {
            return h;
        }
        loop {
            let v = self.scanned;
            let w = v as usize / 64;
            let word = union.get(w).copied().unwrap_or(0) | ((1u64 << (v % 64)) - 1);
            if word == u64::MAX {
                self.scanned = (w as u32 + 1) * 64;
                continue;
            }
            let h = w as u32 * 64 + (!word).trailing_zeros();
            self.scanned = h + 1;
            self.list.push(h);
            if !marks.contains(h) {
                return h;
            }
        }
    }
}

impl General {
    pub fn new(code: &Code) -> General {
        let mut tables: Vec<Table> = Vec::new();
        let mut plan = |j: isize| {
            let digit = code.digit(j);
            let mut plan = Plan {
                zero: digit.allows(0).is_some(),
                one: digit.allows(1).is_some(),
                tables: Vec::new(),
            };
            let listed = digit.counts_len();
            let tail_from = digit.more().then(|| (listed - 1).max(2));
            let exact_to = tail_from.unwrap_or(listed);
            let mut wanted: Vec<(Constraint, usize, bool)> = (2..exact_to)
                .filter_map(|r| digit.allows(r).map(|c| (c, r, false)))
                .collect();
            if let Some(r) = tail_from {
                wanted.push((digit.allows(r).expect("a tail is allowed"), r, true));
            }
            for (c, r, tail) in wanted {
                let index = tables
                    .iter()
                    .position(|t| (t.constraint, t.count, t.tail) == (c, r, tail))
                    .unwrap_or_else(|| {
                        tables.push(Table::new(c, r, tail));
                        tables.len() - 1
                    });
                plan.tables.push(index);
            }
            plan
        };
        let added = code.additive_len();
        let period = code.period();
        let pre = code.preperiod();
        let first = if period > 0 { pre } else { code.digits().len() };
        let explicit: Vec<(isize, Plan)> = (-(added as isize)..first as isize)
            .map(|j| (j, plan(j)))
            .filter(|(_, p)| p.zero || p.one || !p.tables.is_empty())
            .collect();
        let periodic: Vec<Plan> = (0..period).map(|i| plan((pre + i) as isize)).collect();
        General {
            values: Vec::new(),
            max_value: 0,
            marks: Marks::default(),
            tables,
            explicit,
            added,
            unions: vec![Vec::new(); period],
            union_upto: vec![0; period],
            holes: vec![Holes::default(); period],
            periodic,
            first,
            pre,
        }
    }

    pub fn values(&self) -> &[u32] {
        &self.values
    }

    pub fn into_values(self) -> Vec<u32> {
        self.values
    }

    fn words(&self) -> usize {
        (self.max_value as usize + 1)
            .next_power_of_two()
            .div_ceil(64)
    }

    pub fn extend_to(&mut self, n_max: usize, ctl: &Control) -> Result<(), ()> {
        if ctl.cancelled() {
            return Err(());
        }
        let cap = n_max + self.added;
        if let Some(t) = self.tables.first()
            && t.cap < cap
        {
            let cap = cap.next_power_of_two().max(64);
            let words = self.words();
            for t in &mut self.tables {
                t.rebuild(&self.values, cap, words);
            }
        }
        let total = n_max.saturating_add(1);
        let (mut work, mut since) = (0u64, 0usize);
        while self.values.len() < total {
            let n = self.values.len();
            let v = self.value(n, &mut work);
            self.values.push(v);
            self.max_value = self.max_value.max(v);
            let words = self.words();
            for t in &mut self.tables {
                if t.words != words {
                    let cap = t.cap;
                    work += t.rebuild(&self.values, cap, words);
                } else if n > 0 {
                    work += t.add(n, v);
                }
            }
            since += 1;
            if since >= HEAPS_PER_POLL || work >= WORK_PER_POLL {
                if ctl.cancelled() {
                    return Err(());
                }
                ctl.report(n + 1, total);
                if !ctl.emit(Values::U32(&self.values)) {
                    return Err(());
                }
                since = 0;
                work = 0;
            }
        }
        ctl.report(self.values.len(), total);
        if !ctl.emit(Values::U32(&self.values)) {
            return Err(());
        }
        Ok(())
    }

    fn value(&mut self, n: usize, work: &mut u64) -> u32 {
        let g = &self.values;
        let bound = (self.max_value as usize + 1).next_power_of_two().max(64);
        self.marks.clear(bound);
        let marks = &mut self.marks;
        let tables = &self.tables;
        let mark_plan = |marks: &mut Marks, plan: &Plan, s: usize| {
            if plan.zero && s == 0 {
                marks.insert(0);
            }
            if plan.one && s >= 1 && s < n {
                marks.insert(g[s]);
            }
            if s >= 2 {
                for &t in &plan.tables {
                    for (w, &word) in tables[t].get(s).iter().enumerate() {
                        let mut bits = word;
                        while bits != 0 {
                            marks.insert(w as u32 * 64 + bits.trailing_zeros());
                            bits &= bits - 1;
                        }
                    }
                }
            }
        };
        for (j, plan) in &self.explicit {
            let s = n as isize - j;
            if s < 0 {
                break;
            }
            mark_plan(marks, plan, s as usize);
            *work += 1 + plan.tables.len() as u64;
        }
        let p = self.periodic.len();
        if p == 0 {
            return marks.mex_from(0);
        }
        if n >= self.first {
            // Removing all n tokens (leaving no heap) under a periodic digit.
            let last = &self.periodic[(n - self.pre) % p];
            mark_plan(marks, last, 0);
        }
        // Sums 1..=n - first reached by the periodic digits, kept per residue of n.
        let k = n % p;
        let union = &mut self.unions[k];
        if union.len() < bound / 64 {
            union.resize(bound / 64, 0);
        }
        let upto = n.saturating_sub(self.first);
        let from = self.union_upto[k] + 1;
        for (s, &value) in g.iter().enumerate().take(upto + 1).skip(from) {
            let plan = &self.periodic[(n - s - self.pre) % p];
            if plan.one {
                let x = value as usize;
                union[x / 64] |= 1 << (x % 64);
            }
            if s >= 2 {
                for &t in &plan.tables {
                    for (u, &x) in union.iter_mut().zip(tables[t].get(s)) {
                        *u |= x;
                    }
                }
            }
            *work += 1 + plan.tables.len() as u64;
        }
        self.union_upto[k] = self.union_upto[k].max(upto);
        self.holes[k].mex(union, marks)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Code, Control, HeapRules};
    use super::*;

    /// The definition: mex over the xor of every option's heaps, options listed one by one.
    fn naive(rules: &HeapRules, n_max: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::new();
        let mut options = Vec::new();
        for n in 0..=n_max {
            rules.options(n, &mut options);
            let mut seen = vec![false; options.len() + 1];
            for option in &options {
                let v = option.iter().fold(0, |acc, &h| acc ^ g[h]) as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
            }
            g.push(seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32);
        }
        g
    }

    fn general(code: &Code, n_max: usize) -> Vec<u32> {
        let mut solver = General::new(code);
        solver.extend_to(n_max, &Control::default()).unwrap();
        solver.into_values()
    }

    fn code(text: &str) -> Code {
        Code::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// Nim-sequences of heaps 0..=20 from CGSuite's GameHeapTest.scala.
    #[test]
    fn cgsuite_nim_sequences() {
        let table: [(&str, [u32; 21]); 5] = [
            ("0.[3]", std::array::from_fn(|n| n as u32)),
            (
                "0.0330003",
                [
                    0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0,
                ],
            ),
            (
                "0.3003330[3]",
                [
                    0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9, 8, 9, 10,
                ],
            ),
            (
                "0.3F",
                [
                    0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7, 8, 6, 7, 8, 9, 10, 11,
                ],
            ),
            (
                "4!.0",
                [
                    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0,
                ],
            ),
        ];
        for (text, expected) in table {
            let c = code(text);
            assert_eq!(general(&c, 20), expected, "{text} (general kernel)");
            let rules = HeapRules::from(c);
            assert_eq!(
                rules.nim_sequence(20, &Control::default()).unwrap(),
                expected,
                "{text}"
            );
        }
        let all_but = HeapRules::all_but([2, 3, 7]);
        assert_eq!(
            all_but.nim_sequence(20, &Control::default()).unwrap(),
            [
                0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9, 8, 9, 10
            ]
        );
    }

    /// The general kernel against the fast kernels on hexadecimal codes (two independent
    /// methods), long enough for values past 64.
    #[test]
    fn agrees_with_the_fast_kernels() {
        for text in [
            "0.07", "0.77", "4.7", "0.6", "4!.0", "0.8", "0.F", "0.3F!", "0.3F?", "4=.7", "0.C?",
            "0.2F", "8.F",
        ] {
            let c = code(text);
            let fast = HeapRules::from(c.clone())
                .nim_sequence(400, &Control::default())
                .unwrap();
            assert_eq!(general(&c, 400), fast, "{text}");
        }
    }

    /// xorshift64*: deterministic randomness without a dependency.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
        }
    }

    /// A random digit of any form the language has.
    fn random_digit(rng: &mut Rng, min_count: usize) -> String {
        let suffix = ["", "", "!", "?", "="][rng.below(5) as usize];
        match rng.below(5) {
            0 => "*".to_string() + suffix,
            1 => {
                let mut counts: Vec<usize> = (0..1 + rng.below(3))
                    .map(|_| min_count + rng.below(5) as usize)
                    .collect();
                counts.sort_unstable();
                counts.dedup();
                let items: Vec<String> = counts
                    .iter()
                    .map(|r| format!("{r}{}", ["", "!", "?", "="][rng.below(4) as usize]))
                    .collect();
                let plus = if rng.below(2) == 0 { "+" } else { "" };
                format!("{{{}{plus}}}", items.join(","))
            }
            2 => format!("&{};{suffix}", rng.below(64) << min_count),
            _ => {
                let mask = rng.below(32) << min_count;
                if mask < 32 {
                    format!(
                        "{}{suffix}",
                        &"0123456789ABCDEFGHIJKLMNOPQRSTUV"[mask as usize..][..1]
                    )
                } else {
                    format!("&{mask};{suffix}")
                }
            }
        }
    }

    #[test]
    fn random_codes_of_every_form_match_naive() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut tried = 0;
        while tried < 150 {
            let mut text = String::new();
            if rng.below(4) == 0 {
                text.push_str(&random_digit(&mut rng, 3)); // digit -1: three heaps or more
            }
            text.push_str(&random_digit(&mut rng, 2));
            text.push('.');
            for _ in 0..rng.below(3) {
                text.push_str(&random_digit(&mut rng, 0));
            }
            if rng.below(2) == 0 {
                text.push('[');
                for _ in 0..1 + rng.below(2) {
                    text.push_str(&random_digit(&mut rng, 0));
                }
                text.push(']');
            }
            // Malformed combinations (a constraint both inside and after braces) are skipped.
            let Ok(c) = Code::parse(&text) else { continue };
            tried += 1;
            let rules = HeapRules::from(c.clone());
            let n = 26;
            assert_eq!(general(&c, n), naive(&rules, n), "{text} = {c}");
            assert_eq!(
                rules.nim_sequence(n, &Control::default()).unwrap(),
                naive(&rules, n),
                "{text}"
            );
        }
    }

    /// Periodic and many-heap codes far enough for the unions and tables to grow.
    #[test]
    #[ignore = "slow tier (9 s in a test build): .ci/run runs it; cargo test -- --ignored"]
    fn longer_runs_match_naive() {
        for text in [
            "0.[3]", "0.[7]", "0.3[37]", "0.{1,4+}", "80.3", "{3+}.0", "0.*=", "0.1[F?]",
        ] {
            let c = code(text);
            let rules = HeapRules::from(c.clone());
            assert_eq!(general(&c, 70), naive(&rules, 70), "{text}");
        }
        // Nim is nim: a long run through the periodic unions alone.
        let nim = general(&code("0.[3]"), 100_000);
        assert!(nim.iter().enumerate().all(|(n, &v)| v as usize == n));
    }

    #[test]
    fn cancel_keeps_the_values_so_far() {
        let flag = std::sync::atomic::AtomicBool::new(false);
        let stop = |done: usize, _: usize| {
            if done > 2000 {
                flag.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        };
        let ctl = Control::default().with_cancel(&flag).with_progress(&stop);
        let mut solver = General::new(&code("0.[3]"));
        assert!(solver.extend_to(1_000_000, &ctl).is_err());
        let values = solver.into_values();
        assert!(values.len() > 2000 && values.len() < 1_000_000);
    }
}
