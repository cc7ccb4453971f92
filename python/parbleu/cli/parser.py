"""The command line of ``parbleu``: SacreBLEU 2.6's flags, names, defaults and destinations.

The metrics' names (``-m`` choices) and option groups come from the metric registry
(``parbleu.metrics.registry``) when the parser is built: a metric registered later is found.
"""

from __future__ import annotations

import argparse

from .._version import __version__
from ..metrics.registry import get_metric, metric_names
from .arguments import (
    MAX_WIDTH,
    add_coco_refs,
    add_encoding,
    add_language_pair,
    add_metrics,
    add_num_refs,
    add_refs,
    add_width,
)
from .imported_args import add_scores_options
from .recording import LazyChoices, RecordingParser

__all__ = [
    "FORMATS",
    "MAX_WIDTH",
    "add_metric_arguments",
    "build_parser",
]

#: ``-f`` choices.
FORMATS = ("json", "text", "latex")

#: The subcommands ``parbleu.cli.main`` dispatches on its first argument, each with the line
#: ``parbleu --help`` lists for it (tests/cli/test_cli_docs.py checks the two agree).
SUBCOMMANDS: dict[str, str] = {
    "compare": "all-pairs significance of several systems (Holm-Bonferroni corrected)",
    "report": "a self-contained HTML analysis of systems (scores, significance, examples)",
    "explain": "why two BLEU implementations disagree on your data, factor by factor",
    "meta": "how well metric scores agree with human judgements (MTME's statistics)",
    "distributed": "globs of files or a Parquet dataset scored on a Dask cluster",
    "metrics": "the registered metrics and their capabilities (significance, pairwise, ...)",
}

DESCRIPTION = (
    """\
parbleu: SacreBLEU-exact BLEU, chrF/chrF++ and TER on a fast Rust core; also ROUGE (as
rouge-score: -m rouge) and COCO's captioning metrics BLEU-1..4 (-m bleu-coco), CIDEr-D,
ROUGE-L and METEOR (as pycocoevalcap). `parbleu metrics` lists every metric and what it
supports.

A drop-in for SacreBLEU's scoring command: same flags, same output (the version field of
signatures reads parbleu-<version>). References come first, hypotheses after -i, or on
standard input (one system per tab-separated column):

    parbleu ref.de -i hyp.de -m bleu chrf
    cat hyp.de | parbleu ref.de -f text
    parbleu ref.de -i hyp.de --flavor nltk     (other BLEU implementations' command lines)

Subcommands (parbleu COMMAND --help for each):

"""
    + "".join(f"    {name:<12} {line}\n" for name, line in SUBCOMMANDS.items())
    + """
For example:

    parbleu compare ref.de -i sys1.de sys2.de sys3.de
    parbleu report ref.de -i base.de new.de -o report.html
    parbleu explain ref.de -i hyp.de --flavor nltk
    parbleu distributed --hyp 'out/*.de' --ref 'ref/*.de' --scheduler local:4
"""
)


def _flavor_names() -> tuple[str, ...]:
    from ..flavors import flavor_names

    return flavor_names()


def add_metric_arguments(p: argparse.ArgumentParser) -> None:
    """Add every registered metric's option group (shared with the sub-commands).

    Parameters
    ----------
    p
        The parser to extend.
    """
    for name in metric_names():
        get_metric(name).add_cli_arguments(p)


def build_parser(prog: str = "parbleu") -> RecordingParser:
    """Build the argument parser of the ``parbleu`` command.

    Parameters
    ----------
    prog
        Program name shown in usage and ``--version``.

    Returns
    -------
    RecordingParser
        A fresh parser (it keeps no state between calls); ``options`` lists its actions.
    """
    p = RecordingParser(
        prog=prog,
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )

    # --- input ---------------------------------------------------------------------------
    p.add_argument(
        "--input",
        "-i",
        type=str,
        nargs="*",
        default=None,
        metavar="HYP",
        help="Read hypotheses from these files (one system each) instead of standard input.",
    )
    add_refs(p)
    add_num_refs(p)
    add_encoding(p, "input files and of standard input", per_file=True)
    add_language_pair(
        p,
        help_text="Source-target language pair (ISO 639-1 codes). The target language picks "
        "BLEU's default tokenizer: zh for Chinese, ja-mecab for Japanese, ko-mecab for Korean, "
        "13a otherwise.",
    )

    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="Score on a Dask cluster (extra parbleu[dask]): a scheduler address such as "
        "tcp://HOST:8786, or local:N for N worker processes on this machine. Corpus scores of "
        "one system (-i HYP) only; the output is the in-memory one. See docs/distributed.md.",
    )

    # --- metric selection ----------------------------------------------------------------
    add_metrics(p, ["bleu"], "Space-delimited list of metrics to compute. (Default: bleu)")
    p.add_argument(
        "--sentence-level",
        "-sl",
        action="store_true",
        help="Print the score of every segment (one metric, one system).",
    )

    add_metric_arguments(p)
    add_coco_refs(p)

    # --- significance ----------------------------------------------------------------------
    ci = p.add_argument_group("Confidence interval (CI) estimation for single-system evaluation")
    ci.add_argument(
        "--confidence",
        "-ci",
        action="store_true",
        help="Report confidence interval using bootstrap resampling.",
    )
    ci.add_argument(
        "--confidence-n",
        "-cin",
        type=int,
        default=1000,
        metavar="N",
        help="Set the number of bootstrap resamples for CI estimation (Default: %(default)s).",
    )

    pair = p.add_argument_group("Paired significance testing for multi-system evaluation")
    choice = pair.add_mutually_exclusive_group()
    choice.add_argument(
        "--paired-ar",
        "-par",
        action="store_true",
        help="Perform paired test using approximate randomization (AR). This option is "
        "mutually exclusive with --paired-bs (Default: %(default)s).",
    )
    choice.add_argument(
        "--paired-bs",
        "-pbs",
        action="store_true",
        help="Perform paired test using bootstrap resampling. This option is mutually "
        "exclusive with --paired-ar (Default: %(default)s).",
    )
    pair.add_argument(
        "--paired-ar-n",
        "-parn",
        type=int,
        default=10000,
        metavar="N",
        help="Number of trials for approximate randomization test (Default: %(default)s).",
    )
    pair.add_argument(
        "--paired-bs-n",
        "-pbsn",
        type=int,
        default=1000,
        metavar="N",
        help="Number of bootstrap resamples for paired bootstrap resampling test "
        "(Default: %(default)s).",
    )
    pair.add_argument(
        "--paired-jobs",
        "-j",
        type=int,
        default=1,
        metavar="N",
        help="If 0, launches as many workers as the number of systems. If > 0, sets the "
        "number of workers manually.",
    )

    # --- imported segment scores (COMET, MetricX, ...) as metrics: cli/imported_args.py ------
    add_scores_options(p)

    # --- reporting -------------------------------------------------------------------------
    rep = p.add_argument_group("Reporting related arguments")
    rep.add_argument(
        "--quiet",
        "-q",
        default=False,
        action="store_true",
        help="Suppress verbose messages (warnings and errors are still printed).",
    )
    rep.add_argument(
        "--short",
        "-sh",
        default=False,
        action="store_true",
        help="Produce a shorter (less human readable) signature.",
    )
    rep.add_argument(
        "--score-only",
        "-b",
        default=False,
        action="store_true",
        help="Print only the computed score.",
    )
    add_width(rep, 1, f"Floating point width, 0 to {MAX_WIDTH} (Default: %(default)s).")
    rep.add_argument(
        "--detail",
        "-d",
        default=False,
        action="store_true",
        help="Print detailed information (split test sets based on origlang); without a "
        "test set there is none to print.",
    )
    rep.add_argument(
        "--no-color",
        "-nc",
        action="store_true",
        help="Disable the occasional use of terminal colors (so does a non-empty NO_COLOR).",
    )
    rep.add_argument(
        "--format",
        "-f",
        default="json",
        choices=FORMATS,
        help="Set the output format. `latex` is only valid for multi-system mode whereas "
        "`json` and `text` apply to single-system mode only. This flag is overridden if the "
        "SACREBLEU_FORMAT environment variable is set to one of the valid choices "
        "(Default: %(default)s).",
    )
    p.add_argument(
        "--version",
        "-V",
        action="version",
        version=f"%(prog)s {__version__}",
    )

    # --- other BLEU implementations (handled by parbleu.cli.flavor before parsing) --------
    fl = p.add_argument_group("Other BLEU implementations (see docs/flavors.md)")
    fl.add_argument(
        "--flavor",
        # Read when first used (help, a value to check): a flavor registered later is
        # listed, and a command without --flavor never imports the flavor registry.
        choices=LazyChoices(_flavor_names),
        default=None,
        help="Score as another implementation would, with that tool's own command line and "
        "output: multi-bleu[-detok] take [-lc] REF... < HYP (or -i HYP), mteval-v13a/v14 take "
        "-r/-s/-t SGML or XML files, t2t takes --translation/--reference (or -i HYP), fairseq "
        "-s/-i HYP -r REF, the libraries take REF... -i HYP. --flavor NAME --help shows one.",
    )

    # --- SacreBLEU's test sets (parbleu.datasets; cached where SacreBLEU caches them) -------
    ts = p.add_argument_group(
        "Test sets (downloaded once into $SACREBLEU, default ~/.sacrebleu, shared with "
        "SacreBLEU; see docs/datasets.md)"
    )
    ts.add_argument(
        "--test-set",
        "-t",
        type=str,
        default=None,
        metavar="TEST_SET",
        help="The test set(s) to use (see --list); several, comma-separated, are "
        "concatenated. Needs -l.",
    )
    ts.add_argument(
        "--list",
        default=False,
        action="store_true",
        help="List the available test sets (for -l if given), or with -t the language "
        "pairs and fields of that test set.",
    )
    ts.add_argument(
        "--citation",
        "--cite",
        default=False,
        action="store_true",
        help="Print the citation of the test set(s) of -t.",
    )
    ts.add_argument(
        "--download",
        type=str,
        default=None,
        metavar="TEST_SET",
        help="Download a test set (all language pairs, or -l's) and quit.",
    )
    ts.add_argument(
        "--echo",
        nargs="+",
        type=str,
        default=None,
        metavar="FIELD",
        help="Print fields of the test set of -t/-l (tab-separated): src, ref, docid, genre, "
        "origlang, domain, ref:NAME, a system's name, or all (see --list -t).",
    )
    ts.add_argument(
        "--origlang",
        "-ol",
        dest="origlang",
        default=None,
        metavar="LANG",
        help="Score (or --echo) only the segments of documents originally in LANG "
        "(non-LANG: the others); WMT test sets only.",
    )
    ts.add_argument(
        "--subset",
        dest="subset",
        default=None,
        metavar="REGEX",
        help="Score (or --echo) only the documents whose domain matches REGEX "
        "(country:XX for the annotated wmt18/wmt19 countries).",
    )
    return p
