//! The table file's format (see `file.rs` for what is saved when): the bytes of a table,
//! their checksum, and a file read whole and checked before anything uses it. Names no
//! session, so the session's state (`state.rs`) can hold a pending file.

use crate::error::EvalError;
use loony_core::board::Board;
use loony_core::diag::Error;
use loony_core::game::Arg;
use loony_core::graphs::Graph;
use loony_theory::pruned::{Fact, UNKNOWN};
use std::rc::Rc;

pub(super) const MAGIC: &[u8; 8] = b"LOONYTBL";
pub(super) const VERSION: u32 = 1;
/// Arguments nest at most this deep in a file (a list of tuples is 2).
pub(super) const MOST_NESTING: usize = 64;
/// Loops poll Ctrl-C every this many positions.
pub(super) const POLL: usize = 1 << 14;

/// A table file's content, positions by their arguments.
#[derive(Default)]
pub(super) struct TableFile {
    pub(super) rulesets: Vec<RulesetRec>,
    pub(super) entries: Vec<Entry>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct RulesetRec {
    pub(super) name: String,
    pub(super) hash: u64,
    pub(super) arity: u32,
}

pub(super) struct Entry {
    pub(super) ruleset: u32,
    pub(super) args: Vec<Arg>,
    pub(super) fact: Fact,
    pub(super) work: u32,
}

/// A file read at start (`--table`): where it is saved, and what of it is not loaded yet.
#[derive(Default)]
pub(super) struct Pending {
    pub(super) path: Option<String>,
    /// Saved to `path` this often while a search runs (`--save-every`), and when last.
    pub(super) every: Option<std::time::Duration>,
    pub(super) last: Option<std::time::Instant>,
    pub(super) file: TableFile,
    /// By ruleset record: loaded into the session (so no longer carried), or refused (the
    /// session's ruleset of that name reads otherwise: carried, not tried again).
    pub(super) loaded: Vec<bool>,
    pub(super) refused: Vec<bool>,
}

impl Pending {
    /// Positions of the file not loaded yet, for `:table`: ` (FILE: N positions not loaded
    /// yet, …)`, or nothing.
    pub(crate) fn summary(&self) -> String {
        let waiting = self
            .file
            .entries
            .iter()
            .filter(|e| self.loaded.get(e.ruleset as usize) != Some(&true))
            .count();
        match (&self.path, waiting) {
            (Some(path), 1..) => format!(
                "; {path}: {waiting} positions not loaded (each ruleset's are loaded at the \
                 first search after it is defined as it was when they were saved)"
            ),
            _ => String::new(),
        }
    }
}

/// FNV-1a, 64 bits: the checksum and the rulesets' hashes.
pub(super) fn fnv(bytes: &[u8]) -> u64 {
    fnv_on(FNV_START, bytes)
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a of what `h` was the hash of, followed by `bytes`.
fn fnv_on(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

// --- writing ---

pub(super) fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(super) fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(super) fn put_arg(out: &mut Vec<u8>, a: &Arg) {
    match a {
        Arg::Int(n) => {
            out.push(0);
            out.extend_from_slice(&n.to_le_bytes());
        }
        Arg::Tuple(xs) | Arg::List(xs) => {
            out.push(if matches!(a, Arg::Tuple(_)) { 1 } else { 2 });
            put_u32(out, xs.len() as u32);
            for x in xs.iter() {
                put_arg(out, x);
            }
        }
        Arg::Board(b) => {
            out.push(3);
            out.extend_from_slice(&(b.rows() as u16).to_le_bytes());
            out.extend_from_slice(&(b.cols() as u16).to_le_bytes());
            out.extend_from_slice(b.cells());
        }
        Arg::Graph(g) => {
            out.push(4);
            put_u32(out, g.order() as u32);
            put_u32(out, g.edges().len() as u32);
            for &(a, b) in g.edges() {
                put_u32(out, a);
                put_u32(out, b);
            }
        }
    }
}

/// The magic, the version, the rulesets and the number of entries: a file's head.
fn put_head(out: &mut Vec<u8>, rulesets: &[RulesetRec], entries: u64) {
    out.extend_from_slice(MAGIC);
    put_u32(out, VERSION);
    put_u32(out, rulesets.len() as u32);
    for r in rulesets {
        put_u32(out, r.name.len() as u32);
        out.extend_from_slice(r.name.as_bytes());
        put_u64(out, r.hash);
        put_u32(out, r.arity);
    }
    put_u64(out, entries);
}

/// One entry: its ruleset's record, the position's arguments, its fact and its work.
fn put_entry(out: &mut Vec<u8>, ruleset: u32, args: &[Arg], fact: &Fact, work: u32) {
    put_u32(out, ruleset);
    for a in args {
        put_arg(out, a);
    }
    put_u32(out, fact.exact);
    put_u64(out, fact.not);
    put_u32(out, fact.options);
    put_u32(out, work);
}

impl TableFile {
    /// The file's content, or why it is not a whole table file.
    pub(super) fn decode(bytes: &[u8]) -> Result<TableFile, String> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err("it is not a table file that save_table wrote".into());
        }
        let mut r = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let version = r.u32()?;
        if version != VERSION {
            return Err(format!(
                "it is a table file of version {version}, and this Loony reads version {VERSION}"
            ));
        }
        if bytes.len() < MAGIC.len() + 12 {
            return Err(torn());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let sum = u64::from_le_bytes(sum.try_into().expect("8 bytes"));
        if fnv(body) != sum {
            return Err(
                "its checksum does not match: the file was cut short or altered after it was \
                 written"
                    .into(),
            );
        }
        r.bytes = body;
        let mut file = TableFile::default();
        let count = r.u32()?;
        for _ in 0..count {
            let len = r.u32()? as usize;
            let name = std::str::from_utf8(r.take(len)?)
                .map_err(|_| torn())?
                .to_string();
            let hash = r.u64()?;
            let arity = r.u32()?;
            file.rulesets.push(RulesetRec { name, hash, arity });
        }
        let count = r.u64()?;
        for _ in 0..count {
            let ruleset = r.u32()?;
            let rec = file.rulesets.get(ruleset as usize).ok_or_else(torn)?;
            let args = (0..rec.arity)
                .map(|_| r.arg(0))
                .collect::<Result<Vec<_>, _>>()?;
            let fact = Fact {
                exact: r.u32()?,
                not: r.u64()?,
                options: r.u32()?,
            };
            let work = r.u32()?;
            // A nimber is less than 2^31 and at most the option count.
            let bad = |n: u32| n != UNKNOWN && n >= 1 << 31;
            if bad(fact.exact)
                || bad(fact.options)
                || (fact.exact != UNKNOWN && fact.options != UNKNOWN && fact.exact > fact.options)
                || (fact.exact < 64 && fact.not >> fact.exact & 1 == 1)
            {
                return Err(torn());
            }
            file.entries.push(Entry {
                ruleset,
                args,
                fact,
                work,
            });
        }
        if r.at != body.len() {
            return Err(torn());
        }
        Ok(file)
    }
}

pub(super) fn torn() -> String {
    "its content is not what save_table writes: the file is torn or altered".into()
}

pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
}

impl Reader<'_> {
    pub(super) fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).ok_or_else(torn)?;
        let s = self.bytes.get(self.at..end).ok_or_else(torn)?;
        self.at = end;
        Ok(s)
    }

    pub(super) fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2")))
    }

    pub(super) fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }

    pub(super) fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }

    pub(super) fn arg(&mut self, depth: usize) -> Result<Arg, String> {
        if depth > MOST_NESTING {
            return Err(torn());
        }
        let tag = self.take(1)?[0];
        Ok(match tag {
            0 => Arg::Int(self.u64()? as i64),
            1 | 2 => {
                let len = self.u32()? as usize;
                // Each item takes a byte at least: a length past the file is torn.
                if len > self.bytes.len() - self.at {
                    return Err(torn());
                }
                let xs = (0..len)
                    .map(|_| self.arg(depth + 1))
                    .collect::<Result<Rc<[Arg]>, _>>()?;
                if tag == 1 {
                    Arg::Tuple(xs)
                } else {
                    Arg::List(xs)
                }
            }
            3 => {
                let (rows, cols) = (self.u16()? as usize, self.u16()? as usize);
                let cells = self.take(rows * cols)?;
                let text: Vec<String> = cells
                    .chunks(cols.max(1))
                    .map(|row| String::from_utf8_lossy(row).into_owned())
                    .collect();
                let b = Board::parse(&text.join("|")).map_err(|_| torn())?;
                if b.rows() != rows || b.cols() != cols || b.cells() != cells {
                    return Err(torn());
                }
                Arg::Board(Rc::new(b))
            }
            4 => {
                let n = self.u32()?;
                let m = self.u32()? as usize;
                if m > (self.bytes.len() - self.at) / 8 {
                    return Err(torn());
                }
                let mut edges = Vec::with_capacity(m);
                for _ in 0..m {
                    edges.push((i64::from(self.u32()?), i64::from(self.u32()?)));
                }
                let g = Graph::new(i64::from(n), &edges).map_err(|_| torn())?;
                if g.edges().len() != m {
                    return Err(torn());
                }
                Arg::Graph(Rc::new(g))
            }
            _ => return Err(torn()),
        })
    }
}

/// A table file written entry by entry to a temporary file beside its path, the checksum
/// kept as the bytes pass, then synced and renamed over the old: a save holds one entry in
/// memory, not the table's. (Made whole in memory first, the entries and then their bytes
/// of a table of 25 million took 9 GB beside the search, and the memory budget stopped it.)
/// Dropped before [`Streamed::finish`], it removes the temporary file.
pub(super) struct Streamed {
    tmp: String,
    path: String,
    out: Option<std::io::BufWriter<std::fs::File>>,
    sum: u64,
    buf: Vec<u8>,
    /// Entries the head promised, and those not yet written.
    left: u64,
}

impl Streamed {
    /// Starts the file of `path` with its head: `rulesets` and the number of `entries`.
    pub(super) fn create(
        path: &str,
        rulesets: &[RulesetRec],
        entries: u64,
    ) -> std::io::Result<Streamed> {
        let tmp = format!("{path}.tmp{}", std::process::id());
        let file = std::fs::File::create(&tmp)?;
        let mut w = Streamed {
            tmp,
            path: path.to_string(),
            out: Some(std::io::BufWriter::with_capacity(1 << 16, file)),
            sum: FNV_START,
            buf: Vec::new(),
            left: entries,
        };
        put_head(&mut w.buf, rulesets, entries);
        w.flush_buf()?;
        Ok(w)
    }

    /// Writes one entry (see the format in `file.rs`).
    pub(super) fn entry(
        &mut self,
        ruleset: u32,
        args: &[Arg],
        fact: &Fact,
        work: u32,
    ) -> std::io::Result<()> {
        self.left = self
            .left
            .checked_sub(1)
            .ok_or_else(|| std::io::Error::other("more entries than the file's head says"))?;
        put_entry(&mut self.buf, ruleset, args, fact, work);
        self.flush_buf()
    }

    fn flush_buf(&mut self) -> std::io::Result<()> {
        use std::io::Write;
        self.sum = fnv_on(self.sum, &self.buf);
        let out = self
            .out
            .as_mut()
            .ok_or_else(|| std::io::Error::other("finished"))?;
        out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    /// Writes the checksum, syncs the file and renames it over `path`.
    pub(super) fn finish(mut self) -> std::io::Result<()> {
        use std::io::Write;
        if self.left != 0 {
            return Err(std::io::Error::other(
                "fewer entries than the file's head says",
            ));
        }
        let mut out = self
            .out
            .take()
            .ok_or_else(|| std::io::Error::other("finished"))?;
        out.write_all(&self.sum.to_le_bytes())?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&self.tmp, &self.path)?;
        self.tmp.clear();
        Ok(())
    }
}

impl Drop for Streamed {
    fn drop(&mut self) {
        if !self.tmp.is_empty() {
            drop(self.out.take());
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Why a file could not be used.
pub(super) enum Refused {
    Io(std::io::Error),
    Bad(String),
    Foreign(String),
    Stopped(Error),
}

impl Refused {
    pub(super) fn error(self, path: &str) -> Error {
        Error::new(match self {
            Refused::Io(e) => EvalError::Io {
                path: path.to_string(),
                message: e.to_string(),
            },
            Refused::Bad(detail) => EvalError::TableFile {
                path: path.to_string(),
                detail,
                foreign: false,
            },
            Refused::Foreign(detail) => EvalError::TableFile {
                path: path.to_string(),
                detail,
                foreign: true,
            },
            Refused::Stopped(e) => return e,
        })
    }
}

/// Reads and checks a table file (not yet against any session).
pub(super) fn read(path: &str) -> Result<TableFile, Refused> {
    let len = std::fs::metadata(path).map_err(Refused::Io)?.len();
    loony_core::memory::reserve(
        usize::try_from(len).unwrap_or(usize::MAX).saturating_mul(3),
        "a table file",
    )
    .map_err(Refused::Stopped)?;
    let bytes = std::fs::read(path).map_err(Refused::Io)?;
    TableFile::decode(&bytes).map_err(Refused::Bad)
}
