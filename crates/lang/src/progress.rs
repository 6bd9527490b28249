//! Progress bars for long computations, drawn on stderr (only when a terminal watches it).

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps; `template` is an indicatif template such as
/// `"{bar:40} {pos}/{len} heaps ({eta})"`. Bars and spinners are drawn in ASCII, so `--ascii`
/// holds on every terminal without the setting reaching each engine.
pub(super) fn bar(len: u64, template: &str) -> ProgressBar {
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ")
            .tick_chars("-\\|/ "),
    );
    b
}
