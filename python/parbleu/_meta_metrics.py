"""Metric scores for ``parbleu meta``: registered metrics computed here, or scores given.

Every score is oriented so that higher is better (MTME's assumption): a lower-is-better
metric (TER, MetricX) is negated. A computed metric's segment scores are its sentence scores
(BLEU: with effective order, as ``sentence_bleu``); its system score is its corpus score (BLEU,
chrF and TER: from the summed statistics, not the mean of the sentence scores; a metric whose
corpus score is a mean of segment scores: that mean).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from parbleu import _core
from parbleu._resampling import as_stats_rows
from parbleu._workers import resolve_workers
from parbleu.errors import InvalidOptionError

__all__ = ["MetricScores", "computed_scores", "given_scores"]

Scores = dict[str, list[float]]
Resampler = Callable[[npt.NDArray[np.int64]], npt.NDArray[np.float64]]


@dataclasses.dataclass
class MetricScores:
    """One metric's scores for meta-evaluation, higher meaning better.

    Attributes
    ----------
    seg : dict or None
        System to its segment scores (one per test-set line).
    sys : dict or None
        System to ``[system score]``; ``None``: the mean of the segment scores.
    system_score : str
        How the system score is made: ``'corpus'`` (the metric's corpus score), ``'mean'``
        (mean of the segment scores) or ``'given'`` (a file of system scores).
    higher_is_better : bool
        The metric's own direction (``False``: the scores here are negated).
    resample : callable or None
        Item indices ``(draws, items)`` to the system scores of each draw ``(draws, systems)``
        in ``systems`` order (the bootstrap of corpus scores); ``None``: means of segments.
    systems : list of str
        The order of ``resample``'s columns.
    """

    seg: Scores | None
    sys: Scores | None
    system_score: str
    higher_is_better: bool = True
    resample: Resampler | None = None
    systems: list[str] = dataclasses.field(default_factory=list)


def given_scores(
    seg: Mapping[str, Sequence[float]] | None,
    sys: Mapping[str, Sequence[float]] | None = None,
    higher_is_better: bool = True,
) -> MetricScores:
    """Scores computed elsewhere (segment and/or system scores), oriented here.

    Parameters
    ----------
    seg, sys : mapping or None
        System to segment scores; system to ``[score]``.
    higher_is_better : bool
        Direction of the given scores (lower is better: negated).

    Returns
    -------
    MetricScores
        The scores; system scores ``'given'`` or the ``'mean'`` of the segment scores.
    """
    if seg is None and sys is None:
        raise InvalidOptionError("metric scores: give segment or system scores")
    sign = 1.0 if higher_is_better else -1.0
    return MetricScores(
        {s: [sign * float(x) for x in v] for s, v in seg.items()} if seg is not None else None,
        {s: [sign * float(x) for x in v] for s, v in sys.items()} if sys is not None else None,
        "given" if sys is not None else "mean",
        higher_is_better,
    )


def computed_scores(
    metrics: Mapping[str, Any],
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str | None]] | None,
    workers: int | None = None,
) -> dict[str, MetricScores]:
    """Segment and system scores of metric objects on the systems' outputs.

    Parameters
    ----------
    metrics : mapping
        Name to a :class:`parbleu.metrics.base.Metric` (with or without cached references).
    systems : mapping
        System name to its hypotheses, aligned with the references.
    references : sequence of streams or None
        Reference streams (``None``: the metrics' cached references).
    workers : int, optional
        Threads.

    Returns
    -------
    dict
        Name to :class:`MetricScores`: sentence scores, corpus scores, and (for metrics that
        resample) the bootstrap of corpus scores.
    """
    names = list(systems)
    out: dict[str, MetricScores] = {}
    for label, metric in metrics.items():
        sign = 1.0 if metric.higher_is_better else -1.0
        rows = metric.extract_stats_many([systems[s] for s in names], references, workers=workers)
        sent = metric.sentence_metric()
        seg = {s: (sign * sent.score_rows(r, workers)).tolist() for s, r in zip(names, rows)}
        corpus = {
            s: [sign * float(metric.score_row(metric.add_rows(None, r)).score)]
            for s, r in zip(names, rows)
        }
        resample = None
        if metric.capabilities.resample:
            resample = _corpus_resampler(metric, rows, sign, workers)
        out[label] = MetricScores(seg, corpus, "corpus", metric.higher_is_better, resample, names)
    return out


def _corpus_resampler(
    metric: Any, rows: list[npt.NDArray[Any]], sign: float, workers: int | None
) -> Resampler:
    scorer = metric.core_scorer()
    data = [as_stats_rows(scorer, r, "statistics") for r in rows]

    def resample(idxs: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        idxs = np.ascontiguousarray(idxs, dtype=np.int64)
        n_seg = idxs.shape[1]
        w = resolve_workers(workers, idxs.size * len(data))
        raw = _core.sig_bootstrap_indices(scorer, data, n_seg, idxs.reshape(-1), w)
        return sign * np.frombuffer(raw, dtype="<f8").reshape(len(idxs), len(data))

    return resample
