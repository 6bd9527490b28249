//! The position table against plain maps of keys, and its arguments read back as written.

use super::*;
use rustc_hash::FxHashMap;
use std::rc::Rc;

#[test]
fn keys_round_trip_and_share() {
    let mut t = PosTable::default();
    let list = Arg::List(Rc::from(vec![Arg::Int(1), Arg::Int(3), Arg::Int(4)]));
    let a = t
        .intern(2, &[Arg::Int(5), list.clone(), Arg::Int(-7)])
        .unwrap();
    let b = t
        .intern(2, &[Arg::Int(5), list.clone(), Arg::Int(-7)])
        .unwrap();
    assert_eq!(a, b);
    // The same list in another allocation is the same key.
    let copy = Arg::List(Rc::from(vec![Arg::Int(1), Arg::Int(3), Arg::Int(4)]));
    assert_eq!(t.intern(2, &[Arg::Int(5), copy, Arg::Int(-7)]).unwrap(), a);
    let big = t.intern(2, &[Arg::Int(1 << 40)]).unwrap();
    assert_ne!(big, a);
    assert_eq!(t.ruleset(a), 2);
    let mut out: Vec<Arg> = Vec::new();
    t.args(big, &mut out);
    assert!(matches!(out[..], [Arg::Int(n)] if n == 1 << 40));
    assert_eq!(
        t.store_args(a),
        vec![
            Arg::Int(5),
            Arg::List(vec![Arg::Int(1), Arg::Int(3), Arg::Int(4)].into()),
            Arg::Int(-7)
        ]
    );
    // A value that is no argument (a game, a function, …), in a table of its own.
    #[derive(Clone)]
    struct NoArg;
    impl ArgValue for NoArg {
        fn shape(&self) -> Shape<'_, NoArg> {
            Shape::Other
        }
        fn to_arg(&self) -> Option<Arg> {
            None
        }
        fn from_arg(_: &Arg) -> NoArg {
            NoArg
        }
        fn from_int(_: i64) -> NoArg {
            NoArg
        }
        fn from_items(_: bool, _: Vec<NoArg>) -> NoArg {
            NoArg
        }
    }
    assert!(PosTable::default().intern(1, &[NoArg]).is_err());
}

/// A ruleset whose lead is its first argument keeps it last: every `r(i, s)` of one list
/// `s` shares one row, and its arguments read back in their written order; another
/// ruleset's keys are kept as written.
#[test]
fn a_lead_argument_is_kept_last_and_read_back_in_place() {
    let mut t = PosTable::default();
    t.set_lead(1, 0);
    let list = Arg::List(Rc::from(vec![Arg::Int(1), Arg::Int(3)]));
    let mut ids = Vec::new();
    for i in 0..3000 {
        let p = t.intern(1, &[Arg::Int(i), list.clone()]).unwrap();
        ids.push(p);
        let mut out: Vec<Arg> = Vec::new();
        t.args(p, &mut out);
        assert!(matches!(out[..], [Arg::Int(j), Arg::List(_)] if j == i));
    }
    assert_eq!(t.rows.len(), 1);
    for (i, &p) in ids.iter().enumerate() {
        assert_eq!(t.intern(1, &[Arg::Int(i as i64), list.clone()]).unwrap(), p);
        let back = t.store_args(p);
        assert_eq!(back[0], Arg::Int(i as i64));
        assert!(matches!(back[1], Arg::List(_)));
    }
    let q = t.intern_ints(2, &[4, 9]);
    assert_eq!(t.store_args(q), vec![Arg::Int(4), Arg::Int(9)]);
    assert_ne!(q, t.intern_ints(2, &[9, 4]));
    assert_eq!(t.len(), 3002);
}

/// A tuple of small integers is kept in place: no compound is interned, positions of one
/// first element share a row, and the tuple reads back as written, whichever way the key
/// was made; tuples with a large or a nested element are interned as before.
#[test]
fn small_tuples_are_kept_in_place() {
    let mut t = PosTable::default();
    let tuple = |xs: &[i64]| Arg::Tuple(xs.iter().map(|&x| Arg::Int(x)).collect());
    let mut ids = Vec::new();
    for b in 0..2000 {
        let p = t.intern(1, &[tuple(&[7, b])]).unwrap();
        assert_eq!(
            t.intern_args(1, &[Arg::Tuple(vec![Arg::Int(7), Arg::Int(b)].into())]),
            p
        );
        ids.push(p);
    }
    assert!(t.compounds.is_empty());
    assert_eq!(t.rows.len(), 1);
    for (b, &p) in ids.iter().enumerate() {
        assert_eq!(t.intern(1, &[tuple(&[7, b as i64])]).unwrap(), p);
        assert_eq!(
            t.store_args(p),
            vec![Arg::Tuple(vec![Arg::Int(7), Arg::Int(b as i64)].into())]
        );
        assert!(t.has_inline(p));
        assert_eq!(t.arg_count(p), 1);
    }
    // Not a 1-tuple of 7 then an integer, nor the list [7, 5].
    let q = t.intern(1, &[tuple(&[7]), Arg::Int(5)]).unwrap();
    let list75 = Arg::List(Rc::from(vec![Arg::Int(7), Arg::Int(5)]));
    let l = t.intern(1, &[list75]).unwrap();
    assert!(q != ids[5] && l != ids[5] && q != l);
    assert_eq!(t.arg_count(q), 2);
    // Interned: a large element, a nested tuple, a long tuple.
    for v in [
        tuple(&[1 << 40, 1]),
        Arg::Tuple(Rc::from(vec![tuple(&[1, 2]), Arg::Int(3)])),
        tuple(&[0; 9]),
    ] {
        let p = t.intern(1, std::slice::from_ref(&v)).unwrap();
        assert!(!t.has_inline(p));
        let mut out: Vec<Arg> = Vec::new();
        t.args(p, &mut out);
        assert_eq!(out[0], v);
    }
    assert_eq!(t.compounds.len(), 4);
    // A tuple that is the lead, moved last across its words.
    t.set_lead(2, 0);
    let list = Arg::List(Rc::from(vec![Arg::Int(1)]));
    let a = t.intern(2, &[tuple(&[3, 4]), list.clone()]).unwrap();
    let b = t.intern(2, &[tuple(&[3, 5]), list.clone()]).unwrap();
    assert_ne!(a, b);
    let mut out: Vec<Arg> = Vec::new();
    t.args(a, &mut out);
    assert_eq!(out[0], tuple(&[3, 4]));
    assert_eq!(out[1], list);
    assert_eq!(t.intern(2, &[tuple(&[3, 4]), list]).unwrap(), a);
}

/// A ruleset that keeps lists in place keys a short list of small integers like the
/// tuple of its elements, yet apart from it, and reads it back a list (the empty one too);
/// other rulesets intern it.
#[test]
fn lists_in_place_read_back_as_lists() {
    let mut t = PosTable::default();
    t.set_lists_in_place(4);
    let list = |xs: &[i64]| Arg::List(xs.iter().map(|&x| Arg::Int(x)).collect());
    let tuple = |xs: &[i64]| Arg::Tuple(xs.iter().map(|&x| Arg::Int(x)).collect());
    let mut ids = Vec::new();
    for v in [
        list(&[]),
        list(&[3]),
        list(&[3, 4]),
        tuple(&[]),
        tuple(&[3, 4]),
    ] {
        let p = t.intern(4, std::slice::from_ref(&v)).unwrap();
        assert!(t.has_inline(p));
        let mut out: Vec<Arg> = Vec::new();
        t.args(p, &mut out);
        assert_eq!(out[0], v);
        assert_eq!(t.store_args(p), vec![v.clone()]);
        assert_eq!(t.intern(4, &[v]).unwrap(), p);
        ids.push(p);
    }
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 5);
    assert!(t.compounds.is_empty());
    let p = t.intern(5, &[list(&[3, 4])]).unwrap();
    assert!(!t.has_inline(p));
    assert_eq!(t.compounds.len(), 1);
}

/// Compound arguments are one id a value, however they are met: short lists of small
/// integers by their words (a new allocation each time), long and nested ones by value
/// and by address; a list is not the tuple of the same elements.
#[test]
fn compounds_are_one_id_a_value() {
    let mut t = PosTable::default();
    let ints = |xs: &[i64]| xs.iter().map(|&x| Arg::Int(x)).collect::<Vec<_>>();
    let list = |xs: &[i64]| Arg::List(Rc::from(ints(xs)));
    let long: Vec<i64> = (0..40).collect();
    let nested = || {
        Arg::List(Rc::from(vec![
            list(&[1, 2]),
            Arg::Tuple(Rc::from(ints(&[3]))),
        ]))
    };
    let kept_long = list(&long);
    let kept_nested = nested();
    let mut seen: FxHashMap<String, PosId> = FxHashMap::default();
    for round in 0..3 {
        for a in 0..50 {
            for v in [
                list(&[a, a + 1]),
                list(&[a]),
                list(&[a, 1 << 40]),
                Arg::Tuple(Rc::from(ints(&[a, 7, 7, 7, 7, 7, 7, 7, 7, 7]))),
                if round == 1 {
                    kept_long.clone()
                } else {
                    list(&long)
                },
                if round == 2 {
                    kept_nested.clone()
                } else {
                    nested()
                },
            ] {
                let p = t.intern(3, std::slice::from_ref(&v)).unwrap();
                let q = *seen.entry(format!("{v:?}")).or_insert(p);
                assert_eq!(p, q, "{v:?}");
                let mut out: Vec<Arg> = Vec::new();
                t.args(p, &mut out);
                assert_eq!(out[0], v);
            }
        }
    }
    assert_eq!(t.len(), seen.len());
    assert_eq!(t.compounds.len(), 50 * 4 + 2);
    // A list and the tuple of its elements are different arguments.
    let l = t.intern(3, &[list(&[1, 2, 3, 4, 5, 6, 7, 8, 9])]).unwrap();
    let u = t.intern(
        3,
        &[Arg::Tuple(Rc::from(ints(&[1, 2, 3, 4, 5, 6, 7, 8, 9])))],
    );
    assert_ne!(l, u.unwrap());
}

/// Rows grow both ways, turn to pages at a jump too long to span, spill keys that would
/// leave them too sparse, and give up on prefixes met once: whatever the order, a key
/// always finds the position it was given (checked against a plain map of keys).
#[test]
fn rows_agree_with_a_map() {
    let mut t = PosTable::default();
    let mut seen: FxHashMap<(u32, Vec<i64>), PosId> = FxHashMap::default();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for step in 0..200_000u32 {
        let r = next();
        let args: Vec<i64> = match r % 7 {
            // A long row met from the top down and in jumps, as `wu` meets it.
            0 => vec![7, (1_000_000 - (step as i64)) % 1_000_000],
            // A jump past what a flat row may span (`wu(10^8, s, 5)` moves to 5 and to
            // 10^8 - 1), then down from the top, both ends met again and again.
            5 => vec![
                8,
                if step % 3 == 0 {
                    5 - (step as i64 % 5)
                } else {
                    100_000_000 - step as i64
                },
            ],
            // A paged row met again and again at 4096 scattered places, both signs:
            // pages until they cost too much.
            6 => vec![
                9,
                ((r >> 8) % 4096 * 0x9E37_79B1) as i64 % (1 << 29) - (1 << 28),
            ],
            1 => vec![7, (r >> 8) as i64 % 5_000_000],
            // Many short rows.
            2 => vec![(r >> 8) as i64 % 50, (r >> 20) as i64 % 60 - 30],
            // Prefixes met once, and huge scattered last arguments.
            3 => vec![(r >> 8) as i64, (r >> 40) as i64 % (1 << 29)],
            _ => vec![(r >> 8) as i64 % 1000],
        };
        let rid = (r >> 60) as u32 % 3;
        let p = t.intern_ints(rid, &args);
        let q = *seen.entry((rid, args.clone())).or_insert(p);
        assert_eq!(p, q, "{rid} {args:?}");
        assert_eq!(t.ruleset(p), rid);
        let back: Vec<Arg> = args.iter().map(|&n| Arg::Int(n)).collect();
        assert_eq!(t.store_args(p), back);
    }
    assert_eq!(t.len(), seen.len());
    // The rows the cases mean to reach were reached: prefix 8 paged, prefix 9 paged and
    // spilled (8 may spill too, when 9's pages have used up the room of all rows).
    let mut paged = |p: i64| {
        let prefix = [
            PosTable::header(0, 2),
            PosTable::int_word(p).expect("small"),
        ];
        let r = t.row_of(&prefix).expect("a row");
        let row = &t.rows[r];
        (!row.dir.is_empty(), row.spilled)
    };
    assert!(paged(8).0);
    assert_eq!(paged(9), (true, true));
}

/// Boards whose free cells are one kind are kept in place and read back as the boards
/// they were (up to 128 cells, of any shape, with any tuple or lead beside them); any other
/// board is a compound. Equal boards are one key either way, and no two boards share one.
#[test]
fn boards_of_one_kind_are_kept_in_place() {
    let mut t = PosTable::default();
    t.set_lead(3, 0);
    let mut s = 0x5eed_u64;
    let mut next = |k: u64| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) % k
    };
    let mut seen: FxHashMap<PosId, Vec<Arg>> = FxHashMap::default();
    for round in 0..600 {
        let (rows, cols) = (1 + next(12) as usize, 1 + next(12) as usize);
        let kinds: &[u8] = match round % 4 {
            0 => b"#.o",
            1 => b"#",
            _ => b"#..",
        };
        let text: Vec<String> = (0..rows)
            .map(|_| {
                (0..cols)
                    .map(|_| kinds[next(kinds.len() as u64) as usize] as char)
                    .collect()
            })
            .collect();
        let b = Board::parse(&text.join("|")).expect("a board");
        let one_kind = rows * cols <= 128 && b.free_of_one_kind().is_some();
        let args = match round % 3 {
            0 => vec![Arg::Board(Rc::new(b.clone()))],
            1 => vec![
                Arg::Tuple(vec![Arg::Int(1), Arg::Int(2)].into()),
                Arg::Board(Rc::new(b.clone())),
                Arg::Int(round),
            ],
            _ => vec![Arg::Board(Rc::new(b.clone())), Arg::Int(-4)],
        };
        let rid = 1 + (round % 3) as u32;
        let p = t.intern(rid, &args).unwrap();
        assert_eq!(t.has_inline(p), one_kind || round % 3 == 1, "{b:?}");
        let mut back: Vec<Arg> = Vec::new();
        t.args(p, &mut back);
        assert_eq!(back, args);
        assert_eq!(t.store_args(p), args);
        // The same board made again (another allocation) is the same key.
        let again: Vec<Arg> = args
            .iter()
            .map(|a| match a {
                Arg::Board(b) => Arg::Board(Rc::new((**b).clone())),
                a => a.clone(),
            })
            .collect();
        assert_eq!(t.intern(rid, &again).unwrap(), p);
        // A board of one argument given as its mask is the same position, and the mask is
        // read back off its key.
        if round % 3 == 0
            && let Some((kind, free)) = b.free_of_one_kind()
        {
            let mask = (rows, cols, kind, free);
            assert_eq!(t.intern_board_mask(rid, mask), Some(p), "{b:?}");
            assert_eq!(t.board_mask(p), Some(mask), "{b:?}");
        }
        if let Some(before) = seen.insert(p, args.clone()) {
            assert_eq!(before, args, "two positions share id {p}");
        }
    }
}
