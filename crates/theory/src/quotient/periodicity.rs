//! When a partial quotient is the whole quotient: the periodicity theorem for misère quotients
//! [PS08; digest §5.4].
//!
//! Suppose Q_N is computed and Φ(H_n) = Φ(H_{n+p}) for n0 ≤ n ≤ N − p (heap 0 counted,
//! Φ(H_0) = 1). If every heap M > N has the same option values as H_{M−p}, then (Φ(H_M),
//! Φ''(H_M)) repeats a pair already in the transition algebra, so Q_M = Q_N and Φ(H_M) =
//! Φ(H_{M−p}); by induction the solution is final. For a code removing at most d tokens and
//! leaving at most k heaps, map a move of H_M leaving parts with largest part c to the same
//! move of H_{M−p} with c − p (and back). This needs c − p ≥ max(n0, 1) for the smallest
//! possible largest part c = ⌈(M − d)/k⌉, i.e. M ≥ k·(max(n0,1) + p) + d − k + 1, so
//! `N ≥ k·max(n0, 1) + k·p + d − k` (max(n0, 1): a part of size 0 would be a different move).
//! Loony also waits for CGSuite's criterion `2·n0 + 2·p + d + 2 ≤ N + 1`, so that
//! `certified_at` matches the published figures (Kayles: heap 169); for octal codes (k ≤ 2)
//! it is the larger of the two. For all-but games (remove any number except those in E, e =
//! max E) the options of H_M are all heaps below M − e plus a window of e heaps, which repeat
//! once `N ≥ n0 + 2p + e − 1`.

use super::game::Certificate;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

/// A period of the pretending function: Φ(H_n) = Φ(H_{n+period}) for all n ≥ preperiod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    pub period: usize,
    pub preperiod: usize,
}

/// The least n0 with Φ(n) = Φ(n+p) for n0 ≤ n ≤ N − p.
fn preperiod(phi: &[u32], p: usize) -> usize {
    let n = phi.len() - 1;
    let mut n0 = n + 1 - p;
    while n0 > 0 && phi[n0 - 1] == phi[n0 - 1 + p] {
        n0 -= 1;
    }
    n0
}

/// The heap from which Φ (given for heaps 0..=N) with this period is proved final.
pub fn certified_from(cert: Certificate, period: Period) -> usize {
    let Period {
        period: p,
        preperiod: n0,
    } = period;
    match cert {
        Certificate::Octal { d, k } => {
            let proof = (k * (n0.max(1) + p) + d).saturating_sub(k);
            let cgsuite = 2 * n0 + 2 * p + d + 1;
            proof.max(cgsuite)
        }
        Certificate::AllBut { e } => (n0 + 2 * p + e).saturating_sub(1),
    }
}

/// The least period whose certificate holds for Φ(H_0..H_N), with its preperiod: the
/// definition [`Watch`] computes heap by heap, and is tested against.
#[cfg(test)]
pub fn certify(phi: &[u32], cert: Certificate) -> Option<Period> {
    let n = phi.len() - 1;
    (1..=n / 2).find_map(|p| {
        let period = Period {
            period: p,
            preperiod: preperiod(phi, p),
        };
        (certified_from(cert, period) <= n).then_some(period)
    })
}

/// [`certify`] for a Φ that grows one heap at a time, in time near-linear in the heaps.
///
/// A period can only be certified at heap N if `certified_from(p, n0) ≤ N`, and that bound
/// grows with the preperiod n0. So each period waits in a queue until the first heap where its
/// certificate could hold with the preperiod last seen; only then are its new pairs read,
/// backwards from the newest heap, stopping at the first mismatch. A wrong period mismatches
/// near the end, which pushes its next look to about twice the heap: O(log N) short looks per
/// period. The last mismatch among the new pairs is found by binary search on rolling hashes
/// of Φ (equal stretches hash equally, so a collision can only make a run look longer); a
/// period is certified only after its run is compared value by value. Periods that hold are
/// checked on every new heap, and leave as soon as they break. A Φ whose earlier values
/// changed (the quotient was renamed) is read again from scratch.
pub struct Watch {
    cert: Certificate,
    phi: Vec<u32>,
    /// `hash[i]`: the rolling hash of Φ(H_0..H_{i−1}); `pow[i]` = BASE^i.
    hash: Vec<u64>,
    pow: Vec<u64>,
    /// `n0[p]`: the preperiod of period `p` as of heap `read[p]` (index 0 unused).
    n0: Vec<usize>,
    /// `read[p]`: the last heap whose pair `(N − p, N)` has been compared for `p`.
    read: Vec<usize>,
    /// Periods not yet certified, by the first heap where they could be.
    due: BinaryHeap<Reverse<(usize, usize)>>,
    /// Periods whose certificate holds at the current heap.
    holding: BTreeSet<usize>,
}

impl Watch {
    pub fn new(cert: Certificate) -> Watch {
        Watch {
            cert,
            phi: Vec::new(),
            hash: vec![0],
            pow: vec![1],
            n0: vec![0],
            read: vec![0],
            due: BinaryHeap::new(),
            holding: BTreeSet::new(),
        }
    }

    /// Takes Φ(H_0..H_N) (the previous Φ plus new heaps, or a new Φ altogether). Comparing
    /// the old heaps costs O(N); a caller that knows they are unchanged calls [`Self::extend`].
    pub fn update(&mut self, phi: &[u32]) {
        if phi.len() < self.phi.len() || phi[..self.phi.len()] != self.phi[..] {
            *self = Watch::new(self.cert);
        }
        self.extend(phi);
    }

    /// As [`Self::update`], for a Φ whose first heaps are the ones already given.
    pub fn extend(&mut self, phi: &[u32]) {
        debug_assert!(phi.len() >= self.phi.len());
        for &v in &phi[self.phi.len()..] {
            self.push(v);
        }
    }

    fn push(&mut self, v: u32) {
        let n = self.phi.len();
        self.phi.push(v);
        self.hash
            .push(mod_add(mod_mul(self.hash[n], BASE), u64::from(v) + 1));
        self.pow.push(mod_mul(self.pow[n], BASE));
        // Certified periods see every heap: the first mismatch sends them back to the queue.
        if self.holding.iter().any(|&p| self.phi[n] != self.phi[n - p]) {
            let broken: Vec<usize> = self
                .holding
                .iter()
                .copied()
                .filter(|&p| self.phi[n] != self.phi[n - p])
                .collect();
            for p in broken {
                self.holding.remove(&p);
                self.n0[p] = n + 1 - p;
                self.read[p] = n;
                let at = certified_from(self.cert, self.period(p));
                self.due.push(Reverse((at, p)));
            }
        }
        for &p in &self.holding {
            self.read[p] = n;
        }
        // Period p is possible from heap 2p on; it starts with preperiod 0 and nothing read.
        if n >= 2 && n.is_multiple_of(2) {
            let p = n / 2;
            self.n0.push(0);
            self.read.push(p - 1);
            let at = certified_from(self.cert, self.period(p));
            self.due.push(Reverse((at, p)));
        }
        while let Some(&Reverse((at, p))) = self.due.peek() {
            if at > n {
                break;
            }
            self.due.pop();
            // The pairs (m − p, m) not read yet: the newest mismatch among them moves n0.
            if let Some(m) = self.last_mismatch(p) {
                self.n0[p] = m + 1 - p;
            }
            self.read[p] = n;
            let mut at = certified_from(self.cert, self.period(p));
            if at <= n {
                // The hashes said the run holds: compare it value by value before it counts.
                let n0 = self.n0[p];
                if let Some(m) = (n0 + p..=n).rev().find(|&m| self.phi[m] != self.phi[m - p]) {
                    self.n0[p] = m + 1 - p;
                    at = certified_from(self.cert, self.period(p));
                }
            }
            if at <= n {
                self.holding.insert(p);
            } else {
                self.due.push(Reverse((at, p)));
            }
        }
    }

    /// The largest heap m in `read[p] + 1 ..= N` with Φ(m) ≠ Φ(m − p), as the hashes see it
    /// (a collision may miss a mismatch; the caller compares before certifying).
    fn last_mismatch(&self, p: usize) -> Option<usize> {
        let n = self.phi.len() - 1;
        let unread = n - self.read[p];
        // The longest stretch of pairs ending at N that match: lo always does, hi + 1 never.
        let matches = |len: usize| {
            self.stretch(n + 1 - len, n + 1) == self.stretch(n + 1 - len - p, n + 1 - p)
        };
        if matches(unread) {
            return None;
        }
        let (mut lo, mut hi) = (0, unread - 1);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if matches(mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Some(n - lo)
    }

    /// The hash of Φ(H_a..H_{b−1}).
    fn stretch(&self, a: usize, b: usize) -> u64 {
        mod_sub(self.hash[b], mod_mul(self.hash[a], self.pow[b - a]))
    }

    fn period(&self, p: usize) -> Period {
        Period {
            period: p,
            preperiod: self.n0[p],
        }
    }

    /// The least period whose certificate holds for the Φ last given, as [`certify`] says.
    pub fn certified(&self) -> Option<Period> {
        self.holding.first().map(|&p| self.period(p))
    }
}

/// Rolling hashes modulo the Mersenne prime 2^61 − 1.
const MODULUS: u64 = (1 << 61) - 1;
const BASE: u64 = 0x1f3d_5b79_a2c4_e68b % MODULUS;

fn mod_mul(a: u64, b: u64) -> u64 {
    let x = u128::from(a) * u128::from(b);
    let r = (x as u64 & MODULUS) + (x >> 61) as u64;
    if r >= MODULUS { r - MODULUS } else { r }
}

fn mod_add(a: u64, b: u64) -> u64 {
    let r = a + b;
    if r >= MODULUS { r - MODULUS } else { r }
}

fn mod_sub(a: u64, b: u64) -> u64 {
    if a >= b { a - b } else { a + MODULUS - b }
}

/// The least period seen at least twice in full after its preperiod (no proof).
pub fn apparent(phi: &[u32]) -> Option<Period> {
    let n = phi.len() - 1;
    (1..=n / 2).find_map(|p| {
        let n0 = preperiod(phi, p);
        (n + 1 >= n0 + 2 * p).then_some(Period {
            period: p,
            preperiod: n0,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preperiod_counts_heap_zero() {
        // 0.3: Φ = 1 a 1 a … from heap 0.
        let phi = [0, 1, 0, 1, 0, 1, 0];
        assert_eq!(
            apparent(&phi),
            Some(Period {
                period: 2,
                preperiod: 0
            })
        );
        // 0.1: 1 a 1 1 1 …: period 1 from heap 2.
        let phi = [0, 1, 0, 0, 0, 0, 0, 0, 0];
        let cert = Certificate::Octal { d: 1, k: 1 };
        assert_eq!(
            certify(&phi, cert),
            Some(Period {
                period: 1,
                preperiod: 2
            })
        );
        assert_eq!(certify(&phi[..8], cert), None);
    }

    #[test]
    fn watching_heap_by_heap_agrees_with_certify() {
        // Pseudo-random Φ with long periodic stretches, renamed now and then, under each kind
        // of certificate (AllBut with e = 0 certifies a period as soon as it is possible).
        let certs = [
            Certificate::Octal { d: 3, k: 1 },
            Certificate::Octal { d: 2, k: 2 },
            Certificate::Octal { d: 1, k: 3 },
            Certificate::AllBut { e: 0 },
            Certificate::AllBut { e: 4 },
        ];
        for (i, cert) in certs.into_iter().enumerate() {
            let mut x = 12345u64 + i as u64;
            let mut phi: Vec<u32> = vec![0];
            let mut watch = Watch::new(cert);
            let mut period = 7;
            let mut held = 0;
            for n in 1..900 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if n % 150 == 0 {
                    period = 1 + (x >> 58) as usize % 13;
                }
                let v = match n {
                    _ if n < 100 => 0,
                    _ if n % 300 < 220 => phi[n - period],
                    _ => (x >> 60) as u32 % 3,
                };
                phi.push(v);
                if n % 97 == 0 {
                    phi[n / 2] += 1;
                    watch.update(&phi);
                } else {
                    watch.extend(&phi);
                }
                assert_eq!(watch.certified(), certify(&phi, cert), "{cert:?} heap {n}");
                held += usize::from(watch.certified().is_some());
            }
            // Both answers occur, so the comparison tests something.
            assert!(
                held > 50 && held < 850,
                "{cert:?}: certified at {held} heaps"
            );
        }
    }

    #[test]
    fn bounds_match_the_published_last_heaps() {
        let oct = |d, k| Certificate::Octal { d, k };
        let at = |c, p, n0| {
            certified_from(
                c,
                Period {
                    period: p,
                    preperiod: n0,
                },
            )
        };
        // digest §3: 0.75 (n0 8, p 2) → 23; 0.34 (7, 8) → 33; 0.123 (5, 5) → 24; Kayles → 169.
        assert_eq!(at(oct(2, 2), 2, 8), 23);
        assert_eq!(at(oct(2, 2), 8, 7), 33);
        assert_eq!(at(oct(3, 2), 5, 5), 24);
        assert_eq!(at(oct(2, 2), 12, 71), 169);
        // Three-heap splits need more than CGSuite's rule.
        assert_eq!(at(oct(1, 3), 4, 10), 3 * 14 + 1 - 3);
        assert_eq!(at(Certificate::AllBut { e: 2 }, 3, 4), 4 + 6 + 2 - 1);
    }
}
