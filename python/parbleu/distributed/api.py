"""Corpus scores of files and Parquet datasets on a Dask cluster."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InvalidOptionError, LengthMismatchError
from ..progress import ProgressArg
from ..streaming import DEFAULT_BLOCK_LINES
from .cluster import SchedulerArg, connect, import_dask, reduce_tree
from .partials import MetricsArg, Partial, final_scores, merge_all, resolve_metrics
from .sources import (
    auto_part_lines,
    cut_ranges,
    expand,
    index_pair,
    parquet_parts,
    range_partial,
)

if TYPE_CHECKING:
    from ..score import Score

__all__ = [
    "DEFAULT_PART_LINES",
    "GRAIN_LINES",
    "MetricsArg",
    "resolve_metrics",
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
            total = sum(max(ix.n_lines, 0) for ix in indexes)
            part = auto_part_lines(total, slots, GRAIN_LINES, DEFAULT_PART_LINES)
        ranges = [r for ix in indexes for r in cut_ranges(ix, part)]
        del indexes  # an offset every GRAIN_LINES lines: kept only while the ranges are cut
        leaves = [
            client.submit(
                range_partial, r, objs, num_refs, encoding, block_lines, threads, pure=False
            )
            for r in ranges
        ]
        total = reduce_tree(
            client,
            leaves,
            merge_all,
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
    from .frames import parquet_partial

    names, objs = resolve_metrics(metrics)
    _positive(block_lines, "block_lines")
    refs = [references] if isinstance(references, str) else list(references)
    if not refs:
        raise InvalidOptionError("references: no reference column given")
    import_dask("pyarrow")
    parts = parquet_parts(expand(source, "source"), [hypothesis, *refs])
    with connect(scheduler) as client:
        leaves = [
            client.submit(
                parquet_partial, p, hypothesis, refs, objs, block_lines, threads, pure=False
            )
            for p in parts
        ]
        if not leaves:
            return dict(zip(names, final_scores(objs, Partial.empty(len(objs)), "source")))
        total = reduce_tree(
            client,
            leaves,
            merge_all,
            weights=[p.n_rows for p in parts],
            progress=progress,
            unit="rows",
        )
    return dict(zip(names, final_scores(objs, total, "source")))
