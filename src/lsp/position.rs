//! Where things are, as the protocol says it: byte offsets to and from zero-based lines and
//! UTF-16 columns, and file paths to and from `file:` URIs.

use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};

/// The UTF-16 position of byte `offset` in `text` (clamped to the text, and back to the start
/// of a character).
pub fn position(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..line_start].bytes().filter(|&b| b == b'\n').count();
    let character: usize = text[line_start..offset].chars().map(char::len_utf16).sum();
    Position::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(character).unwrap_or(u32::MAX),
    )
}

pub fn range(text: &str, span: &std::ops::Range<usize>) -> Range {
    Range::new(position(text, span.start), position(text, span.end))
}

/// The byte offset of a UTF-16 position (past the end of its line: the line's end; past the
/// last line: the end of the text).
pub fn offset(text: &str, pos: Position) -> usize {
    let mut start = 0;
    for _ in 0..pos.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let mut units = 0;
    for (i, c) in text[start..line_end].char_indices() {
        if units >= pos.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    line_end
}

/// The bytes a URI path or file name may keep as they are.
fn plain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"/-._~".contains(&b)
}

/// The `file:` URI of an absolute path.
pub fn file_uri(path: &Path) -> Option<Uri> {
    let mut s = String::from("file://");
    for &b in path.to_str()?.as_bytes() {
        if plain(b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s.parse().ok()
}

/// The path of a `file:` URI.
pub fn uri_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path`: only the local host.
    let path = match rest.strip_prefix("localhost") {
        Some(p) => p,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).and_then(|&b| hex(b)),
            bytes.get(i + 2).and_then(|&b| hex(b)),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}
