"""Dask bags and dataframes, sentence scores as a column, MBR by source, per-segment rows.

Everything here maps partitions to statistics or to new columns with the public metric API
(``extract_stats``, ``sentence_scores``, :func:`parbleu.mbr`); the corpus scores merge like
the files' (:mod:`parbleu.distributed.partials`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InputTypeError, InvalidOptionError
from ..progress import ProgressArg
from ..streaming import DEFAULT_BLOCK_LINES
from .cluster import SchedulerArg, connect, import_dask, reduce_tree
from .partials import MetricsArg, Partial, extract_partial, final_scores, merge_all, resolve_metrics
from .sources import (
    ParquetPart,
    check_string_columns,
    checked_blocks,
    expand,
    parquet_blocks,
    parquet_parts,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ..metrics.base import Metric
    from ..pairwise import MetricArg
    from ..score import Score

__all__ = [
    "mbr_by_source",
    "score_arrow",
    "score_bag",
    "score_dataframe",
    "segment_stats",
    "sentence_scores_parquet",
    "with_sentence_scores",
]


def parquet_partial(
    part: ParquetPart,
    hypothesis: str,
    references: Sequence[str],
    metrics: Sequence[Metric[Any]],
    block_lines: int,
    threads: int | None,
) -> Partial:
    """Worker side: the statistics of one Parquet part."""
    return extract_partial(
        metrics, parquet_blocks(part, hypothesis, references, block_lines), threads
    )


def _fragment_partial(
    fragment: Any,
    number: int,
    hypothesis: str,
    references: Sequence[str],
    metrics: Sequence[Metric[Any]],
    block_lines: int,
    threads: int | None,
) -> Partial:
    """Worker side: the statistics of one fragment of an Arrow dataset."""
    batches = fragment.to_batches(columns=[hypothesis, *references], batch_size=block_lines)
    where = f"dataset fragment {number} ({getattr(fragment, 'path', 'in memory')!r})"
    return extract_partial(
        metrics, checked_blocks(batches, where, 1, hypothesis, references), threads
    )


def score_arrow(
    dataset: Any,
    hypothesis: str,
    references: str | Sequence[str],
    metrics: MetricsArg = ("bleu",),
    *,
    scheduler: SchedulerArg = None,
    block_lines: int = DEFAULT_BLOCK_LINES,
    threads: int | None = 1,
    progress: ProgressArg = None,
) -> dict[str, Score]:
    """Corpus scores of a ``pyarrow.dataset.Dataset`` (Parquet, Feather/IPC, CSV files, ...).

    Every fragment (file) is one task, read ``block_lines`` rows at a time; rows are one
    corpus in fragment order. Messages name the fragment and the row within it.

    Parameters
    ----------
    dataset
        A ``pyarrow.dataset.Dataset`` (``pyarrow.dataset.dataset("data/", format="ipc")``).
    hypothesis
        The hypothesis column (strings).
    references
        The reference column(s).
    metrics
        As in :func:`parbleu.distributed.score_files`.
    scheduler
        As in :func:`parbleu.distributed.score_files`.
    block_lines
        Rows held in memory at once by a task.
    threads
        Threads of each task.
    progress
        As in :func:`parbleu.distributed.score_files` (in fragments).

    Returns
    -------
    dict
        ``{name: Score}``.
    """
    names, objs = resolve_metrics(metrics)
    refs = _columns(hypothesis, references)
    if not hasattr(dataset, "get_fragments"):
        raise InvalidOptionError(
            f"dataset: a {type(dataset).__name__}; expected a pyarrow.dataset.Dataset"
        )
    check_string_columns(dataset.schema, [hypothesis, *refs], "the dataset")
    fragments = list(dataset.get_fragments())
    with connect(scheduler) as client:
        leaves = [
            client.submit(
                _fragment_partial, f, k, hypothesis, refs, objs, block_lines, threads, pure=False
            )
            for k, f in enumerate(fragments)
        ]
        total = (
            reduce_tree(client, leaves, merge_all, progress=progress, unit="fragments")
            if leaves
            else Partial.empty(len(objs))
        )
    return dict(zip(names, final_scores(objs, total, "dataset")))


def _columns(hypothesis: str, references: str | Sequence[str]) -> list[str]:
    refs = [references] if isinstance(references, str) else list(references)
    if not refs:
        raise InvalidOptionError("references: no reference column given")
    return refs


def _frame_blocks(
    frame: Any, hypothesis: str, references: Sequence[str], block_lines: int, number: int
) -> Any:
    for start in range(0, len(frame), block_lines):
        piece = frame.iloc[start : start + block_lines]
        hyps = piece[hypothesis].tolist()
        bad = next((i for i, h in enumerate(hyps) if not isinstance(h, str)), None)
        if bad is not None:
            raise InputTypeError(
                f"partition {number}, row index {piece.index[bad]!r}: column {hypothesis!r} is "
                f"{_kind(hyps[bad])}; expected a string"
            )
        yield hyps, _streams(piece, references)


def _kind(x: Any) -> str:
    return "null" if _isna(x) else f"a {type(x).__name__}"


def _isna(x: Any) -> bool:
    import pandas as pd

    return x is None or (not isinstance(x, str) and bool(pd.isna(x)))


def _streams(frame: Any, references: Sequence[str]) -> list[list[Any]]:
    """Return reference columns as streams, pandas' missing values (NaN, NA) as ``None``."""
    return [[None if _isna(x) else x for x in frame[c].tolist()] for c in references]


def _frame_partial(
    frame: Any,
    hypothesis: str,
    references: Sequence[str],
    metrics: Sequence[Metric[Any]],
    block_lines: int,
    threads: int | None,
    number: int,
) -> Partial:
    blocks = _frame_blocks(frame, hypothesis, references, block_lines, number)
    return extract_partial(metrics, blocks, threads)


def _bag_partial(
    records: Sequence[Any], metrics: Sequence[Metric[Any]], threads: int | None
) -> Partial:
    records = list(records)
    if not records:
        return Partial.empty(len(metrics))
    hyps = [r[0] for r in records]
    n = max(len(r[1]) for r in records)
    streams = [[r[1][k] if k < len(r[1]) else None for r in records] for k in range(n)]
    return extract_partial(metrics, [(hyps, streams)], threads)


def _scores_of_partials(
    parts: Sequence[Any],
    names: list[str],
    metrics: list[Metric[Any]],
    scheduler: SchedulerArg,
    progress: ProgressArg,
    what: str,
) -> dict[str, Score]:
    """Compute delayed partials on the cluster, merge them in a tree, and score the total."""
    with connect(scheduler) as client:
        total = _run_delayed(client, parts, merge_all, progress)
    return dict(zip(names, final_scores(metrics, total, what)))


def _run_delayed(client: Any, parts: Sequence[Any], combine: Any, progress: ProgressArg) -> Any:
    leaves = client.compute(list(parts))
    return reduce_tree(client, leaves, combine, progress=progress, unit="partitions")


def score_dataframe(
    df: Any,
    hypothesis: str,
    references: str | Sequence[str],
    metrics: MetricsArg = ("bleu",),
    *,
    scheduler: SchedulerArg = None,
    block_lines: int = DEFAULT_BLOCK_LINES,
    threads: int | None = 1,
    progress: ProgressArg = None,
) -> dict[str, Score]:
    """Corpus scores of a Dask dataframe's hypothesis column against reference columns.

    Rows are one corpus in partition order. Null references mean "no reference in that
    stream" (a row needs at least one).

    Parameters
    ----------
    df
        A ``dask.dataframe.DataFrame`` (``dd.read_parquet``, ``dd.from_pandas``, ...).
    hypothesis
        The hypothesis column.
    references
        The reference column(s), one per stream.
    metrics
        As in :func:`parbleu.distributed.score_files`.
    scheduler
        As in :func:`parbleu.distributed.score_files`.
    block_lines
        Rows per ``extract_stats`` call.
    threads
        Threads of each task.
    progress
        As in :func:`parbleu.distributed.score_files` (in partitions).

    Returns
    -------
    dict
        ``{name: Score}``.
    """
    delayed = import_dask("dask").delayed
    names, objs = resolve_metrics(metrics)
    refs = _columns(hypothesis, references)
    parts = [
        delayed(_frame_partial)(p, hypothesis, refs, objs, block_lines, threads, k)
        for k, p in enumerate(df[[hypothesis, *refs]].to_delayed())
    ]
    return _scores_of_partials(parts, names, objs, scheduler, progress, "df")


def score_bag(
    bag: Any,
    metrics: MetricsArg = ("bleu",),
    *,
    scheduler: SchedulerArg = None,
    threads: int | None = 1,
    progress: ProgressArg = None,
) -> dict[str, Score]:
    """Corpus scores of a Dask bag of ``(hypothesis, [reference, ...])`` records.

    Parameters
    ----------
    bag
        A ``dask.bag.Bag``; records are one corpus in partition order. A record with fewer
        references than others has ``None`` in the missing streams.
    metrics
        As in :func:`parbleu.distributed.score_files`.
    scheduler
        As in :func:`parbleu.distributed.score_files`.
    threads
        Threads of each task.
    progress
        As in :func:`parbleu.distributed.score_files` (in partitions).

    Returns
    -------
    dict
        ``{name: Score}``.
    """
    delayed = import_dask("dask").delayed
    names, objs = resolve_metrics(metrics)
    parts = [delayed(_bag_partial)(p, objs, threads) for p in bag.to_delayed()]
    return _scores_of_partials(parts, names, objs, scheduler, progress, "bag")


def _sentence_frame(
    frame: Any, hypothesis: str, references: Sequence[str], metric: Metric[Any], column: str
) -> Any:
    import numpy as np

    out = frame.copy()
    if len(frame) == 0:
        out[column] = np.zeros(0, dtype=np.float64)
        return out
    out[column] = metric.sentence_scores(
        frame[hypothesis].tolist(), _streams(frame, references), workers=1
    )
    return out


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
    from ..pairwise import resolve_metric

    m = resolve_metric(metric)
    refs = _columns(hypothesis, references)
    col = column or (metric if isinstance(metric, str) else m.metric_name).lower()
    meta = df._meta.assign(**{col: df._meta[hypothesis].astype("float64")})
    return df.map_partitions(_sentence_frame, hypothesis, refs, m, col, meta=meta)


def _write_scored(
    part_path: str,
    out_path: str,
    hypothesis: str,
    references: Sequence[str],
    metric: Metric[Any],
    column: str,
    block_lines: int,
) -> str:
    """Worker side: one Parquet file with a score column, written to a temporary name first."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    parts = parquet_parts([part_path], [hypothesis, *references])
    f = pq.ParquetFile(part_path)
    schema = f.schema_arrow.append(pa.field(column, pa.float64()))
    tmp = os.path.join(
        os.path.dirname(out_path), f".{os.path.basename(out_path)}.{uuid.uuid4().hex}.tmp"
    )
    try:
        with pq.ParquetWriter(tmp, schema) as writer:
            for part in parts:
                # Checked (nulls, row numbers) by the same reader as the corpus scores.
                checked = parquet_blocks(part, hypothesis, references, block_lines)
                batches = f.iter_batches(batch_size=block_lines, row_groups=list(part.row_groups))
                for (hyps, streams), batch in zip(checked, batches):
                    scores = metric.sentence_scores(hyps, streams, workers=1)
                    table = pa.Table.from_batches([batch]).append_column(
                        column, pa.array(scores, type=pa.float64())
                    )
                    writer.write_table(table)
            if not parts:
                writer.write_table(schema.empty_table())
        os.replace(tmp, out_path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return out_path


def sentence_scores_parquet(
    source: Any,
    out_dir: str,
    hypothesis: str,
    references: str | Sequence[str],
    metric: MetricArg = "bleu",
    *,
    column: str | None = None,
    scheduler: SchedulerArg = None,
    block_lines: int = DEFAULT_BLOCK_LINES,
    progress: ProgressArg = None,
) -> list[str]:
    """Copy a Parquet dataset with every row's sentence score as a new column.

    Each input file becomes ``out_dir/<its name>``, written by one task into a hidden staging
    directory of ``out_dir``; the files move to their final names when every task has
    succeeded. A job that fails or is interrupted leaves no output behind (and removes
    ``out_dir`` if it created it).

    Parameters
    ----------
    source
        A directory, a glob, one Parquet file or a list of them.
    out_dir
        Output directory (created; must differ from the input's directory).
    hypothesis
        The hypothesis column.
    references
        The reference column(s).
    metric
        As in :func:`with_sentence_scores`.
    column
        Name of the new column (default: the metric's name).
    scheduler
        As in :func:`parbleu.distributed.score_files`.
    block_lines
        Rows held in memory at once by a task.
    progress
        As in :func:`parbleu.distributed.score_files` (in files).

    Returns
    -------
    list of str
        The files written, in input order.
    """
    from ..pairwise import resolve_metric

    import_dask("pyarrow")
    m = resolve_metric(metric)
    refs = _columns(hypothesis, references)
    col = column or (metric if isinstance(metric, str) else m.metric_name).lower()
    files = expand(source, "source")
    parquet_parts(files, [hypothesis, *refs])  # schemas checked before any work starts
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise InvalidOptionError(f"out_dir={out_dir!r}: exists and is not a directory")
    outs = [os.path.join(out_dir, os.path.basename(f)) for f in files]
    if len(set(outs)) != len(outs):
        raise InvalidOptionError(
            "source: two input files have the same name; they would overwrite each other in "
            f"{out_dir!r}"
        )
    for f, o in zip(files, outs):
        if os.path.abspath(f) == os.path.abspath(o):
            raise InvalidOptionError(f"out_dir={out_dir!r}: would overwrite the input {f!r}")
    created = not os.path.exists(out_dir)
    # The tasks write into a hidden staging directory; the files move to their final names
    # only once every task has succeeded, so a failed or interrupted job leaves nothing.
    staging = os.path.join(out_dir, f".parbleu-{uuid.uuid4().hex}")
    try:
        os.makedirs(staging)
    except OSError as e:
        raise InvalidOptionError(
            f"out_dir={out_dir!r}: cannot create the directory ({e.strerror or e})"
        ) from None
    staged = [os.path.join(staging, os.path.basename(o)) for o in outs]
    try:
        with connect(scheduler) as client:
            futs = [
                client.submit(
                    _write_scored, f, o, hypothesis, refs, m, col, block_lines, pure=False
                )
                for f, o in zip(files, staged)
            ]
            try:
                reduce_tree(client, futs, _last, progress=progress, unit="files")
                client.gather(futs)
            except BaseException:
                client.cancel(futs)
                raise
        for s, o in zip(staged, outs):
            os.replace(s, o)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if created:
            with contextlib.suppress(OSError):
                os.rmdir(out_dir)
        raise
    shutil.rmtree(staging, ignore_errors=True)
    return outs


def _last(*xs: Any) -> Any:
    return xs[-1]


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
    streams = _streams(frame, references)
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
    refs = _columns(systems[0] if systems else "", references)
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
