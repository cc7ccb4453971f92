r"""Score files of any length in bounded memory: statistics are kept, text is not.

:func:`score_files` reads the hypothesis and reference files block by block (``block_lines``
lines of each at a time), extracts every metric's statistics for the block and adds them to a
running sum; memory depends on the block size, not on the file length. The numbers are those
of ``metric.corpus_score`` on the whole files (integer sums for BLEU and chrF; TER's float rows
are added one after the other in file order, as SacreBLEU does).

Files are read as SacreBLEU's command line reads them: lines end at ``"\n"`` only, each line
is ``rstrip()``-ed, a name ending in ``.gz`` is decompressed, and with ``num_refs > 1`` the one
reference file holds that many tab-separated references per line.
"""

from __future__ import annotations

import codecs
import os
import zlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, Union

from ._options import check_count
from .errors import (
    EmptyInputError,
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
    ParbleuError,
)
from .metrics.bleu import warn_tokenized_period as warn_tokenized_period  # re-exported (partials)
from .progress import ProgressArg, ProgressCallback, make_progress

if TYPE_CHECKING:
    from .metrics.base import Metric
    from .score import Score

__all__ = [
    "AlignedBlocks",
    "FieldCountError",
    "FileFormatError",
    "LineReader",
    "score_files",
    "stream_scores",
]

#: A file name as ``open()`` takes it.
PathArg = Union[str, bytes, "os.PathLike[Any]"]

#: Lines of each file per block.
DEFAULT_BLOCK_LINES = 1 << 16
_CHUNK_BYTES = 1 << 20


class FileFormatError(ParbleuError, ValueError):
    """A file cannot be read as text lines (bad encoding, wrong number of fields)."""


class FieldCountError(FileFormatError):
    """A line of a file of ``num_refs`` tab-separated references has another number of fields.

    Parameters
    ----------
    source
        The file, as messages name it (``reference file 'refs.tsv'``).
    line
        Line number (from 1).
    expected, found
        Fields expected (``num_refs``) and found.
    """

    def __init__(self, source: str, line: int, expected: int, found: int) -> None:
        self.source, self.line, self.expected, self.found = source, line, expected, found
        super().__init__(self.message("num_refs"))

    def message(self, option: str) -> str:
        """Return the message, naming the option as the caller spells it (``--num-refs``)."""
        return (
            f"{self.source}: line {self.line}: expected {self.expected} tab-separated fields "
            f"({option}), but found {self.found}"
        )

    def __reduce__(self) -> tuple[type[FieldCountError], tuple[str, int, int, int]]:
        # Raised on Dask workers too: pickled with its own arguments, not the message.
        return (type(self), (self.source, self.line, self.expected, self.found))


def as_path(path: Any, what: str) -> str | bytes:
    """``path`` as ``open()`` takes a file name (``str``, ``bytes``, ``os.PathLike``), or raise.

    An ``int`` (a file descriptor) and anything else are refused with ``InputTypeError``: a
    file is only ever opened by name here, never a descriptor the caller did not pass as one.

    Parameters
    ----------
    path
        The caller's value.
    what
        Argument name for the message.

    Returns
    -------
    str or bytes
        ``os.fspath(path)``.
    """
    if isinstance(path, (str, bytes, os.PathLike)):
        p = os.fspath(path)
        if isinstance(p, (str, bytes)):
            return p
    raise InputTypeError(
        f"{what}: got {type(path).__name__} ({path!r:.60}); expected a file name (str, bytes "
        "or os.PathLike)"
    )


def _path_list(paths: Any, what: str) -> list[str | bytes]:
    """One name (``str``/``bytes``/``os.PathLike``) or an iterable of names, as a list."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        return [as_path(paths, what)]
    try:
        items = list(paths)
    except TypeError:
        raise InputTypeError(
            f"{what}: got {type(paths).__name__}; expected a file name or a list of file names"
        ) from None
    return [as_path(p, f"{what}[{i}]") for i, p in enumerate(items)]


class LineReader:
    r"""Lines of one file, ``rstrip()``-ed, read incrementally.

    Parameters
    ----------
    path
        File name (``.gz``: gzip-compressed).
    encoding
        Text encoding.
    what
        ``"hypothesis file"`` or ``"reference file"``, for messages.
    start, end
        Byte range to read (uncompressed files only; ``start`` must begin a line): lets
        several processes read one file in pieces (:mod:`parbleu.distributed`).
    first_line
        Line number of the line at ``start``, for messages.
    """

    def __init__(
        self,
        path: PathArg,
        encoding: str,
        what: str,
        *,
        start: int = 0,
        end: int | None = None,
        first_line: int = 1,
    ) -> None:
        path = as_path(path, what)
        self.path = path
        self.name = f"{what} {os.fsdecode(path)!r}"
        self._raw: BinaryIO = open(path, "rb")  # noqa: SIM115 - closed by close()
        self._file: Any = self._raw
        if os.fsdecode(path).endswith(".gz"):
            if start or end is not None:
                self._raw.close()
                raise InvalidOptionError(f"{self.name}: a byte range of a .gz file")
            import gzip

            self._file = gzip.GzipFile(fileobj=self._raw)
        elif start:
            self._raw.seek(start)
        self._end = end
        self.size = os.fstat(self._raw.fileno()).st_size if end is None else end - start
        self._start = start
        self._dec = codecs.getincrementaldecoder(encoding)()
        self._lines: list[str] = []
        self._pos = 0
        self._tail = ""
        self._eof = False
        #: Complete lines split off so far (returned or buffered), plus ``first_line - 1``.
        self._split = first_line - 1
        #: Lines returned so far.

    def close(self) -> None:
        """Close the file."""
        self._raw.close()

    def __enter__(self) -> LineReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def bytes_read(self) -> int:
        """Bytes of the file on disk consumed so far (compressed bytes for ``.gz``)."""
        try:
            return self._raw.tell() - self._start
        except (OSError, ValueError):
            return 0

    def _fill(self) -> None:
        n = _CHUNK_BYTES if self._end is None else min(_CHUNK_BYTES, self._end - self._raw.tell())
        try:
            data = self._file.read(n) if n > 0 else b""
        except (EOFError, OSError, zlib.error) as e:
            # gzip.BadGzipFile is an OSError; EOFError: a .gz file cut short.
            what = "not a valid gzip file" if self._file is not self._raw else "cannot be read"
            raise FileFormatError(f"{self.name}: {what} ({e})") from None
        try:
            text = self._dec.decode(data, final=not data)
        except UnicodeDecodeError as e:
            prefix = self._tail + data[: max(e.start, 0)].decode("utf-8", errors="replace")
            line = self._split + prefix.count("\n") + 1
            bad = " ".join(f"0x{b:02x}" for b in e.object[e.start : min(e.end, e.start + 4)])
            raise FileFormatError(
                f"{self.name}: line {line}: not valid {e.encoding} ({bad}: {e.reason})"
            ) from None
        if not data:
            self._eof = True
        parts = (self._tail + text).split("\n")
        self._tail = parts.pop()
        if self._eof and self._tail:
            parts.append(self._tail)
            self._tail = ""
        if self._pos:
            del self._lines[: self._pos]
            self._pos = 0
        self._lines.extend(p.rstrip() for p in parts)
        self._split += len(parts)

    def read(self, n: int) -> list[str]:
        """Up to ``n`` lines (fewer only at the end of the file)."""
        while len(self._lines) - self._pos < n and not self._eof:
            self._fill()
        out = self._lines[self._pos : self._pos + n]
        self._pos += len(out)
        return out


class AlignedBlocks:
    """Blocks of aligned lines: ``(hypotheses, reference streams)`` pairs, checked.

    Iterating reads ``block_lines`` lines of every file at a time, checks that the files end
    together and splits tab-separated references (``num_refs > 1``); errors name the file and
    the line.

    Parameters
    ----------
    hyp
        The hypothesis reader.
    refs
        One reader per reference stream, or one reader of ``num_refs`` tab-separated fields.
    num_refs
        Tab-separated references per line of the single reference file.
    block_lines
        Lines per block.
    """

    def __init__(
        self, hyp: LineReader, refs: Sequence[LineReader], num_refs: int, block_lines: int
    ) -> None:
        self.hyp = hyp
        self.refs = list(refs)
        self.num_refs = num_refs
        self.block_lines = block_lines
        #: Line number of the first line, minus one (readers of a byte range start later).
        self.base = hyp._split
        #: Lines read so far.
        self.n_lines = 0

    def __iter__(self) -> Iterator[tuple[list[str], list[list[str]]]]:
        readers = [*self.refs, self.hyp]
        while True:
            hyps = self.hyp.read(self.block_lines)
            ref_blocks = [r.read(self.block_lines) for r in self.refs]
            lengths = [len(b) for b in (*ref_blocks, hyps)]
            done = self.base + self.n_lines
            if min(lengths) != max(lengths):
                short = readers[lengths.index(min(lengths))]
                long = readers[lengths.index(max(lengths))]
                raise LengthMismatchError(
                    f"{short.name} ends after {done + min(lengths)} lines but {long.name} "
                    f"continues: line {done + min(lengths) + 1} has no counterpart; the files "
                    "must be aligned line by line (nothing is truncated)"
                )
            if not hyps:
                return
            if self.num_refs == 1:
                streams = ref_blocks
            else:
                streams = []
                for k, line in enumerate(ref_blocks[0]):
                    fields = line.split("\t", self.num_refs - 1)
                    if len(fields) != self.num_refs:
                        raise FieldCountError(
                            self.refs[0].name, done + k + 1, self.num_refs, len(fields)
                        )
                    if not streams:  # made once a line has that many fields (O(input))
                        streams = [[] for _ in range(self.num_refs)]
                    for s, field in zip(streams, fields):
                        s.append(field)
            self.n_lines += len(hyps)
            yield hyps, streams


def resolve_corpus_metric(metric: str | Metric[Any]) -> tuple[str, Metric[Any]]:
    """Return the name and object of a metric given by name (corpus defaults) or object.

    Parameters
    ----------
    metric
        ``"bleu"``, ``"chrf"``, ``"chrf++"``, ``"ter"`` (as ``BLEU()`` etc.), or a metric
        object (named by its ``metric_name``).

    Returns
    -------
    tuple
        ``(name, metric)``.
    """
    from .metrics.base import Metric
    from .metrics.registry import make_metric, metric_aliases

    if isinstance(metric, Metric):
        return metric.metric_name, metric
    if isinstance(metric, str) and metric.lower() in metric_aliases():
        return metric, make_metric(metric)
    # The names are read now: a metric registered later is listed.
    raise InvalidOptionError(
        f"metrics: {metric!r} is not one of {', '.join(map(repr, metric_aliases()))} or a "
        "parbleu metric object"
    )


def stream_scores(
    hypothesis_file: PathArg,
    reference_files: PathArg | Sequence[PathArg],
    metrics: Sequence[Metric[Any]],
    *,
    num_refs: int = 1,
    encoding: str = "utf-8",
    block_lines: int = DEFAULT_BLOCK_LINES,
    workers: int | None = None,
    progress: ProgressCallback | None = None,
) -> list[Score]:
    """Corpus scores of ``metrics`` on two aligned files, block by block.

    Parameters
    ----------
    hypothesis_file
        The system output, one segment per line.
    reference_files
        Reference files, one reference stream each; with ``num_refs > 1``, exactly one file
        of tab-separated references.
    metrics
        Metric objects (their options are used as they are).
    num_refs
        Tab-separated references per line of the single reference file.
    encoding
        Text encoding of every file.
    block_lines
        Lines of each file held in memory at once.
    workers
        Threads, as elsewhere.
    progress
        Called as ``progress(lines_done, estimated_total_lines)`` after every block.

    Returns
    -------
    list of Score
        One score per metric, in order.
    """
    hypothesis_file = as_path(hypothesis_file, "hypothesis_file")
    reference_files = _path_list(reference_files, "reference_files")
    if not reference_files:
        raise InvalidOptionError("reference_files: no reference file given")
    num_refs = check_count("num_refs", num_refs, 1, 1 << 20)
    block_lines = check_count("block_lines", block_lines, 1, 1 << 40)
    if num_refs > 1 and len(reference_files) != 1:
        raise InvalidOptionError(
            f"num_refs={num_refs}: expected 1, or several tab-separated references in exactly "
            "one reference file"
        )
    try:
        text = getattr(codecs.lookup(encoding), "_is_text_encoding", True)
    except (LookupError, TypeError):
        raise InvalidOptionError(f"encoding={encoding!r}: unknown encoding") from None
    if not text:
        raise InvalidOptionError(f"encoding={encoding!r}: not a text encoding")

    readers: list[LineReader] = []
    checks = [m.checks_tokenized_period for m in metrics]
    try:
        for path in reference_files:
            readers.append(LineReader(path, encoding, "reference file"))
        hyp = LineReader(hypothesis_file, encoding, "hypothesis file")
        readers.append(hyp)
        for m in metrics:
            m.checks_tokenized_period = False  # done once for the whole file, below
        totals: list[Any] = [None] * len(metrics)
        blocks = AlignedBlocks(hyp, readers[:-1], num_refs, block_lines)
        periods = 0
        for hyps, streams in blocks:
            periods += sum(1 for h in hyps if h.endswith(" ."))
            for k, m in enumerate(metrics):
                rows = m.extract_stats(hyps, streams, workers=workers)
                totals[k] = m.add_rows(totals[k], rows)
            n_lines = blocks.n_lines
            if progress is not None:
                done = hyp.bytes_read
                est = n_lines if done <= 0 else max(n_lines, round(n_lines * hyp.size / done))
                progress(n_lines, est)
    finally:
        for m, c in zip(metrics, checks):
            m.checks_tokenized_period = c
        for r in readers:
            r.close()
    if blocks.n_lines == 0:
        raise EmptyInputError(f"{hyp.name} is empty: there is nothing to score")
    if periods >= 100 and any(checks):
        warn_tokenized_period()
    return [m.score_row(t) for m, t in zip(metrics, totals)]


def score_files(
    hypothesis_file: PathArg,
    reference_files: PathArg | Sequence[PathArg],
    metrics: str | Metric[Any] | Sequence[str | Metric[Any]] = ("bleu",),
    *,
    num_refs: int = 1,
    encoding: str = "utf-8",
    block_lines: int = DEFAULT_BLOCK_LINES,
    workers: int | None = None,
    progress: ProgressArg = None,
) -> dict[str, Score]:
    """Corpus scores of a hypothesis file against reference files, in bounded memory.

    Parameters
    ----------
    hypothesis_file
        System output, one segment per line (``.gz`` allowed).
    reference_files
        One file per reference stream (or one file of ``num_refs`` tab-separated references).
    metrics
        Names (``"bleu"``, ``"chrf"``, ``"chrf++"``, ``"ter"``: corpus defaults, as
        ``BLEU()``) or metric objects.
    num_refs
        Tab-separated references per line of the single reference file.
    encoding
        Text encoding.
    block_lines
        Lines of each file held in memory at once (memory does not grow with the files).
    workers
        Threads, as elsewhere.
    progress
        ``True`` for a progress bar on standard error, a callable ``progress(lines_done,
        estimated_total_lines)``, or ``None``.

    Returns
    -------
    dict
        ``{name: score}``: the name given, or the metric's ``metric_name`` for an object.

    Raises
    ------
    LengthMismatchError
        When one file ends before another; the message names the line without a counterpart.
    FileFormatError
        For bytes that do not decode (file and line named) or a wrong number of fields.
    """
    if isinstance(metrics, str) or not isinstance(metrics, Sequence):
        metrics = [metrics]
    named = [resolve_corpus_metric(m) for m in metrics]
    names = [n for n, _ in named]
    if len(set(names)) != len(names):
        raise InvalidOptionError(f"metrics: names must be distinct, got {names}")
    hypothesis_file = as_path(hypothesis_file, "hypothesis_file")
    refs = _path_list(reference_files, "reference_files")
    report, bar = make_progress(progress, 0, "lines", "scoring")
    try:
        scores = stream_scores(
            hypothesis_file,
            refs,
            [m for _, m in named],
            num_refs=num_refs,
            encoding=encoding,
            block_lines=block_lines,
            workers=workers,
            progress=report,
        )
    finally:
        if bar is not None:
            bar.close()
    return dict(zip(names, scores))
