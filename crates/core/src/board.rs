//! Boards: a rectangle of cells, each one printable character (`.` free, `#` blocked, or any
//! piece a ruleset draws). A board is a value of the language and may be a ruleset's argument,
//! so it hashes and compares by its shape and cells; boards order by rows, then columns, then
//! cells, which is what makes [`Board::canonical`] the least of a board's symmetric images.
//!
//! The operations a board game's rules and its `split` and `canonical` clauses run on every
//! move live here, in plain Rust: regions (4-neighbour components of the cells that are not
//! [`BLOCKED`], each cropped to its bounding box) and the eight symmetries of the square.

use smallvec::SmallVec;
use std::fmt;

/// A board's cells: in place up to this many (most regions of most games), so a board
/// position is one allocation.
const INLINE: usize = 40;
type Cells = SmallVec<[u8; INLINE]>;

/// The cell that is no part of the playing area (regions stop at it).
pub const BLOCKED: u8 = b'#';

/// The largest side of a board: positions are keys, and a board of more cells than this
/// squared is no game anyone solves.
pub const MAX_SIDE: usize = 1024;

#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Board {
    rows: u16,
    cols: u16,
    /// Row-major.
    cells: Cells,
}

/// Why a board could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// No cell at all.
    Empty,
    /// Row `row` (from 0) has `found` cells where the first has `expected`.
    Ragged {
        row: usize,
        expected: usize,
        found: usize,
    },
    /// A character that cannot be a cell (a blank, a control character, `|`, non-ASCII).
    BadCell { row: usize, col: usize, found: char },
    /// More rows or columns than [`MAX_SIDE`], or fewer than one.
    BadSize { rows: i64, cols: i64 },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Empty => write!(f, "a board needs at least one cell"),
            BoardError::Ragged {
                row,
                expected,
                found,
            } => write!(
                f,
                "row {row} has {found} cells, but the first row has {expected}"
            ),
            BoardError::BadCell { row, col, found } => write!(
                f,
                "{found:?} at row {row}, column {col} cannot be a cell (cells are printable \
                 ASCII characters other than `|`)"
            ),
            BoardError::BadSize { rows, cols } => write!(
                f,
                "a board is 1 to {MAX_SIDE} cells on a side, not {rows} × {cols}"
            ),
        }
    }
}

/// The `(row, column)` of the original that image `t` (of `h` rows, `w` columns) shows at
/// `(y, x)`.
#[inline]
fn source(t: u8, h: usize, w: usize, y: usize, x: usize) -> (usize, usize) {
    let y = if t & 2 == 2 { h - 1 - y } else { y };
    let x = if t & 4 == 4 { w - 1 - x } else { x };
    if t & 1 == 1 { (x, y) } else { (y, x) }
}

/// The least image under the square's symmetries of the `rows × cols` board whose cells
/// `get` reads.
fn canonical_of(rows: usize, cols: usize, get: impl Fn(usize, usize) -> u8) -> Board {
    let n = rows * cols;
    if n > SMALL {
        let cells: Vec<u8> = (0..n).map(|i| get(i / cols, i % cols)).collect();
        return least_image(rows, cols, &cells, &mut vec![0; n], &mut vec![0; n]);
    }
    let mut cells = [0u8; SMALL];
    for r in 0..rows {
        for c in 0..cols {
            cells[r * cols + c] = get(r, c);
        }
    }
    least_image(
        rows,
        cols,
        &cells[..n],
        &mut [0u8; SMALL][..n],
        &mut [0u8; SMALL][..n],
    )
}

/// Boards of at most this many cells are made canonical on the stack.
const SMALL: usize = 128;

/// The least image of the `rows × cols` board `cells`, with two buffers of its size. Each
/// image reads the board along an affine walk (a start and a step per row and per column);
/// the first image is made whole, then each other one cell by cell against the least so
/// far, given up at the first cell that is greater (most are, early).
fn least_image(rows: usize, cols: usize, cells: &[u8], best: &mut [u8], next: &mut [u8]) -> Board {
    // Boards order by rows first: only the images with the fewer rows can be least.
    let turns: &[u8] = match rows.cmp(&cols) {
        std::cmp::Ordering::Less => &[0, 2, 4, 6],
        std::cmp::Ordering::Greater => &[1, 3, 5, 7],
        std::cmp::Ordering::Equal => &[0, 1, 2, 3, 4, 5, 6, 7],
    };
    let (h, w) = if rows > cols {
        (cols, rows)
    } else {
        (rows, cols)
    };
    // Image t at (y, x) shows cell `start + y * dy + x * dx`.
    let walk = |t: u8| -> (isize, isize, isize) {
        let (r0, ry, rx, c0, cy, cx) = {
            // Source row and column as affine maps of (y, x).
            let (mut y0, mut sy, mut x0, mut sx) = (0isize, 1isize, 0isize, 1isize);
            if t & 2 == 2 {
                y0 = h as isize - 1;
                sy = -1;
            }
            if t & 4 == 4 {
                x0 = w as isize - 1;
                sx = -1;
            }
            if t & 1 == 1 {
                (x0, 0, sx, y0, sy, 0)
            } else {
                (y0, sy, 0, x0, 0, sx)
            }
        };
        let c = cols as isize;
        (r0 * c + c0, ry * c + cy, rx * c + cx)
    };
    let (s, dy, dx) = walk(turns[0]);
    let mut k = 0;
    for y in 0..h as isize {
        for x in 0..w as isize {
            best[k] = cells[(s + y * dy + x * dx) as usize];
            k += 1;
        }
    }
    for &t in &turns[1..] {
        let (s, dy, dx) = walk(t);
        let mut k = 0;
        let mut less = false;
        'cells: for y in 0..h as isize {
            let row = s + y * dy;
            for x in 0..w as isize {
                let v = cells[(row + x * dx) as usize];
                if !less {
                    match v.cmp(&best[k]) {
                        std::cmp::Ordering::Greater => break 'cells,
                        std::cmp::Ordering::Less => less = true,
                        std::cmp::Ordering::Equal => {}
                    }
                }
                next[k] = v;
                k += 1;
            }
        }
        if less {
            best.copy_from_slice(next);
        }
    }
    Board {
        rows: h as u16,
        cols: w as u16,
        cells: Cells::from_slice(best),
    }
}

/// The `w` lowest bits set (`w` from 1 to 64).
fn low_bits(w: usize) -> u64 {
    u64::MAX >> (64 - w)
}

/// The least of the four images that keep these `rows` (each `w` bits, column `x` at bit
/// `x`) as rows: in either order, each read either way, as numbers whose first cell is the
/// most significant bit.
fn least_of_rows(rows: &[u64], w: usize) -> u64 {
    let h = rows.len();
    // Reading a row left to right puts column 0 first (most significant): its bits reversed.
    let rev = |x: u64| x.reverse_bits() >> (64 - w);
    let (mut down, mut down_mirrored, mut up, mut up_mirrored) = (0u64, 0u64, 0u64, 0u64);
    for i in 0..h {
        let shift = (h - 1 - i) * w;
        let (a, b) = (rows[i], rows[h - 1 - i]);
        down |= rev(a) << shift;
        down_mirrored |= a << shift;
        up |= rev(b) << shift;
        up_mirrored |= b << shift;
    }
    down.min(down_mirrored).min(up).min(up_mirrored)
}

/// Whether `c` may be a cell.
pub fn is_cell(c: u8) -> bool {
    c.is_ascii_graphic() && c != b'|'
}

impl Board {
    /// A `rows × cols` board of `fill` cells.
    pub fn filled(rows: i64, cols: i64, fill: u8) -> Result<Board, BoardError> {
        let side = 1..=MAX_SIDE as i64;
        if !side.contains(&rows) || !side.contains(&cols) {
            return Err(BoardError::BadSize { rows, cols });
        }
        Ok(Board {
            rows: rows as u16,
            cols: cols as u16,
            cells: smallvec::smallvec![fill; (rows * cols) as usize],
        })
    }

    /// A board drawn as text: rows separated by line breaks or `|` (CGSuite's `".#..|...."`),
    /// one character a cell; blank space around a row and a final line break are ignored.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let lines: Vec<&str> = text
            .trim_end_matches(['\n', '\r'])
            .split(['\n', '|'])
            .map(|l| l.trim_matches([' ', '\t', '\r']))
            .collect();
        let cols = lines.first().map_or(0, |l| l.chars().count());
        if cols == 0 {
            return Err(BoardError::Empty);
        }
        let mut cells = Cells::with_capacity(cols * lines.len());
        for (row, l) in lines.iter().enumerate() {
            let n = l.chars().count();
            if n != cols {
                return Err(BoardError::Ragged {
                    row,
                    expected: cols,
                    found: n,
                });
            }
            for (col, ch) in l.chars().enumerate() {
                if !ch.is_ascii() || !is_cell(ch as u8) {
                    return Err(BoardError::BadCell {
                        row,
                        col,
                        found: ch,
                    });
                }
                cells.push(ch as u8);
            }
        }
        if lines.len() > MAX_SIDE || cols > MAX_SIDE {
            return Err(BoardError::BadSize {
                rows: lines.len() as i64,
                cols: cols as i64,
            });
        }
        Ok(Board {
            rows: lines.len() as u16,
            cols: cols as u16,
            cells: cells.into_iter().collect(),
        })
    }

    /// The board of `rows × cols` whose cells, row by row, are `cells` (what
    /// [`Board::cells`] gives back): the form a file keeps, read with no text between.
    pub fn from_cells(rows: usize, cols: usize, cells: &[u8]) -> Result<Board, BoardError> {
        let side = 1..=MAX_SIDE;
        if !side.contains(&rows) || !side.contains(&cols) {
            return Err(BoardError::BadSize {
                rows: rows as i64,
                cols: cols as i64,
            });
        }
        if cells.len() != rows * cols {
            return Err(BoardError::Ragged {
                row: cells.len() / cols,
                expected: cols,
                found: cells.len() % cols,
            });
        }
        if let Some(i) = cells.iter().position(|&c| !is_cell(c)) {
            return Err(BoardError::BadCell {
                row: i / cols,
                col: i % cols,
                found: char::from(cells[i]),
            });
        }
        Ok(Board {
            rows: rows as u16,
            cols: cols as u16,
            cells: Cells::from_slice(cells),
        })
    }

    /// The board of `rows × cols` cells (at most 128) whose cells in `free` hold `kind` and
    /// whose others are blocked: what [`Board::free_of_one_kind`] reads, made back.
    pub fn of_free(rows: usize, cols: usize, kind: u8, free: u128) -> Board {
        debug_assert!(rows * cols <= SMALL && rows > 0 && cols > 0);
        debug_assert!(rows * cols == SMALL || free >> (rows * cols) == 0);
        let mut cells = Cells::from_elem(BLOCKED, rows * cols);
        let mut bits = free;
        while bits != 0 {
            cells[bits.trailing_zeros() as usize] = kind;
            bits &= bits - 1;
        }
        Board {
            rows: rows as u16,
            cols: cols as u16,
            cells,
        }
    }

    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The index of cell `(r, c)`, if it is on the board.
    pub fn index(&self, r: i64, c: i64) -> Option<usize> {
        ((0..self.rows as i64).contains(&r) && (0..self.cols as i64).contains(&c))
            .then(|| (r * self.cols as i64 + c) as usize)
    }

    pub fn get(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// The board with the cells at `at` (indices on the board) set to `v`.
    pub fn with(&self, at: &[usize], v: u8) -> Board {
        let mut cells = self.cells.clone();
        for &i in at {
            cells[i] = v;
        }
        Board {
            rows: self.rows,
            cols: self.cols,
            cells,
        }
    }

    /// The on-board orthogonal neighbours of cell `i`, in reading order.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let (c, cols, n) = (i % self.cols(), self.cols(), self.cells.len());
        [
            (i >= cols).then(|| i - cols),
            (c > 0).then(|| i - 1),
            (c + 1 < cols).then(|| i + 1),
            (i + cols < n).then(|| i + cols),
        ]
        .into_iter()
        .flatten()
    }

    /// The pairs of orthogonally adjacent cells that both hold `v`, each once (the second
    /// to the right of or below the first), in reading order of the first.
    pub fn adjacent_pairs(&self, v: u8) -> Vec<(usize, usize)> {
        let cols = self.cols();
        let mut out = Vec::new();
        for i in 0..self.cells.len() {
            if self.cells[i] != v {
                continue;
            }
            if i % cols + 1 < cols && self.cells[i + 1] == v {
                out.push((i, i + 1));
            }
            if i + cols < self.cells.len() && self.cells[i + cols] == v {
                out.push((i, i + cols));
            }
        }
        out
    }

    /// The cells at or below and right of cell `i` (row and column each at least `i`'s), in
    /// reading order: what a bite at `i` takes in Chomp.
    pub fn quadrant(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let (cols, n) = (self.cols(), self.cells.len());
        let (r, c) = (i / cols, i % cols);
        (r * cols..n).filter(move |&j| j % cols >= c)
    }

    /// How far the centre of the cells `at` (their mean) lies from the board's centre, as
    /// the pair `(d, k)` for the distance `d / (2k)` in rows plus columns (Manhattan), with
    /// `k` the number of cells. Compare two with [`Board::nearer_centre`].
    pub fn centre_distance(&self, at: &[usize]) -> (u64, u64) {
        let (rows, cols) = (self.rows() as i64, self.cols() as i64);
        let k = at.len() as i64;
        let (mut r, mut c) = (0i64, 0i64);
        for &i in at {
            r += 2 * (i as i64 / cols);
            c += 2 * (i as i64 % cols);
        }
        let d = (r - k * (rows - 1)).unsigned_abs() + (c - k * (cols - 1)).unsigned_abs();
        (d, k as u64)
    }

    /// The order of two [`Board::centre_distance`]s: nearer first.
    pub fn nearer_centre(a: (u64, u64), b: (u64, u64)) -> std::cmp::Ordering {
        (u128::from(a.0) * u128::from(b.1)).cmp(&(u128::from(b.0) * u128::from(a.1)))
    }

    /// The 4-neighbour components of the cells that are not [`BLOCKED`], in reading order of
    /// their first cells, each as a board cropped to its bounding box (cells of the box outside
    /// the component blocked). Blocked cells alone make no region.
    pub fn regions(&self) -> Vec<Board> {
        if self.cells.len() <= 128 {
            return self.regions_small();
        }
        self.regions_by_fill()
    }

    /// [`Board::regions`] of a board of any size, by flood fills over its cells.
    fn regions_by_fill(&self) -> Vec<Board> {
        let n = self.cells.len();
        let mut seen = vec![false; n];
        let mut out = Vec::new();
        let mut stack = Vec::new();
        let mut comp = Vec::new();
        for s in 0..n {
            if seen[s] || self.cells[s] == BLOCKED {
                continue;
            }
            seen[s] = true;
            stack.push(s);
            comp.clear();
            while let Some(i) = stack.pop() {
                comp.push(i);
                for j in self.neighbours(i) {
                    if !seen[j] && self.cells[j] != BLOCKED {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
            out.push(self.crop(&comp));
        }
        out
    }

    /// [`Board::regions`] of a board of at most 128 cells, by flood fills on bit masks.
    fn regions_small(&self) -> Vec<Board> {
        self.region_masks()
            .into_iter()
            .map(|m| self.crop_mask(m))
            .collect()
    }

    /// The regions of a board of at most 128 cells as masks of its cells, in reading order.
    fn region_masks(&self) -> Vec<u128> {
        let mut free = 0u128;
        for (i, &c) in self.cells.iter().enumerate() {
            if c != BLOCKED {
                free |= 1 << i;
            }
        }
        self.region_masks_of(free)
    }

    /// [`Board::region_masks`] of the cells `free` (a mask of this board's).
    fn region_masks_of(&self, mut free: u128) -> Vec<u128> {
        let (n, cols) = (self.cells.len(), self.cols());
        let all = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        let mut first_col = 0u128;
        for r in 0..self.rows() {
            first_col |= 1 << (r * cols);
        }
        let last_col = first_col << (cols - 1);
        free &= all;
        let mut out = Vec::new();
        while free != 0 {
            let mut comp = free & free.wrapping_neg();
            loop {
                let grown = (comp
                    | (comp & !last_col) << 1
                    | (comp & !first_col) >> 1
                    | comp.checked_shl(cols as u32).unwrap_or(0)
                    | comp.checked_shr(cols as u32).unwrap_or(0))
                    & free
                    & all;
                if grown == comp {
                    break;
                }
                comp = grown;
            }
            free &= !comp;
            out.push(comp);
        }
        out
    }

    /// [`Board::region_masks`] of a board of at most 64 cells, on one machine word.
    fn region_masks_64(&self, free: u64) -> SmallVec<[u128; 4]> {
        let (n, cols) = (self.cells.len(), self.cols());
        let all = u64::MAX >> (64 - n);
        let mut first_col = 0u64;
        for r in 0..self.rows() {
            first_col |= 1 << (r * cols);
        }
        let (not_last, not_first) = (!(first_col << (cols - 1)), !first_col);
        let mut free = free & all;
        let mut out = SmallVec::new();
        while free != 0 {
            let mut comp = free & free.wrapping_neg();
            loop {
                let grown = (comp
                    | (comp & not_last) << 1
                    | (comp & not_first) >> 1
                    | comp.checked_shl(cols as u32).unwrap_or(0)
                    | comp.checked_shr(cols as u32).unwrap_or(0))
                    & free;
                if grown == comp {
                    break;
                }
                comp = grown;
            }
            free &= !comp;
            out.push(u128::from(comp));
        }
        out
    }

    /// The bounding box of the cells of `mask`: first row, first column, rows, columns (read
    /// row by row: no division per cell).
    fn bounds(&self, mask: u128) -> (usize, usize, usize, usize) {
        let cols = self.cols();
        let row_bits = u128::MAX >> (128 - cols);
        let (mut r0, mut r1, mut in_cols) = (usize::MAX, 0, 0u128);
        for r in 0..self.rows() {
            let bits = mask >> (r * cols) & row_bits;
            if bits != 0 {
                r0 = r0.min(r);
                r1 = r;
                in_cols |= bits;
            }
        }
        let c0 = in_cols.trailing_zeros() as usize;
        let c1 = 127 - in_cols.leading_zeros() as usize;
        (r0, c0, r1 - r0 + 1, c1 - c0 + 1)
    }

    /// The bounding box of the cells of `mask`, with only those cells kept.
    fn crop_mask(&self, mask: u128) -> Board {
        let cols = self.cols();
        let (r0, c0, h, w) = self.bounds(mask);
        let mut cells = Cells::with_capacity(h * w);
        for r in r0..r0 + h {
            for c in c0..c0 + w {
                let i = r * cols + c;
                cells.push(if mask >> i & 1 == 1 {
                    self.cells[i]
                } else {
                    BLOCKED
                });
            }
        }
        Board {
            rows: h as u16,
            cols: w as u16,
            cells,
        }
    }

    /// The bounding box of `comp` (cell indices), with only those cells kept.
    fn crop(&self, comp: &[usize]) -> Board {
        let cols = self.cols();
        let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
        for &i in comp {
            let (r, c) = (i / cols, i % cols);
            r0 = r0.min(r);
            r1 = r1.max(r);
            c0 = c0.min(c);
            c1 = c1.max(c);
        }
        let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
        let mut cells = vec![BLOCKED; h * w];
        for &i in comp {
            let (r, c) = (i / cols, i % cols);
            cells[(r - r0) * w + (c - c0)] = self.cells[i];
        }
        Board {
            rows: h as u16,
            cols: w as u16,
            cells: cells.into_iter().collect(),
        }
    }

    /// The image under symmetry `t` of the square's eight (bit 0: transpose, bit 1: mirror
    /// rows top to bottom, bit 2: mirror columns), applied in that order.
    pub fn image(&self, t: u8) -> Board {
        let mut cells = Vec::with_capacity(self.cells.len());
        let (h, w) = self.image_into(t, &mut cells);
        Board {
            rows: h as u16,
            cols: w as u16,
            cells: cells.into_iter().collect(),
        }
    }

    /// The cells of [`Board::image`] `t` into `cells` (cleared first); its rows and columns.
    fn image_into(&self, t: u8, cells: &mut Vec<u8>) -> (usize, usize) {
        let (r, c) = (self.rows(), self.cols());
        let (h, w) = if t & 1 == 1 { (c, r) } else { (r, c) };
        cells.clear();
        for y in 0..h {
            for x in 0..w {
                cells.push(self.cells[self.source(t, h, w, y, x)]);
            }
        }
        (h, w)
    }

    /// The least of the board's images under the symmetries of the square: boards equal up to
    /// rotation and reflection have one canonical board.
    pub fn canonical(&self) -> Board {
        let cols = self.cols();
        canonical_of(self.rows(), cols, |r, c| self.cells[r * cols + c])
    }

    /// [`Board::canonical`] of each of [`Board::regions`], each made once, straight from
    /// this board (what `split by regions(b) canonical by canonical(b)` gives).
    pub fn canonical_regions(&self) -> Vec<Board> {
        let n = self.cells.len();
        if n > SMALL {
            return self.regions().iter().map(Board::canonical).collect();
        }
        if let Some((c, masks)) = self.one_kind_regions() {
            return masks
                .into_iter()
                .map(|m| self.canonical_region(m, c))
                .collect();
        }
        // One pass labels every cell with its region (a flood fill on an explicit stack of
        // (row, column) pairs, so no division), keeping each region's bounding box.
        let (rows, cols) = (self.rows(), self.cols());
        let mut label = [u8::MAX; SMALL];
        let mut stack = [(0u8, 0u8); SMALL];
        let mut boxes: Vec<(usize, usize, usize, usize)> = Vec::new();
        for s in 0..n {
            if label[s] != u8::MAX || self.cells[s] == BLOCKED {
                continue;
            }
            let k = boxes.len() as u8;
            label[s] = k;
            stack[0] = ((s / cols) as u8, (s % cols) as u8);
            let mut top = 1;
            let (mut r0, mut r1, mut c0, mut c1) = (rows, 0, cols, 0);
            while top > 0 {
                top -= 1;
                let (r, c) = (stack[top].0 as usize, stack[top].1 as usize);
                r0 = r0.min(r);
                r1 = r1.max(r);
                c0 = c0.min(c);
                c1 = c1.max(c);
                let i = r * cols + c;
                let mut visit = |j: usize, rr: usize, cc: usize| {
                    if label[j] == u8::MAX && self.cells[j] != BLOCKED {
                        label[j] = k;
                        stack[top] = (rr as u8, cc as u8);
                        top += 1;
                    }
                };
                if r > 0 {
                    visit(i - cols, r - 1, c);
                }
                if c > 0 {
                    visit(i - 1, r, c - 1);
                }
                if c + 1 < cols {
                    visit(i + 1, r, c + 1);
                }
                if r + 1 < rows {
                    visit(i + cols, r + 1, c);
                }
            }
            boxes.push((r0, c0, r1 - r0 + 1, c1 - c0 + 1));
        }
        boxes
            .iter()
            .enumerate()
            .map(|(k, &(r0, c0, h, w))| {
                canonical_of(h, w, |r, c| {
                    let i = (r0 + r) * cols + c0 + c;
                    if label[i] == k as u8 {
                        self.cells[i]
                    } else {
                        BLOCKED
                    }
                })
            })
            .collect()
    }

    /// The regions of a board of at most 128 cells whose unblocked cells all hold one value
    /// (as in Cram), as that value and each region's mask of cells (bit `r * cols + c`), in
    /// reading order; `None` for any other board. A region is then known by its mask alone
    /// (with the board's shape), so a search can look its canonical part up by it.
    pub fn one_kind_regions(&self) -> Option<(u8, SmallVec<[u128; 4]>)> {
        let (c, free) = self.free_of_one_kind()?;
        Some((c, self.regions_of_free(free)))
    }

    /// The regions of the cells `free` (a mask of this board's cells, at most 128 of them),
    /// as masks in reading order: [`Board::one_kind_regions`] of the board whose free cells
    /// are `free`, without making it.
    pub fn regions_of_free(&self, free: u128) -> SmallVec<[u128; 4]> {
        if self.cells.len() <= 64 {
            self.region_masks_64(free as u64)
        } else {
            self.region_masks_of(free).into_iter().collect()
        }
    }

    /// The region `mask` moved to the corner of its bounding box: its rows, its columns, and
    /// its cells as bits (row `r`, column `x` at bit `r * columns + x`). Regions that are
    /// moves of each other have one box, wherever they lie and whatever the board.
    pub fn region_box(&self, mask: u128) -> (u8, u8, u128) {
        let (r0, c0, h, w) = self.bounds(mask);
        let cols = self.cols();
        let row = u128::MAX >> (128 - w);
        let mut bits = 0u128;
        for r in 0..h {
            bits |= (mask >> ((r0 + r) * cols + c0) & row) << (r * w);
        }
        (h as u8, w as u8, bits)
    }

    /// [`Board::one_free_kind`] and the mask of the unblocked cells of a board of at most 128
    /// cells (`None` for a larger one), eight cells a step: a byte is free when it is not `#`,
    /// and every free byte must equal the first. (Called for every option of a Cram position:
    /// a byte a step cost more than finding the regions.)
    pub fn free_of_one_kind(&self) -> Option<(u8, u128)> {
        if self.cells.len() > SMALL {
            return None;
        }
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        // The high bit of each byte of `y` that is not zero (no carry crosses a byte).
        let nonzero = |y: u64| ((y & !HIGH).wrapping_add(!HIGH) | y) & HIGH;
        let (mut free, mut kind) = (0u128, None::<u8>);
        for (k, chunk) in self.cells.chunks(8).enumerate() {
            let mut bytes = [BLOCKED; 8];
            bytes[..chunk.len()].copy_from_slice(chunk);
            let x = u64::from_le_bytes(bytes);
            let is_free = nonzero(x ^ (u64::from(BLOCKED) * ONES));
            if is_free == 0 {
                continue;
            }
            let c = *kind.get_or_insert(bytes[is_free.trailing_zeros() as usize / 8]);
            let is_c = !nonzero(x ^ (u64::from(c) * ONES)) & HIGH;
            if is_c | (!is_free & HIGH) != HIGH {
                return None;
            }
            // Byte j's high bit to bit j (each lands on its own bit: no carries).
            let bits = ((is_free >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u128;
            free |= bits << (8 * k);
        }
        kind.map(|c| (c, free))
    }

    /// The one cell value every unblocked cell holds, if they all hold the same (as in Cram,
    /// where they are all `.`): then a region is a bit mask and its images are bit operations.
    /// A byte at a time: the test's reading of what [`Board::free_of_one_kind`] finds.
    #[cfg(test)]
    fn one_free_kind(&self) -> Option<u8> {
        let mut kind = None;
        for &c in self.cells.iter() {
            if c != BLOCKED && *kind.get_or_insert(c) != c {
                return None;
            }
        }
        kind
    }

    /// [`Board::canonical`] of the region `mask` (a region of [`Board::region_masks`]) whose
    /// cells all hold `c`, by bit operations when its bounding box has at most 64 cells.
    ///
    /// An image is read as a number, its first cell the most significant bit and a cell 1
    /// when it holds the greater of `c` and [`BLOCKED`]: images of one shape then order as
    /// boards do, so the least board is the least number. The images that keep the rows are
    /// the rows in either order, each read either way; the others are those of the transpose.
    pub fn canonical_region(&self, mask: u128, c: u8) -> Board {
        match self.canonical_box(mask, c) {
            Some((h, w, free)) => Board::of_free(h.into(), w.into(), c, free),
            None => self.crop_mask(mask).canonical(),
        }
    }

    /// The region `mask` (its cells all `c`) as [`Board::canonical_region`] makes it, in the
    /// form of [`Board::region_box`] (rows, columns, free cells as bits), with no board made;
    /// `None` when its bounding box has more than 64 cells.
    pub fn canonical_box(&self, mask: u128, c: u8) -> Option<(u8, u8, u128)> {
        let (r0, c0, h, w) = self.bounds(mask);
        if h * w > 64 {
            return None;
        }
        let cols = self.cols();
        // Row `r` of the box, column `x` at bit `x`; 1 for the greater cell value.
        let flip = c < BLOCKED;
        let mut rows = [0u64; 64];
        for (r, row) in rows.iter_mut().enumerate().take(h) {
            let bits = (mask >> ((r0 + r) * cols + c0)) as u64 & low_bits(w);
            *row = if flip { !bits & low_bits(w) } else { bits };
        }
        let mut best = u64::MAX;
        let (mut bh, mut bw) = (h, w);
        if h <= w {
            best = least_of_rows(&rows[..h], w);
        }
        if h >= w {
            // The transpose: its row `x` is column `x` of the box.
            let mut cols_ = [0u64; 64];
            for (x, col) in cols_.iter_mut().enumerate().take(w) {
                for (y, row) in rows.iter().enumerate().take(h) {
                    *col |= (row >> x & 1) << y;
                }
            }
            let t = least_of_rows(&cols_[..w], h);
            if h > w || t < best {
                (best, bh, bw) = (t, w, h);
            }
        }
        // `best` reads the image's first cell as its most significant bit: reversed, cell
        // `i` is bit `i`; then 1 for a free cell.
        let n = bh * bw;
        let bits = best.reverse_bits() >> (64 - n);
        let free = if flip { !bits & low_bits(n) } else { bits };
        Some((bh as u8, bw as u8, free.into()))
    }

    /// The cell of this board that image `t` (of `h` rows, `w` columns) shows at `(y, x)`.
    #[inline]
    fn source(&self, t: u8, h: usize, w: usize, y: usize, x: usize) -> usize {
        let (r, c) = source(t, h, w, y, x);
        r * self.cols() + c
    }

    /// Turned a quarter clockwise.
    pub fn rotate(&self) -> Board {
        // Transpose, then mirror columns.
        self.image(1 | 4)
    }

    /// Mirrored left to right.
    pub fn reflect(&self) -> Board {
        self.image(4)
    }

    pub fn transpose(&self) -> Board {
        self.image(1)
    }

    /// The cells `mask` of a `rows × cols` board (at most 128 cells) moved to where
    /// [`Board::transpose`] takes them, on the `cols × rows` board.
    pub fn transpose_mask(rows: usize, cols: usize, mask: u128) -> u128 {
        let mut out = 0u128;
        let mut bits = mask;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out |= 1 << ((i % cols) * rows + i / cols);
        }
        out
    }

    /// The rows as text, `|` between them: `board("..#|...")` reads it back.
    pub fn compact(&self) -> String {
        self.lines().collect::<Vec<_>>().join("|")
    }

    /// The rows as text, one a line: the board's picture.
    pub fn picture(&self) -> String {
        self.lines().collect::<Vec<_>>().join("\n")
    }

    fn lines(&self) -> impl Iterator<Item = &str> {
        self.cells
            .chunks(self.cols())
            .map(|row| std::str::from_utf8(row).expect("cells are ASCII"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(s: &str) -> Board {
        Board::parse(s).unwrap()
    }

    #[test]
    fn reads_and_prints_both_ways() {
        let x = b("..#\n...\n");
        assert_eq!((x.rows(), x.cols()), (2, 3));
        assert_eq!(x.compact(), "..#|...");
        assert_eq!(b("..#|..."), x);
        assert_eq!(x.picture(), "..#\n...");
        assert_eq!(
            Board::parse("..\n..."),
            Err(BoardError::Ragged {
                row: 1,
                expected: 2,
                found: 3
            })
        );
        assert_eq!(Board::parse(""), Err(BoardError::Empty));
        assert!(matches!(
            Board::parse(".é"),
            Err(BoardError::BadCell { col: 1, .. })
        ));
        // The cells a file keeps give the same board back, and only a whole board.
        assert_eq!(Board::from_cells(2, 3, b"..#..."), Ok(x));
        assert!(matches!(
            Board::from_cells(2, 3, b"..#.."),
            Err(BoardError::Ragged { .. })
        ));
        assert!(matches!(
            Board::from_cells(1, 2, b". "),
            Err(BoardError::BadCell { col: 1, .. })
        ));
        assert!(matches!(
            Board::from_cells(0, 2, b""),
            Err(BoardError::BadSize { .. })
        ));
    }

    /// Two regions have one box exactly when they crop to one board, wherever they lie and
    /// whatever the board's shape: the box can stand for the region's part.
    #[test]
    fn a_region_box_is_its_cropped_board() {
        let mut seed = 7u64;
        let mut seen: Vec<((u8, u8, u128), Board)> = Vec::new();
        for (rows, cols) in [(3, 5), (4, 4), (5, 3), (2, 9), (6, 7), (8, 16)] {
            for _ in 0..40 {
                let text: Vec<String> = (0..rows)
                    .map(|_| {
                        (0..cols)
                            .map(|_| {
                                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                                if seed >> 61 < 3 { '#' } else { '.' }
                            })
                            .collect()
                    })
                    .collect();
                let x = b(&text.join("|"));
                let Some((kind, masks)) = x.one_kind_regions() else {
                    continue;
                };
                assert_eq!(kind, b'.');
                for m in masks {
                    let (bx, crop) = (x.region_box(m), x.crop_mask(m));
                    assert_eq!(bx.2.count_ones(), m.count_ones());
                    for (other, theirs) in &seen {
                        assert_eq!(*other == bx, *theirs == crop, "{crop:?} and {theirs:?}");
                    }
                    seen.push((bx, crop));
                }
            }
        }
    }

    /// The eight-at-a-time pass agrees with a cell-by-cell reading, on boards of one kind of
    /// free cell (above `#` and below it), two kinds, and none, of every length to 128.
    #[test]
    fn free_cells_of_one_kind_eight_at_a_time() {
        let mut seed = 11u64;
        for n in 1..=128usize {
            for kinds in [&b"."[..], b"!", b".o", b""] {
                let cells: String = (0..n)
                    .map(|_| {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                        let r = (seed >> 58) as usize;
                        if kinds.is_empty() || r < 20 {
                            '#'
                        } else {
                            kinds[r % kinds.len()] as char
                        }
                    })
                    .collect();
                let x = b(&cells);
                let free: u128 = (0..n)
                    .filter(|&i| x.get(i) != BLOCKED)
                    .map(|i| 1 << i)
                    .sum();
                let want = x.one_free_kind().map(|c| (c, free));
                assert_eq!(x.free_of_one_kind(), want, "{cells}");
            }
        }
    }

    #[test]
    fn regions_are_cropped_components() {
        let x = b("..#.\n#.#.\n##..");
        let r = x.regions();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0], b("..|#."));
        assert_eq!(r[1], b("#.|#.|.."));
        assert!(b("##|##").regions().is_empty());
    }

    /// The eight images are the eight distinct maps of the square (checked on a board whose
    /// cells are all different, against rotations and reflections written out here).
    #[test]
    fn images_are_the_dihedral_group() {
        let x = b("ab|cd|ef");
        let mut all: Vec<Board> = (0..8).map(|t| x.image(t)).collect();
        assert_eq!(x.rotate(), b("eca|fdb"));
        assert_eq!(x.reflect(), b("ba|dc|fe"));
        assert_eq!(x.transpose(), b("ace|bdf"));
        assert_eq!(x.rotate().rotate(), b("fe|dc|ba"));
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 8);
        // Every image has the same canonical board.
        for t in 0..8 {
            assert_eq!(x.image(t).canonical(), x.canonical());
        }
    }

    /// Random boards of `.`, `#` and `x`, from a fixed seed.
    fn random_boards() -> Vec<Board> {
        let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut out = Vec::new();
        for i in 0..600 {
            // Boards of one free kind above `#`, one below it, and of two kinds.
            let kinds = [
                [b'.', b'.', b'#', b'#'],
                [b'!', b'!', b'#', b'#'],
                [b'.', b'.', b'#', b'x'],
            ][i % 3];
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (r, c) = (1 + (s >> 33) as usize % 9, 1 + (s >> 45) as usize % 9);
            let cells: Vec<u8> = (0..r * c)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    kinds[(s >> 60) as usize % 4]
                })
                .collect();
            out.push(Board {
                rows: r as u16,
                cols: c as u16,
                cells: cells.into_iter().collect(),
            });
        }
        out
    }

    /// The bit-mask regions and the in-place canonical board against the plain versions: the
    /// flood fill over cells, and the least of the eight images made whole and sorted.
    #[test]
    fn fast_paths_agree_with_plain_ones() {
        for b in random_boards() {
            assert_eq!(b.regions_small(), b.regions_by_fill(), "{}", b.compact());
            let mut all: Vec<Board> = (0..8).map(|t| b.image(t)).collect();
            all.sort();
            assert_eq!(b.canonical(), all[0], "{}", b.compact());
            let each: Vec<Board> = b.regions().iter().map(Board::canonical).collect();
            assert_eq!(b.canonical_regions(), each, "{}", b.compact());
        }
    }

    /// One-row boards as long as a mask: no shift by a whole row runs off the word.
    #[test]
    fn long_rows_split() {
        for n in [63, 64, 65, 127, 128] {
            let row: String = (0..n)
                .map(|i| if i % 10 == 9 { '#' } else { '.' })
                .collect();
            let x = b(&row);
            assert_eq!(x.regions_small(), x.regions_by_fill(), "{n}");
            let each: Vec<Board> = x.regions().iter().map(Board::canonical).collect();
            assert_eq!(x.canonical_regions(), each, "{n}");
        }
    }

    #[test]
    fn pairs_are_dominoes() {
        let x = b("..#|...");
        let p = x.adjacent_pairs(b'.');
        assert_eq!(p, vec![(0, 1), (0, 3), (1, 4), (3, 4), (4, 5)]);
    }

    /// A mask's transpose is where the board's transpose puts its cells, and a quadrant is
    /// the cells at or below and right, on boards of every shape up to 128 cells.
    #[test]
    fn masks_transpose_and_quadrants_as_boards_do() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for (rows, cols) in [(1, 1), (1, 7), (3, 5), (6, 6), (8, 16), (16, 8), (11, 11)] {
            let n = rows * cols;
            for _ in 0..20 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let all = if n == 128 {
                    u128::MAX
                } else {
                    (1u128 << n) - 1
                };
                let mask = (u128::from(x) << 64 | u128::from(x.rotate_left(17))) & all;
                let b = Board::of_free(rows, cols, b'.', mask);
                let t = b.transpose();
                let want = (0..n)
                    .filter(|&i| t.get(i) == b'.')
                    .fold(0, |m, i| m | 1 << i);
                assert_eq!(Board::transpose_mask(rows, cols, mask), want);
                let i = (x % n as u64) as usize;
                let (r, c) = (i / cols, i % cols);
                let quad: Vec<usize> = b.quadrant(i).collect();
                let want: Vec<usize> = (0..n).filter(|&j| j / cols >= r && j % cols >= c).collect();
                assert_eq!(quad, want);
            }
        }
    }

    /// Distances from the centre order as the mean's distance in floating point does.
    #[test]
    fn centre_distances_order_as_the_means_do() {
        let mut seed = 0x5EED_u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..300 {
            let (rows, cols) = (1 + next(9) as usize, 1 + next(9) as usize);
            let x = Board::filled(rows as i64, cols as i64, b'.').expect("a board");
            let mut item = || -> Vec<usize> {
                (0..1 + next(3))
                    .map(|_| next((rows * cols) as u64) as usize)
                    .collect()
            };
            let (a, b) = (item(), item());
            let far = |at: &[usize]| {
                let k = at.len() as f64;
                let r = at.iter().map(|&i| (i / cols) as f64).sum::<f64>() / k;
                let c = at.iter().map(|&i| (i % cols) as f64).sum::<f64>() / k;
                (r - (rows - 1) as f64 / 2.0).abs() + (c - (cols - 1) as f64 / 2.0).abs()
            };
            let (fa, fb) = (far(&a), far(&b));
            let want = if (fa - fb).abs() < 1e-9 {
                std::cmp::Ordering::Equal
            } else {
                fa.partial_cmp(&fb).expect("finite")
            };
            let got = Board::nearer_centre(x.centre_distance(&a), x.centre_distance(&b));
            assert_eq!(got, want, "{rows} x {cols}: {a:?} against {b:?}");
        }
    }
}
