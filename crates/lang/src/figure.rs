//! Figures out of SVG text: SVG as is, PNG through resvg, PDF through svg2pdf (lettering as
//! outlines). Both letter with a font compiled into the binary (a DejaVu Sans subset,
//! `assets/fonts/`), so a figure looks the same on every machine, fonts installed or not.

use resvg::{tiny_skia, usvg};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Pixels of a PNG per CSS pixel of the figure: 288 dpi, print resolution...
pub const PNG_SCALE: f64 = 3.0;
/// ...as long as the PNG stays within this many pixels in all (6000 × 6000, 144 MB while it is
/// drawn); a larger figure gets the density that fills the cap, and the message says so.
pub const PNG_MAX_PIXELS: f64 = 36e6;
/// PDF points per CSS pixel (CSS has 96 px to the inch, PDF 72 pt).
pub const PDF_POINTS_PER_PX: f64 = 0.75;

/// DejaVu Sans (Bitstream Vera licence, `assets/fonts/LICENSE`), cut to Latin-1, dashes,
/// quotes, arrows and a few mathematical signs.
static FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans-subset.ttf");
const FONT_NAME: &str = "DejaVu Sans";

/// A plot kept for the front end to show (see `Output::figures`): the SVG text and the
/// line that says what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub svg: String,
    pub summary: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
    Pdf,
}

impl Format {
    /// The format a file name asks for, by its extension (any case).
    pub fn of_path(path: &str) -> Option<Format> {
        let ext = Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "svg" => Some(Format::Svg),
            "png" => Some(Format::Png),
            "pdf" => Some(Format::Pdf),
            _ => None,
        }
    }

    pub const EXTENSIONS: &'static str = loony_core::diag::FIGURE_EXTENSIONS;
}

/// The bytes of the figure in `format`, with its size as a reader measures it.
pub fn render(svg: &str, format: Format) -> Result<(Vec<u8>, String), String> {
    if format == Format::Svg {
        let size = svg_size(svg).map_or(String::new(), |(w, h)| format!("{w}x{h} px"));
        return Ok((svg.as_bytes().to_vec(), size));
    }
    let options = usvg::Options {
        font_family: FONT_NAME.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    match format {
        Format::Svg => unreachable!("handled above"),
        Format::Png => {
            let (cw, ch) = (f64::from(size.width()), f64::from(size.height()));
            let scale = PNG_SCALE.min((PNG_MAX_PIXELS / (cw * ch)).sqrt()).max(1.0);
            let (w, h) = ((cw * scale).round() as u32, (ch * scale).round() as u32);
            let mut pixmap = tiny_skia::Pixmap::new(w, h)
                .ok_or_else(|| format!("cannot draw {w}x{h} pixels"))?;
            resvg::render(
                &tree,
                tiny_skia::Transform::from_scale(scale as f32, scale as f32),
                &mut pixmap.as_mut(),
            );
            let png = pixmap.encode_png().map_err(|e| e.to_string())?;
            let dpi = (96.0 * scale).round();
            let shown = if scale < PNG_SCALE {
                format!(
                    "{w}x{h} pixels, {dpi} dpi, the most a PNG of {} megapixels allows",
                    PNG_MAX_PIXELS / 1e6
                )
            } else {
                format!("{w}x{h} pixels, {dpi} dpi")
            };
            Ok((png, shown))
        }
        Format::Pdf => {
            // Lettering goes into the PDF as outlines: usvg writes text as paths, and svg2pdf
            // then needs no font machinery of its own (its font subsetter would more than
            // double the build of these dependencies).
            let outlined = tree.to_string(&usvg::WriteOptions::default());
            let tree = usvg::Tree::from_str(&outlined, &options).map_err(|e| e.to_string())?;
            let page = svg2pdf::PageOptions {
                dpi: (72.0 / PDF_POINTS_PER_PX) as f32,
            };
            let pdf = svg2pdf::to_pdf(&tree, svg2pdf::ConversionOptions::default(), page)
                .map_err(|e| e.to_string())?;
            let pt = |px: u32| f64::from(px) * PDF_POINTS_PER_PX;
            Ok((
                pdf,
                format!("{}x{} pt", pt(size.width()), pt(size.height())),
            ))
        }
    }
}

/// The embedded font as every family the figures ask for, loaded once.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_sans_serif_family(FONT_NAME);
        Arc::new(db)
    })
    .clone()
}

/// `width` and `height` of the root element, as the plot writes them.
pub(crate) fn svg_size(svg: &str) -> Option<(u32, u32)> {
    let attr = |name: &str| -> Option<u32> {
        let at = svg.find(&format!(" {name}=\""))? + name.len() + 3;
        svg[at..].split('"').next()?.parse().ok()
    };
    Some((attr("width")?, attr("height")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_follow_the_extension() {
        assert_eq!(Format::of_path("a/b.svg"), Some(Format::Svg));
        assert_eq!(Format::of_path("fig.PNG"), Some(Format::Png));
        assert_eq!(Format::of_path("x.pdf"), Some(Format::Pdf));
        assert_eq!(Format::of_path("x.jpg"), None);
        assert_eq!(Format::of_path("svg"), None);
        assert_eq!(Format::of_path("dir.png/file"), None);
    }

    #[test]
    fn the_font_is_found_under_every_name_the_plot_asks_for() {
        let db = fonts();
        for family in ["DejaVu Sans", "sans-serif"] {
            let query = usvg::fontdb::Query {
                families: &[match family {
                    "sans-serif" => usvg::fontdb::Family::SansSerif,
                    name => usvg::fontdb::Family::Name(name),
                }],
                ..Default::default()
            };
            assert!(db.query(&query).is_some(), "{family}");
        }
    }
}
