//! Ruleset positions as compact keys, for the whole session.
//!
//! A position of a compiled ruleset is a `u32` id for its key: a header word (ruleset id and
//! the number of words after it) and the words of its arguments — a small integer in place, a
//! tuple of a few small integers in place too (a marker word, then its elements), and so a
//! list in rulesets without register code, and a board whose free cells are one kind (as a
//! bit mask); anything else (a list the register code holds, a longer or nested one, a large
//! integer, any other board) as the id of a value interned once
//! ([`super::compounds`]). A list argument passed on
//! unchanged from position to position (`wu(n, s, i)`'s `s`) is recognised by its allocation,
//! so it is neither copied nor rehashed per position. A key whose last argument is a small
//! integer is kept in a row of its prefix, indexed by that integer (neighbouring positions side
//! by side, 12 bytes a position or so; in pages when the row jumps across a long span); other
//! keys are kept whole in a hash table. A ruleset whose moves pass its last argument on
//! unchanged keeps another argument last (its lead), so that its rows still index positions
//! by what moves change. The table
//! belongs to the game store: a position's game id is its key's id, marked
//! (`GameId::position`), and no store node is made for it.

use crate::board::{BLOCKED, Board};
use crate::compounds::{ArgValue, Compounds, Shape};
use crate::game::Arg;
use hashbrown::HashTable;
use std::rc::Rc;

pub type PosId = u32;

pub(super) const SMALL: i64 = 1 << 30;

// Key words: a small integer `n` is `n << 1` (even); an interned compound argument is
// `id << 2 | 1`; a tuple of at most `INLINE_MOST` small integers is kept in place, as a marker
// `(len << 1 | 0) << 2 | 3` followed by its elements' words, so positions of a ruleset over
// tuples (`t((a, b))`) are keyed like those over integers (`t(a, b)`), in rows, with nothing
// interned. So is such a list (marker `(len << 1 | 1) << 2 | 3`) in the keys of a ruleset
// without register code (see [`PosTable::set_lists_in_place`]); the register code holds a
// list as its compound's word. Rulesets of more than `INLINE_ARITY` arguments intern every
// tuple and list, so that a key never outgrows the 255 words its header can count.
//
// A board of at most 128 cells whose free cells all hold one kind (Cram's) is kept in place
// too, as a board marker `(len << 3 | 0x80) | 3`, a word of its rows, columns and kind, and
// its free cells as a bit mask in `len - 1` words: a few words where a board interned as a
// compound costs its allocation and an index entry besides (most positions of a board game
// are such boards, and held for the whole session).
const INLINE_MOST: usize = 8;
const BOARD_MARK: u32 = 0x80;
const INLINE_ARITY: usize = 28;

#[derive(Default)]
pub struct PosTable {
    /// Where each position's key is: `(ROW | row, last word)` for a key kept in a row,
    /// `(place in words, 0)` for one kept whole.
    loc: Vec<(u32, u32)>,
    /// Whole keys, and the prefixes of the rows.
    words: Vec<u32>,
    /// Whole keys: (position, place in `words`).
    table: HashTable<(u32, u32)>,
    /// Keys whose last argument is a small integer, grouped by everything before it (the
    /// prefix): a row indexes its positions by that integer directly. Neighbouring positions
    /// (`wu(n, s, i - 1)`, `s(a, b, c - 2)`, `kayles(n - 3)`) then sit side by side, and a
    /// lookup reads one short hash (the prefix's, usually cached) and one array slot instead
    /// of a probe through a table as large as the graph.
    rows: Vec<Row>,
    row_table: HashTable<u32>,
    /// The row of the prefix looked up last (moves often keep the prefix).
    last_row: u32,
    /// The pages of all paged rows: [`PAGE`] position ids each, NONE where no position is.
    pages: Vec<u32>,
    /// Slots of all rows (and directory words of paged ones), empty ones included (bounded
    /// by the positions held).
    slots: usize,
    /// The lists, tuples and large integers of keys, one id a value.
    compounds: Compounds,
    scratch: Vec<u32>,
    /// By ruleset: the argument kept last in its keys (so rows index it), when that is not
    /// the last one ([`NO_LEAD`]); see [`PosTable::set_lead`].
    lead: Vec<u8>,
    lead_scratch: Vec<u32>,
    /// By ruleset: whether its keys keep short lists in place ([`PosTable::set_lists_in_place`]).
    lists: Vec<bool>,
    /// Budget units charged for large arguments: a runaway ruleset whose argument grows
    /// (`gt(x) => gt((x, 1))`) holds quadratically many values in few positions, so the
    /// position budget counts half a unit for every value past the first 64 of a new
    /// compound argument.
    pub heavy: usize,
}

/// Positions of one prefix, by their last argument `v`: flat (`ids[v - lo]`) while the row
/// grows by steps, in pages once it would jump (see [`PosTable::paginate`]).
struct Row {
    /// The prefix's place in `words` (header word first, so its length is in it).
    at: u32,
    /// The value of `ids[0]`, or of page 0 of `dir` (then a multiple of [`PAGE`]).
    lo: i64,
    ids: Vec<u32>,
    /// A paged row's pages, one for each [`PAGE`] values of its span: its place in
    /// [`PosTable::pages`] (in pages), or NONE. Empty for a flat row.
    dir: Vec<u32>,
    count: u32,
    /// Some key of this prefix did not fit the row and was kept whole.
    spilled: bool,
}

/// Slots in a page of a paged row: one 4 KiB memory page of ids.
const PAGE_BITS: u32 = 10;
const PAGE: i64 = 1 << PAGE_BITS;

const NO_LEAD: u8 = u8::MAX;

const ROW: u32 = 1 << 31;
const NONE: u32 = u32::MAX;

/// An argument that cannot be part of a position (a game, a function, …); the index says which.
#[derive(Debug)]
pub struct BadArg(pub usize);

/// Whether a key word starts a tuple kept in place.
pub fn is_inline(w: u32) -> bool {
    w & 3 == 3
}

/// How many words the argument starting with word `w` takes.
fn arg_len(w: u32) -> usize {
    if is_inline(w) {
        1 + (w >> 3 & 0xF) as usize
    } else {
        1
    }
}

/// Whether the last argument of `key` (a header, then its arguments' words) is a board kept
/// in place.
fn ends_in_board(key: &[u32]) -> bool {
    let mut at = 1;
    while at < key.len() {
        let len = arg_len(key[at]);
        if at + len == key.len() {
            return is_board_marker(key[at]);
        }
        at += len;
    }
    false
}

/// Whether the marker word `w` starts a board kept in place.
fn is_board_marker(w: u32) -> bool {
    is_inline(w) && w & BOARD_MARK != 0
}

/// The key words of board `b` kept in place, appended to `key`; false (nothing appended) for
/// a board of more than 128 cells, or whose free cells are not all one kind.
fn push_board(key: &mut Vec<u32>, b: &Board) -> bool {
    let Some((kind, free)) = b.free_of_one_kind() else {
        return false;
    };
    push_mask(key, (b.rows(), b.cols(), kind, free));
    true
}

/// The key words of a board given as its shape, kind of free cell and free cells (at most 128
/// cells, at least one free), as [`push_board`] writes that board.
fn push_mask(key: &mut Vec<u32>, (rows, cols, kind, free): (usize, usize, u8, u128)) {
    let n = (rows * cols).div_ceil(32);
    key.push(BOARD_MARK | ((1 + n as u32) << 3) | 3);
    key.push(rows as u32 | (cols as u32) << 8 | u32::from(kind) << 16);
    key.extend((0..n).map(|i| (free >> (32 * i)) as u32));
}

/// The board of the words after a board marker (see [`push_board`]).
fn board_of(w: &[u32]) -> Board {
    let (rows, cols, kind) = (w[0] & 0xFF, w[0] >> 8 & 0xFF, (w[0] >> 16) as u8);
    let free = w[1..]
        .iter()
        .enumerate()
        .fold(0u128, |m, (i, &x)| m | u128::from(x) << (32 * i));
    Board::of_free(rows as usize, cols as usize, kind, free)
}

/// Whether the marker word `w` starts a list (not a tuple).
fn is_list_marker(w: u32) -> bool {
    w >> 2 & 1 == 1
}

/// Where argument `j` of `n` is kept in a key whose argument `k` is moved last (`k == n`:
/// none is).
#[inline]
fn kept_at(j: usize, k: usize, n: usize) -> usize {
    match j.cmp(&k) {
        std::cmp::Ordering::Less => j,
        std::cmp::Ordering::Equal => n - 1,
        std::cmp::Ordering::Greater => j - 1,
    }
}

/// The small integer of an even key word.
fn int_of_word(w: u32) -> i64 {
    ((w as i32) >> 1) as i64
}

pub(super) fn hash_words(w: &[u32]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    for &x in w {
        h = (h ^ x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h
}

/// Whether `v` is a small integer (one key word).
#[inline]
fn is_small<V: ArgValue>(v: &V) -> bool {
    matches!(v.shape(), Shape::Int(n) if (-SMALL..SMALL).contains(&n))
}

impl PosTable {
    pub fn len(&self) -> usize {
        self.loc.len()
    }

    pub fn is_empty(&self) -> bool {
        self.loc.is_empty()
    }

    /// A position's key: its words kept whole, or its row's prefix and its last word.
    #[inline]
    fn key(&self, p: PosId) -> (&[u32], Option<u32>) {
        let (a, b) = self.loc[p as usize];
        if a & ROW != 0 {
            let s = self.rows[(a & !ROW) as usize].at as usize;
            let n = (self.words[s] & 0xFF) as usize;
            (&self.words[s..s + n], Some(b))
        } else {
            let s = a as usize;
            let n = (self.words[s] & 0xFF) as usize;
            (&self.words[s..s + 1 + n], None)
        }
    }

    /// How many arguments a position has.
    pub fn arg_count(&self, p: PosId) -> usize {
        let mut n = 0;
        self.each_arg(p, |_| n += 1);
        n
    }

    /// Whether a position has a tuple argument kept in place (see [`PosTable::arg_words`]).
    pub fn has_inline(&self, p: PosId) -> bool {
        self.plain_arity(p).is_none()
    }

    /// The number of arguments of a position without tuples kept in place (one word each).
    #[inline]
    pub fn plain_arity(&self, p: PosId) -> Option<usize> {
        let (w, last) = self.key(p);
        let inline = w[1..].iter().any(|&x| is_inline(x)) || last.is_some_and(is_inline);
        (!inline).then_some((w[0] & 0xFF) as usize)
    }

    /// The number of arguments of a position and their key words in order, when each is one
    /// word ([`PosTable::plain_arity`] and [`PosTable::arg_words`] from one read of the key).
    #[inline]
    pub fn plain_words(&self, p: PosId) -> Option<(usize, impl Iterator<Item = u32> + '_)> {
        let (w, last) = self.key(p);
        if w[1..].iter().any(|&x| is_inline(x)) || last.is_some_and(is_inline) {
            return None;
        }
        Some(((w[0] & 0xFF) as usize, self.in_order(w, last)))
    }

    /// The value of a compound argument by its key word.
    #[inline]
    pub fn compound_of<V: ArgValue>(&self, word: u32) -> &V {
        self.compounds.get(word >> 2)
    }

    /// The table holds argument values of type `V` (the interpreter's values; else its
    /// first value's type, [`Arg`] for positions made from store arguments).
    pub fn hold<V: ArgValue>(&mut self) {
        self.compounds.hold::<V>();
    }

    /// The key words of the arguments of a position without tuples kept in place (see
    /// [`PosTable::has_inline`]), in order: [`PosTable::int_word`]s, and odd words of compounds
    /// read by [`PosTable::compound_of`].
    pub fn arg_words(&self, p: PosId) -> impl Iterator<Item = u32> + '_ {
        let (w, last) = self.key(p);
        debug_assert!(
            !self.has_inline(p),
            "arg_words of a key with a tuple in place"
        );
        self.in_order(w, last)
    }

    /// A plain key's argument words (`w` and the row's `last`) in written order.
    fn in_order<'a>(&self, w: &'a [u32], last: Option<u32>) -> impl Iterator<Item = u32> + 'a {
        let n = (w[0] & 0xFF) as usize;
        let k = self.lead_of(w[0]).filter(|&k| k < n).unwrap_or(n);
        (0..n).map(move |j| {
            let s = kept_at(j, k, n);
            w.get(s + 1)
                .copied()
                .or(last)
                .expect("a key holds all its words")
        })
    }

    /// Keys of ruleset `ruleset` keep argument `k` last, so that rows index positions by it:
    /// for a ruleset whose moves pass its last argument on unchanged, a row per value of that
    /// argument would hold one position. Set when the ruleset is defined, before any of its
    /// positions exists.
    pub fn set_lead(&mut self, ruleset: u32, k: usize) {
        let r = ruleset as usize;
        if self.lead.len() <= r {
            self.lead.resize(r + 1, NO_LEAD);
        }
        self.lead[r] = u8::try_from(k).unwrap_or(NO_LEAD);
    }

    /// The argument moved last in keys of the ruleset of this header word, if any (it is
    /// moved only in keys with more arguments than `k`).
    fn lead_of(&self, header: u32) -> Option<usize> {
        let k = *self.lead.get((header >> 8) as usize)?;
        (k != NO_LEAD).then_some(k as usize)
    }

    /// Calls `f` with the words of each argument of position `p`, in written order: one word,
    /// or a tuple's marker and its elements.
    fn each_arg(&self, p: PosId, mut f: impl FnMut(&[u32])) {
        if self.plain_arity(p).is_some() {
            // One word an argument, as `arg_words` reads them.
            for x in self.arg_words(p) {
                f(&[x]);
            }
            return;
        }
        let (w, last) = self.key(p);
        let mut words = [0u32; 256];
        let mut n = w.len() - 1;
        words[..n].copy_from_slice(&w[1..]);
        if let Some(l) = last {
            words[n] = l;
            n += 1;
        }
        let words = &words[..n];
        // Where each argument starts, in the order kept.
        let mut starts = [0u8; 257];
        let (mut a, mut i) = (0, 0);
        while i < n {
            starts[a] = i as u8;
            a += 1;
            i += arg_len(words[i]);
        }
        let end = |s: usize| if s + 1 < a { starts[s + 1] as usize } else { n };
        let k = self.lead_of(w[0]).filter(|&k| k < a).unwrap_or(a);
        for j in 0..a {
            let s = kept_at(j, k, a);
            f(&words[starts[s] as usize..end(s)]);
        }
    }

    /// The key words of argument `v` of a ruleset of `arity` arguments, appended to `key`;
    /// false for values that cannot be arguments. Every key of a position is made by this
    /// (or by [`PosTable::in_place`], [`PosTable::marker`] and [`PosTable::int_word`], which
    /// agree with it).
    pub fn push_arg<V: ArgValue>(
        &mut self,
        key: &mut Vec<u32>,
        ruleset: u32,
        arity: usize,
        v: &V,
    ) -> bool {
        match v.shape() {
            Shape::Int(n) if (-SMALL..SMALL).contains(&n) => key.push((n as i32 as u32) << 1),
            Shape::Items { list, items, .. }
                if self.in_place(ruleset, arity, list, items.len())
                    && items.iter().all(is_small) =>
            {
                key.push(Self::marker(list, items.len()));
                key.extend(items.iter().map(|x| match x.shape() {
                    Shape::Int(n) => (n as i32 as u32) << 1,
                    _ => unreachable!("checked above"),
                }));
            }
            Shape::Board(b) if push_board(key, b) => {}
            _ => match self.compounds.intern(v, &mut self.heavy) {
                Some(id) => key.push(id << 2 | 1),
                None => return false,
            },
        }
        true
    }

    /// Whether a tuple (or a list) of `len` small integers is kept in place in a key of
    /// `ruleset`, of `arity` arguments.
    pub fn in_place(&self, ruleset: u32, arity: usize, list: bool, len: usize) -> bool {
        arity <= INLINE_ARITY && len <= INLINE_MOST && (!list || self.lists_in_place(ruleset))
    }

    /// The word that starts a tuple (or a list) of `len` small integers kept in place.
    pub fn marker(list: bool, len: usize) -> u32 {
        ((len as u32) << 1 | list as u32) << 2 | 3
    }

    /// Keys of `ruleset` keep short lists of small integers in place, as they keep tuples:
    /// for a ruleset without register code (which holds a list by its compound's word), set
    /// when it is defined, before any of its positions exists.
    pub fn set_lists_in_place(&mut self, ruleset: u32) {
        let r = ruleset as usize;
        if self.lists.len() <= r {
            self.lists.resize(r + 1, false);
        }
        self.lists[r] = true;
    }

    /// Whether keys of `ruleset` keep short lists in place.
    pub fn lists_in_place(&self, ruleset: u32) -> bool {
        self.lists.get(ruleset as usize).copied().unwrap_or(false)
    }

    /// The most arguments a position may have (its key counts its words in one byte).
    pub const MOST_ARGS: usize = 255;

    /// The first word of a key: the ruleset and how many words follow (one an argument, more
    /// for a tuple kept in place).
    pub fn header(ruleset: u32, words: usize) -> u32 {
        ruleset << 8 | words as u32
    }

    /// The key word of a small integer argument.
    pub fn int_word(n: i64) -> Option<u32> {
        (-SMALL..SMALL)
            .contains(&n)
            .then_some((n as i32 as u32) << 1)
    }

    /// The id of the position of a key made of [`PosTable::header`] (with the number of
    /// words after it) and argument words.
    pub fn intern_words(&mut self, key: &[u32]) -> PosId {
        debug_assert_eq!((key[0] & 0xFF) as usize, key.len() - 1);
        self.intern_key(key)
    }

    /// The id of position `ruleset(args…)`.
    pub fn intern<V: ArgValue>(&mut self, ruleset: u32, args: &[V]) -> Result<PosId, BadArg> {
        let mut key = std::mem::take(&mut self.scratch);
        key.clear();
        key.push(0);
        for (i, a) in args.iter().enumerate() {
            if !self.push_arg(&mut key, ruleset, args.len(), a) {
                self.scratch = key;
                return Err(BadArg(i));
            }
        }
        key[0] = Self::header(ruleset, key.len() - 1);
        let id = self.intern_key(&key);
        self.scratch = key;
        Ok(id)
    }

    /// The id of position `ruleset(b)` for the board `b` of `rows × cols` cells whose free
    /// cells, all `kind`, are `free` (what `Board::of_free` makes), with no board made; `None`
    /// for a board the key cannot hold so (over 128 cells, none free, `kind` blocked).
    pub fn intern_board_mask(
        &mut self,
        ruleset: u32,
        (rows, cols, kind, free): (usize, usize, u8, u128),
    ) -> Option<PosId> {
        let n = rows * cols;
        if n == 0 || n > 128 || free == 0 || (n < 128 && free >> n != 0) || kind == BLOCKED {
            return None;
        }
        let mut key = std::mem::take(&mut self.scratch);
        key.clear();
        key.push(0);
        push_mask(&mut key, (rows, cols, kind, free));
        key[0] = Self::header(ruleset, key.len() - 1);
        let id = self.intern_key(&key);
        self.scratch = key;
        Some(id)
    }

    /// The id of a position whose arguments are all integers.
    pub fn intern_ints(&mut self, ruleset: u32, args: &[i64]) -> PosId {
        if args.iter().all(|n| (-SMALL..SMALL).contains(n)) {
            let mut key = std::mem::take(&mut self.scratch);
            key.clear();
            key.push(ruleset << 8 | args.len() as u32);
            key.extend(args.iter().map(|&n| (n as i32 as u32) << 1));
            let id = self.intern_key(&key);
            self.scratch = key;
            return id;
        }
        let args: Vec<Arg> = args.iter().map(|&n| Arg::Int(n)).collect();
        self.intern_args(ruleset, &args)
    }

    /// The id of a position given by store arguments (made values of the type the table
    /// holds, see [`PosTable::hold`]).
    pub fn intern_args(&mut self, ruleset: u32, args: &[Arg]) -> PosId {
        (self.compounds.interner())(self, ruleset, args)
    }

    fn intern_key(&mut self, key: &[u32]) -> PosId {
        if !self.lead.is_empty()
            && let Some(k) = self.lead_of(key[0])
        {
            return self.intern_moved(key, k);
        }
        self.intern_kept(key)
    }

    /// [`PosTable::intern_key`] for a key whose argument `k` is kept last.
    #[inline(never)]
    fn intern_moved(&mut self, key: &[u32], k: usize) -> PosId {
        // Argument k's words: from `at` to `end` (a tuple in place is several).
        let mut at = 1;
        for _ in 0..k {
            if at >= key.len() {
                break;
            }
            at += arg_len(key[at]);
        }
        if at >= key.len() {
            // Fewer arguments than the lead: kept as written (as `each_arg` reads it).
            return self.intern_kept(key);
        }
        let end = at + arg_len(key[at]);
        let mut moved = std::mem::take(&mut self.lead_scratch);
        moved.clear();
        moved.extend_from_slice(&key[..at]);
        moved.extend_from_slice(&key[end..]);
        moved.extend_from_slice(&key[at..end]);
        let p = self.intern_kept(&moved);
        self.lead_scratch = moved;
        p
    }

    /// [`PosTable::intern_key`] for a key in the order it is kept.
    #[inline]
    fn intern_kept(&mut self, key: &[u32]) -> PosId {
        let n = key.len() - 1;
        // Keys ending in a small integer go to their prefix's row (when rows may grow). A
        // board's last word is cells, not an integer: rows of boards were sparse pages.
        if n >= 1
            && key[n] & 1 == 0
            && !ends_in_board(key)
            && let Some(r) = self.row_of(&key[..n])
            && let Some(p) = self.in_row(r, key)
        {
            return p;
        }
        self.whole(key)
    }

    /// The row of a prefix, made if new (`None` once rows would cost more than whole keys).
    fn row_of(&mut self, prefix: &[u32]) -> Option<usize> {
        let words = &self.words;
        // Prefixes are a few words: compared in place, not by a call to memcmp. The header
        // (first word) holds the length, so equal first words mean equal lengths.
        let is = |r: &Row| {
            let s = r.at as usize;
            words[s] == prefix[0] && words[s + 1..s + prefix.len()].iter().eq(&prefix[1..])
        };
        if let Some(r) = self.rows.get(self.last_row as usize)
            && is(r)
        {
            return Some(self.last_row as usize);
        }
        let h = hash_words(prefix);
        let rows = &self.rows;
        if let Some(&r) = self.row_table.find(h, |&r| is(&rows[r as usize])) {
            self.last_row = r;
            return Some(r as usize);
        }
        // Prefixes met once each (a last argument that never varies) gain nothing from rows.
        if self.rows.len() >= 1024 && self.rows.len() * 4 > self.loc.len() {
            return None;
        }
        let r = self.rows.len() as u32;
        let at = self.words.len() as u32;
        self.words.extend_from_slice(prefix);
        self.rows.push(Row {
            at,
            lo: 0,
            ids: Vec::new(),
            dir: Vec::new(),
            count: 0,
            spilled: false,
        });
        let (words, rows) = (&self.words, &self.rows);
        self.row_table.insert_unique(h, r, |&r| {
            let s = rows[r as usize].at as usize;
            hash_words(&words[s..s + (words[s] & 0xFF) as usize])
        });
        self.last_row = r;
        Some(r as usize)
    }

    /// The position of `key` in row `r`, made there if new; `None` if the row cannot hold it
    /// (it would grow too sparse), so the key is kept whole.
    fn in_row(&mut self, r: usize, key: &[u32]) -> Option<PosId> {
        let last = key[key.len() - 1];
        let v = ((last as i32) >> 1) as i64;
        let row = &self.rows[r];
        if !row.dir.is_empty() {
            return self.in_pages(r, key, v);
        }
        let i = v - row.lo;
        let inside = (0..row.ids.len() as i64).contains(&i);
        if inside && row.ids[i as usize] != NONE {
            return Some(row.ids[i as usize]);
        }
        if row.spilled
            && let Some(p) = self.find_whole(key)
        {
            return Some(p);
        }
        if !inside {
            let row = &self.rows[r];
            let (lo, hi) = if row.ids.is_empty() {
                (v, v + 1)
            } else {
                (row.lo.min(v), (row.lo + row.ids.len() as i64).max(v + 1))
            };
            let grow = (hi - lo) as usize - row.ids.len();
            if !self.room(grow, 0) {
                // A jump (`wu(n, s, i)` moves from `i` to `n - 1`): pages hold the row's two
                // ends without the span between them.
                if self.paginate(r) {
                    return self.in_pages(r, key, v);
                }
                self.rows[r].spilled = true;
                return None;
            }
            let row = &mut self.rows[r];
            if row.ids.is_empty() {
                row.lo = v;
                row.ids.push(NONE);
            } else if v < row.lo {
                // Grown downwards with room to spare, so a row filled from the top down is
                // copied a logarithmic number of times.
                let room = (row.ids.len() as i64).min(((1 << 21) - grow as i64).max(0));
                let shift = (row.lo - v + room) as usize;
                let mut ids = Vec::with_capacity(shift + row.ids.len());
                ids.resize(shift, NONE);
                ids.extend_from_slice(&row.ids);
                row.ids = ids;
                row.lo -= shift as i64;
                self.slots += shift - grow;
            } else {
                row.ids.resize((v - row.lo + 1) as usize, NONE);
            }
            self.slots += grow;
        }
        let p = self.loc.len() as u32;
        self.loc.push((ROW | r as u32, last));
        let row = &mut self.rows[r];
        row.ids[(v - row.lo) as usize] = p;
        row.count += 1;
        Some(p)
    }

    /// Whether rows may take `grow` more slots after giving back `freed`: empty slots over
    /// all rows stay below twice the positions, plus a fixed allowance.
    fn room(&self, grow: usize, freed: usize) -> bool {
        self.slots - freed + grow <= 2 * self.loc.len() + (1 << 21)
    }

    /// Turns flat row `r` into a paged one holding the same positions; false if its pages
    /// would cost more than [`PosTable::room`] allows.
    #[inline(never)]
    fn paginate(&mut self, r: usize) -> bool {
        let row = &self.rows[r];
        let Some(top) = (row.ids.len() as i64).checked_sub(1) else {
            return false;
        };
        let lo = row.lo.div_euclid(PAGE) * PAGE;
        let span = ((row.lo + top - lo) / PAGE + 1) as usize;
        if !self.room(span * (PAGE as usize + 1), row.ids.len()) {
            return false;
        }
        self.slots = self.slots - row.ids.len() + span * (PAGE as usize + 1);
        let first = (self.pages.len() / PAGE as usize) as u32;
        self.pages
            .resize(self.pages.len() + span * PAGE as usize, NONE);
        let row = &mut self.rows[r];
        let at = first as usize * PAGE as usize + (row.lo - lo) as usize;
        self.pages[at..at + row.ids.len()].copy_from_slice(&row.ids);
        row.dir = (first..first + span as u32).collect();
        row.ids = Vec::new();
        row.lo = lo;
        true
    }

    /// [`PosTable::in_row`] for a paged row (out of line: flat rows are the common case).
    #[inline(never)]
    fn in_pages(&mut self, r: usize, key: &[u32], v: i64) -> Option<PosId> {
        let row = &self.rows[r];
        let i = v - row.lo;
        let page = (i >= 0)
            .then(|| row.dir.get((i >> PAGE_BITS) as usize).copied())
            .flatten()
            .filter(|&pg| pg != NONE);
        if let Some(pg) = page {
            let id = self.pages[(pg as i64 * PAGE + (i & (PAGE - 1))) as usize];
            if id != NONE {
                return Some(id);
            }
        }
        if row.spilled
            && let Some(p) = self.find_whole(key)
        {
            return Some(p);
        }
        if page.is_none() && !self.add_page(r, v) {
            self.rows[r].spilled = true;
            return None;
        }
        let p = self.loc.len() as u32;
        self.loc.push((ROW | r as u32, key[key.len() - 1]));
        let row = &mut self.rows[r];
        let i = v - row.lo;
        let pg = row.dir[(i >> PAGE_BITS) as usize] as i64;
        self.pages[(pg * PAGE + (i & (PAGE - 1))) as usize] = p;
        row.count += 1;
        Some(p)
    }

    /// Makes paged row `r`'s page of `v`, widening its directory to it; false if
    /// [`PosTable::room`] does not allow it.
    #[inline(never)]
    fn add_page(&mut self, r: usize, v: i64) -> bool {
        let first = v.div_euclid(PAGE) * PAGE;
        let row = &self.rows[r];
        let pages = row.dir.len() as i64;
        // The directory's new span, in pages; grown downwards with as many pages again to
        // spare, so a row filled from the top down is copied a logarithmic number of times.
        let (lo, span) = if first < row.lo {
            let lo = first - pages * PAGE;
            (lo, (row.lo - lo) / PAGE + pages)
        } else {
            (row.lo, ((first - row.lo) / PAGE + 1).max(pages))
        };
        let grow = (span - pages) as usize + PAGE as usize;
        if !self.room(grow, 0) {
            return false;
        }
        self.slots += grow;
        let row = &mut self.rows[r];
        if lo < row.lo {
            let shift = ((row.lo - lo) / PAGE) as usize;
            row.dir.splice(0..0, std::iter::repeat_n(NONE, shift));
            row.lo = lo;
        }
        row.dir.resize(span as usize, NONE);
        row.dir[((first - lo) / PAGE) as usize] = (self.pages.len() / PAGE as usize) as u32;
        self.pages.resize(self.pages.len() + PAGE as usize, NONE);
        true
    }

    fn find_whole(&self, key: &[u32]) -> Option<PosId> {
        let words = &self.words;
        let get = |s: u32| {
            let s = s as usize;
            &words[s..s + 1 + (words[s] & 0xFF) as usize]
        };
        self.table
            .find(hash_words(key), |&(_, s)| get(s) == key)
            .map(|&(p, _)| p)
    }

    fn whole(&mut self, key: &[u32]) -> PosId {
        if let Some(p) = self.find_whole(key) {
            return p;
        }
        let h = hash_words(key);
        let p = self.loc.len() as u32;
        let at = self.words.len() as u32;
        self.loc.push((at, 0));
        self.words.extend_from_slice(key);
        let words = &self.words;
        // Entries hold the key's place too: one memory access to compare, not two.
        self.table.insert_unique(h, (p, at), |&(_, s)| {
            let s = s as usize;
            hash_words(&words[s..s + 1 + (words[s] & 0xFF) as usize])
        });
        p
    }

    #[inline]
    pub fn ruleset(&self, p: PosId) -> u32 {
        self.key(p).0[0] >> 8
    }

    /// The arguments of a position, appended to `out` (lists shared, not copied).
    pub fn args<V: ArgValue>(&self, p: PosId, out: &mut Vec<V>) {
        self.each_arg(p, |w| {
            out.push(match w {
                [x] if x & 1 == 0 => V::from_int(int_of_word(*x)),
                [x] if !is_inline(*x) => self.compounds.get::<V>(x >> 2).clone(),
                [m, b @ ..] if is_board_marker(*m) => {
                    V::from_arg(&Arg::Board(Rc::new(board_of(b))))
                }
                [m, xs @ ..] => {
                    let xs = xs.iter().map(|&x| V::from_int(int_of_word(x))).collect();
                    V::from_items(is_list_marker(*m), xs)
                }
                [] => unreachable!("an argument has a word"),
            })
        });
    }

    /// The free cells of a position whose arguments are all boards of one kind of free cell,
    /// counted on their masks (no board is made); `None` when an argument is anything else.
    pub fn free_cells(&self, p: PosId) -> Option<u64> {
        let mut n = Some(0u64);
        self.each_arg(p, |w| {
            n = match (n, w) {
                (Some(k), [m, _, mask @ ..]) if is_board_marker(*m) => {
                    Some(k + mask.iter().map(|x| u64::from(x.count_ones())).sum::<u64>())
                }
                _ => None,
            }
        });
        n
    }

    /// The shape, kind of free cell and free cells of a position whose one argument is a
    /// board kept as a mask (`(rows, columns, kind, mask)`, read off its key: no board is
    /// made); `None` for any other position.
    pub fn board_mask(&self, p: PosId) -> Option<(usize, usize, u8, u128)> {
        let mut found = None;
        let mut args = 0;
        self.each_arg(p, |w| {
            args += 1;
            if let [m, dims, mask @ ..] = w
                && is_board_marker(*m)
            {
                let free = mask
                    .iter()
                    .enumerate()
                    .fold(0u128, |f, (i, &x)| f | u128::from(x) << (32 * i));
                found = Some((
                    (dims & 0xFF) as usize,
                    (dims >> 8 & 0xFF) as usize,
                    (dims >> 16) as u8,
                    free,
                ));
            }
        });
        found.filter(|_| args == 1)
    }

    /// The arguments as store arguments (for showing the position).
    pub fn store_args(&self, p: PosId) -> Vec<Arg> {
        let mut out = Vec::new();
        self.each_arg(p, |w| {
            out.push(match w {
                [x] if x & 1 == 0 => Arg::Int(int_of_word(*x)),
                [x] if !is_inline(*x) => self.compounds.arg(x >> 2),
                [m, b @ ..] if is_board_marker(*m) => Arg::Board(Rc::new(board_of(b))),
                [m, xs @ ..] => {
                    let xs = xs.iter().map(|&x| Arg::Int(int_of_word(x))).collect();
                    if is_list_marker(*m) {
                        Arg::List(xs)
                    } else {
                        Arg::Tuple(xs)
                    }
                }
                [] => unreachable!("an argument has a word"),
            })
        });
        out
    }
}

#[cfg(test)]
mod tests;
