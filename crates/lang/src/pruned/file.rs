//! Pruned search's table in a file (`save_table`, `load_table`, `loony --table FILE`), so a
//! search stopped after hours resumes in another session.
//!
//! Position ids belong to one session, so the file stores positions by content: each
//! ruleset by its name and a hash of the text of its definition (an edited ruleset is another
//! ruleset), each position by its arguments. The format, all integers little-endian:
//!
//! ```text
//! "LOONYTBL"  version: u32 (1)
//! rulesets: u32, each  name: u32 length + UTF-8, hash: u64 (FNV-1a of its definition), arity: u32
//! entries: u64, each   ruleset: u32, its arguments, exact: u32, not: u64, options: u32, work: u32
//! checksum: u64 (FNV-1a of every byte before it)
//! ```
//!
//! An argument is a tag byte and its content: 0 an integer (`i64`), 1 a tuple and 2 a list
//! (`u32` length, then the items), 3 a board (`u16` rows, `u16` columns, one byte a cell),
//! 4 a graph (`u32` vertices, `u32` edges, each two `u32`). `exact` and `options` are
//! `u32::MAX` when not known; `not` has bit `m` set when the nimber is known not to be `m`.
//!
//! A file is written entry by entry (a save holds one entry in memory, not the table) to a
//! temporary file beside it, synced and renamed over the old, so a save cut short leaves the
//! last whole file. A file is read a buffer at a time and never held whole (a long search's
//! file is as large as the memory its table fills): once through to check the magic, the
//! version, every entry's form and the checksum, then, against a session, every ruleset
//! against the session's, every position against what the session knows (a pass left out
//! when the session knows no nimber of those rulesets' positions), and only then a last time
//! to load. Nothing is loaded unless all of it is good: a torn, altered or
//! foreign file is an error, never an answer, and a file changed between two readings is
//! refused.
//!
//! `loony --table FILE` checks the file at start and keeps it pending: before each search, the
//! rulesets of the file that are defined by then are checked and loaded (a changed one is an
//! error of that query, and its part of the file stays pending, in memory once the rest is
//! loaded). At exit, and whenever Ctrl-C or the memory budget stops a search, the table is
//! saved with the pending parts carried over, so a session that did not use them does not
//! lose them.

use crate::cx::Cx;
use crate::error::{ArgumentError, EvalError, Wanted};
use crate::value::Value;
use loony_core::class::Class;
use loony_core::diag::Error;
use loony_core::game::Store;
use loony_core::positions::PosId;
use loony_graph::memo::Key;
use loony_theory::pruned::{Fact, Table, UNKNOWN};
use rustc_hash::FxHashMap;

use super::format::*;

/// What a load did: the file's records loaded now, the positions read, and why a record
/// was refused (the rest is loaded all the same).
struct Loaded {
    now: Vec<bool>,
    positions: usize,
    refusal: Option<String>,
}

/// The rulesets of a file being written: their records in order, each record's place, and
/// each ruleset's (`None`: not saved).
#[derive(Default)]
struct Heads {
    rulesets: Vec<RulesetRec>,
    places: FxHashMap<RulesetRec, u32>,
    by_rid: FxHashMap<u32, Option<u32>>,
}

impl Heads {
    /// The place of a record, added if new.
    fn record(&mut self, rec: RulesetRec) -> u32 {
        *self.places.entry(rec.clone()).or_insert_with(|| {
            self.rulesets.push(rec);
            self.rulesets.len() as u32 - 1
        })
    }
}

impl Cx {
    /// The hash that names a ruleset's definition in a file: of its text as written.
    fn definition_hash(&self, rid: u32) -> u64 {
        let r = &self.rules.rulesets[rid as usize];
        let text = self
            .files
            .get(r.file)
            .ok()
            .and_then(|f| f.source().get(r.def.span.clone()))
            .unwrap_or("");
        fnv(text.as_bytes())
    }

    /// Whether a ruleset splits, as far as its compiled form is made (no compiling).
    fn splits_known(&self, rid: u32) -> bool {
        matches!(self.rules.compiled.get(rid as usize), Some(Some(c))
            if c.norm.as_ref().is_some_and(|n| n.split.is_some()))
    }

    fn splits(&mut self, rid: u32) -> bool {
        self.compiled(rid)
            .norm
            .as_ref()
            .is_some_and(|n| n.split.is_some())
    }

    /// The file's record of ruleset `rid` (`None`: its positions are not saved, as it does
    /// not split), made on first use.
    fn file_record(&mut self, store: &Store, heads: &mut Heads, rid: u32) -> Option<u32> {
        if let Some(&r) = heads.by_rid.get(&rid) {
            return r;
        }
        let r = self.splits(rid).then(|| {
            let rec = RulesetRec {
                name: store.ruleset_name(rid).to_string(),
                hash: self.definition_hash(rid),
                arity: self.rules.rulesets[rid as usize].def.params.len() as u32,
            };
            heads.record(rec)
        });
        heads.by_rid.insert(rid, r);
        r
    }

    /// Polls Ctrl-C for a pass over a table file (called every [`POLL`] entries), with a
    /// progress line now and then (`table file: loaded 41943040 entries (70 s)`): a file of
    /// 100 million entries takes minutes to load.
    fn file_pass(&self, what: &'static str) -> impl Fn() -> bool + use<> {
        let flag = self.limits.interrupt.clone();
        let log = crate::progress::Log::new("table file");
        let polls = std::cell::Cell::new(0u64);
        move || {
            log.line(|| format!("{what} {} entries", polls.get() * POLL as u64));
            polls.set(polls.get() + 1);
            flag.load(std::sync::atomic::Ordering::Relaxed)
        }
    }

    /// Writes the session's table to `path`; the number of positions written.
    fn save_table(&mut self, store: &Store, path: &str) -> Result<usize, Error> {
        let table = std::mem::take(&mut self.engines.pruned.table);
        let r = self.save_table_of(store, &table, path);
        self.engines.pruned.table = table;
        r
    }

    /// Writes `table` (the session's, or the one a search holds) and the memo's nimbers to
    /// `path`; the number of positions written. Two passes over the same entries: the first
    /// finds the rulesets and counts (the file's head), the second writes each entry as it
    /// is read ([`Streamed`]), so a save takes little memory beside a large table. An entry
    /// is each position the table knows something of (its exact nimber from the memo when
    /// the memo has it), then each other position whose nimber the memo has, then what a
    /// pending file held of rulesets not loaded, carried to the next file.
    fn save_table_of(&mut self, store: &Store, table: &Table, path: &str) -> Result<usize, Error> {
        let failed = |e: std::io::Error| {
            Error::new(EvalError::WriteFailed {
                path: path.to_string(),
                message: e.to_string(),
            })
        };
        let mut heads = Heads::default();
        let mut count = 0u64;
        self.each_saved(store, table, &mut heads, |_, _, _, _| {
            count += 1;
            Ok(())
        })?;
        // What the pending file holds of rulesets not loaded, under the new file's records.
        let pending = std::mem::take(&mut self.engines.pruned.pending);
        let carried: Vec<Option<u32>> = (0..pending.rulesets.len())
            .map(|r| {
                (pending.open(r) && pending.counts[r] > 0)
                    .then(|| heads.record(pending.rulesets[r].clone()))
            })
            .collect();
        for (r, c) in carried.iter().enumerate() {
            count += if c.is_some() { pending.counts[r] } else { 0 };
        }
        let same = matches!(&pending.waiting, Waiting::File(c) if same_file(&c.path, path));
        let mut per = Vec::new();
        let r = (|| {
            let mut w = Streamed::create(path, &heads.rulesets, count).map_err(failed)?;
            per = vec![0u64; heads.rulesets.len()];
            self.each_saved(store, table, &mut heads, |ruleset, args, fact, work| {
                per[ruleset as usize] += 1;
                w.entry(ruleset, args, fact, work).map_err(failed)
            })?;
            if carried.iter().any(Option::is_some) {
                let stop = self.file_pass("carried over");
                let from = pending.path.clone().unwrap_or_default();
                pending
                    .waiting
                    .each(&pending.rulesets, &stop, &mut |e| {
                        if let Some(r) = carried[e.ruleset as usize] {
                            per[r as usize] += 1;
                            w.entry(r, &e.args, &e.fact, e.work)
                                .map_err(|e| Refused::Stopped(failed(e)))?;
                        }
                        Ok(())
                    })
                    .map_err(|e| e.error(&from))?;
            }
            w.finish().map_err(failed)
        })();
        self.engines.pruned.pending = pending;
        r?;
        if same {
            self.rebase_pending(&heads.rulesets, &carried, per, path);
        }
        Ok(count as usize)
    }

    /// After a save over the file a pending file is read from: the rulesets not loaded are
    /// now the new file's (`carried`: each old record's place in `rulesets`), and the
    /// session's own records in it need no loading.
    fn rebase_pending(
        &mut self,
        rulesets: &[RulesetRec],
        carried: &[Option<u32>],
        counts: Vec<u64>,
        path: &str,
    ) {
        let p = &mut self.engines.pruned.pending;
        let mut loaded = vec![true; rulesets.len()];
        let mut refused = vec![false; rulesets.len()];
        for (old, new) in carried.iter().enumerate() {
            if let Some(new) = new {
                loaded[*new as usize] = false;
                refused[*new as usize] |= p.refused[old];
            }
        }
        let head = Head {
            rulesets: rulesets.to_vec(),
            entries: counts.iter().sum(),
        };
        p.rulesets = rulesets.to_vec();
        p.counts = counts.clone();
        p.loaded = loaded;
        p.refused = refused;
        // The file was just written: it is what it says. (Were its length unreadable, the
        // next load would refuse it; nothing could be loaded wrong.)
        p.waiting = match Checked::written(path, head, counts) {
            Ok(c) => Waiting::File(c),
            Err(_) => Waiting::Nothing,
        };
    }

    /// Calls `f` with each entry [`Cx::save_table_of`] saves of the table and the memo, in
    /// order: its ruleset's record, its arguments, its fact and its work. Polls Ctrl-C.
    fn each_saved(
        &mut self,
        store: &Store,
        table: &Table,
        heads: &mut Heads,
        mut f: impl FnMut(u32, &[loony_core::game::Arg], &Fact, u32) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let stopped = || Error::new(loony_core::diag::CoreError::Interrupted);
        for (i, (p, mut fact, work)) in table.entries().enumerate() {
            if i.is_multiple_of(POLL) && self.interrupted() {
                return Err(stopped());
            }
            let rid = store.positions.ruleset(p);
            let Some(ruleset) = self.file_record(store, heads, rid) else {
                continue;
            };
            if let Some((n, 0)) = self.engines.memo.nimber(Key::Pos(p)) {
                fact.exact = n;
            }
            f(ruleset, &store.positions.store_args(p), &fact, work)?;
        }
        for p in 0..store.positions.len() as PosId {
            if (p as usize).is_multiple_of(POLL) && self.interrupted() {
                return Err(stopped());
            }
            let Some((n, 0)) = self.engines.memo.nimber(Key::Pos(p)) else {
                continue;
            };
            // A position of the table was written with it.
            if table.get(p).is_some() {
                continue;
            }
            let rid = store.positions.ruleset(p);
            let Some(ruleset) = self.file_record(store, heads, rid) else {
                continue;
            };
            let fact = Fact {
                exact: n,
                ..Fact::default()
            };
            f(ruleset, &store.positions.store_args(p), &fact, 1)?;
        }
        Ok(())
    }

    /// Loads the entries of `waiting` (of the file's ruleset records `rulesets`), after
    /// checking them all: the session's ruleset of each record, and what the session already
    /// knows of its positions. Reads the entries twice, never holding them (positions first,
    /// checked, then the facts). With no `keep` (`load_table`), every record must be of a
    /// ruleset of the session. Otherwise (a pending file) records `loaded` or `refused` before
    /// and those of rulesets not defined are left (their entries added to `keep` unless loaded
    /// before), and those of rulesets defined otherwise are refused (marked in `refused`).
    fn load_records(
        &mut self,
        store: &mut Store,
        rulesets: &[RulesetRec],
        waiting: &Waiting,
        loaded: &[bool],
        refused: &mut Vec<bool>,
        mut keep: Option<&mut Vec<u8>>,
    ) -> Result<Loaded, Refused> {
        let strict = keep.is_none();
        // The session's ruleset of each record: the last defined of its name and text.
        let mut rids: Vec<Option<u32>> = Vec::with_capacity(rulesets.len());
        let mut first_refusal = None;
        refused.resize(rulesets.len(), false);
        for (i, rec) in rulesets.iter().enumerate() {
            if loaded.get(i).copied().unwrap_or(false) || refused[i] {
                rids.push(None);
                continue;
            }
            let named: Vec<u32> = (0..self.rules.rulesets.len() as u32)
                .rev()
                .filter(|&rid| *self.rules.rulesets[rid as usize].def.name.name == *rec.name)
                .collect();
            if named.is_empty() {
                if strict {
                    return Err(Refused::Foreign(format!(
                        "it holds positions of the ruleset `{}`, which this session does not \
                         define",
                        rec.name
                    )));
                }
                rids.push(None);
                continue;
            }
            let same = named.iter().copied().find(|&rid| {
                self.definition_hash(rid) == rec.hash
                    && self.rules.rulesets[rid as usize].def.params.len() == rec.arity as usize
            });
            // A file may hold one ruleset as saved from several definitions (a pending
            // file's records carried over): those of other text are left when one matches.
            let another = |cx: &Cx| {
                rulesets.iter().any(|r| {
                    r.name == rec.name
                        && r.hash != rec.hash
                        && named
                            .iter()
                            .any(|&rid| cx.definition_hash(rid) == r.hash && cx.splits_known(rid))
                })
            };
            match same {
                Some(rid) if self.splits(rid) => rids.push(Some(rid)),
                _ if another(self) => {
                    refused[i] = true;
                    rids.push(None);
                }
                _ => {
                    let why = format!(
                        "the ruleset `{}` of this session is not the one the table was saved \
                         with (its definition reads otherwise)",
                        rec.name
                    );
                    if strict {
                        return Err(Refused::Foreign(why));
                    }
                    refused[i] = true;
                    first_refusal.get_or_insert(why);
                    rids.push(None);
                }
            }
        }
        let now: Vec<bool> = rids.iter().map(Option::is_some).collect();
        if !now.contains(&true) {
            // Nothing to load: the entries wait where they are.
            return Ok(Loaded {
                now,
                positions: 0,
                refusal: first_refusal,
            });
        }
        // Every position first, checked against what the session knows, unless it knows no
        // nimber of any position of these rulesets (a session resuming a solve): then no
        // entry can disagree with it, and the file is read once less.
        let (memo, table) = (&self.engines.memo, &self.engines.pruned.table);
        let loading: Vec<u32> = rids.iter().flatten().copied().collect();
        let knows_none = store.positions.len() <= 1 << 20
            && (0..store.positions.len() as PosId).all(|p| {
                !loading.contains(&store.positions.ruleset(p))
                    || (memo.nimber(Key::Pos(p)).is_none()
                        && table.get(p).is_none_or(|f| f.exact == UNKNOWN))
            });
        let stop = self.file_pass("checked");
        let mut check = |e: &Entry| {
            let Some(rid) = rids[e.ruleset as usize] else {
                return Ok(());
            };
            let p = store.positions.intern_args(rid, &e.args);
            if e.fact.exact == UNKNOWN {
                return Ok(());
            }
            let known = memo
                .nimber(Key::Pos(p))
                .map(|(n, _)| n)
                .or_else(|| table.get(p).map(|f| f.exact).filter(|&n| n != UNKNOWN));
            match known {
                Some(n) if n != e.fact.exact => Err(Refused::Foreign(format!(
                    "it says a position of `{}` has nimber *{}, where this session found *{n}",
                    rulesets[e.ruleset as usize].name, e.fact.exact
                ))),
                _ => Ok(()),
            }
        };
        let checked = match knows_none {
            true => Ok(()),
            false => waiting.each(rulesets, &stop, &mut check),
        };
        if let Err(e) = checked {
            if matches!(e, Refused::Foreign(_)) {
                for (r, id) in refused.iter_mut().zip(&rids) {
                    *r |= id.is_some();
                }
            }
            return Err(e);
        }
        // Then the facts, into a table of the budget's size (a fresh session's table is of
        // the default size until its first search: a file of 83 million entries loaded into
        // it kept 5 million), and what is not loaded now and was not before is kept.
        let cap = self.engines.pruned.capacity_for(self.limits.memory);
        self.engines.pruned.table.set_capacity(cap);
        let mut positions = 0;
        let stop = self.file_pass("loaded");
        let (memo, table) = (&mut self.engines.memo, &mut self.engines.pruned.table);
        waiting.each(rulesets, &stop, &mut |e| {
            let r = e.ruleset as usize;
            match rids[r] {
                Some(rid) => {
                    let p = store.positions.intern_args(rid, &e.args);
                    table.learn(p, &e.fact, e.work);
                    if e.fact.exact != UNKNOWN {
                        memo.insert(Key::Pos(p), &Class::Nimber(e.fact.exact), 0);
                    }
                    positions += 1;
                }
                None if !loaded.get(r).copied().unwrap_or(false) => {
                    if let Some(k) = keep.as_deref_mut() {
                        keep_entry(k, e);
                    }
                }
                None => {}
            }
            Ok(())
        })?;
        Ok(Loaded {
            now,
            positions,
            refusal: first_refusal,
        })
    }

    /// `save_table(file)`.
    pub(crate) fn save_table_builtin(
        &mut self,
        store: &mut Store,
        a: &crate::args::Args,
    ) -> Result<Value, Error> {
        let path = self.file_arg(a)?;
        let n = self
            .save_table(store, &path)
            .map_err(|e| e.or_at(self.scope.file, a.span(0).clone()))?;
        Ok(Value::Int(n as i64))
    }

    /// `load_table(file)`.
    pub(crate) fn load_table_builtin(
        &mut self,
        store: &mut Store,
        a: &crate::args::Args,
    ) -> Result<Value, Error> {
        let path = self.file_arg(a)?;
        let at = |cx: &Cx, e: Refused| e.error(&path).or_at(cx.scope.file, a.span(0).clone());
        let stop = self.file_pass("read");
        let checked = scan(&path, None, &stop, &mut |_| Ok(())).map_err(|e| at(self, e))?;
        self.apply_pending(store)?;
        let rulesets = checked.head.rulesets.clone();
        let waiting = Waiting::File(checked);
        let loaded = self
            .load_records(store, &rulesets, &waiting, &[], &mut Vec::new(), None)
            .map_err(|e| at(self, e))?;
        Ok(Value::Int(loaded.positions as i64))
    }

    fn file_arg(&self, a: &crate::args::Args) -> Result<String, Error> {
        match &a.vals[0] {
            Value::Str(s) => Ok(s.to_string()),
            other => Err(self.err(
                EvalError::BadArgument(ArgumentError::NotA {
                    function: a.name.into(),
                    wanted: Wanted::FileName,
                    found: other.type_name(),
                }),
                a.span(0),
            )),
        }
    }

    /// `--table FILE`: reads the file if there is one (a torn or altered one is an error
    /// now, before anything could overwrite it), loads its rulesets as they are defined, and
    /// saves there at the end ([`Cx::save_table_file`]).
    pub fn open_table_file(&mut self, path: &str) -> Result<(), Error> {
        let mut p = Pending {
            path: Some(path.to_string()),
            every: self.engines.pruned.pending.every,
            last: Some(std::time::Instant::now()),
            ..Pending::default()
        };
        if std::path::Path::new(path).exists() {
            let stop = self.file_pass("read");
            let c = scan(path, None, &stop, &mut |_| Ok(())).map_err(|e| e.error(path))?;
            p.rulesets = c.head.rulesets.clone();
            p.counts = c.counts.clone();
            p.loaded = vec![false; p.rulesets.len()];
            p.refused = vec![false; p.rulesets.len()];
            p.waiting = Waiting::File(c);
        }
        self.engines.pruned.pending = p;
        Ok(())
    }

    /// Saves the table file (`--table`) this often while a search runs, so that a process
    /// killed without warning (`kill -9`, a machine lost) loses at most that much work.
    pub fn save_every(&mut self, every: std::time::Duration) {
        self.engines.pruned.pending.every = Some(every);
    }

    /// Called as a search runs: saves `table` to the table file when `--save-every` has
    /// passed since the last save. A failed save is a warning, and the search goes on (the
    /// save at the end reports it as an error if it fails again).
    pub(crate) fn autosave(&mut self, store: &Store, table: &Table) {
        let pending = &self.engines.pruned.pending;
        let (Some(path), Some(every), Some(last)) = (&pending.path, pending.every, pending.last)
        else {
            return;
        };
        if last.elapsed() < every {
            return;
        }
        let path = path.clone();
        let r = self.save_table_of(store, table, &path);
        self.engines.pruned.pending.last = Some(std::time::Instant::now());
        match r {
            Ok(_) => {}
            Err(e) if e.is_interrupted() => {
                // Ctrl-C during the save: the search stops at its next poll and saves then.
                self.limits
                    .interrupt
                    .store(true, std::sync::atomic::Ordering::Relaxed);
            }
            Err(e) => self.warn(loony_core::diag::Warning {
                kind: loony_core::diag::WarningKind::AutosaveFailed {
                    path,
                    message: e.message(),
                },
                loc: loony_core::diag::Loc {
                    file: self.scope.file,
                    span: self.scope.statement.clone(),
                },
            }),
        }
    }

    /// Loads the rulesets of the pending file that are defined now (before a search); a
    /// ruleset defined with other text is an error once, and its records are carried to the
    /// next save.
    pub(crate) fn apply_pending(&mut self, store: &mut Store) -> Result<(), Error> {
        let done = |p: &Pending| p.loaded.iter().zip(&p.refused).all(|(&l, &r)| l || r);
        if done(&self.engines.pruned.pending) {
            return Ok(());
        }
        let mut p = std::mem::take(&mut self.engines.pruned.pending);
        let mut kept = Vec::new();
        let r = self.load_records(
            store,
            &p.rulesets,
            &p.waiting,
            &p.loaded,
            &mut p.refused,
            Some(&mut kept),
        );
        let r = match r {
            Ok(l) => {
                if l.now.contains(&true) {
                    for (l, n) in p.loaded.iter_mut().zip(&l.now) {
                        *l |= n;
                    }
                    // What is loaded is the session's now; the rest is kept in memory (the
                    // file will be overwritten by the next save).
                    let left = (0..p.rulesets.len()).any(|r| p.open(r) && p.counts[r] > 0);
                    kept.shrink_to_fit();
                    p.waiting = if left {
                        Waiting::Kept(kept)
                    } else {
                        Waiting::Nothing
                    };
                }
                l.refusal.map_or(Ok(()), |why| Err(Refused::Foreign(why)))
            }
            Err(e) => Err(e),
        };
        let path = p.path.clone().unwrap_or_default();
        self.engines.pruned.pending = p;
        r.map_err(|e| e.error(&path))
    }

    /// `--table FILE` at the end: saves the table there (what the pending file held of
    /// rulesets not loaded carried over). The path and the number of positions written.
    pub fn save_table_file(&mut self, store: &mut Store) -> Result<Option<(String, usize)>, Error> {
        let Some(path) = self.engines.pruned.pending.path.clone() else {
            return Ok(None);
        };
        // A Ctrl-C that stopped the last statement does not stop the save.
        self.limits
            .interrupt
            .store(false, std::sync::atomic::Ordering::Relaxed);
        // Rulesets defined since the last search: loaded now, so they are not carried twice.
        let _ = self.apply_pending(store);
        let n = self.save_table(store, &path)?;
        Ok(Some((path, n)))
    }
}
