"""Word-level statistics of a report: clipped n-gram matches against one reference stream.

Every corpus (the reference stream first, then each system) is turned into one array of token
ids; n-grams get dense ids order by order (an n-gram's id is built from its (n-1)-gram prefix's
id and its last token, so no key ever overflows), and clipped matches are counted per
(segment, n-gram) pair with sorted-array joins. Nothing loops over tokens in Python after the
token ids are assigned, which keeps a 20-system report fast.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass
class OrderMatches:
    """Clipped matches of one n-gram order.

    Attributes
    ----------
    ref_ngrams
        The distinct reference n-grams (dense ids of this order), sorted.
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
    ref_tokens, sys_tokens
        Token lists per segment (``sys_tokens[s][i]``).
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
    ref_tokens: list[list[str]]
    sys_tokens: list[list[list[str]]]
    ref_ids: IntArray
    seg_matched: list[IntArray]
    seg_hyp_len: list[IntArray]
    seg_ref_len: IntArray
    hyp_word_ids: list[IntArray]
    orders: list[OrderMatches] = field(default_factory=list)

    def ngram_text(self, order: int, index: int) -> str:
        """Return reference n-gram ``index`` of ``order`` (1-based) as text."""
        start = int(self.orders[order - 1].first[index])
        return " ".join(self.vocab[int(t)] for t in self.ref_ids[start : start + order])


def tokenize_lines(
    lines: Sequence[str], tokenizer: Callable[[str], str], lowercase: bool
) -> list[list[str]]:
    """Split lines into tokens as BLEU does (lowercase, tokenizer, whitespace split)."""
    return [tokenizer(line.lower() if lowercase else line).split() for line in lines]


def _flatten(
    corpora: list[list[list[str]]],
) -> tuple[list[str], IntArray, IntArray, IntArray, IntArray, IntArray]:
    """Vocabulary; token id, corpus, segment, position and segment length of every token."""
    # C-level passes (chain, dict.fromkeys, map): a Python loop over tokens costs 4x more.
    flat = list(chain.from_iterable(chain.from_iterable(corpora)))
    vocab = list(dict.fromkeys(flat))
    ids = {w: i for i, w in enumerate(vocab)}
    tok = np.fromiter(map(ids.__getitem__, flat), dtype=np.int64, count=len(flat))
    seg_len = np.fromiter(
        map(len, chain.from_iterable(corpora)), dtype=np.int64, count=sum(map(len, corpora))
    )
    n_seg = len(corpora[0])
    # Segment k of the concatenation is segment k % n_seg of corpus k // n_seg.
    seg_of = np.repeat(np.arange(len(seg_len), dtype=np.int64), seg_len)
    starts = np.concatenate(([0], np.cumsum(seg_len)[:-1])).astype(np.int64)
    pos = np.arange(len(tok), dtype=np.int64) - starts[seg_of]
    return vocab, tok, seg_of // n_seg, seg_of % n_seg, pos, seg_len[seg_of]


def word_stats(
    ref_tokens: list[list[str]], sys_tokens: list[list[list[str]]], max_order: int
) -> WordStats:
    """Count clipped n-gram matches (orders 1..``max_order``) of every system.

    Parameters
    ----------
    ref_tokens
        Tokens of the reference stream, per segment.
    sys_tokens
        Tokens of each system, per segment.
    max_order
        Longest n-gram.

    Returns
    -------
    WordStats
        Matches and counts.
    """
    vocab, tok, corpus, seg, pos, seg_len = _flatten([ref_tokens, *sys_tokens])
    n_seg = len(ref_tokens)
    n_sys = len(sys_tokens)
    # Corpora are contiguous in the flat arrays: corpus c is tok[bounds[c]:bounds[c + 1]].
    bounds = np.searchsorted(corpus, np.arange(n_sys + 2)).tolist()
    parts = [slice(bounds[c], bounds[c + 1]) for c in range(n_sys + 1)]
    stats = WordStats(
        vocab=vocab,
        ref_tokens=ref_tokens,
        sys_tokens=sys_tokens,
        ref_ids=tok[parts[0]],
        seg_matched=[],
        seg_hyp_len=[
            np.bincount(seg[parts[s + 1]], minlength=n_seg).astype(np.int64) for s in range(n_sys)
        ],
        seg_ref_len=np.bincount(seg[parts[0]], minlength=n_seg).astype(np.int64),
        hyp_word_ids=[tok[parts[s + 1]] for s in range(n_sys)],
    )
    gid = tok.copy()
    n_ids = len(vocab)
    for order in range(1, max_order + 1):
        valid = pos <= seg_len - order
        if order > 1:
            # An n-gram is its (n-1)-gram prefix and its last token: the prefix ids are dense
            # (below the token count), so the pair fits an int64 key.
            idx = np.flatnonzero(valid)
            keys = gid[idx] * len(vocab) + tok[idx + order - 1]
            uniq, inverse = np.unique(keys, return_inverse=True)
            gid = np.full(len(tok), -1, dtype=np.int64)
            gid[idx] = inverse.reshape(-1)
            n_ids = len(uniq)
        matches, per_seg = _order_matches(gid, valid, parts, seg, n_seg, n_ids)
        stats.orders.append(matches)
        if order == 1:
            stats.seg_matched = per_seg
    return stats


def _order_matches(
    gid: IntArray,
    valid: npt.NDArray[np.bool_],
    parts: list[slice],
    seg: IntArray,
    n_seg: int,
    n_ids: int,
) -> tuple[OrderMatches, list[IntArray]]:
    """Clipped matches of one order: per reference n-gram type, and per segment (unigrams)."""
    ref_mask = valid[parts[0]]
    ref_keys, ref_first, ref_cnt = np.unique(
        seg[parts[0]][ref_mask] * n_ids + gid[parts[0]][ref_mask],
        return_index=True,
        return_counts=True,
    )
    ref_pos = np.flatnonzero(ref_mask)[ref_first]
    types, type_first, type_inv = np.unique(
        ref_keys % n_ids, return_index=True, return_inverse=True
    )
    type_inv = type_inv.reshape(-1)
    type_counts = np.bincount(type_inv, weights=ref_cnt, minlength=len(types)).astype(np.int64)
    matched: list[IntArray] = []
    per_seg: list[IntArray] = []
    for part in parts[1:]:
        m = valid[part]
        hk, hc = np.unique(seg[part][m] * n_ids + gid[part][m], return_counts=True)
        at = np.searchsorted(ref_keys, hk)
        at_c = np.minimum(at, len(ref_keys) - 1)
        found = (at < len(ref_keys)) & (ref_keys[at_c] == hk) if len(ref_keys) else at < 0
        clipped = np.where(found, np.minimum(hc, ref_cnt[at_c] if len(ref_keys) else 0), 0)
        by_type = np.bincount(
            type_inv[at_c[found]] if len(ref_keys) else np.zeros(0, np.int64),
            weights=clipped[found],
            minlength=len(types),
        )
        matched.append(by_type.astype(np.int64))
        per_seg.append(np.bincount(hk // n_ids, weights=clipped, minlength=n_seg).astype(np.int64))
    # Position (in the flat reference array) of one occurrence of each reference n-gram type.
    first = ref_pos[type_first]
    return OrderMatches(types, type_counts, matched, first.astype(np.int64)), per_seg


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
