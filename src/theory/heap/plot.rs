//! An SVG scatter plot of a nim-sequence: heap size across, nim-value up, as octal-game
//! papers draw them.

use std::collections::HashSet;
use std::fmt::Write;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 360.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 40.0;

/// A standalone SVG document plotting `seq[n]` against `n`, with axes, ticks and `title`.
/// Points falling on the same half-pixel are drawn once, so long sequences stay small.
pub fn svg_plot(seq: &[u32], title: &str) -> String {
    let x_max = seq.len().saturating_sub(1).max(1) as f64;
    let y_max = seq.iter().copied().max().unwrap_or(0).max(1) as f64;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let px = |x: f64| LEFT + x / x_max * plot_w;
    let py = |y: f64| TOP + plot_h - y / y_max * plot_h;

    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">"#
    );
    let _ = write!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = write!(
        svg,
        r#"<text x="{}" y="20" text-anchor="middle" font-size="14">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    // Axes.
    let (x0, y0) = (px(0.0), py(0.0));
    let _ = write!(
        svg,
        r#"<path d="M{x0} {TOP}V{y0}H{}" fill="none" stroke="black"/>"#,
        px(x_max)
    );
    for x in ticks(x_max) {
        let _ = write!(
            svg,
            r#"<line x1="{0:.1}" y1="{y0}" x2="{0:.1}" y2="{1}" stroke="black"/><text x="{0:.1}" y="{2}" text-anchor="middle">{3}</text>"#,
            px(x),
            y0 + 4.0,
            y0 + 16.0,
            x
        );
    }
    for y in ticks(y_max) {
        let _ = write!(
            svg,
            r#"<line x1="{0}" y1="{1:.1}" x2="{2}" y2="{1:.1}" stroke="black"/><text x="{3}" y="{4:.1}" text-anchor="end">{5}</text>"#,
            x0 - 4.0,
            py(y),
            x0,
            x0 - 7.0,
            py(y) + 4.0,
            y
        );
    }
    let _ = write!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">heap size</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 6.0
    );
    let _ = write!(
        svg,
        r#"<text x="14" y="{0}" text-anchor="middle" transform="rotate(-90 14 {0})">nim-value</text>"#,
        TOP + plot_h / 2.0
    );
    // Points.
    let radius = if seq.len() > 2000 { 0.8 } else { 1.6 };
    let _ = write!(svg, r#"<g fill="steelblue">"#);
    let mut drawn = HashSet::new();
    for (n, &v) in seq.iter().enumerate() {
        let (x, y) = (px(n as f64), py(f64::from(v)));
        if drawn.insert(((x * 2.0).round() as i64, (y * 2.0).round() as i64)) {
            let _ = write!(svg, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{radius}"/>"#);
        }
    }
    svg.push_str("</g></svg>\n");
    svg
}

/// Tick positions 0, step, 2·step, … ≤ max with a step of 1, 2 or 5 times a power of ten.
fn ticks(max: f64) -> Vec<f64> {
    let raw = (max / 8.0).max(1.0);
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude);
    (0..)
        .map(|i| f64::from(i) * step)
        .take_while(|&t| t <= max + 1e-9)
        .collect()
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(ch),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plot_is_a_document_with_points_ticks_and_title() {
        let svg = svg_plot(&[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6], "Kayles <0.77>");
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("Kayles &lt;0.77&gt;"));
        assert_eq!(svg.matches("<circle").count(), 12);
        assert!(svg.contains(">10</text>"));
        assert_eq!(svg.matches('<').count(), svg.matches('>').count());
    }

    #[test]
    fn degenerate_inputs() {
        assert!(svg_plot(&[], "").contains("</svg>"));
        assert_eq!(svg_plot(&[5], "x").matches("<circle").count(), 1);
        // Many points collapse onto the pixel grid.
        let long: Vec<u32> = (0..100_000).map(|n| (n % 7) as u32).collect();
        assert!(svg_plot(&long, "t").matches("<circle").count() < 20_000);
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(ticks(11.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(1.0), vec![0.0, 1.0]);
        assert_eq!(ticks(100_000.0)[1], 20_000.0);
    }
}
