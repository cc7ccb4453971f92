"""Corpus scores on a Dask cluster: text files, Parquet and Arrow datasets, dataframes, bags.

Every partition is one task that reads its blocks (:mod:`.sources`) and extracts their
statistics; the partials merge in a tree on the workers (:mod:`.partials`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InvalidOptionError, LengthMismatchError
from ..progress import ProgressArg
from ..streaming import DEFAULT_BLOCK_LINES
from .cluster import SchedulerArg, connect, import_dask
from .partials import MetricsArg, final_scores, merged_partial, resolve_metrics
from .sources import (
    auto_part_lines,
    bag_blocks,
    blocks_partial,
    check_string_columns,
    cut_ranges,
    expand,
    fragment_blocks,
    frame_blocks,
    index_pair,
    parquet_blocks,
    parquet_parts,
    range_partial,
    reference_columns,
)

if TYPE_CHECKING:
    from ..metrics.base import Metric
    from ..score import Score

__all__ = [
    "DEFAULT_PART_LINES",
    "GRAIN_LINES",
    "score_arrow",
    "score_bag",
    "score_dataframe",
    "score_files",
    "score_parquet",
]

#: Most lines of a text file per partition (one task) when ``part_lines`` is not given.
DEFAULT_PART_LINES = 1 << 20

#: Lines between the offsets recorded by the scan of a text file when ``part_lines`` is
#: chosen automatically (a partition is a multiple of it).
GRAIN_LINES = 1 << 13

PathsArg = Any


def _positive(value: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidOptionError(f"{name}={value!r}: expected a positive integer")
    return value


def score_files(
    hypotheses: PathsArg,
    references: PathsArg,
    metrics: MetricsArg = ("bleu",),
    *,
    scheduler: SchedulerArg = None,
    num_refs: int = 1,
    encoding: str = "utf-8",
    part_lines: int | None = None,
    block_lines: int = DEFAULT_BLOCK_LINES,
    threads: int | None = 1,
    progress: ProgressArg = None,
) -> dict[str, Score]:
    """Corpus scores of text files, computed by the workers of a Dask cluster.

    The hypothesis files (a glob, a directory or a list, sorted by name) are one corpus, in
    that order; the ``i``-th hypothesis file is aligned line by line with the ``i``-th file of
    every reference stream. Each file pair is cut into ranges of ``part_lines`` lines, every
    range is one task that streams its lines (``block_lines`` at a time), and the statistics
    are merged in a tree on the workers. The scores and signatures are those of
    ``metric.corpus_score`` on the concatenated files, bit for bit.

    Parameters
    ----------
    hypotheses
        Hypothesis files: a glob (``"out/*.de"``), a directory, one path or a list.
    references
        One entry per reference stream, each like ``hypotheses`` (a single string is one
        stream); with ``num_refs > 1``, one stream of tab-separated references.
    metrics
        Names (``"bleu"``, ``"chrf"``, ``"chrf++"``, ``"ter"``) or metric objects.
    scheduler
        See :func:`parbleu.distributed.connect` (``"local:N"``, an address, a client, or
        ``None`` for the current client).
    num_refs
        Tab-separated references per line of the reference files.
    encoding
        Text encoding of every file.
    part_lines
        Lines per task; ``None``: equal tasks, ``TASKS_PER_SLOT`` (4) per worker thread of
        the cluster, of at most ``DEFAULT_PART_LINES`` lines (a multiple of
        ``GRAIN_LINES``), so that a file pair is spread over every worker.
    block_lines
        Lines held in memory at once by a task.
    threads
        Threads of each task (1: parallelism comes from the cluster).
    progress
        ``True`` for a progress bar on standard error, a callable ``progress(lines_done,
        total_lines)``, or ``None``; fed as tasks finish on the cluster.

    Returns
    -------
    dict
        ``{name: Score}``.

    Raises
    ------
    LengthMismatchError
        When files differ in their number of files or lines (the file is named).
    FileFormatError
        For bytes that do not decode or a wrong number of fields (file and line named).
    """
    import codecs

    names, objs = resolve_metrics(metrics)
    if part_lines is not None:
        _positive(part_lines, "part_lines")
    _positive(block_lines, "block_lines")
    _positive(num_refs, "num_refs")
    codecs.lookup(encoding)
    hyp_files = expand(hypotheses, "hypotheses")
    streams = [references] if isinstance(references, (str, os.PathLike)) else list(references)
    if not streams:
        raise InvalidOptionError("references: no reference file given")
    if num_refs > 1 and len(streams) != 1:
        raise InvalidOptionError(
            f"num_refs={num_refs}: expected one reference stream of tab-separated references"
        )
    ref_files = [expand(s, "references") for s in streams]
    for s, files in zip(streams, ref_files):
        if len(files) != len(hyp_files):
            raise LengthMismatchError(
                f"references: {os.fspath(s) if isinstance(s, (str, os.PathLike)) else 'a list'} "
                f"gives {len(files)} files but hypotheses give {len(hyp_files)}; the i-th files "
                "are aligned"
            )
    every = GRAIN_LINES if part_lines is None else part_lines
    # Every file is scanned (and the line counts checked) before the cluster is involved.
    indexes = [
        index_pair(h, [files[i] for files in ref_files], every, encoding)
        for i, h in enumerate(hyp_files)
    ]
    with connect(scheduler) as client:
        part = part_lines
        if part is None:
            slots = sum(client.nthreads().values())
            n_lines = sum(max(ix.n_lines, 0) for ix in indexes)
            part = auto_part_lines(n_lines, slots, GRAIN_LINES, DEFAULT_PART_LINES)
        ranges = [r for ix in indexes for r in cut_ranges(ix, part)]
        del indexes  # an offset every GRAIN_LINES lines: kept only while the ranges are cut
        leaves = [
            client.submit(
                range_partial, r, objs, num_refs, encoding, block_lines, threads, pure=False
            )
            for r in ranges
        ]
        total = merged_partial(
            client,
            leaves,
            len(objs),
            weights=[max(r.n_lines, 0) for r in ranges],
            progress=progress,
        )
    return dict(zip(names, final_scores(objs, total, "hypotheses")))


def score_parquet(
    source: PathsArg,
    hypothesis: str,
    references: str | Sequence[str],
    metrics: MetricsArg = ("bleu",),
    *,
    scheduler: SchedulerArg = None,
    block_lines: int = DEFAULT_BLOCK_LINES,
    threads: int | None = 1,
    progress: ProgressArg = None,
) -> dict[str, Score]:
    """Corpus scores of a hypothesis column against reference columns of Parquet files.

    Every row group of every file (sorted by name) is one task, read ``block_lines`` rows at
    a time; rows are one corpus in file order, then row order.

    Parameters
    ----------
    source
        A Parquet dataset: a directory, a glob, one file or a list of files.
    hypothesis
        The hypothesis column (strings).
    references
        The reference column(s), one per reference stream (null: no reference in that
        stream for that row).
    metrics
        As in :func:`score_files`.
    scheduler
        As in :func:`score_files`.
    block_lines
        Rows held in memory at once by a task.
    threads
        Threads of each task.
    progress
        As in :func:`score_files` (in rows).

    Returns
    -------
    dict
        ``{name: Score}``.
    """
    names, objs = resolve_metrics(metrics)
    _positive(block_lines, "block_lines")
    refs = reference_columns(references)
    import_dask("pyarrow")
    parts = parquet_parts(expand(source, "source"), [hypothesis, *refs])
    with connect(scheduler) as client:
        leaves = [
            client.submit(
                blocks_partial,
                parquet_blocks,
                (p, hypothesis, refs, block_lines),
                objs,
                threads,
                pure=False,
            )
            for p in parts
        ]
        total = merged_partial(
            client,
            leaves,
            len(objs),
            weights=[p.n_rows for p in parts],
            progress=progress,
            unit="rows",
        )
    return dict(zip(names, final_scores(objs, total, "source")))


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
    refs = reference_columns(references)
    if not hasattr(dataset, "get_fragments"):
        raise InvalidOptionError(
            f"dataset: a {type(dataset).__name__}; expected a pyarrow.dataset.Dataset"
        )
    check_string_columns(dataset.schema, [hypothesis, *refs], "the dataset")
    fragments = list(dataset.get_fragments())
    with connect(scheduler) as client:
        leaves = [
            client.submit(
                blocks_partial,
                fragment_blocks,
                (f, k, hypothesis, refs, block_lines),
                objs,
                threads,
                pure=False,
            )
            for k, f in enumerate(fragments)
        ]
        total = merged_partial(client, leaves, len(objs), progress=progress, unit="fragments")
    return dict(zip(names, final_scores(objs, total, "dataset")))


def _delayed_scores(
    parts: Sequence[Any],
    names: list[str],
    metrics: list[Metric[Any]],
    scheduler: SchedulerArg,
    progress: ProgressArg,
    what: str,
) -> dict[str, Score]:
    """Compute delayed partials on the cluster, merge them in a tree, and score the total."""
    with connect(scheduler) as client:
        leaves = client.compute(list(parts))
        total = merged_partial(client, leaves, len(metrics), progress=progress, unit="partitions")
    return dict(zip(names, final_scores(metrics, total, what)))


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
    refs = reference_columns(references)
    parts = [
        delayed(blocks_partial)(frame_blocks, (p, hypothesis, refs, block_lines, k), objs, threads)
        for k, p in enumerate(df[[hypothesis, *refs]].to_delayed())
    ]
    return _delayed_scores(parts, names, objs, scheduler, progress, "df")


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
    parts = [delayed(blocks_partial)(bag_blocks, (p,), objs, threads) for p in bag.to_delayed()]
    return _delayed_scores(parts, names, objs, scheduler, progress, "bag")
