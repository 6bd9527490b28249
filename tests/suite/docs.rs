//! The documentation against Loony: every built-in's example prints what its entry says, and
//! `docs/builtins.md` is what the table generates.

use crate::common;

use loony::eval::catalog::{self, BUILTINS};

#[test]
fn every_example_prints_its_result() {
    let mut wrong = Vec::new();
    for b in BUILTINS.iter().filter(|b| !b.example.is_empty()) {
        let got = common::run_named("example.cgt", b.example);
        if got.trim_end() != b.result {
            wrong.push(format!(
                "{}: `{}` printed\n{}\nbut the table says\n{}",
                b.name, b.example, got, b.result
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn every_entry_is_a_builtin_with_its_arity() {
    for b in BUILTINS {
        assert!(
            loony::eval::builtins::lookup(b.name).is_some(),
            "{} is not looked up",
            b.name
        );
        assert!(b.arity.0 <= b.arity.1, "{}", b.name);
        assert!(b.signature.starts_with(b.name), "{}", b.name);
    }
    let mut names: Vec<_> = BUILTINS.iter().map(|b| b.name).collect();
    names.sort_unstable();
    let n = names.len();
    names.dedup();
    assert_eq!(names.len(), n, "a name is in the table twice");
    assert!(loony::eval::builtins::lookup("no_such_builtin").is_none());
}

/// Each entry reaches a function that answers it: called with its fewest arguments (zeros),
/// it gives a value or an ordinary error, never "no dispatcher" (E0901); one argument too many
/// is refused by the central arity check, with the signature.
#[test]
fn every_entry_is_dispatched() {
    for b in BUILTINS
        .iter()
        .filter(|b| !matches!(b.imp, catalog::Impl::Constant(_)))
    {
        let args = vec!["0"; b.arity.0].join(", ");
        let out = common::run_named("call.cgt", &format!("{}({args})", b.name));
        assert!(!out.contains("E0901"), "{}: {out}", b.name);
        let args = vec!["0"; b.arity.1 + 1].join(", ");
        let out = common::run_named("call.cgt", &format!("{}({args})", b.name));
        assert!(out.contains("error[E0102]"), "{}: {out}", b.name);
        assert!(
            out.contains(&format!("usage: {}", b.signature)),
            "{}: {out}",
            b.name
        );
    }
    for c in ["P", "N", "L", "R", "D"] {
        assert_eq!(common::run_named("c.cgt", c).trim_end(), c);
    }
}

/// Each row is its own: no two share a name, the id a `Value::Builtin` holds leads back to
/// its row, and no two families' rows claim the same place in the table.
#[test]
fn every_row_has_its_own_place() {
    let mut names: Vec<&str> = BUILTINS.iter().map(|b| b.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), BUILTINS.len(), "two rows share a name");
    for b in BUILTINS {
        assert!(std::ptr::eq(catalog::get(b.id()), b), "{}", b.name);
    }
    let mut orders: Vec<u16> = catalog::ROWS.iter().map(|r| r.order).collect();
    orders.sort_unstable();
    orders.dedup();
    assert_eq!(
        orders.len(),
        catalog::ROWS.len(),
        "two families share an order"
    );
}

#[test]
fn builtins_md_is_generated_from_the_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/builtins.md");
    let want = catalog::markdown();
    if std::env::var_os("LOONY_WRITE_DOCS").is_some() {
        std::fs::write(path, &want).expect("write docs/builtins.md");
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "docs/builtins.md is out of date: LOONY_WRITE_DOCS=1 cargo test --test suite docs"
    );
}

/// Each ```cgt block of docs/language.md is a transcript: its `> ` lines, run as one script,
/// print the other lines of the block.
#[test]
fn language_md_transcripts_hold() {
    transcripts_hold("language.md", 8);
}

/// The same for the chapter on board and graph games.
#[test]
fn boards_md_transcripts_hold() {
    transcripts_hold("boards.md", 10);
}

fn transcripts_hold(name: &str, least: usize) {
    let path = format!("{}/docs/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("a docs chapter");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line) {
            (None, "```cgt") => current = Some(String::new()),
            (Some(b), "```") => {
                blocks.push(std::mem::take(b));
                current = None;
            }
            (Some(b), l) => {
                b.push_str(l);
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(blocks.len() >= least, "found {} blocks", blocks.len());
    for block in blocks {
        let src: String = block
            .lines()
            .filter_map(|l| l.strip_prefix("> "))
            .map(|l| format!("{l}\n"))
            .collect();
        // Bindings print nothing, so the outputs are compared, in order.
        let outputs = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.starts_with("> "))
                .map(str::to_string)
                .collect()
        };
        let got = common::run_named(name, &src);
        assert_eq!(
            outputs(&got),
            outputs(&block),
            "a transcript in docs/{name}:\n{block}"
        );
    }
}

/// Shipped modules are written on purpose and never warn, so none may take a built-in's name
/// (a user's definition of one warns; see tests/diagnostics.rs).
#[test]
fn no_shipped_module_shadows_a_builtin() {
    for m in loony::eval::modules::module_docs() {
        for d in &m.defines {
            let name = d.split('(').next().unwrap_or(d);
            assert!(
                catalog::find(name).is_none(),
                "{} defines the built-in {name}",
                m.path
            );
        }
    }
    // And importing all of them, one after another, warns about nothing.
    let src: String = loony::eval::modules::STD
        .iter()
        .map(|(n, _)| format!("import \"{n}\"\n"))
        .collect();
    let warnings = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = loony::eval::Interp::new();
            interp
                .run("all.cgt", &src, &mut |_| {})
                .expect("the modules load");
            interp.cx.out.warnings.len()
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(warnings, 0);
}

/// The call whose record a shaped built-in's check reads: the call of it inside its example
/// (`periodicity(heap("0.07"))` in `periodicity(heap("0.07")).period`), or one written here for
/// a built-in whose example is empty (its effect is a file).
fn record_call(b: &catalog::Builtin, scratch: &std::path::Path) -> String {
    use loony::syntax::ast::{ExprKind, Stmt};
    if b.example.is_empty() {
        return match b.name {
            "write_sequence" => format!(
                "write_sequence(heap(\"0.07\"), 10, \"{}\")",
                scratch.join("shape.txt").display()
            ),
            other => panic!("`{other}` returns a record: write a call for it here"),
        };
    }
    let program = loony::syntax::parse_program(b.example).expect("the example parses");
    let Some(Stmt::Expr(e)) = program.stmts.first() else {
        panic!("{}: the example is not an expression", b.name);
    };
    // Down the targets of fields, indexes and binary operations to the call of the built-in.
    let names_it =
        |callee: &loony::syntax::ast::Expr| matches!(&callee.kind, ExprKind::Var(n) if n == b.name);
    let mut at = e;
    loop {
        at = match &at.kind {
            ExprKind::Call { callee, .. } if names_it(callee) => {
                return b.example[at.span.clone()].to_string();
            }
            ExprKind::Field { target, .. } | ExprKind::Index { target, .. } => target,
            ExprKind::Binary { lhs, .. } => lhs,
            _ => panic!("{}: no call of it found in `{}`", b.name, b.example),
        };
    }
}

/// Each built-in's record shape is the record it makes: the same fields in the same order,
/// each named in its documentation, and each of its functions answered (an unknown one is
/// E0103, no such field).
#[test]
fn record_shapes_are_the_records_made() {
    let scratch = std::env::temp_dir().join(format!("loony-shapes-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch folder");
    let shaped: Vec<_> = BUILTINS.iter().filter(|b| b.record.is_some()).collect();
    assert!(!shaped.is_empty());
    for b in shaped {
        let shape = b.record.expect("filtered");
        let call = record_call(b, &scratch);
        let (got, answers) = common::on_big_stack({
            let call = call.clone();
            let methods = shape.methods;
            move || {
                let mut interp = loony::eval::Interp::new();
                interp
                    .run("shape.cgt", &format!("let r = {call}"), &mut |_| {})
                    .unwrap_or_else(|e| panic!("{call}: {}", e.render_plain(&interp.cx.files)));
                let Some(loony::value::Value::Record(r)) = interp.cx.globals.get("r") else {
                    panic!("{call} gives no record");
                };
                let fields: Vec<&'static str> = r.fields.iter().map(|(n, _)| *n).collect();
                let mut answers = Vec::new();
                for m in methods.iter().chain(&["no_such_function"]) {
                    let e = interp.run("call.cgt", &format!("r.{m}()"), &mut |_| {});
                    let code = e.err().map(|e| e.render_plain(&interp.cx.files));
                    answers.push((*m, code.is_some_and(|c| c.contains("E0103"))));
                }
                (fields, answers)
            }
        });
        assert_eq!(got, shape.fields, "{}: the record of `{call}`", b.name);
        for f in shape.fields {
            assert!(
                b.doc.contains(&format!("`{f}`")),
                "{}: its documentation does not name the field `{f}`",
                b.name
            );
        }
        for (m, unknown) in answers {
            let expected = m == "no_such_function";
            assert_eq!(
                unknown, expected,
                "{}: `r.{m}()` answered as unknown: {unknown}",
                b.name
            );
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// ARCHITECTURE.md's claims that a test can hold: at most 150 lines, and the files of the
/// interpreter's crate in layers, with no circle of imports (`scripts/lang-modules.py`, which
/// exits 1 and lists the circle when there is one).
#[test]
fn architecture_md_holds() {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/ARCHITECTURE.md")).unwrap();
    assert!(
        text.lines().count() <= 150,
        "ARCHITECTURE.md is over 150 lines"
    );
    let out = std::process::Command::new("python3")
        .arg(format!("{root}/scripts/lang-modules.py"))
        .output()
        .expect("python3 runs");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "a circle of files in crates/lang:\n{shown}"
    );
    assert!(shown.contains(" 0 circle(s)"), "{shown}");
}
