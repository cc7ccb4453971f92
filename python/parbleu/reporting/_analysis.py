"""The numbers of a report, computed with parbleu's public APIs, as plain JSON-ready data.

Scores, signatures, intervals and the all-pairs table come from ``Metric.extract_stats``,
``Metric.score_from_stats`` and :func:`parbleu.significance.compare_all` (statistics are
extracted once per metric and system, and reused by every table); sentence scores from
``Metric.sentence_scores``; the flavors table from :mod:`parbleu.flavors`. Word-level
analyses (buckets, n-grams, highlighted segments) use the first reference stream, tokenized as
BLEU tokenizes (:mod:`._words`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._options import MAX_RESAMPLES
from ..errors import InputTypeError, InvalidOptionError, LengthMismatchError, ParbleuError
from ..metrics import Metric, word_tokenization
from . import _significance as _sig
from . import _words
from ._clusters import clusters
from ._options import Options


def _num(x: float) -> float | None:
    """Return a JSON-safe number (``None`` for NaN or infinity)."""
    x = float(x)
    return x if math.isfinite(x) else None


def _edges(name: str, edges: Sequence[int], low: int | None = 1) -> tuple[int, ...]:
    out = tuple(edges)
    if (
        not out
        or any(isinstance(e, bool) or not isinstance(e, int) for e in out)
        or (low is not None and any(e < low for e in out))
        or any(b <= a for a, b in zip(out, out[1:]))
    ):
        at_least = f" >= {low}" if low is not None else ""
        raise InvalidOptionError(f"{name}={edges!r}: expected increasing integers{at_least}")
    return out


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


def check_inputs(
    references: Sequence[Sequence[str | None]], systems: Mapping[str, Sequence[str]]
) -> tuple[list[list[str | None]], dict[str, list[str]]]:
    """Validate and copy the inputs: reference streams and ``{name: hypotheses}``."""
    if isinstance(systems, (str, bytes)) or not isinstance(systems, Mapping):
        raise InputTypeError(
            f"systems: got a {type(systems).__name__}; expected a mapping "
            "{system name: list of hypothesis strings}"
        )
    if not systems:
        raise InvalidOptionError("systems: empty; expected at least one system")
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence):
        raise InputTypeError(
            f"references: got a {type(references).__name__}; expected a list of reference "
            "streams (lists of strings)"
        )
    streams = [list(s) for s in references]
    if not streams or any(isinstance(s, (str, bytes)) for s in references):
        raise InputTypeError("references: expected a non-empty list of reference streams")
    n = len(streams[0])
    out: dict[str, list[str]] = {}
    for name, hyps in systems.items():
        if not isinstance(name, str):
            raise InputTypeError(f"systems: the name {name!r} is not a string")
        if isinstance(hyps, (str, bytes)):
            raise InputTypeError(f"systems[{name!r}]: a single string; expected a list of lines")
        lines = list(hyps)
        if len(lines) != n:
            raise LengthMismatchError(
                f"systems[{name!r}]: {len(lines)} hypotheses but the references have {n} "
                "segments; nothing is truncated"
            )
        out[name] = lines
    if n == 0:
        raise InvalidOptionError("references: no segments; there is nothing to report")
    for k, s in enumerate(streams[1:], 2):
        if len(s) != n:
            raise LengthMismatchError(
                f"references: stream {k} has {len(s)} segments but stream 1 has {n}"
            )
    return streams, out


def check_source(src: Sequence[str] | None, n_segments: int) -> list[str] | None:
    """Validate the source sentences shown with the examples (one per segment)."""
    if src is None:
        return None
    if isinstance(src, (str, bytes)) or not isinstance(src, Sequence):
        raise InputTypeError(
            f"src: got a {type(src).__name__}; expected a list of source sentences, one per segment"
        )
    lines = list(src)
    if len(lines) != n_segments:
        raise LengthMismatchError(
            f"src: {len(lines)} source sentences but the references have {n_segments} "
            "segments; nothing is truncated"
        )
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise InputTypeError(
                f"src[{i}]: got a {type(line).__name__}; expected a string (line {i + 1})"
            )
    return lines


def analyze(
    streams: list[list[str | None]],
    systems: dict[str, list[str]],
    metrics: Sequence[Metric[Any]],
    opts: Options,
    word_counts: Mapping[str, int] | None = None,
    src: list[str] | None = None,
) -> dict[str, Any]:
    """Compute every section of a report.

    Parameters
    ----------
    streams
        Reference streams.
    systems
        ``{name: hypotheses}``, in order.
    metrics
        Metric objects (BLEU, CHRF, TER), scored in this order.
    opts
        What to compute.
    word_counts
        Word frequencies for the frequency buckets (a training-data word list); ``None`` to
        count words in the references.
    src
        Source sentences (one per segment) shown with the examples, or ``None``.

    Returns
    -------
    dict
        The report's data (JSON-serializable; :mod:`._html` renders it).
    """
    names = list(systems)
    if opts.baseline is not None and opts.baseline not in systems:
        raise InvalidOptionError(
            f"baseline={opts.baseline!r}: not a system name; expected one of {names!r}"
        )
    baseline = opts.baseline if opts.baseline is not None else names[0]
    length_edges = _edges("length_edges", opts.length_edges)
    freq_edges = _edges("freq_edges", opts.freq_edges)
    diff_edges = _edges("length_diff_edges", opts.length_diff_edges, low=None)
    if (
        isinstance(opts.max_order, bool)
        or not isinstance(opts.max_order, int)
        or not (1 <= opts.max_order <= 8)
    ):
        raise InvalidOptionError(f"max_order={opts.max_order!r}: expected an integer 1-8")

    _check_test_options(opts)  # also when too few segments skip the tests that check them
    plan = _sig.plan(opts.test, opts.n, len(names), len(streams[0]), opts.alpha, MAX_RESAMPLES)
    stats: dict[str, dict[str, npt.NDArray[Any]]] = {}
    metric_rows = []  # per metric, in order (two metrics may share a class)
    scores_out = []
    for metric in metrics:
        # One call for all systems (chrF probes each segment's references with every system).
        many = metric.extract_stats_many(
            {n: systems[n] for n in names}, streams, workers=opts.workers
        )
        rows = dict(zip(names, many))
        stats[type(metric).__name__] = rows
        metric_rows.append(rows)
        scores_out.append(_score_section(metric, rows, names, opts, plan))

    sentence = _sentence_scores(metrics, metric_rows, systems, streams, opts)
    # Word-level analysis: tokens as the first metric counting words tokenizes (BLEU).
    bleu = next((m for m in metrics if m.word_ngram_stats), None)
    tokenizer, lowercase = word_tokenization(metrics)
    bleu_rows = stats.get(type(bleu).__name__) if bleu is not None else None
    ref1 = ["" if r is None else r for r in streams[0]]
    words = _words.word_stats(
        ref1, [systems[n] for n in names], tokenizer, lowercase, opts.max_order, opts.workers
    )

    data: dict[str, Any] = {
        "systems": names,
        "baseline": baseline,
        "n_segments": len(ref1),
        "n_references": len(streams),
        "test": _test_section(opts, plan),
        "scores": scores_out,
        "sentence": sentence,
        "length_buckets": _length_buckets(words, names, length_edges, bleu_rows, bleu),
        "freq_buckets": _freq_buckets(words, names, freq_edges, word_counts),
        "length_diff_buckets": _length_diff_buckets(words, names, diff_edges, bleu_rows, bleu),
        "has_src": src is not None,
        "word_tokenizer": (
            f"{getattr(tokenizer, 'signature', lambda: '13a')()}"
            + (" lowercased" if lowercase else "")
        ),
        "max_order": opts.max_order,
    }
    data["pairs"] = _pairs(words, names, baseline, sentence, ref1, src, opts)
    data["pair_scope"] = "all" if len(names) <= opts.all_pairs_up_to else "baseline"
    data["flavors"] = _flavors(streams, systems, names, baseline, opts)
    return data


def _check_test_options(opts: Options) -> None:
    """Refuse a bad test, count, seed, alpha or confidence with the significance API's words."""
    from ..significance.exact import _check_confidence, _check_n, _check_seed

    if opts.test not in ("bootstrap", "ar"):
        raise InvalidOptionError(f"test={opts.test!r}: expected 'bootstrap' or 'ar'")
    if opts.n is not None:
        _check_n(opts.n)
    _check_seed(opts.seed)
    _check_confidence(opts.confidence)
    if (
        isinstance(opts.alpha, bool)
        or not isinstance(opts.alpha, (int, float))
        or not 0 < opts.alpha < 1
    ):
        raise InvalidOptionError(f"alpha={opts.alpha!r}: expected a number in (0, 1)")


def _test_section(opts: Options, plan: _sig.Plan) -> dict[str, Any]:
    """Which test ran, with how many resamples and why (the page and the CLI say it)."""
    return {
        "name": opts.test,
        "n": plan.n,
        "seed": opts.seed,
        "alpha": opts.alpha,
        "confidence": opts.confidence,
        "sided": "two-sided",
        "rng": "splitmix64",
        "pairs_per_metric": plan.pairs,
        "n_chosen": plan.chosen,
        "n_why": _sig.why_count(plan, opts.test, opts.alpha),
        "min_holm_p": plan.floor,
        "min_segments": _sig.MIN_SEGMENTS,
        "skipped": plan.skipped,
        "description": _sig.describe(opts.test),
        "notes": list(plan.notes),
    }


def _score_section(
    metric: Metric[Any],
    rows: dict[str, npt.NDArray[Any]],
    names: list[str],
    opts: Options,
    plan: _sig.Plan,
) -> dict[str, Any]:
    """Corpus scores, signature, intervals and (with two systems or more) all pairs."""
    from ..significance import compare_all, confidence_interval

    scores = {n: metric.score_from_stats(rows[n]) for n in names}
    out: dict[str, Any] = {
        "metric": scores[names[0]].name,
        "higher_is_better": metric.higher_is_better,
        "signature": metric.get_signature().format(),
        "scores": {n: scores[n].score for n in names},
        "ci": {},
        "pairs": [],
        "ranking": [],
        "clusters": [],
        "test_signature": None,
        "n": plan.n,
    }
    if all(hasattr(scores[n], "sys_len") for n in names):
        # BLEU's hypothesis/reference length (its tokens), as SacreBLEU's ``ratio``.
        out["length_ratio"] = {
            n: _num(scores[n].sys_len / scores[n].ref_len) if scores[n].ref_len else None
            for n in names
        }
    if plan.n is None or not _resamplable(metric):
        # Too few segments for the bootstrap, or a metric that significance cannot resample
        # (ROUGE, a mean of per-pair ratios): scores only, in score order.
        sign = 1.0 if metric.higher_is_better else -1.0
        out["ranking"] = sorted(names, key=lambda n: -sign * scores[n].score)
        return out
    if len(names) >= 2:
        comp = compare_all(
            metric,
            rows,
            None,
            test=opts.test,  # type: ignore[arg-type]
            n=plan.n,
            seed=opts.seed,
            alpha=opts.alpha,
            confidence=opts.confidence,
            workers=opts.workers,
        )
        mc = comp.metrics[0]
        out["test_signature"] = mc.signature
        out["ranking"] = list(mc.ranking)
        out["clusters"] = clusters(
            mc.ranking, ((p.system_a, p.system_b) for p in mc.pairs if p.significant)
        )
        out["pairs"] = [
            {
                "a": p.system_a,
                "b": p.system_b,
                "delta": p.delta,
                "p": p.p_value,
                "p_holm": p.p_holm,
                "significant": p.significant,
            }
            for p in mc.pairs
        ]
        intervals = dict(mc.intervals)
    else:
        n_bs = plan.n
        out["ranking"] = list(names)
        intervals = (
            {
                names[0]: confidence_interval(
                    metric,
                    rows[names[0]],
                    None,
                    n=n_bs,
                    seed=opts.seed,
                    confidence=opts.confidence,
                    workers=opts.workers,
                )
            }
            if opts.test == "bootstrap"
            else {}
        )
    out["ci"] = {
        n: {"low": ci.low, "high": ci.high, "half_width": ci.half_width, "mean": ci.mean}
        for n, ci in intervals.items()
    }
    return out


def _resamplable(metric: Metric[Any]) -> bool:
    """Whether :mod:`parbleu.significance` can resample the metric (it has a core scorer)."""
    from ..errors import InvalidOptionError

    try:
        metric.core_scorer()
    except InvalidOptionError:
        return False
    return True


def sentence_metric(metric: Metric[Any]) -> Metric[Any]:
    """Return the metric of sentence scores: BLEU with effective order, as ``sentence_bleu``."""
    return metric.sentence_metric()


def _sentence_scores(
    metrics: Sequence[Metric[Any]],
    metric_rows: list[dict[str, npt.NDArray[Any]]],
    systems: dict[str, list[str]],
    streams: list[list[str | None]],
    opts: Options,
) -> list[dict[str, Any]]:
    out = []
    for metric, rows in zip(metrics, metric_rows):
        m = sentence_metric(metric)
        # A sentence score is the score of that segment's statistics row (what
        # ``sentence_scores`` computes): the rows extracted for the tables are scored again
        # instead of extracting everything a second time (~8 % of a 20-system report, and
        # what made sentence TER, which realigns every segment, too costly to show).
        per_sys = {n: m.score_rows(rows[n], opts.workers).tolist() for n in systems}
        first = next(iter(per_sys))
        name = m.sentence_score(systems[first][0], [s[0] for s in streams]).name
        out.append(
            {
                "metric": name,
                "higher_is_better": metric.higher_is_better,
                "scores": per_sys,
            }
        )
    return out


def _length_buckets(
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
        prf = [_prf(matched[b], hyp_len[b], ref_len[b]) for b in range(n_b)]
        out["precision"][name] = [x[0] for x in prf]
        out["recall"][name] = [x[1] for x in prf]
        out["f1"][name] = [x[2] for x in prf]
        out["length_ratio"][name] = [
            _num(hyp_len[b] / ref_len[b]) if ref_len[b] else None for b in range(n_b)
        ]
        if bleu is not None and bleu_rows is not None:
            rows = bleu_rows[name]
            out["bleu"][name] = [
                bleu.score_from_stats(rows[bucket == b]).score if counts[b] else None
                for b in range(n_b)
            ]
    return out


def _length_diff_buckets(
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
    for s, name in enumerate(names):
        diff = np.asarray(words.seg_hyp_len[s], dtype=np.int64) - words.seg_ref_len
        bucket = np.searchsorted(np.asarray(edges), diff, side="right")
        counts = np.bincount(bucket, minlength=n_b)
        out["segments"][name] = counts.tolist()
        if bleu is not None and bleu_rows is not None:
            rows = bleu_rows[name]
            out["bleu"][name] = [
                bleu.score_from_stats(rows[bucket == b]).score if counts[b] else None
                for b in range(n_b)
            ]
    return out


def _freq_buckets(
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
        prf = [_prf(matched[b], hyp_count[b], ref_count[b]) for b in range(n_b)]
        out["precision"][name] = [x[0] for x in prf]
        out["recall"][name] = [x[1] for x in prf]
        out["f1"][name] = [x[2] for x in prf]
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


def _pair_list(names: list[str], baseline: str, all_up_to: int) -> list[tuple[str, str]]:
    if len(names) <= all_up_to:
        return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    return [(baseline, n) for n in names if n != baseline]


def _pairs(
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


def _flavors(
    streams: list[list[str | None]],
    systems: dict[str, list[str]],
    names: list[str],
    baseline: str,
    opts: Options,
) -> list[dict[str, Any]]:
    """Each flavor's score of every system, what it does differently, and (baseline) why."""
    from ..flavors import explain, flavor_names, get_flavor

    chosen = flavor_names() if opts.flavors is None else opts.flavors
    if not chosen:
        return []
    if any(s is None for st in streams for s in st):
        return []  # the originals take no missing references
    refs = [[str(x) for x in st] for st in streams]
    k = len(names) if opts.flavor_systems is None else opts.flavor_systems
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidOptionError(
            f"flavor_systems={opts.flavor_systems!r}: expected an integer >= 1 or None (all)"
        )
    # The baseline first, then the others in order: each flavor scores each system anew.
    scored = [baseline, *(n for n in names if n != baseline)][:k]
    out = []
    for name in chosen:
        info = get_flavor(name)
        scores: dict[str, float | None] = dict.fromkeys(names)
        errors: dict[str, str] = {}
        for n in scored:
            try:
                scores[n] = _num(float(info.score(systems[n], refs)) * info.to_percent)
            except (ParbleuError, ArithmeticError) as e:
                scores[n] = None
                errors[n] = str(e)
        steps: list[dict[str, Any]] = []
        if opts.explain and scores.get(baseline) is not None:
            try:
                ex = explain(systems[baseline], refs, name)
                steps = [
                    {"factor": s.factor, "change": s.change, "score": _num(s.score)}
                    for s in ex.steps
                ]
            except (ParbleuError, ArithmeticError, KeyError):
                steps = []
        out.append(
            {
                "name": name,
                "original": info.original,
                "tokenization": info.tokenization,
                "case": info.case,
                "ref_length": info.ref_length,
                "smoothing": info.smoothing,
                "scale": info.scale,
                "scores": scores,
                "errors": errors,
                "explain": steps,
            }
        )
    return out
