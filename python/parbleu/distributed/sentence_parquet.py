"""A copy of a Parquet dataset with every row's sentence score as a new column.

One task a file, each written under a temporary name in a hidden staging directory; the files
take their final names only when every task has succeeded.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InvalidOptionError
from ..progress import ProgressArg
from ..streaming import DEFAULT_BLOCK_LINES
from .cluster import SchedulerArg, connect, import_dask, reduce_tree
from .frames import sentence_setup
from .sources import expand, parquet_blocks, parquet_parts

if TYPE_CHECKING:
    from ..metrics.base import Metric
    from ..pairwise import MetricArg

__all__ = ["sentence_scores_parquet"]


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
    import_dask("pyarrow")
    m, refs, col = sentence_setup(metric, references, column)
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
