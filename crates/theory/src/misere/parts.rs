//! Parts and partitions (§4.4–4.6). `H` is a part of `G` when `G = H + X` for some `X`; the
//! 2-partition list `TP(E)` of an even game holds every such pair `(X, H)` flat, and
//! `misere_minus`, `parts`, primality and partitions all read it. `TP(E)` is Siegel's algorithm
//! as CGSuite runs it (its order of trials decides which partner is listed first), built from
//! the lists of `E`'s options' even parts, so lists are computed bottom-up on an explicit stack.

use super::canonical::{Mid, MisereStore};
use super::{MisereError, Result};
use std::rc::Rc;

#[derive(Default)]
pub struct PartsCache {
    /// `TP(E)` per pair, filled on demand.
    tp: Vec<Option<Rc<[Mid]>>>,
}

/// The partner of the first occurrence of `v` in a flat pair list.
fn comp(list: &[Mid], v: Mid) -> Option<Mid> {
    list.iter().position(|&x| x == v).map(|p| list[p ^ 1])
}

/// `c ⊕p o`: `c + *` when `o` is odd and `c` even (CGSuite's parity correction).
fn adjust(c: Mid, o: Mid) -> Mid {
    c.star_if(o.is_odd() && !c.is_odd())
}

impl MisereStore {
    fn tp_known(&self, e: Mid) -> Option<Rc<[Mid]>> {
        self.parts.tp.get(e.pair()).and_then(|x| x.clone())
    }

    /// The 2-partition list `TP(E(g))`: `[0, E, x1, y1, x2, y2, …]` with every `xi + yi = E`.
    pub fn two_partitions(&mut self, g: Mid) -> Result<Rc<[Mid]>> {
        let root = g.even_part();
        if let Some(l) = self.tp_known(root) {
            return Ok(l);
        }
        let mut stack = vec![root];
        while let Some(&e) = stack.last() {
            self.poll()?;
            if self.tp_known(e).is_some() {
                stack.pop();
                continue;
            }
            let missing: Vec<Mid> = self
                .options(e)
                .iter()
                .map(|o| o.even_part())
                .filter(|&o| self.tp_known(o).is_none())
                .collect();
            if !missing.is_empty() {
                stack.extend(missing);
                continue;
            }
            let l: Rc<[Mid]> = self.compute_tp(e)?.into();
            if self.parts.tp.len() <= e.pair() {
                self.parts.tp.resize(e.pair() + 1, None);
            }
            self.parts.tp[e.pair()] = Some(l);
            stack.pop();
        }
        Ok(self.tp_known(root).expect("computed"))
    }

    fn compute_tp(&mut self, e: Mid) -> Result<Vec<Mid>> {
        let mut l = vec![Mid::ZERO, e];
        let opts: Vec<Mid> = self.options(e).to_vec();
        if opts.iter().any(|&o| o == Mid::ZERO || o == Mid::STAR) {
            return Ok(l);
        }
        let q: Vec<Rc<[Mid]>> = opts
            .iter()
            .map(|o| self.tp_known(o.even_part()).expect("options first"))
            .collect();
        let unsplit = opts
            .iter()
            .zip(&q)
            .filter(|(o, qi)| qi.len() == 2 && (!o.is_odd() || !self.has_option(e, o.even_part())))
            .count();
        if unsplit >= 3 {
            return Ok(l);
        }
        let mut c: Vec<Mid> = q.iter().flat_map(|qi| qi.iter().copied()).collect();
        c.sort_unstable();
        c.dedup();
        c.sort_by(|&a, &b| self.cmp_canonical(a, b));
        let mut y = Vec::new();
        let mut cand = Vec::new();
        loop {
            let mut added = false;
            for &x in &c {
                self.poll()?;
                if l.contains(&x) {
                    continue;
                }
                y.clear();
                cand.clear();
                let x_opts: Vec<Mid> = self.options(x).to_vec();
                let mut failed = false;
                // Type-1 test, phase A: the options of x pair up inside E's list.
                for &a in &x_opts {
                    match comp(&l, a.even_part()) {
                        Some(k) => y.push(adjust(k, a)),
                        None => {
                            failed = true;
                            cand.extend(q.iter().filter_map(|qi| comp(qi, a.even_part())));
                            break;
                        }
                    }
                }
                // Phase B: x pairs up inside every option's list.
                if !failed {
                    for (qi, &o) in q.iter().zip(&opts) {
                        match comp(qi, x) {
                            Some(k) => y.push(adjust(k, o)),
                            None => {
                                failed = true;
                                cand.extend(x_opts.iter().filter_map(|a| comp(qi, a.even_part())));
                                break;
                            }
                        }
                    }
                }
                if !failed {
                    let partner = self.construct(&y);
                    l.push(x);
                    l.push(partner);
                    added = true;
                    continue;
                }
                // Type-2 test: a candidate partner taken from the options' lists.
                for &yc in &cand {
                    if self.type2(&l, &q, &opts, x, yc) {
                        l.push(x);
                        l.push(yc);
                        added = true;
                        break;
                    }
                }
            }
            if !added {
                return Ok(l);
            }
        }
    }

    fn type2(&self, l: &[Mid], q: &[Rc<[Mid]>], opts: &[Mid], x: Mid, y: Mid) -> bool {
        let within = |c: Option<Mid>, o: Mid, holder: Mid| {
            c.is_some_and(|c| self.has_option(holder, adjust(c, o)))
        };
        // (i)
        for (qi, &o) in q.iter().zip(opts) {
            if !(within(comp(qi, x), o, y) || within(comp(qi, y), o, x)) {
                return false;
            }
        }
        let partner_is = |list_of: Mid, target: Mid| {
            q.iter()
                .zip(opts)
                .any(|(qk, &ok)| comp(qk, list_of).map(|c| adjust(c, ok)) == Some(target))
        };
        // (ii)
        for &a in self.options(x) {
            if !(within(comp(l, a.even_part()), a, y) || partner_is(y, a)) {
                return false;
            }
        }
        // (iii)
        for &b in self.options(y) {
            let same_even = comp(l, b.even_part()).is_some_and(|c| {
                self.options(x)
                    .iter()
                    .any(|a| a.even_part() == c.even_part())
            });
            if !(same_even || partner_is(x, b)) {
                return false;
            }
        }
        true
    }

    /// `misere_minus(g, h)`: the `x` with `x + h = g` (§4.6), if `h` is a part of `g`.
    pub fn misere_minus(&mut self, g: Mid, h: Mid) -> Result<Mid> {
        let l = self.two_partitions(g)?;
        match comp(&l, h.even_part()) {
            Some(c) => Ok(c.star_if(g.is_odd() != h.is_odd())),
            None => Err(MisereError::NotSubtractable(g, h)),
        }
    }

    /// The proper parts of `g` (CGSuite's `Parts`).
    pub fn parts(&mut self, g: Mid) -> Result<Vec<Mid>> {
        let l = self.two_partitions(g)?;
        let mut out = Vec::new();
        for pair in l[2..].chunks(2) {
            out.push(pair[0]);
            if pair[1] != pair[0] {
                out.push(pair[1]);
            }
        }
        Ok(out)
    }

    /// Whether `g` has no proper parts (and is not 0 or `*`).
    pub fn is_prime(&mut self, g: Mid) -> Result<bool> {
        if g.even_part() == Mid::ZERO {
            return Ok(false);
        }
        Ok(self.two_partitions(g)?.len() == 2)
    }

    /// The prime parts of `g`, in the order of its 2-partition list (the pair `(0, E)` first).
    fn prime_parts(&mut self, g: Mid) -> Result<Vec<Mid>> {
        let l = self.two_partitions(g)?;
        let mut out = Vec::new();
        for pair in l.chunks(2) {
            for (i, &p) in pair.iter().enumerate() {
                if (i == 0 || pair[1] != pair[0]) && self.is_prime(p)? {
                    out.push(p);
                }
            }
        }
        Ok(out)
    }

    /// Every way to write `g` as a sum of primes (CGSuite's `Partitions`): each partition lists
    /// its primes in canonical order, and `*[1]` ends it when the primes sum to `g + *`.
    pub fn partitions(&mut self, g: Mid) -> Result<Vec<Vec<Mid>>> {
        let mut out = Vec::new();
        // Depth-first, in the order CGSuite's recursion emits them.
        let mut stack: Vec<(Mid, Vec<Mid>)> = vec![(g, Vec::new())];
        while let Some((h, acc)) = stack.pop() {
            self.poll()?;
            if h.even_part() == Mid::ZERO {
                let mut p = acc;
                if h == Mid::STAR {
                    p.push(Mid::STAR);
                }
                out.push(p);
                continue;
            }
            let mut next = Vec::new();
            for p in self.prime_parts(h)? {
                let fits = acc
                    .last()
                    .is_none_or(|&last| self.cmp_canonical(last, p).is_le());
                if fits {
                    let rest = self.misere_minus(h, p)?;
                    let mut a = acc.clone();
                    a.push(p);
                    next.push((rest, a));
                }
            }
            stack.extend(next.into_iter().rev());
        }
        Ok(out)
    }

    /// `g` is extraverted when `{g} − g` exists: every option of `g` is a part of `g`.
    pub fn is_extraverted(&mut self, g: Mid) -> Result<bool> {
        let up = self.construct(&[g]);
        match self.misere_minus(up, g) {
            Ok(_) => Ok(true),
            Err(MisereError::NotSubtractable(..)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// `g` is introverted when it is a part of each of its options: only 0 and `*`.
    pub fn is_introverted(&self, g: Mid) -> bool {
        g.even_part() == Mid::ZERO
    }
}
