//! Checking a candidate against every position at once, through the transition algebra.
//!
//! A candidate (Q, P, Φ) predicts that a sum G of heaps is a P-position iff Φ(G) ∈ P. The
//! prediction is right for every G iff, for every G, `Φ(G) ∈ P ⇔ G has a move and no move to
//! a P element`. This is finite [PS08, digest §5.4]:
//!
//! - **P-side.** G = X + H_h with Φ(G) ∈ P must have no move in H_h to P: for all x ∈ Q,
//!   `x·Φ(H_h) ∈ P ⇒ x·s ∉ P` for every option value s of H_h. With the translates
//!   `P_e = {y : e·y ∈ P}` the failing x are the bit row `P_{Φ(H_h)} ∩ ⋃_s P_s`.
//! - **N-side.** Every G ∉ P with a move needs a move to P. Instead of the option set S(G) a
//!   position carries `A(G) = {y : some option of G + Y is P when Φ(Y) = y} = ⋃_{s∈S(G)} P_s`:
//!   all its futures depend only on (Φ(G), A(G)), since
//!   `A(G + H_h) = Φ(H_h)⁻¹A(G) ∪ ⋃_{s∈S_h} P_{Φ(G)·s}`, and G fails iff Φ(G) ∉ P and
//!   1 ∉ A(G). A larger A can only help, so only pairs minimal for inclusion are kept
//!   (an antichain per element); finitely many pairs exist, so the search ends.
//!
//! Positions are visited in lex order (largest heap most significant): all words on heaps
//! < h first, then, for heap h, the words with one more copy of H_h, round by round. The first
//! failure found is therefore the lexicographically least one, and a pair is only ever pruned
//! by a lex-smaller pair with a smaller set.

use super::Stop;
use super::bitset::{self, Rows};
use super::candidate::{Cand, NONE};
use super::game::HeapOptions;

/// A sum of heaps, largest heap first. `Vec`'s order is then the lex order on positions.
pub type Word = Vec<u32>;

/// The translates `P_e = {y : e·y ∈ P}` for every element, computed along lex-least words:
/// `P_{e·Φ(H)} = {y : Φ(H)·y ∈ P_e}`.
pub fn translates(cand: &Cand, cancel: &dyn Fn() -> bool) -> Result<Rows, Stop> {
    let m = cand.size();
    let mut rows = Rows::zeroed(m, m);
    for (y, &p) in cand.p.iter().enumerate() {
        if p {
            bitset::set(rows.row_mut(0), y);
        }
    }
    let w = rows.width;
    let mut bytes = Vec::new();
    for e in 1..m {
        if e % 1024 == 0 && cancel() {
            return Err(Stop::Interrupted);
        }
        let parent = cand.words.parent[e] as usize;
        let h = cand.words.via[e] as usize;
        let g = cand.acts.gen_of[h] as usize;
        let table = cand.acts.table(g);
        let (before, after) = rows.data.split_at_mut(e * w);
        let src = &before[parent * w..(parent + 1) * w];
        gather(src, table, &mut after[..w], &mut bytes);
    }
    Ok(rows)
}

/// `dst = {y : table[y] ∈ src}`, through `bytes`, a scratch of one byte per element: read as
/// bytes, each membership test is one load (a bit would need a shift by a variable amount),
/// and eight tests pack into a byte with one multiplication. This gather was most of a wild
/// game's N-side search.
fn gather(src: &[u64], table: &[u32], dst: &mut [u64], bytes: &mut Vec<u8>) {
    spread(src, bytes);
    let bytes = &bytes[..];
    for (word, t) in dst.iter_mut().zip(table.chunks(64)) {
        let mut bits = 0u64;
        let mut eights = t.chunks_exact(8);
        for (j, c) in (&mut eights).enumerate() {
            let x = u64::from_le_bytes([
                bytes[c[0] as usize],
                bytes[c[1] as usize],
                bytes[c[2] as usize],
                bytes[c[3] as usize],
                bytes[c[4] as usize],
                bytes[c[5] as usize],
                bytes[c[6] as usize],
                bytes[c[7] as usize],
            ]);
            bits |= pack(x) << (8 * j);
        }
        let done = 8 * (t.len() / 8);
        for (k, &y) in eights.remainder().iter().enumerate() {
            bits |= u64::from(bytes[y as usize]) << (done + k);
        }
        *word = bits;
    }
}

/// Byte `k` of a word whose bytes are each 0 or 1, as bit `k` of the result.
#[inline]
fn pack(x: u64) -> u64 {
    x.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The bits of `src` as one byte (0 or 1) per bit, in `bytes`.
fn spread(src: &[u64], bytes: &mut Vec<u8>) {
    bytes.clear();
    bytes.reserve(src.len() * 64);
    for &w in src {
        for k in 0..8 {
            bytes.extend_from_slice(&SPREAD[(w >> (8 * k)) as u8 as usize].to_le_bytes());
        }
    }
}

/// Byte `i`'s bit `k` as byte `k` (0 or 1) of `SPREAD[i]`.
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let mut k = 0;
        while k < 8 {
            if i >> k & 1 == 1 {
                t[i] |= 1 << (8 * k);
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// Or'ing rows costs their words, four to an operation; a gather costs about one operation
/// per element: the rows are cheaper while they hold at most four words per element.
const WORDS_PER_ELEMENT: usize = 4;

/// One heap as the checks see it: its value, its action table, the option words (one per
/// distinct value) and `σ = ⋃_s P_s` over its option values.
pub struct HeapPair<'a> {
    pub heap: u32,
    pub value: u32,
    pub table: Option<&'a [u32]>,
    pub options: Vec<&'a [u32]>,
    pub sigma: Vec<u64>,
}

impl<'a> HeapPair<'a> {
    /// The pair of heap `h` in `cand`; `value`/`table` override the candidate's (for a heap
    /// not yet assigned).
    pub fn new(
        cand: &'a Cand,
        translates: &Rows,
        opts: &'a HeapOptions,
        h: usize,
        assigned: Option<(u32, Option<&'a [u32]>)>,
    ) -> HeapPair<'a> {
        let (value, table) = match assigned {
            Some(v) => v,
            None => {
                let g = cand.acts.gen_of[h];
                if g == NONE {
                    (0, None)
                } else {
                    (
                        cand.acts.table(g as usize)[0],
                        Some(cand.acts.table(g as usize)),
                    )
                }
            }
        };
        let mut sigma = vec![0u64; translates.width];
        let mut options: Vec<&[u32]> = Vec::new();
        let mut seen: Vec<u32> = Vec::new();
        for o in &opts.of[h] {
            let s = cand.acts.apply(o, 0);
            if !seen.contains(&s) {
                seen.push(s);
                options.push(o);
                bitset::union(&mut sigma, translates.row(s as usize));
            }
        }
        HeapPair {
            heap: h as u32,
            value,
            table,
            options,
            sigma,
        }
    }

    #[inline]
    fn act(&self, x: u32) -> u32 {
        match self.table {
            Some(t) => t[x as usize],
            None => x,
        }
    }
}

/// P-side failures, as words: for every heap the least x failing with it. The least of them
/// is the lexicographically least P-side failure.
pub fn p_failures(cand: &Cand, translates: &Rows, pairs: &[HeapPair]) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut row = vec![0u64; translates.width];
    for pair in pairs {
        if pair.options.is_empty() {
            continue;
        }
        row.copy_from_slice(translates.row(pair.value as usize));
        for (r, s) in row.iter_mut().zip(&pair.sigma) {
            *r &= s;
        }
        if let Some(x) = bitset::first(&row) {
            let mut word = cand.words.heaps(x as u32);
            word.push(pair.heap);
            word.sort_unstable_by(|a, b| b.cmp(a));
            out.push(word);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The N-side search state: the antichain of minimal (element, A) pairs met so far, in lex
/// order of their words. Kept between heaps so that a conservative extension only searches
/// the positions with the new heap.
#[derive(Clone, Debug)]
pub struct Antichain {
    width: usize,
    elem: Vec<u32>,
    sets: Rows,
    /// The entry this one extends and the heap added (for the failing word).
    from: Vec<u32>,
    heap: Vec<u32>,
    /// Entries per element, root excluded (the root is terminal and prunes nothing).
    by_elem: Vec<Vec<u32>>,
    /// Each entry's set as a union of translates: `A = ⋃_{s ∈ S} P_s`, the elements `S` of
    /// entry `e` at `gens[gen_at[e]..gen_at[e + 1]]`. Since `{y : y·h ∈ P_s} = P_{s·h}`, the
    /// set of a position with one more heap `h` is the union over `S·h` and the new options:
    /// a few rows or'ed instead of a gather over every element.
    gens: Vec<u32>,
    gen_at: Vec<u32>,
    /// Scratch: a stamp per element, and the last stamp used.
    seen: Vec<u32>,
    mark: u32,
}

/// How far an N-side search may go: a memory ceiling, the failures wanted, Ctrl-C.
#[derive(Clone, Copy)]
pub struct Search<'a> {
    pub max_bytes: usize,
    pub want: usize,
    pub cancel: &'a dyn Fn() -> bool,
}

/// Where an N-side failure was found: entry `from` plus one heap.
#[derive(Clone, Copy, Debug)]
pub struct NFailure {
    pub from: u32,
    pub heap: u32,
}

impl Antichain {
    /// Only the empty position.
    pub fn new(m: usize) -> Antichain {
        let mut sets = Rows::new(m);
        sets.push(&vec![0u64; sets.width]);
        Antichain {
            width: sets.width,
            elem: vec![0],
            sets,
            from: vec![NONE],
            heap: vec![NONE],
            by_elem: vec![Vec::new(); m],
            gens: Vec::new(),
            gen_at: vec![0, 0],
            seen: Vec::new(),
            mark: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.elem.len()
    }

    pub fn bytes(&self) -> usize {
        self.sets.bytes()
            + self.elem.capacity() * 16
            + (self.gens.capacity() + self.seen.capacity()) * 4
    }

    fn subsumed(&self, x: u32, set: &[u64]) -> bool {
        self.by_elem[x as usize]
            .iter()
            .any(|&e| bitset::subset(self.sets.row(e as usize), set))
    }

    /// The word of entry `e`, largest heap first.
    pub fn word(&self, mut e: u32) -> Word {
        let mut out = Vec::new();
        while self.from[e as usize] != NONE {
            out.push(self.heap[e as usize]);
            e = self.from[e as usize];
        }
        out.sort_unstable_by(|a, b| b.cmp(a));
        out
    }

    pub fn failure_word(&self, f: NFailure) -> Word {
        let mut w = self.word(f.from);
        w.push(f.heap);
        w.sort_unstable_by(|a, b| b.cmp(a));
        w
    }

    /// Drops the entries from `len` on (a rejected trial extension).
    pub fn truncate(&mut self, len: usize) {
        while self.elem.len() > len {
            let x = self.elem.pop().expect("nonempty");
            self.by_elem[x as usize].pop();
            self.from.pop();
            self.heap.pop();
            self.gen_at.pop();
        }
        self.gens.truncate(self.gen_at[len] as usize);
        self.sets.truncate(len);
    }

    /// Adds the positions with copies of heap `pair` (which must be larger than every heap
    /// added before). N-failures are collected in lex order into `found`, stopping once it
    /// holds `want` of them (a failing position is kept as an entry, so the search can go on
    /// past it).
    pub fn extend(
        &mut self,
        cand: &Cand,
        translates: &Rows,
        pair: &HeapPair,
        search: &Search,
        found: &mut Vec<NFailure>,
    ) -> Result<(), Stop> {
        let Search {
            max_bytes,
            want,
            cancel,
        } = *search;
        if pair.options.is_empty() || found.len() >= want {
            return Ok(());
        }
        // A heap whose pair is no smaller than a pair already met changes nothing: any
        // position using it is dominated by a lex-smaller one using that position instead.
        if self.subsumed(pair.value, &pair.sigma) {
            return Ok(());
        }
        let acts = &cand.acts;
        let w = self.width;
        let m = acts.m;
        let mut buf = vec![0u64; w];
        let mut bytes = Vec::new();
        let mut gens: Vec<u32> = Vec::new();
        // Stamps for the translates met, kept between calls (a conservative extension tries
        // many elements, each a call).
        if self.seen.len() < m {
            self.seen.resize(m, 0);
        }
        let mut round: Vec<u32> = (0..self.elem.len() as u32).collect();
        let mut next: Vec<u32> = Vec::new();
        let mut steps = 0usize;
        while !round.is_empty() {
            next.clear();
            for &e in &round {
                steps += 1;
                if steps.is_multiple_of(4096) {
                    if cancel() {
                        return Err(Stop::Interrupted);
                    }
                    if self.bytes() > max_bytes {
                        return Err(Stop::TooLarge {
                            elements: self.len(),
                            grew: super::Grew::Antichain,
                        });
                    }
                }
                let x = self.elem[e as usize];
                let y = pair.act(x);
                // S·h and the options' values: the translates whose union is the new set.
                gens.clear();
                let (lo, hi) = (self.gen_at[e as usize], self.gen_at[e as usize + 1]);
                let old = &self.gens[lo as usize..hi as usize];
                match pair.table {
                    Some(t) => gens.extend(old.iter().map(|&s| t[s as usize])),
                    None => gens.extend_from_slice(old),
                }
                gens.extend(pair.options.iter().map(|o| acts.apply(o, x)));
                // Each translate once (a stamp per element, rather than sorting).
                self.mark = self.mark.wrapping_add(1);
                if self.mark == 0 {
                    self.seen.fill(0);
                    self.mark = 1;
                }
                let (seen, mark) = (&mut self.seen, self.mark);
                gens.retain(|&s| std::mem::replace(&mut seen[s as usize], mark) != mark);
                // The identity is in the new set iff some translate's element is P
                // (`1 ∈ P_s ⇔ s ∈ P`): the failure test needs no row.
                if !cand.p[y as usize] && !gens.iter().any(|&s| cand.p[s as usize]) {
                    found.push(NFailure {
                        from: e,
                        heap: pair.heap,
                    });
                    if found.len() >= want {
                        return Ok(());
                    }
                }
                // An entry of the same element whose translates are all among these has a
                // smaller set: the new pair is dominated, and its row need not be made (the
                // unions were most of the search's time). Otherwise the rows decide.
                let seen = &self.seen;
                let (all_gens, gen_at) = (&self.gens, &self.gen_at);
                if self.by_elem[y as usize].iter().any(|&d| {
                    let (lo, hi) = (gen_at[d as usize], gen_at[d as usize + 1]);
                    all_gens[lo as usize..hi as usize]
                        .iter()
                        .all(|&s| seen[s as usize] == mark)
                }) {
                    continue;
                }
                if gens.len() * w <= WORDS_PER_ELEMENT * m {
                    buf.fill(0);
                    for &s in &gens {
                        bitset::union(&mut buf, translates.row(s as usize));
                    }
                } else {
                    let a = self.sets.row(e as usize);
                    match pair.table {
                        Some(t) => gather(a, t, &mut buf, &mut bytes),
                        None => buf.copy_from_slice(a),
                    }
                    for o in &pair.options {
                        let s = acts.apply(o, x);
                        bitset::union(&mut buf, translates.row(s as usize));
                    }
                }
                debug_assert_eq!(
                    bitset::get(&buf, 0),
                    gens.iter().any(|&s| cand.p[s as usize])
                );
                if self.subsumed(y, &buf) {
                    continue;
                }
                let id = self.elem.len() as u32;
                self.elem.push(y);
                self.sets.push(&buf);
                self.from.push(e);
                self.heap.push(pair.heap);
                self.gens.extend_from_slice(&gens);
                self.gen_at.push(self.gens.len() as u32);
                self.by_elem[y as usize].push(id);
                next.push(id);
            }
            std::mem::swap(&mut round, &mut next);
        }
        Ok(())
    }
}

/// The failures of a candidate over heaps `1..=heaps`, at most `want`, the first being the
/// lexicographically least; or, when the candidate is right for every position, its antichain
/// (for later conservative extensions) and translates.
pub fn verify(
    cand: &Cand,
    opts: &HeapOptions,
    heaps: usize,
    max_bytes: usize,
    want: usize,
    cancel: &dyn Fn() -> bool,
) -> Result<Verdict, Stop> {
    let translates = translates(cand, cancel)?;
    let pairs: Vec<HeapPair> = (1..=heaps)
        .map(|h| HeapPair::new(cand, &translates, opts, h, None))
        .collect();
    let pfail = p_failures(cand, &translates, &pairs);
    let mut chain = Antichain::new(cand.size());
    let mut found = Vec::new();
    for pair in &pairs {
        // Every word met from here on contains this heap: once enough failures are known
        // below it, nothing smaller can turn up.
        if pfail.len() >= want && pfail[want - 1][0] < pair.heap {
            break;
        }
        let search = Search {
            max_bytes,
            want,
            cancel,
        };
        chain.extend(cand, &translates, pair, &search, &mut found)?;
        if found.len() >= want {
            break;
        }
    }
    if found.is_empty() && pfail.is_empty() {
        return Ok(Verdict::Holds {
            chain: Box::new(chain),
            translates,
        });
    }
    let mut all: Vec<Word> = found.iter().map(|&f| chain.failure_word(f)).collect();
    all.extend(pfail);
    all.sort_unstable();
    all.dedup();
    all.truncate(want);
    Ok(Verdict::Fails(all))
}

pub enum Verdict {
    /// Failures, lex-least first.
    Fails(Vec<Word>),
    /// The candidate is right: its antichain (boxed: it is many vectors wide) and translates.
    Holds {
        chain: Box<Antichain>,
        translates: Rows,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The byte-wise gather against its definition, one bit at a time, on sizes that end
        /// inside a byte and inside a word.
        #[test]
        fn gather_is_the_preimage(
            (m, seed) in (1usize..300, any::<u64>()),
        ) {
            let mut state = seed | 1;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let w = bitset::words(m);
            let src: Vec<u64> = (0..w)
                .map(|i| {
                    let bits = m - 64 * i;
                    let r = next();
                    if bits >= 64 { r } else { r & ((1u64 << bits) - 1) }
                })
                .collect();
            let table: Vec<u32> = (0..m).map(|_| (next() % m as u64) as u32).collect();
            let mut dst = vec![u64::MAX; w];
            let mut bytes = Vec::new();
            gather(&src, &table, &mut dst, &mut bytes);
            for (y, &t) in table.iter().enumerate() {
                prop_assert_eq!(bitset::get(&dst, y), bitset::get(&src, t as usize));
            }
            for y in m..64 * w {
                prop_assert!(!bitset::get(&dst, y), "bit {} past the end is set", y);
            }
        }
    }
}
