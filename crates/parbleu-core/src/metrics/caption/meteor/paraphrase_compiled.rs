//! The parsed table as bytes, to be saved once and loaded fast: little-endian u32 arrays as
//! the table holds them, behind a header (magic, format, the caller's key naming the source
//! file) and followed by a checksum. Loading checks everything a lookup relies on, so a
//! damaged or stale file is refused with an error, never a wrong lookup or a panic.

use super::{bad, Table, NONE};
use crate::Error;

/// The layout's version: change it with the layout, or with what parsing produces.
pub const FORMAT: u32 = 3;
const MAGIC: &[u8; 8] = b"PBMTPARA";
const WHAT: &str = "compiled paraphrase table";

/// A fast 64-bit checksum: four lanes, each step a bijection of the lane, so any one changed
/// 8-byte word changes the result.
pub(super) fn checksum(b: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mix = |h: u64, x: u64| (h ^ x).wrapping_mul(K).rotate_left(31);
    let mut h = [1u64, 2, 3, 4];
    let mut chunks = b.chunks_exact(32);
    for c in &mut chunks {
        for (lane, w) in h.iter_mut().zip(c.chunks_exact(8)) {
            *lane = mix(*lane, u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
    }
    let mut tail = [0u8; 32];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    for (lane, w) in h.iter_mut().zip(tail.chunks_exact(8)) {
        *lane = mix(*lane, u64::from_le_bytes(w.try_into().expect("8 bytes")));
    }
    h.iter().fold(b.len() as u64, |acc, &x| mix(acc, x))
}

fn put(out: &mut Vec<u8>, x: u32) {
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put(out, b.len() as u32);
    out.extend_from_slice(b);
    out.resize(out.len().next_multiple_of(4), 0);
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        let end = end.ok_or_else(|| bad(WHAT, "truncated".into()))?;
        let s = &self.b[self.at..end];
        self.at = end.next_multiple_of(4);
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, Error> {
        let b = self.bytes(4)?;
        Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
    }

    fn sized(&mut self) -> Result<&'a [u8], Error> {
        let n = self.u32()? as usize;
        self.bytes(n)
    }

    fn array(&mut self) -> Result<Vec<u32>, Error> {
        let n = self.u32()? as usize;
        let b = self.bytes(
            n.checked_mul(4)
                .ok_or_else(|| bad(WHAT, "truncated".into()))?,
        )?;
        Ok(b.chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes")))
            .collect())
    }
}

/// Whether `x` never decreases (a loop without early exit, which compilers vectorise).
fn ascending(x: &[u32]) -> bool {
    x.windows(2).fold(true, |ok, w| ok & (w[0] <= w[1]))
}

/// Whether `off` is a CSR offset list over `items` for `nodes` nodes, items naming nodes.
fn csr_ok(off: &[u32], items: &[u32], nodes: usize) -> bool {
    if nodes == 0 {
        return off.is_empty() && items.is_empty();
    }
    off.len() == nodes + 1
        && off[0] == 0
        && ascending(off)
        && off[nodes] as usize == items.len()
        && (items.iter().fold(0, |m, &x| m.max(x)) as usize) < nodes
}

impl Table {
    /// The table as bytes for [`Table::from_compiled`], labelled with `key` (which names the
    /// source file: a different key on load means a stale file).
    pub fn compiled(&self, key: &str) -> Vec<u8> {
        let arrays = self.arrays();
        let words: usize = arrays.iter().map(|a| a.len() + 1).sum();
        let mut out = Vec::with_capacity(64 + key.len() + self.text.len() + 4 * words);
        out.extend_from_slice(MAGIC);
        put(&mut out, FORMAT);
        put_bytes(&mut out, key.as_bytes());
        put_bytes(&mut out, &self.text);
        for a in arrays {
            put(&mut out, a.len() as u32);
            for &x in a {
                put(&mut out, x);
            }
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    fn arrays(&self) -> [&Vec<u32>; 7] {
        [
            &self.ends,
            &self.node_word,
            &self.first_child,
            &self.emit_offsets,
            &self.emit_sorted,
            &self.emit_rank,
            &self.paired,
        ]
    }

    /// The table [`Table::compiled`] saved with the same `key`; an error if the bytes are
    /// damaged, of another format or for another key.
    pub fn from_compiled(data: &[u8], key: &str) -> Result<Self, Error> {
        let mut r = Reader { b: data, at: 0 };
        if r.bytes(8)? != MAGIC {
            return Err(bad(WHAT, "not a compiled paraphrase table".into()));
        }
        let format = r.u32()?;
        if format != FORMAT {
            return Err(bad(WHAT, format!("format {format}, not {FORMAT}")));
        }
        if r.sized()? != key.as_bytes() {
            return Err(bad(WHAT, "made from another file".into()));
        }
        let body = data.len().checked_sub(8).filter(|&n| n >= r.at);
        let body = body.ok_or_else(|| bad(WHAT, "truncated".into()))?;
        let (head, sum) = data.split_at(body);
        let want = u64::from_le_bytes(sum.try_into().expect("8 bytes"));
        r.b = head;
        // The checksum on a thread of its own while the arrays are built and checked: both
        // walk the whole file (the table is not used unless the checksum is right).
        let (ok, table) = std::thread::scope(|s| {
            let sum = s.spawn(|| checksum(head) == want);
            let table = Self::build(&mut r);
            (sum.join().unwrap_or(false), table)
        });
        if !ok {
            return Err(bad(WHAT, "checksum mismatch".into()));
        }
        table
    }

    /// The arrays after the header, checked, and what derives from them.
    fn build(r: &mut Reader) -> Result<Self, Error> {
        let mut t = Table {
            text: r.sized()?.to_vec(),
            ends: r.array()?,
            node_word: r.array()?,
            first_child: r.array()?,
            emit_offsets: r.array()?,
            emit_sorted: r.array()?,
            emit_rank: r.array()?,
            paired: r.array()?,
            ..Table::default()
        };
        if r.at != r.b.len() {
            return Err(bad(WHAT, "trailing bytes".into()));
        }
        t.check()?;
        t.derive();
        Ok(t)
    }

    /// Check what lookups rely on not to fail: bounds, sorted words, and children after
    /// their parent (so that the nodes are breadth first). The checksum answers for the rest.
    fn check(&self) -> Result<(), Error> {
        let fail = |why: &str| Err(bad(WHAT, why.into()));
        let (words, nodes) = (self.ends.len(), self.node_word.len());
        if !(ascending(&self.ends)
            && self.ends.last().map_or(0, |&e| e as usize) == self.text.len())
        {
            return fail("bad word ends");
        }
        if !(1..words).all(|i| self.word_at(i - 1) < self.word_at(i)) {
            return fail("words not sorted");
        }
        if nodes == 0 {
            let empty = self.arrays().iter().all(|a| a.is_empty());
            return if empty { Ok(()) } else { fail("no trie") };
        }
        let fc = &self.first_child;
        // The length first: a damaged file may give fewer entries than nodes.
        if fc.len() != nodes + 1 {
            return fail("bad trie");
        }
        let after = fc[..nodes]
            .iter()
            .zip(0u32..)
            .fold(true, |ok, (&c, n)| ok & (c > n));
        if self.node_word[0] != NONE
            || self.node_word[1..]
                .iter()
                .max()
                .is_some_and(|&w| w as usize >= words)
            || fc[0] != 1
            || fc[nodes] as usize != nodes
            || !ascending(fc)
            || !after
        {
            return fail("bad trie");
        }
        if !csr_ok(&self.emit_offsets, &self.emit_sorted, nodes)
            || self.emit_rank.len() != self.emit_sorted.len()
        {
            return fail("bad paraphrase lists");
        }
        // Each rank within its list (`derive` puts the list back in record order by them).
        let ranks_fit = self.emit_offsets.windows(2).fold(true, |ok, w| {
            let r = &self.emit_rank[w[0] as usize..w[1] as usize];
            ok & r.iter().fold(true, |ok, &x| ok & (x < w[1] - w[0]))
        });
        if !ranks_fit {
            return fail("bad paraphrase ranks");
        }
        Ok(())
    }
}
