//! Positions as sums of their independent parts, and one position for a class of symmetric
//! ones: a ruleset's `split by` and `canonical by` clauses.
//!
//! A position of a ruleset with either clause is never kept as written: `r(x)` is the sum of
//! `r(canonical(p))` over the parts `p` that `split by` gives (the position itself when there
//! is no split; the game 0 when there are no parts). This happens where a position is made
//! (a call, an option of a rule), before it is interned, so every engine sees the parts: the
//! memo holds one entry a canonical part, and sums add by each theory's own rule (nimbers
//! under normal play, misère canonical forms, loopy and entailing values), which is sound
//! whenever the clause says what is true of the game: that it *is* the disjunctive sum of its
//! parts, and that symmetric positions are isomorphic games. Nothing here adds nimbers.
//!
//! The register code and the rows never see such a ruleset (its positions are not integers
//! in place), and a search that wants to treat a sum part by part (pruned search of
//! `G₁ + … + Gₖ + *n`) finds the parts as separate positions.

use super::catalog::BoardOp;
use super::compile::run::{self, Frame};
use super::compile::{Native, Pat};
use crate::cx::Cx;
use crate::error::EvalError;
use crate::value::Value;
use loony_core::board::Board;
use loony_core::diag::Error;
use loony_core::game::{GameId, Store};
use loony_core::positions::PosId;
use loony_graph::options::{Atom, OptBuf, OptRec};
use loony_syntax::ast::{OptionKind, Span};
use std::rc::Rc;
use subsets::Place;

pub(crate) mod canonical;
pub(crate) mod subsets;

pub(crate) use canonical::{Canonical, Region};

impl Native {
    /// The canonical parts of a position whose argument is `v`, as argument values; `None`
    /// when `v` is not what the built-ins take (the clauses then run as written and report).
    fn parts(self, v: &Value, memo: &mut Canonical) -> Option<Vec<Value>> {
        let mut canon = |x: Value| match (&x, self.canonical) {
            (Value::Board(b), true) => Value::Board(Rc::new(b.canonical())),
            (Value::Graph(g), true) => Value::Graph(memo.graph(g)),
            _ => x,
        };
        Some(match (self.split, v) {
            (None, Value::Board(_) | Value::Graph(_)) => vec![canon(v.clone())],
            (Some(BoardOp::Regions), Value::Board(b)) if self.canonical => b
                .canonical_regions()
                .into_iter()
                .map(|r| Value::Board(Rc::new(r)))
                .collect(),
            (Some(BoardOp::Regions), Value::Board(b)) => b
                .regions()
                .into_iter()
                .map(|r| canon(Value::Board(Rc::new(r))))
                .collect(),
            (Some(BoardOp::Components), Value::Graph(g)) => g
                .components()
                .into_iter()
                .map(|c| canon(Value::Graph(Rc::new(c))))
                .collect(),
            _ => return None,
        })
    }
}

/// The position of ruleset `rid` whose argument is the board `part`.
fn intern_board(store: &mut Store, rid: u32, part: Value) -> PosId {
    store
        .positions
        .intern(rid, std::slice::from_ref(&part))
        .unwrap_or_else(|_| unreachable!("boards are arguments"))
}

/// One listing's regions (key and mask) and where each option's end.
type Listing = (Vec<(Option<Region>, u128)>, Vec<usize>);

thread_local! {
    /// Kept between listings, so that each does not allocate its own.
    static LISTING: std::cell::Cell<Listing> = Default::default();
}

impl Cx {
    /// The canonical parts of the position `rid(args)` into `out`.
    pub(crate) fn parts(
        &mut self,
        store: &mut Store,
        rid: u32,
        args: Vec<Value>,
        out: &mut Vec<PosId>,
    ) -> Result<(), Error> {
        let comp = self.compiled(rid);
        let norm = comp
            .norm
            .as_ref()
            .expect("parts of a ruleset with a clause");
        if let Some(n) = norm.native
            && n.split == Some(BoardOp::Regions)
            && n.canonical
            && let Value::Board(b) = &args[0]
            && let Some((kind, masks)) = b.one_kind_regions()
        {
            for mask in masks {
                out.push(self.region_part(store, rid, b, kind, mask));
            }
            return Ok(());
        }
        let mut memo = std::mem::take(&mut self.rules.canonical);
        let native = norm.native.and_then(|n| n.parts(&args[0], &mut memo));
        self.rules.canonical = memo;
        if let Some(parts) = native {
            for part in parts {
                match store.positions.intern(rid, std::slice::from_ref(&part)) {
                    Ok(p) => out.push(p),
                    Err(_) => unreachable!("boards and graphs are arguments"),
                }
            }
            return Ok(());
        }
        let arity = norm.params.len();
        let rname = self.rules.rulesets[rid as usize].def.name.name.clone();
        let name = || rname.to_string();
        // The clauses' spans are in the ruleset's file.
        let saved_file = std::mem::replace(&mut self.scope.file, comp.file);
        let r = run::with_frame(self, norm.slots, |cx, f| {
            bind_all(cx, f, &norm.params, args.clone())?;
            let items: Vec<Vec<Value>> = match &norm.split {
                None => vec![args],
                Some((e, span)) => {
                    let v = run::eval(cx, store, f, e)?;
                    let Value::List(xs) = v else {
                        return Err(bad(
                            cx,
                            name(),
                            "split by",
                            format!("gave {}, not a list of parts", v.type_name()),
                            span,
                        ));
                    };
                    let mut items = Vec::with_capacity(xs.len());
                    for x in xs.iter() {
                        items.push(part_args(cx, x, arity, &name, "split by", span)?);
                    }
                    items
                }
            };
            for mut part in items {
                if let Some((e, span)) = &norm.canonical {
                    bind_all(cx, f, &norm.params, part)?;
                    let c = run::eval(cx, store, f, e)?;
                    part = part_args(cx, &c, arity, &name, "canonical by", span)?;
                }
                match store.positions.intern(rid, &part) {
                    Ok(p) => out.push(p),
                    Err(bad_arg) => {
                        let span = match (&norm.canonical, &norm.split) {
                            (Some((_, s)), _) | (None, Some((_, s))) => s.clone(),
                            (None, None) => 0..0,
                        };
                        return Err(bad(
                            cx,
                            name(),
                            if norm.canonical.is_some() {
                                "canonical by"
                            } else {
                                "split by"
                            },
                            format!(
                                "gave {} as an argument, which a position cannot hold",
                                part[bad_arg.0].type_name()
                            ),
                            &span,
                        ));
                    }
                }
            }
            Ok(())
        });
        self.scope.file = saved_file;
        r
    }

    /// The part of ruleset `rid` that the region `mask` of board `b` is, its free cells all
    /// `kind` (`split by regions(b) canonical by canonical(b)`): found by the region's box
    /// when met before, else made canonical and interned.
    pub(crate) fn region_part(
        &mut self,
        store: &mut Store,
        rid: u32,
        b: &Board,
        kind: u8,
        mask: u128,
    ) -> PosId {
        let r = self
            .rules
            .canonical
            .region_family(rid, kind)
            .and_then(|f| Region::of(f, b, mask));
        self.keyed_region_part(store, (rid, kind), b, mask, r)
    }

    /// The options of ruleset `rid` of `kind` whose free cells (all `free`, on board `b`) are
    /// each of `lefts`, into `out`: each the sum of its regions' parts ([`Cx::region_part`]).
    /// Every option's regions are keyed first, each slot asked for as its key is known, so
    /// that the lookups after wait for memory together rather than one by one.
    pub(crate) fn region_options(
        &mut self,
        store: &mut Store,
        (rid, kind): (u32, OptionKind),
        b: &Board,
        free: u8,
        lefts: &[u128],
        out: &mut OptBuf,
    ) {
        let (mut regions, mut ends) = LISTING.take();
        regions.clear();
        ends.clear();
        let family = self.rules.canonical.region_family(rid, free);
        for &left in lefts {
            for mask in b.regions_of_free(left) {
                let r = family.and_then(|f| Region::of(f, b, mask));
                if let Some(r) = &r {
                    self.rules.canonical.prefetch_region(r);
                }
                regions.push((r, mask));
            }
            ends.push(regions.len());
        }
        let mut k = 0;
        for &end in &ends {
            let start = out.atoms.len() as u32;
            for &(r, mask) in &regions[k..end] {
                let part = self.keyed_region_part(store, (rid, free), b, mask, r);
                out.atoms.push(Atom::Pos(part));
            }
            k = end;
            out.opts.push(OptRec {
                kind,
                start,
                len: out.atoms.len() as u32 - start,
            });
        }
        LISTING.set((regions, ends));
    }

    /// [`Cx::region_part`] of a region whose key `r` is worked out (`None`: it has none). A
    /// region missed is looked for again by its canonical image's key (a region is met in up
    /// to eight orientations, and its part is kept under the first and the canonical one),
    /// so that one met before in another orientation costs no board and no interning.
    fn keyed_region_part(
        &mut self,
        store: &mut Store,
        (rid, kind): (u32, u8),
        b: &Board,
        mask: u128,
        r: Option<Region>,
    ) -> PosId {
        let fresh = |store: &mut Store| {
            let part = Value::Board(Rc::new(b.canonical_region(mask, kind)));
            intern_board(store, rid, part)
        };
        // No key (a box of more than 64 cells): made canonical each time.
        let Some(r) = r else {
            return fresh(store);
        };
        if let Some(p) = self.rules.canonical.region(&r) {
            return p;
        }
        let Some((rows, cols, free)) = b.canonical_box(mask, kind) else {
            return fresh(store);
        };
        // The image's box is the region's, turned: it has a key too.
        let c = Region::of_box(r.family(), (rows, cols, free)).unwrap_or(r);
        if c != r
            && let Some(p) = self.rules.canonical.region(&c)
        {
            self.rules.canonical.keep_region(r, p);
            return p;
        }
        let p = match store
            .positions
            .intern_board_mask(rid, (rows.into(), cols.into(), kind, free))
        {
            Some(p) => p,
            None => fresh(store),
        };
        self.rules.canonical.keep_region(r, p);
        if c != r {
            self.rules.canonical.keep_region(c, p);
        }
        p
    }

    /// The positions of ruleset `rid` (which does not split) that are the boards of `b`'s
    /// shape whose free cells, all `free`, are each of `masks` (with `transpose`, the lesser
    /// of each and its transpose, as `canonical by min([b, transpose(b)])` makes them), into
    /// `out` as options of `kind` of one part each: each found by its mask when met before,
    /// else made and interned. All are asked for before any is looked up, so that their cache
    /// misses overlap.
    pub(crate) fn board_parts(
        &mut self,
        store: &mut Store,
        (rid, kind): (u32, OptionKind),
        b: &Board,
        (free, transpose): (u8, bool),
        masks: &[u128],
        out: &mut OptBuf,
    ) {
        let (rows, cols) = (b.rows(), b.cols());
        let canonical = &mut self.rules.canonical;
        let family = canonical.board_family(rid, free, rows as u8, cols as u8);
        for &m in masks {
            canonical.prefetch_board(family, m);
        }
        for &m in masks {
            let p = match canonical.board(family, m) {
                Some(p) => p,
                None => {
                    let turned = transpose.then(|| Board::transpose_mask(rows, cols, m));
                    // A square board's transpose is of the same family, perhaps met.
                    let known = turned
                        .filter(|_| rows == cols)
                        .and_then(|t| canonical.board(family, t));
                    let p = known.unwrap_or_else(|| {
                        let mut part = Board::of_free(rows, cols, free, m);
                        if let Some(t) = turned {
                            let t = Board::of_free(cols, rows, free, t);
                            if t < part {
                                part = t;
                            }
                        }
                        let part = Value::Board(Rc::new(part));
                        store
                            .positions
                            .intern(rid, std::slice::from_ref(&part))
                            .unwrap_or_else(|_| unreachable!("boards are arguments"))
                    });
                    canonical.keep_board(family, m, p);
                    p
                }
            };
            let start = out.atoms.len() as u32;
            out.atoms.push(Atom::Pos(p));
            out.opts.push(OptRec {
                kind,
                start,
                len: 1,
            });
        }
    }

    /// Lists the options of the position `pos` of ruleset `rid`, whose rule is the Node Kayles
    /// rule (`compile/kayles.rs`) making options of `kind`, into `out` as the rule would:
    /// the same parts, in the same order, of the graph the position was first met as (or of
    /// the same set of vertices of a graph met before); `false` when that graph has more
    /// vertices than a mask holds (then nothing is listed and the rule runs as written).
    pub(crate) fn kayles_options(
        &mut self,
        store: &mut Store,
        rid: u32,
        pos: PosId,
        kind: OptionKind,
        out: &mut OptBuf,
    ) -> bool {
        self.rules.canonical.subsets.make_room();
        let place = match self.rules.canonical.subsets.place(pos) {
            Some(place) => place,
            None => {
                let mut args = Vec::new();
                store.positions.args(pos, &mut args);
                let Ok([mut g]) = <[Value; 1]>::try_from(args) else {
                    return false;
                };
                self.rules.canonical.as_met(&mut g);
                let Value::Graph(g) = g else {
                    return false;
                };
                match self.rules.canonical.subsets.root(rid, pos, g) {
                    Some(place) => place,
                    None => return false,
                }
            }
        };
        let Place { root, adj, mask } = place;
        // The order of `vertices(g)` and of `components`: by least vertex, as renumbering in
        // order keeps the order of a root's vertices.
        let mut vs = mask;
        while vs != 0 {
            let v = vs.trailing_zeros() as usize;
            vs &= vs - 1;
            let start = out.atoms.len() as u32;
            let mut left = mask & !(adj[v] | 1 << v);
            while left != 0 {
                let c = subsets::component(&adj, left);
                left &= !c;
                let part = self.subset_part(store, root, c);
                out.atoms.push(Atom::Pos(part));
            }
            out.opts.push(OptRec {
                kind,
                start,
                len: out.atoms.len() as u32 - start,
            });
        }
        true
    }

    /// The part the vertices `mask` of `root` are: looked up when met before, else their
    /// graph made canonical and interned (in a pruned search, a large one interned as met:
    /// see [`subsets::LABELLED`]).
    fn subset_part(&mut self, store: &mut Store, root: u32, mask: u128) -> PosId {
        let subsets = &self.rules.canonical.subsets;
        if let Some(p) = subsets.part(root, mask) {
            return p;
        }
        let as_met = self.engines.pruned.searching() && mask.count_ones() > subsets::LABELLED;
        if as_met && let Some(p) = subsets.part_as_met(root, mask) {
            return p;
        }
        let (rid, g) = subsets.induced(root, mask);
        let g = Rc::new(g);
        let part = Value::Graph(if as_met {
            g
        } else {
            self.rules.canonical.graph(&g)
        });
        let p = store
            .positions
            .intern(rid, std::slice::from_ref(&part))
            .unwrap_or_else(|_| unreachable!("graphs are arguments"));
        let subsets = &mut self.rules.canonical.subsets;
        if as_met {
            subsets.keep_as_met(root, mask, p);
        } else {
            subsets.keep(root, mask, p);
        }
        p
    }

    /// The game `rid(args)`: the sum of its canonical parts.
    pub(crate) fn normal_game(
        &mut self,
        store: &mut Store,
        rid: u32,
        args: Vec<Value>,
    ) -> Result<GameId, Error> {
        let mut ps = Vec::new();
        self.parts(store, rid, args, &mut ps)?;
        let parts: Vec<GameId> = ps.into_iter().map(|p| store.position(p)).collect();
        Ok(match parts.len() {
            0 => store.nimber(0),
            1 => parts[0],
            _ => store.sum(&parts).map_err(Error::from)?,
        })
    }
}

fn bind_all(cx: &Cx, f: &mut Frame, params: &[Pat], args: Vec<Value>) -> Result<(), Error> {
    for (p, a) in params.iter().zip(args) {
        run::bind(cx, f, p, a)?;
    }
    Ok(())
}

/// The arguments a part stands for: the value itself for a ruleset of one parameter, the
/// items of a tuple (or list) of as many values otherwise.
fn part_args(
    cx: &Cx,
    v: &Value,
    arity: usize,
    name: &dyn Fn() -> String,
    clause: &'static str,
    span: &Span,
) -> Result<Vec<Value>, Error> {
    if arity == 1 {
        return Ok(vec![v.clone()]);
    }
    match v {
        Value::Tuple(xs) | Value::List(xs) if xs.len() == arity => Ok((**xs).clone()),
        other => Err(bad(
            cx,
            name(),
            clause,
            format!(
                "gave {} where a part is a tuple of the ruleset's {arity} arguments",
                other.type_name()
            ),
            span,
        )),
    }
}

fn bad(cx: &Cx, ruleset: String, clause: &'static str, detail: String, span: &Span) -> Error {
    cx.err(
        EvalError::BadPart {
            ruleset,
            clause,
            detail,
        },
        span,
    )
}
