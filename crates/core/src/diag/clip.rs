//! Long source lines in a rendered diagnostic are cut to a window around the label, so a
//! generated 360 KB one-line script does not echo itself whole into the terminal.

/// Lines of source wider than this are cut (in characters, gutter included).
pub const WIDTH: usize = 200;
/// How much of the line is kept before the first caret.
const BEFORE: usize = 60;

/// `text` (a diagnostic rendered by codespan-reporting, `bar` its gutter character) with each
/// source line longer than [`WIDTH`] cut to a window starting a little before the carets
/// under it, `…` marking what was cut; the caret lines are cut the same way.
pub fn long_lines(text: &str, bar: char) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len().min(64 << 10));
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let Some(body) = body_start(line, bar) else {
            out.push_str(line);
            i += 1;
            continue;
        };
        if line.chars().count() <= WIDTH {
            out.push_str(line);
            i += 1;
            continue;
        }
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
        // ASCII diagnostics (a `|` gutter) stay ASCII.
        let more = if bar == '|' { "..." } else { "…" };
        for (k, l) in lines[i..j].iter().enumerate() {
            out.push_str(&cut(l, body, from, keep, k == 0, more));
        }
        i = j;
    }
    out
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
    line[..at].trim().is_empty()
        && at + bar.len_utf8() + 1 == body
        && line[body.min(line.len())..]
            .trim_start()
            .starts_with(['^', '-'])
}

/// `line` with its text from character `from`, `keep` characters long, `more` where cut. Only
/// the source line gets a trailing `…` (a label's text after its carets is kept whole).
fn cut(line: &str, body: usize, from: usize, keep: usize, source: bool, more: &str) -> String {
    let (gutter, text) = line.split_at(body.min(line.len()));
    let newline = text.ends_with('\n');
    let text = text.trim_end_matches('\n');
    let mut s = String::from(gutter);
    let count = text.chars().count();
    if from > 0 {
        // Label lines get blanks of the same width, so the carets stay under their text.
        if source {
            s.push_str(more);
        } else {
            s.push_str(&" ".repeat(more.chars().count()));
        }
    }
    let shown: String = if source {
        text.chars().skip(from).take(keep).collect()
    } else {
        text.chars().skip(from).collect()
    };
    s.push_str(&shown);
    if source && from + keep < count {
        s.push_str(more);
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
    fn short_lines_are_left_alone() {
        let text = "error: x\n  │\n1 │ *1 + nope\n  │      ^^^^ not defined\n";
        assert_eq!(long_lines(text, '│'), text);
    }
}
