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

/// [`certify`] for a Φ that grows one heap at a time: the preperiod of every period is kept and
/// updated as heaps come (a new heap either extends a period's run or restarts it), so each
/// heap costs time linear in the heaps so far instead of quadratic. A Φ whose earlier values
/// changed (the quotient was renamed) is read again from scratch.
#[derive(Default)]
pub struct Watch {
    phi: Vec<u32>,
    /// `n0[p]`: the preperiod of period `p` for Φ as it is (index 0 unused).
    n0: Vec<usize>,
}

impl Watch {
    /// Takes Φ(H_0..H_N) (the previous Φ plus new heaps, or a new Φ altogether).
    pub fn update(&mut self, phi: &[u32]) {
        if phi.len() < self.phi.len() || phi[..self.phi.len()] != self.phi[..] {
            self.phi.clear();
            self.n0.clear();
        }
        for &v in &phi[self.phi.len()..] {
            let n = self.phi.len();
            self.phi.push(v);
            // Periods that were possible before: the pair (n - p, n) extends or restarts them.
            for p in 1..self.n0.len() {
                if self.phi[n] != self.phi[n - p] {
                    self.n0[p] = n + 1 - p;
                }
            }
            // A period possible from this heap on (2p <= n) is read in full once.
            if self.n0.is_empty() {
                self.n0.push(0);
            }
            while 2 * self.n0.len() <= n {
                let p = self.n0.len();
                self.n0.push(preperiod(&self.phi, p));
            }
        }
    }

    /// The least period whose certificate holds for the Φ last given, as [`certify`] says.
    pub fn certified(&self, cert: Certificate) -> Option<Period> {
        let n = self.phi.len().checked_sub(1)?;
        (1..self.n0.len()).find_map(|p| {
            let period = Period {
                period: p,
                preperiod: self.n0[p],
            };
            (certified_from(cert, period) <= n).then_some(period)
        })
    }
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
        // Pseudo-random Φ with long periodic stretches, renamed now and then.
        let cert = Certificate::Octal { d: 3, k: 1 };
        let mut x = 12345u64;
        let mut phi: Vec<u32> = vec![0];
        let mut watch = Watch::default();
        for n in 1..600 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let v = match n {
                _ if n < 200 => 0,
                _ if n < 400 => phi[n - 7],
                _ => (x >> 60) as u32 % 3,
            };
            phi.push(v);
            if n % 97 == 0 {
                phi[n / 2] += 1;
            }
            watch.update(&phi);
            assert_eq!(watch.certified(cert), certify(&phi, cert), "heap {n}");
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
