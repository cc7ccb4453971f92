"""``parbleu report``: a self-contained HTML analysis of systems (:func:`parbleu.report`).

    parbleu report REF [REF ...] -i SYS [SYS ...] [-o report.html] [--baseline NAME]
        [--png DIR] [--freq-corpus FILE] [-m bleu chrf ter] [--paired-bs | --paired-ar]

The metric options are the main command's (``-tok``, ``-lc``, ...). System names are the file
names without their common prefix and suffix, as in ``parbleu compare``, or ``--names``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._names import display_names, short_names
from .._text import plural
from ..errors import ParbleuError
from ..metrics.registry import get_metric, metric_names
from ._subcommands import add_scoring_options, new_parser, read_systems, run_subcommand
from .arguments import (
    add_refs_and_inputs,
    add_significance,
    check_metric_options,
    check_refs_and_systems,
    int_at_least,
)
from .errors import CliError, ExitCode
from .imported_args import add_imported, add_scores_options, scores_specs
from .io import read_file_lines

if TYPE_CHECKING:
    from ..metrics import Metric

__all__ = ["build_parser", "run"]

DESCRIPTION = """\
parbleu report: one self-contained HTML file (no network, opens from disk) with the scores,
signatures, confidence intervals and all-pairs significance table (Holm-Bonferroni); sentence
score histograms and differences against a baseline; scores by reference length and by word
frequency; the n-grams and segments where two systems differ most; and the same data under
other BLEU implementations (flavors). References come first, systems after -i:

    parbleu report ref.de -i base.de new.de -o report.html
"""


def build_parser(prog: str = "parbleu report") -> argparse.ArgumentParser:
    """Return a fresh parser of ``parbleu report`` (``prog``: the name its usage shows)."""
    p = new_parser(prog, DESCRIPTION)
    add_refs_and_inputs(
        p, "System output files (one or more); each file's name is the system's name."
    )
    p.add_argument(
        "--output",
        "-o",
        default="report.html",
        metavar="FILE",
        help="The HTML file to write. (Default: %(default)s)",
    )
    p.add_argument(
        "--baseline",
        "-b",
        default=None,
        metavar="NAME",
        help="The system differences are taken against: a system name or its file. "
        "(Default: the best system by the first metric; the page says so)",
    )
    p.add_argument(
        "--order",
        choices=("score", "file"),
        default="score",
        help="Order of the score table and of its --png Markdown/LaTeX export: best first by "
        "the first metric, or the -i order (the page has a toggle). (Default: %(default)s)",
    )
    p.add_argument(
        "--png",
        default=None,
        metavar="DIR",
        help="Also write the plots as PNG (needs matplotlib: pip install 'parbleu[report]') "
        "and the tables as Markdown and LaTeX into DIR.",
    )
    p.add_argument(
        "--freq-corpus",
        default=None,
        metavar="FILE",
        help="Training data: bucket words by their frequency in this text (tokenized as "
        "BLEU tokenizes) instead of in the references.",
    )
    p.add_argument(
        "--names",
        default=None,
        metavar="A,B,...",
        help="System names, comma-separated, one per -i file in order (non-empty, all "
        "different). (Default: the file names without their common prefix and suffix)",
    )
    p.add_argument(
        "--src",
        default=None,
        metavar="FILE",
        help="Source sentences (one per line, aligned with the references), shown with the "
        "example segments.",
    )
    p.add_argument("--title", default=None, help="Page title. (Default: parbleu report)")
    # The registry's report defaults, read when the parser is built.
    defaults = [n for n in metric_names() if get_metric(n).profile.in_report_default]
    add_scoring_options(
        p,
        defaults,
        f"Metrics of the score and significance tables. (Default: {' '.join(defaults)})",
        False,
    )

    add_significance(
        p,
        bs_help="Paired bootstrap resampling (the default; also gives the intervals).",
        ar_help="Approximate randomization.",
        n_help="Resamples (bootstrap) or trials per pair (AR). (Default: 1000 / 10000, or more "
        "with many systems: enough for the smallest reachable Holm-adjusted p-value to be "
        "alpha/5 or below; docs/report.md)",
        seed_help="Seed. (Default: %(default)s)",
        alpha_help="Family-wise significance level per metric. (Default: %(default)s)",
    )
    add_scores_options(p)
    hum = p.add_argument_group("Human judgements (section: agreement with human judgements)")
    hum.add_argument(
        "--human",
        default=None,
        metavar="PATH",
        help="Human segment scores in MTME's layout (system<TAB>score per line, each system's "
        "segments in order, None where not judged; systems named as -i files): adds the "
        "agreement of every metric with them, as parbleu meta computes it.",
    )
    hum.add_argument(
        "--human-sys",
        default=None,
        metavar="PATH",
        help="Human system scores (MTME *.sys.score: system<TAB>score). (Default: the mean of "
        "each system's judged segments)",
    )
    hum.add_argument(
        "--human-da",
        default=None,
        metavar="PATH",
        help="Human scores from WMT's DA files instead: ad-seg-scores-XX-YY.csv and/or "
        "ad-sys-scores-XX-YY.csv, or the folder holding them (with -l XX-YY); read as parbleu "
        "meta --human-da reads them.",
    )
    hum.add_argument(
        "--da-docs",
        default=None,
        metavar="PATH",
        help="With --human-da: the document id of each test-set line ('DOMAIN DOCID', MTME's "
        "*.docs), mapping DA segment ids to lines; without it, system level only.",
    )
    hum.add_argument(
        "--da-score",
        choices=("z", "raw"),
        default="z",
        help="With --human-da: the DA column, z (Z.SCR) or raw (RAW.SCR). (Default: %(default)s)",
    )
    hum.add_argument(
        "--human-tsv",
        default=None,
        metavar="PATH",
        help="Human scores in a plain TSV instead: system<TAB>segment<TAB>score (segment: "
        "1-based line) or system<TAB>score lines.",
    )
    hum.add_argument(
        "--human-k",
        type=int_at_least(0),
        default=0,
        metavar="K",
        help="PERM-BOTH draws per metric pair for rank clusters of the agreement table (0: "
        "none). (Default: %(default)s)",
    )
    ana = p.add_argument_group("Analyses")
    ana.add_argument(
        "--flavors",
        nargs="*",
        default=None,
        metavar="NAME",
        help="Flavors of the flavors table (none given: no table). (Default: all)",
    )
    ana.add_argument(
        "--flavor-systems",
        type=int_at_least(1),
        default=None,
        metavar="K",
        help="Systems scored in the flavors table: the baseline, then the others in order "
        "(about 0.25 s of CPU per system at 1,000 segments). (Default: all)",
    )
    ana.add_argument(
        "--explain",
        action="store_true",
        help="Add each flavor's step-by-step explanation of its gap to SacreBLEU's score, for "
        "the baseline (parbleu explain; about as costly as the rest of a 20-system report).",
    )
    # The counts of the analyses: flag, lowest value, default, help.
    for flag, low, default, help_text in (
        (
            "--all-pairs-up-to",
            2,
            8,
            "With at most K systems every pair gets a side-by-side section; with more, the "
            "baseline's pairs. (Default: %(default)s)",
        ),
        ("--top-segments", 0, 5, "Segments shown per pair and direction. (Default: %(default)s)"),
        ("--top-ngrams", 0, 10, "n-grams shown per pair and direction. (Default: %(default)s)"),
    ):
        ana.add_argument(flag, type=int_at_least(low), default=default, metavar="K", help=help_text)
    p.add_argument("--quiet", "-q", action="store_true", help="Print nothing on success.")
    return p


def _write_error(e: OSError, what: str) -> CliError:
    reason = e.strerror or str(e) or type(e).__name__
    if e.filename is None:
        return CliError(f"{what}: cannot write it ({reason})")
    return CliError(f"{what}: cannot write {str(e.filename)!r} ({reason})")


def _check_output(path: Path, given: str) -> None:
    """Refuse an output file that cannot be written, before the analysis (minutes at times)."""
    import os

    if path.is_dir():
        raise CliError(f"-o/--output: {given!r} is a directory; give a file name")
    folder = path.parent
    if not folder.is_dir():
        raise CliError(f"-o/--output {given!r}: folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise CliError(f"-o/--output {given!r}: permission denied")


def _check_png_folder(path: Path, given: str) -> None:
    """Refuse a ``--png`` folder that is a file or cannot be made, before the analysis."""
    import os

    if path.exists() and not path.is_dir():
        raise CliError(f"--png folder {given!r}: is a file, not a folder")
    existing = next((p for p in (path, *path.parents) if p.exists()), Path("."))
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise CliError(f"--png folder {given!r}: cannot be written ({str(existing)!r})")


def _word_counts(path: str, encoding: str, metrics: Sequence[Metric[Any]]) -> dict[str, int]:
    """Count the words of a training corpus, tokenized as the report's BLEU tokenizes."""
    from ..metrics import word_tokenization

    tokenizer, lowercase = word_tokenization(metrics)
    lines = read_file_lines(path, encoding, "--freq-corpus file")
    counts: Counter[str] = Counter()
    for line in lines:
        counts.update(tokenizer(line.lower() if lowercase else line).split())
    return dict(counts)


def _human_files(args: argparse.Namespace, n_seg: int) -> list[tuple[str, str, str, Any]]:
    """Read the human score files: ``(flag, path, key, {system: [score, ...]})`` each."""
    from .. import metaeval

    kinds = [flag for flag, on in (("--human-da", args.human_da is not None),
                                   ("--human-tsv", args.human_tsv is not None),
                                   ("--human/--human-sys", args.human or args.human_sys))
             if on]  # fmt: skip
    if len(kinds) > 1:
        raise CliError(f"{kinds[1]}: give one kind of human scores, not {' and '.join(kinds)}")
    if args.human_da is None and (args.da_docs is not None or args.da_score != "z"):
        raise CliError(f"{'--da-docs' if args.da_docs else '--da-score'}: only with --human-da")
    if args.human_da is None and args.human_tsv is None:
        return [(flag, path, key, None)
                for flag, path, key in (("--human", args.human, "human_seg"),
                                        ("--human-sys", args.human_sys, "human_sys"))
                if path is not None]  # fmt: skip
    flag, path = ("--human-da", args.human_da) if args.human_da else ("--human-tsv", args.human_tsv)
    try:
        if args.human_da is not None:
            human = metaeval.read_da(
                [args.human_da], docs=args.da_docs, langpair=args.langpair, score=args.da_score
            )
        else:
            human = metaeval.read_human_tsv(args.human_tsv, n_seg)
    except ParbleuError as e:
        raise CliError(f"{flag}: {e}".replace(f"{flag}: {flag} ", f"{flag}: ")) from None
    if human.seg is not None:
        got = len(next(iter(human.seg.values())))
        if got != n_seg:
            what = args.da_docs if args.human_da else path
            raise CliError(f"{flag}: {what}: {got} segments, but the references have {n_seg} lines")
    out = [(flag, path, "human_seg", human.seg)] if human.seg is not None else []
    # TSV segment scores: system scores are the mean of the judged segments, the report's default.
    if human.sys is not None and (args.human_da is not None or human.seg is None):
        out.append((flag, path, "human_sys", human.sys))
    return out


def _human_scores(args: argparse.Namespace, labels: list[str], n_seg: int) -> dict[str, Any]:
    """Return ``report()``'s human-score arguments (``--human*``, ``--da-*``).

    The one place that reads human score files (``parbleu.metaeval``'s readers, as
    ``parbleu meta``); system names that are -i files (path or base name) become their labels.
    """
    files = _human_files(args, n_seg)
    if not files:
        if args.human_k:
            raise CliError("--human-k: give --human, --human-sys, --human-da or --human-tsv")
        return {}
    from ..metaeval import read_scores

    alias: dict[str, str] = {}
    for label, path in zip(labels, args.input):
        for key in (path, Path(path).name, label):
            alias.setdefault(key, label)
    out: dict[str, Any] = {"human_k": args.human_k}
    for flag, path, key, scores in files:
        if scores is None:
            try:
                scores = read_scores(path, True)
            except ParbleuError as e:
                raise CliError(f"{flag}: {e}") from None
        renamed = {alias.get(s, s): v for s, v in scores.items()}
        common = [label for label in labels if label in renamed]
        judged = out.get("human_seg", {})
        missing = [label for label in labels if label in judged and label not in renamed]
        if key == "human_sys" and missing:
            # The systems judged per segment need a system score too.
            raise CliError(f"{flag}: {path}: no score for system(s) {', '.join(missing)}")
        if len(common) < 2:
            raise CliError(
                f"{flag}: {path}: {len(common)} of the -i systems have human scores; agreement "
                f"needs 2 or more (the file has {', '.join(list(scores)[:8])})"
            )
        if key == "human_sys":
            several = [s for s, v in renamed.items() if len(v) != 1]
            if several:
                raise CliError(
                    f"{flag}: {path}: system {several[0]!r} has {len(renamed[several[0]])} "
                    "scores; a system score file has one per system"
                )
            if any(renamed[s][0] is None for s in common):
                raise CliError(f"{flag}: {path}: a system score is None")
            out[key] = {s: v[0] for s, v in renamed.items() if v[0] is not None}
        else:
            for label in common:
                if len(renamed[label]) != n_seg:
                    raise CliError(
                        f"{flag}: {path}: system {label!r} has {len(renamed[label])} scores, the "
                        f"references {n_seg} segments (one per segment, None where not judged)"
                    )
            out[key] = renamed
    return out


def run(argv: Sequence[str]) -> tuple[int, str]:
    """Run ``parbleu report`` on the arguments after ``report`` (see :func:`run_subcommand`)."""
    return run_subcommand(build_parser(), _report, argv)


def _report(args: argparse.Namespace) -> tuple[int, str]:
    """Write the report: the exit code, and no text (the summary goes to standard error)."""
    from ..flavors import flavor_names
    from ..reporting import report
    from .score import build_metrics
    from .stream import wants_progress

    check_refs_and_systems(args, "report")
    trg_lang = check_metric_options(args, [("sentence_scores", "report")])
    scores_specs(args)  # the --scores options, before any file is read
    if args.flavors:
        unknown = [f for f in args.flavors if f not in flavor_names()]
        if unknown:
            raise CliError(
                f"--flavors: unknown flavor {unknown[0]!r}; expected some of "
                + ", ".join(flavor_names())
            )
    out_path = Path(args.output)
    _check_output(out_path, args.output)
    if args.png is not None:
        _check_png_folder(Path(args.png), args.png)

    t0 = time.perf_counter()
    refs, systems = read_systems(args, nonempty=False)
    if args.names is not None:
        try:
            labels = display_names(args.input, args.names.split(","))
        except ParbleuError as e:
            raise CliError(f"--names: {e}".replace("--names: names: ", "--names: ")) from None
    else:
        labels = short_names(list(systems)) if len(systems) > 1 else [Path(args.input[0]).name]
    named = {label: systems[path] for label, path in zip(labels, systems)}
    src = None
    if args.src is not None:
        src = read_file_lines(args.src, args.encoding, "--src file")
        if len(src) != len(refs[0]):
            raise CliError(
                f"--src: file {args.src!r} has {plural(len(src), 'line')} but the references have "
                f"{len(refs[0])}; the files must be aligned line by line"
            )
    baseline = args.baseline
    if baseline is not None and baseline not in named:
        by_file = dict(zip(args.input, labels))
        if baseline not in by_file:
            raise CliError(
                f"--baseline: {baseline!r} is not a system; expected one of "
                + ", ".join(repr(x) for x in labels)
            )
        baseline = by_file[baseline]
    metrics = build_metrics(args, refs, trg_lang, False)
    add_imported(args, metrics, named, args.input)
    human = _human_scores(args, labels, len(refs[0]))
    word_counts = None
    if args.freq_corpus is not None:
        word_counts = _word_counts(
            args.freq_corpus,
            args.encoding,
            list(metrics.values()),
        )
    rep = report(
        refs,
        named,
        metrics=list(metrics.values()),
        baseline=baseline,
        test="ar" if args.paired_ar else "bootstrap",
        n=args.n,
        seed=args.seed,
        alpha=args.alpha,
        word_counts=word_counts,
        top_ngrams=args.top_ngrams,
        top_segments=args.top_segments,
        flavors=args.flavors,
        flavor_systems=args.flavor_systems,
        explain=args.explain,
        title=args.title or "parbleu report",
        files=dict(zip(labels, args.input)),
        workers=args.workers,
        names=labels,
        src=src,
        all_pairs_up_to=args.all_pairs_up_to,
        order=args.order,
        progress=wants_progress(args.quiet),
        **human,
    )
    # A full disk (-o /dev/full) fails on write or close, where OSError has no file name:
    # name what was being written.
    try:
        rep.write(out_path)
    except OSError as e:
        raise _write_error(e, f"-o/--output {args.output!r}") from None
    if args.png is not None:
        try:
            rep.write_tables(args.png)
            rep.write_plots(args.png)
        except OSError as e:
            raise _write_error(e, f"--png folder {args.png!r}") from None
    total = time.perf_counter() - t0
    if args.quiet:
        return ExitCode.OK, ""
    secs = rep.seconds
    note = f"; plots {secs['plots']:.2f} s" if "plots" in secs else ""
    sys.stderr.write(
        f"parbleu: wrote {args.output} ({plural(len(named), 'system')}, "
        f"{plural(len(refs[0]), 'segment')}): "
        f"analysis {secs['analysis']:.2f} s, page {secs.get('render', 0.0):.2f} s{note}, "
        f"total {total:.2f} s\n"
    )
    # Statistical caveats (too few segments, too few resamples), as the page says them.
    for caveat in rep.data["test"].get("notes", []):
        sys.stderr.write(f"parbleu: report: {caveat}\n")
    return ExitCode.OK, ""
