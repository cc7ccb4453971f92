//! Where each path of the beam keeps its test words in use: inside the path for lines of up to
//! `64 * W` words, in pools (one per generation) beyond.

use super::{Cand, Path};

/// The test words in use of every path of the beam, in one generation (the parents) and the
/// next (their children). `H` is what a path holds: the bits themselves, or their place in a
/// pool for long lines.
pub(super) trait Store: Default {
    type H: Copy;
    /// Start a search of a test line of `n1` words: one handle, nothing in use.
    fn reset(&mut self, n1: usize) -> Self::H;
    /// Mark test word `x` in use in the root handle (the certain matches).
    fn set_root(&mut self, h: &mut Self::H, x: usize);
    fn get(&self, h: Self::H, x: usize) -> bool;
    /// A copy of a parent's words for a child.
    fn fork(&mut self, h: Self::H) -> Self::H;
    /// Mark test word `x` in use in a child's handle.
    fn set(&mut self, h: &mut Self::H, x: usize);
    /// The children become the parents.
    fn advance(&mut self);
    /// Word `k` of a parent's bits, and or-ing `bits` into word `k` of a child's.
    fn word(&self, h: Self::H, k: usize) -> u64;
    fn or_word(&mut self, h: &mut Self::H, k: usize, bits: u64);
    /// Whether none of `c`'s test words is in use in a parent.
    #[inline]
    fn free(&self, h: Self::H, c: &Cand) -> bool {
        if c.long {
            return (c.i..c.end).all(|x| !self.get(h, x as usize));
        }
        let k = c.word as usize;
        self.word(h, k) & c.mask == 0 && (c.spill == 0 || self.word(h, k + 1) & c.spill == 0)
    }
    /// Mark `c`'s test words in use in a child.
    #[inline]
    fn mark(&mut self, h: &mut Self::H, c: &Cand) {
        if c.long {
            (c.i..c.end).for_each(|x| self.set(h, x as usize));
            return;
        }
        self.or_word(h, c.word as usize, c.mask);
        if c.spill != 0 {
            self.or_word(h, c.word as usize + 1, c.spill);
        }
    }
    fn paths(&mut self) -> &mut Bufs<Self::H>;
}

/// The beam and the children of one step, and a spare for reordering.
pub(super) struct Bufs<H> {
    pub paths: Vec<Path<H>>,
    pub next: Vec<Path<H>>,
    pub spare: Vec<Path<H>>,
}

impl<H> Default for Bufs<H> {
    fn default() -> Self {
        Self {
            paths: Vec::new(),
            next: Vec::new(),
            spare: Vec::new(),
        }
    }
}

/// Bits inside the path: up to `64 * W` test words.
#[derive(Default)]
pub(super) struct Inline<const W: usize> {
    bufs: Bufs<[u64; W]>,
}

impl<const W: usize> Store for Inline<W> {
    type H = [u64; W];
    fn reset(&mut self, _: usize) -> [u64; W] {
        [0; W]
    }
    fn set_root(&mut self, h: &mut [u64; W], x: usize) {
        h[x / 64] |= 1 << (x % 64);
    }
    #[inline]
    fn get(&self, h: [u64; W], x: usize) -> bool {
        h[x / 64] >> (x % 64) & 1 == 1
    }
    #[inline]
    fn fork(&mut self, h: [u64; W]) -> [u64; W] {
        h
    }
    #[inline]
    fn set(&mut self, h: &mut [u64; W], x: usize) {
        h[x / 64] |= 1 << (x % 64);
    }
    fn advance(&mut self) {}
    #[inline]
    fn word(&self, h: [u64; W], k: usize) -> u64 {
        h[k]
    }
    #[inline]
    fn or_word(&mut self, h: &mut [u64; W], k: usize, bits: u64) {
        h[k] |= bits;
    }
    fn paths(&mut self) -> &mut Bufs<[u64; W]> {
        &mut self.bufs
    }
}

/// Bits in pools, `words` u64s per path: any length.
#[derive(Default)]
pub(super) struct Pooled {
    words: usize,
    cur: Vec<u64>,
    next: Vec<u64>,
    bufs: Bufs<u32>,
}

impl Store for Pooled {
    type H = u32;
    fn reset(&mut self, n1: usize) -> u32 {
        self.words = n1.div_ceil(64).max(1);
        self.cur.clear();
        self.cur.resize(self.words, 0);
        self.next.clear();
        0
    }
    fn set_root(&mut self, h: &mut u32, x: usize) {
        self.cur[*h as usize + x / 64] |= 1 << (x % 64);
    }
    fn get(&self, h: u32, x: usize) -> bool {
        self.cur[h as usize + x / 64] >> (x % 64) & 1 == 1
    }
    fn fork(&mut self, h: u32) -> u32 {
        let new = self.next.len() as u32;
        let at = h as usize;
        self.next.extend_from_slice(&self.cur[at..at + self.words]);
        new
    }
    fn set(&mut self, h: &mut u32, x: usize) {
        self.next[*h as usize + x / 64] |= 1 << (x % 64);
    }
    fn advance(&mut self) {
        std::mem::swap(&mut self.cur, &mut self.next);
        self.next.clear();
    }
    fn word(&self, h: u32, k: usize) -> u64 {
        self.cur[h as usize + k]
    }
    fn or_word(&mut self, h: &mut u32, k: usize, bits: u64) {
        self.next[*h as usize + k] |= bits;
    }
    fn paths(&mut self) -> &mut Bufs<u32> {
        &mut self.bufs
    }
}
