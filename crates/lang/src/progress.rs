//! Progress bars for long computations, drawn on stderr (only when a terminal watches it).

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps; `template` is an indicatif template such as
/// `"{bar:40} {pos}/{len} heaps (eta {eta})"`. Bars and spinners are drawn in ASCII, so `--ascii`
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

/// The bars Loony draws. A time is always labelled (`eta 12s` counts down, `elapsed 3s` up),
/// so two bars of one session never show an unlabelled number in the same place.
pub(super) const NIM_SEQUENCE: &str = "{bar:40} {pos}/{len} heaps (eta {eta})";
pub(super) const PERIODICITY: &str =
    "{bar:40} {pos}/{len} heaps searched for a period (elapsed {elapsed})";
pub(super) const TOP_ENTAILS: &str =
    "{bar:40} {percent_precise}% of Top Entails splits (eta {eta})";
pub(super) const QUOTIENT_TO: &str = "{bar:40} heap {pos}/{len}: {msg} (elapsed {elapsed})";
pub(super) const QUOTIENT: &str =
    "{spinner} heap {pos}: {msg}, until certified (elapsed {elapsed})";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_time_is_labelled() {
        for t in [
            NIM_SEQUENCE,
            PERIODICITY,
            TOP_ENTAILS,
            QUOTIENT_TO,
            QUOTIENT,
        ] {
            assert!(ProgressStyle::with_template(t).is_ok(), "{t}");
            let times = t.matches("{eta}").count() + t.matches("{elapsed}").count();
            let labelled = t.matches("eta {eta}").count() + t.matches("elapsed {elapsed}").count();
            assert_eq!((times, labelled), (1, 1), "{t}");
        }
    }
}
