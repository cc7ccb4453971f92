"""``--scores NAME=PATH[,PATH...]``: imported segment scores as metrics on the command line.

Shared by ``parbleu``, ``compare`` and ``report``-style commands: one file per system (plain
floats, in ``-i`` order) or files keyed by system (TSV, JSONL, comet-score's ``--to_json``,
MTME ``*.seg.score``), whose system names are the ``-i`` files (path, base name or the short
label the command shows). Each name needs ``--higher-is-better NAME`` or
``--lower-is-better NAME``: the direction of imported scores cannot be known.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import InvalidOptionError

__all__ = ["add_scores_options", "imported_metrics"]


def add_scores_options(p: argparse.ArgumentParser) -> None:
    """Add ``--scores``, ``--higher-is-better`` and ``--lower-is-better`` to ``p``."""
    g = p.add_argument_group("Imported scores")
    g.add_argument(
        "--scores",
        metavar="NAME=PATH[,PATH...]",
        action="append",
        default=[],
        help="Segment scores computed elsewhere (COMET, MetricX, ...), one file per system in "
        "-i order or one file keyed by system; scored as the mean, resampled like the other "
        "metrics. Repeatable.",
    )
    g.add_argument(
        "--higher-is-better",
        metavar="NAME",
        action="append",
        default=[],
        help="An imported metric whose higher scores are better.",
    )
    g.add_argument(
        "--lower-is-better",
        metavar="NAME",
        action="append",
        default=[],
        help="An imported metric whose lower scores are better.",
    )


def imported_metrics(
    args: argparse.Namespace, systems: Mapping[str, Sequence[str]], paths: Sequence[str]
) -> dict[str, Any]:
    """Build the ``--scores`` metrics, checked against the systems' hypotheses.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments with ``scores``, ``higher_is_better``, ``lower_is_better``.
    systems : mapping
        Label to hypotheses, in ``-i`` order.
    paths : sequence of str
        The ``-i`` files, parallel to ``systems``.

    Returns
    -------
    dict
        Metric name to :class:`parbleu.ImportedScores`.
    """
    from ..imported import imported_from_files

    labels = list(systems)
    alias = {}
    for label, path in zip(labels, paths):
        for key in (label, path, Path(path).name):
            alias[key] = label
    n_seg = len(next(iter(systems.values()))) if systems else None
    out: dict[str, Any] = {}
    for item in getattr(args, "scores", []) or []:
        name, sep, files = item.partition("=")
        if not sep or not name or not files:
            raise InvalidOptionError(f"--scores: {item!r} is not NAME=PATH[,PATH...]")
        if name in out:
            raise InvalidOptionError(f"--scores: metric {name!r} given twice")
        hib = name in args.higher_is_better
        if hib == (name in args.lower_is_better):
            raise InvalidOptionError(
                f"--scores {name}: give exactly one of --higher-is-better {name} or "
                f"--lower-is-better {name} (the direction of imported scores cannot be known)"
            )
        file_list = files.split(",")
        plain = imported_from_files(name, file_list, None, None, higher_is_better=hib)
        by_label: dict[str, list[float]] = {}
        if len(file_list) == len(labels) and all(
            s == Path(f).name for s, f in zip(plain.scores, file_list)
        ):
            # One plain file per system, in -i order.
            by_label = dict(zip(labels, plain.scores.values()))
        else:
            for system, vals in plain.scores.items():
                if system not in alias:
                    raise InvalidOptionError(
                        f"--scores {name}: system {system!r} is not one of the -i files "
                        f"({', '.join(labels)})"
                    )
                by_label[alias[system]] = vals
        missing = [s for s in labels if s not in by_label]
        if missing:
            raise InvalidOptionError(
                f"--scores {name}: no scores for system(s) {', '.join(missing)}"
            )
        for label in labels:
            if len(by_label[label]) != n_seg:
                raise InvalidOptionError(
                    f"--scores {name}: {len(by_label[label])} scores for system {label!r}, "
                    f"expected {n_seg} (one per segment)"
                )
        from ..metrics.imported import ImportedScores

        out[name] = ImportedScores(
            name,
            {s: by_label[s] for s in labels},
            higher_is_better=hib,
            info=files,
            hypotheses={s: list(systems[s]) for s in labels},
        )
    return out
