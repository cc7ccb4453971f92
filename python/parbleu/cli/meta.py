"""``parbleu meta``: how well metrics agree with human judgements.

    parbleu meta --human-seg H.seg.score [--human-sys H.sys.score]
        --seg-scores NAME=PATH [...] [--sys-scores NAME=PATH ...] [--k 1000] [--seed S]
        [--mtme-draws SEED] [-f text|json]

Score files use MTME's layout: ``system<TAB>score`` per line, segment files with each
system's segments in test-set order and ``None`` where a segment has no human score. The
statistics are MTME's (:mod:`parbleu.flavors.mtme.stats`), see docs/meta-evaluation.md.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from ..errors import InvalidOptionError
from ..metaeval import meta_table, read_scores

__all__ = ["build_parser", "run"]

DESCRIPTION = """\
parbleu meta: agreement of metric scores with human scores (MTME's statistics).

System level: Pearson, Spearman, Kendall tau-b, pairwise accuracy, and PERM-BOTH clusters
on Pearson. Segment level: Pearson, Kendall tau-b with no/item/system grouping,
tie-calibrated pairwise accuracy (acc23, item grouping) with its epsilon, and PERM-BOTH
clusters on item-grouped tau-b.
"""


def build_parser() -> argparse.ArgumentParser:
    """Build the ``parbleu meta`` parser."""
    p = argparse.ArgumentParser(
        prog="parbleu meta",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--human-seg", metavar="PATH", help="human segment scores (MTME *.seg.score)")
    p.add_argument("--human-sys", metavar="PATH", help="human system scores (MTME *.sys.score)")
    p.add_argument(
        "--seg-scores",
        metavar="NAME=PATH",
        action="append",
        default=[],
        help="a metric's segment scores (repeatable)",
    )
    p.add_argument(
        "--sys-scores",
        metavar="NAME=PATH",
        action="append",
        default=[],
        help="a metric's system scores (repeatable; else the mean of its segments)",
    )
    p.add_argument(
        "--scores",
        metavar="NAME=PATH[,PATH...]",
        action="append",
        default=[],
        help="imported segment scores (plain floats, TSV, JSONL, comet-score --to_json, "
        "MTME *.seg.score), keyed by system; needs --higher-is-better or "
        "--lower-is-better NAME",
    )
    p.add_argument("--higher-is-better", metavar="NAME", action="append", default=[])
    p.add_argument("--lower-is-better", metavar="NAME", action="append", default=[])
    p.add_argument("--k", type=int, default=1000, help="PERM-BOTH draws per metric pair (0: none)")
    p.add_argument("--seed", type=int, default=12345, help="seed of parbleu's generator")
    p.add_argument(
        "--mtme-draws",
        type=int,
        metavar="SEED",
        default=None,
        help="draw from numpy's global generator seeded so (MTME's own p-values)",
    )
    p.add_argument("--alpha", type=float, default=0.05, help="significance level of the clusters")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text")
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
        out[name] = imported_from_files(name, paths.split(","), higher_is_better=hib)
    return out


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return "nan" if math.isnan(v) else f"{v:.4f}"
    return str(v)


def _text(table: dict[str, Any]) -> str:
    lines: list[str] = []
    for level, title in (("sys", "System level"), ("seg", "Segment level")):
        if level not in table:
            continue
        part = table[level]
        cols = list(next(iter(part["metrics"].values())).keys())
        lines.append(f"{title} ({len(part['systems'])} systems)")
        head = ["metric", *cols, "rank"]
        rows = [
            [m, *(_fmt(part["metrics"][m][c]) for c in cols), str(part["clusters"]["ranks"][m])]
            for m in part["clusters"]["order"]
        ]
        widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
        for r in [head, *rows]:
            lines.append(
                "  ".join(
                    c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))
                )
            )
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def run(argv: list[str]) -> tuple[int, str]:
    """Run ``parbleu meta``; returns the exit code and the text to print."""
    from parbleu.flavors.mtme import stats

    args = build_parser().parse_args(argv)
    if args.human_seg is None and args.human_sys is None:
        raise InvalidOptionError("meta: give --human-seg or --human-sys")
    if not args.seg_scores and not args.sys_scores and not args.scores:
        raise InvalidOptionError("meta: give at least one --scores, --seg-scores or --sys-scores")
    if args.k < 0:
        raise InvalidOptionError(f"--k: {args.k} is negative")
    human_seg = read_scores(args.human_seg, True) if args.human_seg else None
    human_sys = read_scores(args.human_sys, True) if args.human_sys else None
    seg = _named(args.seg_scores, "--seg-scores", False)
    sys_ = _named(args.sys_scores, "--sys-scores", False)
    for name, imported in _imported(args).items():
        if name in seg:
            raise InvalidOptionError(f"--scores: metric {name!r} given twice")
        seg[name] = imported.oriented()
    before = stats.random_mode()
    if args.mtme_draws is not None:
        import numpy as np

        np.random.seed(args.mtme_draws)
        stats.set_random("numpy")
    else:
        stats.set_random("parbleu", args.seed)
    try:
        table = meta_table(human_sys, human_seg, sys_, seg, args.k, args.alpha)
    finally:
        stats.set_random(*before)
    if args.format == "json":
        return 0, json.dumps(table, indent=1, default=float)
    return 0, _text(table)
