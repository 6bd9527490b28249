//! Printing forms by structure (never by id, which depends on insertion order).

use super::store::{Arg, GameId, Node, Store};
use crate::positions::PosId;

/// Spelling of the field's symbols: the default Unicode, or ASCII for `--ascii`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Notation {
    pub ascii: bool,
}

impl Notation {
    pub fn left_win(self) -> &'static str {
        if self.ascii { "inf" } else { "∞" }
    }
    pub fn right_win(self) -> &'static str {
        if self.ascii { "-inf" } else { "∞̄" }
    }
    pub fn moon(self) -> &'static str {
        if self.ascii { "moon" } else { "☾" }
    }
}

/// Free text (explanations, help, diagnostics) for `--ascii`: values are spelled as
/// [`Notation`] spells them (`inf`, `-inf`, `moon`, `inf()`, `moon(3)`), other symbols get
/// their usual ASCII forms. Characters it does not know (only ever from user input) stay.
pub fn ascii_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '∞' if chars.peek() == Some(&'\u{304}') => {
                chars.next();
                out.push_str("-inf");
            }
            '∞' => out.push_str("inf"),
            '☾' | '⟫' => out.push_str("moon"),
            // `∞(∅)` is `inf()`; elsewhere the empty set is `{}`.
            '∅' if out.ends_with("inf(") => {}
            '∅' => out.push_str("{}"),
            '∖' => out.push('\\'),
            '∪' => out.push('u'),
            '∈' => out.push_str("in"),
            '⊕' => out.push_str("xor"),
            '…' => out.push_str("..."),
            '≤' => out.push_str("<="),
            '≥' => out.push_str(">="),
            '≠' => out.push_str("!="),
            '→' => out.push_str("->"),
            '—' => out.push_str("--"),
            '–' | '⁻' => out.push('-'),
            '±' => out.push_str("+-"),
            '′' => out.push('\''),
            '×' => out.push('x'),
            '·' => out.push('*'),
            'γ' => out.push_str("gamma"),
            'Φ' => out.push_str("Phi"),
            'è' | 'é' => out.push('e'),
            c => out.push(c),
        }
    }
    out
}

pub fn nimber(n: u32) -> String {
    match n {
        0 => "0".into(),
        1 => "*".into(),
        n => format!("*{n}"),
    }
}

/// Forms nested deeper than this print as `…`: a printed move must stay readable.
const MAX_DEPTH: usize = 12;

/// Forms in messages stop after about this many bytes (then `…`): a form that shares its
/// subforms can be exponentially longer written out than it is in the store.
pub const CLIP: usize = 300;

/// A form for a message, clipped at [`CLIP`].
pub fn form(store: &Store, g: GameId, nt: Notation) -> String {
    form_up_to(store, g, nt, CLIP)
}

/// A form written out in full (for results: positions, whose size is their arguments').
pub fn form_full(store: &Store, g: GameId, nt: Notation) -> String {
    form_up_to(store, g, nt, usize::MAX)
}

fn form_up_to(store: &Store, g: GameId, nt: Notation, limit: usize) -> String {
    let mut out = String::new();
    let mut open = Vec::new();
    write_form(store, g, nt, 0, &mut open, &mut Out { s: &mut out, limit });
    if out.len() > limit {
        let mut cut = limit;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('…');
    }
    out
}

/// The text being written and where writing may stop.
struct Out<'a> {
    s: &'a mut String,
    limit: usize,
}

impl Out<'_> {
    fn full(&self) -> bool {
        self.s.len() > self.limit
    }
    fn push(&mut self, c: char) {
        self.s.push(c);
    }
    fn push_str(&mut self, t: &str) {
        self.s.push_str(t);
    }
    fn pop(&mut self) {
        self.s.pop();
    }
}

/// `open` holds the labelled nodes being printed: inside its own form a label prints as its
/// name, so cycles print finitely.
fn write_form(
    store: &Store,
    g: GameId,
    nt: Notation,
    depth: usize,
    open: &mut Vec<GameId>,
    out: &mut Out,
) {
    if out.full() {
        return;
    }
    if depth > MAX_DEPTH {
        out.push('…');
        return;
    }
    match store.node(g) {
        Node::Loopy(values) => {
            let a: Vec<u32> = values
                .iter()
                .map(|&v| match store.node(v) {
                    Node::Nimber(k) => k,
                    _ => 0,
                })
                .collect();
            out.push_str(&crate::class::loopy(&a, nt.ascii));
        }
        Node::Labelled(k) => {
            let name = store.label_name(k);
            out.push_str(name);
            if open.contains(&g) {
                return;
            }
            match store.label_form(k).map(|f| store.node(f)) {
                Some(Node::Form { left, right }) => {
                    open.push(g);
                    write_braces(store, left, right, nt, depth, open, out);
                    open.pop();
                }
                Some(_) => {
                    // The form turned out to be a nimber (no use of the label survived).
                    out.push('{');
                    if let Some(f) = store.label_form(k) {
                        write_form(store, f, nt, depth + 1, open, out);
                    }
                    out.push('}');
                }
                None => {}
            }
        }
        Node::LeftWin => out.push_str(nt.left_win()),
        Node::RightWin => out.push_str(nt.right_win()),
        Node::Nimber(n) => out.push_str(&nimber(n)),
        Node::Form { left, right } => {
            if let ([l], [r]) = (left, right)
                && store.node(*l) == Node::LeftWin
                && store.node(*r) == Node::RightWin
            {
                out.push_str(nt.moon());
                return;
            }
            write_braces(store, left, right, nt, depth, open, out);
        }
        Node::Sum(parts) => write_sum(store, parts, nt, depth, open, out),
        Node::Repeat { part, count } => {
            // Written out like any sum, as far as the room goes.
            let room = out.limit.saturating_sub(out.s.len());
            let mut one = String::new();
            write_form(
                store,
                part,
                nt,
                depth + 1,
                open,
                &mut Out {
                    s: &mut one,
                    limit: room,
                },
            );
            for i in 0..count {
                if i > 0 {
                    out.push_str(" + ");
                }
                out.push_str(&one);
                if out.full() {
                    return;
                }
            }
        }
        Node::Position { ruleset, pos } => write_position(store, ruleset, pos, nt, out),
        Node::EntailLeft(p) | Node::EntailRight(p) => {
            out.push_str("entail ");
            let sum = matches!(store.node(p), Node::Sum(_) | Node::Repeat { .. });
            if sum {
                out.push('(');
            }
            write_form(store, p, nt, depth + 1, open, out);
            if sum {
                out.push(')');
            }
        }
        Node::Heap { rules, size } => {
            out.push_str(store.heap_name(rules));
            out.push_str(&format!("({size})"));
        }
    }
}

/// `{left | right}`, the options as far as the room goes.
fn write_braces(
    store: &Store,
    left: &[GameId],
    right: &[GameId],
    nt: Notation,
    depth: usize,
    open: &mut Vec<GameId>,
    out: &mut Out,
) {
    out.push('{');
    write_list(store, left, nt, depth, open, out);
    out.push_str(if left.is_empty() { "| " } else { " | " });
    write_list(store, right, nt, depth, open, out);
    if right.is_empty() {
        out.pop();
    }
    out.push('}');
}

/// A sum's summands joined by ` + `. Summands are stored by id; they print in an order a
/// reader expects (shorter first, then alphabetically), as far as the room goes.
fn write_sum(
    store: &Store,
    parts: &[GameId],
    nt: Notation,
    depth: usize,
    open: &mut Vec<GameId>,
    out: &mut Out,
) {
    let room = out.limit.saturating_sub(out.s.len());
    let mut shown: Vec<String> = Vec::new();
    let mut used = 0;
    for &p in parts {
        if used > room {
            break;
        }
        let mut s = String::new();
        let limit = room - used;
        write_form(store, p, nt, depth + 1, open, &mut Out { s: &mut s, limit });
        used += s.len() + 3;
        shown.push(s);
    }
    shown.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    out.push_str(&shown.join(" + "));
}

/// A ruleset position as it is written: `name(args…)`.
fn write_position(store: &Store, ruleset: u32, pos: PosId, nt: Notation, out: &mut Out) {
    let name = store.ruleset_name(ruleset);
    if nt.ascii && name.ends_with('′') {
        out.push_str(&name.replace('′', "'"));
    } else {
        out.push_str(name);
    }
    out.push('(');
    for (i, a) in store.position_args(pos).iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_arg(a, out.s);
        if out.full() {
            return;
        }
    }
    out.push(')');
}

fn write_list(
    store: &Store,
    items: &[GameId],
    nt: Notation,
    depth: usize,
    open: &mut Vec<GameId>,
    out: &mut Out,
) {
    for (i, &x) in items.iter().enumerate() {
        if out.full() {
            return;
        }
        if i > 0 {
            out.push_str(", ");
        }
        write_form(store, x, nt, depth + 1, open, out);
    }
}

pub fn write_arg(a: &Arg, out: &mut String) {
    match a {
        Arg::Int(n) => out.push_str(&n.to_string()),
        Arg::Board(b) => {
            out.push_str("board(");
            out.push_str(&loony_syntax::lexer::quote(&b.compact()));
            out.push(')');
        }
        Arg::Graph(g) => out.push_str(&g.to_string()),
        Arg::Tuple(xs) | Arg::List(xs) => {
            let (open, close) = if matches!(a, Arg::Tuple(_)) {
                ('(', ')')
            } else {
                ('[', ']')
            };
            out.push(open);
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_arg(x, out);
            }
            if matches!(a, Arg::Tuple(_)) && xs.len() == 1 {
                out.push(',');
            }
            out.push(close);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ascii_text;

    #[test]
    fn ascii_text_spells_values_as_ascii_output_does() {
        assert_eq!(ascii_text("∞ + ∞̄ = ☾"), "inf + -inf = moon");
        assert_eq!(ascii_text("∞(∅), ∞(0,1), ⟫(3)"), "inf(), inf(0,1), moon(3)");
        assert_eq!(ascii_text("S ∪ P = nim∖{0}, ∅"), "S u P = nim\\{0}, {}");
        assert_eq!(
            ascii_text("misère G⁻, heaps 1–5, n ≥ 2…"),
            "misere G-, heaps 1-5, n >= 2..."
        );
    }
}
