"""``parbleu compare``: every pair of systems tested, Holm-Bonferroni corrected.

    parbleu compare REF [REF ...] -i SYS SYS [SYS ...] [-m bleu chrf ter] [--paired-bs |
        --paired-ar] [--n N] [--seed S] [--alpha A] [-f text|json]

The metric options are the main command's (``-tok``, ``-lc``, ``--chrf-word-order``, ...).
Resampling uses parbleu's exact path (:func:`parbleu.significance.compare_all`): integer
statistics, a seed that is always a seed, results identical at any thread count. For
SacreBLEU's baseline-against-each tables, use ``parbleu REF -i SYS ... --paired-bs``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence

from .errors import CliError, ExitCode
from .io import check_encoding, read_file_lines, read_ref_streams
from .parser import MAX_WIDTH, METRIC_NAMES, add_metric_arguments

__all__ = ["build_parser", "run", "short_names"]

DESCRIPTION = """\
parbleu compare: all-pairs significance testing of several systems.

Every pair of systems is tested with paired bootstrap resampling (default) or approximate
randomization; the p-values of each metric's pairs are adjusted with the Holm-Bonferroni
correction, and the pairs whose adjusted p-value is at most --alpha are marked as
significantly different. References come first, systems after -i:

    parbleu compare ref.de -i sys1.de sys2.de sys3.de -m bleu chrf
"""


def _int_at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    def conv(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected an integer >= {low}, got {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(
                f"expected an integer from {low} to {high}, got {value}"
            )
        return value

    return conv


def _seed(text: str) -> int:
    value = _int_at_least(0)(text)
    if value >= 2**64:
        raise argparse.ArgumentTypeError(f"expected an integer below 2**64, got {value}")
    return value


def _alpha(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid float value: {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {value}")
    return value


def build_parser(prog: str = "parbleu compare") -> argparse.ArgumentParser:
    """Build the argument parser of ``parbleu compare``.

    Parameters
    ----------
    prog
        Program name shown in usage.

    Returns
    -------
    argparse.ArgumentParser
        A fresh parser.
    """
    p = argparse.ArgumentParser(
        prog=prog, description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "refs",
        nargs="*",
        default=[],
        metavar="REF",
        help="Reference files. Give them before -i/--input, which takes every file after it.",
    )
    p.add_argument(
        "--input",
        "-i",
        nargs="+",
        required=True,
        metavar="SYS",
        help="System output files (at least two); each file's name is the system's name.",
    )
    p.add_argument(
        "--num-refs",
        "-nr",
        type=_int_at_least(1),
        default=1,
        metavar="N",
        help="Split the single reference file on tabs into this many references per line. "
        "(Default: %(default)s)",
    )
    p.add_argument(
        "--encoding",
        "-e",
        default="utf-8",
        help="Encoding of the input files. (Default: %(default)s)",
    )
    p.add_argument(
        "--language-pair",
        "-l",
        dest="langpair",
        default=None,
        metavar="SRC-TRG",
        help="Source-target language pair; the target language picks BLEU's default "
        "tokenizer, as in the main command.",
    )
    p.add_argument(
        "--metrics",
        "-m",
        choices=METRIC_NAMES,
        nargs="+",
        default=["bleu"],
        help="Space-delimited list of metrics to compare on. (Default: bleu)",
    )
    add_metric_arguments(p)

    sig = p.add_argument_group("Significance testing")
    test = sig.add_mutually_exclusive_group()
    test.add_argument(
        "--paired-bs",
        "-pbs",
        action="store_true",
        help="Paired bootstrap resampling (the default): one set of resamples shared by all "
        "systems; also gives each system's confidence interval.",
    )
    test.add_argument(
        "--paired-ar",
        "-par",
        action="store_true",
        help="Approximate randomization: one run of --n trials per pair.",
    )
    sig.add_argument(
        "--n",
        type=_int_at_least(1),
        default=None,
        metavar="N",
        help="Resamples (bootstrap) or trials per pair (AR). (Default: 1000 for bootstrap, "
        "10000 for AR)",
    )
    sig.add_argument(
        "--seed",
        type=_seed,
        default=12345,
        metavar="S",
        help="Seed of parbleu's resampling (any integer from 0 to 2**64-1; 0 is a seed like "
        "any other). SACREBLEU_SEED is not read. (Default: %(default)s)",
    )
    sig.add_argument(
        "--alpha",
        type=_alpha,
        default=0.05,
        metavar="A",
        help="Family-wise significance level of each metric's pairs (Holm-Bonferroni). "
        "(Default: %(default)s)",
    )
    sig.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="Threads: 1 serial, -1 all cores. (Default: PARBLEU_WORKERS, else all cores)",
    )

    rep = p.add_argument_group("Reporting")
    rep.add_argument(
        "--format",
        "-f",
        choices=("text", "json"),
        default="text",
        help="Text report (ranking, pairs, a matrix of significant differences) or JSON. "
        "(Default: %(default)s)",
    )
    rep.add_argument(
        "--width",
        "-w",
        type=_int_at_least(0, MAX_WIDTH),
        default=2,
        metavar="N",
        help="Decimal places of scores in the text report. (Default: %(default)s)",
    )
    rep.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="Suppress informational messages.",
    )
    return p


def run(argv: Sequence[str]) -> tuple[int, str]:
    """Parse ``argv``, compare the systems, and return the exit code and the report.

    Parameters
    ----------
    argv
        Arguments after ``compare``.

    Returns
    -------
    tuple
        ``(exit code, text to print)``; errors raise :class:`CliError` or ``ParbleuError``.
    """
    from ..significance import compare_all
    from .score import build_metrics, metric_class

    parser = build_parser()
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as e:  # --help, or argparse's usage error
        return (e.code if isinstance(e.code, int) else ExitCode.USAGE), ""
    if not args.refs:
        raise CliError("compare: no reference file: give reference files before -i/--input")
    if args.num_refs != 1 and len(args.refs) > 1:
        raise CliError(
            "--num-refs: give the tab-separated references in one file, not "
            f"{len(args.refs)} reference files"
        )
    if len(args.input) < 2:
        raise CliError("compare: -i/--input needs at least two system files")
    if len(set(args.input)) != len(args.input):
        raise CliError("compare: a system file is given twice; each system needs its own file")
    for name in dict.fromkeys(m.upper() for m in args.metrics):
        metric_class(name)
    trg_lang = None
    if args.langpair is not None:
        parts = args.langpair.split("-")
        if len(parts) < 2:
            raise CliError(
                f"-l/--language-pair: expected SRC-TRG such as en-de, got {args.langpair!r}"
            )
        trg_lang = parts[1]
    check_encoding(args.encoding)

    refs = read_ref_streams(args.refs, args.num_refs, args.encoding)
    systems = {}
    for path in args.input:
        lines = read_file_lines(path, args.encoding, "hypothesis file")
        if not lines:
            raise CliError(f"hypothesis file {path!r} is empty: there is nothing to score")
        if not refs[0]:
            raise CliError("the references are empty: there is nothing to score against")
        if len(lines) != len(refs[0]):
            raise CliError(
                f"hypothesis file {path!r} has {len(lines)} lines but the references have "
                f"{len(refs[0])}; the files must be aligned line by line"
            )
        systems[path] = lines
    labels = short_names(list(systems))
    systems = {label: systems[path] for label, path in zip(labels, systems)}
    metrics = build_metrics(args, refs, trg_lang, False)
    comparison = compare_all(
        [metrics[k] for k in sorted(metrics)],  # type: ignore[misc]
        systems,
        None,
        test="ar" if args.paired_ar else "bootstrap",
        n=args.n,
        seed=args.seed,
        alpha=args.alpha,
        workers=args.workers,
    )
    if args.format == "json":
        data = {"files": dict(zip(labels, args.input)), **comparison.to_dict()}
        return ExitCode.OK, json.dumps(data, indent=2, ensure_ascii=False)
    text = comparison.table(args.width)
    if labels != args.input:
        prefix, suffix = _affixes(args.input)
        text = f"Systems: the files {prefix}<name>{suffix}.\n{text}"
    return ExitCode.OK, text


_SEPARATORS = "/\\._-"


def _common_prefix(strings: list[str]) -> str:
    # Character by character (file names, not path components: "hyp.a.de", "hyp.b.de").
    first, last = min(strings), max(strings)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n]


def _affixes(paths: list[str]) -> tuple[str, str]:
    """Return the common prefix and suffix of ``paths``, cut at a separator (``/``, ``.``)."""
    prefix = _common_prefix(paths)
    cut = max((prefix.rfind(c) for c in _SEPARATORS), default=-1)
    prefix = prefix[: cut + 1]
    suffix = _common_prefix([p[::-1] for p in paths])[::-1]
    cut = max((suffix[::-1].rfind(c) for c in _SEPARATORS), default=-1)
    suffix = suffix[len(suffix) - cut - 1 :] if cut >= 0 else ""
    return prefix, suffix


def short_names(paths: list[str]) -> list[str]:
    """System names: the file names without their common prefix and suffix.

    ``a/hyp.sys1.de`` and ``a/hyp.sys2.de`` become ``sys1`` and ``sys2``; the full names are
    kept when shortening would leave an empty or a repeated name.

    Parameters
    ----------
    paths
        The file names, as given.

    Returns
    -------
    list of str
        One name per file.
    """
    prefix, suffix = _affixes(paths)
    names = [p[len(prefix) : len(p) - len(suffix)] for p in paths]
    if any(not n for n in names) or len(set(names)) != len(names):
        return list(paths)
    return names
