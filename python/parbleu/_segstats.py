"""Per-segment n-gram statistics of raw lines from the core, for BLEU-like arithmetic in Python.

Below both the flavors (``parbleu.flavors._common`` re-exports it) and the caption metrics
(COCO's BLEU, :mod:`parbleu.metrics.caption.bleu`), so that neither imports the other's package.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from . import _core
from ._options import check_order
from ._workers import resolve_workers

__all__ = ["I64", "SegStats", "closest_ref_lens", "decode_stats", "line_stats", "shortest_ref_lens"]

I64 = npt.NDArray[np.int64]

#: ``(tokenizer, case, split)`` names understood by the core (see ``parbleu.flavors._common``).
Prep = tuple[str, str, str]


@dataclass(frozen=True)
class SegStats:
    """Per-segment n-gram statistics of a corpus.

    Attributes
    ----------
    max_order
        Highest n-gram order counted.
    matches, totals
        ``(n_segments, max_order)`` int64: clipped matches, hypothesis n-grams.
    hyp_lens
        Hypothesis lengths.
    ref_lens, ref_offsets
        Lengths of every reference, concatenated; segment ``i`` has
        ``ref_lens[ref_offsets[i]:ref_offsets[i + 1]]``.
    """

    max_order: int
    matches: I64
    totals: I64
    hyp_lens: I64
    ref_lens: I64
    ref_offsets: I64

    def __len__(self) -> int:
        return int(self.hyp_lens.shape[0])

    def refs_of(self, i: int) -> list[int]:
        """Return the reference lengths of segment ``i``."""
        return [int(x) for x in self.ref_lens[self.ref_offsets[i] : self.ref_offsets[i + 1]]]

    def corpus_counts(self, max_order: int) -> tuple[list[int], list[int], int]:
        """Return the corpus's matches and totals per order, and its hypothesis length.

        An empty corpus has ``max_order`` zeros of each (the originals' sums of nothing).
        """
        if not len(self):
            return [0] * max_order, [0] * max_order, 0
        matches = [int(x) for x in self.matches.sum(axis=0)]
        return matches, [int(x) for x in self.totals.sum(axis=0)], int(self.hyp_lens.sum())

    def ref_len_lists(self) -> list[list[int]]:
        """Return the reference lengths of every segment."""
        flat = self.ref_lens.tolist()
        off = self.ref_offsets.tolist()
        return [flat[off[i] : off[i + 1]] for i in range(len(off) - 1)]


def decode_stats(raw: tuple[bytes, bytes, bytes, bytes, bytes], max_order: int) -> SegStats:
    """Return the :class:`SegStats` of the core's five little-endian int64 buffers."""
    m, t, h, rl, ro = (np.frombuffer(b, dtype="<i8").astype(np.int64) for b in raw)
    n = h.shape[0]
    return SegStats(max_order, m.reshape(n, max_order), t.reshape(n, max_order), h, rl, ro)


def line_stats(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str]],
    hyp_prep: Prep,
    ref_prep: Prep,
    max_order: int,
    workers: int | None = None,
) -> SegStats:
    """Statistics of raw lines, each side prepared by the core as ``hyp_prep``/``ref_prep`` say."""
    max_order = check_order("max_order", max_order, minimum=0)
    w = resolve_workers(workers, len(hyps))
    raw = _core.flavor_line_stats(hyps, refs, hyp_prep, ref_prep, max_order, w)
    return decode_stats(raw, max_order)


def closest_ref_lens(st: SegStats, ties: str = "shorter") -> I64:
    """Per segment, the reference length closest to the hypothesis length.

    ``ties="shorter"`` keeps the shorter of two equally close lengths (SacreBLEU, NLTK, Moses,
    mteval, COCO); ``ties="first"`` keeps the first in reference order (torchmetrics). Every
    segment must have at least one reference.
    """
    counts = np.diff(st.ref_offsets)
    if len(st) == 0:
        return np.zeros(0, dtype=np.int64)
    hyp = np.repeat(st.hyp_lens, counts)
    diff = np.abs(st.ref_lens - hyp)
    shift = np.int64(1) << np.int64(32)
    starts = st.ref_offsets[:-1]
    if ties == "shorter":
        best = np.minimum.reduceat(diff * shift + st.ref_lens, starts)
        return np.asarray(best % shift, dtype=np.int64)
    local = np.arange(st.ref_lens.shape[0], dtype=np.int64) - np.repeat(starts, counts)
    best = np.minimum.reduceat(diff * shift + local, starts)
    return np.asarray(st.ref_lens[starts + best % shift], dtype=np.int64)


def shortest_ref_lens(st: SegStats) -> I64:
    """Per segment, the shortest reference length (every segment needs a reference)."""
    if len(st) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.asarray(np.minimum.reduceat(st.ref_lens, st.ref_offsets[:-1]), dtype=np.int64)
