//! Dense rows at run time: a position of a ruleset whose moves stay in one row
//! ([`super::intcode::RowShape`]) is valued by listing the row from its coordinates
//! ([`loony_graph::row::explore`]) and labelling it ([`loony_theory::loopy::row::label`]),
//! with no key interned and no hash per position. The classes found are kept per row (the
//! ruleset and its fixed arguments) in a table indexed by coordinates, so every later position
//! of the row (`[wu(n, s, i) for i in 0..n]`) is one look-up.
//!
//! A row whose moves all step down (`s(a - k, b, c)`, and sums such as Kayles'
//! `kayles(a) + kayles(n - t - a)`) is valued over the box below the position instead
//! ([`loony_graph::row_box`], [`loony_theory::loopy::row::label_box`]), reading what the row's
//! table knows; a row of sums that the box cannot hold is left to the explorer.
//!
//! The row is chosen from the ruleset's shape alone. What the row cannot hold exactly (a
//! coordinate below zero or too large for the box, an argument or a computation the register
//! code leaves to the tree, a sum on a cycle) is found while walking it, before any value is
//! given, and the game is then valued by the explorer as every other game is.

use super::intcode::{ARGS, RowShape};
use crate::cx::Cx;
use crate::error::EvalError;
use loony_core::class::Class;
use loony_core::diag::{CoreError, Error};
use loony_core::game::{GameId, Node, Store};
use loony_core::positions::{PosId, PosTable};
use loony_graph::row::{self, Grid, RowEnd, RowOptions, RowSource};
use loony_graph::row_box::RowBox;
use loony_graph::torus::Torus;
use loony_theory::loopy::row::{RowGamma, RowLabel, SET, label_box, label_torus};
use loony_theory::loopy::{INF, Labeller};
use std::sync::atomic::{AtomicBool, Ordering};

pub(crate) mod tables;

/// The text of the last class [`Cx::print_row_position`] printed, by its memo code.
#[derive(Default)]
pub(crate) struct PrintMemo {
    code: Option<u32>,
    text: String,
}

/// A row position taken apart: its fixed arguments' words and its coordinates (on the stack:
/// every element of `[wu(n, s, i) for i in 0..n]` is taken apart once).
struct Split {
    words: [u32; ARGS],
    fixed_len: usize,
    coords: [i64; ARGS],
    coords_len: usize,
}

impl Split {
    const EMPTY: Split = Split {
        words: [0; ARGS],
        fixed_len: 0,
        coords: [0; ARGS],
        coords_len: 0,
    };

    fn fixed(&self) -> &[u32] {
        &self.words[..self.fixed_len]
    }

    fn at(&self) -> &[i64] {
        &self.coords[..self.coords_len]
    }
}

/// Takes `pos` apart into `s` (written in place: the struct is a few hundred bytes, and this runs
/// for every element of a printed table); `false` if it is not a position of the row.
fn split(store: &Store, shape: &RowShape, pos: PosId, s: &mut Split) -> bool {
    // A ruleset of more arguments has no register code, so no row.
    match store.positions.plain_words(pos) {
        Some((n, words)) if n == shape.coord.len() && n <= ARGS => split_words(shape, words, s),
        _ => false,
    }
}

/// As [`split`], from a plain key's argument words in argument order.
fn split_words(shape: &RowShape, words: impl Iterator<Item = u32>, s: &mut Split) -> bool {
    s.fixed_len = 0;
    s.coords_len = shape.coords;
    for (w, c) in words.zip(&shape.coord) {
        match c {
            None => {
                s.words[s.fixed_len] = w;
                s.fixed_len += 1;
            }
            // A coordinate is a small integer, at least zero.
            Some(c) if w & 1 == 0 && (w as i32) >= 0 => s.coords[*c] = ((w as i32) >> 1) as i64,
            Some(_) => return false,
        }
    }
    true
}

/// The register code listing a row's positions.
struct Lister<'a> {
    code: &'a super::intcode::IntCode,
    shape: &'a RowShape,
    stop: &'a AtomicBool,
    store: &'a mut Store,
    regs: &'a mut super::intcode::Regs,
    fixed: &'a [u32],
    /// What the row knows already.
    table: Option<&'a Grid>,
    /// The rules as moves, when they have them: then the register code is not run.
    moves: Option<loony_graph::moves::Moves>,
}

impl RowSource for Lister<'_> {
    fn list(&mut self, at: &[i64], out: &mut RowOptions) -> bool {
        if let Some(m) = &self.moves {
            return m.list(at, out);
        }
        let row = (self.shape, self.fixed);
        self.code
            .list_row(row, self.stop, self.store, self.regs, at, out)
    }
    fn known(&mut self, at: &[i64]) -> Option<u32> {
        self.table?.get(at)
    }
    fn moves(&self) -> Option<&loony_graph::moves::Moves> {
        self.moves.as_ref()
    }
    fn interrupted(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl Cx {
    /// The class of ruleset position `pos` if its row's table holds it.
    pub(crate) fn row_table_class(&self, store: &Store, pos: PosId) -> Option<Class> {
        Some(self.decode(self.row_table_code(store, pos)?))
    }

    /// The memo code of ruleset position `pos`'s class if its row's table holds it.
    fn row_table_code(&self, store: &Store, pos: PosId) -> Option<u32> {
        let rid = store.positions.ruleset(pos);
        // A ruleset not compiled yet has no row valued (and a borrow spares a count per look-up).
        let comp = self.rules.compiled.get(rid as usize)?.as_ref()?;
        let shape = comp.row.as_ref()?;
        let mut s = Split::EMPTY;
        if !split(store, shape, pos, &mut s) {
            return None;
        }
        self.row_code(PosTable::header(rid, shape.coord.len()), &s)
    }

    /// The memo code of the class of the position whose key is `key` (a header and argument
    /// words in argument order, as [`PosTable::intern_words`] takes them) from its row's
    /// table, without interning it: a comparison over a row (`wu(n, s, i) == 0` for every
    /// `i`) needs no position made once the row is valued.
    pub(crate) fn row_key_code(&self, key: &[u32]) -> Option<u32> {
        let comp = self.rules.compiled.get((key[0] >> 8) as usize)?.as_ref()?;
        let shape = comp.row.as_ref()?;
        if (key[0] & 0xFF) as usize != shape.coord.len()
            || key.len() != shape.coord.len() + 1
            || shape.coord.len() > ARGS
            || key[1..]
                .iter()
                .any(|&w| loony_core::positions::is_inline(w))
        {
            return None;
        }
        let mut s = Split::EMPTY;
        if !split_words(shape, key[1..].iter().copied(), &mut s) {
            return None;
        }
        self.row_code(key[0], &s)
    }

    /// The class a memo code stands for.
    pub(crate) fn decode(&self, code: u32) -> Class {
        self.engines.memo.codec.decode(code)
    }

    /// The class of ruleset position `pos` through its row, or `None` when it is not in one
    /// (or its row cannot be held exactly: the caller explores it).
    pub(crate) fn row_class(
        &mut self,
        store: &mut Store,
        pos: PosId,
    ) -> Result<Option<Class>, Error> {
        let rid = store.positions.ruleset(pos);
        let comp = self.compiled(rid);
        let (Some(shape), Some(code)) = (&comp.row, &comp.fast) else {
            return Ok(None);
        };
        let mut s = Split::EMPTY;
        if !split(store, shape, pos, &mut s) {
            return Ok(None);
        }
        let header = PosTable::header(rid, shape.coord.len());
        if let Some(c) = self.row_known(header, &s) {
            return Ok(Some(c));
        }
        let spent = self.limits.explored + (store.positions.heavy - self.limits.heavy_at_start);
        let budget = self.limits.budget.saturating_sub(spent);
        // The box may hold a few cells for each position the budget allows.
        let most_cells = budget.saturating_mul(4).max(1 << 16);
        let _what = loony_core::memory::building("the graph of this game's positions");
        let moves = code.moves((shape, s.fixed()), store);
        // A row whose moves all step down is valued over the box below the position, with no
        // graph built; anything the box cannot hold (a heap going negative) is walked instead,
        // and a row of sums is left to the explorer.
        if let Some(m) = &moves {
            // A one-heap row read upwards (`[kayles(n) for n in 0..=3000]`) grows its box by
            // doubling, not one heap a time.
            let mut tops = vec![s.at().to_vec()];
            if let [n] = *s.at()
                && n > 0
                && self
                    .row_known(
                        header,
                        &Split {
                            coords: [n - 1; ARGS],
                            coords_len: 1,
                            ..s
                        },
                    )
                    .is_some()
            {
                tops.insert(0, vec![n.saturating_mul(2)]);
            }
            for top in &tops {
                let Some(mut b) = RowBox::new(m, top, budget, most_cells) else {
                    continue;
                };
                self.known_into(header, &s, &mut b);
                let stop = self.limits.interrupt.clone();
                match label_box(&mut b, &mut || stop.load(Ordering::Relaxed)) {
                    Ok(labelled) => {
                        self.limits.explored += labelled;
                        return Ok(Some(self.keep_box(header, &s, b)));
                    }
                    Err(RowEnd::Interrupted) => return Err(Error::new(CoreError::Interrupted)),
                    Err(_) => {}
                }
            }
        }
        if shape.sums {
            return Ok(None);
        }
        // A row on a torus (every move shifts the coordinates, some reduced modulo fixed
        // arguments) is labelled from its rules, with no graph stored, when its root fills a
        // good part of the box and the labeller's arrays (10 bytes a cell, 12 a member) and
        // the row's table (a power-of-two box of words), which come at once, fit the memory
        // budget; otherwise it is walked (the walk grows its arrays as it goes, and stops at
        // the budget).
        if let Some(m) = moves.as_ref().filter(|m| m.plain())
            && let Some(mut t) = Torus::new(m, s.at(), most_cells)
            && loony_core::memory::room_for(t.cells() * 18)
        {
            let stop = self.limits.interrupt.clone();
            match t.reach(budget, &mut || stop.load(Ordering::Relaxed)) {
                Ok(())
                    if (t.members.len() * 4 >= t.cells() || t.cells() <= 1 << 16)
                        && loony_core::memory::room_for(t.cells() * 18 + t.members.len() * 12) =>
                {
                    let (reached, root) = (t.members.len(), t.members[0]);
                    let Some(lab) = label_torus(&mut t, &mut || stop.load(Ordering::Relaxed))
                    else {
                        return Err(Error::new(CoreError::Interrupted));
                    };
                    self.limits.explored += reached;
                    return Ok(Some(self.keep_torus(header, &s, &t, &lab, root)));
                }
                Ok(()) | Err(RowEnd::Outside | RowEnd::Declined) => {}
                Err(RowEnd::Interrupted) => return Err(Error::new(CoreError::Interrupted)),
                Err(RowEnd::Budget(at)) => {
                    return Err(self.row_runaway(store, rid, shape, &s, &at));
                }
            }
        }
        let walked = {
            let table = self
                .engines
                .rows
                .rows
                .get(&header)
                .and_then(|v| v.iter().find(|(f, _)| f == s.fixed()))
                .map(|(_, t)| t);
            let mut lister = Lister {
                moves: moves.filter(|m| m.plain()),
                table,
                code,
                shape,
                stop: &self.limits.interrupt,
                store,
                regs: &mut self.rules.int_regs,
                fixed: s.fixed(),
            };
            row::explore(&mut lister, s.at(), budget, most_cells)
        };
        let g = match walked {
            Ok(g) => g,
            Err(RowEnd::Outside | RowEnd::Declined) => return Ok(None),
            Err(RowEnd::Interrupted) => return Err(Error::new(CoreError::Interrupted)),
            Err(RowEnd::Budget(at)) => return Err(self.row_runaway(store, rid, shape, &s, &at)),
        };
        let stop = self.limits.interrupt.clone();
        let codec = &self.engines.memo.codec;
        let known = |code: u32| codec.decode(code);
        let labelled =
            loony_theory::loopy::row::label(&g, &known, &mut || stop.load(Ordering::Relaxed));
        let gamma = match labelled {
            RowLabel::Done(gm) => gm,
            RowLabel::Open => return Ok(None),
            RowLabel::Interrupted => return Err(Error::new(CoreError::Interrupted)),
        };
        self.limits.explored += g.len();
        // Only the coordinates are read from here on: the options go before the row's table
        // grows.
        let mut g = g;
        let coords = std::mem::take(&mut g.coords);
        drop(g);
        self.keep_walked(header, &s, shape.coords, &coords, &gamma);
        Ok(Some(gamma.class(0)))
    }

    /// Keeps the classes of a walked row's positions (their coordinates, `k` a position, and
    /// their γ) in the row's table, grown to hold them.
    fn keep_walked(&mut self, header: u32, s: &Split, k: usize, coords: &[i32], gamma: &RowGamma) {
        // Memo codes: one per distinct A-set, nimbers as they are.
        let eng = &mut self.engines;
        let codec = &mut eng.memo.codec;
        let sets: Vec<u32> = gamma
            .sets
            .iter()
            .map(|a| codec.encode(&Class::loopy(a.clone())).unwrap_or(Grid::NONE))
            .collect();
        let mut top = vec![0i64; k];
        for c in coords.chunks_exact(k) {
            for (t, &x) in top.iter_mut().zip(c) {
                *t = (*t).max(x as i64);
            }
        }
        // The row's own box held these coordinates.
        let entries = eng.rows.grown(header, s.fixed(), &top);
        let mut at = vec![0i64; k];
        for (u, c) in coords.chunks_exact(k).enumerate() {
            for (a, &x) in at.iter_mut().zip(c) {
                *a = x as i64;
            }
            let l = gamma.label[u];
            let v = if l & SET != 0 {
                sets[(l & !SET) as usize]
            } else {
                codec.encode(&Class::Nimber(l)).unwrap_or(Grid::NONE)
            };
            let cell = entries.cell(&at).expect("the table was grown to the row");
            entries.cells[cell] = v;
        }
    }

    /// Keeps the classes of a labelled torus's members in the row's table; the class of its
    /// root (cell `root`).
    fn keep_torus(
        &mut self,
        header: u32,
        s: &Split,
        t: &Torus,
        lab: &Labeller,
        root: u32,
    ) -> Class {
        let eng = &mut self.engines;
        let codec = &mut eng.memo.codec;
        let k = s.coords_len;
        let top: Vec<i64> = t.side.iter().map(|x| x - 1).collect();
        let entries = eng.rows.grown(header, s.fixed(), &top);
        // Memo codes by nimber, and for the A-set met last (consecutive ∞ cells share it).
        let mut nimbers: Vec<u32> = Vec::new();
        let mut last_set = ((u32::MAX, 0), Grid::NONE);
        let mut at = vec![0i64; k];
        // The members are the cells the labeller labelled (in cell order).
        for u in (0..t.cells() as u32).filter(|&u| lab.is_member(u as usize)) {
            let r = lab.result(u as usize);
            let v = if r.label == INF {
                if r.a != last_set.0 {
                    let a = Class::loopy(lab.set(r.a).to_vec());
                    last_set = (r.a, codec.encode(&a).unwrap_or(Grid::NONE));
                }
                last_set.1
            } else {
                let n = r.label as usize;
                while nimbers.len() <= n {
                    let c = Class::Nimber(nimbers.len() as u32);
                    nimbers.push(codec.encode(&c).unwrap_or(Grid::NONE));
                }
                nimbers[n]
            };
            t.coords(u, &mut at);
            let cell = entries.cell(&at).expect("the table was grown to the torus");
            entries.cells[cell] = v;
        }
        let root = lab.result(root as usize);
        if root.label == INF {
            Class::loopy(lab.set(root.a).to_vec())
        } else {
            Class::Nimber(root.label)
        }
    }

    /// Writes the nimbers the row's table knows into box `b`, which then labels only the rest.
    fn known_into(&self, header: u32, s: &Split, b: &mut RowBox) {
        let Some((_, t)) = self
            .engines
            .rows
            .rows
            .get(&header)
            .and_then(|v| v.iter().find(|(f, _)| f == s.fixed()))
        else {
            return;
        };
        let mut cells = std::mem::take(&mut b.grid.cells);
        b.each(|at, cell| {
            if let Some(v) = t.get(at).and_then(loony_graph::memo::Codec::nimber) {
                cells[cell] = v;
            }
        });
        b.grid.cells = cells;
    }

    /// Keeps the nimbers of a labelled box in the row's table; the class of its top position.
    fn keep_box(&mut self, header: u32, s: &Split, mut b: RowBox) -> Class {
        let root = b.grid.cell(s.at()).expect("the box holds its top");
        let top = Class::Nimber(b.grid.cells[root]);
        let codec = &mut self.engines.memo.codec;
        // Memo codes by nimber (a box's nimbers are few and small).
        let mut codes: Vec<Option<u32>> = Vec::new();
        for w in b.grid.cells.iter_mut().filter(|w| **w != Grid::NONE) {
            let v = *w as usize;
            if v >= codes.len() {
                codes.resize(v + 1, None);
            }
            *w = *codes[v].get_or_insert_with(|| {
                codec.encode(&Class::Nimber(v as u32)).unwrap_or(Grid::NONE)
            });
        }
        let rows = self.engines.rows.rows.entry(header).or_default();
        match rows.iter_mut().find(|(f, _)| f == s.fixed()) {
            None => rows.push((s.fixed().to_vec(), b.grid)),
            Some((_, t)) => {
                t.grow_to(&b.hi, usize::MAX);
                b.each(|at, cell| {
                    let c = t.cell(at).expect("the table was grown to the box");
                    t.cells[c] = b.grid.cells[cell];
                });
            }
        }
        top
    }

    fn row_known(&self, header: u32, s: &Split) -> Option<Class> {
        Some(self.decode(self.row_code(header, s)?))
    }

    /// The memo code of a row position's class, if its row's table holds it.
    fn row_code(&self, header: u32, s: &Split) -> Option<u32> {
        let (_, t) = self
            .engines
            .rows
            .rows
            .get(&header)?
            .iter()
            .find(|(f, _)| same_words(f, s.fixed()))?;
        t.get(s.at())
    }

    /// Prints the value of position game `g` into `out` when its row's table holds it, the
    /// text of the last class printed kept in `memo`; false (and `out` as it was) otherwise,
    /// for the general way. A printed table of 10⁶ positions holds a few distinct classes:
    /// each is decoded and formatted once, not once an element.
    pub(crate) fn print_row_position(
        &self,
        store: &Store,
        g: GameId,
        memo: &mut PrintMemo,
        out: &mut String,
    ) -> bool {
        let Node::Position { pos, .. } = store.node(g) else {
            return false;
        };
        let Some(code) = self.row_table_code(store, pos) else {
            return false;
        };
        if memo.code != Some(code) {
            let c = self.engines.memo.codec.decode(code);
            memo.text.clear();
            // A class with no value (partizan, undetermined) goes the general way, which
            // says why.
            if !c.is_determined() || !c.show_into(self.out.notation.ascii, &mut memo.text) {
                memo.code = None;
                return false;
            }
            memo.code = Some(code);
        }
        out.push_str(&memo.text);
        true
    }

    /// The budget error of a row, naming the position that passed it as the explorer would.
    fn row_runaway(
        &mut self,
        store: &mut Store,
        rid: u32,
        shape: &RowShape,
        s: &Split,
        at: &[i64],
    ) -> Error {
        let mut key = vec![PosTable::header(rid, shape.coord.len())];
        let mut fixed = s.fixed().iter();
        for c in &shape.coord {
            key.push(match c {
                Some(c) => PosTable::int_word(at[*c]).unwrap_or(0),
                None => *fixed.next().unwrap_or(&0),
            });
        }
        let p = store.positions.intern_words(&key);
        let g = store.position(p);
        let last = loony_core::game::display::form(store, g, Default::default());
        Error::new(EvalError::Runaway {
            ruleset: store.ruleset_name(rid).to_string(),
            budget: self.limits.budget,
            last,
            heavy: 0,
        })
    }
}

/// Two rows' fixed words are equal (a few words: compared in place, where slice equality
/// calls `memcmp` once per element of a printed table).
fn same_words(a: &[u32], b: &[u32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}
