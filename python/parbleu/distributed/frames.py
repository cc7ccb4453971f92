"""Dask dataframes, row by row: sentence scores as a column, MBR by source, segment statistics.

Everything here maps partitions to new columns or rows with the public metric API
(``sentence_scores``, ``extract_stats``, :func:`parbleu.mbr`). The corpus scores of
dataframes and bags are :mod:`.api`'s, the Parquet copy with a score column
:mod:`.sentence_parquet`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InvalidOptionError
from .cluster import SchedulerArg, connect, import_dask
from .sources import frame_streams, reference_columns

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ..metrics.base import Metric
    from ..pairwise import MetricArg

__all__ = ["mbr_by_source", "segment_stats", "sentence_setup", "with_sentence_scores"]


def _sentence_frame(
    frame: Any, hypothesis: str, references: Sequence[str], metric: Metric[Any], column: str
) -> Any:
    import numpy as np

    out = frame.copy()
    if len(frame) == 0:
        out[column] = np.zeros(0, dtype=np.float64)
        return out
    out[column] = metric.sentence_scores(
        frame[hypothesis].tolist(), frame_streams(frame, references), workers=1
    )
    return out


def sentence_setup(
    metric: MetricArg, references: str | Sequence[str], column: str | None
) -> tuple[Metric[Any], list[str], str]:
    """Return the metric object, the reference columns and the new column's name.

    The column is named ``column``, or after the metric (``"bleu"``, ``"chrf"``, ...).
    """
    from ..pairwise import resolve_metric

    m = resolve_metric(metric)
    refs = reference_columns(references)
    return m, refs, column or (metric if isinstance(metric, str) else m.metric_name).lower()


def with_sentence_scores(
    df: Any,
    hypothesis: str,
    references: str | Sequence[str],
    metric: MetricArg = "bleu",
    column: str | None = None,
) -> Any:
    """Add the sentence score of every row to a Dask dataframe as a new column (lazy).

    Parameters
    ----------
    df
        A ``dask.dataframe.DataFrame``.
    hypothesis
        The hypothesis column.
    references
        The reference column(s).
    metric
        A name (sentence-level defaults, as :func:`parbleu.pairwise.resolve_metric`) or a
        metric object.
    column
        Name of the new column (default: the metric's name, ``"bleu"``, ``"chrf"``, ...).

    Returns
    -------
    dask.dataframe.DataFrame
        ``df`` plus the float64 column: filter it (``df[df.bleu > 20]``) and write it
        (``.to_parquet``).
    """
    m, refs, col = sentence_setup(metric, references, column)
    meta = df._meta.assign(**{col: df._meta[hypothesis].astype("float64")})
    return df.map_partitions(_sentence_frame, hypothesis, refs, m, col, meta=meta)


def _mbr_frame(frame: Any, source: str, candidate: str, metric: Metric[Any]) -> Any:
    import pandas as pd

    from ..pairwise import mbr

    rows = []
    for src, group in frame.groupby(source, sort=False):
        cands = group[candidate].tolist()
        res = mbr(cands, metric, workers=1)
        rows.append((src, res.candidate, float(res.utilities[res.best_index]), len(cands)))
    return pd.DataFrame(rows, columns=[source, candidate, "utility", "n_candidates"])


def mbr_by_source(df: Any, source: str, candidate: str, metric: MetricArg = "bleu") -> Any:
    """MBR selection per source sentence over a Dask dataframe of candidates (lazy).

    Rows are shuffled so that every source's candidates meet in one partition, then
    :func:`parbleu.mbr` picks each source's candidate (the candidates are the
    pseudo-references; candidates keep their order within a source).

    Parameters
    ----------
    df
        A ``dask.dataframe.DataFrame`` with one row per (source, candidate).
    source
        The column grouping the candidates.
    candidate
        The candidate column.
    metric
        As in :func:`parbleu.mbr`.

    Returns
    -------
    dask.dataframe.DataFrame
        Columns ``source``, ``candidate`` (the selected one), ``utility``, ``n_candidates``.
    """
    import pandas as pd

    from ..pairwise import resolve_metric

    m = resolve_metric(metric)
    meta = pd.DataFrame(
        {
            source: df._meta[source],
            candidate: df._meta[candidate],
            "utility": pd.Series([], dtype="float64"),
            "n_candidates": pd.Series([], dtype="int64"),
        }
    )
    shuffled = df[[source, candidate]].shuffle(on=source)
    return shuffled.map_partitions(_mbr_frame, source, candidate, m, meta=meta)


def _frame_rows(
    frame: Any, systems: Sequence[str], references: Sequence[str], metric: Metric[Any]
) -> list[npt.NDArray[Any]]:
    import numpy as np

    if len(frame) == 0:
        return [np.zeros((0, metric.stats_width)) for _ in systems]
    streams = frame_streams(frame, references)
    return [metric.extract_stats(frame[s].tolist(), streams, workers=1) for s in systems]


def segment_stats(
    df: Any,
    systems: Sequence[str],
    references: str | Sequence[str],
    metric: Metric[Any],
    *,
    scheduler: SchedulerArg = None,
) -> dict[str, np.ndarray[Any, Any]]:
    """Per-segment statistics of several systems, gathered in row order for significance.

    The matrices go straight into :mod:`parbleu.significance` (``paired_bootstrap``,
    ``paired_ar``, ``compare_all``, ``confidence_interval`` accept ``{name: statistics}``),
    which resamples them in this process: a test set of millions of segments fits, a
    training corpus of billions does not.

    Parameters
    ----------
    df
        A ``dask.dataframe.DataFrame`` with one hypothesis column per system.
    systems
        The systems' columns, in order.
    references
        The reference column(s).
    metric
        A parbleu ``BLEU``, ``CHRF`` or ``TER`` object.
    scheduler
        As in :func:`parbleu.distributed.score_files`.

    Returns
    -------
    dict
        ``{column: (n_segments, stats_width) array}``.
    """
    import numpy as np

    delayed = import_dask("dask").delayed
    refs = reference_columns(references)
    if not systems:
        raise InvalidOptionError("systems: no system column given")
    parts = [
        delayed(_frame_rows)(p, list(systems), refs, metric)
        for p in df[[*dict.fromkeys([*systems, *refs])]].to_delayed()
    ]
    with connect(scheduler) as client:
        gathered = client.gather(client.compute(parts))
    out = {}
    for k, s in enumerate(systems):
        blocks = [g[k] for g in gathered if len(g[k])]
        out[s] = np.concatenate(blocks) if blocks else np.zeros((0, metric.stats_width))
    return out
