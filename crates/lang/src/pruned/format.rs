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

/// A table file's head: its rulesets, and how many entries follow.
#[derive(Default, Clone)]
pub(super) struct Head {
    pub(super) rulesets: Vec<RulesetRec>,
    pub(super) entries: u64,
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

/// A table file read through and found whole ([`scan`]): its head, the entries of each
/// ruleset record, and the length and time of change it had then (read again, it must
/// still have them).
pub(super) struct Checked {
    pub(super) path: String,
    pub(super) head: Head,
    pub(super) counts: Vec<u64>,
    stamp: Stamp,
}

type Stamp = (u64, Option<std::time::SystemTime>);

/// The entries of a file not loaded into the session yet: in the file, read again when they
/// are loaded (a table file may be as large as the memory the table fills, so it is never
/// held whole), or kept in memory in the file's form (what a load left: the entries of
/// rulesets not defined yet).
#[derive(Default)]
pub(super) enum Waiting {
    #[default]
    Nothing,
    File(Checked),
    Kept(Vec<u8>),
}

/// A file read at start (`--table`): where it is saved, and what of it is not loaded yet.
#[derive(Default)]
pub(super) struct Pending {
    pub(super) path: Option<String>,
    /// Saved to `path` this often while a search runs (`--save-every`), and when last.
    pub(super) every: Option<std::time::Duration>,
    pub(super) last: Option<std::time::Instant>,
    /// The file's ruleset records, the entries of each, and where those not loaded are.
    pub(super) rulesets: Vec<RulesetRec>,
    pub(super) counts: Vec<u64>,
    pub(super) waiting: Waiting,
    /// By ruleset record: loaded into the session (so no longer carried), or refused (the
    /// session's ruleset of that name reads otherwise: carried, not tried again).
    pub(super) loaded: Vec<bool>,
    pub(super) refused: Vec<bool>,
}

impl Pending {
    /// Positions of the file not loaded yet, for `:table`: ` (FILE: N positions not loaded
    /// yet, …)`, or nothing.
    pub(crate) fn summary(&self) -> String {
        let waiting: u64 = self
            .counts
            .iter()
            .zip(&self.loaded)
            .filter(|&(_, &l)| !l)
            .map(|(n, _)| n)
            .sum();
        match (&self.path, waiting) {
            (Some(path), 1..) => format!(
                "; {path}: {waiting} positions not loaded (each ruleset's are loaded at the \
                 first search after it is defined as it was when they were saved)"
            ),
            _ => String::new(),
        }
    }

    /// Whether ruleset record `r` is not loaded (refused or not defined yet): its entries
    /// wait, and a save carries them over.
    pub(super) fn open(&self, r: usize) -> bool {
        !self.loaded.get(r).copied().unwrap_or(false)
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

// --- reading ---

/// Reads the table file at `path` through, calling `f` with each entry as it is read, and
/// checks it whole: magic, version, each entry's form and the checksum. A file is read a
/// buffer at a time, never held (a resumed search's file is as large as the memory its
/// table fills). Where `expect` is the file as read before, it must still be that file.
/// `stop` is polled.
pub(super) fn scan(
    path: &str,
    expect: Option<&Checked>,
    stop: &dyn Fn() -> bool,
    f: &mut dyn FnMut(&Entry) -> Result<(), Refused>,
) -> Result<Checked, Refused> {
    let meta = std::fs::metadata(path).map_err(Refused::Io)?;
    let stamp = (meta.len(), meta.modified().ok());
    if expect.is_some_and(|c| c.stamp != stamp) {
        return Err(Refused::Bad(
            "it was changed after it was first read: read it again (load_table, or run \
             again)"
                .into(),
        ));
    }
    let file = std::fs::File::open(path).map_err(Refused::Io)?;
    let mut src = FileBytes {
        r: std::io::BufReader::with_capacity(1 << 16, file),
        left: meta.len(),
        sum: FNV_START,
        buf: Vec::new(),
    };
    let bad = |why: &str| Refused::Bad(why.to_string());
    if meta.len() < MAGIC.len() as u64 || src.take(MAGIC.len())? != MAGIC {
        return Err(bad("it is not a table file that save_table wrote"));
    }
    let version = src.u32()?;
    if version != VERSION {
        return Err(bad(&format!(
            "it is a table file of version {version}, and this Loony reads version {VERSION}"
        )));
    }
    // What is left is the body and the checksum after it.
    src.left = src.left.checked_sub(8).ok_or_else(|| bad(&torn()))?;
    let body = (|| {
        let head = read_head(&mut src)?;
        if let Some(c) = expect
            && (c.head.rulesets != head.rulesets || c.head.entries != head.entries)
        {
            return Err(Refused::Bad(torn()));
        }
        let mut counts = vec![0u64; head.rulesets.len()];
        for i in 0..head.entries {
            if i.is_multiple_of(POLL as u64) && stop() {
                return Err(stopped());
            }
            let e = read_entry(&mut src, &head.rulesets)?;
            counts[e.ruleset as usize] += 1;
            f(&e)?;
        }
        if src.left != 0 {
            return Err(Refused::Bad(torn()));
        }
        Ok((head, counts))
    })();
    // A fault in the form of the file is reported as the checksum's when the checksum is
    // wrong too (a bit flipped, or the file cut short), as a file read whole would be.
    let holds = match &body {
        Ok(_) | Err(Refused::Bad(_)) => src.sum_holds(stop)?,
        Err(_) => true,
    };
    match body {
        Ok(_) | Err(Refused::Bad(_)) if !holds => Err(bad(
            "its checksum does not match: the file was cut short or altered after it was \
             written",
        )),
        Err(e) => Err(e),
        Ok((head, counts)) => Ok(Checked {
            path: path.to_string(),
            head,
            counts,
            stamp,
        }),
    }
}

impl Checked {
    /// The file just written at `path` with `head`, `counts` entries of each record.
    pub(super) fn written(path: &str, head: Head, counts: Vec<u64>) -> std::io::Result<Checked> {
        let meta = std::fs::metadata(path)?;
        Ok(Checked {
            path: path.to_string(),
            head,
            counts,
            stamp: (meta.len(), meta.modified().ok()),
        })
    }
}

/// Whether two paths name one file (the second need not exist).
pub(super) fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

impl Waiting {
    /// Calls `f` with each entry waiting, in the file's order (`rulesets`: the file's
    /// records). `stop` is polled.
    pub(super) fn each(
        &self,
        rulesets: &[RulesetRec],
        stop: &dyn Fn() -> bool,
        f: &mut dyn FnMut(&Entry) -> Result<(), Refused>,
    ) -> Result<(), Refused> {
        match self {
            Waiting::Nothing => Ok(()),
            Waiting::File(c) => scan(&c.path, Some(c), stop, f).map(|_| ()),
            Waiting::Kept(bytes) => {
                let mut src = Slice { bytes, at: 0 };
                let mut i = 0usize;
                while src.at < bytes.len() {
                    if i.is_multiple_of(POLL) && stop() {
                        return Err(stopped());
                    }
                    i += 1;
                    f(&read_entry(&mut src, rulesets)?)?;
                }
                Ok(())
            }
        }
    }
}

/// An entry in the file's form (a [`Waiting::Kept`] entry), added to `out`.
pub(super) fn keep_entry(out: &mut Vec<u8>, e: &Entry) {
    put_entry(out, e.ruleset, &e.args, &e.fact, e.work);
}

fn stopped() -> Refused {
    Refused::Stopped(Error::new(loony_core::diag::CoreError::Interrupted))
}

pub(super) fn torn() -> String {
    "its content is not what save_table writes: the file is torn or altered".into()
}

/// Bytes read in order, from a file or from memory.
trait Bytes {
    fn take(&mut self, n: usize) -> Result<&[u8], Refused>;
    /// Bytes left to read: a length beyond them is torn.
    fn left(&self) -> u64;

    fn u16(&mut self) -> Result<u16, Refused> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2")))
    }

    fn u32(&mut self) -> Result<u32, Refused> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }

    fn u64(&mut self) -> Result<u64, Refused> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }
}

/// A file's body, read a buffer at a time, its checksum kept as the bytes pass.
struct FileBytes {
    r: std::io::BufReader<std::fs::File>,
    left: u64,
    sum: u64,
    buf: Vec<u8>,
}

impl Bytes for FileBytes {
    fn take(&mut self, n: usize) -> Result<&[u8], Refused> {
        use std::io::Read;
        if n as u64 > self.left {
            return Err(Refused::Bad(torn()));
        }
        if self.buf.len() < n {
            self.buf.resize(n, 0);
        }
        let got = &mut self.buf[..n];
        self.r.read_exact(got).map_err(Refused::Io)?;
        self.sum = fnv_on(self.sum, got);
        self.left -= n as u64;
        Ok(got)
    }

    fn left(&self) -> u64 {
        self.left
    }
}

impl FileBytes {
    /// Reads the rest of the body and the checksum after it: whether they agree.
    fn sum_holds(&mut self, stop: &dyn Fn() -> bool) -> Result<bool, Refused> {
        use std::io::Read;
        let mut chunk = vec![0u8; 1 << 16];
        while self.left > 0 {
            if stop() {
                return Err(stopped());
            }
            let n = self.left.min(chunk.len() as u64) as usize;
            self.r.read_exact(&mut chunk[..n]).map_err(Refused::Io)?;
            self.sum = fnv_on(self.sum, &chunk[..n]);
            self.left -= n as u64;
        }
        let mut sum = [0u8; 8];
        match self.r.read_exact(&mut sum) {
            Ok(()) => Ok(u64::from_le_bytes(sum) == self.sum),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
            Err(e) => Err(Refused::Io(e)),
        }
    }
}

/// Bytes in memory.
struct Slice<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Bytes for Slice<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], Refused> {
        let end = self.at.checked_add(n).ok_or_else(|| Refused::Bad(torn()))?;
        let s = self
            .bytes
            .get(self.at..end)
            .ok_or_else(|| Refused::Bad(torn()))?;
        self.at = end;
        Ok(s)
    }

    fn left(&self) -> u64 {
        (self.bytes.len() - self.at) as u64
    }
}

fn read_head(src: &mut impl Bytes) -> Result<Head, Refused> {
    let mut head = Head::default();
    let count = src.u32()?;
    for _ in 0..count {
        let len = src.u32()? as usize;
        let name = std::str::from_utf8(src.take(len)?)
            .map_err(|_| Refused::Bad(torn()))?
            .to_string();
        let hash = src.u64()?;
        let arity = src.u32()?;
        head.rulesets.push(RulesetRec { name, hash, arity });
    }
    head.entries = src.u64()?;
    Ok(head)
}

fn read_entry(src: &mut impl Bytes, rulesets: &[RulesetRec]) -> Result<Entry, Refused> {
    let torn = || Refused::Bad(torn());
    let ruleset = src.u32()?;
    let rec = rulesets.get(ruleset as usize).ok_or_else(torn)?;
    let args = (0..rec.arity)
        .map(|_| read_arg(src, 0))
        .collect::<Result<Vec<_>, _>>()?;
    let fact = Fact {
        exact: src.u32()?,
        not: src.u64()?,
        options: src.u32()?,
    };
    let work = src.u32()?;
    // A nimber is less than 2^31 and at most the option count.
    let bad = |n: u32| n != UNKNOWN && n >= 1 << 31;
    if bad(fact.exact)
        || bad(fact.options)
        || (fact.exact != UNKNOWN && fact.options != UNKNOWN && fact.exact > fact.options)
        || (fact.exact < 64 && fact.not >> fact.exact & 1 == 1)
    {
        return Err(torn());
    }
    Ok(Entry {
        ruleset,
        args,
        fact,
        work,
    })
}

fn read_arg(src: &mut impl Bytes, depth: usize) -> Result<Arg, Refused> {
    let torn = || Refused::Bad(torn());
    if depth > MOST_NESTING {
        return Err(torn());
    }
    let tag = src.take(1)?[0];
    Ok(match tag {
        0 => Arg::Int(src.u64()? as i64),
        1 | 2 => {
            let len = src.u32()?;
            // Each item takes a byte at least: a length past the file is torn.
            if u64::from(len) > src.left() {
                return Err(torn());
            }
            let xs = (0..len)
                .map(|_| read_arg(src, depth + 1))
                .collect::<Result<Rc<[Arg]>, _>>()?;
            if tag == 1 {
                Arg::Tuple(xs)
            } else {
                Arg::List(xs)
            }
        }
        3 => {
            let (rows, cols) = (src.u16()? as usize, src.u16()? as usize);
            let cells = src.take(rows * cols)?;
            Arg::Board(Rc::new(
                Board::from_cells(rows, cols, cells).map_err(|_| torn())?,
            ))
        }
        4 => {
            let n = src.u32()?;
            let m = src.u32()?;
            if u64::from(m) > src.left() / 8 {
                return Err(torn());
            }
            let mut edges = Vec::with_capacity(m as usize);
            for _ in 0..m {
                edges.push((i64::from(src.u32()?), i64::from(src.u32()?)));
            }
            let g = Graph::new(i64::from(n), &edges).map_err(|_| torn())?;
            if g.edges().len() != m as usize {
                return Err(torn());
            }
            Arg::Graph(Rc::new(g))
        }
        _ => return Err(torn()),
    })
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
