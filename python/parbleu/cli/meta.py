"""``parbleu meta``: how well metrics agree with human judgements.

    parbleu meta (--human-da PATH [--da-docs DOCS] | --human-tsv PATH | --human-seg PATH
        [--human-sys PATH]) [-r REF ... -i [NAME=]SYS ... -m bleu chrf ...]
        [--scores NAME=PATH ...] [--seg-scores NAME=PATH ...] [--sys-scores NAME=PATH ...]
        [--k 1000] [--bootstrap N] [--seed S] [--mtme-draws SEED] [-f text|json]

Human scores: WMT's DA files, MTME's ``*.score`` layout or a plain TSV. Metric scores:
registered metrics computed here on the ``-i`` outputs, imported scores, MTME score files. The
statistics are MTME's (:mod:`parbleu.flavors.mtme.stats`), see docs/meta-evaluation.md.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .._names import short_names
from .._options import MAX_RESAMPLES
from ..errors import InvalidOptionError, ParbleuError
from ..metaeval import (
    HumanScores,
    MetricScores,
    agreement,
    computed_scores,
    given_scores,
    human_from_mtme,
    read_da,
    read_human_tsv,
    read_scores,
)
from ._subcommands import add_scoring_options, new_parser, run_subcommand
from .arguments import check_metric_options, hyp_encoding, ref_encoding
from .io import read_file_lines, read_ref_streams

__all__ = ["build_parser", "run"]

DESCRIPTION = """\
parbleu meta: agreement of metric scores with human scores (MTME's statistics).

System level: Pearson, Spearman, Kendall tau-b, pairwise accuracy, and PERM-BOTH clusters
on Pearson. Segment level: Pearson, Kendall tau-b with no/item/system grouping,
tie-calibrated pairwise accuracy (acc23, item grouping) with its epsilon, and PERM-BOTH
clusters on item-grouped tau-b. --bootstrap N adds percentile intervals (test-set items
resampled). Metrics given with -m are computed on the -i outputs: segment scores are their
sentence scores, system scores their corpus scores. Lower-is-better scores are negated.

    parbleu meta --human-da humaneval/newstest2021-toen -l is-en --da-docs is-en.docs \\
        -r ref.en -i sys1.en sys2.en sys3.en -m bleu chrf ter
"""


def build_parser() -> argparse.ArgumentParser:
    """Build the ``parbleu meta`` parser."""
    p = new_parser("parbleu meta", DESCRIPTION)
    h = p.add_argument_group("Human scores")
    h.add_argument(
        "--human-da",
        metavar="PATH",
        action="append",
        default=[],
        help="WMT DA scores: ad-seg-scores-XX-YY.csv and/or ad-sys-scores-XX-YY.csv, or the "
        "folder holding them (with -l XX-YY); repeatable",
    )
    h.add_argument(
        "--da-docs",
        metavar="PATH",
        help="document id of each test-set line ('DOMAIN DOCID', MTME's *.docs): maps DA "
        "segment ids to lines (documents sorted by id); without it, system level only",
    )
    h.add_argument(
        "--da-score",
        choices=("z", "raw"),
        default="z",
        help="DA column: z (Z.SCR, standardised, the default) or raw (RAW.SCR)",
    )
    h.add_argument(
        "--include-human",
        action="store_true",
        help="keep the DA files' HUMAN system (a human translation; MTME leaves it out)",
    )
    h.add_argument(
        "--human-tsv",
        metavar="PATH",
        help="plain TSV: system<TAB>segment<TAB>score (segment: 1-based line) or system<TAB>score",
    )
    h.add_argument("--human-seg", metavar="PATH", help="human segment scores (MTME *.seg.score)")
    h.add_argument("--human-sys", metavar="PATH", help="human system scores (MTME *.sys.score)")

    m = p.add_argument_group("Metric scores")
    m.add_argument("--refs", "-r", nargs="+", default=[], metavar="REF", help="reference files")
    m.add_argument(
        "--input",
        "-i",
        nargs="+",
        default=[],
        metavar="[NAME=]SYS",
        help="system outputs; the system's name is NAME or the file name without the files' "
        "common prefix and suffix",
    )
    m.add_argument(
        "--seg-scores",
        metavar="NAME=PATH",
        action="append",
        default=[],
        help="a metric's segment scores (MTME *.seg.score; repeatable)",
    )
    m.add_argument(
        "--sys-scores",
        metavar="NAME=PATH",
        action="append",
        default=[],
        help="a metric's system scores (repeatable; else the mean of its segments)",
    )
    m.add_argument(
        "--scores",
        metavar="NAME=PATH[,PATH...]",
        action="append",
        default=[],
        help="imported segment scores (plain floats, TSV, JSONL, comet-score --to_json, "
        "MTME *.seg.score), keyed by system; needs --higher-is-better or "
        "--lower-is-better NAME",
    )
    m.add_argument(
        "--higher-is-better",
        metavar="NAME",
        action="append",
        default=[],
        help="a --scores metric whose higher scores are better (repeatable)",
    )
    m.add_argument(
        "--lower-is-better",
        metavar="NAME",
        action="append",
        default=[],
        help="a --scores metric whose lower scores are better (negated here; repeatable)",
    )
    add_scoring_options(p, [], "metrics computed on the -i outputs (e.g. bleu chrf ter)", False)

    s = p.add_argument_group("Statistics")
    s.add_argument("--k", type=int, default=1000, help="PERM-BOTH draws per metric pair (0: none)")
    s.add_argument(
        "--bootstrap",
        type=int,
        default=0,
        metavar="N",
        help="percentile intervals from N resamples of the test-set items (0: none)",
    )
    s.add_argument("--confidence", type=float, default=0.95, help="coverage of the intervals")
    s.add_argument("--seed", type=int, default=12345, help="seed of parbleu's generator")
    s.add_argument(
        "--mtme-draws",
        type=int,
        metavar="SEED",
        default=None,
        help="numpy's draws, as MTME: np.random.seed(SEED) for PERM-BOTH, "
        "default_rng(SEED) for the bootstrap",
    )
    s.add_argument("--alpha", type=float, default=0.05, help="significance level of the clusters")
    s.add_argument("-f", "--format", choices=("text", "json"), default="text")
    return p


def _named(items: list[str], what: str, allow_none: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise InvalidOptionError(f"{what}: {item!r} is not NAME=PATH")
        if name in out:
            raise InvalidOptionError(f"{what}: metric {name!r} given twice")
        out[name] = read_scores(path, allow_none)
    return out


def _imported(args: argparse.Namespace) -> dict[str, Any]:
    from ..imported import imported_from_files

    out: dict[str, Any] = {}
    for item in args.scores:
        name, sep, paths = item.partition("=")
        if not sep or not name or not paths:
            raise InvalidOptionError(f"--scores: {item!r} is not NAME=PATH[,PATH...]")
        hib = name in args.higher_is_better
        if hib == (name in args.lower_is_better):
            raise InvalidOptionError(
                f"--scores {name}: give exactly one of --higher-is-better {name} or "
                f"--lower-is-better {name} (the direction of imported scores cannot be known)"
            )
        try:
            out[name] = imported_from_files(name, paths.split(","), higher_is_better=hib)
        except ParbleuError as e:
            # Name the option, as the main command, compare and report do.
            raise InvalidOptionError(f"--scores {name}: {e}") from None
    return out


def _inputs(items: list[str]) -> tuple[list[str], list[str]]:
    """System names and paths of ``-i [NAME=]PATH ...``."""
    names: list[str | None] = []
    paths = []
    for item in items:
        name, sep, path = item.partition("=")
        if sep and name and path and "/" not in name and not Path(item).exists():
            names.append(name)
            paths.append(path)
        else:
            names.append(None)
            paths.append(item)
    auto = iter(short_names([p for n, p in zip(names, paths) if n is None]))
    labels = [n if n is not None else next(auto) for n in names]
    if len(set(labels)) != len(labels):
        raise InvalidOptionError(f"-i: two systems have the same name ({', '.join(labels)})")
    return labels, paths


def _human(args: argparse.Namespace, n_seg: int | None) -> HumanScores:
    given = [
        g
        for g, on in (
            ("--human-da", bool(args.human_da)),
            ("--human-tsv", args.human_tsv is not None),
            ("--human-seg/--human-sys", bool(args.human_seg or args.human_sys)),
        )
        if on
    ]
    if not given:
        raise InvalidOptionError("meta: give --human-da, --human-tsv, --human-seg or --human-sys")
    if len(given) > 1:
        raise InvalidOptionError(f"meta: give one kind of human scores, not {' and '.join(given)}")
    if args.da_docs is not None and not args.human_da:
        raise InvalidOptionError("--da-docs: only with --human-da")
    if args.human_da:
        human = read_da(
            args.human_da,
            docs=args.da_docs,
            langpair=args.langpair,
            score=args.da_score,
            include_human=args.include_human,
        )
    elif args.human_tsv is not None:
        human = read_human_tsv(args.human_tsv, n_seg)
    else:
        human = human_from_mtme(args.human_seg, args.human_sys)
    if n_seg is not None and human.seg is not None:
        got = len(next(iter(human.seg.values())))
        if got != n_seg:
            what = args.da_docs if args.human_da else human.source
            raise InvalidOptionError(
                f"{what}: {got} segments, but the references have {n_seg} lines"
            )
    return human


def _computed(args: argparse.Namespace) -> tuple[dict[str, MetricScores], list[str], int | None]:
    """Metrics of ``-m`` and imported ``--scores`` on the ``-i`` outputs."""
    if not args.input:
        if args.refs or args.metrics:
            raise InvalidOptionError("meta: -r and -m need the system outputs (-i)")
        return {}, [], None
    if not args.refs:
        raise InvalidOptionError("meta: -i needs the references (-r)")
    from .imported_args import imported_metrics
    from .score import build_metrics

    trg_lang = check_metric_options(args, [("sentence_scores", "parbleu meta")])
    labels, paths = _inputs(args.input)
    refs = read_ref_streams(args.refs, args.num_refs, ref_encoding(args))
    systems = {}
    for label, path in zip(labels, paths):
        lines = read_file_lines(path, hyp_encoding(args), "hypothesis file")
        if len(lines) != len(refs[0]):
            raise InvalidOptionError(
                f"hypothesis file {path!r} has {len(lines)} lines but the references have "
                f"{len(refs[0])}; the files must be aligned line by line"
            )
        systems[label] = lines
    metrics = build_metrics(args, refs, trg_lang, False)
    named = {m.title: m for m in metrics.values()}
    out = computed_scores(named, systems, None, getattr(args, "workers", None))
    for name, imp in imported_metrics(args, systems, paths).items():
        if name in out:
            raise InvalidOptionError(f"--scores: {name!r} is already a metric of -m")
        out[name] = given_scores(imp.scores, None, imp.higher_is_better)
    return out, labels, len(refs[0])


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return "nan" if math.isnan(v) else f"{v:.4f}"
    return str(v)


def _grid(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
        for r in rows
    ]


def _text(table: dict[str, Any]) -> str:
    lines: list[str] = []
    boot = table.get("bootstrap")
    for level, title in (("sys", "System level"), ("seg", "Segment level")):
        if level not in table:
            continue
        part = table[level]
        cols = list(next(iter(part["metrics"].values())).keys())
        lines.append(f"{title} ({len(part['systems'])} systems)")
        order = part["clusters"]["order"]
        rows = [["metric", *cols, "rank"]] + [
            [m, *(_fmt(part["metrics"][m][c]) for c in cols), str(part["clusters"]["ranks"][m])]
            for m in order
        ]
        lines.extend(_grid(rows))
        kinds = part.get("system_scores", {})
        if any(v == "corpus" for v in kinds.values()):
            corpus = [m for m in order if kinds.get(m) == "corpus"]
            lines.append(
                f"System scores: corpus scores ({', '.join(corpus)}); others: the mean of "
                "their segment scores or given."
            )
        if boot is not None and part.get("intervals"):
            iv = part["intervals"]
            icols = [c for c in cols if any(c in iv[m] for m in iv)]
            lines.append(
                f"{boot['confidence']:.0%} bootstrap intervals ({boot['n']} resamples of "
                f"{boot['items']} segments, {boot['draws']} draws)"
            )
            rows = [["metric", *icols]] + [
                [m, *(f"{_fmt(iv[m][c][0])}..{_fmt(iv[m][c][1])}" for c in icols)]
                for m in order
                if m in iv
            ]
            lines.extend(_grid(rows))
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def _meta(args: argparse.Namespace) -> tuple[int, str]:
    for flag, value in (("--k", args.k), ("--bootstrap", args.bootstrap)):
        if not 0 <= value <= MAX_RESAMPLES:
            raise InvalidOptionError(f"{flag}: {value} is outside 0..{MAX_RESAMPLES:,}")
    computed, systems, n_seg = _computed(args)
    human = _human(args, n_seg)
    metrics: dict[str, MetricScores] = dict(computed)
    seg = _named(args.seg_scores, "--seg-scores", False)
    sys_ = _named(args.sys_scores, "--sys-scores", False)
    if not args.input:
        for name, imported in _imported(args).items():
            if name in seg:
                raise InvalidOptionError(f"--scores: metric {name!r} given twice")
            seg[name] = imported.oriented()
    for name in list(sys_) + [n for n in seg if n not in sys_]:
        if name in metrics:
            raise InvalidOptionError(f"--seg-scores/--sys-scores: metric {name!r} given twice")
        metrics[name] = given_scores(seg.get(name), sys_.get(name))
    if not metrics:
        raise InvalidOptionError(
            "meta: give metrics: -r/-i with -m or --scores, --seg-scores or --sys-scores"
        )
    numpy_draws = args.mtme_draws is not None
    draws, seed = ("numpy", args.mtme_draws) if numpy_draws else ("parbleu", args.seed)
    table = agreement(
        human,
        metrics,
        systems=systems or None,
        k=args.k,
        alpha=args.alpha,
        bootstrap=args.bootstrap,
        confidence=args.confidence,
        seed=seed,
        draws=draws,
    )
    if args.format == "json":
        return 0, json.dumps(table, indent=1, default=float)
    return 0, _text(table)


def run(argv: Sequence[str]) -> tuple[int, str]:
    """Run ``parbleu meta``; returns the exit code and the text to print."""
    return run_subcommand(build_parser(), _meta, argv)
