"""The bucket tables of a report: by reference length, word frequency, length difference."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..metrics import Metric
from . import _words
from ._numbers import json_number


def bucket_labels(edges: Sequence[int], zero: bool) -> list[str]:
    """Labels of the buckets ``[0, e0), [e0, e1), ..., [e_last, inf)``.

    Parameters
    ----------
    edges
        Increasing bucket starts.
    zero
        Whether the first bucket is ``0`` (counts) rather than ``<e0`` (lengths).

    Returns
    -------
    list of str
        One label per bucket.
    """
    labels = ["0" if zero and edges[0] == 1 else f"<{edges[0]}"]
    for a, b in zip(edges, edges[1:]):
        labels.append(str(a) if b == a + 1 else f"{a}-{b - 1}")
    labels.append(f">={edges[-1]}")
    return labels


def diff_labels(edges: Sequence[int]) -> list[str]:
    """Labels of the length-difference buckets ``(-inf, e0), [e0, e1), ..., [e_last, inf)``.

    Parameters
    ----------
    edges
        Increasing bucket starts (any integers).

    Returns
    -------
    list of str
        One label per bucket: ``<-20``, ``-20..-11``, ``-1``, ``+2``, ``>=+20``.
    """

    def signed(x: int) -> str:
        return f"+{x}" if x > 0 else str(x)

    labels = [f"<{signed(edges[0])}"]
    for a, b in zip(edges, edges[1:]):
        labels.append(signed(a) if b == a + 1 else f"{signed(a)}..{signed(b - 1)}")
    labels.append(f">={signed(edges[-1])}")
    return labels


def _prf(matched: float, hyp: float, ref: float) -> tuple[float | None, float | None, float | None]:
    """Precision, recall and F1 (percent); ``None`` where a denominator is 0."""
    p = 100.0 * matched / hyp if hyp else None
    r = 100.0 * matched / ref if ref else None
    f = None if p is None or r is None else 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def _add_prf(
    out: dict[str, Any],
    name: str,
    matched: npt.NDArray[Any],
    hyp: npt.NDArray[Any],
    ref: npt.NDArray[Any],
) -> None:
    """Put ``name``'s precision, recall and F1 of each bucket into ``out``."""
    prf = [_prf(m, h, r) for m, h, r in zip(matched, hyp, ref)]
    for k, key in enumerate(("precision", "recall", "f1")):
        out[key][name] = [x[k] for x in prf]


def _bucket_bleu(
    bleu: Metric[Any] | None,
    bleu_rows: dict[str, npt.NDArray[Any]] | None,
    buckets: dict[str, tuple[npt.NDArray[Any], npt.NDArray[Any]]],
) -> dict[str, list[float | None]]:
    """BLEU of each system's buckets from the segments' statistics rows (``{}`` without BLEU).

    ``buckets`` holds, per system, each segment's bucket and the segments per bucket; an empty
    bucket's BLEU is ``None``.
    """
    if bleu is None or bleu_rows is None:
        return {}
    return {
        name: [
            bleu.score_from_stats(bleu_rows[name][bucket == b]).score if counts[b] else None
            for b in range(len(counts))
        ]
        for name, (bucket, counts) in buckets.items()
    }


def length_buckets(
    words: _words.WordStats,
    names: list[str],
    edges: tuple[int, ...],
    bleu_rows: dict[str, npt.NDArray[Any]] | None,
    bleu: Metric[Any] | None,
) -> dict[str, Any]:
    bucket = np.searchsorted(np.asarray(edges), words.seg_ref_len, side="right")
    n_b = len(edges) + 1
    counts = np.bincount(bucket, minlength=n_b)
    ref_len = np.bincount(bucket, weights=words.seg_ref_len, minlength=n_b)
    out: dict[str, Any] = {
        "labels": bucket_labels(edges, zero=False),
        "edges": list(edges),
        "segments": counts.tolist(),
        "ref_tokens": ref_len.astype(int).tolist(),
        "bleu": {},
        "length_ratio": {},
        "precision": {},
        "recall": {},
        "f1": {},
    }
    for s, name in enumerate(names):
        matched = np.bincount(bucket, weights=words.seg_matched[s], minlength=n_b)
        hyp_len = np.bincount(bucket, weights=words.seg_hyp_len[s], minlength=n_b)
        _add_prf(out, name, matched, hyp_len, ref_len)
        out["length_ratio"][name] = [
            json_number(hyp_len[b] / ref_len[b]) if ref_len[b] else None for b in range(n_b)
        ]
    out["bleu"] = _bucket_bleu(bleu, bleu_rows, dict.fromkeys(names, (bucket, counts)))
    return out


def length_diff_buckets(
    words: _words.WordStats,
    names: list[str],
    edges: tuple[int, ...],
    bleu_rows: dict[str, npt.NDArray[Any]] | None,
    bleu: Metric[Any] | None,
) -> dict[str, Any]:
    """Segments bucketed by hypothesis minus reference length (tokens), per system.

    compare-mt's ``lengthdiff`` sentence buckets: how many segments of each system are that
    much shorter or longer than the first reference, and the BLEU of those segments.
    """
    n_b = len(edges) + 1
    out: dict[str, Any] = {
        "labels": diff_labels(edges),
        "edges": list(edges),
        "segments": {},
        "bleu": {},
    }
    buckets = {}
    for s, name in enumerate(names):
        diff = np.asarray(words.seg_hyp_len[s], dtype=np.int64) - words.seg_ref_len
        bucket = np.searchsorted(np.asarray(edges), diff, side="right")
        counts = np.bincount(bucket, minlength=n_b)
        out["segments"][name] = counts.tolist()
        buckets[name] = (bucket, counts)
    out["bleu"] = _bucket_bleu(bleu, bleu_rows, buckets)
    return out


def freq_buckets(
    words: _words.WordStats,
    names: list[str],
    edges: tuple[int, ...],
    word_counts: Mapping[str, int] | None,
) -> dict[str, Any]:
    n_vocab = len(words.vocab)
    if word_counts is None:
        freq = np.bincount(words.ref_ids, minlength=n_vocab)
        source = "references"
    else:
        freq = np.asarray([int(word_counts.get(w, 0)) for w in words.vocab], dtype=np.int64)
        source = "word list"
    bucket = np.searchsorted(np.asarray(edges), freq, side="right")
    n_b = len(edges) + 1
    ref_count = np.bincount(bucket[words.ref_ids], minlength=n_b)
    uni = words.orders[0]
    out: dict[str, Any] = {
        "labels": bucket_labels(edges, zero=True),
        "edges": list(edges),
        "source": source,
        "ref_tokens": ref_count.tolist(),
        "precision": {},
        "recall": {},
        "f1": {},
    }
    for s, name in enumerate(names):
        hyp_count = np.bincount(bucket[words.hyp_word_ids[s]], minlength=n_b)
        matched = np.bincount(bucket[uni.ref_ngrams], weights=uni.matched[s], minlength=n_b)
        _add_prf(out, name, matched, hyp_count, ref_count)
    # Counted in the references, no reference word has frequency 0: that bucket would hold
    # only hypothesis words absent from the references (precision 0, no recall, no F1), a
    # row of dashes. It is left out; with a word list it holds the unseen words, and stays.
    out["zero_bucket"] = word_counts is not None or edges[0] != 1
    if not out["zero_bucket"]:
        out["labels"] = out["labels"][1:]
        out["ref_tokens"] = out["ref_tokens"][1:]
        for key in ("precision", "recall", "f1"):
            out[key] = {n: v[1:] for n, v in out[key].items()}
    return out
