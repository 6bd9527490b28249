//! `plot(seq, …)`: a nim-sequence as a figure. After the sequence come options told apart by
//! their type, in any order: a string is the file (then a second string the title), a range
//! the heaps drawn, a pair `(width, height)` the size in CSS pixels. The file's extension picks
//! the format (.svg, .png, .pdf).

use crate::cx::Cx;
use crate::error::{ArgumentError, EvalError, Example, PlotOption, RangeError};
pub use crate::figure::Figure;
use crate::figure::{self, Format};
use crate::value::SequenceOf;
use crate::value::Value;
use loony_core::diag::{CoreError, Error};
use loony_core::game::Store;
use loony_syntax::ast::Span;
use loony_theory::heap::{self, Control, HeapRules};

/// Where `plot(seq)` writes: the working directory.
pub const DEFAULT_FILE: &str = "nim-sequence.svg";

/// The options of one call, each with the span it was written at.
#[derive(Default)]
struct Options {
    file: Option<(String, Span)>,
    title: Option<String>,
    range: Option<(u64, u64, Span)>,
    size: Option<(u32, u32)>,
}

pub fn call(
    cx: &mut Cx,
    store: &Store,
    vals: &[Value],
    spans: &[Span],
    span: &Span,
) -> Result<Value, Error> {
    // The catalog checked the arity (1 to 5: the sequence, a file, a title, a range, a size;
    // `plot(g, heaps, …)` came here as its sequence and the rest).
    let sp = |i: usize| spans.get(i).cloned().unwrap_or_else(|| span.clone());
    let Value::Sequence(seq) = &vals[0] else {
        return Err(cx.err(
            EvalError::BadArgument(ArgumentError::NotLike {
                like: Example::PlotSequence,
                found: vals[0].type_name(),
            }),
            &sp(0),
        ));
    };
    let (start, values, of) = (&seq.start, &seq.values, &seq.of);
    let opts = options(cx, &vals[1..], &|i| sp(i + 1))?;
    // A front end that shows figures itself (a notebook) keeps a plot without a file name.
    let inline = opts.file.is_none() && cx.out.figures.is_some();
    let (path, path_span) = opts
        .file
        .clone()
        .unwrap_or_else(|| (DEFAULT_FILE.to_string(), span.clone()));
    let Some(format) = Format::of_path(&path) else {
        return Err(cx.err(EvalError::UnknownFileFormat { path }, &path_span));
    };
    if values.is_empty() {
        return Err(cx.err(EvalError::BadRange(RangeError::EmptyPlot), &sp(0)));
    }

    // The heaps drawn: the whole sequence, or the range asked for inside it.
    let end = *start + values.len() as u64 - 1;
    let (lo, hi) = match &opts.range {
        None => (*start, end),
        Some((a, b, range_span)) => {
            if *a < *start || *b > end {
                return Err(cx.err(
                    EvalError::BadRange(RangeError::OutsidePlot {
                        from: *a,
                        to: *b,
                        start: *start,
                        end,
                    }),
                    range_span,
                ));
            }
            (*a, *b)
        }
    };
    let shown = &values
        .slice((lo - start) as usize..(hi - start) as usize + 1)
        .to_vec();

    let period = known_period(cx, of, end, span)?;
    let title = opts.title.clone().unwrap_or_else(|| title(store, of, cx));
    let mut subtitle = format!("heaps {lo}\u{2013}{hi}");
    if let Some(p) = &period {
        subtitle.push_str(&format!(
            " \u{b7} period {} from heap {}",
            p.period, p.preperiod
        ));
        if (lo..=hi).contains(&(p.preperiod as u64)) {
            subtitle.push_str(" (dashed)");
        }
    }
    let plot = heap::Plot {
        values: shown,
        start: lo,
        title: &title,
        subtitle: &subtitle,
        period_start: period.map(|p| p.preperiod as u64),
        size: opts.size.unwrap_or(heap::DEFAULT_SIZE),
    };
    if inline {
        let svg = plot.svg();
        let measured = figure::svg_size(&svg).map_or(String::new(), |(w, h)| format!("{w}x{h} px"));
        let summary = format!("plot of {} points ({measured})", shown.len());
        if let Some(figures) = &mut cx.out.figures {
            figures.push(Figure {
                svg,
                summary: summary.clone(),
            });
        }
        return Ok(Value::Text(summary.into()));
    }
    let (bytes, measured) = figure::render(&plot.svg(), format).map_err(|message| {
        cx.err(
            EvalError::WriteFailed {
                path: path.clone(),
                message,
            },
            &path_span,
        )
    })?;
    std::fs::write(&path, bytes).map_err(|e| {
        let mut err = cx.err(
            EvalError::WriteFailed {
                path: path.clone(),
                message: e.to_string(),
            },
            &path_span,
        );
        if let Some(folder) = missing_folder(&path) {
            err = err.with_note(format!("the folder `{folder}` does not exist"));
        }
        err
    })?;
    Ok(Value::Text(
        format!("wrote {path} ({} points, {measured})", shown.len()).into(),
    ))
}

/// Reads the options after the sequence, by type.
fn options(cx: &Cx, vals: &[Value], sp: &dyn Fn(usize) -> Span) -> Result<Options, Error> {
    let mut o = Options::default();
    let twice = |option: PlotOption, i: usize| {
        cx.err(
            EvalError::BadArgument(ArgumentError::PlotTwice { option }),
            &sp(i),
        )
    };
    for (i, v) in vals.iter().enumerate() {
        match v {
            Value::Str(s) if o.file.is_none() => o.file = Some((s.to_string(), sp(i))),
            Value::Str(s) if o.title.is_none() => o.title = Some(s.to_string()),
            Value::Str(_) => {
                return Err(cx.err(EvalError::BadArgument(ArgumentError::PlotStrings), &sp(i)));
            }
            Value::List(xs) => {
                if o.range.is_some() {
                    return Err(twice(PlotOption::Range, i));
                }
                let (a, b) = super::heaps::heap_range(cx, xs, &sp(i), "plot")?;
                o.range = Some((a, b, sp(i)));
            }
            Value::Tuple(xs) => {
                if o.size.is_some() {
                    return Err(twice(PlotOption::Size, i));
                }
                o.size = Some(size(cx, xs, &sp(i))?);
            }
            other => {
                return Err(cx.err(
                    EvalError::BadArgument(ArgumentError::PlotOption {
                        found: crate::words::describe(other),
                    }),
                    &sp(i),
                ));
            }
        }
    }
    Ok(o)
}

/// A size `(width, height)` in CSS pixels, within the plot's limits.
fn size(cx: &Cx, xs: &[Value], span: &Span) -> Result<(u32, u32), Error> {
    let (min_w, min_h) = heap::MIN_SIZE;
    let max = i64::from(heap::MAX_SIZE);
    match xs {
        [Value::Int(w), Value::Int(h)]
            if (i64::from(min_w)..=max).contains(w) && (i64::from(min_h)..=max).contains(h) =>
        {
            Ok((*w as u32, *h as u32))
        }
        _ => Err(cx.err(
            EvalError::BadArgument(ArgumentError::PlotSize {
                min: (min_w, min_h),
                max,
            }),
            span,
        )),
    }
}

/// The period of a heap game that a theorem certifies from the values up to heap `end` (all
/// computed already for the sequence); user rulesets have no such theorem.
fn known_period(
    cx: &mut Cx,
    of: &SequenceOf,
    end: u64,
    span: &Span,
) -> Result<Option<heap::Period>, Error> {
    let SequenceOf::Heap(h) = of else {
        return Ok(None);
    };
    let cancel = cx.limits.interrupt.clone();
    let file = cx.scope.file;
    let heaps = &mut cx.engines.heaps;
    let values = heaps
        .values(*h, end, &cancel)
        .map_err(|e| e.or_at(file, span.clone()))?
        .to_vec();
    let found = heaps
        .rules(*h)
        .certified_period(&values, &Control::default().with_cancel(&cancel));
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(Error::new(CoreError::Interrupted));
    }
    Ok(found.map(|(p, _)| p))
}

/// The game's name or code: `dk (0.07)` for `let dk = heap("0.07")`, a ruleset's name.
fn title(store: &Store, of: &SequenceOf, cx: &Cx) -> String {
    match of {
        SequenceOf::Named(name) => name.to_string(),
        SequenceOf::Heap(h) => {
            let rules = match cx.engines.heaps.rules(*h) {
                HeapRules::TakeBreak(code) => code.to_string(),
                HeapRules::Subtraction(set) => format!("subtraction game {{{}}}", list(set)),
                HeapRules::AllBut(set) => format!("all-but game {{{}}}", list(set)),
            };
            let name = store.heap_name(*h);
            if name == store.heap_code(*h) {
                rules
            } else {
                format!("{name} ({rules})")
            }
        }
    }
}

fn list(set: &[usize]) -> String {
    set.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The nearest folder of `path` that is missing, when that is why it cannot be written.
pub(crate) fn missing_folder(path: &str) -> Option<String> {
    let parent = std::path::Path::new(path).parent()?;
    if parent.as_os_str().is_empty() || parent.exists() {
        return None;
    }
    let mut missing = parent;
    while let Some(up) = missing.parent() {
        if up.as_os_str().is_empty() || up.exists() {
            break;
        }
        missing = up;
    }
    Some(missing.display().to_string())
}
