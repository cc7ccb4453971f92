"""Scoring on a Dask cluster from the command line (extra ``parbleu[dask]``).

``parbleu REF -i HYP --scheduler ADDRESS`` scores one system's corpus on the cluster and
prints what the in-memory path prints. ``parbleu distributed`` scores a glob of files or a
Parquet dataset's column pair, or writes every row's sentence score as a Parquet column::

    parbleu distributed --hyp 'out/*.de' --ref 'ref/*.de' -m bleu chrf --scheduler local:4
    parbleu distributed --parquet data/ --hyp-column mt --ref-column ref --scheduler HOST:8786
    parbleu distributed --parquet data/ --hyp-column mt --ref-column ref --sentence-out scored/

A progress bar fed by the tasks finishing on the cluster is drawn on standard error when it
is a terminal (and ``--quiet`` is not given).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from ._subcommands import new_parser, run_subcommand
from .arguments import (
    MAX_WIDTH,
    add_encoding,
    add_language_pair,
    add_metrics,
    add_num_refs,
    add_width,
    check_metric_names,
    target_language,
)
from .errors import CliError, ExitCode
from .io import check_encoding
from .parser import add_metric_arguments
from .score import build_metrics, render_scores
from .stream import progress_bar

__all__ = ["build_parser", "distributed_results", "run"]

DESCRIPTION = """\
parbleu distributed: corpus scores of many files or a Parquet dataset on a Dask cluster.

The hypothesis files (a glob, sorted by name) are one corpus; the i-th file of every --ref
glob is its reference for the i-th hypothesis file. Statistics are extracted per partition
on the workers and merged there; the scores and signatures are those of the in-memory path.

    parbleu distributed --hyp 'out/*.de' --ref 'ref/*.de' -m bleu chrf --scheduler local:4
    parbleu distributed --parquet data/ --hyp-column mt --ref-column ref
    parbleu distributed --parquet data/ --hyp-column mt --ref-column ref --sentence-out out/
"""


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def build_parser(prog: str = "parbleu distributed") -> argparse.ArgumentParser:
    """Return a fresh parser of ``parbleu distributed`` (``prog``: the name its usage shows)."""
    p = new_parser(prog, DESCRIPTION)
    src = p.add_argument_group("Input (text files or a Parquet dataset)")
    src.add_argument(
        "--hyp",
        metavar="GLOB",
        help="Hypothesis files: a glob (quote it), a directory or one file.",
    )
    src.add_argument(
        "--ref",
        action="append",
        default=[],
        metavar="GLOB",
        help="Reference files, one --ref per reference stream, aligned with --hyp's files.",
    )
    add_num_refs(src, "the reference files", _positive)
    add_encoding(src, "text files")
    src.add_argument(
        "--parquet",
        metavar="DATASET",
        help="A Parquet dataset (directory, glob or file) instead of text files.",
    )
    src.add_argument("--hyp-column", metavar="COLUMN", help="Hypothesis column (--parquet).")
    src.add_argument(
        "--ref-column",
        action="append",
        default=[],
        metavar="COLUMN",
        help="Reference column (--parquet); repeat it for several reference streams.",
    )
    p.add_argument(
        "--scheduler",
        default="local",
        metavar="ADDRESS",
        help="Dask scheduler address (tcp://HOST:8786), or local:N for N worker processes "
        "on this machine. (Default: local, one per core)",
    )
    p.add_argument(
        "--sentence-out",
        metavar="DIR",
        help="With --parquet: write every input file to DIR with the sentence score of the "
        "first -m metric as a new column (named after the metric) instead of corpus scores; "
        "prints the files written.",
    )
    p.add_argument(
        "--part-lines",
        type=_positive,
        default=None,
        metavar="N",
        help="Lines of a text file per task. (Default: equal tasks, 4 per worker thread of the "
        "cluster, of at most 1048576 lines)",
    )
    p.add_argument(
        "--block-lines",
        type=_positive,
        default=1 << 16,
        metavar="N",
        help="Lines or rows a task holds in memory at once. (Default: %(default)s)",
    )
    add_language_pair(p)
    add_metrics(p, ["bleu"], "Space-delimited list of metrics to compute. (Default: bleu)")
    add_metric_arguments(p)
    rep = p.add_argument_group("Reporting")
    rep.add_argument(
        "--format", "-f", default="json", choices=("json", "text"), help="Output format."
    )
    add_width(rep, 1, f"Decimals, 0 to {MAX_WIDTH}. (Default: %(default)s)")
    rep.add_argument("--short", "-sh", action="store_true", help="Shorter signatures.")
    rep.add_argument("--score-only", "-b", action="store_true", help="Print only the score.")
    rep.add_argument(
        "--quiet", "-q", action="store_true", help="No progress bar or informational messages."
    )
    return p


def _metrics(args: argparse.Namespace, sentence_level: bool = False) -> dict[str, Any]:
    check_metric_names(args.metrics, [("merge", "distributed")])
    trg = target_language(args)
    # References are given to each task, not to the constructor.
    return build_metrics(args, None, trg, sentence_level)  # type: ignore[arg-type]


def distributed_results(args: argparse.Namespace, fmt: str) -> list[str] | None:
    """``parbleu REF -i HYP --scheduler ADDRESS``: the rendered scores, or ``None``.

    Parameters
    ----------
    args
        Parsed command line of the main command.
    fmt
        Output format (after the ``--detail``/JSON adjustment).

    Returns
    -------
    list of str or None
        One rendered score per metric (sorted by name); ``None`` without ``--scheduler``.
    """
    if args.scheduler is None:
        return None
    if args.test_set is not None:
        # The workers read files by name; a test set lives in parbleu's cache, in its own
        # formats (SGML, XML, TSV).
        raise CliError(
            f"--scheduler: reference files only, not -t/--test-set ({args.test_set}); write "
            "the references with `parbleu -t TEST -l PAIR --echo ref > ref.txt` and give "
            "ref.txt before -i"
        )
    if not args.input or len(args.input) != 1:
        raise CliError("--scheduler: give exactly one hypothesis file with -i (one system)")
    from .stream import in_memory_options

    # The cluster sees statistics only, as streaming does: an option that needs the text in
    # memory (-t, --origlang, --sentence-level, ...) is refused, never ignored.
    flags = in_memory_options(args)
    if flags:
        raise CliError(
            f"--scheduler: corpus scores of reference files only; {', '.join(flags)} "
            "runs in memory (drop --scheduler)"
        )
    from ..distributed import score_files
    from ..streaming import FieldCountError

    metrics = _metrics(args)
    names = sorted(metrics)
    bar = progress_bar(args.quiet, "lines")
    try:
        scores = score_files(
            args.input[0],
            args.refs,
            [metrics[n] for n in names],
            scheduler=args.scheduler,
            num_refs=args.num_refs,
            encoding=args.encoding,
            progress=None if bar is None else bar.update,
        )
    except FieldCountError as e:
        # The in-memory path's message and exit code.
        raise CliError(e.message("--num-refs"), ExitCode.BAD_FIELDS) from None
    finally:
        if bar is not None:
            bar.close(clear=True)
    return render_scores(metrics, dict(zip(names, scores.values())), args, fmt)


def run(argv: Sequence[str]) -> tuple[int, str]:
    """Run ``parbleu distributed`` on the arguments after its name (see :func:`run_subcommand`)."""
    return run_subcommand(build_parser(), _distributed, argv)


def _distributed(args: argparse.Namespace) -> tuple[int, str]:
    """Score on the cluster: the exit code and the scores (or the Parquet files written)."""
    from .. import distributed as dist
    from ..streaming import FieldCountError
    from .render import single_results

    text_input = args.hyp is not None or args.ref
    if args.parquet is not None:
        if text_input:
            raise CliError("distributed: give either --parquet or --hyp/--ref, not both")
        if not args.hyp_column or not args.ref_column:
            raise CliError("--parquet: give the columns with --hyp-column and --ref-column")
    else:
        if args.hyp is None or not args.ref:
            raise CliError(
                "distributed: give --hyp GLOB and --ref GLOB (text files), or --parquet DATASET"
            )
        if args.sentence_out is not None:
            raise CliError("--sentence-out: only with --parquet (it adds a Parquet column)")
        check_encoding(args.encoding)
    metrics = _metrics(args, args.sentence_out is not None)
    names = sorted(metrics)
    unit = "lines" if args.parquet is None else "rows"
    bar = progress_bar(args.quiet, "files" if args.sentence_out else unit)
    report = None if bar is None else bar.update
    try:
        if args.sentence_out is not None:
            first = metrics[args.metrics[0].upper()]
            written = dist.sentence_scores_parquet(
                args.parquet,
                args.sentence_out,
                args.hyp_column,
                args.ref_column,
                first,
                column=args.metrics[0].lower(),
                scheduler=args.scheduler,
                block_lines=args.block_lines,
                progress=report,
            )
            return ExitCode.OK, "\n".join(written)
        if args.parquet is not None:
            scores = dist.score_parquet(
                args.parquet,
                args.hyp_column,
                args.ref_column,
                [metrics[n] for n in names],
                scheduler=args.scheduler,
                block_lines=args.block_lines,
                progress=report,
            )
        else:
            scores = dist.score_files(
                args.hyp,
                args.ref,
                [metrics[n] for n in names],
                scheduler=args.scheduler,
                num_refs=args.num_refs,
                encoding=args.encoding,
                part_lines=args.part_lines,
                block_lines=args.block_lines,
                progress=report,
            )
    except FieldCountError as e:
        raise CliError(e.message("--num-refs"), ExitCode.BAD_FIELDS) from None
    finally:
        if bar is not None:
            bar.close(clear=True)
    results = render_scores(metrics, dict(zip(names, scores.values())), args, args.format)
    return ExitCode.OK, "\n".join(single_results(results, args.format, False))
