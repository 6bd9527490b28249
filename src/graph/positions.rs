//! Ruleset positions as compact keys, for the whole session.
//!
//! A position of a compiled ruleset is a `u32` id for its key: a header word (ruleset id and
//! argument count) and one word per argument — a small integer in place, anything else (a list,
//! a tuple, a large integer) as the id of a value interned once. A list argument passed on
//! unchanged from position to position (`wu(n, s, i)`'s `s`) is recognised by its allocation,
//! so it is neither copied nor rehashed per position. Keys cost a few words; positions become
//! store forms only when shown.

use crate::eval::Value;
use crate::game::Arg;
use hashbrown::HashTable;
use rustc_hash::FxHashMap;
use std::rc::Rc;

pub type PosId = u32;

const SMALL: i64 = 1 << 30;

#[derive(Default)]
pub struct PosTable {
    words: Vec<u32>,
    start: Vec<u32>,
    table: HashTable<(u32, u32)>,
    compounds: Vec<(Arg, Value)>,
    compound_index: FxHashMap<Arg, u32>,
    /// Allocation address of a stored compound's list/tuple → its id (only for values kept
    /// alive here, so an address is never reused while cached).
    by_ptr: FxHashMap<usize, u32>,
    scratch: Vec<u32>,
    /// Positions `r(n)` with one small nonnegative integer, by ruleset then `n`: a direct
    /// index instead of a hash (heap-like rulesets make most of their positions this way).
    unary: Vec<Vec<u32>>,
    /// Budget units charged for large arguments: a runaway ruleset whose argument grows
    /// (`gt(x) => gt((x, 1))`) holds quadratically many values in few positions, so the
    /// position budget counts half a unit for every value past the first 64 of a new
    /// compound argument.
    pub heavy: usize,
}

/// Values of a compound argument that cost nothing extra (ordinary lists of heaps).
const LIGHT_CELLS: usize = 64;

/// How many values an argument holds (integers, and the lists and tuples around them).
fn cells(a: &Arg) -> usize {
    let mut n = 0;
    let mut stack = vec![a];
    while let Some(a) = stack.pop() {
        n += 1;
        if let Arg::Tuple(xs) | Arg::List(xs) = a {
            stack.extend(xs.iter());
        }
    }
    n
}

const UNARY_LIMIT: i64 = 1 << 22;

/// An argument that cannot be part of a position (a game, a function, …); the index says which.
#[derive(Debug)]
pub struct BadArg(pub usize);

fn hash_words(w: &[u32]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    for &x in w {
        h = (h ^ x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h
}

fn to_arg(v: &Value) -> Option<Arg> {
    Some(match v {
        Value::Int(n) => Arg::Int(*n),
        Value::Tuple(xs) => Arg::Tuple(xs.iter().map(to_arg).collect::<Option<_>>()?),
        Value::List(xs) => Arg::List(xs.iter().map(to_arg).collect::<Option<_>>()?),
        _ => return None,
    })
}

fn from_arg(a: &Arg) -> Value {
    match a {
        Arg::Int(n) => Value::Int(*n),
        Arg::Tuple(xs) => Value::Tuple(Rc::new(xs.iter().map(from_arg).collect())),
        Arg::List(xs) => Value::List(Rc::new(xs.iter().map(from_arg).collect())),
    }
}

impl PosTable {
    pub fn len(&self) -> usize {
        self.start.len()
    }

    pub fn is_empty(&self) -> bool {
        self.start.is_empty()
    }

    fn key(&self, p: PosId) -> &[u32] {
        let s = self.start[p as usize] as usize;
        let n = (self.words[s] & 0xFF) as usize;
        &self.words[s..s + 1 + n]
    }

    fn compound(&mut self, v: &Value) -> Option<u32> {
        let ptr = match v {
            Value::List(xs) | Value::Tuple(xs) => Some(Rc::as_ptr(xs) as usize),
            _ => None,
        };
        if let Some(p) = ptr {
            if let Some(&id) = self.by_ptr.get(&p) {
                return Some(id);
            }
        }
        let arg = to_arg(v)?;
        if let Some(&id) = self.compound_index.get(&arg) {
            return Some(id);
        }
        let id = self.compounds.len() as u32;
        self.heavy += cells(&arg).saturating_sub(LIGHT_CELLS) / 2;
        self.compound_index.insert(arg.clone(), id);
        self.compounds.push((arg, v.clone()));
        if let Some(p) = ptr {
            self.by_ptr.insert(p, id);
        }
        Some(id)
    }

    /// The id of position `ruleset(args…)`.
    pub fn intern(&mut self, ruleset: u32, args: &[Value]) -> Result<PosId, BadArg> {
        if let [Value::Int(n)] = args {
            if (0..UNARY_LIMIT).contains(n) {
                let (r, n) = (ruleset as usize, *n as usize);
                if let Some(&p) = self.unary.get(r).and_then(|v| v.get(n)) {
                    if p != u32::MAX {
                        return Ok(p);
                    }
                }
                let p = self.intern_slow(ruleset, args)?;
                if self.unary.len() <= r {
                    self.unary.resize(r + 1, Vec::new());
                }
                let v = &mut self.unary[r];
                if v.len() <= n {
                    v.resize((n + 1).max(v.len() * 2), u32::MAX);
                }
                v[n] = p;
                return Ok(p);
            }
        }
        self.intern_slow(ruleset, args)
    }

    /// The id of a position whose arguments are all integers.
    pub fn intern_ints(&mut self, ruleset: u32, args: &[i64]) -> PosId {
        if let [n] = *args {
            if (0..UNARY_LIMIT).contains(&n) {
                if let Some(&p) = self
                    .unary
                    .get(ruleset as usize)
                    .and_then(|v| v.get(n as usize))
                {
                    if p != u32::MAX {
                        return p;
                    }
                }
            }
        }
        if args.iter().all(|n| (-SMALL..SMALL).contains(n)) && args.len() > 1 {
            let mut key = std::mem::take(&mut self.scratch);
            key.clear();
            key.push(ruleset << 8 | args.len() as u32);
            key.extend(args.iter().map(|&n| (n as i32 as u32) << 1));
            let id = self.intern_key(&key);
            self.scratch = key;
            return id;
        }
        let values: Vec<Value> = args.iter().map(|&n| Value::Int(n)).collect();
        self.intern(ruleset, &values)
            .expect("integers are arguments")
    }

    fn intern_slow(&mut self, ruleset: u32, args: &[Value]) -> Result<PosId, BadArg> {
        let mut key = std::mem::take(&mut self.scratch);
        key.clear();
        key.push(ruleset << 8 | args.len() as u32);
        for (i, a) in args.iter().enumerate() {
            match a {
                Value::Int(n) if (-SMALL..SMALL).contains(n) => key.push((*n as i32 as u32) << 1),
                other => match self.compound(other) {
                    Some(id) => key.push(id << 1 | 1),
                    None => {
                        self.scratch = key;
                        return Err(BadArg(i));
                    }
                },
            }
        }
        let id = self.intern_key(&key);
        self.scratch = key;
        Ok(id)
    }

    fn intern_key(&mut self, key: &[u32]) -> PosId {
        let h = hash_words(key);
        let words = &self.words;
        // Entries hold the key's place too: one memory access to compare, not two.
        let get = |s: u32| {
            let s = s as usize;
            &words[s..s + 1 + (words[s] & 0xFF) as usize]
        };
        if let Some(&(p, _)) = self.table.find(h, |&(_, s)| get(s) == key) {
            return p;
        }
        let p = self.start.len() as u32;
        let at = self.words.len() as u32;
        self.start.push(at);
        self.words.extend_from_slice(key);
        let words = &self.words;
        self.table.insert_unique(h, (p, at), |&(_, s)| {
            let s = s as usize;
            hash_words(&words[s..s + 1 + (words[s] & 0xFF) as usize])
        });
        p
    }

    /// The id of a position given by store arguments.
    pub fn intern_args(&mut self, ruleset: u32, args: &[Arg]) -> PosId {
        let values: Vec<Value> = args.iter().map(from_arg).collect();
        self.intern(ruleset, &values)
            .expect("store arguments are integers, tuples and lists")
    }

    pub fn ruleset(&self, p: PosId) -> u32 {
        self.key(p)[0] >> 8
    }

    /// The arguments of a position, appended to `out` (lists shared, not copied).
    pub fn args(&self, p: PosId, out: &mut Vec<Value>) {
        for &w in &self.key(p)[1..] {
            out.push(if w & 1 == 0 {
                Value::Int(((w as i32) >> 1) as i64)
            } else {
                self.compounds[(w >> 1) as usize].1.clone()
            });
        }
    }

    /// The arguments as store arguments (for showing the position).
    pub fn store_args(&self, p: PosId) -> Vec<Arg> {
        self.key(p)[1..]
            .iter()
            .map(|&w| {
                if w & 1 == 0 {
                    Arg::Int(((w as i32) >> 1) as i64)
                } else {
                    self.compounds[(w >> 1) as usize].0.clone()
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_share() {
        let mut t = PosTable::default();
        let list = Value::List(Rc::new(vec![Value::Int(1), Value::Int(3), Value::Int(4)]));
        let a = t
            .intern(2, &[Value::Int(5), list.clone(), Value::Int(-7)])
            .unwrap();
        let b = t
            .intern(2, &[Value::Int(5), list.clone(), Value::Int(-7)])
            .unwrap();
        assert_eq!(a, b);
        // The same list in another allocation is the same key.
        let copy = Value::List(Rc::new(vec![Value::Int(1), Value::Int(3), Value::Int(4)]));
        assert_eq!(
            t.intern(2, &[Value::Int(5), copy, Value::Int(-7)]).unwrap(),
            a
        );
        let big = t.intern(2, &[Value::Int(1 << 40)]).unwrap();
        assert_ne!(big, a);
        assert_eq!(t.ruleset(a), 2);
        let mut out = Vec::new();
        t.args(big, &mut out);
        assert!(matches!(out[..], [Value::Int(n)] if n == 1 << 40));
        assert_eq!(
            t.store_args(a),
            vec![
                Arg::Int(5),
                Arg::List(vec![Arg::Int(1), Arg::Int(3), Arg::Int(4)].into()),
                Arg::Int(-7)
            ]
        );
        assert!(t.intern(1, &[Value::Bool(true)]).is_err());
    }
}
