//! Results as HTML, for front ends that show it (the notebook kernel, through
//! `Output::html`): a record as a table of its fields (a quotient's multiplication table as a
//! grid), a nim-sequence as a grid of its values with its period marked. Other values have no HTML; their text is enough.

use crate::cx::Cx;
use crate::value::Value;
use crate::value::{Record, Sequence, SequenceOf};
use loony_core::diag::Error;
use loony_core::game::Store;
use loony_theory::heap::{self, Control};

/// Longer sequences get no grid: their text is shorter than any table of them.
pub const MAX_SEQUENCE: usize = 2000;

/// Values a row of a sequence's grid.
const ROW: u64 = 10;

/// The HTML of `v`, or `None` when it has none (or it would be too long).
pub fn html(cx: &mut Cx, store: &mut Store, v: &Value) -> Result<Option<String>, Error> {
    match v {
        Value::Record(r) => record(cx, store, r).map(Some),
        Value::Sequence(s) if s.values.len() <= MAX_SEQUENCE => Ok(Some(sequence(cx, s))),
        _ => Ok(None),
    }
}

/// The SVG writer's escaping serves HTML too.
pub use loony_theory::heap::escape;

const CELL: &str = "padding: 1px 8px; text-align: left; vertical-align: top";

fn record(cx: &mut Cx, store: &mut Store, r: &Record) -> Result<String, Error> {
    let mut out = format!(
        "<table class=\"loony-record\"><caption style=\"text-align: left\">{}</caption>",
        escape(r.summary.lines().next().unwrap_or(""))
    );
    for (name, v) in &r.fields {
        let cell = match (*name, v) {
            ("table", Value::List(rows)) => multiplication(cx, store, r, rows)?,
            _ => None,
        };
        let cell = match cell {
            Some(table) => table,
            None => format!(
                "<pre style=\"margin: 0\">{}</pre>",
                escape(&cx.show(store, v)?)
            ),
        };
        out.push_str(&format!(
            "<tr><th style=\"{CELL}\">{name}</th><td style=\"{CELL}\">{cell}</td></tr>"
        ));
    }
    out.push_str("</table>");
    Ok(out)
}

/// Quotients up to this order get their multiplication table as a grid.
pub const MAX_TABLE: usize = 64;

/// A quotient's `table` field as a grid headed by its `elements`, the P-portion's products in
/// bold; `None` when the record has no such fields of matching size (or it is too large).
fn multiplication(
    cx: &mut Cx,
    store: &mut Store,
    r: &Record,
    rows: &[Value],
) -> Result<Option<String>, Error> {
    let field = |n: &str| r.fields.iter().find(|(k, _)| *k == n).map(|(_, v)| v);
    let (Some(Value::List(elements)), Some(Value::List(p))) =
        (field("elements"), field("p_portion"))
    else {
        return Ok(None);
    };
    if elements.len() != rows.len() || rows.len() > MAX_TABLE {
        return Ok(None);
    }
    let mut shown = |v: &Value| cx.show(store, v).map(|s| escape(&s));
    let heads = elements
        .iter()
        .map(&mut shown)
        .collect::<Result<Vec<_>, _>>()?;
    let p = p.iter().map(&mut shown).collect::<Result<Vec<_>, _>>()?;
    let mut out = String::from("<table class=\"loony-quotient\"><tr><th>·</th>");
    for h in &heads {
        out.push_str(&format!("<th style=\"{CELL}\">{h}</th>"));
    }
    out.push_str("</tr>");
    for (h, row) in heads.iter().zip(rows) {
        let Value::List(row) = row else {
            return Ok(None);
        };
        if row.len() != heads.len() {
            return Ok(None);
        }
        out.push_str(&format!("<tr><th style=\"{CELL}\">{h}</th>"));
        for v in row.iter() {
            let x = shown(v)?;
            let weight = if p.contains(&x) {
                "; font-weight: bold"
            } else {
                ""
            };
            out.push_str(&format!("<td style=\"{CELL}{weight}\">{x}</td>"));
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    Ok(Some(out))
}

/// The certified period of a heap game's sequence, when these heaps show one (as `plot`
/// marks it).
fn period(cx: &mut Cx, s: &Sequence) -> Option<heap::Period> {
    let SequenceOf::Heap(h) = &s.of else {
        return None;
    };
    if s.start != 0 {
        return None;
    }
    let values = s.values.to_vec();
    let cancel = cx.limits.interrupt.clone();
    let found = cx
        .engines
        .heaps
        .rules(*h)
        .certified_period(&values, &Control::default().with_cancel(&cancel));
    found.map(|(p, _)| p)
}

fn sequence(cx: &mut Cx, s: &Sequence) -> String {
    let p = period(cx, s);
    let n = s.values.len() as u64;
    let end = s.start + n - 1;
    let caption = match &p {
        Some(p) => format!(
            "heaps {}\u{2013}{end}: period {} from heap {} (periods shaded in turn, the \
             preperiod in italics)",
            s.start, p.period, p.preperiod
        ),
        None => format!("heaps {}\u{2013}{end}", s.start),
    };
    let mut out = format!(
        "<table class=\"loony-sequence\"><caption style=\"text-align: left\">{caption}</caption><tr><th></th>"
    );
    for c in 0..ROW {
        out.push_str(&format!("<th style=\"{CELL}\">+{c}</th>"));
    }
    out.push_str("</tr>");
    let first_row = s.start / ROW * ROW;
    let mut row = first_row;
    while row <= end {
        out.push_str(&format!("<tr><th style=\"{CELL}\">{row}</th>"));
        for heap in row..row + ROW {
            if heap < s.start || heap > end {
                out.push_str("<td></td>");
                continue;
            }
            let v = s.values.get((heap - s.start) as usize);
            let style = match &p {
                Some(p) if heap < p.preperiod as u64 => "font-style: italic".to_string(),
                Some(p)
                    if p.period > 0
                        && ((heap - p.preperiod as u64) / p.period as u64).is_multiple_of(2) =>
                {
                    "background: rgba(80, 130, 220, 0.18)".to_string()
                }
                _ => String::new(),
            };
            out.push_str(&format!("<td style=\"{CELL}; {style}\">{v}</td>"));
        }
        out.push_str("</tr>");
        row += ROW;
    }
    out.push_str("</table>");
    out
}
