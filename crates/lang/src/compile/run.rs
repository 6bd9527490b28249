//! Running compiled rules and comprehensions: frames of slots, the clauses' walk, options
//! emitted as position keys, and the evaluation of compiled expressions.

use super::*;
use crate::builtins;
use crate::cx::Cx;
use crate::error::{EvalError, Operation, TypeError};
use crate::value::Value;
use loony_core::board::Board;
use loony_core::class::Class;
use loony_core::diag::{CoreError, Error};
use loony_core::game::Store;
use loony_core::positions::PosTable;
use loony_graph::memo::Codec;
use loony_graph::options::{Atom, OptBuf, OptRec};
use std::rc::Rc;

/// A frame of slots for running compiled code.
pub struct Frame {
    pub(super) slots: Vec<Value>,
}

impl Compiled {
    /// Lists the options of position `args` into `out`.
    pub fn expand(
        &self,
        cx: &mut Cx,
        store: &mut Store,
        args: &mut Vec<Value>,
        out: &mut OptBuf,
    ) -> Result<(), Error> {
        if let Some(MaskRule::Domino(d)) = self.mask_rule
            && let [Value::Board(b)] = args.as_slice()
            && domino_options(d, cx, store, self.rid, &self.rules[0], b, out)
        {
            args.clear();
            return Ok(());
        }
        if let Some(MaskRule::Bite(bt)) = self.mask_rule
            && let [Value::Board(b)] = args.as_slice()
            && bite_options(bt, cx, store, self.rid, &self.rules[0], b, out)
        {
            args.clear();
            return Ok(());
        }
        with_frame(cx, self.slots, |cx, f| {
            for (p, a) in self.params.iter().zip(args.drain(..)) {
                bind(cx, f, p, a)?;
            }
            for rule in &self.rules {
                walk(cx, store, f, &rule.clauses, &mut |cx, store, f| {
                    let start = out.atoms.len() as u32;
                    emit(cx, store, f, &rule.option, out)?;
                    out.opts.push(OptRec {
                        kind: rule.kind,
                        start,
                        len: out.atoms.len() as u32 - start,
                    });
                    Ok(())
                })?;
            }
            Ok(())
        })
    }
}

/// The free cells of `b` as a mask, if the board is one the mask forms read: at most 128
/// cells, every free one of kind `kind`.
fn free_of(b: &Board, kind: u8) -> Option<u128> {
    b.free_of_one_kind()
        .and_then(|(k, free)| (k == kind).then_some(free))
}

/// Lists the options of the position `b` of ruleset `rid`, whose rule is the domino rule
/// `rule` (`domino.rs`), into `out` as the rule would (same options, same order); `false`
/// when `b` is not a board this form reads (then nothing is listed and the rule runs as
/// written).
fn domino_options(
    d: Domino,
    cx: &mut Cx,
    store: &mut Store,
    rid: u32,
    rule: &CRule,
    b: &Board,
    out: &mut OptBuf,
) -> bool {
    let (kind, Some(free)) = (d.free, free_of(b, d.free)) else {
        return false;
    };
    let (n, cols) = (b.cells().len(), b.cols());
    let pairs = PAIRS.with_borrow_mut(|orders| {
        orders
            .entry((n / cols, cols, d.centre_first))
            .or_insert_with(|| pair_order(b, d.centre_first))
            .clone()
    });
    let mut lefts = Vec::with_capacity(pairs.len());
    for &(i, j) in pairs.iter() {
        let (i, j) = (usize::from(i), usize::from(j));
        if free >> i & free >> j & 1 == 1 {
            lefts.push(free & !(1 << i | 1 << j));
        }
    }
    cx.region_options(store, (rid, rule.kind), b, kind, &lefts, out);
    true
}

/// Every domino's place on a board of a shape, in the order the rule lists them, by
/// (rows, columns, centre first).
type PairOrders = rustc_hash::FxHashMap<(usize, usize, bool), std::rc::Rc<[(u8, u8)]>>;

thread_local! {
    /// Worked out once a shape rather than once a position.
    static PAIRS: std::cell::RefCell<PairOrders> = Default::default();
}

/// The places of a domino on `b`'s shape (boards of at most 128 cells), as `adjacent_pairs`
/// lists them: by first cell in reading order, across then down; with `centre_first`, as it
/// orders them: by the distance of the pair's centre, pairs as far in reading order.
fn pair_order(b: &Board, centre_first: bool) -> std::rc::Rc<[(u8, u8)]> {
    let (n, cols) = (b.cells().len(), b.cols());
    let mut pairs = Vec::new();
    for i in 0..n {
        if i % cols + 1 < cols {
            pairs.push((i, i + 1));
        }
        if i + cols < n {
            pairs.push((i, i + cols));
        }
    }
    if centre_first {
        pairs.sort_by_key(|&(i, j)| b.centre_distance(&[i, j]).0);
    }
    pairs.into_iter().map(|(i, j)| (i as u8, j as u8)).collect()
}

/// Lists the options of the position `b` of ruleset `rid`, whose rule is the bite rule
/// `rule` (`bite.rs`), into `out` as the rule would (same options, same order: the free cells
/// in reading order); `false` when `b` is not a board this form reads (then nothing is listed
/// and the rule runs as written).
fn bite_options(
    bt: Bite,
    cx: &mut Cx,
    store: &mut Store,
    rid: u32,
    rule: &CRule,
    b: &Board,
    out: &mut OptBuf,
) -> bool {
    let (kind, Some(free)) = (bt.free, free_of(b, bt.free)) else {
        return false;
    };
    // A poisoned cell off the board equals no cell: every free cell is a move.
    let poison = bt.poison.and_then(|(r, c)| b.index(r, c));
    let quadrants = QUADRANTS.with_borrow_mut(|q| {
        q.entry((b.rows(), b.cols()))
            .or_insert_with(|| {
                (0..b.cells().len())
                    .map(|i| b.quadrant(i).fold(0u128, |m, j| m | 1 << j))
                    .collect()
            })
            .clone()
    });
    let mut masks = Vec::with_capacity(free.count_ones() as usize);
    let mut cells = free;
    while cells != 0 {
        let i = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        if poison != Some(i) {
            masks.push(free & !quadrants[i]);
        }
    }
    cx.board_parts(
        store,
        (rid, rule.kind),
        b,
        (kind, bt.transpose),
        &masks,
        out,
    );
    true
}

/// Each cell's quadrant as a mask, by board shape (rows, columns).
type Quadrants = rustc_hash::FxHashMap<(usize, usize), Rc<[u128]>>;

thread_local! {
    /// Worked out once a shape rather than once a position.
    static QUADRANTS: std::cell::RefCell<Quadrants> = Default::default();
}

impl Comprehension {
    /// The list's elements, in the order the clauses bind them.
    pub(crate) fn run(&self, cx: &mut Cx, store: &mut Store) -> Result<Vec<Value>, Error> {
        with_frame(cx, self.slots, |cx, f| {
            f.slots[..self.seeds.len()].clone_from_slice(&self.seeds);
            let mut out = Vec::new();
            walk(cx, store, f, &self.clauses, &mut |cx, store, f| {
                out.push(eval(cx, store, f, &self.elem)?);
                Ok(())
            })?;
            Ok(out)
        })
    }
}

/// Runs `body` in a frame of `slots` slots. Frames are reused (a pool, as rules may expand
/// other positions, and comprehensions call rules, while running).
pub(crate) fn with_frame<T>(
    cx: &mut Cx,
    slots: usize,
    body: impl FnOnce(&mut Cx, &mut Frame) -> Result<T, Error>,
) -> Result<T, Error> {
    let mut v = cx.rules.frames.pop().unwrap_or_default();
    v.resize(slots, Value::Int(0));
    let mut f = Frame { slots: v };
    let r = body(cx, &mut f);
    f.slots.clear();
    cx.rules.frames.push(f.slots);
    r
}

/// Calls `body` once per binding of `clauses` that passes every guard.
pub(super) fn walk<B>(
    cx: &mut Cx,
    store: &mut Store,
    f: &mut Frame,
    clauses: &[CClause],
    body: &mut B,
) -> Result<(), Error>
where
    B: FnMut(&mut Cx, &mut Store, &mut Frame) -> Result<(), Error>,
{
    let Some((c, rest)) = clauses.split_first() else {
        return body(cx, store, f);
    };
    match c {
        CClause::If(cond, span) => {
            if truth(cx, store, f, cond, span)? {
                walk(cx, store, f, rest, body)?;
            }
        }
        CClause::Range {
            slot,
            lo,
            hi,
            inclusive,
            span,
            lo_span,
            hi_span,
        } => {
            let a = int(cx, store, f, lo, lo_span)?;
            let mut b = int(cx, store, f, hi, hi_span)?;
            if *inclusive {
                b = b
                    .checked_add(1)
                    .ok_or_else(|| cx.err(EvalError::Overflow { op: "..=".into() }, hi_span))?;
            }
            for k in a..b {
                if k % 1024 == 0 && cx.interrupted() {
                    return Err(cx.err(CoreError::Interrupted, span));
                }
                f.slots[*slot as usize] = Value::Int(k);
                walk(cx, store, f, rest, body)?;
            }
        }
        CClause::Each { pat, iter, span } => {
            let v = eval(cx, store, f, iter)?;
            let items = cx.items_of(v, span)?;
            for k in 0..items.len() {
                if k % 1024 == 1023 && cx.interrupted() {
                    return Err(cx.err(CoreError::Interrupted, span));
                }
                bind(cx, f, pat, items.get(k))?;
                walk(cx, store, f, rest, body)?;
            }
        }
    }
    Ok(())
}

pub(crate) fn bind(cx: &Cx, f: &mut Frame, p: &Pat, v: Value) -> Result<(), Error> {
    match p {
        Pat::Slot(s) => {
            f.slots[*s as usize] = v;
            Ok(())
        }
        Pat::Tuple(ps, span) => {
            let items = match &v {
                Value::Tuple(xs) | Value::List(xs) if xs.len() == ps.len() => xs.clone(),
                other => {
                    return Err(cx.err(
                        EvalError::Type(TypeError::Unpack {
                            found: other.type_name(),
                            names: ps.len(),
                        }),
                        span,
                    ));
                }
            };
            for (q, x) in ps.iter().zip(items.iter()) {
                bind(cx, f, q, x.clone())?;
            }
            Ok(())
        }
    }
}

pub(super) fn emit(
    cx: &mut Cx,
    store: &mut Store,
    f: &mut Frame,
    o: &COpt,
    out: &mut OptBuf,
) -> Result<(), Error> {
    match o {
        COpt::Pos {
            rid,
            norm,
            name,
            arity,
            args,
            spans,
            span,
        } => {
            if args.len() != *arity {
                return Err(cx.arity(name, *arity, args.len(), span));
            }
            if *norm {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(eval(cx, store, f, a)?);
                }
                let mut parts = std::mem::take(&mut cx.rules.parts_buf);
                parts.clear();
                let r = cx.parts(store, *rid, vals, &mut parts);
                out.atoms.extend(parts.iter().map(|&p| Atom::Pos(p)));
                cx.rules.parts_buf = parts;
                return r;
            }
            // The key is built word by word in a reused buffer (taken, since evaluating an
            // argument may expand positions): integer arguments and tuples or lists of them
            // without building values, other lists and tuples by their interned id.
            let mut key = std::mem::take(&mut cx.rules.key_buf);
            key.clear();
            key.push(0);
            let n = args.len();
            // The first argument that cannot be one; the others are still evaluated, so an
            // error in a later argument is reported first, as when all are evaluated first.
            let mut bad = None;
            for (i, a) in args.iter().enumerate() {
                if push_word(store, &mut key, *rid, n, a, &f.slots) {
                    continue;
                }
                let v = match eval(cx, store, f, a) {
                    Ok(v) => v,
                    Err(e) => {
                        cx.rules.key_buf = key;
                        return Err(e);
                    }
                };
                if !store.positions.push_arg(&mut key, *rid, n, &v) {
                    key.push(0);
                    bad = bad.or(Some((i, v)));
                }
            }
            key[0] = PosTable::header(*rid, key.len() - 1);
            if let Some((i, v)) = bad {
                cx.rules.key_buf = key;
                return Err(cx.err(
                    EvalError::Type(TypeError::RulesetArgument {
                        found: v.type_name(),
                    }),
                    &spans[i],
                ));
            }
            let p = store.positions.intern_words(&key);
            cx.rules.key_buf = key;
            out.atoms.push(Atom::Pos(p));
        }
        COpt::Sum(parts) => {
            for p in parts {
                emit(cx, store, f, p, out)?;
            }
        }
        COpt::Expr(e, span) => {
            let v = eval(cx, store, f, e)?;
            let g = cx.as_game(store, &v, span)?;
            out.atoms.push(Atom::Game(g));
        }
    }
    Ok(())
}

impl PosCall {
    /// The call's key (its header, then its arguments' words) into `key`, when every
    /// argument has words without evaluating anything (see [`push_word`]).
    fn key(&self, store: &mut Store, slots: &[Value], key: &mut Vec<u32>) -> bool {
        key.clear();
        key.push(0);
        let n = self.args.len();
        for (a, made) in self.args.iter().zip(&self.words) {
            if let Some(w) = made.get() {
                key.extend_from_slice(w);
                continue;
            }
            let at = key.len();
            if !push_word(store, key, self.rid, n, a, slots) {
                return false;
            }
            if matches!(a, CExpr::Const(_)) {
                let _ = made.set(key[at..].into());
            }
        }
        key[0] = PosTable::header(self.rid, key.len() - 1);
        true
    }
}

/// Appends argument `a` of a position of ruleset `rid` (of `n` arguments) to `key`, when its
/// words need no evaluation: an integer, a tuple or list of integers kept in place (written
/// word by word without building it, as `push_arg` would keep it), or a value already made
/// (a slot's, passed on without a copy, or a constant). False leaves `key` as it was; the
/// general path then evaluates the argument (and reports any error).
pub(super) fn push_word(
    store: &mut Store,
    key: &mut Vec<u32>,
    rid: u32,
    n: usize,
    a: &CExpr,
    slots: &[Value],
) -> bool {
    if let Some(w) = int_of(a, slots).and_then(PosTable::int_word) {
        key.push(w);
        return true;
    }
    if let CExpr::Tuple(items) | CExpr::List(items) = a
        && let list = matches!(a, CExpr::List(_))
        && store.positions.in_place(rid, n, list, items.len())
    {
        let at = key.len();
        key.push(PosTable::marker(list, items.len()));
        for x in items {
            match int_of(x, slots).and_then(PosTable::int_word) {
                Some(w) => key.push(w),
                None => {
                    key.truncate(at);
                    return false;
                }
            }
        }
        return true;
    }
    match a {
        CExpr::Slot(s) => store.positions.push_arg(key, rid, n, &slots[*s as usize]),
        CExpr::Const(v) => store.positions.push_arg(key, rid, n, v),
        _ => false,
    }
}

/// An integer expression evaluated without building values, when every leaf is an integer and
/// nothing overflows; `None` sends the caller to the general path (which reports any error).
pub(super) fn int_of(e: &CExpr, slots: &[Value]) -> Option<i64> {
    match e {
        CExpr::Const(Value::Int(n)) => Some(*n),
        CExpr::Slot(s) => match &slots[*s as usize] {
            Value::Int(n) => Some(*n),
            _ => None,
        },
        CExpr::Bin(op, l, r, ..) => {
            let (a, b) = (int_of(l, slots)?, int_of(r, slots)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div if b != 0 => a.checked_div_euclid(b),
                BinOp::Rem if b != 0 => a.checked_rem_euclid(b),
                op if crate::bits::is_bit_op(*op) => crate::bits::apply(*op, a, b).ok(),
                _ => None,
            }
        }
        CExpr::Neg(x, _) => int_of(x, slots)?.checked_neg(),
        CExpr::Index(..) => match item_of(e, slots)? {
            Value::Int(n) => Some(*n),
            _ => None,
        },
        _ => None,
    }
}

/// An element of a list or tuple held in a slot (`h[0]`, `s[i][1]`), without copying the
/// list; `None` for anything else, and for an index out of range (which the general path
/// reports).
pub(super) fn item_of<'a>(e: &CExpr, slots: &'a [Value]) -> Option<&'a Value> {
    match e {
        CExpr::Slot(s) => Some(&slots[*s as usize]),
        CExpr::Index(t, i, ..) => match item_of(t, slots)? {
            Value::List(xs) | Value::Tuple(xs) => xs.get(usize::try_from(int_of(i, slots)?).ok()?),
            _ => None,
        },
        _ => None,
    }
}

/// A comparison or boolean of integers, without building values.
pub(super) fn bool_of(e: &CExpr, slots: &[Value]) -> Option<bool> {
    match e {
        CExpr::Bin(op, l, r, ..) => {
            let (a, b) = (int_of(l, slots)?, int_of(r, slots)?);
            Some(match op {
                BinOp::Lt => a < b,
                BinOp::Le => a <= b,
                BinOp::Gt => a > b,
                BinOp::Ge => a >= b,
                BinOp::Eq => a == b,
                BinOp::Ne => a != b,
                _ => return None,
            })
        }
        CExpr::And(l, r, ..) => Some(bool_of(l, slots)? && bool_of(r, slots)?),
        CExpr::Or(l, r, ..) => Some(bool_of(l, slots)? || bool_of(r, slots)?),
        CExpr::Not(x, _) => Some(!bool_of(x, slots)?),
        CExpr::Const(Value::Bool(v)) => Some(*v),
        _ => None,
    }
}

pub(super) fn truth(
    cx: &mut Cx,
    store: &mut Store,
    f: &mut Frame,
    e: &CExpr,
    span: &Span,
) -> Result<bool, Error> {
    if let Some(v) = bool_of(e, &f.slots) {
        return Ok(v);
    }
    match eval(cx, store, f, e)? {
        Value::Bool(v) => Ok(v),
        other => Err(cx.err(EvalError::expected("a boolean", other.type_name()), span)),
    }
}

pub(super) fn int(
    cx: &mut Cx,
    store: &mut Store,
    f: &mut Frame,
    e: &CExpr,
    span: &Span,
) -> Result<i64, Error> {
    if let Some(n) = int_of(e, &f.slots) {
        return Ok(n);
    }
    match eval(cx, store, f, e)? {
        Value::Int(n) => Ok(n),
        other => Err(cx.err(EvalError::expected("an integer", other.type_name()), span)),
    }
}

pub(crate) fn eval(
    cx: &mut Cx,
    store: &mut Store,
    f: &mut Frame,
    e: &CExpr,
) -> Result<Value, Error> {
    Ok(match e {
        CExpr::Const(v) => v.clone(),
        CExpr::Slot(s) => f.slots[*s as usize].clone(),
        CExpr::Bin(op @ (BinOp::Eq | BinOp::Ne), l, r, ls, rs, span)
            if matches!(**l, CExpr::Pos(_)) || matches!(**r, CExpr::Pos(_)) =>
        {
            return compare_position(cx, store, f, (*op, l, r), (ls, rs, span));
        }
        CExpr::Bin(op, l, r, ls, rs, span) => {
            let a = eval(cx, store, f, l)?;
            let b = eval(cx, store, f, r)?;
            if let (Value::Int(x), Value::Int(y)) = (&a, &b)
                && let Some(v) = int_op(cx, *op, *x, *y, span)?
            {
                return Ok(v);
            }
            cx.binary_values(store, *op, a, b, (ls, rs), span)?
        }
        CExpr::And(l, r, ls, rs) => {
            Value::Bool(truth(cx, store, f, l, ls)? && truth(cx, store, f, r, rs)?)
        }
        CExpr::Or(l, r, ls, rs) => {
            Value::Bool(truth(cx, store, f, l, ls)? || truth(cx, store, f, r, rs)?)
        }
        CExpr::Not(x, span) => Value::Bool(!truth(cx, store, f, x, span)?),
        CExpr::Neg(x, span) => {
            let v = eval(cx, store, f, x)?;
            cx.negate(store, v, span, span)?
        }
        CExpr::If(c, t, o, span) => {
            if truth(cx, store, f, c, span)? {
                eval(cx, store, f, t)?
            } else {
                eval(cx, store, f, o)?
            }
        }
        CExpr::Index(t, i, tspan, ispan) => {
            let v = eval(cx, store, f, t)?;
            if let Value::Board(b) = &v {
                let at = eval(cx, store, f, i)?;
                return cx.board_cell(b, &at, ispan);
            }
            let k = int(cx, store, f, i, ispan)?;
            cx.index(&v, k, tspan, ispan)?
        }
        CExpr::List(items) => {
            let mut v = Vec::with_capacity(items.len());
            for x in items {
                v.push(eval(cx, store, f, x)?);
            }
            Value::List(Rc::new(v))
        }
        CExpr::Tuple(items) => {
            let mut v = Vec::with_capacity(items.len());
            for x in items {
                v.push(eval(cx, store, f, x)?);
            }
            Value::Tuple(Rc::new(v))
        }
        CExpr::Nimber(x, span, inner) => match eval(cx, store, f, x)? {
            Value::Int(n) if (0..=u32::MAX as i64 - 2).contains(&n) => {
                Value::Game(store.nimber(n as u32))
            }
            Value::Int(n) => {
                return Err(cx.err(crate::error::not_a_nimber(n), span));
            }
            other => {
                return Err(cx.err(
                    EvalError::cannot(Operation::Nimber, other.type_name()),
                    inner,
                ));
            }
        },
        CExpr::Let(s, v, body) => {
            let x = eval(cx, store, f, v)?;
            f.slots[*s as usize] = x;
            eval(cx, store, f, body)?
        }
        CExpr::Builtin(id, args, exprs, span) => {
            let mut vals = Vec::with_capacity(args.len());
            for a in args {
                vals.push(eval(cx, store, f, a)?);
            }
            builtins::call(cx, store, crate::catalog::get(*id), vals, exprs, span)?
        }
        CExpr::Pos(call) => {
            let mut key = std::mem::take(&mut cx.rules.key_buf);
            let p = call
                .key(store, &f.slots, &mut key)
                .then(|| store.positions.intern_words(&key));
            cx.rules.key_buf = key;
            match p {
                Some(p) => Value::Game(store.position(p)),
                None => interpret(cx, store, f, &call.expr, &call.names)?,
            }
        }
        CExpr::Interp(expr, names) => interpret(cx, store, f, expr, names)?,
    })
}

/// `l == r` or `l != r` where one side is a ruleset position: a position whose row is valued
/// already is compared with a game by its class from the row's table, with no position made
/// (`[i for i in 0..n if wu(n, s, i) == 0]`). Anything else goes the general way. A known
/// position cannot fail to evaluate, so the operands' errors come in the general order.
#[inline]
fn compare_position(
    cx: &mut Cx,
    store: &mut Store,
    f: &mut Frame,
    (op, l, r): (BinOp, &CExpr, &CExpr),
    (ls, rs, span): (&Span, &Span, &Span),
) -> Result<Value, Error> {
    let (a, b) = match known_code(cx, store, f, l) {
        Some(code) => {
            // Against a nimber, the codes say it: nimbers are their own codes. A
            // constant (`== 0`) is read in place: its value returned through `eval`
            // was read back before its store had landed, a stall each turn.
            let against =
                |n: u32| Value::Bool((Codec::nimber(code) == Some(n)) == (op == BinOp::Eq));
            if let CExpr::Const(v) = r
                && let Some(n) = nimber_of(store, v)
            {
                return Ok(against(n));
            }
            let b = eval(cx, store, f, r)?;
            if let Some(n) = nimber_of(store, &b) {
                return Ok(against(n));
            }
            let c = cx.decode(code);
            if let Some(same) = same_as(cx, store, c, &b, rs)? {
                return Ok(Value::Bool(same == (op == BinOp::Eq)));
            }
            (eval(cx, store, f, l)?, b)
        }
        None => {
            let a = eval(cx, store, f, l)?;
            if let Some(code) = known_code(cx, store, f, r)
                && let Some(same) = same_as(cx, store, cx.decode(code), &a, ls)?
            {
                return Ok(Value::Bool(same == (op == BinOp::Eq)));
            }
            (a, eval(cx, store, f, r)?)
        }
    };
    cx.binary_values(store, op, a, b, (ls, rs), span)
}

/// `x op y` on integers where compiled code answers it in place (`None`: division by zero,
/// `**`, the bit operators and the rest go to `Cx::binary_values`).
#[inline(always)]
fn int_op(cx: &Cx, op: BinOp, x: i64, y: i64, span: &Span) -> Result<Option<Value>, Error> {
    let overflow = |cx: &Cx| {
        cx.err(
            EvalError::Overflow {
                op: op.symbol().into(),
            },
            span,
        )
    };
    Ok(match op {
        BinOp::Add => Some(Value::Int(x.checked_add(y).ok_or_else(|| overflow(cx))?)),
        BinOp::Sub => Some(Value::Int(x.checked_sub(y).ok_or_else(|| overflow(cx))?)),
        BinOp::Mul => Some(Value::Int(x.checked_mul(y).ok_or_else(|| overflow(cx))?)),
        BinOp::Lt => Some(Value::Bool(x < y)),
        BinOp::Le => Some(Value::Bool(x <= y)),
        BinOp::Gt => Some(Value::Bool(x > y)),
        BinOp::Ge => Some(Value::Bool(x >= y)),
        BinOp::Eq => Some(Value::Bool(x == y)),
        BinOp::Ne => Some(Value::Bool(x != y)),
        BinOp::Div | BinOp::Rem if y != 0 => Some(Value::Int(
            if op == BinOp::Div {
                x.checked_div_euclid(y)
            } else {
                x.checked_rem_euclid(y)
            }
            .ok_or_else(|| overflow(cx))?,
        )),
        _ => None,
    })
}

/// The nimber `v` stands for as a game, when it is plainly one (`0`, a nimber's game).
pub(super) fn nimber_of(store: &Store, v: &Value) -> Option<u32> {
    match v {
        Value::Int(0) => Some(0),
        Value::Game(g) => match store.node(*g) {
            loony_core::game::Node::Nimber(n) => Some(n),
            _ => None,
        },
        _ => None,
    }
}

/// The memo code of the class of `e` when it is a ruleset position whose row's table holds
/// it already (and its class is a value): found from its key, without making the position.
pub(super) fn known_code(cx: &mut Cx, store: &mut Store, f: &Frame, e: &CExpr) -> Option<u32> {
    let CExpr::Pos(call) = e else {
        return None;
    };
    // A ruleset without a row has no table to read: its key would be made here for nothing
    // and again by the general path, at every turn.
    let compiled = cx.rules.compiled.get(call.rid as usize);
    if compiled.is_none_or(|c| c.as_ref().is_none_or(|c| c.row.is_none())) {
        return None;
    }
    let mut key = std::mem::take(&mut cx.rules.key_buf);
    let c = call
        .key(store, &f.slots, &mut key)
        .then(|| cx.row_key_code(&key))
        .flatten()
        .filter(|&code| Codec::determined(code));
    cx.rules.key_buf = key;
    c
}

/// Whether a game of value `c` equals `v`, as `==` says, when `v` is a game or an integer
/// (`None` for any other value, which `==` treats otherwise).
pub(super) fn same_as(
    cx: &mut Cx,
    store: &mut Store,
    c: Class,
    v: &Value,
    span: &Span,
) -> Result<Option<bool>, Error> {
    if !matches!(v, Value::Int(_) | Value::Game(_)) {
        return Ok(None);
    }
    let g = cx.as_game(store, v, span)?;
    let w = cx
        .game_value(store, g)
        .map_err(|e| e.or_at(cx.scope.file, span.clone()))?;
    Ok(Some(crate::games::same_value(c, w)))
}

/// `expr` evaluated by the interpreter, with the frame's `names` bound (in order: later names
/// shadow earlier ones).
pub(super) fn interpret(
    cx: &mut Cx,
    store: &mut Store,
    f: &Frame,
    expr: &Expr,
    names: &[(Rc<str>, u16)],
) -> Result<Value, Error> {
    let base = cx.scope.locals.len();
    for (n, s) in names {
        cx.scope
            .locals
            .push((n.clone(), f.slots[*s as usize].clone()));
    }
    let r = cx.eval(store, expr);
    cx.scope.locals.truncate(base);
    r
}
