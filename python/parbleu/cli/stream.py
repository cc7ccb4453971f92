"""Streaming corpus scoring for the command line: large files in bounded memory.

When one hypothesis file (``-i FILE``) is scored at corpus level against reference files,
with no option that only the in-memory path honours (``--sentence-level``, ``--confidence``,
the paired tests, ``-t``, ``--origlang``, ``--subset``...: see :func:`in_memory_options`),
and the files together are at least ``PARBLEU_STREAM_MIN_BYTES`` bytes (default 32 MiB;
``0`` streams always), the files are read block by block through
:func:`parbleu.streaming.stream_scores` and only statistics are kept. The output is the
in-memory path's, byte for byte. If anything goes wrong (a missing file, bytes that do not
decode, files of different lengths, a bad option), the streamed attempt is dropped (its log
lines included) and, for inputs up to ``REREAD_MAX_BYTES`` (32 MiB), the in-memory path runs,
so every error message and exit code stays exactly what it was. Larger inputs get the
streamed error itself (exit 1, file and line named): reading them into memory only to word a
message would break the memory bound on the error path.

On a terminal (and without ``--quiet``) a progress bar with rate and time left is drawn on
standard error while streaming, and erased when done.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from typing import TYPE_CHECKING, Any

from ..errors import ParbleuError
from .errors import CliError, ExitCode

if TYPE_CHECKING:
    import logging

    from ..progress import ProgressBar

__all__ = [
    "ENV_MIN_BYTES",
    "STATS_OPTIONS",
    "in_memory_options",
    "progress_bar",
    "should_stream",
    "stream_results",
    "wants_progress",
]

#: Environment variable: streaming starts at this many bytes of input (0: always).
ENV_MIN_BYTES = "PARBLEU_STREAM_MIN_BYTES"
DEFAULT_MIN_BYTES = 32 << 20
#: On a streamed error, inputs up to this size are read again by the in-memory path, whose
#: messages say more (whole-file line counts); larger ones get the streamed message.
REREAD_MAX_BYTES = 32 << 20


def _min_bytes() -> int:
    raw = os.environ.get(ENV_MIN_BYTES, "").strip()
    if not raw:
        return DEFAULT_MIN_BYTES
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0:
        # As PARBLEU_WORKERS=abc: one clear error, never a silently ignored setting.
        from ..errors import InvalidOptionError

        raise InvalidOptionError(
            f"environment variable {ENV_MIN_BYTES}={raw!r}: expected an integer >= 0 "
            "(bytes of input from which files are streamed; 0: always)"
        )
    return value


def _input_bytes(args: argparse.Namespace) -> int:
    try:
        return sum(os.path.getsize(p) for p in (*args.refs, args.input[0]))
    except OSError:
        return 0


#: Options of the main command that a statistics-only path (streaming, ``--scheduler``)
#: honours exactly as the in-memory path does: they choose the input, reach the metrics'
#: constructors (``build_metrics``), or only shape the output. ``--detail`` is here because
#: without a test set both paths print the same "no subset information" line.
STATS_OPTIONS = frozenset(
    {
        "input",
        "refs",
        "num_refs",
        "encoding",
        "langpair",
        "scheduler",
        "metrics",
        "quiet",
        "short",
        "score_only",
        "width",
        "detail",
        "no_color",
        "format",
        # Read only by --confidence and the paired tests, which stay in memory; one system's
        # corpus score ignores them on every path.
        "confidence_n",
        "paired_ar_n",
        "paired_bs_n",
        "paired_jobs",
    }
)


@functools.lru_cache(maxsize=1)
def _defaults() -> dict[str, tuple[Any, str]]:
    """``{dest: (default, first flag)}`` of every option of the main command."""
    from .parser import build_parser

    return {
        a.dest: (a.default, a.option_strings[0] if a.option_strings else a.dest)
        for a in build_parser().options
        if a.default != argparse.SUPPRESS
    }


def in_memory_options(args: argparse.Namespace) -> list[str]:
    """List the options given (not at their default) that only the in-memory path honours.

    Everything outside :data:`STATS_OPTIONS` and the metrics' own options counts, so an
    option added to the parser later keeps the command in memory until a statistics-only
    path is taught it: it can never be silently ignored there.

    Parameters
    ----------
    args
        Parsed command line of the main command.

    Returns
    -------
    list of str
        Their flags (``--origlang``, ``--test-set``, ...), in parser order.
    """
    from ..metrics.registry import get_metric, metric_names

    metric_prefixes = tuple(get_metric(name).option_prefix for name in metric_names())
    found = []
    for dest, (default, flag) in _defaults().items():
        if dest in STATS_OPTIONS or dest.startswith(metric_prefixes):
            continue
        if getattr(args, dest, default) != default:
            found.append(flag)
    return found


def should_stream(args: argparse.Namespace) -> bool:
    """Whether this command line is scored by streaming (see the module docstring)."""
    if not args.input or len(args.input) != 1 or not args.refs:
        return False
    try:
        size = sum(os.path.getsize(p) for p in (*args.refs, args.input[0]))
    except OSError:
        return False
    # The size first: the options check builds a second parser, which small files never need.
    return size >= _min_bytes() and not in_memory_options(args)


def progress_bar(quiet: bool, unit: str) -> ProgressBar | None:
    """Return a progress bar on standard error, or ``None`` with ``quiet`` or off a terminal.

    Parameters
    ----------
    quiet
        ``-q``: no bar.
    unit
        What the bar counts (``lines``, ``rows``, ``files``).

    Returns
    -------
    ProgressBar or None
        A bar to feed and close, or ``None``.
    """
    if not wants_progress(quiet):
        return None
    from ..progress import ProgressBar

    return ProgressBar(0, unit, "parbleu")


def wants_progress(quiet: bool) -> bool:
    """Whether long work shows a progress bar: standard error is a terminal and no ``-q``.

    Parameters
    ----------
    quiet
        ``-q``.

    Returns
    -------
    bool
        ``True`` on a terminal without ``-q`` (what ``progress=True`` of the API draws).
    """
    isatty = getattr(sys.stderr, "isatty", None)
    try:
        return not quiet and isatty is not None and bool(isatty())
    except (OSError, ValueError):
        return False


class _Hold:
    """Holds back log records so that they can be replayed or dropped (a logging filter)."""

    def __init__(self) -> None:
        self.records: list[logging.LogRecord] = []

    def filter(self, record: logging.LogRecord) -> bool:
        self.records.append(record)
        return False


def stream_scores(*args: Any, **kwargs: Any) -> Any:
    """Run :func:`parbleu.streaming.stream_scores`, imported on first use.

    Most commands never stream, and the streaming layer imports BLEU.
    """
    from ..streaming import stream_scores as scores

    return scores(*args, **kwargs)


def stream_results(args: argparse.Namespace, trg_lang: str | None, fmt: str) -> list[str] | None:
    """Score the one system by streaming; ``None`` means: use the in-memory path.

    Parameters
    ----------
    args
        Parsed command line.
    trg_lang
        Target language from ``-l``, or ``None``.
    fmt
        Output format (after the ``--detail``/JSON adjustment).

    Returns
    -------
    list of str or None
        One rendered score per metric (sorted by name), or ``None`` when streaming does not
        apply or failed (the in-memory path then reports the error exactly as before).
    """
    if not should_stream(args):
        return None
    import logging

    from ..streaming import FieldCountError
    from .score import build_metrics, render_scores

    log = logging.getLogger("parbleu")
    hold = _Hold()
    log.addFilter(hold)
    bar = progress_bar(args.quiet, "lines")
    try:
        metrics: dict[str, Any] = build_metrics(
            args,
            None,  # type: ignore[arg-type]  # references come block by block
            trg_lang,
            False,
        )
        if any(getattr(m, "plain_columns", False) for m in metrics.values()):
            return None  # several scores of one metric (bleu-coco): the in-memory path prints them
        names = sorted(metrics)
        scores = stream_scores(
            args.input[0],
            args.refs,
            [metrics[n] for n in names],
            num_refs=args.num_refs,
            encoding=args.encoding,
            progress=None if bar is None else bar.update,
        )
    except FieldCountError as e:
        if _input_bytes(args) > REREAD_MAX_BYTES:
            # The in-memory path's message and exit code, from the streamed error.
            raise CliError(e.message("--num-refs"), ExitCode.BAD_FIELDS) from None
        return None
    except ParbleuError as e:
        if _input_bytes(args) > REREAD_MAX_BYTES:
            # Re-reading a large input into memory only to word the message would break the
            # memory bound on the error path: report the streamed error (file and line named).
            raise CliError(str(e)) from None
        return None
    except (CliError, OSError, UnicodeError, EOFError, ValueError):
        return None
    finally:
        log.removeFilter(hold)
        if bar is not None:
            bar.close(clear=True)
    from .io import warn_decoding

    # After the scoring: a fallback to the in-memory path would warn a second time.
    for path in args.refs:
        warn_decoding(path, args.encoding, "reference file")
    warn_decoding(args.input[0], args.encoding, "hypothesis file")
    for record in hold.records:
        log.handle(record)
    return render_scores(metrics, dict(zip(names, scores)), args, fmt)
