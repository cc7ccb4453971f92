"""Partial statistics of one partition, how two of them merge, and the final scores.

A :class:`Partial` holds, per metric, either the column sums of integer statistics (BLEU,
chrF: they add in any order, so partitions merge in a tree) or the float rows themselves
(TER: SacreBLEU adds them one after the other, and float addition depends on the order, so
the rows are kept in corpus order and summed once, by ``score_from_stats``). Nothing here
imports Dask: workers run :func:`extract_partial`, any process runs :func:`merge`, and the
client merges the tasks of a job with :func:`merged_partial` (a tree on the workers).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import EmptyInputError, InvalidOptionError
from ..progress import ProgressArg
from .cluster import reduce_tree

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..metrics.base import Metric
    from ..score import Score

__all__ = [
    "MetricsArg",
    "Partial",
    "extract_partial",
    "final_scores",
    "merge",
    "merge_all",
    "merged_partial",
    "resolve_metrics",
]

#: Metric names (``"bleu"``, ``"chrf"``, ``"chrf++"``, ``"ter"``) or objects, or one of them.
MetricsArg = Any


def resolve_metrics(metrics: MetricsArg) -> tuple[list[str], list[Metric[Any]]]:
    """Names and metric objects (names: corpus defaults, as ``BLEU()``).

    An object is named by its ``metric_name``; a second object of the same name gets
    ``"#2"`` appended (``"chrf"``, ``"chrf#2"``), a third ``"#3"``, and so on.
    """
    if isinstance(metrics, str) or not isinstance(metrics, Sequence):
        metrics = [metrics]
    from ..streaming import resolve_corpus_metric

    named = [resolve_corpus_metric(m) for m in metrics]
    given = [m for m in metrics if isinstance(m, str)]
    if not named or len(set(given)) != len(given):
        raise InvalidOptionError(f"metrics: expected distinct metric names, got {list(metrics)}")
    for _, m in named:
        m.require("merge", "parbleu.distributed")
    for m in metrics:
        _check_sendable(m)
    names: list[str] = []
    for n, _ in named:
        k, name = 1, n
        while name in names:
            k += 1
            name = f"{n}#{k}"
        names.append(name)
    return names, [m for _, m in named]


def _check_sendable(metric: Any) -> None:
    """Refuse a metric object that cannot travel to the workers (cached references)."""
    if isinstance(metric, str):
        return
    import pickle

    try:
        pickle.dumps(metric)
    except (TypeError, pickle.PicklingError, AttributeError) as e:
        raise InvalidOptionError(
            f"metrics: this {type(metric).__name__} object cannot be sent to the workers ({e}); "
            "create it without references= (the references come from the input)"
        ) from None


@dataclass
class Partial:
    """Statistics of some segments, for several metrics.

    Attributes
    ----------
    n_lines
        Segments seen.
    periods
        Hypotheses ending in ``" ."`` (BLEU's tokenized-period warning is decided once, from
        the whole corpus).
    ref_counts
        ``num_refs`` values the metrics reported (the signature's ``nrefs``).
    sums
        Per metric: integer column sums, or ``None`` for a metric with float rows.
    rows
        Per metric: the float row blocks, in corpus order (empty for integer metrics).
    """

    n_lines: int = 0
    periods: int = 0
    ref_counts: set[int] = field(default_factory=set)
    sums: list[list[int] | None] = field(default_factory=list)
    rows: list[list[npt.NDArray[Any]]] = field(default_factory=list)

    @classmethod
    def empty(cls, n_metrics: int) -> Partial:
        """Return the partial of no segments."""
        return cls(sums=[None] * n_metrics, rows=[[] for _ in range(n_metrics)])


class _Drop(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return False


def extract_partial(
    metrics: Sequence[Metric[Any]],
    blocks: Iterable[tuple[list[str], Sequence[Sequence[str | None]]]],
    threads: int | None = 1,
) -> Partial:
    """Statistics of blocks of ``(hypotheses, reference streams)``, block by block.

    Parameters
    ----------
    metrics
        Metric objects (``extract_stats`` is called on each).
    blocks
        Aligned blocks; only one is held at a time.
    threads
        Threads of each ``extract_stats`` call (1: Dask runs partitions in parallel).

    Returns
    -------
    Partial
        The statistics of every block.
    """
    out = Partial.empty(len(metrics))
    log = logging.getLogger("parbleu")
    drop = _Drop()
    # BLEU's tokenized-period warning would fire per block on the worker; the client decides
    # once from ``periods`` (see final_scores).
    log.addFilter(drop)
    try:
        for hyps, streams in blocks:
            if not hyps:
                continue
            out.n_lines += len(hyps)
            out.periods += sum(1 for h in hyps if h.endswith(" ."))
            for k, m in enumerate(metrics):
                rows = m.extract_stats(hyps, streams, workers=threads)
                nrefs = getattr(m, "num_refs", None)
                if isinstance(nrefs, int):
                    out.ref_counts.add(nrefs)
                if rows.dtype.kind in "iu":
                    add = [int(x) for x in rows.sum(axis=0).tolist()]
                    prev = out.sums[k]
                    out.sums[k] = add if prev is None else [a + b for a, b in zip(prev, add)]
                else:
                    out.rows[k].append(rows)
    finally:
        log.removeFilter(drop)
    return out


def merge(a: Partial, b: Partial) -> Partial:
    """Return the partial of ``a``'s segments followed by ``b``'s (neither is modified)."""
    sums: list[list[int] | None] = []
    for x, y in zip(a.sums, b.sums):
        sums.append(x if y is None else y if x is None else [p + q for p, q in zip(x, y)])
    return Partial(
        n_lines=a.n_lines + b.n_lines,
        periods=a.periods + b.periods,
        ref_counts=a.ref_counts | b.ref_counts,
        sums=sums,
        rows=[x + y for x, y in zip(a.rows, b.rows)],
    )


def merge_all(*parts: Partial) -> Partial:
    """Merge partials in order (one node of the reduction tree)."""
    out = parts[0]
    for p in parts[1:]:
        out = merge(out, p)
    return out


def merged_partial(
    client: Any,
    leaves: Sequence[Any],
    n_metrics: int,
    *,
    weights: Sequence[int] | None = None,
    progress: ProgressArg = None,
    unit: str = "lines",
) -> Partial:
    """Merge the partials of a job's tasks in a tree on the workers (no task: no segments).

    ``leaves`` are the tasks' futures in corpus order; ``weights``, ``progress`` and ``unit``
    are :func:`parbleu.distributed.cluster.reduce_tree`'s.
    """
    if not leaves:
        return Partial.empty(n_metrics)
    total: Partial = reduce_tree(
        client, leaves, merge_all, weights=weights, progress=progress, unit=unit
    )
    return total


def final_scores(metrics: Sequence[Metric[Any]], total: Partial, what: str) -> list[Score]:
    """Scores of the whole corpus, as ``corpus_score`` gives them in memory.

    Parameters
    ----------
    metrics
        The metric objects the partials were extracted with (on the client: their
        ``num_refs`` is set from the partials so that the signature is the in-memory one).
    total
        The merged partial of every partition.
    what
        The input, for the message when it is empty.

    Returns
    -------
    list of Score
        One per metric.
    """
    import numpy as np

    from ..streaming import warn_tokenized_period

    if total.n_lines == 0:
        raise EmptyInputError(f"{what}: no segments; there is nothing to score")
    scores = []
    for k, m in enumerate(metrics):
        counts = total.ref_counts
        if counts:
            m.num_refs = next(iter(counts)) if len(counts) == 1 else -1
        summed = total.sums[k]
        if summed is not None:
            stats: Any = np.asarray(summed, dtype=np.int64)
        else:
            stats = np.concatenate(total.rows[k])
        scores.append(m.score_from_stats(stats))
    if total.periods >= 100 and any(m.checks_tokenized_period for m in metrics):
        warn_tokenized_period()
    return scores
