//! The language's diagnostic codes, each with its `--explain` text (see
//! [`loony_core::codes!`]).

loony_core::codes! {
    /// The `--explain` texts of this layer's codes.
    pub CODES;
    INVALID_UTF8 = "E0009",
        "The source file holds bytes that are not UTF-8 text.\n\n\
         Loony reads programs as UTF-8; the diagnostic names the line and the byte where the \
         text stops being UTF-8. Save the file in that encoding.";
    UNKNOWN_NAME = "E0101",
        "A name that is not defined: not a local, not a binding of the program (`let`, `fn`, \
         `ruleset`, an import), and not a built-in.\n\n\
         When a defined name is close (one edit in three letters), the note suggests it. Shipped \
         games such as `kayles` come from modules: `import \"std/kayles\"` first. `:help` lists \
         the built-ins.";
    ARITY = "E0102",
        "A function, ruleset or built-in called with the wrong number of arguments.\n\n\
         The note shows how it is called (`usage: nim_sequence(g, n), nim_sequence(g, a..b)`). \
         For a built-in the signature comes from the same table as `:help NAME` and \
         docs/builtins.md.";
    TYPE = "E0103",
        "An operation of the language applied to a value it does not work on: negating a list, \
         indexing an integer, comparing a string with a game, iterating over a game, calling \
         something that is not a function, unpacking a value into the wrong number of names.\n\n\
         The label says what the value is. Built-ins report their own argument errors as E0114.";
    INTEGER_AS_GAME = "E0104",
        "An integer other than 0 used where a game is wanted, as in `*2 + 3`.\n\n\
         Loony's games are impartial, and integers (other than 0) are partizan games, so they \
         are not allowed; the nimber is written `*3`.";
    OVERFLOW = "E0105",
        "Integer arithmetic that overflows Loony's signed 64-bit integers (`+`, `-`, `*`, `^`, \
         `abs`, `sum`, nim-field results past 2^63).\n\n\
         Nimbers and nim-values are computed exactly; only plain integer arithmetic has this \
         bound.";
    DIVISION_BY_ZERO = "E0106",
        "Division (`/`) or remainder (`%`) by zero.\n\n\
         Nim division by the nimber 0 is E0407.";
    INDEX_OUT_OF_RANGE = "E0107",
        "A list index outside the list: `[1, 2, 3][3]` (indices count from 0) or a negative \
         index.\n\n\
         The message gives the list's length; `len(xs)` computes it.";
    BAD_LITERAL = "E0108",
        "A malformed value literal: `∞(A)` (a loopy value) needs nonnegative integers `A`, and \
         a special moon `⟫(n)` needs its number.\n\n\
         `∞(2, 3)` is the loopy value that can escape to *2 and *3; `⟫(3)` (or `moon(3)`) is a \
         special moon.\n\n\
         A set literal, braces without `|` (`{1, 5, 3}` is the sorted list `[1, 3, 5]`), holds \
         integers only: `{0, *}` is most likely a form missing its bar, `{0, * | 0, *}`.";
    BAD_RANGE = "E0110",
        "A range of heaps that gives no heaps, or not the heaps meant: it is empty, it starts \
         below 0, or its sizes are not consecutive.\n\n\
         `a..b` holds a, a + 1, …, b - 1, so `0..0` is empty and `0..=0` holds heap 0; heap \
         sizes count tokens from 0, so `-3..3` starts below any heap. `nim_sequence(g, n)` (an \
         integer) lists the heaps 0 to n.";
    HEAP_SIZE = "E0111",
        "A heap size that is not a nonnegative integer: `heap(\"0.07\")(-1)`, `dk(\"a\")`, or a \
         negative nim heap in a misère literal `*[2, -1]`.\n\n\
         A heap game applied to `n` is the heap of `n` tokens, from 0 up.";
    HEAP_GAME_AS_GAME = "E0112",
        "A heap game where one game is wanted: `outcome(heap(\"0.07\"))`.\n\n\
         `heap(\"0.07\")`, `subtraction([1, 2])` and `allbut([…])` are families, one game for \
         every heap size. Apply one to a size to get a game, `heap(\"0.07\")(5)`, or ask about \
         many sizes at once with `nim_sequence(heap(\"0.07\"), 0..20)`.";
    VALUE_TOO_LARGE = "E0113",
        "A value past what Loony represents: a nimber `*n` above *4294967293, a Top Entails \
         nim-value past the fast path's 14 bits, a heap too large for the exhaustive misère \
         search, or a misère search that met too many positions.\n\n\
         The message names the bound. For misère sums of heaps, computing the game's \
         `quotient` first answers them from its table.";
    BAD_ARGUMENT = "E0114",
        "A built-in given an argument it cannot take: of the wrong type (`len(3)`, \
         `heap(7)`), or a value outside what it accepts (an empty subtraction set, a \
         nonpositive budget, an unknown `plot` option).\n\n\
         `:help NAME` shows the built-in's signature and what each argument is.";
    NEGATIVE_EXPONENT = "E0115",
        "An integer power `a^b` with a negative exponent: the result would not be an \
         integer.\n\n\
         `^` is integer exponentiation (`2^32`), right-associative and binding tighter than `*` \
         and unary minus (`-2^2` is -4, `*2^3` is `*8`).";
    NEGATIVE_SHIFT = "E0117",
        "A shift `x << n` or `x >> n` by a negative number of bits.\n\n\
         Shifts take amounts from 0: `x << n` is `x` times `2^n` (an error if a bit would leave \
         the 64-bit integer), `x >> n` is `x` divided by `2^n`, rounded down (so `-7 >> 1` is \
         -4, as in Python). To shift the other way, use the other operator.";
    BAD_BOARD = "E0118",
        "A board that cannot be made, or a cell that is not on it.\n\n\
         `board(\"..#|...\")` reads a picture: rows separated by `|` or line breaks, all of \
         one length, one printable ASCII character a cell (`.` free and `#` blocked by \
         convention; `regions` stops at `#`). `board(r, c)` is an r × c board of `.`. A cell \
         is written `(row, column)` from `(0, 0)` at the top left, or as its index \
         `row * columns + column`; a cell's value is a one-character string.";
    BAD_GRAPH = "E0119",
        "A graph that cannot be made, or a vertex that is not in it.\n\n\
         `graph(n, edges)` has the vertices 0 to n - 1 and the edges given as pairs `(a, b)` \
         of them; the graphs are simple (no loops; a repeated edge counts once). Removing \
         vertices numbers the rest from 0 in their order.";
    BAD_PART = "E0120",
        "A ruleset's `split by` or `canonical by` clause gave a value that is not a \
         position's arguments.\n\n\
         `split by e` gives the independent parts of a position, a list whose items are the \
         arguments of positions of the same ruleset (one value each for a ruleset of one \
         parameter, a tuple of them otherwise); the position is the sum of those parts. \
         `canonical by e` gives the arguments of one position that stands for the whole \
         symmetry class (`canonical(b)` for boards and graphs).";
    BAD_HINT = "E0121",
        "A ruleset's hint to pruned search gave what a hint cannot be, or said what is false.\n\n\
         `bound by e` gives an integer from 0 that the nimber of a part (a position after \
         `split by` and `canonical by`) does not exceed; `order by e` an integer from 0 (the \
         options whose parts' keys sum to less are tried first); `value by e` a part's nimber \
         where the ruleset knows it, or `none`. Hints help pruned search, which values the \
         rulesets that declare `split by`, so a hint needs that clause. A bound is trusted \
         where it saves a search (a bound below a part's nimber can give a wrong answer \
         there) and checked wherever the search values a part by its options anyway: a \
         nimber found above it is this error. A `value by` is taken as given: test it against the rules (for example \
         against `nimber` of the same positions in a ruleset without the hint).";
    MIXED_QUOTIENTS = "E0116",
        "Elements of two different misère quotients in one operation: `q.phi[2] * r.phi[2]`, \
         `q.is_p(r.phi[1])`, or comparing them.\n\n\
         An element belongs to the quotient it came from (`q.phi`, `q.elements`, \
         `q.element(\"ab2\")`); the same word can name different elements of two quotients, \
         so they do not mix even when the quotients are isomorphic. Compare quotients with \
         `isomorphic(q, r)`.";
    RUNAWAY = "E0203",
        "Exploring a ruleset reached more positions than the position budget allows without \
         finishing: the game is very large, or its positions never repeat \
         (`up(n) => up(n + 1)`).\n\n\
         If the game is finite, raise the budget with `--budget N` or `:budget N`; the note \
         shows the last position explored.";
    TOO_DEEP = "E0206",
        "Nesting deeper than the interpreter's stack holds: a deeply nested expression or \
         list, or rules that ask about other positions (`nimber(r(n - 1))` in the rules of \
         `r`), each explored inside the one that asks.\n\n\
         Recursion of a `fn` is E0214. For rules, compute the positions bottom-up (a \
         `nim_sequence`, or asking for small positions first) so each exploration finds the \
         ones below already known.";
    NOT_APPLICABLE = "E0210",
        "A built-in that does not apply to this kind of game: `nimber(☾)` (a moon is not a \
         nimber), `affine_value(∞)`, `explain` of a loopy game, a misère function given an \
         entailing game.\n\n\
         The label says why.";
    SELF_DEPENDENT = "E0211",
        "A rule asked about the value or options of the very position whose options it is \
         listing (`ruleset r(n) { if nimber(r(n)) == 0 => … }`), so they can never be known.\n\n\
         A rule may ask about other positions, not its own.";
    RECURSION = "E0214",
        "A `fn` recursed too deep: more nested calls than the session allows (2,000,000), or \
         than the stack holds, without returning. Usually a recursion without end, like \
         `fn f(n) = f(n + 1)`.\n\n\
         A recursion ends when its arguments reach a case that calls nothing more: \
         `fn f(n) = if n == 0 then 0 else f(n - 1)`. A linear recursion a million calls deep \
         works.";
    IMPORT_NOT_FOUND = "E0301",
        "An `import` whose file or shipped module does not exist.\n\n\
         Files are found relative to the importing file (`import \"lib/games\"` tries \
         lib/games.cgt, then lib/games); shipped modules are `import \"std/NAME\"` and the \
         note lists them.";
    IMPORT_CYCLE = "E0302",
        "A module imports itself, directly or through other modules (a imports b, which \
         imports a).\n\n\
         Move the shared definitions into a third module that both import.";
    UNREADABLE_FILE = "E0303",
        "A file that could not be read: it does not exist, or it cannot be opened (the \
         message gives the system's reason).\n\n\
         Check the path; `:load` and `loony FILE` take paths relative to the current folder.";
    WRITE_FAILED = "E0304",
        "A file that could not be written, such as a plot into a folder that does not exist \
         or a read-only file.\n\n\
         Create the folder first, or write elsewhere; the message gives the system's reason.";
    UNKNOWN_FILE_FORMAT = "E0305",
        "A file name whose extension names no format Loony writes.\n\n\
         A plot is written as SVG, PNG or PDF, chosen by the extension: `.svg`, `.png`, \
         `.pdf`.";
    BAD_TABLE_FILE = "E0307",
        "A file given to `load_table` (or `--table`) that is not a whole table file as \
         `save_table` writes it: another kind of file, a version this Loony does not read, or \
         a file cut short or altered after it was written (its checksum does not match).\n\n\
         Nothing of the file is loaded, so no answer depends on it. A table file is written \
         to a temporary file and renamed, so a save stopped half-way leaves the last whole \
         file; save the table again from a session that has it.";
    FOREIGN_TABLE_FILE = "E0308",
        "A table file saved for rulesets this session does not have: one it names is not \
         defined here, or was defined with other text (its rules changed since the file was \
         saved), or the file says a position has a value this session found otherwise.\n\n\
         Positions are stored by their ruleset's name and a hash of the ruleset's definition, \
         so a table of an edited ruleset is refused rather than used. Nothing of the file is \
         loaded. Define or import the ruleset as it was when the table was saved, or start a \
         new table (the search relearns what the file held).";
    IMPORT_DIRECTORY = "E0306",
        "`import` of a folder: a module is one file.\n\n\
         The note lists the `.cgt` files in the folder; import one of them by its path, \
         `import \"folder/file\"`.";
}
