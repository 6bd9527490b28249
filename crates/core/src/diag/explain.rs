//! `loony --explain CODE`: a longer explanation of each diagnostic code, with an example of
//! what causes it and how to fix it. A test keeps one entry for every code `Error::code` and
//! `Warning::code` give.

/// Code, then its explanation (paragraphs separated by blank lines).
pub const EXPLANATIONS: &[(&str, &str)] = &[
    // --- reading the source ---
    (
        "E0001",
        "A character that is not part of Loony's syntax, like `@` or `$`.\n\n\
         Games are written with `*`, `{`, `|`, `}`, `<`, `>`, `∞` (or `inf`), `∞̄` (or `-inf`) and \
         `☾` (or `moon`); names, integers, strings in double quotes and the operators \
         `+ - * / % == != < <= > >= and or not` make up the rest. Remove the character, or put \
         it inside a string.",
    ),
    (
        "E0002",
        "A bracket `{`, `(`, `[` or `<` was opened and the input ended before it was closed.\n\n\
         The diagnostic points at the opening bracket and at the end of the input. Add the \
         matching closing bracket; in the REPL an open bracket continues the input on the next \
         line, so this appears for files and `-e`.\n\n\
         When the closing bracket is in a comment (`#` to the end of the line), the diagnostic \
         points at the comment instead, and the REPL reports it at once. CGSuite's misère \
         notation `*[2#0]` is such a case: `#` starts a comment in Loony, so a misère form in \
         that notation is read from a string, `misere_form(\"2#0\")`.",
    ),
    (
        "E0003",
        "A game form `{…}` or `<…>` closed without the `|` that separates Left's options from \
         Right's.\n\n\
         Write `{L | R}`: `{0, * | 0, *}` is *2, and `{ | }` is 0. A list of values is written \
         with square brackets: `[0, *]`.",
    ),
    (
        "E0004",
        "A token where the grammar cannot use it, such as `let = 3` (a name is missing) or two \
         values side by side.\n\n\
         The note lists what could have come there instead. Statements are separated by line \
         breaks or `;`.",
    ),
    (
        "E0005",
        "The input ended in the middle of a statement: after an operator (`*2 +`), after `let x \
         =`, or in an `if` without its `else`.\n\n\
         Complete the statement. The REPL asks for another line in these cases.",
    ),
    (
        "E0006",
        "An integer literal too large for Loony's 64-bit integers (more than \
         9223372036854775807).\n\n\
         Loony computes with signed 64-bit integers; arithmetic that overflows is E0105.",
    ),
    (
        "E0007",
        "A string that is not closed: its opening `\"` has no closing `\"`.\n\n\
         Close the string. A `\"` inside a string is written `\\\"`.",
    ),
    (
        "E0008",
        "A `\\` inside a string followed by a character that starts no escape.\n\n\
         The escapes are `\\\"` (a quote), `\\\\` (a backslash), `\\n` (a line break) and `\\t` \
         (a tab). To write a backslash itself, double it.",
    ),
    (
        "E0009",
        "The source file holds bytes that are not UTF-8 text.\n\n\
         Loony reads programs as UTF-8; the diagnostic names the line and the byte where the \
         text stops being UTF-8. Save the file in that encoding.",
    ),
    (
        "E0010",
        "A number with a decimal point, like `0.07`. Loony's numbers are integers.\n\n\
         A take-and-break code is text in CGSuite's notation and is written as a string: \
         `heap(\"0.07\")` is Dawson's Kayles, `heap(\"4.07\")` another octal game.",
    ),
    // --- names, values and built-ins ---
    (
        "E0101",
        "A name that is not defined: not a local, not a binding of the program (`let`, `fn`, \
         `ruleset`, an import), and not a built-in.\n\n\
         When a defined name is close (one edit in three letters), the note suggests it. Shipped \
         games such as `kayles` come from modules: `import \"std/kayles\"` first. `:help` lists \
         the built-ins.",
    ),
    (
        "E0102",
        "A function, ruleset or built-in called with the wrong number of arguments.\n\n\
         The note shows how it is called (`usage: nim_sequence(g, n), nim_sequence(g, a..b)`). \
         For a built-in the signature comes from the same table as `:help NAME` and \
         docs/builtins.md.",
    ),
    (
        "E0103",
        "An operation of the language applied to a value it does not work on: negating a list, \
         indexing an integer, comparing a string with a game, iterating over a game, calling \
         something that is not a function, unpacking a value into the wrong number of names.\n\n\
         The label says what the value is. Built-ins report their own argument errors as E0114.",
    ),
    (
        "E0104",
        "An integer other than 0 used where a game is wanted, as in `*2 + 3`.\n\n\
         Loony's games are impartial, and integers (other than 0) are partizan games, so they \
         are not allowed; the nimber is written `*3`.",
    ),
    (
        "E0105",
        "Integer arithmetic that overflows Loony's signed 64-bit integers (`+`, `-`, `*`, \
         `abs`, `sum`, nim-field results past 2^63).\n\n\
         Nimbers and nim-values are computed exactly; only plain integer arithmetic has this \
         bound.",
    ),
    (
        "E0106",
        "Division (`/`) or remainder (`%`) by zero.\n\n\
         Nim division by the nimber 0 is E0407.",
    ),
    (
        "E0107",
        "A list index outside the list: `[1, 2, 3][3]` (indices count from 0) or a negative \
         index.\n\n\
         The message gives the list's length; `len(xs)` computes it.",
    ),
    (
        "E0108",
        "A malformed value literal: `∞(A)` (a loopy value) needs nonnegative integers `A`, and \
         a special moon `⟫(n)` needs its number.\n\n\
         `∞(2, 3)` is the loopy value that can escape to *2 and *3; `⟫(3)` (or `moon(3)`) is a \
         special moon.",
    ),
    (
        "E0109",
        "A label of a labelled (loopy) form that is defined twice, or defined and never used: \
         `a{0, a{a | a} | 0, a}` reuses `a`, and `a{0, * | 0, *}` never mentions `a`.\n\n\
         A label names the form so that its options can reach it again; drop an unused label, \
         and give nested forms different labels.",
    ),
    (
        "E0110",
        "A range of heaps that gives no heaps, or not the heaps meant: it is empty, it starts \
         below 0, or its sizes are not consecutive.\n\n\
         `a..b` holds a, a + 1, …, b - 1, so `0..0` is empty and `0..=0` holds heap 0; heap \
         sizes count tokens from 0, so `-3..3` starts below any heap. `nim_sequence(g, n)` (an \
         integer) lists the heaps 0 to n.",
    ),
    (
        "E0111",
        "A heap size that is not a nonnegative integer: `heap(\"0.07\")(-1)`, `dk(\"a\")`, or a \
         negative nim heap in a misère literal `*[2, -1]`.\n\n\
         A heap game applied to `n` is the heap of `n` tokens, from 0 up.",
    ),
    (
        "E0112",
        "A heap game where one game is wanted: `outcome(heap(\"0.07\"))`.\n\n\
         `heap(\"0.07\")`, `subtraction([1, 2])` and `allbut([…])` are families, one game for \
         every heap size. Apply one to a size to get a game, `heap(\"0.07\")(5)`, or ask about \
         many sizes at once with `nim_sequence(heap(\"0.07\"), 0..20)`.",
    ),
    (
        "E0113",
        "A value past what Loony represents: a nimber `*n` above *4294967293, a Top Entails \
         nim-value past the fast path's 14 bits, a heap too large for the exhaustive misère \
         search, or a misère search that met too many positions.\n\n\
         The message names the bound. For misère sums of heaps, computing the game's \
         `quotient` first answers them from its table.",
    ),
    (
        "E0114",
        "A built-in given an argument it cannot take: of the wrong type (`len(3)`, \
         `heap(7)`), or a value outside what it accepts (an empty subtraction set, a \
         nonpositive budget, an unknown `plot` option).\n\n\
         `:help NAME` shows the built-in's signature and what each argument is.",
    ),
    // --- values of games ---
    (
        "E0201",
        "A game that is not impartial: some position gives Left and Right different options, \
         as in `{0, * | 0}`.\n\n\
         Loony computes values of impartial games, where both players have the same moves at \
         every position (the conjugate of each option, for entailing games). The diagnostic \
         shows the first position found whose options differ.",
    ),
    (
        "E0202",
        "A game with infinitely many positions: a ruleset position recurs inside one of its \
         own followers as part of a larger sum (`grow(n) => grow(n) + *`), so the sums keep \
         growing.\n\n\
         Loopy games are fine when the same positions recur; sums that grow each time around \
         are not finite graphs.",
    ),
    (
        "E0203",
        "Exploring a ruleset reached more positions than the position budget allows without \
         finishing: the game is very large, or its positions never repeat \
         (`up(n) => up(n + 1)`).\n\n\
         If the game is finite, raise the budget with `--budget N` or `:budget N`; the note \
         shows the last position explored.",
    ),
    (
        "E0204",
        "A game that is not an affine impartial game: some Right option is not the conjugate \
         of a Left option (with ∞/∞̄ swapped), so the affine theory gives it no value.\n\n\
         Affine impartial games (entailing moves `{∞ | X}` and their conjugates) are the games \
         `affine_value` and `explain` handle.",
    ),
    (
        "E0205",
        "`∞ + ∞̄`: a sum in which both players would already have won has no value.\n\n\
         ∞ is a game Left has won and ∞̄ one Right has won; they cannot both be parts of one \
         sum.",
    ),
    (
        "E0206",
        "Nesting deeper than the interpreter's stack holds: a deeply nested expression or \
         list, or rules that ask about other positions (`nimber(r(n - 1))` in the rules of \
         `r`), each explored inside the one that asks.\n\n\
         Recursion of a `fn` is E0214. For rules, compute the positions bottom-up (a \
         `nim_sequence`, or asking for small positions first) so each exploration finds the \
         ones below already known.",
    ),
    (
        "E0207",
        "A game that has no nim-value where one is needed: a position of a ruleset whose value \
         is a moon or loopy (in `nim_sequence`), a game given to nim-field arithmetic that is \
         not a nimber, or an affine game whose entailing moves lie on a cycle.\n\n\
         `value(g)` shows what the game's value is instead.",
    ),
    (
        "E0208",
        "The theory gives this game no value: a loopy game with entailing moves whose value is \
         not determined by the known results.\n\n\
         Its outcome is still known (the note gives it, found by an exact search); \
         `outcome(g)` answers.",
    ),
    (
        "E0209",
        "The exact search of a sum (used where the theory gives no value) met more states than \
         the budget allows.\n\n\
         Raise the budget with `--budget N` or `:budget N`.",
    ),
    (
        "E0210",
        "A built-in that does not apply to this kind of game: `nimber(☾)` (a moon is not a \
         nimber), `affine_value(∞)`, `explain` of a loopy game, a misère function given an \
         entailing game.\n\n\
         The label says why.",
    ),
    (
        "E0211",
        "A rule asked about the value or options of the very position whose options it is \
         listing (`ruleset r(n) { if nimber(r(n)) == 0 => … }`), so they can never be known.\n\n\
         A rule may ask about other positions, not its own.",
    ),
    (
        "E0212",
        "A table of the interpreter would outgrow its 32-bit indices (more than about four \
         billion games, positions or argument lists), or a ruleset has more than 255 \
         parameters (a position's key counts its words in one byte).\n\n\
         Split the computation into smaller ones; pass many parameters together, as one tuple \
         or list.",
    ),
    (
        "E0213",
        "The statement needed more memory than the session's budget (by default half of the \
         machine's memory).\n\n\
         Raise it with `--memory SIZE` or `:memory SIZE` (e.g. 8G); the note says what was \
         being built and how much the session already held.",
    ),
    (
        "E0214",
        "A `fn` recursed too deep: more nested calls than the session allows (2,000,000), or \
         than the stack holds, without returning. Usually a recursion without end, like \
         `fn f(n) = f(n + 1)`.\n\n\
         A recursion ends when its arguments reach a case that calls nothing more: \
         `fn f(n) = if n == 0 then 0 else f(n - 1)`. A linear recursion a million calls deep \
         works.",
    ),
    // --- files ---
    (
        "E0301",
        "An `import` whose file or shipped module does not exist.\n\n\
         Files are found relative to the importing file (`import \"lib/games\"` tries \
         lib/games.cgt, then lib/games); shipped modules are `import \"std/NAME\"` and the \
         note lists them.",
    ),
    (
        "E0302",
        "A module imports itself, directly or through other modules (a imports b, which \
         imports a).\n\n\
         Move the shared definitions into a third module that both import.",
    ),
    (
        "E0303",
        "A file that could not be read: it does not exist, or it cannot be opened (the \
         message gives the system's reason).\n\n\
         Check the path; `:load` and `loony FILE` take paths relative to the current folder.",
    ),
    (
        "E0304",
        "A file that could not be written, such as a plot into a folder that does not exist \
         or a read-only file.\n\n\
         Create the folder first, or write elsewhere; the message gives the system's reason.",
    ),
    (
        "E0305",
        "A file name whose extension names no format Loony writes.\n\n\
         A plot is written as SVG, PNG or PDF, chosen by the extension: `.svg`, `.png`, \
         `.pdf`.",
    ),
    (
        "E0306",
        "`import` of a folder: a module is one file.\n\n\
         The note lists the `.cgt` files in the folder; import one of them by its path, \
         `import \"folder/file\"`.",
    ),
    // --- heap games and misère quotients ---
    (
        "E0401",
        "A take-and-break code that is not CGSuite's notation: a digit out of range, an \
         unclosed `[` period or `{` set, a code with endless play.\n\n\
         Codes are written `d0.d1d2d3…` (octal games like \"0.07\"), with hexadecimal digits, \
         `&…;` for large digits, `[…]` for a repeating tail and `{…}` sets; `!`, `?` and `=` \
         mark variants. The label points at the character.",
    ),
    (
        "E0402",
        "A game that is not a heap game where one is needed (for `quotient`, \
         `nim_sequence`, `periodicity`).\n\n\
         Heap games are `heap(\"0.07\")`, `subtraction([…])`, `allbut([…])`, and rulesets of \
         one heap size whose moves are sums of smaller heaps.",
    ),
    (
        "E0403",
        "A ruleset used as a heap game has a move that is not a sum of smaller heaps of the \
         same ruleset.\n\n\
         A heap game's moves replace a heap by a sum of smaller heaps; the message shows the \
         offending option.",
    ),
    (
        "E0404",
        "A misère quotient grew past the limits on its size while being computed.\n\n\
         The note gives the last quotient completed; `quotient(g, n)` with a smaller heap \
         bound computes a partial quotient.",
    ),
    (
        "E0405",
        "`quotient(g)` without a heap bound for a game whose periodicity cannot be certified \
         (codes with `!`, `?`, `=`, and some others).\n\n\
         Give a bound: `quotient(g, n)` computes the partial quotient Q_n.",
    ),
    (
        "E0406",
        "A heap bound for `quotient` out of range (negative, or larger than the maximum).\n\n\
         The message gives the range.",
    ),
    (
        "E0407",
        "Nim division by 0: `nim_inverse(0)`, `nim_div(a, 0)`.\n\n\
         Every nonzero nimber has a nim-inverse; 0 has none.",
    ),
    (
        "E0408",
        "A nim-field built-in (`nim_sum`, `nim_product`, `nim_inverse`, `nim_div`) given a \
         negative integer.\n\n\
         They take nonnegative integers or nimbers.",
    ),
    (
        "E0501",
        "The computation was interrupted by Ctrl-C.\n\n\
         The session goes on with everything computed before the statement; the interrupted \
         statement left no binding.",
    ),
    // --- misère play ---
    (
        "E0601",
        "A misère literal `*[…]` with an element that is not an integer, a list or a game.\n\n\
         Integers are nim heaps, lists are games with those options: `*[2, [1]]`.",
    ),
    (
        "E0602",
        "`link(g, h)` of games that are not linked: one is an option of the other.\n\n\
         Two games are linked exactly when neither is an option of the other \
         (`is_linked(g, h)` tests it).",
    ),
    (
        "E0603",
        "`misere_minus(g, h)` where `h` is not a part of `g`.\n\n\
         `parts(g)` lists the games that can be subtracted.",
    ),
    (
        "E0604",
        "A misère function given a game with ∞, ∞̄, `entail` or `carry` reachable.\n\n\
         Misère canonical forms exist for short impartial games only.",
    ),
    (
        "E0605",
        "`distinguisher(g, g)`: equal games have no distinguisher.\n\n\
         A distinguisher is a game `x` with `g + x` and `h + x` of different misère \
         outcomes; it exists exactly when `g` and `h` differ.",
    ),
    (
        "E0606",
        "A nim heap or a printed string past the misère engine's limits.\n\n\
         The message gives the limit.",
    ),
    (
        "E0607",
        "A string that is not CGSuite's misère notation (in `misere_form(\"…\")`).\n\n\
         It is the notation `misere_form` prints, like `*[2#0]`; the label points at the \
         character where reading stopped.",
    ),
    (
        "E0608",
        "A misère function called inside a ruleset's rules while the misère engine is \
         converting a position of that ruleset.\n\n\
         Compute misère values outside the rules.",
    ),
    // --- the REPL ---
    (
        "E0701",
        "A REPL `:command` that is unknown or has a bad argument (`:budget abc`, `:quit now`).\n\n\
         The note shows the command's usage; `:help` lists the commands.",
    ),
    (
        "E0901",
        "An internal error: a bug in Loony, caught so that the session goes on.\n\n\
         Please report it with the input that caused it. Values computed by that input may be \
         incomplete.",
    ),
    // --- warnings ---
    (
        "W0001",
        "A `let`, `fn` or `ruleset` named like a built-in. The program goes on, but the \
         built-in is out of reach while the name is bound.\n\n\
         Choose another name (`let dk = heap(\"0.07\")` rather than `let heap = …`). \
         Parameters and `for` variables may use any name without a warning.",
    ),
    (
        "W0002",
        "A definition that replaces one made elsewhere: your own `kayles` after \
         `import \"std/kayles\"`, or an import whose module replaces a `kayles` you defined.\n\n\
         From there on the name means the new definition. Redefining a name in the program or \
         module that defined it is silent.",
    ),
];

/// The code as listed and its explanation (`E0110`, `e0110` or `0110` find it), or `None`.
pub fn explain(code: &str) -> Option<(&'static str, &'static str)> {
    let c = code.trim().to_ascii_uppercase();
    let c = if !c.is_empty() && c.chars().all(|ch| ch.is_ascii_digit()) {
        format!("E{c}")
    } else {
        c
    };
    EXPLANATIONS.iter().find(|(k, _)| *k == c).copied()
}

/// The explanation as `--explain` prints it: the code, then each paragraph broken before
/// `width` columns.
pub fn render(code: &str, text: &str, width: usize) -> String {
    let mut out = format!("{code}\n");
    for para in text.split("\n\n") {
        out.push('\n');
        let mut col = 0;
        for word in para.split_whitespace() {
            let w = word.chars().count();
            if col > 0 && col + 1 + w > width {
                out.push('\n');
                col = 0;
            } else if col > 0 {
                out.push(' ');
                col += 1;
            }
            out.push_str(word);
            col += w;
        }
        out.push('\n');
    }
    out
}
