"""``parbleu metrics``: every registered metric with its capabilities, read from the registry.

    parbleu metrics [-f text|json]

One row a metric: its ``-m`` name, aliases, direction, the capabilities each surface needs
(``resample``: paired tests and intervals; ``pairwise``: pairwise tables and MBR; ``rows``:
int or float statistics; ``sentence``, ``streaming``, ``merge``), and its help line. A metric
registered later (``register_metric``) is listed like a built-in one.
"""

from __future__ import annotations

import argparse
import json

from .._record import record_dict
from ..metrics.registry import get_metric, metric_names

__all__ = ["build_parser", "metric_table", "run"]

DESCRIPTION = "parbleu metrics: the registered metrics and what each supports."


def build_parser(prog: str = "parbleu metrics") -> argparse.ArgumentParser:
    """Return the parser of ``parbleu metrics`` (``prog``: the name its usage shows)."""
    p = argparse.ArgumentParser(prog=prog, description=DESCRIPTION)
    p.add_argument(
        "--format",
        "-f",
        choices=("text", "json"),
        default="text",
        help="Output format. (Default: %(default)s)",
    )
    return p


def metric_table() -> list[dict[str, object]]:
    """One dict a registered metric: name, title, aliases, direction, capabilities, help."""
    rows = []
    for name in metric_names():
        e = get_metric(name)
        rows.append(
            {
                "name": e.name,
                "title": e.title,
                "aliases": list(e.aliases),
                "higher_is_better": e.profile.higher_is_better,
                "capabilities": record_dict(e.capabilities),
                "help": e.help,
            }
        )
    return rows


def _yes(flag: object) -> str:
    return "yes" if flag else "-"


def run(argv: list[str]) -> tuple[int, str]:
    """Run ``parbleu metrics``; return ``(exit code, text to print)``."""
    args = build_parser().parse_args(argv)
    table = metric_table()
    if args.format == "json":
        return 0, json.dumps(table, indent=1, ensure_ascii=False)
    head = ("metric", "aliases", "better", "resample", "pairwise", "rows", "sentence",
            "streaming", "merge")  # fmt: skip
    body = []
    for r in table:
        c = r["capabilities"]
        assert isinstance(c, dict)
        body.append(
            (
                str(r["name"]),
                ",".join(r["aliases"]) or "-",  # type: ignore[arg-type]
                "higher" if r["higher_is_better"] else "lower",
                _yes(c["resample"]),
                _yes(c["pairwise"]),
                str(c["rows"]),
                _yes(c["sentence_scores"]),
                _yes(c["streaming"]),
                _yes(c["merge"]),
            )
        )
    widths = [max(len(row[k]) for row in (head, *body)) for k in range(len(head))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip() for row in (head, *body)]
    lines.append("")
    lines += [f"{r['name']}: {r['help']}" for r in table]
    return 0, "\n".join(lines)
