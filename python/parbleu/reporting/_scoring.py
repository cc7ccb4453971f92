"""The score table of a report: scores, signatures, intervals, all pairs; sentence scores.

Statistics are extracted once per metric and system (:func:`._analysis.analyze`); the corpus
scores, the significance test (:func:`parbleu.significance.compare_all`) and the sentence
scores all read those rows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy.typing as npt

from ..metrics import Metric
from . import _significance as _sig
from ._clusters import clusters
from ._numbers import json_number
from ._options import Options


def test_section(opts: Options, plan: _sig.Plan) -> dict[str, Any]:
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


def score_section(
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
    if metric.word_ngram_stats:
        # The hypothesis/reference length in the metric's word tokens (BLEU's statistics
        # declare them), as SacreBLEU's ``ratio``.
        out["length_ratio"] = {
            n: json_number(scores[n].sys_len / scores[n].ref_len) if scores[n].ref_len else None
            for n in names
        }
    if plan.n is None or not metric.capabilities.resample:
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


def sentence_metric(metric: Metric[Any]) -> Metric[Any]:
    """Return the metric of sentence scores: BLEU with effective order, as ``sentence_bleu``."""
    return metric.sentence_metric()


def sentence_scores(
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
        # The score's name, from the first segment's row (what sentence_score names it; a
        # one-segment call could not tell imported scores' system from one hypothesis).
        name = m.score_row(rows[first][0].tolist()).name
        entry: dict[str, Any] = {
            "metric": name,
            "higher_is_better": metric.higher_is_better,
            "scores": per_sys,
        }
        if not metric.percent_scale:
            # Histograms over the data's range, not 0-100 (COMET near 0-1, MetricX 0-25).
            entry["range"] = score_range([x for v in per_sys.values() for x in v])
        out.append(entry)
    return out


def score_range(values: Sequence[float]) -> list[float]:
    """Return ``[low, high]``: the values' range widened to round numbers, for histograms.

    Scores in [0, 1] or [0, 100] get that range; others the range rounded outwards to the
    power of ten below its width (0.12-0.87: [0.1, 0.9]); equal values a width of 1.
    """
    lo, hi = min(values), max(values)
    for a, b in ((0.0, 1.0), (0.0, 100.0)):
        if a <= lo and hi <= b:
            return [a, b]
    if hi - lo <= 0:
        return [math.floor(lo), math.floor(lo) + 1.0]
    step = 10.0 ** math.floor(math.log10(hi - lo))
    low, high = math.floor(lo / step) * step, math.ceil(hi / step) * step
    return [float(f"{low:.12g}"), float(f"{high:.12g}")]
