//! The built-ins' rows: Heap games and nim-sequences (answered in `heaps`).

use super::row::*;

/// `periodicity(g)`.
pub static PERIODICITY: RecordShape = RecordShape {
    fields: &[
        "period",
        "preperiod",
        "last_exceptional",
        "saltus",
        "certified",
        "certified_at",
        "checked_up_to",
    ],
    methods: &[],
};

/// `rare_values(g, n)`.
pub static RARE_VALUES: RecordShape = RecordShape {
    fields: &[
        "mask",
        "heaps",
        "values",
        "count",
        "largest",
        "checked_up_to",
    ],
    methods: &[],
};

/// `write_sequence(g, n, file)`.
pub static SEQUENCE_FILE: RecordShape = RecordShape {
    fields: &["path", "format", "first", "last", "heaps", "bytes"],
    methods: &[],
};

pub(super) const ROWS: [Builtin; 14] = [
    Builtin {
        name: "heap",
        imp: Impl::Heaps(HeapOp::Heap),
        signature: "heap(code)",
        arity: (1, 1),
        doc: "A take-and-break heap game from its code, a string in CGSuite's notation (\"0.07\" is \
         Dawson's Kayles, \"4!.0\" Grundy's game). The result is a game family: `heap(code)(n)` \
         is the heap of size `n`.",
        example: "heap(\"0.07\")(10)",
        result: "*3",
        record: None,
    },
    Builtin {
        name: "heap_code",
        imp: Impl::Heaps(HeapOp::HeapCode),
        signature: "heap_code(g), heap_code(code)",
        arity: (1, 1),
        doc: "The take-and-break code of a heap game (`heap(…)`, `subtraction(…)`, `allbut(…)`) \
         or of a code string, in CGSuite's standard form: leading zeros dropped, a repeating \
         tail in brackets, digit sets written the shortest way. Two codes for the same game \
         print the same.",
        example: "heap_code(subtraction([2, 3, 7]))",
        result: "0.0330003",
        record: None,
    },
    Builtin {
        name: "nim_sum",
        imp: Impl::Heaps(HeapOp::NimSum),
        signature: "nim_sum(a, b)",
        arity: (2, 2),
        doc: "Nim addition (bitwise exclusive or) of two nonnegative integers, or of two nimbers \
         (then the result is a nimber): `nim_sum(a, b)` is the value of `*a + *b`.",
        example: "nim_sum(6, 3)",
        result: "5",
        record: None,
    },
    Builtin {
        name: "nim_product",
        imp: Impl::Heaps(HeapOp::NimProduct),
        signature: "nim_product(a, b)",
        arity: (2, 2),
        doc: "Nim multiplication of two nonnegative integers, the product of Conway's field On₂ \
         (the integers below `2^(2^k)` form a subfield); on nimbers it gives a nimber, as \
         `*a * *b` does.",
        example: "nim_product(16, 16)",
        result: "24",
        record: None,
    },
    Builtin {
        name: "nim_inverse",
        imp: Impl::Heaps(HeapOp::NimInverse),
        signature: "nim_inverse(a)",
        arity: (1, 1),
        doc: "The inverse of `a` under nim multiplication: the `b` with `nim_product(a, b) == 1`. \
         An error for 0, which has none.",
        example: "nim_inverse(2)",
        result: "3",
        record: None,
    },
    Builtin {
        name: "nim_div",
        imp: Impl::Heaps(HeapOp::NimDiv),
        signature: "nim_div(a, b)",
        arity: (2, 2),
        doc: "Nim division: `nim_product(a, nim_inverse(b))`. An error when `b` is 0.",
        example: "nim_div(7, 5)",
        result: "5",
        record: None,
    },
    Builtin {
        name: "subtraction",
        imp: Impl::Heaps(HeapOp::Subtraction),
        signature: "subtraction(set)",
        arity: (1, 1),
        doc: "The subtraction game whose moves remove a number of tokens in `set` (a list of \
         positive integers) from one heap.",
        example: "subtraction([1, 2])(5)",
        result: "*2",
        record: None,
    },
    Builtin {
        name: "allbut",
        imp: Impl::Heaps(HeapOp::Allbut),
        signature: "allbut(set)",
        arity: (1, 1),
        doc: "The all-but subtraction game: a move removes any positive number of tokens except \
         those in `set`.",
        example: "nim_sequence(allbut([2]), 8)",
        result: "0 1 0 1 2 3 2 3 4",
        record: None,
    },
    Builtin {
        name: "nim_sequence",
        imp: Impl::Heaps(HeapOp::NimSequence),
        signature: "nim_sequence(g, n), nim_sequence(g, a..b)",
        arity: (2, 2),
        doc: "The nim-values of the heaps `g(0), …, g(n)` (note: `n` is included, so \
         `nim_sequence(g, 5)` has six values), or of the heaps in a range; `g` is a heap game \
         or a ruleset (or function) of one integer. Prints as the values separated by spaces. \
         Held packed (one to four bytes a heap, as the largest value needs): `s[i]`, `s[a..b]` \
         (a sequence of those heaps), `len(s)` and `for (n, v) in s` read it in place.",
        example: "nim_sequence(subtraction([1, 2]), 6)",
        result: "0 1 2 0 1 2 0",
        record: None,
    },
    Builtin {
        name: "periodicity",
        imp: Impl::Heaps(HeapOp::Periodicity),
        signature: "periodicity(g), periodicity(g, heaps)",
        arity: (1, 2),
        doc: "Searches the nim-sequence of `g` for a period, up to a default number of heaps or \
         `heaps`, and certifies it where the Guy–Smith argument applies. A record with fields \
         `period`, `preperiod`, `last_exceptional`, `saltus`, `certified`, `certified_at`, \
         `checked_up_to`.",
        example: "periodicity(heap(\"0.07\")).period",
        result: "34",
        record: Some(&PERIODICITY),
    },
    Builtin {
        name: "rare_values",
        imp: Impl::Heaps(HeapOp::RareValues),
        signature: "rare_values(g, n)",
        arity: (2, 2),
        doc: "The rare heaps of a heap game among heaps 0 to `n`: the sparse-space split (Gangolli–Plambeck, \
         Flammenkamp) calls heap `m` common when `(g(m) << 1 | m % 2) & mask` has an odd number \
         of bits, for the mask that leaves the fewest heaps rare (none while no mask leaves fewer than an \
         eighth). Heap 0 is judged the same way, and with a mask it is always rare (its augmented \
         value is 0), so it is listed and counted, as in the published counts (Grundy's game: 1 287 \
         rare heaps to 2^32). A record with fields `mask`, \
         `heaps` and `values` (the rare heaps, ascending, and their nim-values), `count`, \
         `largest` (the largest nim-value of any heap) and `checked_up_to`. Only the kernel's \
         two bytes a heap are held, up to 2^32 heaps; for games whose moves leave at most two \
         heaps, some of them two.",
        example: "rare_values(heap(\"4!.0\"), 20000).count",
        result: "1196",
        record: Some(&RARE_VALUES),
    },
    Builtin {
        name: "write_sequence",
        imp: Impl::Heaps(HeapOp::WriteSequence),
        signature: "write_sequence(g, n, file), write_sequence(g, a..b, file)",
        arity: (3, 3),
        doc: "Writes the nim-values of heaps `0..=n` (or of a range) of `g` to `file` as they are \
         computed, holding none of them in the session: text with a `#` header line and one \
         value a line, or binary little-endian values after a 32-byte header if the file ends \
         in `.u16` or `.u32`. A bar shows progress; Ctrl-C stops it with the file marked \
         partial (a `# partial` last line, or the header's complete flag left clear). Up to \
         2^32 heaps. A record with fields `path`, `format`, `first`, `last`, `heaps` and \
         `bytes`; `read_sequence` reads the file back.",
        example: "",
        result: "",
        record: Some(&SEQUENCE_FILE),
    },
    Builtin {
        name: "read_sequence",
        imp: Impl::Heaps(HeapOp::ReadSequence),
        signature: "read_sequence(file)",
        arity: (1, 1),
        doc: "Reads a nim-sequence that `write_sequence` wrote (either format, told apart by the \
         binary header), or any text file of one nonnegative integer a line with `#` comments. \
         A file marked partial reads as the heaps it holds, with a warning.",
        example: "",
        result: "",
        record: None,
    },
    Builtin {
        name: "plot",
        imp: Impl::Heaps(HeapOp::Plot),
        signature: "plot(seq, file, title, range, (width, height))",
        arity: (1, 6),
        doc: "Draws a nim-sequence as a figure for a paper: heap size across, nim-value up, the \
         game's name or code as the title, the start of a certified period dashed. All but \
         the sequence may be left out, in any order (told apart by type): the first string \
         is the file (by default `nim-sequence.svg` in the current folder), the second the \
         title, a range the heaps drawn, a pair the size (default `(480, 300)`). The file's \
         extension chooses the format: `.svg`, `.png` (288 dpi) or `.pdf`. A heap game (or a \
         ruleset or function of one integer) followed by its heaps, a number of them or a \
         range, stands for their sequence: `plot(heap(\"0.07\"), 0..60, …)` is \
         `plot(nim_sequence(heap(\"0.07\"), 0..60), …)`.",
        example: "",
        result: "",
        record: None,
    },
];
