//! An SVG scatter plot of a nim-sequence as octal-game papers draw it: heap size across,
//! nim-value up. Lettering is sized from the figure's width, so it stays readable when the
//! figure is scaled to a column; points are inset from the axes; each axis is labelled at both
//! ends; the start of a known period is a dashed line.

use std::collections::HashSet;
use std::fmt::Write;

/// The default size in CSS pixels (1/96 inch): 5 by 3.1 inches, about 7.5 pt lettering when
/// scaled to a 3.3-inch column.
pub const DEFAULT_SIZE: (u32, u32) = (480, 300);
/// The smallest size whose lettering and plot area still fit.
pub const MIN_SIZE: (u32, u32) = (200, 120);
/// The largest size accepted (a figure, not a poster: 41 inches).
pub const MAX_SIZE: u32 = 4_000;
/// Fonts asked for, in order; renderers to PNG and PDF supply the first.
pub const FONT_FAMILY: &str = "DejaVu Sans, Helvetica, Arial, sans-serif";
/// The advance of a digit in DejaVu Sans, in ems: used to leave room for tick labels.
const DIGIT_EM: f64 = 0.64;

/// What to draw.
#[derive(Clone, Debug)]
pub struct Plot<'a> {
    /// Nim-values of heaps `start`, `start + 1`, …
    pub values: &'a [u32],
    pub start: u64,
    pub title: &'a str,
    /// A smaller second line under the title (heaps shown, period); may be empty.
    pub subtitle: &'a str,
    /// The heap where the periodic part begins, when it is known (drawn if in range).
    pub period_start: Option<u64>,
    /// Width and height in CSS pixels, within `MIN_SIZE..=MAX_SIZE`.
    pub size: (u32, u32),
}

/// Where things are: the frame of the figure, shared by the drawing and its tests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Font size of tick and axis labels.
    pub font: f64,
    /// The axes: the y axis at `axis_x` from `top` down to `axis_y`, the x axis at `axis_y`
    /// from `axis_x` to `right`.
    pub axis_x: f64,
    pub axis_y: f64,
    pub top: f64,
    pub right: f64,
    /// The gap between an axis and the nearest possible point.
    pub pad: f64,
}

impl Plot<'_> {
    /// Last heap drawn.
    fn end(&self) -> u64 {
        self.start + self.values.len().saturating_sub(1) as u64
    }

    fn y_max(&self) -> u32 {
        self.values.iter().copied().max().unwrap_or(0).max(1)
    }

    pub fn layout(&self) -> Layout {
        let (w, h) = (f64::from(self.size.0), f64::from(self.size.1));
        // Lettering scales with the width (a figure is scaled to a column by its width), held
        // back on short figures so that the text never takes more than half the height.
        let font = (w / 32.0).min(h * 0.075).max(8.0);
        let gap = 0.5 * font;
        let tick = 0.4 * font;
        let mut top = gap + 1.2 * font;
        if !self.subtitle.is_empty() {
            top += 1.25 * font;
        }
        top += 0.9 * font;
        // From the bottom: axis label, tick labels, ticks.
        let axis_y = h - gap - 1.4 * font - 1.05 * font - tick;
        let y_digits = digits(u64::from(self.y_max())) as f64;
        let axis_x = gap + 0.8 * font + 0.5 * font + y_digits * DIGIT_EM * font + 0.3 * font + tick;
        let x_digits = digits(self.end()) as f64;
        let right = w - gap - 0.5 * x_digits * DIGIT_EM * font;
        Layout {
            font,
            axis_x,
            axis_y,
            top,
            right,
            pad: 0.7 * font,
        }
    }

    /// A standalone SVG document. Points falling on the same half-pixel are drawn once, so
    /// long sequences stay small.
    pub fn svg(&self) -> String {
        let (w, h) = (f64::from(self.size.0), f64::from(self.size.1));
        let l = self.layout();
        let f = l.font;
        let (lo, hi) = (self.start, self.end());
        let x_span = (hi - lo).max(1) as f64;
        let y_max = self.y_max();
        let (x0, x1) = (l.axis_x + l.pad, l.right - l.pad);
        let (y0, y1) = (l.axis_y - l.pad, l.top + l.pad);
        let px = |n: u64| x0 + (n - lo) as f64 / x_span * (x1 - x0);
        let py = |v: u32| y0 - f64::from(v) / f64::from(y_max) * (y0 - y1);
        let tick = 0.4 * f;

        let mut svg = String::new();
        let _ = write!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}" font-size="{f:.2}">"#
        );
        let _ = write!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let mut baseline = 0.5 * f + 1.2 * f;
        let _ = write!(
            svg,
            r#"<text class="title" x="{:.2}" y="{baseline:.2}" text-anchor="middle" font-size="{:.2}">{}</text>"#,
            w / 2.0,
            1.2 * f,
            escape(self.title)
        );
        if !self.subtitle.is_empty() {
            baseline += 1.25 * f;
            let _ = write!(
                svg,
                r##"<text class="subtitle" x="{:.2}" y="{baseline:.2}" text-anchor="middle" font-size="{:.2}" fill="#333">{}</text>"##,
                w / 2.0,
                0.9 * f,
                escape(self.subtitle)
            );
        }
        // Axes, ticks outward.
        let stroke = (f / 14.0).max(0.75);
        let _ = write!(
            svg,
            r#"<path class="axes" d="M{:.2} {:.2}V{:.2}H{:.2}" fill="none" stroke="black" stroke-width="{stroke:.2}"/>"#,
            l.axis_x, l.top, l.axis_y, l.right
        );
        let label_w = |n: u64| digits(n) as f64 * DIGIT_EM * f;
        for n in ticks(lo, hi, |a, b| {
            (px(b) - px(a)).abs() >= (label_w(a) + label_w(b)) / 2.0 + f
        }) {
            let x = px(n);
            let _ = write!(
                svg,
                r#"<line class="xtick" x1="{x:.2}" y1="{:.2}" x2="{x:.2}" y2="{:.2}" stroke="black" stroke-width="{stroke:.2}"/><text class="xlabel" x="{x:.2}" y="{:.2}" text-anchor="middle">{n}</text>"#,
                l.axis_y,
                l.axis_y + tick,
                l.axis_y + tick + 1.05 * f,
            );
        }
        for v in ticks(0, u64::from(y_max), |a, b| {
            (py(b as u32) - py(a as u32)).abs() >= 1.3 * f
        }) {
            let y = py(v as u32);
            let _ = write!(
                svg,
                r#"<line class="ytick" x1="{:.2}" y1="{y:.2}" x2="{:.2}" y2="{y:.2}" stroke="black" stroke-width="{stroke:.2}"/><text class="ylabel" x="{:.2}" y="{:.2}" text-anchor="end">{v}</text>"#,
                l.axis_x - tick,
                l.axis_x,
                l.axis_x - tick - 0.3 * f,
                y + 0.36 * f,
            );
        }
        let _ = write!(
            svg,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">heap size</text>"#,
            (l.axis_x + l.right) / 2.0,
            h - 0.5 * f
        );
        let (lx, ly) = (0.5 * f + 0.8 * f, (l.top + l.axis_y) / 2.0);
        let _ = write!(
            svg,
            r#"<text x="{lx:.2}" y="{ly:.2}" text-anchor="middle" transform="rotate(-90 {lx:.2} {ly:.2})">nim-value</text>"#
        );
        // The start of the period, under the points.
        if let Some(e) = self.period_start.filter(|e| (lo..=hi).contains(e)) {
            let x = px(e);
            let _ = write!(
                svg,
                r#"<line class="period-start" x1="{x:.2}" y1="{:.2}" x2="{x:.2}" y2="{:.2}" stroke="firebrick" stroke-width="{stroke:.2}" stroke-dasharray="{:.2} {:.2}"/>"#,
                l.top,
                l.axis_y,
                0.3 * f,
                0.25 * f
            );
        }
        // Points: about half the spacing between heaps, within readable limits.
        let radius = (0.45 * (x1 - x0) / x_span).clamp(0.07 * f, 0.22 * f);
        let _ = write!(svg, r##"<g class="points" fill="#1b3a6b">"##);
        let mut drawn = HashSet::new();
        for (i, &v) in self.values.iter().enumerate() {
            let (x, y) = (px(lo + i as u64), py(v));
            if drawn.insert(((x * 2.0).round() as i64, (y * 2.0).round() as i64)) {
                let _ = write!(svg, r#"<circle cx="{x:.2}" cy="{y:.2}" r="{radius:.2}"/>"#);
            }
        }
        svg.push_str("</g></svg>\n");
        svg
    }
}

/// Ticks from `lo` to `hi`: both ends, and between them multiples of a step of 1, 2 or 5
/// times a power of ten (at most six intervals), keeping only those that `apart` says are
/// far enough from the ends to be labelled.
fn ticks(lo: u64, hi: u64, apart: impl Fn(u64, u64) -> bool) -> Vec<u64> {
    if hi <= lo {
        return vec![lo];
    }
    let span = hi - lo;
    let mut step = 1u64;
    'search: loop {
        for m in [1, 2, 5] {
            let s = step.saturating_mul(m);
            if span / s <= 6 {
                step = s;
                break 'search;
            }
        }
        step = step.saturating_mul(10);
    }
    let mut out = vec![lo];
    let mut t = (lo / step + 1) * step;
    while t < hi {
        if apart(lo, t) && apart(t, hi) {
            out.push(t);
        }
        t += step;
    }
    out.push(hi);
    out
}

fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// `text` with `&`, `<`, `>` and `"` escaped, for XML (SVG) and HTML alike.
pub fn escape(text: &str) -> String {
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

    fn plot(values: &[u32], start: u64, size: (u32, u32)) -> Plot<'_> {
        Plot {
            values,
            start,
            title: "t",
            subtitle: "s",
            period_start: None,
            size,
        }
    }

    #[test]
    fn ticks_are_the_ends_and_round_steps_between() {
        let always = |_: u64, _: u64| true;
        assert_eq!(ticks(0, 299, always), [0, 50, 100, 150, 200, 250, 299]);
        assert_eq!(ticks(100, 399, always), [100, 150, 200, 250, 300, 350, 399]);
        assert_eq!(ticks(0, 8, always), [0, 2, 4, 6, 8]);
        assert_eq!(ticks(0, 1, always), [0, 1]);
        assert_eq!(ticks(7, 7, always), [7]);
        assert_eq!(ticks(0, 1_000_000, always)[1], 200_000);
        // A round tick too close to an end gives way to it.
        assert_eq!(ticks(0, 9, |a, b| b - a >= 2), [0, 2, 4, 6, 9]);
    }

    #[test]
    fn digits_of_labels() {
        assert_eq!([0, 9, 10, 299, 1_000_000].map(digits), [1, 1, 2, 3, 7]);
    }

    #[test]
    fn the_frame_fits_at_every_size() {
        let values: Vec<u32> = (0..5000).map(|n| n % 97).collect();
        for size in [
            MIN_SIZE,
            DEFAULT_SIZE,
            (MAX_SIZE, MIN_SIZE.1),
            (MIN_SIZE.0, MAX_SIZE),
        ] {
            let l = plot(&values, 1_000_000, size).layout();
            let (w, h) = (f64::from(size.0), f64::from(size.1));
            assert!(
                l.axis_x > 0.0 && l.axis_x + 2.0 * l.pad < l.right && l.right < w,
                "{size:?}"
            );
            assert!(
                l.top > 0.0 && l.top + 2.0 * l.pad < l.axis_y && l.axis_y < h,
                "{size:?}"
            );
        }
    }

    #[test]
    fn long_sequences_collapse_onto_the_pixel_grid() {
        let long: Vec<u32> = (0..100_000).map(|n| n % 7).collect();
        let svg = plot(&long, 0, DEFAULT_SIZE).svg();
        let circles = svg.matches("<circle").count();
        assert!((7..20_000).contains(&circles), "{circles}");
    }

    #[test]
    fn text_is_escaped() {
        let mut p = plot(&[0, 1], 0, DEFAULT_SIZE);
        p.title = "a <b> & \"c\"";
        let svg = p.svg();
        assert!(svg.contains(">a &lt;b&gt; &amp; &quot;c&quot;</text>"));
        assert_eq!(svg.matches('<').count(), svg.matches('>').count());
    }
}
