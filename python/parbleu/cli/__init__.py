"""The ``parbleu`` command: a drop-in for SacreBLEU 2.6's scoring command line.

``main(argv)`` runs the command in-process and returns its exit code (see
:class:`~parbleu.cli.errors.ExitCode` and ``docs/cli.md``); ``console_main()`` is the console
script. Everything that stops the command goes through one path, :func:`_error`: one line on
standard error, never a traceback.

Output is SacreBLEU's, byte for byte, except the ``version`` field of signatures. That
includes SacreBLEU's log lines on standard error (``sacreBLEU: Found 3 systems.``, the
tokenized-period warning): they keep SacreBLEU's ``sacreBLEU:`` prefix so that scripts that
compare or filter them keep working. Lines of parbleu's own features (the subcommands, and
records logged with :data:`OWN_LOG`) start with ``parbleu:``, its error lines with
``parbleu: error:``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from .._lazylog import get_logger, when_logging_loads
from .._text import plural
from ..errors import ParbleuError
from . import render
from .arguments import (
    check_metric_options,
    check_num_refs,
    check_same_files,
    hyp_encoding,
    ref_encoding,
)
from .errors import CliError, ExitCode
from .io import (
    STDIN_NAME,
    read_file_lines,
    read_ref_streams,
    read_stdin_systems,
)
from .parser import FORMATS, build_parser
from .score import (
    AnyMetric,
    build_metrics,
    plain_columns,
    render_scores,
    sentence_lines,
    system_scores,
    system_table,
)
from .stream import stream_results
from .testsets import (
    check_filters,
    early_commands,
    filter_streams,
    subset_lines,
    test_set_refs,
)

__all__ = ["ExitCode", "build_parser", "console_main", "main"]

#: Prefix of log lines, SacreBLEU's (``logging.basicConfig(format="sacreBLEU: %(message)s")``).
LOG_PREFIX = "sacreBLEU: "
#: Prefix of the log lines of parbleu's own features (subcommands, records with OWN_LOG).
OWN_PREFIX = "parbleu: "
#: ``extra=`` of a log record that SacreBLEU never prints (a parbleu feature inside the
#: SacreBLEU-compatible command): it gets OWN_PREFIX there instead of SacreBLEU's.
OWN_LOG = {"parbleu_own": True}
#: Prefix of parbleu's own error lines.
ERROR_PREFIX = "parbleu: error: "

_log = get_logger("parbleu.cli")


@contextmanager
def _logging(quiet: bool, prefix: str = LOG_PREFIX) -> Iterator[None]:
    """Print parbleu's log records as SacreBLEU's command line prints its own.

    Without ``-q`` SacreBLEU configures the root logger (INFO, ``sacreBLEU: `` prefix); with
    ``-q`` it configures nothing and Python's last-resort handler prints warnings and errors,
    bare. The handler is removed again on exit, so ``main`` can run many times in a process.
    The subcommands, which SacreBLEU does not have, pass ``prefix=OWN_PREFIX``. Most commands
    log nothing and never import :mod:`logging`: the handler is added when it is imported
    (``parbleu._lazylog``), before any record can be emitted.
    """
    undo: list[Callable[[], None]] = []

    def setup() -> None:
        from ._logout import install

        undo.append(install(quiet, prefix, OWN_PREFIX))

    cancel = when_logging_loads(setup)
    try:
        yield
    finally:
        cancel()
        for restore in undo:
            restore()


class _Output:
    """Standard output as SacreBLEU writes it: UTF-8, and ``colorama``'s handling of colours.

    SacreBLEU reopens standard output as UTF-8 whatever the locale; parbleu writes UTF-8 bytes
    to ``sys.stdout.buffer`` (names from the command line that are not valid UTF-8 are written
    back as the bytes they were). With colours on, ``colorama`` strips colour codes when
    standard output is not a terminal, and writes one reset code at exit when it is.
    """

    def __init__(self, colors: bool) -> None:
        isatty = getattr(sys.stdout, "isatty", None)
        self.tty = bool(isatty and isatty())
        self.colors = colors
        self.strip = colors and not self.tty

    def write(self, text: str) -> None:
        if self.strip:
            text = render.colorama_strip(text)
        stream = sys.stdout
        buf = getattr(stream, "buffer", None)
        if buf is None:
            stream.write(text)
            return
        stream.flush()
        buf.write(text.encode("utf-8", errors="surrogateescape"))

    def line(self, text: str = "") -> None:
        self.write(text + "\n")

    def close(self) -> None:
        if self.colors and self.tty:
            self.write(render.RESET_ALL)
        sys.stdout.flush()


def _error(message: str, code: int) -> int:
    """Report ``message`` as one line on standard error and return ``code``."""
    sys.stderr.write(ERROR_PREFIX + " ".join(message.splitlines()) + "\n")
    sys.stderr.flush()
    return code


def _read_systems(
    args: argparse.Namespace, paired: bool, ref_lines: int
) -> tuple[list[list[str]], list[str], list[str]]:
    """Hypotheses per system, row labels, and the names that messages use."""
    if args.input is None:
        systems = read_stdin_systems(hyp_encoding(args), ref_lines)
        labels = [f"System {i + 1}" for i in range(len(systems))]
        sources = [
            STDIN_NAME if len(systems) == 1 else f"{STDIN_NAME} (column {i + 1})"
            for i in range(len(systems))
        ]
        if paired:
            labels = ["Baseline"] + [f"System {i + 1}" for i in range(len(systems) - 1)]
        return systems, labels, sources

    if not args.input:
        raise CliError("-i/--input: no hypothesis file given")
    check_same_files(args.input, "-i/--input")
    systems, labels = [], []
    for fname in args.input:
        if fname in labels:
            if paired and fname == labels[0]:
                _log.info(f"Ignoring {fname!r} as it was also given as the baseline.")
                continue
            raise CliError(
                f"-i/--input: {fname!r} is given twice; each system needs a different file name"
            )
        systems.append(read_file_lines(fname, hyp_encoding(args), "hypothesis file"))
        labels.append(fname)
    sources = [f"hypothesis file {name!r}" for name in labels]
    if paired:
        labels[0] = f"Baseline: {labels[0]}"
    return systems, labels, sources


def _check_lengths(
    systems: list[list[str]], sources: list[str], refs: list[list[str]], ref_names: list[str]
) -> None:
    for system, source in zip(systems, sources):
        if not system:
            raise CliError(f"{source} is empty: there is nothing to score")
        for ref, ref_name in zip(refs, ref_names):
            if not ref:
                raise CliError(f"{ref_name} is empty: there is nothing to score against")
            if len(ref) != len(system):
                raise CliError(
                    f"{source} has {plural(len(system), 'line')} but {ref_name} has "
                    f"{len(ref)}; the "
                    "files must be aligned line by line (parbleu does not truncate)"
                )


def _check_scores(args: argparse.Namespace) -> None:
    """Refuse ``--scores`` where it cannot apply, and its option errors, before any work."""
    from .imported_args import check_scores_usage, scores_specs

    check_scores_usage(
        args,
        [
            ("--sentence-level", args.sentence_level),
            ("--origlang", args.origlang is not None),
            ("--subset", args.subset is not None),
            ("--detail", args.detail and args.test_set is not None),
            ("--scheduler", args.scheduler is not None),
        ],
    )
    scores_specs(args)


def _run(args: argparse.Namespace, out: _Output) -> int:
    fmt: str = args.format
    paired = args.paired_bs or args.paired_ar

    # --- SacreBLEU's test sets: --download, --list, --citation, --echo, -t checks ----------
    if early_commands(args, out.line):
        return ExitCode.OK
    check_num_refs(args)
    coco = getattr(args, "coco_refs", None) is not None
    if coco:
        from .coco_json import check_coco_args  # COCO's caption JSON: only with --coco-refs

        check_coco_args(args, "")
    if not args.refs and args.test_set is None and not coco:
        raise CliError(
            "no reference file: give reference files before -i/--input (which takes every "
            "file after it), pipe hypotheses into parbleu REF [REF ...], or name a test set "
            "with -t and -l"
        )
    needs = []
    if paired:
        needs.append(("resample", "--paired-bs" if args.paired_bs else "--paired-ar"))
    if args.confidence:
        # An interval resamples rows: meteor and bleu-coco have no row mean to resample.
        needs.append(("resample", "--confidence"))
    if args.sentence_level:
        needs.append(("sentence_scores", "--sentence-level"))
    # Before any work: a metric the command cannot serve is one line naming what it lacks.
    trg_lang = check_metric_options(args, needs)
    _check_scores(args)
    check_filters(args)

    # --- one large system file: on a Dask cluster (cli/distributed.py), or streamed, --------
    # statistics kept instead of text (cli/stream.py)
    stream_fmt = "text" if args.detail and fmt == "json" else fmt
    streamed = None
    if args.scheduler is not None:
        from .distributed import distributed_results  # Dask's client: only with --scheduler

        streamed = distributed_results(args, stream_fmt)
    if streamed is None:
        streamed = stream_results(args, trg_lang, stream_fmt)
    if streamed is not None:
        for line in render.single_results(streamed, stream_fmt, out.colors):
            out.line(line)
        if args.detail:
            out.line("No subset information found. Consider using --origlang argument.")
        return ExitCode.OK

    # --- inputs ------------------------------------------------------------------------
    if coco:
        from .coco_json import main_inputs

        refs, ref_names, systems, labels, sources = main_inputs(args, paired)
    elif args.test_set is not None:
        refs, ref_names = test_set_refs(args)
    else:
        refs = read_ref_streams(args.refs, args.num_refs, ref_encoding(args))
        if args.num_refs == 1:
            ref_names = [f"reference file {r!r}" for r in args.refs]
        else:
            ref_names = [f"reference file {args.refs[0]!r}"] * len(refs)
    if not coco:
        systems, labels, sources = _read_systems(args, paired, len(refs[0]))
    full_system, full_refs = (systems[0] if systems else []), refs
    if args.origlang is not None or args.subset is not None:
        # Checked before filtering as without it: a filter would cut the extra lines off.
        _check_lengths(systems, sources, refs, ref_names)
        num = len(systems)
        filtered = filter_streams(args, [*systems, *refs])
        systems, refs = filtered[:num], filtered[num:]
        for system in systems:
            if not system:
                what = "".join(
                    f" {k}={v}"
                    for k, v in (("origlang", args.origlang), ("subset", args.subset))
                    if v
                )
                raise CliError(f"test set {args.test_set!r} has no segment with{what}")
    num_sys = len(systems)

    if args.sentence_level:
        if num_sys > 1:
            raise CliError("--sentence-level: only one system can be evaluated")
        if args.confidence or paired:
            raise CliError(
                "--sentence-level: statistical tests (--confidence, --paired-*) are "
                "unavailable in sentence-level mode"
            )
    if paired and num_sys == 1:
        raise CliError("--paired-bs/--paired-ar: paired tests need several files after -i/--input")
    if num_sys > 1 and args.confidence:
        raise CliError("--confidence: one system only; use --paired-bs or --paired-ar for several")
    _check_lengths(systems, sources, refs, ref_names)

    metrics: dict[str, AnyMetric] = build_metrics(args, refs, trg_lang, args.sentence_level)
    if args.scores:
        from .imported_args import add_imported

        # Keyed by -i file (stdin: the row labels), -i order; after -m's metrics.
        files = list(dict.fromkeys(args.input)) if args.input is not None else labels
        add_imported(args, metrics, dict(zip(files, systems)), files)

    # --- scores ------------------------------------------------------------------------
    if args.sentence_level:
        metric = next(iter(metrics.values()))
        for line in sentence_lines(
            metric, systems[0], refs, args.width, args.score_only, args.short
        ):
            out.line(line)
        return ExitCode.OK

    if args.detail and fmt == "json":
        fmt = "text"  # SacreBLEU: the subset report would interfere with JSON

    if not paired:
        # Metrics reporting several scores (bleu-coco: Bleu_1..Bleu_4) print each one.
        metrics = plain_columns(metrics)
    if num_sys == 1:
        results = render_scores(metrics, system_scores(metrics, systems[0], args), args, fmt)
        for line in render.single_results(results, fmt, out.colors):
            out.line(line)
        if args.detail:
            for line in subset_lines(metrics, full_system, full_refs, args, out.colors):
                out.line(line)
        return ExitCode.OK

    _log.info(f"Found {num_sys} systems.")
    sigs, scores = system_table(metrics, list(zip(labels, systems)), args)

    n_samples = args.paired_bs_n if args.paired_bs else args.paired_ar_n
    for line in render.results_lines(
        scores, sigs, fmt, args.width, out.colors, (args.paired_bs, n_samples) if paired else None
    ):
        out.line(line)
    return ExitCode.OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``parbleu`` command.

    Parameters
    ----------
    argv
        Arguments without the program name; ``None`` for ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit code (0 on success; see ``docs/cli.md``).
    """
    parser = build_parser()
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        if argv[:1] == ["compare"]:
            from .compare import run as run_compare

            return _subcommand(run_compare, argv[1:])
        if argv[:1] == ["distributed"]:
            from .distributed import run as run_distributed

            return _subcommand(run_distributed, argv[1:])
        if argv[:1] == ["report"]:
            from .report import run as run_report

            return _subcommand(run_report, argv[1:])
        if argv[:1] == ["metrics"]:
            from .metrics import run as run_metrics

            return _subcommand(run_metrics, argv[1:])
        if argv[:1] == ["meta"]:
            from .meta import run as run_meta

            return _subcommand(run_meta, argv[1:])
        if argv[:1] == ["explain"]:
            from .flavor import run_explain

            with _logging("-q" in argv or "--quiet" in argv, OWN_PREFIX):
                return run_explain(argv[1:])
        if any(a == "--flavor" or a.startswith("--flavor=") for a in argv):
            from .flavor import run_flavor, split_flavor

            name, rest = split_flavor(argv) or ("", argv)
            return run_flavor(name, rest)
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:  # --help, --version, or argparse's usage error
            return e.code if isinstance(e.code, int) else ExitCode.USAGE
        env_format = os.environ.get("SACREBLEU_FORMAT", "").lower()
        if env_format in FORMATS:
            args.format = env_format
        colors = not (os.environ.get("NO_COLOR") or args.no_color)
        out = _Output(colors)
        with _logging(args.quiet):
            try:
                return _run(args, out)
            finally:
                out.close()
    except CliError as e:
        return _error(e.message, e.code)
    except ParbleuError as e:
        return _error(str(e), ExitCode.ERROR)
    except BrokenPipeError:
        return ExitCode.BROKEN_PIPE
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except MemoryError:
        return _error("out of memory", ExitCode.ERROR)
    except Exception as e:
        return _internal_error(e)
    except BaseException as e:
        # A Rust panic surfaces as pyo3's PanicException, which derives from BaseException.
        if type(e).__name__ != "PanicException":
            raise
        return _internal_error(e)


def _subcommand(run: Callable[[list[str]], tuple[int, str]], argv: list[str]) -> int:
    """Run ``parbleu compare|distributed|report ...`` with ``run``; errors go to ``main``."""
    with _logging("-q" in argv or "--quiet" in argv, OWN_PREFIX):
        code, text = run(argv)
    if text:
        out = _Output(False)
        out.line(text)
        out.close()
    return code


def _internal_error(e: BaseException) -> int:
    return _error(
        f"internal error ({type(e).__name__}: {e}); please report this as a parbleu bug",
        ExitCode.INTERNAL,
    )


def console_main() -> None:
    """Entry point of the ``parbleu`` console script and of ``python -m parbleu``."""
    code = main()
    if code == ExitCode.BROKEN_PIPE:
        # Python flushes standard output again at exit; point it at /dev/null so that the
        # closed pipe does not print "Exception ignored ... BrokenPipeError".
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(code)
