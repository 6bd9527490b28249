//! Phyla (§4.1): which of Conway's classes a game falls in (nim heaps, tame, restive, restless,
//! wild). The phylum decides the predicates (`is_tame`, …) and how a genus is stored and
//! printed. Computed once per pair when a game is interned, from its options' phyla.

use super::canonical::{Mid, MisereStore};
use super::mex;

/// CGSuite's phyla, in its order. An odd game has the phylum of its even part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phylum {
    /// A nim heap `*n`.
    NimHeap,
    /// Tame, not a nim heap (`IsTame`).
    HalfTame,
    /// Generally tame: tame through reversible moves.
    ReversiblyTame,
    /// Tameable.
    Tameable,
    /// Restive (`IsRestive`).
    HalfRestive,
    /// Generally restive through reversible moves.
    ReversiblyRestive,
    Restless,
    Wild,
}

impl Phylum {
    /// Generally tame: NH, HT, RT.
    pub fn is_generally_tame(self) -> bool {
        matches!(
            self,
            Phylum::NimHeap | Phylum::HalfTame | Phylum::ReversiblyTame
        )
    }

    /// Tame or restive (CGSuite's "RoT").
    fn is_restive_or_tame(self) -> bool {
        self.is_generally_tame() || matches!(self, Phylum::HalfRestive | Phylum::ReversiblyRestive)
    }

    pub fn name(self) -> &'static str {
        match self {
            Phylum::NimHeap => "nim heap",
            Phylum::HalfTame => "tame",
            Phylum::ReversiblyTame => "reversibly tame",
            Phylum::Tameable => "tameable",
            Phylum::HalfRestive => "restive",
            Phylum::ReversiblyRestive => "reversibly restive",
            Phylum::Restless => "restless",
            Phylum::Wild => "wild",
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Type {
    Tame,
    Restive,
    Restless,
    Wild,
}

const RT: u8 = 1;
const TA: u8 = 2;
const RR: u8 = 4;

impl MisereStore {
    /// The phylum of the even game `e`, whose options (and theirs) already have phyla.
    pub(super) fn compute_phylum(&self, e: Mid) -> Phylum {
        let ph = |g: Mid| self.phylum(g);
        let (g, m) = (self.nim_plus(e), self.nim_minus(e));
        let opts = self.options(e);
        // Step 1: the largest phylum among the options, if they are all generally tame.
        let mut w = Some(Phylum::NimHeap);
        for &o in opts {
            let p = ph(o);
            w = match w {
                Some(x) if p.is_generally_tame() => Some(x.max(p)),
                _ => None,
            };
        }
        // Step 2: the type from G⁺ and G⁻.
        let ty = if g == m || (g <= 1 && m <= 1) {
            Type::Tame
        } else if g <= 1 {
            Type::Restive
        } else if m <= 1 {
            Type::Restless
        } else {
            Type::Wild
        };
        // Step 3: options all generally tame.
        match (w, ty) {
            (Some(Phylum::NimHeap), Type::Tame) if !(g == m && g <= 1) => {
                return Phylum::NimHeap;
            }
            (Some(Phylum::NimHeap | Phylum::HalfTame), t) => {
                return match t {
                    Type::Tame => Phylum::HalfTame,
                    Type::Restive => Phylum::HalfRestive,
                    Type::Restless => Phylum::Restless,
                    Type::Wild => Phylum::Wild,
                };
            }
            (Some(_), t) => {
                return match t {
                    Type::Tame => Phylum::ReversiblyTame,
                    Type::Restive => Phylum::ReversiblyRestive,
                    Type::Restless => Phylum::Restless,
                    Type::Wild => Phylum::Wild,
                };
            }
            (None, Type::Restless | Type::Wild) => return Phylum::Wild,
            (None, _) => {}
        }
        // Steps 4–5: some option is not generally tame; look for reversible moves.
        let tame = ty == Type::Tame;
        let mut cand = if tame { RT | TA } else { RR };
        let (mut a_plus, mut a_minus, mut b_plus, mut b_minus) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for &o in opts {
            let po = ph(o);
            if po.is_generally_tame() {
                a_plus.push(self.nim_plus(o));
                a_minus.push(self.nim_minus(o));
                continue;
            }
            let (mut f_m, mut f_p, mut t_m, mut t_p) = (false, false, false, false);
            if cand & TA != 0 && po == Phylum::Tameable {
                // CGSuite uses the values of the option's even part here (§4.1's quirk).
                let eo = o.even_part();
                b_plus.push(self.nim_plus(eo));
                b_minus.push(self.nim_minus(eo));
                t_m = true;
                t_p = true;
            }
            for &s in self.options(o) {
                let ps = ph(s);
                let (sp, sm) = (self.nim_plus(s), self.nim_minus(s));
                if tame {
                    if ps.is_generally_tame() {
                        f_m |= sm == m;
                        f_p |= sp == g;
                    } else if ps == Phylum::Tameable && cand & TA != 0 {
                        t_m |= sm == m;
                        t_p |= sp == g;
                    }
                } else if ps.is_restive_or_tame() {
                    f_m |= sm == m && (sp <= 1 || sp ^ m <= 1);
                    f_p |= sp == g && (sm <= 1 || sm ^ m <= 1);
                }
            }
            if !(f_m && f_p) {
                cand &= !(RT | RR);
                if !(t_m && t_p) {
                    cand &= !TA;
                }
            }
            if cand == 0 {
                break;
            }
        }
        if cand != 0 {
            let mismatch = |p: &mut Vec<u32>, q: &mut Vec<u32>| {
                mex(&mut p.clone()) != g || mex(&mut q.clone()) != m
            };
            if mismatch(&mut a_plus, &mut a_minus) {
                cand &= !(RT | RR);
            }
            if cand & TA != 0 {
                a_plus.extend_from_slice(&b_plus);
                a_minus.extend_from_slice(&b_minus);
                // CGSuite tests the union for emptiness here.
                if mismatch(&mut a_plus, &mut a_minus) && (!a_plus.is_empty() || g > 0) {
                    cand &= !TA;
                }
            }
        }
        if cand & RT != 0 {
            Phylum::ReversiblyTame
        } else if cand & TA != 0 {
            Phylum::Tameable
        } else if cand & RR != 0 {
            Phylum::ReversiblyRestive
        } else {
            Phylum::Wild
        }
    }
}

/// The predicates of §4.2, by phylum.
impl MisereStore {
    /// Tame (CGSuite's `IsTame`): a nim heap or hereditarily tame.
    pub fn is_tame(&self, g: Mid) -> bool {
        matches!(self.phylum(g), Phylum::NimHeap | Phylum::HalfTame)
    }

    pub fn is_generally_tame(&self, g: Mid) -> bool {
        self.phylum(g).is_generally_tame()
    }

    pub fn is_tameable(&self, g: Mid) -> bool {
        self.phylum(g).is_generally_tame() || self.phylum(g) == Phylum::Tameable
    }

    pub fn is_restive(&self, g: Mid) -> bool {
        self.phylum(g) == Phylum::HalfRestive
    }

    pub fn is_generally_restive(&self, g: Mid) -> bool {
        matches!(
            self.phylum(g),
            Phylum::HalfRestive | Phylum::ReversiblyRestive
        )
    }

    pub fn is_restless(&self, g: Mid) -> bool {
        self.phylum(g) == Phylum::Restless
    }

    /// Half-tame: not generally tame, but `G + G` is generally tame of genus `0^0`.
    pub fn is_half_tame(&mut self, g: Mid) -> super::Result<bool> {
        if self.is_generally_tame(g) {
            return Ok(false);
        }
        let d = self.add(g, g)?;
        Ok(self.is_generally_tame(d) && self.nim_plus(d) == 0 && self.nim_minus(d) == 0)
    }
}
