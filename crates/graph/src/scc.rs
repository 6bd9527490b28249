//! Strongly connected components (Tarjan's algorithm with an explicit stack).
//!
//! Components come out sinks first (reverse topological order): when a component is reported,
//! every component it reaches has been reported before it. That is the order in which values
//! are computed, so the engines walk the list front to back.

use super::Digraph;

/// The strongly connected components of a graph, sinks first.
#[derive(Clone, Debug, Default)]
pub struct Sccs {
    /// Members of component `c` are `members[start[c]..start[c + 1]]`.
    pub members: Vec<u32>,
    pub start: Vec<u32>,
    /// The component of each node.
    pub comp: Vec<u32>,
}

impl Sccs {
    pub fn count(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    pub fn component(&self, c: usize) -> &[u32] {
        &self.members[self.start[c] as usize..self.start[c + 1] as usize]
    }
}

const UNSEEN: u32 = u32::MAX;

/// A hint that `x` will be read soon (no effect where the platform has no such hint).
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing; `x` is a valid reference anyway.
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Tarjan's algorithm over every node of `g`. `poll` is called every few thousand steps; when
/// it returns `true` the search stops and `None` is returned.
pub fn sccs<G: Digraph + ?Sized>(g: &G, poll: &mut dyn FnMut() -> bool) -> Option<Sccs> {
    let n = g.node_count();
    let mut out = Sccs {
        members: Vec::with_capacity(n),
        start: vec![0],
        comp: vec![UNSEEN; n],
    };
    let done = each_component(g, poll, &mut |members| {
        let c = out.count() as u32;
        for &w in members {
            out.comp[w as usize] = c;
        }
        out.members.extend_from_slice(members);
        out.start.push(out.members.len() as u32);
        true
    });
    done.then_some(out)
}

/// Tarjan's algorithm over every node of `g`, handing each component to `visit` as soon as it
/// is complete (sinks first), without keeping the components: an analysis that values each
/// component at once needs no table of them. `false` from `visit`, or `true` from `poll`
/// (called every few thousand steps), stops the search; the answer is whether it ran to the
/// end.
pub fn each_component<G: Digraph + ?Sized>(
    g: &G,
    poll: &mut dyn FnMut() -> bool,
    visit: &mut dyn FnMut(&[u32]) -> bool,
) -> bool {
    let n = g.node_count();
    // Index and lowlink side by side (one cache line per visit of a random node); a node that
    // has its component is marked by the top bit of its lowlink, so "on the stack" is "seen and
    // not yet done".
    const DONE: u32 = 1 << 31;
    let mut st: Vec<[u32; 2]> = vec![[UNSEEN, 0]; n];
    let mut stack: Vec<u32> = Vec::new();
    // Call stack: node, which successor list, position in it.
    let mut calls: Vec<(u32, u32, u32)> = Vec::new();
    let mut next = 0u32;
    let mut steps = 0u32;
    for root in 0..n as u32 {
        if st[root as usize][0] != UNSEEN {
            continue;
        }
        st[root as usize] = [next, next];
        next += 1;
        stack.push(root);
        calls.push((root, 0, 0));
        while let Some(top) = calls.last_mut() {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(1 << 16) && poll() {
                return false;
            }
            let u = top.0;
            let (a, b) = g.successors(u);
            let succ = if top.1 == 0 { a } else { b };
            if let Some(&v) = succ.get(top.2 as usize) {
                // The node a few edges on will be looked at soon: ask for its line now (the
                // search is bound by these random reads on large graphs).
                if let Some(&w) = succ.get(top.2 as usize + 4) {
                    prefetch(&st[w as usize]);
                }
                top.2 += 1;
                let sv = st[v as usize];
                if sv[0] == UNSEEN {
                    st[v as usize] = [next, next];
                    next += 1;
                    stack.push(v);
                    calls.push((v, 0, 0));
                } else if sv[1] & DONE == 0 {
                    let su = &mut st[u as usize];
                    su[1] = su[1].min(sv[0]);
                }
                continue;
            }
            if top.1 == 0 && !b.is_empty() {
                top.1 = 1;
                top.2 = 0;
                continue;
            }
            calls.pop();
            let su = st[u as usize];
            if let Some(&(p, _, _)) = calls.last() {
                let sp = &mut st[p as usize];
                sp[1] = sp[1].min(su[1]);
            }
            if su[1] == su[0] {
                // The component is the stack from u up, handed over in the order it is
                // popped (the top first).
                let at = stack
                    .iter()
                    .rposition(|&w| w == u)
                    .expect("u is on the stack");
                stack[at..].reverse();
                for &w in &stack[at..] {
                    st[w as usize][1] |= DONE;
                }
                if stack.len() - at > 1 << 16 {
                    // A large component is labelled with tables of its own, while the search
                    // is at its shallowest: give back the deep search's call stack first.
                    calls.shrink_to_fit();
                }
                if !visit(&stack[at..]) {
                    return false;
                }
                stack.truncate(at);
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Csr;

    #[test]
    fn components_come_sinks_first() {
        // 0 → 1 ⇄ 2 → 3, 3 → 3, 4 alone.
        let g = Csr::from_lists(&[vec![1], vec![2], vec![1, 3], vec![3], vec![]]);
        let s = sccs(&g, &mut || false).expect("not interrupted");
        assert_eq!(s.count(), 4);
        let order: Vec<Vec<u32>> = (0..s.count())
            .map(|c| {
                let mut m = s.component(c).to_vec();
                m.sort();
                m
            })
            .collect();
        let pos = |x: u32| order.iter().position(|m| m.contains(&x)).expect("placed");
        assert!(pos(3) < pos(1) && pos(1) < pos(0));
        assert_eq!(s.comp[1], s.comp[2]);
        assert_ne!(s.comp[0], s.comp[1]);
    }

    #[test]
    fn a_long_chain_does_not_overflow() {
        let n = 1_000_000;
        let lists: Vec<Vec<u32>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![0] })
            .collect();
        let g = Csr::from_lists(&lists);
        let s = sccs(&g, &mut || false).expect("not interrupted");
        assert_eq!(s.count(), 1);
    }
}
