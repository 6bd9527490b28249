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
//! last whole file. Reading checks the magic, the version and the
//! checksum before anything else, then every ruleset against the session's, and loads nothing
//! unless all of it is good: a torn, altered or foreign file is an error, never an answer.
//! What the file says of a position the session already knows is checked too.
//!
//! `loony --table FILE` reads the file at start and keeps it pending: before each search, the
//! rulesets of the file that are defined by then are checked and loaded (a changed one is an
//! error of that query, and its part of the file stays pending). At exit, and whenever Ctrl-C
//! or the memory budget stops a search, the table is saved with the pending parts carried
//! over, so a session that did not use them does not lose them.

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
        let pending = std::mem::take(&mut self.engines.pruned.pending.file);
        let carried: Vec<(usize, u32)> = {
            let loaded = &self.engines.pruned.pending.loaded;
            pending
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| loaded.get(e.ruleset as usize) != Some(&true))
                .map(|(i, e)| {
                    (
                        i,
                        heads.record(pending.rulesets[e.ruleset as usize].clone()),
                    )
                })
                .collect()
        };
        count += carried.len() as u64;
        let r = (|| {
            let mut w = Streamed::create(path, &heads.rulesets, count).map_err(failed)?;
            self.each_saved(store, table, &mut heads, |ruleset, args, fact, work| {
                w.entry(ruleset, args, fact, work).map_err(failed)
            })?;
            for &(i, ruleset) in &carried {
                let e = &pending.entries[i];
                w.entry(ruleset, &e.args, &e.fact, e.work).map_err(failed)?;
            }
            w.finish().map_err(failed)
        })();
        self.engines.pruned.pending.file = pending;
        r.map(|()| count as usize)
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

    /// Loads the records of `file`, after checking them all: the session's ruleset of each
    /// record, and what the session already knows of its positions. `strict` (`load_table`):
    /// every record must be of a ruleset of the session. Otherwise (a pending file) records
    /// marked in `skip` and those of rulesets not defined are left, and those of rulesets
    /// defined otherwise are refused (marked in `refused`, an error once the rest is loaded).
    /// Returns the records loaded and the positions read.
    fn load_records(
        &mut self,
        store: &mut Store,
        file: &TableFile,
        strict: bool,
        skip: &[bool],
        refused: &mut Vec<bool>,
    ) -> Result<(Vec<bool>, usize), Refused> {
        // The session's ruleset of each record: the last defined of its name and text.
        let mut rids: Vec<Option<u32>> = Vec::with_capacity(file.rulesets.len());
        let mut first_refusal = None;
        refused.resize(file.rulesets.len(), false);
        for (i, rec) in file.rulesets.iter().enumerate() {
            if skip.get(i).copied().unwrap_or(false) {
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
                file.rulesets.iter().any(|r| {
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
        // Every position first, checked against what the session knows; then the facts.
        let mut found: Vec<(PosId, usize)> = Vec::new();
        for (i, e) in file.entries.iter().enumerate() {
            if i.is_multiple_of(POLL) && self.interrupted() {
                return Err(Refused::Stopped(Error::new(
                    loony_core::diag::CoreError::Interrupted,
                )));
            }
            let Some(rid) = rids[e.ruleset as usize] else {
                continue;
            };
            let p = store.positions.intern_args(rid, &e.args);
            if e.fact.exact != UNKNOWN {
                let known = self
                    .engines
                    .memo
                    .nimber(Key::Pos(p))
                    .map(|(n, _)| n)
                    .or_else(|| {
                        self.engines
                            .pruned
                            .table
                            .get(p)
                            .map(|f| f.exact)
                            .filter(|&n| n != UNKNOWN)
                    });
                if let Some(n) = known
                    && n != e.fact.exact
                {
                    for (r, id) in refused.iter_mut().zip(&rids) {
                        *r |= id.is_some();
                    }
                    return Err(Refused::Foreign(format!(
                        "it says a position of `{}` has nimber *{}, where this session found *{n}",
                        file.rulesets[e.ruleset as usize].name, e.fact.exact
                    )));
                }
            }
            found.push((p, i));
        }
        for &(p, i) in &found {
            let e = &file.entries[i];
            self.engines.pruned.table.learn(p, &e.fact, e.work);
            if e.fact.exact != UNKNOWN {
                self.engines
                    .memo
                    .insert(Key::Pos(p), &Class::Nimber(e.fact.exact), 0);
            }
        }
        if let Some(why) = first_refusal {
            return Err(Refused::Foreign(why));
        }
        Ok((rids.iter().map(Option::is_some).collect(), found.len()))
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
        let file = read(&path).map_err(|e| at(self, e))?;
        self.apply_pending(store)?;
        let (_, n) = self
            .load_records(store, &file, true, &[], &mut Vec::new())
            .map_err(|e| at(self, e))?;
        Ok(Value::Int(n as i64))
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
        let file = if std::path::Path::new(path).exists() {
            read(path).map_err(|e| e.error(path))?
        } else {
            TableFile::default()
        };
        let every = self.engines.pruned.pending.every;
        self.engines.pruned.pending = Pending {
            path: Some(path.to_string()),
            every,
            last: Some(std::time::Instant::now()),
            loaded: vec![false; file.rulesets.len()],
            refused: vec![false; file.rulesets.len()],
            file,
        };
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
        let skip: Vec<bool> = p
            .loaded
            .iter()
            .zip(&p.refused)
            .map(|(&l, &r)| l || r)
            .collect();
        let r = self.load_records(store, &p.file, false, &skip, &mut p.refused);
        if let Ok((now, _)) = &r {
            for (l, n) in p.loaded.iter_mut().zip(now) {
                *l |= n;
            }
            // What is loaded is the session's now: the file's copy is not kept.
            let loaded = &p.loaded;
            p.file.entries.retain(|e| !loaded[e.ruleset as usize]);
            p.file.entries.shrink_to_fit();
        }
        let path = p.path.clone().unwrap_or_default();
        self.engines.pruned.pending = p;
        r.map(|_| ()).map_err(|e| e.error(&path))
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
