"""``--scores NAME=PATH[,PATH...]``: imported segment scores as metrics on the command line.

Shared by ``parbleu``, ``compare`` and ``report``: one file per system (plain floats, or JSONL
without a system field, in ``-i`` order) or files keyed by system (TSV, JSONL, comet-score's
``--to_json``, MTME ``*.seg.score``), whose system names are the ``-i`` files (path, base name
or the label the command shows). Each name needs ``--higher-is-better NAME`` or
``--lower-is-better NAME`` (the direction of imported scores cannot be known);
``--scores-info NAME=TEXT`` puts the model and version into the signature.

Every refusal is one line that starts ``--scores NAME:`` and names the file and, where there
is one, the line (``--scores COMET: b.comet:7: 'nan' is not a finite number``).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..errors import InvalidOptionError

__all__ = [
    "ScoresSpec",
    "add_imported",
    "add_scores_options",
    "check_scores_usage",
    "imported_metrics",
    "scores_specs",
]


def add_scores_options(p: argparse.ArgumentParser) -> None:
    """Add the ``Imported scores`` group: ``--scores``, ``--scores-info`` and the directions."""
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
        "--scores-info",
        metavar="NAME=TEXT",
        action="append",
        default=[],
        help="Provenance of imported scores NAME for its signature (model, version, command: "
        "--scores-info COMET=Unbabel/wmt22-comet-da). Repeatable.",
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


class ScoresSpec(NamedTuple):
    """One ``--scores`` metric as given: name, files, direction and provenance.

    A named tuple, not a dataclass: the main command's parser imports this module, and
    ``dataclasses`` (with ``inspect``) is kept off the plain scoring path.
    """

    name: str
    files: tuple[str, ...]
    higher_is_better: bool
    info: str


def scores_specs(args: argparse.Namespace) -> list[ScoresSpec]:
    """Return the ``--scores`` metrics of the command line, checked before any file is read.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments (``scores``, ``scores_info``, ``higher_is_better``,
        ``lower_is_better``).

    Returns
    -------
    list of ScoresSpec
        In command-line order.
    """
    specs: list[ScoresSpec] = []
    higher = list(getattr(args, "higher_is_better", []) or [])
    lower = list(getattr(args, "lower_is_better", []) or [])
    infos: dict[str, str] = {}
    for item in getattr(args, "scores_info", []) or []:
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise InvalidOptionError(f"--scores-info: {item!r} is not NAME=TEXT")
        if name in infos:
            raise InvalidOptionError(f"--scores-info {name}: given twice")
        infos[name] = text
    for item in getattr(args, "scores", []) or []:
        name, sep, files = item.partition("=")
        if not sep or not name or not files:
            raise InvalidOptionError(f"--scores: {item!r} is not NAME=PATH[,PATH...]")
        if any(s.name == name for s in specs):
            raise InvalidOptionError(f"--scores {name}: given twice")
        file_list = tuple(files.split(","))
        if not all(file_list):
            raise InvalidOptionError(f"--scores {name}: an empty file name in {files!r}")
        hib = name in higher
        if hib == (name in lower):
            raise InvalidOptionError(
                f"--scores {name}: give exactly one of --higher-is-better {name} or "
                f"--lower-is-better {name} (the direction of imported scores cannot be known)"
            )
        specs.append(ScoresSpec(name, file_list, hib, infos.get(name, "")))
    given = {s.name for s in specs}
    for flag, names in (
        ("--higher-is-better", higher),
        ("--lower-is-better", lower),
        ("--scores-info", list(infos)),
    ):
        for name in names:
            if name not in given:
                raise InvalidOptionError(f"{flag} {name}: no --scores {name}=PATH was given")
    return specs


def check_scores_usage(args: argparse.Namespace, conflicts: Sequence[tuple[str, bool]]) -> None:
    """Refuse ``--scores`` with options it cannot serve, before any work.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    conflicts : sequence of (str, bool)
        ``(option, given)`` pairs: each given option is refused with ``--scores``.
    """
    if not getattr(args, "scores", None):
        return
    for flag, given in conflicts:
        if given:
            raise InvalidOptionError(
                f"--scores: not with {flag} (imported scores are one per line of the -i files, "
                "for whole systems)"
            )


def _read(name: str, path: str) -> tuple[Any, dict[str, int | None]]:
    from ..imported import read_scores_lines

    try:
        return read_scores_lines(path)
    except InvalidOptionError as e:
        raise InvalidOptionError(f"--scores {name}: {e}") from None


def _at(path: str, line: int | None) -> str:
    return path if line is None else f"{path}:{line}"


def imported_metrics(
    args: argparse.Namespace, systems: Mapping[str, Sequence[str]], paths: Sequence[str]
) -> dict[str, Any]:
    """Build the ``--scores`` metrics, checked against the systems' hypotheses.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments (see :func:`scores_specs`).
    systems : mapping
        Label to hypotheses, in ``-i`` order.
    paths : sequence of str
        The ``-i`` files (or the labels, for standard input), parallel to ``systems``.

    Returns
    -------
    dict
        Metric name to :class:`parbleu.ImportedScores`, in command-line order.
    """
    from pathlib import Path  # not at start-up: pathlib imports urllib

    from ..metrics.imported import ImportedScores

    labels = list(systems)
    alias: dict[str, str] = {}
    for label, path in zip(labels, paths):
        for key in (label, path, Path(path).name):
            alias.setdefault(key, label)
    source = dict(zip(labels, paths))
    out: dict[str, Any] = {}
    for spec in scores_specs(args):
        where = f"--scores {spec.name}"
        read = [(f, *_read(spec.name, f)) for f in spec.files]
        plain = [f for f, data, _ in read if list(data) == [""]]
        by_label: dict[str, list[float]] = {}
        origin: dict[str, tuple[str, int | None]] = {}
        if plain and len(plain) != len(read):
            keyed = next(f for f, data, _ in read if list(data) != [""])
            raise InvalidOptionError(
                f"{where}: {plain[0]} holds one system's scores (no system names) but {keyed} "
                "is keyed by system; give one plain file per -i file, or keyed files only"
            )
        if plain:
            if len(read) != len(labels):
                raise InvalidOptionError(
                    f"{where}: {len(read)} file(s) of plain scores (no system names) for "
                    f"{len(labels)} -i file(s); give one per -i file, in -i order, or one file "
                    "keyed by system"
                )
            for label, (f, data, _) in zip(labels, read):
                by_label[label] = data[""]
                origin[label] = (f, None)
        else:
            for f, data, lines in read:
                for system, vals in data.items():
                    if system not in alias:
                        raise InvalidOptionError(
                            f"{where}: {_at(f, lines.get(system))}: system {system!r} is not "
                            f"one of the -i files ({', '.join(labels)})"
                        )
                    label = alias[system]
                    if label in by_label:
                        raise InvalidOptionError(
                            f"{where}: {_at(f, lines.get(system))}: system {system!r} is "
                            f"scored twice (also in {origin[label][0]})"
                        )
                    by_label[label] = vals
                    origin[label] = (f, lines.get(system))
            missing = [s for s in labels if s not in by_label]
            if missing:
                raise InvalidOptionError(
                    f"{where}: no scores for -i file(s) {', '.join(source[s] for s in missing)} "
                    f"in {', '.join(spec.files)}"
                )
        for label in labels:
            n_seg, got = len(systems[label]), len(by_label[label])
            if got != n_seg:
                f, line = origin[label]
                what = "scores" if line is None else f"scores for system {label!r}"
                raise InvalidOptionError(
                    f"{where}: {_at(f, line)}: {got} {what}, but -i file {source[label]} has "
                    f"{n_seg} lines (one score per line, nothing is truncated)"
                )
        try:
            out[spec.name] = ImportedScores(
                spec.name,
                {s: by_label[s] for s in labels},
                higher_is_better=spec.higher_is_better,
                info=spec.info,
                hypotheses={s: list(systems[s]) for s in labels},
                files=spec.files,
            )
        except InvalidOptionError as e:
            raise InvalidOptionError(f"{where}: {str(e).split(': ', 1)[-1]}") from None
    return out


def add_imported(
    args: argparse.Namespace,
    metrics: dict[str, Any],
    systems: Mapping[str, Sequence[str]],
    paths: Sequence[str],
) -> None:
    """Add the ``--scores`` metrics to a command's metrics (after ``-m``'s), by name.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    metrics : dict
        The command's metrics by name (``-m``'s, upper-case); extended in place.
    systems, paths
        As :func:`imported_metrics` takes them.
    """
    taken = {k.upper() for k in metrics}
    for name, metric in imported_metrics(args, systems, paths).items():
        if name.upper() in taken:
            raise InvalidOptionError(
                f"--scores {name}: {name!r} is already the name of a metric of -m"
            )
        metrics[name] = metric
