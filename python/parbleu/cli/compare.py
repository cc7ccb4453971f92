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
import sys
from collections.abc import Sequence

from .._names import common_affixes, short_names
from ._subcommands import add_scoring_options, new_parser, read_systems, run_subcommand
from .arguments import (
    add_refs_and_inputs,
    add_significance,
    add_width,
    check_metric_options,
    check_refs_and_systems,
)
from .errors import CliError, ExitCode
from .imported_args import add_imported, add_scores_options, scores_specs

__all__ = ["build_parser", "run", "short_names"]

DESCRIPTION = """\
parbleu compare: all-pairs significance testing of several systems.

Every pair of systems is tested with paired bootstrap resampling (default) or approximate
randomization; the p-values of each metric's pairs are adjusted with the Holm-Bonferroni
correction, and the pairs whose adjusted p-value is at most --alpha are marked as
significantly different. References come first, systems after -i:

    parbleu compare ref.de -i sys1.de sys2.de sys3.de -m bleu chrf
"""


def build_parser(prog: str = "parbleu compare") -> argparse.ArgumentParser:
    """Return a fresh parser of ``parbleu compare`` (``prog``: the name its usage shows)."""
    p = new_parser(prog, DESCRIPTION)
    add_refs_and_inputs(
        p, "System output files (at least two); each file's name is the system's name."
    )
    add_scoring_options(
        p, ["bleu"], "Space-delimited list of metrics to compare on. (Default: bleu)", True
    )

    add_significance(
        p,
        bs_help="Paired bootstrap resampling (the default): one set of resamples shared by all "
        "systems; also gives each system's confidence interval.",
        ar_help="Approximate randomization: one run of --n trials per pair.",
        n_help="Resamples (bootstrap) or trials per pair (AR). (Default: 1000 for bootstrap, "
        "10000 for AR, or more with many systems: enough for the smallest reachable "
        "Holm-adjusted p-value to be alpha/5 or below)",
        seed_help="Seed of parbleu's resampling (any integer from 0 to 2**64-1; 0 is a seed "
        "like any other). SACREBLEU_SEED is not read. (Default: %(default)s)",
        alpha_help="Family-wise significance level of each metric's pairs (Holm-Bonferroni). "
        "(Default: %(default)s)",
    )

    add_scores_options(p)

    rep = p.add_argument_group("Reporting")
    rep.add_argument(
        "--format",
        "-f",
        choices=("text", "json"),
        default="text",
        help="Text report (ranking, pairs, a matrix of significant differences) or JSON. "
        "(Default: %(default)s)",
    )
    add_width(rep, 2, "Decimal places of scores in the text report. (Default: %(default)s)")
    rep.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="Suppress informational messages.",
    )
    return p


def run(argv: Sequence[str]) -> tuple[int, str]:
    """Run ``parbleu compare`` on the arguments after ``compare`` (see :func:`run_subcommand`)."""
    return run_subcommand(build_parser(), _compare, argv)


def _compare(args: argparse.Namespace) -> tuple[int, str]:
    """Compare the systems: the exit code and the report."""
    from ..significance import MIN_SEGMENTS, compare_all
    from .score import build_metrics
    from .stream import wants_progress

    check_refs_and_systems(args, "compare")
    if len(args.input) < 2:
        raise CliError("compare: -i/--input needs at least two system files")
    trg_lang = check_metric_options(args, [("resample", "compare")])
    scores_specs(args)  # the --scores options, before any file is read
    refs, systems = read_systems(args, nonempty=True)
    labels = short_names(list(systems))
    systems = {label: systems[path] for label, path in zip(labels, systems)}
    metrics = build_metrics(args, refs, trg_lang, False)
    add_imported(args, metrics, systems, args.input)
    comparison = compare_all(
        [metrics[k] for k in sorted(metrics)],
        systems,
        None,
        test="ar" if args.paired_ar else "bootstrap",
        n=args.n,
        seed=args.seed,
        alpha=args.alpha,
        workers=args.workers,
        progress=wants_progress(args.quiet),
    )
    n_seg = len(refs[0])
    if not args.paired_ar and n_seg < MIN_SEGMENTS:
        # One segment makes every pair "significant" (every resample is that segment).
        sys.stderr.write(
            f"parbleu: compare: warning: {n_seg} segment{'s' if n_seg != 1 else ''}: the paired "
            f"bootstrap needs at least {MIN_SEGMENTS} segments (with fewer it finds "
            "differences too often); use --paired-ar, valid at any size\n"
        )
    if args.format == "json":
        data = {"files": dict(zip(labels, args.input)), **comparison.to_dict()}
        return ExitCode.OK, json.dumps(data, indent=2, ensure_ascii=False)
    text = comparison.table(args.width)
    if labels != args.input:
        prefix, suffix = common_affixes(args.input)
        text = f"Systems: the files {prefix}<name>{suffix}.\n{text}"
    return ExitCode.OK, text
