//! Long source lines in a rendered diagnostic are cut to a window around the label, so a
//! generated 360 KB one-line script does not echo itself whole into the terminal.

/// Lines of source wider than this are cut (in characters, gutter included).
pub const WIDTH: usize = 200;
/// How much of the line is kept before the first caret.
const BEFORE: usize = 60;

/// `text` (a diagnostic rendered by codespan-reporting, `bar` its gutter character) with each
/// source line longer than [`WIDTH`] cut to a window starting a little before the carets
/// under it, `…` marking what was cut; the caret lines under it are cut to the same window
/// and their labels to [`WIDTH`]. Frame lines of nothing but blanks lose their trailing blanks.
pub fn long_lines(text: &str, bar: char) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len().min(64 << 10));
    // ASCII diagnostics (a `|` gutter) stay ASCII.
    let more = if bar == '|' { "..." } else { "…" };
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let long = line.chars().count() > WIDTH;
        let Some(body) = body_start(line, bar).filter(|_| long) else {
            out.push_str(&tidy(line, bar, more));
            i += 1;
            continue;
        };
        // The label lines below: gutter, then spaces and carets (or dashes) and the label.
        let mut j = i + 1;
        let mut first_mark = None;
        while j < lines.len() && is_label_line(lines[j], bar, body) {
            let marks = lines[j][body..].chars().position(|c| c == '^' || c == '-');
            if let Some(m) = marks {
                first_mark = Some(first_mark.map_or(m, |f: usize| f.min(m)));
            }
            j += 1;
        }
        let from = first_mark.unwrap_or(0).saturating_sub(BEFORE);
        let keep = WIDTH.saturating_sub(body);
        out.push_str(&cut(line, body, from, keep, more));
        for l in &lines[i + 1..j] {
            out.push_str(&cut_label(l, body, from, keep, more));
        }
        i = j;
    }
    out
}

/// A line outside a cut window: a label line too long on its own is cut from its start, and
/// a frame line of blanks loses them.
fn tidy(line: &str, bar: char, more: &str) -> String {
    if line.chars().count() <= WIDTH {
        return line.to_string();
    }
    let Some(at) = line.find(bar) else {
        return line.to_string();
    };
    let body = at + bar.len_utf8() + 1;
    if !line[..at].trim().is_empty() || body > line.len() {
        return line.to_string();
    }
    if line[body..].trim().is_empty() {
        let newline = if line.ends_with('\n') { "\n" } else { "" };
        return format!("{}{newline}", line.trim_end());
    }
    if is_label_line(line, bar, body) {
        return cut_label(line, body, 0, WIDTH.saturating_sub(body), more);
    }
    line.to_string()
}

/// Byte offset of a source line's text (after `N │ `), if `line` is one.
fn body_start(line: &str, bar: char) -> Option<usize> {
    let at = line.find(bar)?;
    let gutter = &line[..at];
    let numbered = gutter.trim().chars().all(|c| c.is_ascii_digit()) && !gutter.trim().is_empty();
    numbered
        .then(|| at + bar.len_utf8() + 1)
        .filter(|&b| b <= line.len())
}

fn is_label_line(line: &str, bar: char, body: usize) -> bool {
    let Some(at) = line.find(bar) else {
        return false;
    };
    // Carets, the connectors of a label drawn below, or its message placed under its column.
    line[..at].trim().is_empty()
        && at + bar.len_utf8() + 1 == body
        && !line[body.min(line.len())..].trim().is_empty()
}

/// The characters a label line draws with (carets, dashes, the lines of multi-line labels).
fn is_drawing(c: char) -> bool {
    matches!(
        c,
        ' ' | '^' | '-' | '|' | '\'' | '│' | '─' | '╭' | '╰' | '╯' | '┬' | '┴' | '┌' | '└'
    )
}

/// The source line `line` with its text from character `from`, `keep` characters long, `more`
/// where cut.
fn cut(line: &str, body: usize, from: usize, keep: usize, more: &str) -> String {
    let (gutter, text) = line.split_at(body.min(line.len()));
    let newline = text.ends_with('\n');
    let text = text.trim_end_matches('\n');
    let mut s = String::from(gutter);
    if from > 0 {
        s.push_str(more);
    }
    s.extend(text.chars().skip(from).take(keep));
    if from + keep < text.chars().count() {
        s.push_str(more);
    }
    if newline {
        s.push('\n');
    }
    s
}

/// A label line cut to the window of the source line above it: its carets from character
/// `from`, at most `keep` of them (blanks of the same width stand for a cut start, so the
/// carets stay under their text), then its message, itself at most [`WIDTH`] characters.
fn cut_label(line: &str, body: usize, from: usize, keep: usize, more: &str) -> String {
    let (gutter, text) = line.split_at(body.min(line.len()));
    let newline = text.ends_with('\n');
    let chars: Vec<char> = text.trim_end().chars().collect();
    let mut end = chars
        .iter()
        .position(|&c| !is_drawing(c))
        .unwrap_or(chars.len());
    // Carets end before the blank that separates their message; a message on a line of its
    // own keeps its blanks, which place it under its column.
    let marked = chars[..end].iter().any(|&c| c != ' ');
    while marked && end > 0 && chars[end - 1] == ' ' {
        end -= 1;
    }
    let (drawing, message) = chars.split_at(end);
    let mut s = String::from(gutter);
    if from > 0 {
        s.push_str(&" ".repeat(more.chars().count()));
    }
    s.extend(drawing.iter().skip(from).take(keep));
    if drawing.len() > from + keep {
        s.push_str(more);
    }
    let message: Vec<char> = message.iter().skip_while(|&&c| c == ' ').copied().collect();
    if !message.is_empty() {
        if marked {
            s.push(' ');
        }
        s.extend(message.iter().take(WIDTH));
        if message.len() > WIDTH {
            s.push_str(more);
        }
    }
    if newline {
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_cut_around_its_carets() {
        let src = format!("{}nope{}", "*1 + ".repeat(100), " + *1".repeat(100));
        let carets = format!("{}^^^^ not defined", " ".repeat(500));
        let text = format!("error: x\n  │\n1 │ {src}\n  │ {carets}\n");
        let out = long_lines(&text, '│');
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[2].chars().count() <= WIDTH + 2, "{}", lines[2]);
        assert!(lines[2].starts_with("1 │ …") && lines[2].ends_with('…'));
        // The carets still sit under `nope`.
        let at = |l: &str, pat: &str| l.find(pat).map(|b| l[..b].chars().count());
        assert_eq!(at(lines[2], "nope"), at(lines[3], "^^^^"));
        assert!(lines[3].ends_with("^^^^ not defined"));
    }

    #[test]
    fn long_carets_and_blank_frame_lines_are_cut_too() {
        let src = format!("\"{}\" + 1", "a".repeat(5000));
        let carets = format!("{} this is a string", "^".repeat(5002));
        let blank = format!("  │{}\n", " ".repeat(5000));
        let text = format!("error: x\n  │\n1 │ {src}\n  │ {carets}\n{blank}  │\n");
        let out = long_lines(&text, '│');
        assert!(out.len() < 2000, "{} bytes", out.len());
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[3].ends_with("^… this is a string"), "{}", lines[3]);
        assert_eq!(lines[4], "  │");
    }

    #[test]
    fn short_lines_are_left_alone() {
        let text = "error: x\n  │\n1 │ *1 + nope\n  │      ^^^^ not defined\n";
        assert_eq!(long_lines(text, '│'), text);
    }
}
