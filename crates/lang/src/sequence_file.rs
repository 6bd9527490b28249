//! Nim-sequences in files: `write_sequence` writes heaps as the kernel computes them (the
//! language never holds the sequence), `read_sequence` reads a file back.
//!
//! Two formats, chosen by the extension:
//! * text (any extension but the two below): a `#` header line naming the game and the
//!   heaps, then one value a line; a file that stopped early ends with a `# partial: …` line;
//! * binary, `.u16` or `.u32`: a 32-byte header (`LOONYSEQ`, version 1 as `u16`, the width in
//!   bytes as `u16`, flags as `u32` with bit 0 set once complete, the first heap and the count
//!   as `u64`, all little-endian), then the values. The header is written first as incomplete
//!   with count 0 and rewritten at the end, so a file cut off by a kill says so too.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use loony_theory::heap::Values;

/// The header's magic bytes.
const MAGIC: &[u8; 8] = b"LOONYSEQ";
const VERSION: u16 = 1;
const HEADER: usize = 32;
/// Flag bit: every heap asked for was written.
const COMPLETE: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Text,
    U16,
    U32,
}

impl Format {
    pub fn of(path: &str) -> Format {
        match std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
        {
            Some("u16") => Format::U16,
            Some("u32") => Format::U32,
            _ => Format::Text,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::U16 => "u16",
            Format::U32 => "u32",
        }
    }

    fn width(self) -> u16 {
        match self {
            Format::Text => 0,
            Format::U16 => 2,
            Format::U32 => 4,
        }
    }
}

/// Why writing stopped.
#[derive(Debug)]
pub(crate) enum WriteError {
    Io(io::Error),
    /// A value past what a `.u16` file holds.
    TooWide {
        heap: u64,
        value: u32,
    },
}

/// A sequence file being written: heaps `first..end`, `next` the next one to write.
pub(crate) struct Writer {
    out: BufWriter<File>,
    format: Format,
    first: u64,
    next: u64,
    end: u64,
    line: Vec<u8>,
    pub error: Option<WriteError>,
}

impl Writer {
    /// Creates the file and writes its header; `name` is the game's, for the text header.
    pub fn create(path: &str, name: &str, first: u64, end: u64) -> io::Result<Writer> {
        let format = Format::of(path);
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
        match format {
            Format::Text => {
                let last = end.saturating_sub(1);
                writeln!(
                    out,
                    "# nim-values of {name}, heaps {first} to {last}, one a line"
                )?;
            }
            _ => out.write_all(&header(format, 0, first, 0))?,
        }
        Ok(Writer {
            out,
            format,
            first,
            next: first,
            end,
            line: Vec::with_capacity(12),
            error: None,
        })
    }

    /// Writes the heaps of `values` (heap `base + i` at `i`) not written yet: `false` once
    /// writing has failed, to stop the kernel.
    pub fn take(&mut self, values: Values<'_>, base: u64) -> bool {
        let upto = (base + values.len() as u64).min(self.end);
        while self.next < upto {
            if !self.push(values.get((self.next - base) as usize)) {
                return false;
            }
        }
        self.error.is_none()
    }

    /// Writes the next heap's value: `false` once writing has failed.
    pub fn push(&mut self, v: u32) -> bool {
        if self.error.is_some() {
            return false;
        }
        match self.put(v) {
            Ok(()) => {
                self.next += 1;
                true
            }
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }

    fn put(&mut self, v: u32) -> Result<(), WriteError> {
        let r = match self.format {
            Format::Text => {
                self.line.clear();
                decimal(v, &mut self.line);
                self.line.push(b'\n');
                self.out.write_all(&self.line)
            }
            Format::U16 => {
                let Ok(v16) = u16::try_from(v) else {
                    return Err(WriteError::TooWide {
                        heap: self.next,
                        value: v,
                    });
                };
                self.out.write_all(&v16.to_le_bytes())
            }
            Format::U32 => self.out.write_all(&v.to_le_bytes()),
        };
        r.map_err(WriteError::Io)
    }

    /// Heaps written so far.
    pub fn written(&self) -> u64 {
        self.next - self.first
    }

    pub fn next_heap(&self) -> u64 {
        self.next
    }

    pub fn format(&self) -> Format {
        self.format
    }

    /// Marks the file complete, or partial with what it holds, and flushes it: the file's size
    /// in bytes.
    pub fn finish(mut self) -> io::Result<u64> {
        let complete = self.next == self.end;
        match self.format {
            Format::Text => {
                if !complete {
                    let last = self.end.saturating_sub(1);
                    if self.next > self.first {
                        writeln!(
                            self.out,
                            "# partial: heaps {} to {} of {} to {last}",
                            self.first,
                            self.next - 1,
                            self.first
                        )?;
                    } else {
                        writeln!(self.out, "# partial: no heaps of {} to {last}", self.first)?;
                    }
                }
                self.out.flush()?;
            }
            _ => {
                self.out.flush()?;
                let flags = if complete { COMPLETE } else { 0 };
                let h = header(self.format, flags, self.first, self.written());
                let file = self.out.get_mut();
                file.seek(SeekFrom::Start(0))?;
                file.write_all(&h)?;
                file.seek(SeekFrom::End(0))?;
            }
        }
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.sync_data()?;
        Ok(file.metadata()?.len())
    }
}

fn header(format: Format, flags: u32, first: u64, count: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10..12].copy_from_slice(&format.width().to_le_bytes());
    h[12..16].copy_from_slice(&flags.to_le_bytes());
    h[16..24].copy_from_slice(&first.to_le_bytes());
    h[24..32].copy_from_slice(&count.to_le_bytes());
    h
}

/// `v` in decimal, appended (a value a line at record scale: no formatter machinery).
fn decimal(mut v: u32, out: &mut Vec<u8>) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// A sequence read back from a file.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Loaded {
    pub first: u64,
    pub values: Vec<u32>,
    /// The game's name from a text header.
    pub name: Option<String>,
    /// Whether the file says it holds every heap it was asked for.
    pub complete: bool,
}

/// What is wrong with a file that should hold a sequence.
#[derive(Debug)]
pub(crate) enum ReadError {
    Io(io::Error),
    /// A line (from 1) that is neither a value nor a `#` comment.
    Line {
        line: usize,
        text: String,
    },
    /// A binary file whose header is not Loony's.
    Header,
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// Reads a sequence file in either format (told apart by the binary magic). `reserve` is
/// asked for the bytes the values will take before they are read.
pub(crate) fn read(
    path: &str,
    reserve: &mut dyn FnMut(usize) -> bool,
) -> Result<Option<Loaded>, ReadError> {
    let mut file = BufReader::with_capacity(1 << 20, File::open(path)?);
    let mut head = [0u8; HEADER];
    let mut got = 0;
    while got < HEADER {
        let k = file.read(&mut head[got..])?;
        if k == 0 {
            break;
        }
        got += k;
    }
    if got == HEADER && &head[..8] == MAGIC {
        let width = u16::from_le_bytes([head[10], head[11]]);
        let flags = u32::from_le_bytes(head[12..16].try_into().expect("4 bytes"));
        let first = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
        let count = u64::from_le_bytes(head[24..32].try_into().expect("8 bytes"));
        if u16::from_le_bytes([head[8], head[9]]) != VERSION || !matches!(width, 2 | 4) {
            return Err(ReadError::Header);
        }
        // A file cut off before its header was rewritten holds what its length says.
        let len = std::fs::metadata(path)?.len().saturating_sub(HEADER as u64);
        let count = if flags & COMPLETE != 0 {
            count
        } else {
            len / u64::from(width)
        };
        let count = usize::try_from(count).map_err(|_| ReadError::Header)?;
        if !reserve(count.saturating_mul(4)) {
            return Ok(None);
        }
        let mut values = Vec::with_capacity(count);
        let mut buf = vec![0u8; 1 << 16];
        let w = width as usize;
        while values.len() < count {
            let want = ((count - values.len()) * w).min(buf.len());
            file.read_exact(&mut buf[..want])?;
            values.extend(buf[..want].chunks_exact(w).map(|c| match w {
                2 => u32::from(u16::from_le_bytes([c[0], c[1]])),
                _ => u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
            }));
        }
        return Ok(Some(Loaded {
            first,
            values,
            name: None,
            complete: flags & COMPLETE != 0,
        }));
    }
    // Text: the header, if any, names the game and the first heap.
    let mut text = head[..got].to_vec();
    file.read_to_end(&mut text)?;
    let text = String::from_utf8_lossy(&text);
    let (mut first, mut name, mut complete) = (0u64, None, true);
    // One value a line takes at least two bytes: a bound for the reservation.
    if !reserve((text.len() / 2).saturating_mul(4)) {
        return Ok(None);
    }
    let mut values = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(comment) = line.strip_prefix('#') {
            let comment = comment.trim();
            if let Some(rest) = comment.strip_prefix("nim-values of ")
                && let Some((game, heaps)) = rest.rsplit_once(", heaps ")
            {
                name = Some(game.to_string());
                if let Some((a, _)) = heaps.split_once(" to ") {
                    first = a.trim().parse().unwrap_or(0);
                }
            } else if comment.starts_with("partial") {
                complete = false;
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        match line.parse::<u32>() {
            Ok(v) => values.push(v),
            Err(_) => {
                return Err(ReadError::Line {
                    line: i + 1,
                    text: line.chars().take(40).collect(),
                });
            }
        }
    }
    Ok(Some(Loaded {
        first,
        values,
        name,
        complete,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(ext: &str, values: &[u32], first: u64, stop_at: Option<usize>) -> Loaded {
        let dir = std::env::temp_dir().join(format!("loony-seqfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("s{first}-{}.{ext}", stop_at.unwrap_or(0)));
        let path = path.to_str().unwrap();
        let end = first + values.len() as u64;
        let mut w = Writer::create(path, "heap(\"0.6\")", first, end).unwrap();
        // The kernel hands over every value from heap 0, in growing prefixes.
        let all: Vec<u32> = (0..first as u32).chain(values.iter().copied()).collect();
        let upto = stop_at.map_or(all.len(), |k| first as usize + k);
        for cut in (0..=upto).step_by(7).chain([upto]) {
            assert!(w.take(Values::U32(&all[..cut]), 0));
        }
        w.finish().unwrap();
        let r = read(path, &mut |_| true).unwrap().unwrap();
        std::fs::remove_file(path).unwrap();
        r
    }

    #[test]
    fn text_and_binary_read_back() {
        let values: Vec<u32> = (0..1000).map(|i| (i * 7919 % 301) as u32).collect();
        for ext in ["txt", "u16", "u32"] {
            for first in [0, 5] {
                let r = roundtrip(ext, &values, first, None);
                assert_eq!(
                    (r.first, &r.values[..], r.complete),
                    (first, &values[..], true)
                );
                if ext == "txt" {
                    assert_eq!(r.name.as_deref(), Some("heap(\"0.6\")"));
                }
            }
        }
    }

    #[test]
    fn a_stopped_file_is_marked_partial() {
        let values: Vec<u32> = (0..100).collect();
        for ext in ["txt", "u16"] {
            let r = roundtrip(ext, &values, 3, Some(40));
            assert_eq!((&r.values[..], r.complete), (&values[..40], false), "{ext}");
        }
    }

    #[test]
    fn u16_refuses_a_wide_value() {
        let path = std::env::temp_dir().join(format!("loony-wide-{}.u16", std::process::id()));
        let path = path.to_str().unwrap();
        let mut w = Writer::create(path, "g", 0, 3).unwrap();
        assert!(!w.take(Values::U32(&[1, 70000, 2]), 0));
        assert!(matches!(
            w.error,
            Some(WriteError::TooWide {
                heap: 1,
                value: 70000
            })
        ));
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn decimals() {
        for v in [0, 7, 10, 99, 12345, u32::MAX] {
            let mut out = Vec::new();
            decimal(v, &mut out);
            assert_eq!(String::from_utf8(out).unwrap(), v.to_string());
        }
    }
}
