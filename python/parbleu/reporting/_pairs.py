"""Two systems side by side: the n-grams one matches more often, the segments that differ most."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from . import _words
from ._options import Options


def _pair_list(names: list[str], baseline: str, all_up_to: int) -> list[tuple[str, str]]:
    if len(names) <= all_up_to:
        return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    return [(baseline, n) for n in names if n != baseline]


def pair_sections(
    words: _words.WordStats,
    names: list[str],
    baseline: str,
    sentence: list[dict[str, Any]],
    ref1: list[str],
    src: list[str] | None,
    opts: Options,
) -> list[dict[str, Any]]:
    """Per pair: n-grams each system matches more often, and the segments that differ most."""
    if len(names) < 2:
        return []
    index = {n: i for i, n in enumerate(names)}
    matched = [np.concatenate([o.matched[s] for o in words.orders]) for s in range(len(names))]
    order_of = np.concatenate(
        [np.full(len(o.ref_ngrams), k + 1, dtype=np.int64) for k, o in enumerate(words.orders)]
    )
    local = np.concatenate([np.arange(len(o.ref_ngrams)) for o in words.orders])
    ref_count = np.concatenate([o.ref_counts for o in words.orders])
    sent = sentence[0] if sentence else None
    out = []
    for a, b in _pair_list(names, baseline, opts.all_pairs_up_to):
        ma, mb = matched[index[a]], matched[index[b]]
        out.append(
            {
                "a": a,
                "b": b,
                "ngrams_a": _top_ngrams(words, ma, mb, order_of, local, ref_count, opts),
                "ngrams_b": _top_ngrams(words, mb, ma, order_of, local, ref_count, opts),
                "metric": sent["metric"] if sent else None,
                "segments": _top_segments(words, index[a], index[b], a, b, sent, ref1, src, opts),
            }
        )
    return out


def _top_ngrams(
    words: _words.WordStats,
    mine: npt.NDArray[np.int64],
    other: npt.NDArray[np.int64],
    order_of: npt.NDArray[np.int64],
    local: npt.NDArray[Any],
    ref_count: npt.NDArray[np.int64],
    opts: Options,
) -> list[dict[str, Any]]:
    """compare-mt's n-gram ranking: ``(mine + 1) / (mine + other + 2)``, largest first."""
    # Only n-grams this system matches more often can be listed (the ratio is above 1/2
    # exactly for those, so they sort first): sorting just them gives the same list, and the
    # candidates are a few percent of the ~10^5 n-grams (one full sort per pair took ~4 % of
    # a 20-system report).
    cand = np.flatnonzero(mine > other)
    mine, other = mine[cand], other[cand]
    order_of, local, ref_count = order_of[cand], local[cand], ref_count[cand]
    ratio = (mine + 1.0) / (mine + other + 2.0)
    # Highest ratio first; then the larger difference; then the shorter n-gram, its id.
    order = np.lexsort((local, order_of, -(mine - other), -ratio))
    out = []
    for k in order[: opts.top_ngrams]:
        out.append(
            {
                "ngram": words.ngram_text(int(order_of[k]), int(local[k])),
                "n": int(order_of[k]),
                "mine": int(mine[k]),
                "other": int(other[k]),
                "ref": int(ref_count[k]),
                "ratio": float(ratio[k]),
            }
        )
    return out


def _top_segments(
    words: _words.WordStats,
    ia: int,
    ib: int,
    a: str,
    b: str,
    sent: dict[str, Any] | None,
    ref1: list[str],
    src: list[str] | None,
    opts: Options,
) -> list[dict[str, Any]]:
    """Return the segments where ``a`` beats ``b`` most, then those where ``b`` beats ``a`` most."""
    if sent is None:
        return []
    sa = np.asarray(sent["scores"][a])
    sb = np.asarray(sent["scores"][b])
    diff = sa - sb if sent["higher_is_better"] else sb - sa
    k = opts.top_segments
    best_a = _distinct(words, ia, ib, ref1, diff, k)
    best_b = _distinct(words, ia, ib, ref1, -diff, k)
    out = []
    for i, repeats in best_a + best_b:
        ref_tokens = words.ref_tokens(i)
        ref_ngrams = _words.ngram_set(ref_tokens, opts.max_order)
        ta, tb = words.sys_tokens(ia, i), words.sys_tokens(ib, i)
        out.append(
            {
                "index": i,
                "winner": a if diff[i] > 0 else b,
                "ref": ref1[i],
                "src": None if src is None else src[i],
                "ref_tokens": ref_tokens,
                "a_tokens": ta,
                "b_tokens": tb,
                "a_match": _words.highlight(ta, ref_ngrams, opts.max_order),
                "b_match": _words.highlight(tb, ref_ngrams, opts.max_order),
                "a_score": float(sa[i]),
                "b_score": float(sb[i]),
                "repeats": repeats[:MAX_REPEATS_LISTED],
                "n_repeats": len(repeats),
            }
        )
    return out


#: Indices of identical segments listed with a shown one (the count is always given).
MAX_REPEATS_LISTED = 10


def _distinct(
    words: _words.WordStats,
    ia: int,
    ib: int,
    ref1: list[str],
    gain: npt.NDArray[np.float64],
    k: int,
) -> list[tuple[int, list[int]]]:
    """Return the ``k`` segments of largest positive ``gain`` that differ in text, and copies.

    A segment repeated with the same reference and the same two outputs (test sets repeat
    short lines: headings, "Thank you.") has the same gain, so its copies would fill the list:
    each is shown once, with the indices of its copies. Copies share their gain, so the scan
    stops below the gain of the ``k``-th segment shown. Equal gains keep segment order.
    """
    shown: dict[tuple[str, bytes, bytes], tuple[int, list[int]]] = {}
    if k <= 0:
        return []
    bound = None
    for i in np.argsort(-gain, kind="stable").tolist():
        if gain[i] <= 0 or (bound is not None and gain[i] < bound):
            break
        key = (ref1[i], words.seg_ids(ia, i).tobytes(), words.seg_ids(ib, i).tobytes())
        if key in shown:
            shown[key][1].append(i)
        elif len(shown) < k:
            shown[key] = (i, [])
            if len(shown) == k:
                bound = gain[i]
    return list(shown.values())
