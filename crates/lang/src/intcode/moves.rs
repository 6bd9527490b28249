//! A row's rules unrolled into moves (`loony_graph::moves`): registers read symbolically as
//! affine forms in the row's coordinates, guards collected, options made moves.

use super::*;
use crate::value::Value;
use loony_core::game::Store;
use loony_syntax::ast::BinOp;

/// What a register holds while a row's rules are unrolled into moves: an affine form in the
/// coordinates, a passed-on list of integers, or something the moves cannot say.
#[derive(Clone)]
pub(super) enum Sym {
    Unknown,
    Aff(Aff),
    List(Vec<i64>),
}

/// `coef·x + c` over the row's coordinates.
#[derive(Clone)]
pub(super) struct Aff {
    coef: Vec<i64>,
    c: i64,
}

impl Aff {
    pub(super) fn constant(k: usize, c: i64) -> Aff {
        Aff {
            coef: vec![0; k],
            c,
        }
    }

    pub(super) fn as_constant(&self) -> Option<i64> {
        self.coef.iter().all(|&a| a == 0).then_some(self.c)
    }

    pub(super) fn combine(&self, other: &Aff, f: impl Fn(i64, i64) -> Option<i64>) -> Option<Aff> {
        Some(Aff {
            coef: self
                .coef
                .iter()
                .zip(&other.coef)
                .map(|(&a, &b)| f(a, b))
                .collect::<Option<Vec<i64>>>()?,
            c: f(self.c, other.c)?,
        })
    }

    pub(super) fn scale(&self, by: i64) -> Option<Aff> {
        Some(Aff {
            coef: self
                .coef
                .iter()
                .map(|&a| a.checked_mul(by))
                .collect::<Option<Vec<i64>>>()?,
            c: self.c.checked_mul(by)?,
        })
    }
}

/// More moves than this and the register code lists the row as before.
pub(super) const MOST_MOVES: usize = 1 << 12;

impl IntCode {
    /// The moves of the row `(shape, fixed)` ([`loony_graph::moves`]), if its rules have them: every
    /// loop over constants or a passed-on list, every guard a conjunction of comparisons of
    /// affine forms, every coordinate of an option an affine form. `None` leaves the row to
    /// the register code, which lists it exactly as before.
    pub(crate) fn moves(
        &self,
        (shape, fixed): (&RowShape, &[u32]),
        store: &Store,
    ) -> Option<loony_graph::moves::Moves> {
        // Forms over the coordinates and, last, a family's loop variable.
        let k = shape.coords + 1;
        let mut sym = vec![Sym::Unknown; self.regs];
        let mut fixed = fixed.iter();
        for (j, &reg) in self.params.iter().enumerate() {
            sym[reg as usize] = match shape.coord[j] {
                Some(c) => {
                    let mut a = Aff::constant(k, 0);
                    a.coef[c] = 1;
                    Sym::Aff(a)
                }
                None => {
                    let w = *fixed.next()?;
                    if w & 1 == 0 {
                        Sym::Aff(Aff::constant(k, ((w as i32) >> 1) as i64))
                    } else {
                        let Value::List(xs) = store.positions.compound_of(w) else {
                            return None;
                        };
                        let ints = xs.iter().map(|x| match x {
                            Value::Int(n) => Some(*n),
                            _ => None,
                        });
                        Sym::List(ints.collect::<Option<Vec<i64>>>()?)
                    }
                }
            };
        }
        for &(reg, n) in &self.consts {
            sym[reg as usize] = Sym::Aff(Aff::constant(k, n));
        }
        let mut out = loony_graph::moves::Moves::default();
        for rule in &self.rules {
            let mut u = Unroll {
                rule,
                shape,
                guards: Vec::new(),
                var: None,
            };
            u.clauses(0, &mut sym, &mut out)?;
        }
        // Forms too large for `i64` arithmetic stay with the register code.
        out.small().then_some(out)
    }
}

pub(super) fn aff(s: &Sym) -> Option<&Aff> {
    match s {
        Sym::Aff(a) => Some(a),
        _ => None,
    }
}

/// An integer expression as an affine form, its temporaries written as the code writes them.
pub(super) fn sym_expr(sym: &mut [Sym], e: &IExpr) -> Option<Aff> {
    for ins in &e.code {
        let a = aff(&sym[ins.a as usize])?.clone();
        let r = if let Arith::Neg = ins.op {
            a.scale(-1)?
        } else {
            let b = aff(&sym[ins.b as usize])?;
            match ins.op {
                Arith::Add => a.combine(b, i64::checked_add)?,
                Arith::Sub => a.combine(b, i64::checked_sub)?,
                Arith::Mul => match (a.as_constant(), b.as_constant()) {
                    (Some(x), _) => b.scale(x)?,
                    (_, Some(y)) => a.scale(y)?,
                    _ => return None,
                },
                // Division and remainder of constants only (the code's Euclidean results).
                Arith::Div | Arith::Rem => {
                    let (x, y) = (a.as_constant()?, b.as_constant()?);
                    let v = match ins.op {
                        Arith::Div => x.checked_div_euclid(y)?,
                        _ => x.checked_rem_euclid(y)?,
                    };
                    Aff::constant(a.coef.len(), v)
                }
                Arith::Bit(op) => {
                    let (x, y) = (a.as_constant()?, b.as_constant()?);
                    Aff::constant(a.coef.len(), crate::bits::apply(op, x, y).ok()?)
                }
                Arith::Neg => unreachable!("handled above"),
            }
        };
        sym[ins.dst as usize] = Sym::Aff(r);
    }
    aff(&sym[e.out as usize]).cloned()
}

/// An option's coordinate: an affine form, or one taken modulo a positive constant (its last
/// step), as `(form, modulus)` with modulus 0 for none.
pub(super) fn sym_coord(sym: &mut [Sym], e: &IExpr) -> Option<(Aff, i64)> {
    if let Some((last, code)) = e.code.split_last()
        && let Arith::Rem = last.op
        && last.dst == e.out
    {
        let head = IExpr {
            code: code.to_vec(),
            out: last.a,
        };
        let a = sym_expr(sym, &head)?;
        let m = aff(&sym[last.b as usize])?.as_constant()?;
        if a.as_constant().is_none() && m > 0 {
            return Some((a, m));
        }
    }
    Some((sym_expr(sym, e)?, 0))
}

/// An expression whose last step divides an affine form by a positive constant, as
/// `(form, divisor)`.
pub(super) fn sym_floor(sym: &mut [Sym], e: &IExpr) -> Option<(Aff, i64)> {
    let (last, code) = e.code.split_last()?;
    if !matches!(last.op, Arith::Div) || last.dst != e.out {
        return None;
    }
    let head = IExpr {
        code: code.to_vec(),
        out: last.a,
    };
    let f = sym_expr(sym, &head)?;
    let d = aff(&sym[last.b as usize])?.as_constant()?;
    (d > 0 && d <= loony_graph::moves::MOST_COEF).then_some((f, d))
}

/// The guards of a condition, pushed onto `guards`; `Some(false)` if it never holds.
pub(super) fn guards_of(
    sym: &mut [Sym],
    b: &IBool,
    guards: &mut Vec<loony_graph::moves::Guard>,
) -> Option<bool> {
    use loony_graph::moves::{Guard, Sign};
    match b {
        IBool::Const(v) => Some(*v),
        IBool::Cmp(op, x, y) => {
            let (x, y) = (sym_expr(sym, x)?, sym_expr(sym, y)?);
            // `x − y` (or `y − x`) compared with zero.
            let (form, sign) = match op {
                BinOp::Lt => (y.combine(&x, i64::checked_sub)?, Sign::Positive),
                BinOp::Le => (y.combine(&x, i64::checked_sub)?, Sign::NonNegative),
                BinOp::Gt => (x.combine(&y, i64::checked_sub)?, Sign::Positive),
                BinOp::Ge => (x.combine(&y, i64::checked_sub)?, Sign::NonNegative),
                BinOp::Eq => (x.combine(&y, i64::checked_sub)?, Sign::Zero),
                _ => (x.combine(&y, i64::checked_sub)?, Sign::NonZero),
            };
            let guard = Guard {
                coef: form.coef,
                c: form.c,
                op: sign,
            };
            if guard.coef.iter().all(|&a| a == 0) {
                return Some(guard.holds(&[]));
            }
            guards.push(guard);
            Some(true)
        }
        IBool::And(x, y) => Some(guards_of(sym, x, guards)? && guards_of(sym, y, guards)?),
        IBool::Or(..) | IBool::Not(_) => None,
    }
}

/// A rule being unrolled into moves: the guards in force, and the range of the loop variable
/// when a loop over a range of the coordinates has begun (its options are then a family).
pub(super) struct Unroll<'a> {
    rule: &'a IRule,
    shape: &'a RowShape,
    guards: Vec<loony_graph::moves::Guard>,
    var: Option<(Aff, Aff)>,
}

impl Unroll<'_> {
    /// The moves of clauses `i..`.
    pub(super) fn clauses(
        &mut self,
        i: usize,
        sym: &mut Vec<Sym>,
        out: &mut loony_graph::moves::Moves,
    ) -> Option<()> {
        if out.moves.len() + out.families.len() > MOST_MOVES {
            return None;
        }
        let Some(c) = self.rule.clauses.get(i) else {
            return self.emit(sym, out);
        };
        let k = self.shape.coords;
        let mut each = |u: &mut Self, sym: &mut Vec<Sym>, reg: u16, items: &[i64]| {
            if items.len() > MOST_MOVES {
                return None;
            }
            let saved = sym[reg as usize].clone();
            for &x in items {
                sym[reg as usize] = Sym::Aff(Aff::constant(k + 1, x));
                u.clauses(i + 1, sym, out)?;
            }
            sym[reg as usize] = saved;
            Some(())
        };
        match c {
            IClause::If(b) => {
                let n = self.guards.len();
                if guards_of(sym, b, &mut self.guards)? {
                    self.clauses(i + 1, sym, out)?;
                }
                self.guards.truncate(n);
                Some(())
            }
            IClause::Range {
                reg,
                lo,
                hi,
                inclusive,
            } => {
                let a = sym_expr(sym, lo)?;
                // An end `F / d` (Kayles' `0..=(n - t) / 2`) is the bound `d·v ≤ F` (`< F`
                // rounded down for an open end), the range itself left unbounded above.
                let mut end = None;
                let mut b = match sym_expr(sym, hi) {
                    Some(b) => b,
                    None => {
                        let (f, d) = sym_floor(sym, hi)?;
                        let mut g = f;
                        g.coef[k] = -d;
                        if !*inclusive {
                            g.c = g.c.checked_sub(d)?;
                        }
                        end = Some(loony_graph::moves::Guard {
                            coef: g.coef,
                            c: g.c,
                            op: loony_graph::moves::Sign::NonNegative,
                        });
                        Aff::constant(k + 1, i64::from(i32::MAX))
                    }
                };
                if !*inclusive && end.is_none() {
                    b.c = b.c.checked_sub(1)?;
                }
                if end.is_none()
                    && let (Some(x), Some(y)) = (a.as_constant(), b.as_constant())
                    && y.saturating_sub(x) < MOST_MOVES as i64
                {
                    let items: Vec<i64> = (x..=y).collect();
                    return each(self, sym, *reg, &items);
                }
                // A range of the coordinates (or a long one): the loop variable of a family;
                // one a rule.
                if self.var.is_some() || a.coef[k] != 0 || b.coef[k] != 0 {
                    return None;
                }
                self.var = Some((a, b));
                let n = self.guards.len();
                self.guards.extend(end);
                let saved = sym[*reg as usize].clone();
                let mut v = Aff::constant(k + 1, 0);
                v.coef[k] = 1;
                sym[*reg as usize] = Sym::Aff(v);
                let done = self.clauses(i + 1, sym, out);
                sym[*reg as usize] = saved;
                self.guards.truncate(n);
                self.var = None;
                done
            }
            IClause::EachConst { reg, items } => each(self, sym, *reg, items),
            IClause::EachReg { reg, list } => {
                let Sym::List(items) = &sym[*list as usize] else {
                    return None;
                };
                let items = items.clone();
                each(self, sym, *reg, &items)
            }
        }
    }

    /// The option of a rule whose clauses all hold: a move, or a family when it is a sum or
    /// within a loop over a range of the coordinates.
    pub(super) fn emit(&self, sym: &mut [Sym], out: &mut loony_graph::moves::Moves) -> Option<()> {
        use loony_graph::moves::{Family, Form, Guard, Move, Part, Sign};
        let k = self.shape.coords;
        let mut guards = Vec::new();
        let mut bounds = Vec::new();
        for g in &self.guards {
            let a = g.coef[k];
            let mut coord = Guard {
                coef: g.coef[..k].to_vec(),
                c: g.c,
                op: g.op,
            };
            if a == 0 {
                guards.push(coord);
                continue;
            }
            // a·v + form ≥ 0 (> 0 is ≥ 1); an (in)equality in `v` stays with the register code.
            match g.op {
                Sign::NonNegative => {}
                Sign::Positive => coord.c = coord.c.checked_sub(1)?,
                Sign::Zero | Sign::NonZero => return None,
            }
            let f = Form {
                coef: coord.coef,
                c: coord.c,
            };
            bounds.push((a, f));
        }
        let mut parts = Vec::with_capacity(self.rule.parts.len());
        let mut modulus = vec![0; k];
        for part in &self.rule.parts {
            let (mut to, mut step, mut shift) = (vec![0; k * k], vec![0; k], vec![0; k]);
            for (j, a) in part.args.iter().enumerate() {
                let Some(cj) = self.shape.coord[j] else {
                    continue;
                };
                let (f, m) = match a {
                    IArg::Reg(s) => (aff(&sym[*s as usize])?.clone(), 0),
                    IArg::Int(e) => sym_coord(sym, e)?,
                };
                to[cj * k..(cj + 1) * k].copy_from_slice(&f.coef[..k]);
                step[cj] = f.coef[k];
                shift[cj] = f.c;
                modulus[cj] = m;
            }
            parts.push(Part { to, step, shift });
        }
        let reduced = modulus.iter().any(|&m| m != 0);
        match (&self.var, &parts[..]) {
            (None, [p]) if bounds.is_empty() => {
                let shifts = !reduced && (0..k * k).all(|i| p.to[i] == i64::from(i / k == i % k));
                out.moves.push(Move {
                    guards,
                    to: p.to.clone(),
                    shift: p.shift.clone(),
                    modulus,
                    shifts,
                });
            }
            // A family's parts are not reduced.
            _ if reduced => return None,
            _ => {
                let form = |a: &Aff| Form {
                    coef: a.coef[..k].to_vec(),
                    c: a.c,
                };
                let (lo, hi) = match &self.var {
                    Some((a, b)) => (form(a), form(b)),
                    None => (
                        form(&Aff::constant(k + 1, 0)),
                        form(&Aff::constant(k + 1, 0)),
                    ),
                };
                out.families.push(Family {
                    guards,
                    lo,
                    hi,
                    bounds,
                    parts,
                });
            }
        }
        Some(())
    }
}
