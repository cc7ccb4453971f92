"""Partitions of text files, Parquet and Arrow datasets, dataframes and bags, and their reading.

A text file pair is cut into line ranges by one scan of each file for its newlines (a byte
offset every ``part_lines`` lines), so one large file is scored by many workers; a ``.gz``
file cannot be entered in the middle and is one partition. A Parquet file is cut into its
row groups. A worker streams its partition block by block (``block_lines`` rows at a time),
so its memory does not depend on the partition's size.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import InputTypeError, InvalidOptionError, LengthMismatchError
from ..streaming import AlignedBlocks, FileFormatError, LineReader
from .partials import Partial, extract_partial

if TYPE_CHECKING:
    from ..metrics.base import Metric

__all__ = [
    "FileRange",
    "PairIndex",
    "ParquetPart",
    "auto_part_lines",
    "check_string_columns",
    "checked_blocks",
    "cut_ranges",
    "expand",
    "file_ranges",
    "index_pair",
    "line_index",
    "parquet_blocks",
    "parquet_parts",
    "range_partial",
    "reference_columns",
]

_SCAN_BYTES = 1 << 24

#: Tasks per worker thread when the lines per task are chosen automatically.
TASKS_PER_SLOT = 4


def expand(
    pattern: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], what: str
) -> list[str]:
    """Files of a glob, a directory (its files, recursively) or a list, sorted by name."""
    if isinstance(pattern, (str, os.PathLike)):
        p = os.fspath(pattern)
        if os.path.isdir(p):
            found = [
                os.path.join(d, f)
                for d, _, fs in os.walk(p)
                for f in fs
                if not f.startswith((".", "_"))
            ]
        elif glob.has_magic(p) and not os.path.isfile(p):  # a file named "a[1].txt" is a file
            found = [f for f in glob.glob(p, recursive=True) if os.path.isfile(f)]
        else:
            found = [p]
        files = sorted(found)
    else:
        files = [os.fspath(f) for f in pattern]
    if not files:
        raise InvalidOptionError(f"{what}: no file matches {os.fspath(pattern)!r}")  # type: ignore[arg-type]
    for f in files:
        if not os.path.isfile(f):
            raise InvalidOptionError(f"{what}: {f!r} is not a file")
    return files


def line_index(path: str, every: int) -> tuple[list[int], int]:
    r"""Byte offsets of lines ``1, every + 1, 2 * every + 1, ...`` and the number of lines.

    Lines end at ``"\\n"``; a last line without one counts (as :class:`LineReader` reads it).
    """
    import numpy as np

    starts = [0]
    newlines = 0
    pos = 0
    last = b""
    with open(path, "rb") as f:
        while True:
            chunk = f.read(_SCAN_BYTES)
            if not chunk:
                break
            at = np.flatnonzero(np.frombuffer(chunk, dtype=np.uint8) == 10)
            # Line k * every + 1 starts after newline number k * every.
            first = (-newlines - 1) % every
            starts.extend((pos + at[first::every] + 1).tolist())
            newlines += len(at)
            pos += len(chunk)
            last = chunk[-1:]
    lines = newlines + (1 if last not in (b"", b"\n") else 0)
    # Keep only starts of lines that exist (not the end of a file that ends with "\n").
    return [s for i, s in enumerate(starts) if i * every < lines], lines


@dataclass(frozen=True)
class FileRange:
    """Lines ``first_line ..`` of a hypothesis file and its reference files.

    ``spans`` are ``(path, start, end)`` byte ranges, the hypothesis file's first (``end``
    ``None``: to the end of the file, the only choice for ``.gz``); ``n_lines`` is -1 when
    unknown.
    """

    spans: tuple[tuple[str, int, int | None], ...]
    first_line: int
    n_lines: int


@dataclass(frozen=True)
class PairIndex:
    """Where every ``every``-th line starts in a hypothesis file and its reference files.

    ``starts`` holds, per path (the hypothesis file first), the byte offsets of lines ``1,
    every + 1, ...``; ``n_lines`` is -1 when the files cannot be cut (``.gz``, or an encoding
    whose newline is not the byte ``0x0a``): then they are one range.
    """

    paths: tuple[str, ...]
    every: int
    starts: tuple[list[int], ...]
    n_lines: int


def index_pair(hyp: str, refs: Sequence[str], every: int, encoding: str = "utf-8") -> PairIndex:
    """Scan a hypothesis file and its reference files for newlines; check their line counts.

    Raises
    ------
    LengthMismatchError
        When the files differ in their number of lines (both files and the line named).
    """
    paths = (hyp, *refs)
    if any(p.endswith(".gz") for p in paths) or "\n".encode(encoding) != b"\n":
        return PairIndex(paths, every, (), -1)
    indexed = [line_index(p, every) for p in paths]
    counts = [n for _, n in indexed]
    if min(counts) != max(counts):
        short = counts.index(min(counts))
        long = counts.index(max(counts))
        names = ["hypothesis file"] + ["reference file"] * len(refs)
        raise LengthMismatchError(
            f"{names[short]} {paths[short]!r} ends after {counts[short]} lines but "
            f"{names[long]} {paths[long]!r} continues: line {counts[short] + 1} has no "
            "counterpart; the files must be aligned line by line (nothing is truncated)"
        )
    return PairIndex(paths, every, tuple(st for st, _ in indexed), counts[0])


def cut_ranges(index: PairIndex, part_lines: int) -> list[FileRange]:
    """Aligned line ranges of ``part_lines`` lines (a multiple of ``index.every``)."""
    if index.n_lines < 0:
        return [FileRange(tuple((p, 0, None) for p in index.paths), 1, -1)]
    step = part_lines // index.every
    n = index.n_lines
    out = []
    for i in range(0, len(index.starts[0]), step):
        spans = []
        for path, starts in zip(index.paths, index.starts):
            end = starts[i + step] if i + step < len(starts) else os.path.getsize(path)
            spans.append((path, starts[i], end))
        first = i * index.every + 1
        out.append(FileRange(tuple(spans), first, min(part_lines, n - first + 1)))
    return out


def file_ranges(
    hyp: str, refs: Sequence[str], part_lines: int, encoding: str = "utf-8"
) -> list[FileRange]:
    """Cut one hypothesis file and its reference files into aligned line ranges.

    Only where a newline is the byte ``0x0a`` (UTF-8 and the other ASCII-compatible
    encodings) and the files are not compressed; otherwise the pair is one range.
    """
    return cut_ranges(index_pair(hyp, refs, part_lines, encoding), part_lines)


def auto_part_lines(total_lines: int, slots: int, grain: int, most: int) -> int:
    """Lines per task when the caller chose none: equal tasks, several per worker thread.

    ``TASKS_PER_SLOT`` tasks per thread of the cluster balance the load (a worker that
    finishes early takes the next task) while keeping the scheduler's work per task small;
    a task has at most ``most`` lines and is a multiple of ``grain`` lines.
    """
    tasks = max(TASKS_PER_SLOT * max(slots, 1), -(-total_lines // most), 1)
    part = -(-total_lines // tasks)
    return max(grain, -(-part // grain) * grain)


def range_partial(
    part: FileRange,
    metrics: Sequence[Metric[Any]],
    num_refs: int,
    encoding: str,
    block_lines: int,
    threads: int | None,
) -> Partial:
    """Worker side: the statistics of one :class:`FileRange`, streamed block by block."""
    readers: list[LineReader] = []
    try:
        for k, (path, start, end) in enumerate(part.spans):
            what = "hypothesis file" if k == 0 else "reference file"
            try:
                if end is None:
                    readers.append(LineReader(path, encoding, what))
                else:
                    readers.append(
                        LineReader(
                            path, encoding, what, start=start, end=end, first_line=part.first_line
                        )
                    )
            except OSError as e:
                # Found on the client, not here: a worker on another machine without the
                # shared file system, or a file removed since the job started.
                raise FileFormatError(
                    f"{what} {path!r}: cannot be read on a worker ({e.strerror or e}); every "
                    "worker needs the files at the same path"
                ) from None
        blocks = AlignedBlocks(readers[0], readers[1:], num_refs, block_lines)
        return extract_partial(metrics, blocks, threads)
    finally:
        for r in readers:
            r.close()


@dataclass(frozen=True)
class ParquetPart:
    """Row groups of one Parquet file; ``first_row`` is the 1-based file row of the first."""

    path: str
    row_groups: tuple[int, ...]
    first_row: int
    n_rows: int


def parquet_parts(files: Sequence[str], columns: Sequence[str]) -> list[ParquetPart]:
    """One part per row group of every file (columns checked against each file's schema)."""
    import pyarrow.parquet as pq

    out = []
    for path in files:
        try:
            meta = pq.ParquetFile(path)
        except Exception as e:  # pyarrow raises ArrowInvalid, OSError, ... for a bad file
            raise FileFormatError(f"Parquet file {path!r}: cannot be read ({e})") from None
        check_string_columns(meta.schema_arrow, columns, f"Parquet file {path!r}")
        row = 1
        for g in range(meta.num_row_groups):
            n = meta.metadata.row_group(g).num_rows
            out.append(ParquetPart(path, (g,), row, n))
            row += n
    return out


def parquet_blocks(
    part: ParquetPart, hypothesis: str, references: Sequence[str], block_lines: int
) -> Iterator[tuple[list[str], list[list[str | None]]]]:
    """Worker side: ``(hypotheses, reference streams)`` blocks of a Parquet part.

    A null hypothesis or a row whose references are all null raises an error naming the
    file, the row and the column (:func:`parquet_parts` checked that the columns hold strings).
    """
    import pyarrow.parquet as pq

    f = pq.ParquetFile(part.path)
    batches = f.iter_batches(
        batch_size=block_lines, row_groups=list(part.row_groups), columns=[hypothesis, *references]
    )
    return checked_blocks(
        batches, f"Parquet file {part.path!r}", part.first_row, hypothesis, references
    )


def checked_blocks(
    batches: Iterable[Any], where: str, first_row: int, hypothesis: str, references: Sequence[str]
) -> Iterator[tuple[list[str], list[list[str | None]]]]:
    """Arrow record batches (hypothesis column first, then the references) as checked blocks.

    Parameters
    ----------
    batches
        ``pyarrow.RecordBatch`` objects.
    where
        The input, for messages (``"Parquet file 'x.parquet'"``).
    first_row
        Row number (1-based) of the first row, for messages.
    hypothesis, references
        The columns' names, for messages.

    Yields
    ------
    tuple
        ``(hypotheses, reference streams)``.
    """
    row = first_row
    for batch in batches:
        hyps = batch.column(0).to_pylist()
        streams = [batch.column(1 + k).to_pylist() for k in range(len(references))]
        if batch.column(0).null_count:
            raise FileFormatError(
                f"{where}: row {row + hyps.index(None)}: column {hypothesis!r} is null; "
                "expected a string"
            )
        if all(batch.column(1 + k).null_count for k in range(len(references))):
            for i, refs_i in enumerate(zip(*streams)):
                if all(r is None for r in refs_i):
                    raise FileFormatError(
                        f"{where}: row {row + i}: every reference column "
                        f"({', '.join(map(repr, references))}) is null; a segment needs at "
                        "least one reference"
                    )
        row += len(hyps)
        if hyps:
            yield hyps, streams


def reference_columns(references: str | Sequence[str]) -> list[str]:
    """Return the reference column(s) as a list (a string is one column); none is an error."""
    refs = [references] if isinstance(references, str) else list(references)
    if not refs:
        raise InvalidOptionError("references: no reference column given")
    return refs


def fragment_blocks(
    fragment: Any, number: int, hypothesis: str, references: Sequence[str], block_lines: int
) -> Iterator[tuple[list[str], list[list[str | None]]]]:
    """Worker side: ``(hypotheses, reference streams)`` blocks of an Arrow dataset's fragment."""
    batches = fragment.to_batches(columns=[hypothesis, *references], batch_size=block_lines)
    where = f"dataset fragment {number} ({getattr(fragment, 'path', 'in memory')!r})"
    return checked_blocks(batches, where, 1, hypothesis, references)


def frame_blocks(
    frame: Any, hypothesis: str, references: Sequence[str], block_lines: int, number: int
) -> Iterator[tuple[list[str], list[list[Any]]]]:
    """Worker side: blocks of a dataframe partition (pandas), hypotheses checked."""
    for start in range(0, len(frame), block_lines):
        piece = frame.iloc[start : start + block_lines]
        hyps = piece[hypothesis].tolist()
        bad = next((i for i, h in enumerate(hyps) if not isinstance(h, str)), None)
        if bad is not None:
            raise InputTypeError(
                f"partition {number}, row index {piece.index[bad]!r}: column {hypothesis!r} is "
                f"{_null_or_type(hyps[bad])}; expected a string"
            )
        yield hyps, frame_streams(piece, references)


def _null_or_type(x: Any) -> str:
    return "null" if _isna(x) else f"a {type(x).__name__}"


def _isna(x: Any) -> bool:
    import pandas as pd

    return x is None or (not isinstance(x, str) and bool(pd.isna(x)))


def frame_streams(frame: Any, references: Sequence[str]) -> list[list[Any]]:
    """Return reference columns as streams, pandas' missing values (NaN, NA) as ``None``."""
    return [[None if _isna(x) else x for x in frame[c].tolist()] for c in references]


def bag_blocks(records: Sequence[Any]) -> list[tuple[list[str], list[list[Any]]]]:
    """Worker side: a bag partition's ``(hypothesis, [reference, ...])`` records as one block.

    A record with fewer references than others has ``None`` in the missing streams.
    """
    records = list(records)
    if not records:
        return []
    hyps = [r[0] for r in records]
    n = max(len(r[1]) for r in records)
    streams = [[r[1][k] if k < len(r[1]) else None for r in records] for k in range(n)]
    return [(hyps, streams)]


def blocks_partial(
    read: Callable[..., Iterable[Any]],
    args: Sequence[Any],
    metrics: Sequence[Metric[Any]],
    threads: int | None,
) -> Partial:
    """Worker side: the statistics of one partition, whose blocks ``read(*args)`` yields.

    ``read`` is a reader of this module (:func:`parquet_blocks`, :func:`fragment_blocks`,
    :func:`frame_blocks`, :func:`bag_blocks`): the reader and its arguments travel to the
    worker, where the blocks are read one at a time.
    """
    return extract_partial(metrics, read(*args), threads)


def check_string_columns(schema: Any, columns: Sequence[str], where: str) -> None:
    """Raise unless every column is in the Arrow ``schema`` and holds strings."""
    import pyarrow as pa

    names = schema.names
    for c in columns:
        if c not in names:
            raise InvalidOptionError(f"column {c!r}: not in {where} (columns: {names})")
        kind = schema.field(c).type
        if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            raise FileFormatError(f"{where}: column {c!r} holds {kind}; expected strings")
