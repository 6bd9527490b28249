//! JSON for `--json`, written by serde_json. The output is the contract users' pipelines read,
//! kept as it was when Loony wrote it by hand: compact, UTF-8 unescaped, and every control
//! character other than `\n` and `\t` as `\u00XX` (serde_json would write `\r`, `\b`, `\f`).

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter};
use std::io;

/// serde_json's compact output (the trait's defaults) with Loony's escapes.
struct Escapes;

impl Formatter for Escapes {
    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        let byte = match escape {
            CharEscape::Quote => return writer.write_all(b"\\\""),
            CharEscape::ReverseSolidus => return writer.write_all(b"\\\\"),
            CharEscape::LineFeed => return writer.write_all(b"\\n"),
            CharEscape::Tab => return writer.write_all(b"\\t"),
            CharEscape::Solidus => b'/',
            CharEscape::Backspace => 0x08,
            CharEscape::FormFeed => 0x0c,
            CharEscape::CarriageReturn => b'\r',
            CharEscape::AsciiControl(b) => b,
        };
        if byte == b'/' {
            return writer.write_all(b"/");
        }
        write!(writer, "\\u{byte:04x}")
    }
}

/// `value` as one line of JSON.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(128);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Escapes);
    // Serializing plain data into a Vec cannot fail.
    if value.serialize(&mut ser).is_err() {
        return "null".into();
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A string as a JSON string literal.
pub fn string(s: &str) -> String {
    to_string(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_as_before() {
        assert_eq!(string("a\"b\\c\nd\te"), r#""a\"b\\c\nd\te""#);
        assert_eq!(string("\r\u{8}\u{c}\u{1}"), r#""\u000d\u0008\u000c\u0001""#);
        assert_eq!(string("∞̄ ☾ é/"), "\"∞̄ ☾ é/\"");
    }
}
