"""Word-level statistics of a report: clipped n-gram matches against one reference stream.

The core (``_core.report_word_stats``) tokenizes every corpus as BLEU does (the reference
stream first, then each system), gives tokens ids in order of first appearance, and counts
clipped matches per (segment, reference n-gram) in hash tables, all systems in parallel.
Reference n-gram types come in the lexicographic order of their token ids. Tokenizers that
run in Python (MeCab, SentencePiece) tokenize here first; the core then only splits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from .. import _core
from .._workers import resolve_workers
from ..tokenizers import BaseTokenizer, is_rust_tokenizer

IntArray = npt.NDArray[np.int64]


@dataclass
class OrderMatches:
    """Clipped matches of one n-gram order.

    Attributes
    ----------
    ref_ngrams
        The distinct reference n-grams: token ids for order 1, else their rank (n-grams are
        sorted by their token ids).
    ref_counts
        How often each occurs in the reference stream.
    matched
        Per system, clipped matches of each reference n-gram (aligned with ``ref_ngrams``).
    first
        Per reference n-gram, the position of one occurrence in the reference token array.
    """

    ref_ngrams: IntArray
    ref_counts: IntArray
    matched: list[IntArray]
    first: IntArray


@dataclass
class WordStats:
    """Tokens of the reference stream and of every system, and their n-gram matches.

    Attributes
    ----------
    vocab
        Token strings by id.
    ref_ids
        The reference stream's token ids, flat.
    seg_matched, seg_hyp_len, seg_ref_len
        Per system (first two) and for the reference (third): unigram matches and token
        counts per segment.
    hyp_word_ids
        Per system, flat token ids of its hypotheses.
    orders
        One :class:`OrderMatches` per n-gram order, 1 first.
    """

    vocab: list[str]
    ref_ids: IntArray
    seg_matched: list[IntArray]
    seg_hyp_len: list[IntArray]
    seg_ref_len: IntArray
    hyp_word_ids: list[IntArray]
    orders: list[OrderMatches] = field(default_factory=list)
    #: Start of each segment in ``ref_ids`` (key -1) or a system's ids, computed on demand.
    _starts: dict[int, IntArray] = field(default_factory=dict, repr=False, compare=False)

    def ngram_text(self, order: int, index: int) -> str:
        """Return reference n-gram ``index`` of ``order`` (1-based) as text."""
        start = int(self.orders[order - 1].first[index])
        return " ".join(self.vocab[int(t)] for t in self.ref_ids[start : start + order])

    def ref_tokens(self, seg: int) -> list[str]:
        """Return the tokens of reference segment ``seg``."""
        return [self.vocab[int(t)] for t in self.seg_ids(-1, seg)]

    def sys_tokens(self, system: int, seg: int) -> list[str]:
        """Return the tokens of segment ``seg`` of system ``system`` (0-based)."""
        return [self.vocab[int(t)] for t in self.seg_ids(system, seg)]

    def seg_ids(self, system: int, seg: int) -> IntArray:
        """Token ids of segment ``seg`` of ``system`` (-1: the reference stream)."""
        ids, lens = (
            (self.ref_ids, self.seg_ref_len)
            if system < 0
            else (self.hyp_word_ids[system], self.seg_hyp_len[system])
        )
        starts = self._starts.get(system)
        if starts is None:
            # Once per stream: summing the lengths before each segment asked for was
            # quadratic when many segments are looked at (duplicates in the top examples).
            starts = self._starts[system] = np.concatenate(([0], np.cumsum(lens)))
        return ids[int(starts[seg]) : int(starts[seg + 1])]


def tokenize_lines(
    lines: Sequence[str], tokenizer: Callable[[str], str], lowercase: bool
) -> list[str]:
    """Tokenize lines as BLEU does (lowercase, tokenizer): space-separated tokens per line."""
    return [tokenizer(line.lower() if lowercase else line) for line in lines]


def word_stats(
    ref_lines: Sequence[str],
    sys_lines: Sequence[Sequence[str]],
    tokenizer: Callable[[str], str],
    lowercase: bool,
    max_order: int,
    workers: int | None = None,
) -> WordStats:
    """Count clipped n-gram matches (orders 1..``max_order``) of every system.

    Parameters
    ----------
    ref_lines
        The reference stream, one line per segment.
    sys_lines
        Each system's lines (as many as ``ref_lines``).
    tokenizer, lowercase
        BLEU's tokenizer and lowercasing (``Metric.word_tokenization()``).
    max_order
        Longest n-gram.
    workers
        Threads (``parbleu``'s ``workers`` convention).

    Returns
    -------
    WordStats
        Matches and counts.
    """
    corpora = [list(ref_lines), *(list(s) for s in sys_lines)]
    if isinstance(tokenizer, BaseTokenizer) and is_rust_tokenizer(tokenizer):
        name, lower = tokenizer.signature(), lowercase
    else:
        # Python-side tokenizers run here; the core then splits their output on whitespace.
        corpora = [tokenize_lines(c, tokenizer, lowercase) for c in corpora]
        name, lower = "none", False
    n_seg = len(corpora[0])
    w = resolve_workers(workers, n_seg * len(corpora))
    vocab, ids_b, lens_b, matched_b, orders_b = _core.report_word_stats(
        corpora, name, lower, max_order, w
    )
    n_sys = len(corpora) - 1
    ids = np.frombuffer(ids_b, dtype=np.int64)
    lens = np.frombuffer(lens_b, dtype=np.int64).reshape(n_sys + 1, n_seg)
    ends = np.cumsum(lens.sum(axis=1)).tolist()
    parts = [ids[a:b] for a, b in zip([0, *ends[:-1]], ends)]
    seg_matched = np.frombuffer(matched_b, dtype=np.int64).reshape(n_sys, n_seg)
    orders = []
    for k, (first_b, counts_b, m_b) in enumerate(orders_b):
        first = np.frombuffer(first_b, dtype=np.int64)
        types = len(first)
        matched = np.frombuffer(m_b, dtype=np.int64).reshape(n_sys, types)
        orders.append(
            OrderMatches(
                ref_ngrams=parts[0][first] if k == 0 else np.arange(types, dtype=np.int64),
                ref_counts=np.frombuffer(counts_b, dtype=np.int64),
                matched=list(matched),
                first=first,
            )
        )
    return WordStats(
        vocab=vocab,
        ref_ids=parts[0],
        seg_matched=list(seg_matched),
        seg_hyp_len=list(lens[1:]),
        seg_ref_len=lens[0],
        hyp_word_ids=parts[1:],
        orders=orders,
    )


def highlight(hyp: Sequence[str], ref_ngrams: set[tuple[str, ...]], max_order: int) -> list[int]:
    """For each hypothesis token, the longest n-gram covering it that occurs in the reference.

    Parameters
    ----------
    hyp
        Hypothesis tokens.
    ref_ngrams
        The reference's n-grams (orders 1..``max_order``).
    max_order
        Longest n-gram.

    Returns
    -------
    list of int
        0 (no match) to ``max_order``, per token.
    """
    level = [0] * len(hyp)
    for n in range(1, max_order + 1):
        for j in range(len(hyp) - n + 1):
            if tuple(hyp[j : j + n]) in ref_ngrams:
                for k in range(j, j + n):
                    level[k] = n
    return level


def ngram_set(tokens: Sequence[str], max_order: int) -> set[tuple[str, ...]]:
    """All n-grams of ``tokens`` of orders 1..``max_order``."""
    return {
        tuple(tokens[j : j + n])
        for n in range(1, max_order + 1)
        for j in range(len(tokens) - n + 1)
    }
