//! chrF (Popović 2015) and chrF++ (Popović 2017) exactly as SacreBLEU 2.6 computes them.
//!
//! Row layout (SacreBLEU's): one `hyp, ref, match` triple per order, character orders
//! `1..=char_order` first, then word orders `1..=word_order`.
//!
//! With several references, each segment keeps the triples of the reference with the best
//! sentence-level F-score (computed with the metric's own beta and smoothing), ties going to
//! the first reference in the order given. The choice therefore depends on `beta` and
//! `eps_smoothing`: they are extraction options, not only finalize options.

use super::count::Count;
use crate::error::{Error, Result};
use crate::parallel;
use crate::text::{py_is_space, py_lower, py_split};
use rustc_hash::FxHashMap;
use std::borrow::Cow;

mod packed;
use packed::Packed;

/// Options of `_compute_f_score` (used to finalize and to choose among references).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChrfScoreOpts {
    pub char_order: usize,
    pub word_order: usize,
    /// `beta ** 2` as Python evaluates it, converted to float.
    pub factor: f64,
    /// `1 + beta ** 2` as Python evaluates it, converted to float.
    pub one_plus_factor: f64,
    pub eps_smoothing: bool,
}

impl ChrfScoreOpts {
    /// Options for a float `beta` (for an integer beta below 2**26 this equals Python's
    /// integer arithmetic).
    pub fn new(char_order: usize, word_order: usize, beta: f64, eps_smoothing: bool) -> Self {
        let factor = beta.powf(2.0);
        ChrfScoreOpts {
            char_order,
            word_order,
            factor,
            one_plus_factor: 1.0 + factor,
            eps_smoothing,
        }
    }

    /// `char_order + word_order`.
    pub fn order(&self) -> usize {
        self.char_order + self.word_order
    }

    /// Width of one statistics row.
    pub fn width(&self) -> usize {
        3 * self.order()
    }

    /// Refuse an empty set of orders (SacreBLEU divides by zero there).
    pub fn check(&self) -> Result<()> {
        crate::error::check_order("char_order", self.char_order as u64)?;
        crate::error::check_order("word_order", self.word_order as u64)?;
        if self.order() == 0 {
            return Err(Error::InvalidOption {
                name: "char_order + word_order".into(),
                value: "0".into(),
                expected: "at least one n-gram order".into(),
            });
        }
        if !self.factor.is_finite() || !self.one_plus_factor.is_finite() {
            return Err(Error::InvalidOption {
                name: "beta".into(),
                value: format!("{}", self.factor.sqrt()),
                expected: "a finite number".into(),
            });
        }
        Ok(())
    }
}

/// Options that change the statistics rows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChrfExtract {
    pub score: ChrfScoreOpts,
    pub lowercase: bool,
    /// Keep whitespace inside character n-grams.
    pub whitespace: bool,
}

impl ChrfExtract {
    /// Width of one statistics row.
    pub fn width(&self) -> usize {
        self.score.width()
    }
}

/// SacreBLEU's `CHRF._compute_f_score`, operation for operation, so floats are bit-identical;
/// the one chrF finalize (statistics of any [`Count`] type, converted to `f64` first).
pub fn f_score<T: Count>(stats: &[T], o: &ChrfScoreOpts) -> f64 {
    let eps = 1e-16;
    let mut score = 0.0f64;
    let mut effective_order = 0i64;
    let factor = o.factor;
    let (mut avg_prec, mut avg_rec) = (0.0f64, 0.0f64);
    let order = o.order();
    for i in 0..order {
        let (n_hyp, n_ref, n_match) = (
            stats[3 * i].to_f64(),
            stats[3 * i + 1].to_f64(),
            stats[3 * i + 2].to_f64(),
        );
        let prec = if n_hyp > 0.0 { n_match / n_hyp } else { eps };
        let rec = if n_ref > 0.0 { n_match / n_ref } else { eps };
        let denom = factor * prec + rec;
        score += if denom > 0.0 {
            o.one_plus_factor * prec * rec / denom
        } else {
            eps
        };
        if n_hyp > 0.0 && n_ref > 0.0 {
            avg_prec += prec;
            avg_rec += rec;
            effective_order += 1;
        }
    }
    if o.eps_smoothing {
        return 100.0 * score / order as f64;
    }
    if effective_order == 0 {
        avg_prec = 0.0;
        avg_rec = 0.0;
    } else {
        avg_prec /= effective_order as f64;
        avg_rec /= effective_order as f64;
    }
    if avg_prec + avg_rec != 0.0 {
        let mut s = o.one_plus_factor * avg_prec * avg_rec;
        s /= (factor * avg_prec) + avg_rec;
        100.0 * s
    } else {
        0.0
    }
}

/// The score of every row of a row-major matrix (batch sentence scores).
pub fn finalize_many(rows: &[i64], o: &ChrfScoreOpts, workers: usize) -> Result<Vec<f64>> {
    o.check()?;
    let width = o.width();
    let rem = rows.len() % width;
    if rem != 0 {
        return Err(Error::BadStatsShape {
            expected: width,
            found: rem,
        });
    }
    let n = rows.len() / width;
    let mut out = vec![0.0; n];
    parallel::for_each_chunk(workers, &mut out, 4096, |start, chunk| {
        for (j, v) in chunk.iter_mut().enumerate() {
            let i = start + j;
            *v = f_score(&rows[i * width..(i + 1) * width], o);
        }
    });
    Ok(out)
}

/// `CHRF._remove_punctuation`: whitespace tokens, one punctuation character split off the end
/// (or, failing that, the start) of every token longer than one character. Punctuation is
/// `string.punctuation`, which is exactly `char::is_ascii_punctuation`.
pub fn remove_punctuation(sent: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for_each_word(sent, |w| out.push(w));
    out
}

/// `remove_punctuation` without collecting: `f` gets each word in order.
#[inline]
pub fn for_each_word<'a>(sent: &'a str, mut f: impl FnMut(&'a str)) {
    for w in py_split(sent) {
        let mut it = w.chars();
        let first = it.next().expect("split never yields empty tokens");
        let Some(last) = it.next_back() else {
            f(w);
            continue;
        };
        if last.is_ascii_punctuation() {
            let cut = w.len() - last.len_utf8();
            f(&w[..cut]);
            f(&w[cut..]);
        } else if first.is_ascii_punctuation() {
            let cut = first.len_utf8();
            f(&w[..cut]);
            f(&w[cut..]);
        } else {
            f(w);
        }
    }
}

/// The characters n-grams are taken from: all of them, or all but Python whitespace.
fn char_symbols(text: &str, whitespace: bool, out: &mut Vec<u32>) {
    out.clear();
    out.resize(text.len(), 0); // at least one byte per character
    let mut n = 0;
    for c in text.chars() {
        out[n] = u32::from(c);
        n += usize::from(whitespace || !py_is_space(c));
    }
    out.truncate(n);
}

/// Symbol of a reference word the hypothesis lacks (no hypothesis n-gram contains it).
const UNKNOWN_WORD: u32 = u32::MAX - 1;

/// Dense per-segment ids (1, 2, ...) of the distinct symbols of a hypothesis; 0 is "absent".
/// ASCII characters go through a direct table, other symbols through a small hash table.
#[derive(Default)]
struct DenseIds {
    ascii: Vec<u32>,
    keys: Vec<u32>,
    vals: Vec<u32>,
    used_ascii: Vec<u32>,
    used: Vec<u32>,
    shift: u32,
    n: u32,
}

const NO_SYMBOL: u32 = u32::MAX;

impl DenseIds {
    fn reset(&mut self, max_distinct: usize) {
        if self.ascii.is_empty() {
            self.ascii = vec![0; 128];
        }
        for &c in &self.used_ascii {
            self.ascii[c as usize] = 0;
        }
        self.used_ascii.clear();
        for &slot in &self.used {
            self.keys[slot as usize] = NO_SYMBOL;
        }
        self.used.clear();
        let want = (2 * max_distinct).next_power_of_two().max(64);
        if self.keys.len() < want || self.keys.len() > 8 * want {
            self.keys = vec![NO_SYMBOL; want];
            self.vals = vec![0; want];
            self.shift = 64 - want.trailing_zeros();
        }
        self.n = 0;
    }

    #[inline]
    fn slot(&self, sym: u32) -> usize {
        let mask = self.keys.len() - 1;
        let mut i = (u64::from(sym).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let k = self.keys[i];
            if k == sym || k == NO_SYMBOL {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn get_or_insert(&mut self, sym: u32) -> u32 {
        if sym < 128 {
            let v = &mut self.ascii[sym as usize];
            if *v == 0 {
                self.n += 1;
                *v = self.n;
                self.used_ascii.push(sym);
            }
            return *v;
        }
        let i = self.slot(sym);
        if self.keys[i] == NO_SYMBOL {
            self.n += 1;
            self.keys[i] = sym;
            self.vals[i] = self.n;
            self.used.push(i as u32);
        }
        self.vals[i]
    }

    #[inline]
    fn get(&self, sym: u32) -> u32 {
        if sym < 128 {
            return self.ascii[sym as usize];
        }
        let i = self.slot(sym);
        if self.keys[i] == NO_SYMBOL {
            0
        } else {
            self.vals[i]
        }
    }
}

/// A slot of the n-gram table: the n-gram's key and its counts in the hypothesis and in the
/// reference being compared. Two layouts: 8 bytes when keys and counts are small (nearly
/// always: the table then fits in the L1 cache), 16 bytes otherwise.
trait Slot: Copy {
    const EMPTY: Self;
    fn probe(table: &[Self], shift: u32, key: u64) -> usize;
    fn is_empty(&self) -> bool;
    fn set_key(&mut self, key: u64);
    fn hyp(&self) -> u32;
    fn add_hyp(&mut self);
    fn rf(&self) -> u32;
    /// Count one more reference occurrence (saturating: once the count reaches the
    /// hypothesis count, it only has to stay there).
    fn add_rf(&mut self);
    fn clear_rf(&mut self);
}

#[derive(Clone, Copy)]
struct Small {
    key: u32,
    hyp: u16,
    rf: u16,
}

#[derive(Clone, Copy)]
struct Large {
    key: u64,
    hyp: u32,
    rf: u32,
}

macro_rules! slot_impl {
    ($t:ty, $k:ty, $c:ty) => {
        impl Slot for $t {
            const EMPTY: Self = Self {
                key: <$k>::MAX,
                hyp: 0,
                rf: 0,
            };

            #[inline]
            fn probe(table: &[Self], shift: u32, key: u64) -> usize {
                let key = key as $k;
                let mask = table.len() - 1;
                let mut i = ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize;
                loop {
                    let k = table[i].key;
                    // One branch for both exits (found: k == key; empty: !k == 0): which one
                    // it is, is unpredictable, the exit itself is not.
                    if (k ^ key).min(!k) == 0 {
                        return i;
                    }
                    i = (i + 1) & mask;
                }
            }

            #[inline]
            fn is_empty(&self) -> bool {
                self.key == <$k>::MAX
            }

            #[inline]
            fn set_key(&mut self, key: u64) {
                self.key = key as $k;
            }

            #[inline]
            fn hyp(&self) -> u32 {
                u32::from(self.hyp)
            }

            #[inline]
            fn add_hyp(&mut self) {
                self.hyp += 1;
            }

            #[inline]
            fn rf(&self) -> u32 {
                u32::from(self.rf)
            }

            #[inline]
            fn add_rf(&mut self) {
                self.rf = self.rf.saturating_add(1);
            }

            #[inline]
            fn clear_rf(&mut self) {
                self.rf = 0;
            }
        }
    };
}

slot_impl!(Small, u32, u16);
slot_impl!(Large, u64, u32);

/// The n-grams (orders >= 2) of one hypothesis in an open-addressing table, as a trie: the
/// key of an n-gram is (id of its first n-1 symbols, dense id of its last symbol), and the id
/// of an n-gram of order >= 2 is `d + slot + 1` (ids `1..=d` are the unigrams, i.e. the dense
/// symbol ids). Whether an n-gram is new or already seen is random, so the loops count with
/// conditional moves rather than branches.
struct Table<E> {
    slots: Vec<E>,
    shift: u32,
    used: Vec<u32>,
    n_used: usize,
}

impl<E> Default for Table<E> {
    fn default() -> Self {
        Table {
            slots: Vec::new(),
            shift: 0,
            used: Vec::new(),
            n_used: 0,
        }
    }
}

impl<E: Slot> Table<E> {
    fn reset(&mut self, max_entries: usize) {
        for &slot in &self.used[..self.n_used] {
            self.slots[slot as usize] = E::EMPTY;
        }
        self.n_used = 0;
        let want = (4 * max_entries).next_power_of_two().max(64);
        if self.slots.len() < want || self.slots.len() > 8 * want {
            self.slots = vec![E::EMPTY; want];
            self.shift = 64 - want.trailing_zeros();
        }
        self.used.resize(self.used.len().max(max_entries + 1), 0);
    }

    /// Insert the n-grams of orders `2..=orders` of `hyp` (dense ids).
    fn build(
        &mut self,
        hyp: &[u32],
        orders: usize,
        d: u64,
        prev: &mut Vec<u32>,
        cur: &mut Vec<u32>,
    ) {
        let slots = &mut self.slots[..];
        let shift = self.shift;
        let used = &mut self.used[..];
        let mut n_used = self.n_used;
        prev.clear();
        prev.extend_from_slice(hyp); // unigram ids are the dense symbol ids
        cur.clear();
        cur.resize(hyp.len(), 0);
        for n in 2..=orders {
            let m = hyp.len() + 1 - n;
            for ((c, &p), &sym) in cur[..m].iter_mut().zip(&prev[..m]).zip(&hyp[n - 1..]) {
                let k = u64::from(p) * (d + 1) + u64::from(sym);
                let slot = E::probe(slots, shift, k);
                let e = &mut slots[slot];
                let new = e.is_empty();
                e.set_key(k);
                e.add_hyp();
                used[n_used] = slot as u32;
                n_used += usize::from(new);
                *c = (d + slot as u64 + 1) as u32;
            }
            std::mem::swap(prev, cur);
        }
        self.n_used = n_used;
    }

    /// Matches of orders `2..` for the reference positions in `pos[..live]` (increasing),
    /// whose unigrams have ids `ids[..live]`; `out` gets `(order, matches)` per order.
    #[allow(clippy::too_many_arguments)]
    fn compare(
        &mut self,
        rf: &[u32],
        d: u64,
        pos: &mut [u32],
        ids: &mut [u32],
        mut live: usize,
        max_order: usize,
        touched: &mut [u32],
        matches_out: &mut [u64],
    ) {
        let slots = &mut self.slots[..];
        let shift = self.shift;
        let r = rf.len();
        for n in 2..=max_order {
            let ref_total = (r + 1).saturating_sub(n);
            if live == 0 || ref_total == 0 {
                break;
            }
            // Positions are increasing: those with room for an n-gram come first.
            let m = pos[..live].partition_point(|&i| (i as usize) < ref_total);
            let mut next = 0;
            let mut matches = 0u64;
            for k in 0..m {
                let i = pos[k] as usize;
                let key = u64::from(ids[k]) * (d + 1) + u64::from(rf[i + n - 1]);
                let slot = E::probe(slots, shift, key);
                let e = &mut slots[slot];
                // sum of min(hyp count, ref count), one occurrence at a time (an empty slot
                // has hyp count 0, so it never matches)
                matches += u64::from(e.rf() < e.hyp());
                e.add_rf();
                touched[k] = slot as u32;
                // keep the position if its n-gram occurs (next <= k: in place is safe)
                pos[next] = i as u32;
                ids[next] = (d + slot as u64 + 1) as u32;
                next += usize::from(!e.is_empty());
            }
            for &slot in &touched[..m] {
                slots[slot as usize].clear_rf();
            }
            matches_out[n - 1] = matches;
            live = next;
        }
    }
}

/// Most segments: the n-grams of order n are found by direct indexing, without hashing. The
/// table of order n has one row per distinct (n-1)-gram of the hypothesis and one column per
/// distinct symbol (+ column 0 for symbols the hypothesis lacks), and holds the n-gram's dense
/// id (0: absent). Only small segments use it (see `MAX_CELLS`); the others hash.
#[derive(Default)]
struct Direct {
    cells: Vec<u16>,
    /// Start of order n's table in `cells`, at `base[n]`.
    base: Vec<usize>,
    /// Start of order n's counts in `hcount` / `rcount`, at `cbase[n]`.
    cbase: Vec<usize>,
    hcount: Vec<u16>,
    rcount: Vec<u16>,
    touched: Vec<u32>,
    n_touched: usize,
}

/// Largest direct tables (all orders together), in cells.
const MAX_CELLS: usize = 1 << 20;

impl Direct {
    /// Insert the n-grams of orders `2..=orders` of `hyp` (dense ids `1..=d`); `false` (with
    /// nothing inserted) if the tables could be too large.
    fn build(
        &mut self,
        hyp: &[u32],
        orders: usize,
        d: usize,
        prev: &mut Vec<u32>,
        cur: &mut Vec<u32>,
    ) -> bool {
        for &i in &self.touched[..self.n_touched] {
            self.cells[i as usize] = 0;
        }
        self.n_touched = 0;
        let h = hyp.len();
        // Order n's table has (distinct (n-1)-grams + 1) * (d + 1) <= (h + 1) * (d + 1) cells.
        if h >= usize::from(u16::MAX) || (orders - 1) * (h + 1) * (d + 1) > MAX_CELLS {
            return false;
        }
        self.base.clear();
        self.base.resize(orders + 1, 0);
        self.cbase.clear();
        self.cbase.resize(orders + 2, 0);
        self.hcount.clear();
        prev.clear();
        prev.extend_from_slice(hyp);
        cur.clear();
        cur.resize(h, 0);
        let mut k_prev = d; // distinct (n-1)-grams
        let mut next_base = 0usize;
        // Cells to clear before the next segment (written unconditionally, kept if new).
        self.touched
            .resize(self.touched.len().max(h * (orders - 1) + 1), 0);
        let mut nt = 0;
        for n in 2..=orders {
            let base = next_base;
            next_base = base + (k_prev + 1) * (d + 1);
            if self.cells.len() < next_base {
                self.cells.resize(next_base, 0);
            }
            self.base[n] = base;
            let cb = self.hcount.len();
            self.cbase[n] = cb;
            self.hcount.resize(cb + 1 + h, 0); // ids 1..=K_n, K_n <= positions
            let m = h + 1 - n;
            let mut k = 0u32;
            let cells = &mut self.cells[base..next_base];
            let hcount = &mut self.hcount[cb..];
            let touched = &mut self.touched[..];
            for ((c, &p), &sym) in cur[..m].iter_mut().zip(&prev[..m]).zip(&hyp[n - 1..]) {
                let idx = p as usize * (d + 1) + sym as usize;
                let id = cells[idx];
                let new = id == 0;
                let id = if new { k as u16 + 1 } else { id };
                cells[idx] = id;
                k += u32::from(new);
                hcount[usize::from(id)] += 1;
                *c = u32::from(id);
                touched[nt] = (base + idx) as u32;
                nt += usize::from(new);
            }
            k_prev = k as usize;
            std::mem::swap(prev, cur);
        }
        self.n_touched = nt;
        self.cbase[orders + 1] = self.hcount.len();
        self.rcount.clear();
        self.rcount.resize(self.hcount.len(), 0);
        true
    }

    /// As `Table::compare`, without `touched`: each order starts from a copy of the
    /// hypothesis counts and counts matches down (cheaper than clearing afterwards).
    #[allow(clippy::too_many_arguments)]
    fn compare(
        &mut self,
        rf: &[u32],
        d: u64,
        pos: &mut [u32],
        ids: &mut [u32],
        mut live: usize,
        max_order: usize,
        matches_out: &mut [u64],
    ) {
        let d1 = d as usize + 1;
        let r = rf.len();
        for n in 2..=max_order {
            let ref_total = (r + 1).saturating_sub(n);
            if live == 0 || ref_total == 0 {
                break;
            }
            let (base, cb, ce) = (self.base[n], self.cbase[n], self.cbase[n + 1]);
            let cells = &self.cells[base..];
            let left = &mut self.rcount[cb..ce];
            left.copy_from_slice(&self.hcount[cb..ce]);
            // Positions are increasing: those with room for an n-gram come first.
            let m = pos[..live].partition_point(|&i| (i as usize) < ref_total);
            let mut next = 0;
            let mut matches = 0u64;
            for k in 0..m {
                let i = pos[k] as usize;
                let id = usize::from(cells[ids[k] as usize * d1 + rf[i + n - 1] as usize]);
                // sum of min(hyp count, ref count), one occurrence at a time (id 0 has hyp
                // count 0, so it never matches)
                let c = &mut left[id];
                let hit = u16::from(*c > 0);
                matches += u64::from(hit);
                *c -= hit;
                // keep the position if its n-gram occurs (next <= k: in place is safe)
                pos[next] = i as u32;
                ids[next] = id as u32;
                next += usize::from(id != 0);
            }
            matches_out[n - 1] = matches;
            live = next;
        }
    }
}

#[derive(Default, Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    #[default]
    Packed,
    Direct,
    Small,
    Large,
}

/// The n-grams of one hypothesis (characters or words), ready to be compared with references.
#[derive(Default)]
struct HypGrams {
    dense: DenseIds,
    d: u64,
    hyp: Vec<u32>,
    max_order: usize,
    uni_hyp: Vec<u32>,
    uni_rf: Vec<u32>,
    packed: Packed,
    direct: Direct,
    small: Table<Small>,
    large: Table<Large>,
    /// Which of `packed`, `direct`, `small` and `large` holds the n-grams of orders >= 2.
    mode: Mode,
    prev: Vec<u32>,
    cur: Vec<u32>,
    rf: Vec<u32>,
    touched: Vec<u32>,
    matches: Vec<u64>,
}

impl HypGrams {
    fn build(&mut self, syms: &[u32], max_order: usize) {
        let h = syms.len();
        self.max_order = max_order;
        self.dense.reset(h);
        self.hyp.clear();
        for &s in syms {
            let id = self.dense.get_or_insert(s);
            self.hyp.push(id);
        }
        let d = u64::from(self.dense.n);
        self.d = d;
        // Id d + 1: reference symbols the hypothesis lacks (packed keys), count 0.
        self.uni_hyp.clear();
        self.uni_hyp.resize(d as usize + 2, 0);
        for &id in &self.hyp {
            self.uni_hyp[id as usize] += 1;
        }
        self.uni_rf.clear();
        self.uni_rf.resize(d as usize + 2, 0);
        self.mode = Mode::Direct;
        let orders = max_order.min(h);
        if orders < 2 {
            return;
        }
        #[cfg(test)]
        let forced = tests::FORCE_MODE.with(|f| f.get());
        #[cfg(not(test))]
        let forced: Option<Mode> = None;
        if matches!(forced, None | Some(Mode::Direct))
            && self
                .direct
                .build(&self.hyp, orders, d as usize, &mut self.prev, &mut self.cur)
        {
            return;
        }
        // Too large for direct tables: packed keys if they fit (a table that grows with the
        // distinct n-grams, so long repetitive text stays small), else wider hashed keys.
        if let (None | Some(Mode::Packed), Some(bits)) =
            (forced, Packed::bits_for(d as usize, orders))
        {
            self.mode = Mode::Packed;
            self.packed.build(&self.hyp, orders, bits);
            return;
        }
        let entries = h * (orders - 1);
        // Small slots: keys below (d + table length + 1) * (d + 1) must fit in u32 (u32::MAX
        // marks empty slots) and hypothesis counts in u16.
        self.small.reset(entries);
        let table_len = self.small.slots.len() as u64;
        if forced != Some(Mode::Large)
            && h < usize::from(u16::MAX)
            && (d + table_len + 2) * (d + 1) < u64::from(u32::MAX)
        {
            self.mode = Mode::Small;
            self.small
                .build(&self.hyp, orders, d, &mut self.prev, &mut self.cur);
        } else {
            self.mode = Mode::Large;
            self.large.reset(entries);
            self.large
                .build(&self.hyp, orders, d, &mut self.prev, &mut self.cur);
        }
    }

    /// `_get_match_statistics` for orders `1..=out.len() / 3` against one reference.
    ///
    /// Order by order, only the reference positions whose (n-1)-gram occurs in the
    /// hypothesis are looked up (an n-gram extending an absent one is absent).
    fn compare(&mut self, rf_syms: &[u32], out: &mut [i64]) {
        let max_order = out.len() / 3;
        let (h, r) = (self.hyp.len(), rf_syms.len());
        self.rf.clear();
        // Packed keys need a nonzero id for symbols the hypothesis lacks.
        let absent = if self.mode == Mode::Packed {
            self.d as u32 + 1
        } else {
            0
        };
        self.rf
            .extend(rf_syms.iter().map(|&s| match self.dense.get(s) {
                0 => absent,
                id => id,
            }));
        self.matches.clear();
        self.matches.resize(max_order.max(1), 0);
        // Unigrams: dense ids index the counts directly.
        let mut m1 = 0u64;
        for &id in &self.rf {
            let c = &mut self.uni_rf[id as usize];
            m1 += u64::from(*c < self.uni_hyp[id as usize]);
            *c += 1;
        }
        self.uni_rf.iter_mut().for_each(|c| *c = 0);
        self.matches[0] = m1;
        if self.mode == Mode::Packed {
            let orders = max_order.min(self.max_order).min(h);
            self.packed
                .compare(&self.rf, &mut self.matches[..orders.max(1)]);
        } else if max_order >= 2 && h >= 2 && r >= 2 {
            // Live positions: those whose unigram occurs in the hypothesis.
            self.prev.resize(r, 0);
            self.cur.resize(r, 0);
            let mut live = 0;
            for (i, &id) in self.rf.iter().enumerate() {
                self.prev[live] = i as u32;
                self.cur[live] = id;
                live += usize::from(id != 0);
            }
            self.touched.clear();
            self.touched.resize(live, 0);
            // The hypothesis has no n-gram longer than itself.
            let orders = max_order.min(self.max_order).min(h);
            let (rf, d, pos, ids) = (&self.rf, self.d, &mut self.prev, &mut self.cur);
            let (touched, matches) = (&mut self.touched, &mut self.matches);
            match self.mode {
                Mode::Packed => unreachable!("handled above"),
                Mode::Direct => self.direct.compare(rf, d, pos, ids, live, orders, matches),
                Mode::Small => self
                    .small
                    .compare(rf, d, pos, ids, live, orders, touched, matches),
                Mode::Large => self
                    .large
                    .compare(rf, d, pos, ids, live, orders, touched, matches),
            }
        }
        for n in 1..=max_order {
            let ref_total = (r + 1).saturating_sub(n);
            // "Don't count hits if no reference exists for that n-gram"
            let hyp_total = if ref_total > 0 {
                (h + 1).saturating_sub(n)
            } else {
                0
            };
            out[3 * (n - 1)] = hyp_total as i64;
            out[3 * (n - 1) + 1] = ref_total as i64;
            out[3 * (n - 1) + 2] = self.matches[n - 1] as i64;
        }
    }
}

/// A word of a reference: its hash and where it is in the reference's text.
#[derive(Debug, Clone, Copy)]
struct WordRef {
    hash: u64,
    start: usize,
    end: usize,
}

/// One preprocessed reference: its character symbols and (for chrF++) its (lowercased) text
/// and words.
#[derive(Debug, Clone, Default)]
pub struct PreparedRef {
    chars: Vec<u32>,
    text: Box<str>,
    words: Vec<WordRef>,
}

impl PreparedRef {
    fn new(cfg: &ChrfExtract, r: &str) -> Self {
        let text = if cfg.lowercase {
            Cow::Owned(py_lower(r))
        } else {
            Cow::Borrowed(r)
        };
        let mut chars = Vec::new();
        if cfg.score.char_order > 0 {
            char_symbols(&text, cfg.whitespace, &mut chars);
        }
        let mut words = Vec::new();
        if cfg.score.word_order > 0 {
            let base = text.as_ptr() as usize;
            for_each_word(&text, |w| {
                let start = w.as_ptr() as usize - base;
                words.push(WordRef {
                    hash: word_hash(w.as_bytes()),
                    start,
                    end: start + w.len(),
                });
            });
        }
        PreparedRef {
            chars,
            text: if cfg.score.word_order > 0 {
                text.into()
            } else {
                Box::default()
            },
            words,
        }
    }
}

/// Hash of a word (exactness comes from comparing the bytes on a hash match).
#[inline]
fn word_hash(w: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = w.len() as u64;
    let mut chunks = w.chunks_exact(8);
    for c in &mut chunks {
        let x = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h.rotate_left(23) ^ x).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut buf = [0u8; 8];
        buf[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(buf)).wrapping_mul(K);
    }
    h ^ (h >> 29)
}

/// References of a corpus: the distinct reference texts, prepared once each, and for every
/// segment the indices of its references (`None` references already removed).
#[derive(Debug, Clone, Default)]
pub struct PreparedRefs {
    pool: Vec<PreparedRef>,
    /// Segment i's references are `pool[items[starts[i]..starts[i + 1]]]`.
    starts: Vec<usize>,
    items: Vec<u32>,
}

impl PreparedRefs {
    /// Preprocess references given segment by segment.
    pub fn new(cfg: &ChrfExtract, segments: Vec<Vec<String>>, workers: usize) -> Self {
        let mut texts: Vec<&str> = Vec::new();
        let mut starts = Vec::with_capacity(segments.len() + 1);
        starts.push(0);
        for seg in &segments {
            texts.extend(seg.iter().map(String::as_str));
            starts.push(texts.len());
        }
        let items = (0..texts.len() as u32).collect();
        Self::from_strs(cfg, &texts, starts, items, workers)
    }

    /// Preprocess references given as candidate texts and, per segment, indices into them
    /// (`starts` has one more entry than there are segments). Equal texts are prepared once.
    pub fn from_strs(
        cfg: &ChrfExtract,
        texts: &[&str],
        starts: Vec<usize>,
        mut items: Vec<u32>,
        workers: usize,
    ) -> Self {
        // Identical references are common (a test set scored against many systems, batch
        // sentence scores): one entry per distinct text.
        let mut first: FxHashMap<&str, u32> = FxHashMap::default();
        let mut remap = Vec::with_capacity(texts.len());
        let mut distinct: Vec<&str> = Vec::new();
        for &t in texts {
            let next = distinct.len() as u32;
            let id = *first.entry(t).or_insert(next);
            if id == next {
                distinct.push(t);
            }
            remap.push(id);
        }
        for it in &mut items {
            *it = remap[*it as usize];
        }
        let mut pool = vec![PreparedRef::default(); distinct.len()];
        parallel::for_each_chunk(workers, &mut pool, 256, |start, chunk| {
            for (j, p) in chunk.iter_mut().enumerate() {
                *p = PreparedRef::new(cfg, distinct[start + j]);
            }
        });
        PreparedRefs {
            pool,
            starts,
            items,
        }
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// No segments.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of references of segment `i`.
    pub fn count(&self, i: usize) -> usize {
        self.starts[i + 1] - self.starts[i]
    }

    fn refs(&self, i: usize) -> impl Iterator<Item = &PreparedRef> {
        self.items[self.starts[i]..self.starts[i + 1]]
            .iter()
            .map(|&j| &self.pool[j as usize])
    }
}

/// Per-hypothesis word ids `1..=k` by content, so reference words are matched by comparing
/// strings within the segment (no corpus-wide vocabulary to build).
#[derive(Default)]
struct WordIds {
    /// (hash, start, end, id) per slot; id 0: empty.
    slots: Vec<(u64, usize, usize, u32)>,
    used: Vec<u32>,
    shift: u32,
    n: u32,
}

impl WordIds {
    /// Start a hypothesis of about `expect` distinct words (the table grows if needed).
    fn reset(&mut self, expect: usize) {
        for &s in &self.used {
            self.slots[s as usize].3 = 0;
        }
        self.used.clear();
        let want = (2 * expect).next_power_of_two().max(64);
        if self.slots.len() < want || self.slots.len() > 8 * want {
            self.alloc(want);
        }
        self.n = 0;
    }

    fn alloc(&mut self, len: usize) {
        self.slots = vec![(0, 0, 0, 0); len];
        self.shift = 64 - len.trailing_zeros();
    }

    /// Double the table, keeping its words.
    fn grow(&mut self) {
        let old: Vec<_> = self.used.iter().map(|&s| self.slots[s as usize]).collect();
        self.alloc(2 * self.slots.len());
        self.used.clear();
        let mask = self.slots.len() - 1;
        for e in old {
            let mut i = (e.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
            while self.slots[i].3 != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = e;
            self.used.push(i as u32);
        }
    }

    /// The slot of `w` (hash `hash`) or the empty slot where it would go; `text` holds the
    /// words already inserted.
    #[inline]
    fn slot(&self, text: &str, w: &str, hash: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let (h, start, end, id) = self.slots[i];
            if id == 0 || (h == hash && &text[start..end] == w) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// Id of word `text[start..end]`, a new one if unseen.
    fn get_or_insert(&mut self, text: &str, start: usize, end: usize) -> u32 {
        let w = &text[start..end];
        let hash = word_hash(w.as_bytes());
        let i = self.slot(text, w, hash);
        if self.slots[i].3 != 0 {
            return self.slots[i].3;
        }
        self.n += 1;
        self.slots[i] = (hash, start, end, self.n);
        self.used.push(i as u32);
        if 2 * self.used.len() >= self.slots.len() {
            self.grow();
        }
        self.n
    }

    /// Id of a reference word, or `UNKNOWN_WORD`.
    fn get(&self, text: &str, w: &str, hash: u64) -> u32 {
        match self.slots[self.slot(text, w, hash)].3 {
            0 => UNKNOWN_WORD,
            id => id,
        }
    }
}

/// Per-thread buffers.
#[derive(Default)]
pub struct Scratch {
    chars: HypGrams,
    words: HypGrams,
    word_ids: WordIds,
    syms: Vec<u32>,
    rsyms: Vec<u32>,
    row: Vec<i64>,
}

/// `_compute_segment_statistics`: the row of the reference with the best F-score (ties: the
/// first). `out` is left untouched (zeros) when there is no reference.
fn extract_row<'a>(
    cfg: &ChrfExtract,
    hyp: &str,
    refs: impl Iterator<Item = &'a PreparedRef>,
    s: &mut Scratch,
    out: &mut [i64],
) {
    let o = &cfg.score;
    let text = if cfg.lowercase {
        Cow::Owned(py_lower(hyp))
    } else {
        Cow::Borrowed(hyp)
    };
    if o.char_order > 0 {
        char_symbols(&text, cfg.whitespace, &mut s.syms);
        s.chars.build(&s.syms, o.char_order);
    }
    if o.word_order > 0 {
        s.syms.clear();
        let (syms, ids) = (&mut s.syms, &mut s.word_ids);
        // About one distinct word per 6 bytes of text (the table grows if not).
        ids.reset(text.len() / 6 + 8);
        let base = text.as_ptr() as usize;
        for_each_word(&text, |w| {
            let start = w.as_ptr() as usize - base;
            syms.push(ids.get_or_insert(&text, start, start + w.len()));
        });
        s.words.build(&s.syms, o.word_order);
    }
    let nc = 3 * o.char_order;
    s.row.clear();
    s.row.resize(o.width(), 0);
    let mut best = -1.0f64;
    for r in refs {
        if o.char_order > 0 {
            s.chars.compare(&r.chars, &mut s.row[..nc]);
        }
        if o.word_order > 0 {
            // A word the hypothesis lacks is one unknown symbol: no n-gram with it matches.
            s.rsyms.clear();
            let ids = &s.word_ids;
            s.rsyms.extend(
                r.words
                    .iter()
                    .map(|w| ids.get(&text, &r.text[w.start..w.end], w.hash)),
            );
            s.words.compare(&s.rsyms, &mut s.row[nc..]);
        }
        let f = f_score(&s.row, o);
        if f > best {
            best = f;
            out.copy_from_slice(&s.row);
        }
    }
}

/// Statistics of every hypothesis (row-major, `cfg.width()` columns).
pub fn extract<S: AsRef<str> + Sync>(
    cfg: &ChrfExtract,
    hyps: &[S],
    refs: &PreparedRefs,
    workers: usize,
) -> Result<Vec<i64>> {
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch {
            what: "hypotheses vs references".into(),
            expected: refs.len(),
            found: hyps.len(),
        });
    }
    extract_block(cfg, hyps, refs, 0, workers)
}

fn check_block(refs: &PreparedRefs, first: usize, n: usize) -> Result<()> {
    if first + n > refs.len() {
        return Err(Error::LengthMismatch {
            what: "hypotheses vs references".into(),
            expected: refs.len(),
            found: first + n,
        });
    }
    Ok(())
}

/// Statistics of `hyps`, the hypotheses of segments `first..first + hyps.len()` (for callers
/// that process a corpus in blocks).
pub fn extract_block<S: AsRef<str> + Sync>(
    cfg: &ChrfExtract,
    hyps: &[S],
    refs: &PreparedRefs,
    first: usize,
    workers: usize,
) -> Result<Vec<i64>> {
    cfg.score.check()?;
    check_block(refs, first, hyps.len())?;
    let w = cfg.width();
    let mut rows = vec![0i64; hyps.len() * w];
    parallel::for_each_chunk(workers, &mut rows, 256 * w, |start, chunk| {
        let mut s = Scratch::default();
        let i0 = start / w;
        for (j, out) in chunk.chunks_mut(w).enumerate() {
            let i = i0 + j;
            extract_row(cfg, hyps[i].as_ref(), refs.refs(first + i), &mut s, out);
        }
    });
    Ok(rows)
}

/// Sentence chrF of `hyps`, the hypotheses of segments `first..first + hyps.len()`: as
/// `finalize_many(extract_block(..))`, without materializing the rows.
pub fn sentence_scores_block<S: AsRef<str> + Sync>(
    cfg: &ChrfExtract,
    hyps: &[S],
    refs: &PreparedRefs,
    first: usize,
    workers: usize,
) -> Result<Vec<f64>> {
    cfg.score.check()?;
    check_block(refs, first, hyps.len())?;
    let mut out = vec![0.0; hyps.len()];
    parallel::for_each_chunk(workers, &mut out, 256, |start, chunk| {
        let mut s = Scratch::default();
        let mut row = vec![0i64; cfg.width()];
        for (j, v) in chunk.iter_mut().enumerate() {
            let i = start + j;
            row.iter_mut().for_each(|x| *x = 0);
            extract_row(
                cfg,
                hyps[i].as_ref(),
                refs.refs(first + i),
                &mut s,
                &mut row,
            );
            *v = f_score(&row, &cfg.score);
        }
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn cfg(nc: usize, nw: usize, beta: f64, lc: bool, ws: bool, eps: bool) -> ChrfExtract {
        ChrfExtract {
            score: ChrfScoreOpts::new(nc, nw, beta, eps),
            lowercase: lc,
            whitespace: ws,
        }
    }

    /// The definition, with Counters of owned strings (SacreBLEU's helpers).
    fn naive_triples(h: &[String], r: &[String], max_order: usize, joiner: &str) -> Vec<i64> {
        let grams = |t: &[String], n: usize| {
            let mut m: HashMap<String, i64> = HashMap::new();
            if t.len() >= n {
                for i in 0..=(t.len() - n) {
                    *m.entry(t[i..i + n].join(joiner)).or_default() += 1;
                }
            }
            m
        };
        let mut out = Vec::new();
        for n in 1..=max_order {
            let (hg, rg) = (grams(h, n), grams(r, n));
            let mut m = 0;
            let mut hc = 0;
            for (g, c) in &hg {
                hc += c;
                if let Some(rc) = rg.get(g) {
                    m += (*c).min(*rc);
                }
            }
            out.extend([if rg.is_empty() { 0 } else { hc }, rg.values().sum(), m]);
        }
        out
    }

    fn naive_row(c: &ChrfExtract, hyp: &str, refs: &[&str]) -> Vec<i64> {
        let prep = |s: &str| {
            let t = if c.lowercase {
                py_lower(s)
            } else {
                s.to_string()
            };
            let chars: Vec<String> = t
                .chars()
                .filter(|&ch| c.whitespace || !py_is_space(ch))
                .map(|ch| ch.to_string())
                .collect();
            let words: Vec<String> = remove_punctuation(&t)
                .into_iter()
                .map(String::from)
                .collect();
            (chars, words)
        };
        let (hc, hw) = prep(hyp);
        let mut best = -1.0;
        let mut best_row = vec![];
        for r in refs {
            let (rc, rw) = prep(r);
            let mut row = naive_triples(&hc, &rc, c.score.char_order, "");
            row.extend(naive_triples(&hw, &rw, c.score.word_order, " "));
            let f = f_score(&row, &c.score);
            if f > best {
                best = f;
                best_row = row;
            }
        }
        best_row
    }

    fn row(c: &ChrfExtract, hyp: &str, refs: &[&str]) -> Vec<i64> {
        let prepared = PreparedRefs::new(c, vec![refs.iter().map(|s| s.to_string()).collect()], 1);
        extract(c, &[hyp.to_string()], &prepared, 1).unwrap()
    }

    #[test]
    fn punctuation_split_follows_sacrebleu() {
        assert_eq!(
            remove_punctuation("(hi) a . x! ,y ok"),
            vec!["(hi", ")", "a", ".", "x", "!", ",", "y", "ok"]
        );
        assert_eq!(remove_punctuation("é! ¿q"), vec!["é", "!", "¿q"]);
        assert_eq!(remove_punctuation("..."), vec!["..", "."]);
    }

    #[test]
    fn identical_scores_100() {
        let c = cfg(6, 2, 2.0, false, false, false);
        let r = row(&c, "The cat sat.", &["The cat sat."]);
        assert_eq!(r, naive_row(&c, "The cat sat.", &["The cat sat."]));
        assert!((f_score(&r, &c.score) - 100.0).abs() < 1e-12);
    }

    #[test]
    fn empty_hypothesis_and_reference() {
        let c = cfg(6, 2, 2.0, false, false, false);
        assert_eq!(row(&c, "", &["a b"]), naive_row(&c, "", &["a b"]));
        assert_eq!(row(&c, "a b", &[""]), vec![0; 24]);
        assert_eq!(f_score(&[0; 24], &c.score), 0.0);
    }

    #[test]
    fn best_reference_ties_go_to_first() {
        // Unigrams, beta 1: "a" gives P=0.5 R=1, "abxx" gives P=1 R=0.5: equal F, other rows.
        let c = cfg(1, 0, 1.0, false, false, false);
        assert_eq!(row(&c, "ab", &["a", "abxx"]), vec![2, 1, 1]);
        assert_eq!(row(&c, "ab", &["abxx", "a"]), vec![2, 4, 2]);
        // A strictly better later reference wins.
        assert_eq!(row(&c, "ab", &["x", "ab"]), vec![2, 2, 2]);
    }

    #[test]
    fn long_segments_use_wide_slots() {
        // 70,000 characters: hypothesis counts no longer fit in u16.
        let c = cfg(6, 2, 2.0, false, false, false);
        let hyp: String = (0..70_000)
            .map(|i| ["ab", "b a", "c", "ab."][i % 4])
            .collect();
        let rf: String = (0..9_000).map(|i| ["ab", "c", "a b"][i % 3]).collect();
        assert_eq!(row(&c, &hyp, &[&rf]), naive_row(&c, &hyp, &[&rf]));
        // Reference counts beyond u16 (they saturate once past the hypothesis count).
        let hyp = "a".repeat(10);
        let rf = "a".repeat(70_000);
        let r = row(&c, &hyp, &[&rf]);
        assert_eq!(&r[..3], &[10, 70_000, 10]);
        assert_eq!(r, naive_row(&c, &hyp, &[&rf]));
    }

    #[test]
    fn many_distinct_symbols() {
        // Thousands of distinct characters (dense ids, key packing).
        let c = cfg(6, 0, 2.0, false, true, false);
        let hyp: String = (0..6_000u32)
            .filter_map(|i| char::from_u32(0x4e00 + (i * 7) % 5_000))
            .collect();
        let rf: String = (0..6_000u32)
            .filter_map(|i| char::from_u32(0x4e00 + (i * 11) % 5_000))
            .collect();
        assert_eq!(
            row(&c, &hyp, &[&rf, &hyp]),
            naive_row(&c, &hyp, &[&rf, &hyp])
        );
    }

    #[test]
    fn many_distinct_short_words() {
        // More distinct words than the word table first expects (it grows), and a long
        // repetitive segment (packed keys, table grown to its distinct n-grams).
        let c = cfg(6, 2, 2.0, false, false, false);
        let hyp: String = (0..3_000).map(|i| format!("{} ", i % 1_500)).collect();
        let rf: String = (0..2_000)
            .map(|i| format!("{} ", (i * 7) % 1_700))
            .collect();
        assert_eq!(row(&c, &hyp, &[&rf]), naive_row(&c, &hyp, &[&rf]));
        let hyp = "the cat sat on the mat . ".repeat(4_000);
        let rf = hyp.replace("mat", "hat");
        assert_eq!(row(&c, &hyp, &[&rf, "x"]), naive_row(&c, &hyp, &[&rf, "x"]));
    }

    #[test]
    fn scratch_is_reset_between_segments() {
        let c = cfg(4, 2, 2.0, true, false, false);
        let hyps: Vec<String> = ["a b c d", "", "x", "Ab cd. ab", "éé é", "a b c d"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let refs: Vec<Vec<String>> = ["a b", "q", "", "ab cd", "é", "d c b a"]
            .iter()
            .map(|s| vec![s.to_string()])
            .collect();
        let p = PreparedRefs::new(&c, refs.clone(), 1);
        let rows = extract(&c, &hyps, &p, 1).unwrap();
        for (i, h) in hyps.iter().enumerate() {
            let r: Vec<&str> = refs[i].iter().map(String::as_str).collect();
            assert_eq!(
                &rows[i * c.width()..(i + 1) * c.width()],
                naive_row(&c, h, &r).as_slice()
            );
        }
    }

    #[test]
    fn f_score_matches_python_values() {
        // Values printed by SacreBLEU 2.6 (CHRF()._compute_f_score).
        let o = ChrfScoreOpts::new(6, 0, 2.0, false);
        let stats = [
            98, 105, 84, 97, 104, 59, 96, 103, 48, 95, 102, 42, 94, 101, 36, 93, 100, 31,
        ];
        assert_eq!(f_score(&stats, &o), 49.19405977395072);
    }

    thread_local! {
        pub(super) static FORCE_MODE: std::cell::Cell<Option<Mode>> = const { std::cell::Cell::new(None) };
    }

    proptest::proptest! {
        #[test]
        fn prop_words_and_shared_refs_agree_with_definition(
            hyps in proptest::collection::vec("([aé猫Ab .!(,]|xxxxxxxxxxxxxxxxxxxx){0,12}", 1..4),
            pool in proptest::collection::vec("([aé猫Ab .!),\t]|xxxxxxxxxxxxxxxxxxxx){0,12}", 1..4),
            picks in proptest::collection::vec(0usize..16, 1..12),
            nc in 0usize..7,
            nw in 0usize..4,
            lc in proptest::bool::ANY,
            ws in proptest::bool::ANY,
        ) {
            proptest::prop_assume!(nc + nw > 0);
            let c = cfg(nc, nw, 2.0, lc, ws, false);
            // Segment i's references: pool texts picked (with repeats) from `picks`.
            let n = hyps.len();
            let texts: Vec<&str> = pool.iter().map(String::as_str).collect();
            let mut starts = vec![0];
            let mut items = Vec::new();
            for i in 0..n {
                let k = 1 + picks[i % picks.len()] % 3;
                for j in 0..k {
                    items.push(((picks[(i + j) % picks.len()] + j) % texts.len()) as u32);
                }
                starts.push(items.len());
            }
            let p = PreparedRefs::from_strs(&c, &texts, starts.clone(), items.clone(), 1);
            let rows = extract(&c, &hyps, &p, 1).unwrap();
            let scores = sentence_scores_block(&c, &hyps, &p, 0, 1).unwrap();
            for i in 0..n {
                let refs: Vec<&str> =
                    items[starts[i]..starts[i + 1]].iter().map(|&j| texts[j as usize]).collect();
                let want = naive_row(&c, &hyps[i], &refs);
                proptest::prop_assert_eq!(&rows[i * c.width()..(i + 1) * c.width()], want.as_slice());
                proptest::prop_assert_eq!(scores[i].to_bits(), f_score(&want, &c.score).to_bits());
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn prop_agrees_with_definition(
            hyp in "[abc .,!(]{0,14}",
            refs in proptest::collection::vec("[abcA .,!)]{0,14}", 1..4),
            nc in 0usize..5,
            nw in 0usize..3,
            lc in proptest::bool::ANY,
            ws in proptest::bool::ANY,
            eps in proptest::bool::ANY,
            beta in 0u8..4,
            mode in 0usize..4,
        ) {
            proptest::prop_assume!(nc + nw > 0);
            let c = cfg(nc, nw, f64::from(beta), lc, ws, eps);
            let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
            let mode = [Mode::Packed, Mode::Direct, Mode::Small, Mode::Large][mode];
            FORCE_MODE.with(|f| f.set(Some(mode)));
            let got = row(&c, &hyp, &refs);
            FORCE_MODE.with(|f| f.set(None));
            proptest::prop_assert_eq!(got, naive_row(&c, &hyp, &refs));
        }
    }
}
