//! Progress bars for long computations, drawn on stderr (only when a terminal watches it).

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps; `template` is an indicatif template such as
/// `"{bar:40} {pos}/{len} heaps ({eta})"`.
pub(super) fn bar(len: u64, template: &str) -> ProgressBar {
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    b
}
