//! The compound arguments of ruleset positions — lists, tuples too long or nested to be kept
//! in place, large integers — one id a value, for the whole session.
//!
//! A list or tuple of small integers is found by its words (a kind-and-length word, then its
//! elements), so a list made anew at every move costs one hash of a few words, and nothing is
//! built to look it up; other values are found by their store form. A list passed on
//! unchanged from position to position is found by its allocation (the last one met, and
//! any long or nested one).

use crate::game::Arg;
use crate::positions::{SMALL, hash_words, to_arg};
use crate::value::Value;
use hashbrown::HashTable;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Compounds longer than this (or nested) are also found by their allocation's address.
const BY_ADDRESS: usize = 16;

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

#[derive(Default)]
pub struct Compounds {
    /// The values, by id (their store forms are made when shown).
    values: Vec<Value>,
    /// Lists and tuples of small integers only, by their words in `words`: (id, place).
    table: HashTable<(u32, u32)>,
    words: Vec<u32>,
    scratch: Vec<u32>,
    /// Other compounds, by their store form.
    index: FxHashMap<Arg, u32>,
    /// Allocation address of a stored list or tuple → its id (only for values kept alive
    /// here, so an address is never reused while cached).
    by_ptr: FxHashMap<usize, u32>,
    /// The allocation and id of the compound looked up last (address 0: none).
    last: (usize, u32),
    /// That allocation kept alive when it is not one of `values` (a list found by its words:
    /// `[1, 3, 4]` written in a loop is one allocation met at every turn), so its address
    /// cannot be reused while it is remembered.
    last_alive: Option<Value>,
}

impl Compounds {
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value of compound `id`.
    pub fn get(&self, id: u32) -> &Value {
        &self.values[id as usize]
    }

    /// The id of compound argument `v` (a list, a tuple or a large integer), made if new;
    /// `None` for values that cannot be arguments. A new one's extra cells are added to
    /// `heavy` (see [`PosTable::heavy`](super::positions::PosTable::heavy)).
    pub fn intern(&mut self, v: &Value, heavy: &mut usize) -> Option<u32> {
        // By allocation: a list passed on unchanged is met at every option (the last one is
        // remembered); long or nested ones are also found by address, as hashing them again
        // would cost more than a probe. Short flat ones (a new list at every move, most often)
        // are found by their words.
        let (ptr, by_address) = match v {
            Value::List(xs) | Value::Tuple(xs) => (
                Some(Rc::as_ptr(xs) as usize),
                xs.len() > BY_ADDRESS || xs.iter().any(|x| !matches!(x, Value::Int(_))),
            ),
            _ => (None, false),
        };
        if let Some(p) = ptr {
            if self.last.0 == p {
                return Some(self.last.1);
            }
            if by_address && let Some(&id) = self.by_ptr.get(&p) {
                self.last = (p, id);
                self.last_alive = None;
                return Some(id);
            }
        }
        let id = match self.flat(v, heavy) {
            Some((id, false)) => {
                if let Some(p) = ptr {
                    self.last = (p, id);
                    self.last_alive = Some(v.clone());
                }
                return Some(id);
            }
            Some((id, true)) => id,
            None => {
                let arg = to_arg(v)?;
                if let Some(&id) = self.index.get(&arg) {
                    return Some(id);
                }
                let id = self.values.len() as u32;
                *heavy += cells(&arg).saturating_sub(LIGHT_CELLS) / 2;
                self.index.insert(arg, id);
                self.values.push(v.clone());
                id
            }
        };
        // New, so its allocation is kept alive here.
        if let Some(p) = ptr {
            self.last = (p, id);
            self.last_alive = None;
            if by_address {
                self.by_ptr.insert(p, id);
            }
        }
        Some(id)
    }

    /// The id of a list or tuple of small integers, and whether it is new (then `v` is kept);
    /// `None` for any other value.
    fn flat(&mut self, v: &Value, heavy: &mut usize) -> Option<(u32, bool)> {
        let (kind, xs) = match v {
            Value::List(xs) => (0, xs),
            Value::Tuple(xs) => (1, xs),
            _ => return None,
        };
        let mut w = std::mem::take(&mut self.scratch);
        w.clear();
        w.push((xs.len() as u32) << 1 | kind);
        for x in xs.iter() {
            match x {
                Value::Int(n) if (-SMALL..SMALL).contains(n) => w.push((*n as i32 as u32) << 1),
                _ => {
                    self.scratch = w;
                    return None;
                }
            }
        }
        let words = &self.words;
        let get = |s: u32| {
            let s = s as usize;
            &words[s..s + 1 + (words[s] >> 1) as usize]
        };
        let h = hash_words(&w);
        if let Some(&(id, _)) = self.table.find(h, |&(_, s)| get(s) == w.as_slice()) {
            self.scratch = w;
            return Some((id, false));
        }
        let id = self.values.len() as u32;
        *heavy += (xs.len() + 1).saturating_sub(LIGHT_CELLS) / 2;
        self.values.push(v.clone());
        let at = self.words.len() as u32;
        self.words.extend_from_slice(&w);
        let words = &self.words;
        self.table.insert_unique(h, (id, at), |&(_, s)| {
            let s = s as usize;
            hash_words(&words[s..s + 1 + (words[s] >> 1) as usize])
        });
        self.scratch = w;
        Some((id, true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(xs: &[i64]) -> Value {
        Value::List(Rc::new(xs.iter().map(|&x| Value::Int(x)).collect()))
    }

    fn ints(v: &Value) -> Vec<i64> {
        match v {
            Value::List(xs) => xs
                .iter()
                .map(|x| match x {
                    Value::Int(n) => *n,
                    _ => panic!("a list of integers"),
                })
                .collect(),
            _ => panic!("a list"),
        }
    }

    #[test]
    fn a_list_found_by_its_words_is_remembered_by_address_safely() {
        let mut c = Compounds::default();
        let mut heavy = 0;
        let a = c.intern(&list(&[1, 3, 4]), &mut heavy).unwrap();
        // Another allocation of the same list: found by its words, then by its address.
        let b = list(&[1, 3, 4]);
        assert_eq!(c.intern(&b, &mut heavy), Some(a));
        assert_eq!(c.intern(&b, &mut heavy), Some(a));
        // Freed by its owner, its address is not reused while it is remembered: lists of
        // the same size made now are told apart by what they hold (each compared with the
        // list made the same way and interned on its own).
        drop(b);
        for k in 0..64 {
            let other = list(&[k, 7, 9]);
            let id = c.intern(&other, &mut heavy).unwrap();
            assert_ne!(id, a, "[{k}, 7, 9]");
            assert_eq!(ints(c.get(id)), vec![k, 7, 9]);
            assert_eq!(c.intern(&list(&[k, 7, 9]), &mut heavy), Some(id));
        }
    }
}
