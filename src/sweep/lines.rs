//! The lines of a sweep: one JSON object a game. Resuming, merging shards and reporting.

use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};

const FINAL: [&str; 4] = ["ok", "timeout", "memory", "error"];

/// The lines of a file that parse; a cut-off last line (a sweep killed mid-write) does not.
fn read(path: &str) -> Result<Vec<serde_json::Map<String, Value>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    Ok(text
        .lines()
        .filter_map(|l| match serde_json::from_str(l) {
            Ok(Value::Object(m)) => Some(m),
            _ => None,
        })
        .collect())
}

fn field<'a>(m: &'a serde_json::Map<String, Value>, k: &str) -> &'a str {
    m.get(k).and_then(Value::as_str).unwrap_or("")
}

/// The codes `path` already holds with a final status for `task` (none if it does not exist).
pub fn finished(path: &str, task: &str) -> Result<HashSet<String>, String> {
    if !std::path::Path::new(path).exists() {
        return Ok(HashSet::new());
    }
    Ok(read(path)?
        .iter()
        .filter(|m| field(m, "task") == task && FINAL.contains(&field(m, "status")))
        .map(|m| field(m, "code").to_string())
        .collect())
}

/// The output file: appended to when resuming (after cutting a last line left unfinished),
/// else started afresh.
pub fn open_for_append(path: &str, resume: bool) -> Result<File, String> {
    let err = |e: std::io::Error| format!("cannot write `{path}`: {e}");
    if !resume {
        return File::create(path).map_err(err);
    }
    let mut f = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(err)?;
    let mut text = Vec::new();
    f.read_to_end(&mut text).map_err(err)?;
    let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep < text.len() {
        f.set_len(keep as u64).map_err(err)?;
        f.seek(SeekFrom::End(0)).map_err(err)?;
    }
    Ok(f)
}

/// `loony sweep merge A B …`: the lines sorted by code, one a code (an `ok` line wins over a
/// failed one), after checking that the files agree on version, task and family; codes the
/// family has and no file holds are listed on stderr.
pub fn merge(files: &[String]) -> Result<(), String> {
    if files.is_empty() {
        return Err("merge needs the shards' files".into());
    }
    let mut by_code: BTreeMap<String, serde_json::Map<String, Value>> = BTreeMap::new();
    let mut agreed: Option<(String, String, String)> = None;
    for f in files {
        for m in read(f)? {
            let key = (
                field(&m, "loony_version").to_string(),
                field(&m, "task").to_string(),
                field(&m, "family").to_string(),
            );
            match &agreed {
                None => agreed = Some(key),
                Some(a) if *a != key => {
                    return Err(format!(
                        "`{f}` is a sweep of {} {} by loony {}, not {} {} by loony {}",
                        key.2, key.1, key.0, a.2, a.1, a.0
                    ));
                }
                _ => {}
            }
            let code = field(&m, "code").to_string();
            let better = by_code
                .get(&code)
                .is_none_or(|old| field(old, "status") != "ok" && field(&m, "status") == "ok");
            if better {
                by_code.insert(code, m);
            }
        }
    }
    let mut out = std::io::stdout().lock();
    for m in by_code.values() {
        let line = serde_json::to_string(m).map_err(|e| e.to_string())?;
        writeln!(out, "{line}").map_err(|e| format!("cannot write: {e}"))?;
    }
    out.flush().map_err(|e| format!("cannot write: {e}"))?;
    if let Some((_, _, family)) = agreed
        && let Ok(all) = super::family::games(&family)
    {
        let missing: Vec<&str> = all
            .iter()
            .map(|g| g.code.as_str())
            .filter(|c| !by_code.contains_key(*c))
            .collect();
        let mut err = std::io::stderr();
        if missing.is_empty() {
            let _ = writeln!(err, "{} codes of {family}, none missing", all.len());
        } else {
            let _ = writeln!(
                err,
                "{} of {} codes of {family} missing: {}",
                missing.len(),
                all.len(),
                missing.join(" ")
            );
        }
    }
    Ok(())
}

/// `loony sweep report FILE`: a Markdown (or CSV) table sorted by code, then counts by status.
pub fn report(path: &str, csv: bool) -> Result<(), String> {
    let mut rows = read(path)?;
    rows.sort_by(|a, b| field(a, "code").cmp(field(b, "code")));
    let task = rows
        .first()
        .map(|m| field(m, "task").to_string())
        .unwrap_or_default();
    let keys: &[&str] = if task.starts_with("periodicity") {
        &[
            "period",
            "preperiod",
            "certified",
            "certified_at",
            "largest_value",
        ]
    } else if task.starts_with("quotient") {
        &[
            "order",
            "p_count",
            "period",
            "preperiod",
            "certified",
            "presentation",
        ]
    } else if task == "value" {
        &["value"]
    } else if task == "outcome" {
        &["outcome"]
    } else if task == "misere-outcome" {
        &["misere_outcome"]
    } else {
        &["outcomes"]
    };
    let cell = |v: Option<&Value>| match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    };
    let mut out = String::new();
    let head: Vec<&str> = ["code", "status"]
        .iter()
        .chain(keys)
        .chain(&["seconds"])
        .copied()
        .collect();
    if csv {
        out.push_str(&head.join(","));
        out.push('\n');
    } else {
        out.push_str(&format!("| {} |\n", head.join(" | ")));
        out.push_str(&format!("|{}\n", "---|".repeat(head.len())));
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for m in &rows {
        *counts.entry(field(m, "status").to_string()).or_default() += 1;
        let result = m.get("result");
        let mut cells = vec![field(m, "code").to_string(), field(m, "status").to_string()];
        cells.extend(keys.iter().map(|k| cell(result.and_then(|r| r.get(*k)))));
        cells.push(cell(m.get("seconds")));
        if csv {
            let quoted: Vec<String> = cells
                .iter()
                .map(|c| {
                    if c.contains([',', '"']) {
                        format!("\"{}\"", c.replace('"', "\"\""))
                    } else {
                        c.clone()
                    }
                })
                .collect();
            out.push_str(&quoted.join(","));
            out.push('\n');
        } else {
            let escaped: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
            out.push_str(&format!("| {} |\n", escaped.join(" | ")));
        }
    }
    if !csv {
        let counts: Vec<String> = counts.iter().map(|(s, n)| format!("{n} {s}")).collect();
        out.push_str(&format!("\n{} games: {}\n", rows.len(), counts.join(", ")));
    }
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("cannot write: {e}"))
}
