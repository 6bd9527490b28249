//! `plot` as a reader of the figure sees it: the SVG read back as XML, the PNG decoded to
//! pixels, the PDF's page. Nim-values are checked against a brute force written here and the
//! periods against the published ones (Guy & Smith 1956; Berlekamp, Conway & Guy, ch. 4).

use crate::common;

use std::path::PathBuf;

/// A fresh folder for one test's files.
struct Dir(PathBuf);

impl Dir {
    fn new(test: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("loony-plot-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }

    fn file(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `src` (with `FILE` standing for `path`) and returns what it printed.
fn run(src: &str, path: &str) -> String {
    common::run_named("plot.cgt", &src.replace("FILE", path))
}

/// Nim-values of an octal game whose moves take `k` tokens for each `k` in `takes`, leaving
/// zero, one or two heaps (digits 7), by brute force: `g(n) = mex{ g(a) ^ g(b) : a + b = n - k }`.
fn octal_values(takes: &[usize], n: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(n);
    for m in 0..n {
        let mut seen = vec![false; m + 2];
        for &k in takes {
            if k > m {
                continue;
            }
            for a in 0..=(m - k) {
                let x = (g[a] ^ g[m - k - a]) as usize;
                if x < seen.len() {
                    seen[x] = true;
                }
            }
        }
        g.push(seen.iter().position(|s| !s).unwrap() as u32);
    }
    g
}

fn kayles(n: usize) -> Vec<u32> {
    octal_values(&[1, 2], n)
}

fn dawsons_kayles(n: usize) -> Vec<u32> {
    octal_values(&[2], n)
}

#[test]
fn brute_force_agrees_with_the_published_tables() {
    assert_eq!(kayles(12), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    assert_eq!(
        dawsons_kayles(18),
        [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2]
    );
}

/// The parts of a plotted SVG that the tests look at.
struct Svg {
    width: f64,
    height: f64,
    font: f64,
    title: String,
    subtitle: String,
    /// The axes path `M axis_x top V axis_y H right`.
    axis_x: f64,
    top: f64,
    axis_y: f64,
    right: f64,
    /// (x, label) of the ticks along the x axis, in order; (y, label) along the y axis.
    xticks: Vec<(f64, String)>,
    yticks: Vec<(f64, String)>,
    /// (cx, cy, r) of every point.
    points: Vec<(f64, f64, f64)>,
    period_x: Option<f64>,
}

fn num(node: roxmltree::Node, attr: &str) -> f64 {
    node.attribute(attr)
        .unwrap_or_else(|| panic!("no {attr}"))
        .parse()
        .unwrap()
}

fn read_svg(path: &str) -> Svg {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the plot is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(c))
            .collect::<Vec<_>>()
    };
    let text_of = |c: &str| {
        class(c)
            .first()
            .and_then(|n| n.text())
            .unwrap_or_default()
            .to_string()
    };
    let d = class("axes")[0].attribute("d").unwrap().to_string();
    let nums: Vec<f64> = d
        .split(|c: char| c.is_ascii_alphabetic() || c == ' ')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(
        d.starts_with('M') && d.contains('V') && d.contains('H'),
        "{d}"
    );
    let ticks = |line: &str, label: &str, coord: &str| {
        let lines = class(line);
        let labels = class(label);
        assert_eq!(lines.len(), labels.len());
        lines
            .iter()
            .zip(&labels)
            .map(|(l, t)| (num(*l, coord), t.text().unwrap().to_string()))
            .collect::<Vec<_>>()
    };
    Svg {
        width: num(root, "width"),
        height: num(root, "height"),
        font: num(root, "font-size"),
        title: text_of("title"),
        subtitle: text_of("subtitle"),
        axis_x: nums[0],
        top: nums[1],
        axis_y: nums[2],
        right: nums[3],
        xticks: ticks("xtick", "xlabel", "x1"),
        yticks: ticks("ytick", "ylabel", "y1"),
        points: doc
            .descendants()
            .filter(|n| n.has_tag_name("circle"))
            .map(|n| (num(n, "cx"), num(n, "cy"), num(n, "r")))
            .collect(),
        period_x: class("period-start").first().map(|n| num(*n, "x1")),
    }
}

/// Each point sits at its heap, left to right at equal steps, and at a height that orders
/// the points exactly as `values` orders them.
fn assert_points_follow(svg: &Svg, values: &[u32]) {
    assert_eq!(svg.points.len(), values.len());
    let step = svg.points[1].0 - svg.points[0].0;
    assert!(step > 0.0);
    for (i, w) in svg.points.windows(2).enumerate() {
        assert!((w[1].0 - w[0].0 - step).abs() < 0.02, "uneven step at {i}");
    }
    for (i, p) in svg.points.iter().enumerate() {
        for (j, q) in svg.points.iter().enumerate() {
            let (a, b) = (values[i], values[j]);
            if a == b {
                assert!((p.1 - q.1).abs() < 0.01, "points {i} and {j}");
            } else {
                assert_eq!(a < b, p.1 > q.1, "points {i} and {j}");
            }
        }
    }
}

#[test]
fn the_title_names_the_game() {
    let dir = Dir::new("title");
    let f = dir.file("k.svg");
    run(
        "let kayles = heap(\"0.77\")\nplot(nim_sequence(kayles, 0..100), \"FILE\")",
        &f,
    );
    assert_eq!(read_svg(&f).title, "kayles (0.77)");
    run("plot(nim_sequence(heap(\"0.07\"), 0..50), \"FILE\")", &f);
    assert_eq!(read_svg(&f).title, "0.07");
    run(
        "plot(nim_sequence(subtraction([1, 3, 4]), 0..50), \"FILE\")",
        &f,
    );
    assert_eq!(read_svg(&f).title, "subtraction game {1, 3, 4}");
    run(
        "ruleset rows(n) {\n  for t in [1, 2] if t <= n for a in 0..=(n - t) => rows(a) + rows(n - t - a)\n}\nplot(nim_sequence(rows, 0..20), \"FILE\")",
        &f,
    );
    let svg = read_svg(&f);
    assert_eq!(svg.title, "rows");
    assert_points_follow(&svg, &kayles(20));
    run(
        "plot(nim_sequence(heap(\"0.07\"), 0..50), \"FILE\", \"Dawson's Kayles <0.07>\")",
        &f,
    );
    assert_eq!(read_svg(&f).title, "Dawson's Kayles <0.07>");
}

#[test]
fn both_ends_of_each_axis_are_ticked_and_points_clear_the_axes() {
    let dir = Dir::new("ticks");
    let f = dir.file("k.svg");
    let out = run("plot(nim_sequence(heap(\"0.77\"), 0..300), \"FILE\")", &f);
    assert!(out.starts_with(&format!("wrote {f} (300 points")), "{out}");
    let svg = read_svg(&f);
    let values = kayles(300);
    assert_points_follow(&svg, &values);

    let (first, last) = (&svg.xticks[0], svg.xticks.last().unwrap());
    assert_eq!((first.1.as_str(), last.1.as_str()), ("0", "299"));
    // The end ticks stand under the first and last points.
    assert!((first.0 - svg.points[0].0).abs() < 0.01);
    assert!((last.0 - svg.points[299].0).abs() < 0.01);
    let max = *values.iter().max().unwrap();
    assert_eq!(max, 8);
    let (bottom, top) = (&svg.yticks[0], svg.yticks.last().unwrap());
    assert_eq!((bottom.1.as_str(), top.1.clone()), ("0", max.to_string()));
    let zero = svg.points[values.iter().position(|&v| v == 0).unwrap()];
    let highest = svg.points[values.iter().position(|&v| v == max).unwrap()];
    assert!((bottom.0 - zero.1).abs() < 0.01 && (top.0 - highest.1).abs() < 0.01);
    // Tick labels in between are increasing.
    let xs: Vec<u64> = svg.xticks.iter().map(|t| t.1.parse().unwrap()).collect();
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "{xs:?}");

    for &(cx, cy, r) in &svg.points {
        assert!(cx - r > svg.axis_x + 2.0, "a point on the y axis: {cx}");
        assert!(cy + r < svg.axis_y - 2.0, "a point on the x axis: {cy}");
        assert!(cx + r <= svg.right && cy - r >= svg.top);
        assert!(cx <= svg.width && cy <= svg.height);
    }
}

#[test]
fn lettering_is_readable_at_column_width() {
    // A figure scaled to a 3.3-inch column (240 pt): tick labels of at least 7 pt.
    let dir = Dir::new("lettering");
    let f = dir.file("k.svg");
    for size in ["", ", (800, 400)", ", (320, 200)"] {
        run(
            &format!("plot(nim_sequence(heap(\"0.77\"), 0..300), \"FILE\"{size})"),
            &f,
        );
        let svg = read_svg(&f);
        let points = svg.font * 240.0 / svg.width;
        assert!(points >= 7.0, "{size}: {points} pt");
        // Tick labels do not collide: neighbours are at least a digit or two apart.
        for w in svg.xticks.windows(2) {
            let room = (w[0].1.len() + w[1].1.len()) as f64 * 0.32 * svg.font;
            assert!(w[1].0 - w[0].0 > room + 0.5 * svg.font, "{size}: {w:?}");
        }
        for w in svg.yticks.windows(2) {
            assert!(w[0].0 - w[1].0 > svg.font, "{size}: {w:?}");
        }
    }
    assert_eq!(read_svg(&f).width, 320.0);
}

#[test]
fn a_certified_period_is_marked_where_it_starts() {
    let dir = Dir::new("period");
    let f = dir.file("p.svg");
    // Kayles: period 12 from heap 71 (the last exceptional value is at heap 70).
    run("plot(nim_sequence(heap(\"0.77\"), 0..300), \"FILE\")", &f);
    let svg = read_svg(&f);
    let x = svg.period_x.expect("a period marker");
    assert!((x - svg.points[71].0).abs() < 0.01);
    assert!(
        svg.subtitle.contains("period 12 from heap 71"),
        "{}",
        svg.subtitle
    );
    // Dawson's Kayles: period 34 from heap 53.
    run("plot(nim_sequence(heap(\"0.07\"), 0..300), \"FILE\")", &f);
    let svg = read_svg(&f);
    assert!((svg.period_x.unwrap() - svg.points[53].0).abs() < 0.01);
    assert_points_follow(&svg, &dawsons_kayles(300));
    // S(1, 3, 4): purely periodic, period 7.
    run(
        "plot(nim_sequence(subtraction([1, 3, 4]), 0..40), \"FILE\")",
        &f,
    );
    let svg = read_svg(&f);
    assert!((svg.period_x.unwrap() - svg.points[0].0).abs() < 0.01);
    assert!(svg.subtitle.contains("period 7 from heap 0"));
}

#[test]
fn no_period_is_marked_where_none_is_known() {
    let dir = Dir::new("noperiod");
    let f = dir.file("p.svg");
    // Kayles to heap 99: the Guy–Smith certificate needs heap 2(71 + 12) + 2 = 168.
    run("plot(nim_sequence(heap(\"0.77\"), 0..100), \"FILE\")", &f);
    let svg = read_svg(&f);
    assert!(svg.period_x.is_none());
    assert!(!svg.subtitle.contains("period"), "{}", svg.subtitle);
    // Grundy's game has no periodicity theorem; a user ruleset neither.
    run("plot(nim_sequence(heap(\"4!.0\"), 0..300), \"FILE\")", &f);
    assert!(read_svg(&f).period_x.is_none());
    run(
        "ruleset rows(n) {\n  for t in [1, 2] if t <= n for a in 0..=(n - t) => rows(a) + rows(n - t - a)\n}\nplot(nim_sequence(rows, 0..30), \"FILE\")",
        &f,
    );
    assert!(read_svg(&f).period_x.is_none());
}

#[test]
fn a_sequence_that_starts_later_is_labelled_from_its_start() {
    let dir = Dir::new("start");
    let f = dir.file("d.svg");
    run("plot(nim_sequence(heap(\"0.07\"), 100..400), \"FILE\")", &f);
    let svg = read_svg(&f);
    assert_eq!(svg.xticks[0].1, "100");
    assert_eq!(svg.xticks.last().unwrap().1, "399");
    assert!((svg.xticks[0].0 - svg.points[0].0).abs() < 0.01);
    assert_points_follow(&svg, &dawsons_kayles(400)[100..]);
    // The period starts before the heaps shown: said, not drawn.
    assert!(svg.period_x.is_none());
    assert!(
        svg.subtitle.starts_with("heaps 100\u{2013}399"),
        "{}",
        svg.subtitle
    );
    assert!(svg.subtitle.contains("period 34 from heap 53"));
}

#[test]
fn range_and_size_arguments() {
    let dir = Dir::new("range");
    let f = dir.file("k.svg");
    let out = run(
        "let s = nim_sequence(heap(\"0.77\"), 0..300)\nplot(s, (640, 400), 50..=120, \"FILE\")",
        &f,
    );
    assert!(out.contains("(71 points, 640x400 px)"), "{out}");
    let svg = read_svg(&f);
    assert_eq!((svg.width, svg.height), (640.0, 400.0));
    assert_eq!(svg.xticks[0].1, "50");
    assert_eq!(svg.xticks.last().unwrap().1, "120");
    assert_points_follow(&svg, &kayles(121)[50..]);
    assert!((svg.period_x.unwrap() - svg.points[71 - 50].0).abs() < 0.01);

    for (args, message) in [
        ("200..400", "is not inside the sequence's heaps 0..=299"),
        ("0..0", "`plot` was given an empty range of heaps"),
        ("-3..3", "this range starts at -3"),
        ("[1, 5]", "needs consecutive heap sizes, but 5 follows 1"),
        ("(10, 10)", "the plot's size is (width, height)"),
        ("(640, 400), (640, 400)", "`plot` takes one size"),
        ("\"FILE\", \"title\", \"more\"", "a third string"),
        ("*2", "after the sequence, `plot` takes"),
    ] {
        let out = run(
            &format!("let s = nim_sequence(heap(\"0.77\"), 0..300)\nplot(s, {args})"),
            &f,
        );
        assert!(out.contains(message), "{args}: {out}");
    }
}

#[test]
fn png_is_a_picture_with_axes_and_lettering() {
    let dir = Dir::new("png");
    let (svg_file, png_file) = (dir.file("k.svg"), dir.file("k.png"));
    run(
        "plot(nim_sequence(heap(\"0.77\"), 0..300), \"FILE\")",
        &svg_file,
    );
    let out = run(
        "plot(nim_sequence(heap(\"0.77\"), 0..300), \"FILE\")",
        &png_file,
    );
    assert!(out.contains("1440x900 pixels"), "{out}");
    let svg = read_svg(&svg_file);
    let bytes = std::fs::read(&png_file).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!((be(16), be(20)), (1440, 900));

    let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1440, 900));
    let channels = info.line_size / info.width as usize;
    let dark = |x: f64, y: f64| {
        let (x, y) = ((x * 3.0) as usize, (y * 3.0) as usize);
        let p = &buf[y * info.line_size + x * channels..][..3];
        p.iter().all(|&c| c < 96)
    };
    // The x axis is dark along its length, the y axis down its height.
    let mut x = svg.axis_x + 1.0;
    while x < svg.right - 1.0 {
        assert!(dark(x, svg.axis_y), "x axis at {x}");
        x += 5.0;
    }
    let mut y = svg.top + 1.0;
    while y < svg.axis_y - 1.0 {
        assert!(dark(svg.axis_x, y), "y axis at {y}");
        y += 5.0;
    }
    // Away from the axes and the points, the page is white.
    assert!(!dark(2.0, 2.0) && !dark(svg.width - 2.0, svg.height - 2.0));
    // The lettering is drawn: dark pixels above the plot (title) and left of the y labels.
    let count = |x0: f64, x1: f64, y0: f64, y1: f64| {
        let mut n = 0;
        let mut y = y0;
        while y < y1 {
            let mut x = x0;
            while x < x1 {
                n += usize::from(dark(x, y));
                x += 1.0 / 3.0;
            }
            y += 1.0 / 3.0;
        }
        n
    };
    assert!(count(0.0, svg.width - 1.0, 0.0, svg.top - 1.0) > 500);
    assert!(count(0.0, svg.axis_x - 8.0, svg.top, svg.axis_y) > 500);
    assert!(
        count(
            svg.axis_x + 2.0,
            svg.width - 1.0,
            svg.axis_y + 8.0,
            svg.height - 1.0
        ) > 500
    );
}

#[test]
fn pdf_is_a_page_of_the_figure_size() {
    let dir = Dir::new("pdf");
    let f = dir.file("k.pdf");
    let out = run("plot(nim_sequence(heap(\"0.77\"), 0..300), \"FILE\")", &f);
    assert!(out.contains("360x225 pt"), "{out}");
    let short = std::fs::read(&f).unwrap();
    assert!(short.starts_with(b"%PDF-"));
    assert!(short.trim_ascii_end().ends_with(b"%%EOF"));
    let text = String::from_utf8_lossy(&short);
    assert!(
        text.contains("/MediaBox [0 0 360 225]"),
        "no page of 480x300 px"
    );
    // The lettering is in the page (as outlines): a longer title makes a larger file.
    run(
        "plot(nim_sequence(heap(\"0.77\"), 0..300), \"FILE\", \"Kayles, the bowling game of Dudeney and Loyd\")",
        &f,
    );
    let long = std::fs::read(&f).unwrap();
    assert!(
        long.len() > short.len() + 1000,
        "{} {}",
        long.len(),
        short.len()
    );
}

#[test]
fn the_extension_picks_the_format() {
    let dir = Dir::new("format");
    for (name, head) in [
        ("a.svg", &b"<svg"[..]),
        ("a.SVG", b"<svg"),
        ("a.png", b"\x89PNG"),
        ("a.Png", b"\x89PNG"),
        ("a.pdf", b"%PDF"),
    ] {
        let f = dir.file(name);
        run("plot(nim_sequence(heap(\"0.07\"), 0..50), \"FILE\")", &f);
        let bytes = std::fs::read(&f).unwrap();
        assert!(bytes.starts_with(head), "{name}");
    }
    let f = dir.file("a.jpg");
    let out = run("plot(nim_sequence(heap(\"0.07\"), 0..50), \"FILE\")", &f);
    assert!(out.contains("error[E0305]"), "{out}");
    assert!(!std::path::Path::new(&f).exists());
}

#[test]
fn plot_without_a_file_writes_nim_sequence_svg_in_the_working_folder() {
    let dir = Dir::new("default");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_loony"))
        .args(["-e", "plot(nim_sequence(heap(\"0.07\"), 0..50))"])
        .current_dir(&dir.0)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "wrote nim-sequence.svg (50 points, 480x300 px)\n"
    );
    assert_eq!(read_svg(&dir.file("nim-sequence.svg")).points.len(), 50);
}

/// A PNG keeps 288 dpi (3 pixels a unit) up to 36 megapixels, then the density that fills the
/// cap, and says which: (2000, 1000) is 6000x3000 at 288 dpi, (4000, 4000) 6000x6000 at 144.
#[test]
fn png_density_holds_up_to_its_pixel_cap() {
    let dir = Dir::new("png-cap");
    for (size, px, dpi) in [
        ("(2000, 1000)", (6000, 3000), "288 dpi"),
        ("(4000, 4000)", (6000, 6000), "144 dpi, the most"),
    ] {
        let file = dir.file("c.png");
        let out = run(
            &format!("plot(nim_sequence(heap(\"0.77\"), 0..50), \"FILE\", {size})"),
            &file,
        );
        assert!(
            out.contains(&format!("{}x{} pixels, {dpi}", px.0, px.1)),
            "{out}"
        );
        let bytes = std::fs::read(&file).unwrap();
        let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
        assert_eq!((be(16), be(20)), px);
    }
}

/// `plot(g, heaps, …)` draws what `plot(nim_sequence(g, heaps), …)` draws: a heap game, a
/// ruleset of one integer, a number of heaps or a range, with the other options after. The
/// values are checked against the brute force above, not against `nim_sequence`.
#[test]
fn a_game_and_its_heaps_plot_as_their_sequence() {
    let dir = Dir::new("game");
    let f = dir.file("g.svg");
    let out = run("plot(heap(\"0.07\"), 0..60, \"FILE\")", &f);
    assert_eq!(out, format!("wrote {f} (60 points, 480x300 px)\n"));
    let svg = read_svg(&f);
    assert_eq!(svg.title, "0.07");
    assert!(
        svg.subtitle.starts_with("heaps 0\u{2013}59"),
        "{}",
        svg.subtitle
    );
    assert_points_follow(&svg, &dawsons_kayles(60));

    // A number of heaps: 0 to n, as `nim_sequence(g, n)`; then a range inside, a size, a title.
    let out = run(
        "plot(heap(\"0.77\"), 120, 50..=120, (640, 400), \"FILE\", \"Kayles\")",
        &f,
    );
    assert!(out.contains("(71 points, 640x400 px)"), "{out}");
    let svg = read_svg(&f);
    assert_eq!(svg.title, "Kayles");
    assert_points_follow(&svg, &kayles(121)[50..]);

    // A ruleset of one integer.
    run(
        "ruleset rows(n) {\n  for t in [1, 2] if t <= n for a in 0..=(n - t) => rows(a) + rows(n - t - a)\n}\nplot(rows, 10..30, \"FILE\")",
        &f,
    );
    let svg = read_svg(&f);
    assert_eq!(svg.title, "rows");
    assert_points_follow(&svg, &kayles(30)[10..]);
}

#[test]
fn a_game_without_its_heaps_is_an_error() {
    let dir = Dir::new("game-errors");
    let f = dir.file("g.svg");
    for (args, message, label) in [
        (
            "heap(\"0.07\")",
            "after a game, `plot` needs the heaps to draw",
            "no heaps given",
        ),
        (
            "heap(\"0.07\"), \"FILE\"",
            "after a game, `plot` needs the heaps to draw",
            "this is a string",
        ),
        (
            "heap(\"0.07\"), (640, 400)",
            "after a game, `plot` needs the heaps to draw",
            "this is a tuple",
        ),
        (
            "heap(\"0.07\"), 0..0",
            "`plot` was given an empty range of heaps",
            "",
        ),
        (
            "heap(\"0.07\"), 0..60, 70..80",
            "is not inside the sequence's heaps 0..=59",
            "",
        ),
        (
            "*3, 0..60",
            "or a heap game or ruleset of one integer and its heaps",
            "this is a game",
        ),
    ] {
        let out = run(&format!("plot({args})"), &f);
        assert!(out.contains(message), "{args}: {out}");
        assert!(out.contains(label), "{args}: {out}");
        assert!(
            !std::path::Path::new(&f).exists(),
            "{args}: a file was written"
        );
    }
}
