//! The transposition table of pruned search: a full table still gives the values of a brute
//! force written here (Cram by bit masks), and the table's file (`save_table`, `load_table`)
//! gives the same answers in a fresh session, while a torn, altered or foreign file is an
//! error, never an answer.

use crate::brute::{MaskGame, cram_moves, lcg, nim, picture};
use crate::common::on_big_stack;
use loony::eval::Interp;

/// Cram's nimbers by brute force over the free cells' mask (`crate::brute`).
struct Cram {
    game: MaskGame,
    moves: Vec<u64>,
}

impl Cram {
    fn new(rows: usize, cols: usize) -> Cram {
        let moves = cram_moves(rows, cols);
        Cram {
            game: MaskGame::new(moves.clone()),
            moves,
        }
    }

    fn nimber(&mut self, free: u64) -> u32 {
        self.game.grundy(free, &self.moves)
    }
}

/// Queries of random Cram boards (outcomes of sums with a nimber, then values) and what the
/// brute force says they print.
fn cram_cases(seed: u64, count: usize) -> (String, Vec<String>) {
    let mut src = String::from("import \"std/cram\"\n");
    let mut want = Vec::new();
    let mut s = seed;
    for k in 0..count {
        let (rows, cols) = [(4, 4), (3, 5), (4, 5), (3, 6)][k % 4];
        let mut g = Cram::new(rows, cols);
        let full = (1u64 << (rows * cols)) - 1;
        let a = (lcg(&mut s) | lcg(&mut s)) & full;
        let heap = lcg(&mut s) as u32 % 3;
        let p = picture(rows, cols, a);
        src.push_str(&format!("outcome(cram_board(board(\"{p}\")) + *{heap})\n"));
        want.push(if g.nimber(a) == heap { "P" } else { "N" }.to_string());
        src.push_str(&format!("cram_board(board(\"{p}\"))\n"));
        want.push(nim(g.nimber(a)));
    }
    for (rows, cols) in [(4, 5), (3, 6), (5, 4)] {
        let mut g = Cram::new(rows, cols);
        let v = g.nimber((1u64 << (rows * cols)) - 1);
        src.push_str(&format!("outcome(cram({rows}, {cols}))\n"));
        want.push(if v == 0 { "P" } else { "N" }.to_string());
        src.push_str(&format!("cram({rows}, {cols})\n"));
        want.push(nim(v));
    }
    (src, want)
}

/// Runs `src` in `interp`, returning its lines (and the rendered error, if any).
fn run(interp: &mut Interp, name: &str, src: &str) -> (Vec<String>, Option<String>) {
    let mut out = Vec::new();
    let r = interp.run(name, src, &mut |s| out.push(s));
    (out, r.err().map(|e| e.render_plain(&interp.cx.files)))
}

#[test]
fn a_full_table_gives_the_brute_force_values() {
    let (src, want) = cram_cases(17, 24);
    let (got, stats) = on_big_stack(move || {
        let mut interp = Interp::new();
        interp.cx.set_table_capacity(Some(8));
        let (got, err) = run(&mut interp, "full.cgt", &src);
        assert_eq!(err, None);
        (got, interp.cx.table_stats())
    });
    assert_eq!(got, want);
    assert_eq!(stats.capacity, 8);
    assert!(stats.entries <= 8, "{stats:?}");
    assert!(stats.replacements > 100, "the table was full: {stats:?}");
    assert!(stats.opened > 0 && stats.lookups > 0, "{stats:?}");
}

#[test]
fn a_table_of_the_budget_s_share_gives_the_same_values() {
    let (src, want) = cram_cases(29, 12);
    let (got, stats) = on_big_stack(move || {
        let mut interp = Interp::new();
        let (got, err) = run(&mut interp, "share.cgt", &src);
        assert_eq!(err, None);
        (got, interp.cx.table_stats())
    });
    assert_eq!(got, want);
    assert_eq!(stats.replacements, 0, "{stats:?}");
    assert!(stats.hits > 0, "{stats:?}");
}

/// A file under `target/` for one test (tests run side by side, each with its own name).
fn scratch(name: &str) -> String {
    let dir = format!("{}/target/pruned-table-tests", env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = format!("{dir}/{name}");
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs the Cram cases in a fresh session that first loads `file` (as `load_table` does), or
/// saves to it at the end; the lines, the error of the load if any, and the table's counters.
fn session(
    src: &str,
    load: Option<&str>,
    save: Option<&str>,
) -> (Vec<String>, Option<String>, loony::theory::pruned::Stats) {
    let (src, load, save) = (
        src.to_string(),
        load.map(str::to_string),
        save.map(str::to_string),
    );
    on_big_stack(move || {
        let mut interp = Interp::new();
        let mut load_err = None;
        if let Some(f) = &load {
            let (_, err) = run(
                &mut interp,
                "load.cgt",
                &format!("import \"std/cram\"\nload_table(\"{f}\")"),
            );
            load_err = err.map(|e| {
                // Nothing of a refused file is loaded.
                assert_eq!(interp.cx.table_stats().entries, 0, "{e}");
                e
            });
        }
        let (got, err) = run(&mut interp, "cases.cgt", &src);
        assert_eq!(err, None);
        if let Some(f) = &save {
            let (n, err) = run(&mut interp, "save.cgt", &format!("save_table(\"{f}\")"));
            assert_eq!(err, None);
            assert!(n[0].parse::<usize>().unwrap() > 100, "{n:?}");
        }
        (got, load_err, interp.cx.table_stats())
    })
}

#[test]
fn a_saved_table_gives_the_same_answers_in_a_fresh_session() {
    let file = scratch("saved.tbl");
    let (src, want) = cram_cases(41, 16);
    let (first, _, before) = session(&src, None, Some(&file));
    assert_eq!(first, want);
    let (again, err, after) = session(&src, Some(&file), None);
    assert_eq!(err, None);
    assert_eq!(again, want);
    // Answered from the file: the outcomes' parts are hits, and no question is opened again.
    assert!(after.hits > 0, "{after:?}");
    assert!(
        before.opened > 1000 && after.opened == 0,
        "{before:?} then {after:?}"
    );
    assert!(after.entries > 100, "{after:?}");
}

/// A save writes entry by entry: with a memory budget only 160 KB above what the session
/// holds, it writes a file larger than that (made whole in memory first, it took several
/// times the file's size, and on a large table the budget stopped a long search at its
/// autosave). The file then loads and answers as the brute force does.
#[test]
fn a_save_takes_less_memory_than_its_file() {
    let file = scratch("lean.tbl");
    let (mut src, mut want) = cram_cases(47, 24);
    // 3 × 8 Cram, for a table of some thousands of parts.
    src.push_str("cram(3, 8)\n");
    want.push(nim(Cram::new(3, 8).nimber((1 << 24) - 1)));
    let (src2, want2) = (src.clone(), want.clone());
    let path = file.clone();
    let (got, err, n) = on_big_stack(move || {
        let mut interp = Interp::new();
        let (got, err) = run(&mut interp, "cases.cgt", &src);
        assert_eq!(err, None);
        interp.cx.limits.memory = loony::memory::in_use() + (160 << 10);
        let (n, err) = run(&mut interp, "save.cgt", &format!("save_table(\"{path}\")"));
        (got, err, n)
    });
    assert_eq!(got, want);
    assert_eq!(err, None, "{n:?}");
    let size = std::fs::metadata(&file).expect("the saved file").len();
    assert!(size > 160 << 10, "a file of {size} bytes tests nothing");
    let (again, err, _) = session(&src2, Some(&file), None);
    assert_eq!(err, None);
    assert_eq!(again, want2);
}

/// A file that cannot be used loads nothing: the error is the load's, the table stays empty,
/// and every answer after it is the brute force's.
fn refused(file: &str, code: &str) {
    let (src, want) = cram_cases(43, 8);
    let (got, err, stats) = session(&src, Some(file), None);
    let err = err.expect("the load is refused");
    assert!(err.starts_with(&format!("error[{code}]")), "{err}");
    assert_eq!(got, want);
    assert!(stats.opened > 0, "relearned: {stats:?}");
}

#[test]
fn a_torn_or_altered_table_file_is_an_error_not_an_answer() {
    let file = scratch("whole.tbl");
    let (src, _) = cram_cases(47, 8);
    session(&src, None, Some(&file));
    let bytes = std::fs::read(&file).unwrap();
    // Cut short at a few places (a save killed half-way through writing).
    for cut in [0, 7, 12, 40, bytes.len() / 2, bytes.len() - 1] {
        let torn = scratch(&format!("torn{cut}.tbl"));
        std::fs::write(&torn, &bytes[..cut]).unwrap();
        refused(&torn, "E0307");
    }
    // One bit flipped, in the header, a ruleset's record, an entry and the checksum.
    for at in [9, 20, bytes.len() / 2, bytes.len() - 3] {
        let mut b = bytes.clone();
        b[at] ^= 4;
        let altered = scratch(&format!("altered{at}.tbl"));
        std::fs::write(&altered, &b).unwrap();
        refused(&altered, "E0307");
    }
}

#[test]
fn a_table_file_of_another_ruleset_is_an_error_not_an_answer() {
    // The same name, edited rules: a domino marks its cells `x` instead of `#` (the same game,
    // but the table of an edited ruleset is never trusted).
    let edited = scratch("edited.tbl");
    let src = "ruleset cram_board(b) split by regions(b) canonical by canonical(b) {\n  \
               for (p, q) in adjacent_pairs(b, \".\") => cram_board(set(b, [p, q], \"x\"))\n}\n\
               cram_board(board(4, 4))\n";
    let (out, err) = on_big_stack({
        let (src, edited) = (src.to_string(), edited.clone());
        move || {
            let mut interp = Interp::new();
            run(
                &mut interp,
                "edited.cgt",
                &format!("{src}save_table(\"{edited}\")"),
            )
        }
    });
    assert_eq!(err, None);
    assert_eq!(out[0], "0");
    refused(&edited, "E0308");
    // Another game altogether: Node Kayles parts in a session of Cram.
    let other = scratch("node_kayles.tbl");
    let (out, err) = on_big_stack({
        let other = other.clone();
        move || {
            let mut interp = Interp::new();
            run(
                &mut interp,
                "nk.cgt",
                &format!(
                    "import \"std/node_kayles\"\nnode_kayles(9, [(i, i + 1) for i in 0..8])\n\
                     save_table(\"{other}\")"
                ),
            )
        }
    });
    assert_eq!(err, None);
    // Node Kayles on a path is Dawson's Chess, 0.137: heap 9 is *3 (OEIS A002187).
    assert_eq!(out[0], "*3");
    refused(&other, "E0308");
}

/// The two diagnostics, as a user sees them.
#[test]
fn table_file_diagnostics() {
    let not_a_table = "load_table(\"Cargo.toml\")";
    insta::assert_snapshot!(
        "not_a_table_file",
        crate::common::run_named("test.cgt", not_a_table),
        not_a_table
    );
    let file = "target/pruned-table-tests/for_cram.tbl";
    let _ = std::fs::create_dir_all("target/pruned-table-tests");
    let (_, err) = on_big_stack(move || {
        let mut interp = Interp::new();
        run(
            &mut interp,
            "save.cgt",
            &format!("import \"std/cram\"\ncram(2, 3)\nsave_table(\"{file}\")"),
        )
    });
    assert_eq!(err, None);
    let foreign = format!(
        "ruleset cram_board(b) split by regions(b) {{\n  \
         for (p, q) in adjacent_pairs(b, \".\") => cram_board(set(b, [p, q], \"#\"))\n}}\n\
         load_table(\"{file}\")"
    );
    insta::assert_snapshot!(
        "table_of_another_ruleset",
        crate::common::run_named("test.cgt", &foreign),
        &foreign
    );
}

/// The table's capacity is a quarter of the memory budget (24 bytes an entry, rounded down
/// to a power of two), follows `:memory`, and `:table capacity N` caps it lower.
#[test]
fn the_capacity_follows_the_memory_budget() {
    let caps = on_big_stack(|| {
        let mut s = loony::repl::Session::new();
        let mut caps = Vec::new();
        for input in [
            ":memory 64M",
            "import \"std/cram\"\noutcome(cram(3, 4))",
            ":memory 256M",
            "outcome(cram(3, 5))",
            ":table capacity 1000",
            ":memory 1G",
            "outcome(cram(2, 5))",
        ] {
            s.eval(input);
            caps.push(s.interp.cx.table_stats().capacity);
        }
        caps
    });
    // 64 MiB / 4 / 24 = 699 050 entries: 2^19; 256 MiB: 2^21; capped at 1000: 512.
    assert_eq!(caps[1], 1 << 19);
    assert_eq!(caps[3], 1 << 21);
    assert_eq!(caps[4], 512);
    assert_eq!(caps[6], 512);
}

/// FNV-1a, 64 bits, as the table file's checksum is (its format: `pruned/file.rs`).
fn fnv(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The entries of a table file of `std/cram` (each one board): where each one's exact nimber
/// is, the board as text, and the nimber.
fn cram_entries(bytes: &[u8]) -> Vec<(usize, String, u32)> {
    let u16_at = |at: usize| u16::from_le_bytes(bytes[at..at + 2].try_into().unwrap()) as usize;
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let mut at = 12;
    let rulesets = u32_at(at);
    at += 4;
    for _ in 0..rulesets {
        at += 4 + u32_at(at) as usize + 8 + 4;
    }
    let count = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    at += 8;
    let mut out = Vec::new();
    for _ in 0..count {
        assert_eq!(bytes[at + 4], 3, "a board");
        let (rows, cols) = (u16_at(at + 5), u16_at(at + 7));
        at += 9;
        let cells = &bytes[at..at + rows * cols];
        let text: Vec<String> = cells
            .chunks(cols)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect();
        at += rows * cols;
        out.push((at, text.join("|"), u32_at(at)));
        at += 20;
    }
    assert_eq!(at, bytes.len() - 8, "the whole file read");
    out
}

/// What a file says of a position the session already knows is checked: a file whose
/// nimber of a part is not the one the session found is refused whole (E0308).
#[test]
fn a_table_file_that_disagrees_with_the_session_is_refused() {
    let file = scratch("disagrees.tbl");
    let (_, err) = on_big_stack({
        let file = file.clone();
        move || {
            let mut interp = Interp::new();
            let src = format!("import \"std/cram\"\ncram(3, 5)\nsave_table(\"{file}\")");
            run(&mut interp, "save.cgt", &src)
        }
    });
    assert_eq!(err, None);
    let mut bytes = std::fs::read(&file).unwrap();
    // A part of nimber 1 or more, said to be 0 (and nothing said of what it is not), with
    // the checksum made again: a whole file that is wrong.
    let (at, board, n) = cram_entries(&bytes)
        .into_iter()
        .find(|&(_, _, n)| (1..u32::MAX).contains(&n))
        .expect("a part of nimber 1 or more");
    bytes[at..at + 12].fill(0);
    let body = bytes.len() - 8;
    let sum = fnv(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&file, &bytes).unwrap();
    let (out, err) = on_big_stack(move || {
        let mut interp = Interp::new();
        let src = format!(
            "import \"std/cram\"\nnimber(cram_board(board(\"{board}\")))\nload_table(\"{file}\")"
        );
        run(&mut interp, "load.cgt", &src)
    });
    assert_eq!(out, [n.to_string()]);
    let err = err.expect("the file is refused");
    assert!(
        err.starts_with("error[E0308]") && err.contains("where this session found"),
        "{err}"
    );
}
