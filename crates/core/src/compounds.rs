//! The compound arguments of ruleset positions — lists, tuples too long or nested to be kept
//! in place, large integers — one id a value, for the whole session.
//!
//! A list or tuple of small integers is found by its words (a kind-and-length word, then its
//! elements), so a list made anew at every move costs one hash of a few words, and nothing is
//! built to look it up; other values are found by their store form. A list passed on
//! unchanged from position to position is found by its allocation (the last one met, and
//! any long or nested one).
//!
//! The values are the interpreter's (`loony_lang::Value`), seen through [`ArgValue`]: the
//! table keeps them as they came (a list read back is the list passed, not a copy), in a
//! `Vec` of the one type the table holds ([`PosTable::hold`]).

use crate::game::Arg;
use crate::positions::{PosId, PosTable, SMALL, hash_words};
use hashbrown::HashTable;
use rustc_hash::FxHashMap;
use std::any::Any;
use std::rc::Rc;

/// What the position table needs to know of an argument value. The interpreter's runtime
/// value implements it; so does [`Arg`], the store's form of an argument.
pub trait ArgValue: Clone + 'static {
    /// What this value is, as far as keys care.
    fn shape(&self) -> Shape<'_, Self>;
    /// Its store form; `None` for a value that cannot be an argument (a game, a function, …).
    fn to_arg(&self) -> Option<Arg>;
    /// The value of a store form.
    fn from_arg(a: &Arg) -> Self;
    /// An integer.
    fn from_int(n: i64) -> Self;
    /// A list (`list`) or a tuple of these items.
    fn from_items(list: bool, items: Vec<Self>) -> Self;
}

/// A value as keys see it.
pub enum Shape<'a, V> {
    Int(i64),
    /// A list (`list`) or a tuple: its items and its allocation's address (which stays the
    /// same while the value is alive and is shared by its clones).
    Items {
        list: bool,
        items: &'a [V],
        address: usize,
    },
    /// A board (kept in place in a key when its free cells are one kind, see
    /// [`PosTable::push_arg`]).
    Board(&'a crate::board::Board),
    /// Anything else (a graph, or no argument at all: [`ArgValue::to_arg`] tells).
    Other,
}

impl ArgValue for Arg {
    #[inline]
    fn shape(&self) -> Shape<'_, Arg> {
        match self {
            Arg::Int(n) => Shape::Int(*n),
            Arg::List(xs) | Arg::Tuple(xs) => Shape::Items {
                list: matches!(self, Arg::List(_)),
                items: xs,
                address: Rc::as_ptr(xs) as *const () as usize,
            },
            Arg::Board(b) => Shape::Board(b),
            Arg::Graph(_) => Shape::Other,
        }
    }

    fn to_arg(&self) -> Option<Arg> {
        Some(self.clone())
    }

    fn from_arg(a: &Arg) -> Arg {
        a.clone()
    }

    fn from_int(n: i64) -> Arg {
        Arg::Int(n)
    }

    fn from_items(list: bool, items: Vec<Arg>) -> Arg {
        if list {
            Arg::List(items.into())
        } else {
            Arg::Tuple(items.into())
        }
    }
}

/// The values of a table, of its one value type `V`.
struct Held<V> {
    values: Vec<V>,
    /// The last compound looked up, kept alive when it is not one of `values` (see
    /// [`Compounds::last`]).
    last_alive: Option<V>,
}

/// [`Held`] whatever its value type: what the table asks of it without knowing the type.
trait Holds: Any {
    fn len(&self) -> usize;
    /// The store form of value `id`.
    fn arg(&self, id: u32) -> Arg;
    /// How the table interns a position given by store arguments: converted to its values.
    fn interner(&self) -> fn(&mut PosTable, u32, &[Arg]) -> PosId;
}

impl<V: ArgValue> Holds for Held<V> {
    fn len(&self) -> usize {
        self.values.len()
    }

    fn arg(&self, id: u32) -> Arg {
        self.values[id as usize]
            .to_arg()
            .expect("a compound argument")
    }

    fn interner(&self) -> fn(&mut PosTable, u32, &[Arg]) -> PosId {
        intern_as::<V>
    }
}

/// Position `ruleset(args…)` with its arguments as values of type `V`.
pub(crate) fn intern_as<V: ArgValue>(t: &mut PosTable, ruleset: u32, args: &[Arg]) -> PosId {
    let values: Vec<V> = args.iter().map(V::from_arg).collect();
    t.intern(ruleset, &values)
        .expect("store arguments are arguments")
}

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
    /// The values, by id (their store forms are made when shown): a [`Held`] of the table's
    /// value type, made by its first use or [`Compounds::hold`].
    held: Option<Box<dyn Holds>>,
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
    /// That allocation is kept alive in [`Held::last_alive`] when it is not one of the values
    /// (a list found by its words: `[1, 3, 4]` written in a loop is one allocation met at
    /// every turn), so its address cannot be reused while it is remembered.
    keeps_last: bool,
}

impl Compounds {
    pub fn len(&self) -> usize {
        self.held.as_ref().map_or(0, |h| h.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The table holds values of type `V` (made so by its first value otherwise).
    pub fn hold<V: ArgValue>(&mut self) {
        self.held::<V>();
    }

    #[inline]
    fn held<V: ArgValue>(&mut self) -> &mut Held<V> {
        let h = self.held.get_or_insert_with(|| {
            Box::new(Held::<V> {
                values: Vec::new(),
                last_alive: None,
            })
        });
        (&mut **h as &mut dyn Any)
            .downcast_mut()
            .expect("a position table holds one type of value")
    }

    /// The value of compound `id`.
    #[inline]
    pub fn get<V: ArgValue>(&self, id: u32) -> &V {
        let h = self.held.as_ref().expect("a compound");
        &(&**h as &dyn Any)
            .downcast_ref::<Held<V>>()
            .expect("a position table holds one type of value")
            .values[id as usize]
    }

    /// The store form of compound `id`.
    pub fn arg(&self, id: u32) -> Arg {
        self.held.as_ref().expect("a compound").arg(id)
    }

    /// How positions given by store arguments are interned (as values of the held type).
    pub(crate) fn interner(&self) -> fn(&mut PosTable, u32, &[Arg]) -> PosId {
        self.held
            .as_ref()
            .map_or(intern_as::<Arg>, |h| h.interner())
    }

    /// Forgets the allocation kept alive for [`Compounds::last`].
    #[inline]
    fn drop_last<V: ArgValue>(&mut self) {
        if self.keeps_last {
            self.held::<V>().last_alive = None;
            self.keeps_last = false;
        }
    }

    /// The id of compound argument `v` (a list, a tuple or a large integer), made if new;
    /// `None` for values that cannot be arguments. A new one's extra cells are added to
    /// `heavy` (see [`PosTable::heavy`](super::positions::PosTable::heavy)).
    pub fn intern<V: ArgValue>(&mut self, v: &V, heavy: &mut usize) -> Option<u32> {
        // By allocation: a list passed on unchanged is met at every option (the last one is
        // remembered); long or nested ones are also found by address, as hashing them again
        // would cost more than a probe. Short flat ones (a new list at every move, most often)
        // are found by their words.
        let (ptr, by_address) = match v.shape() {
            Shape::Items { items, address, .. } => (
                Some(address),
                items.len() > BY_ADDRESS
                    || items.iter().any(|x| !matches!(x.shape(), Shape::Int(_))),
            ),
            _ => (None, false),
        };
        if let Some(p) = ptr {
            if self.last.0 == p {
                return Some(self.last.1);
            }
            if by_address && let Some(&id) = self.by_ptr.get(&p) {
                self.last = (p, id);
                self.drop_last::<V>();
                return Some(id);
            }
        }
        let id = match self.flat(v, heavy) {
            Some((id, false)) => {
                if let Some(p) = ptr {
                    self.last = (p, id);
                    self.held::<V>().last_alive = Some(v.clone());
                    self.keeps_last = true;
                }
                return Some(id);
            }
            Some((id, true)) => id,
            None => {
                let arg = v.to_arg()?;
                if let Some(&id) = self.index.get(&arg) {
                    return Some(id);
                }
                *heavy += cells(&arg).saturating_sub(LIGHT_CELLS) / 2;
                let held = self.held::<V>();
                let id = held.values.len() as u32;
                held.values.push(v.clone());
                self.index.insert(arg, id);
                id
            }
        };
        // New, so its allocation is kept alive here.
        if let Some(p) = ptr {
            self.last = (p, id);
            self.drop_last::<V>();
            if by_address {
                self.by_ptr.insert(p, id);
            }
        }
        Some(id)
    }

    /// The id of a list or tuple of small integers, and whether it is new (then `v` is kept);
    /// `None` for any other value.
    fn flat<V: ArgValue>(&mut self, v: &V, heavy: &mut usize) -> Option<(u32, bool)> {
        let Shape::Items {
            list, items: xs, ..
        } = v.shape()
        else {
            return None;
        };
        let kind = u32::from(!list);
        let mut w = std::mem::take(&mut self.scratch);
        w.clear();
        w.push((xs.len() as u32) << 1 | kind);
        for x in xs.iter() {
            match x.shape() {
                Shape::Int(n) if (-SMALL..SMALL).contains(&n) => w.push((n as i32 as u32) << 1),
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
        *heavy += (xs.len() + 1).saturating_sub(LIGHT_CELLS) / 2;
        let held = self.held::<V>();
        let id = held.values.len() as u32;
        held.values.push(v.clone());
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

    fn list(xs: &[i64]) -> Arg {
        Arg::List(xs.iter().map(|&x| Arg::Int(x)).collect())
    }

    fn ints(v: &Arg) -> Vec<i64> {
        match v {
            Arg::List(xs) => xs
                .iter()
                .map(|x| match x {
                    Arg::Int(n) => *n,
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
            assert_eq!(ints(c.get::<Arg>(id)), vec![k, 7, 9]);
            assert_eq!(c.intern(&list(&[k, 7, 9]), &mut heavy), Some(id));
        }
    }
}
