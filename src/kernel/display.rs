//! What a cell's replies look like in a notebook: MIME bundles for results and figures, and a
//! rendered diagnostic taken apart into the error's `ename`, `evalue` and traceback.

use base64::Engine;
use loony_lang::figure::{self, Format};
use loony_lang::plot::Figure;
use serde_json::{Value, json};

/// `text` without its ANSI escape sequences (`ESC [ … letter`).
pub fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            // Parameters and intermediates, up to the final byte (@ to ~).
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A rendered diagnostic's code and message, from its first line `error[E0101]: message`;
/// `("Error", first line)` for text of another shape.
pub fn error_parts(rendered: &str) -> (String, String) {
    let plain = strip_ansi(rendered);
    let first = plain.lines().next().unwrap_or("").trim();
    let parsed = first.strip_prefix("error[").and_then(|rest| {
        let (code, message) = rest.split_once("]:")?;
        Some((code.to_string(), message.trim().to_string()))
    });
    parsed.unwrap_or_else(|| ("Error".to_string(), first.to_string()))
}

/// The `error` content of a diagnostic: the traceback is the whole rendering, one string a
/// line, colours kept.
pub fn error_content(rendered: &str) -> Value {
    let (ename, evalue) = error_parts(rendered);
    let traceback: Vec<&str> = rendered.trim_end_matches('\n').lines().collect();
    json!({ "ename": ename, "evalue": evalue, "traceback": traceback })
}

/// A figure as a MIME bundle: the SVG, a PNG rendered from it for clients that show no SVG,
/// and its summary as text. A PNG that cannot be drawn is left out (the SVG still shows).
pub fn figure_bundle(f: &Figure) -> Value {
    let mut data = json!({
        "text/plain": f.summary,
        "image/svg+xml": f.svg,
    });
    if let Ok((png, _)) = figure::render(&f.svg, Format::Png) {
        data["image/png"] = json!(base64::engine::general_purpose::STANDARD.encode(png));
    }
    data
}

/// The HTML of a cell's results, when one of them has HTML: each result's own, or its text
/// as preformatted HTML. `html` holds what the interpreter made for each result, in order
/// (`Output::html`); results without an entry (none should be) show as text.
pub fn results_html(values: &[String], html: &[Option<String>]) -> Option<String> {
    if !html.iter().any(Option::is_some) {
        return None;
    }
    let mut out = String::new();
    for (i, text) in values.iter().enumerate() {
        match html.get(i) {
            Some(Some(h)) => out.push_str(h),
            _ => out.push_str(&format!(
                "<pre style=\"margin: 0\">{}</pre>",
                loony_lang::html::escape(text)
            )),
        }
    }
    Some(out)
}
