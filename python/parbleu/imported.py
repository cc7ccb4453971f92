"""Imported segment scores (COMET, BLEURT, MetricX, ...) read from files, checked.

:class:`ImportedScores` holds one metric's segment scores per system with its direction and
provenance; :func:`read_scores_file` reads the formats metric tools write:

* one float per line, aligned with the hypothesis file (one file per system);
* TSV ``system<TAB>segment<TAB>score`` or ``system<TAB>score`` (MTME's ``*.seg.score``, each
  system's segments in order);
* JSONL, one object a line: ``{"system": ..., "segment": ..., "score": ...}``; MetricX's
  ``prediction`` and comet-score's ``--to_json`` layout (``{"file": [{"COMET": x}, ...]}``)
  are read too.

Every defect is refused with one line naming the file and line: a value that is not a finite
number, a missing or duplicate key, a wrong count, an empty file. Missing values are never
skipped.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .errors import InvalidOptionError
from .metrics.imported import ImportedScores, score_value

__all__ = ["ImportedScores", "imported_from_files", "read_scores_file", "read_scores_lines"]

_KEYS = ("score", "prediction", "COMET", "comet", "metricx", "bleurt")
#: The first line of each system in a score file (``None``: not known).
Lines = dict[str, "int | None"]


def _json_score(obj: Any, where: str) -> float:
    if isinstance(obj, Mapping):
        for key in _KEYS:
            if key in obj:
                return score_value(obj[key], where)
        raise InvalidOptionError(f"{where}: no score field (one of {', '.join(_KEYS)})")
    return score_value(obj, where)


def read_scores_file(path: str) -> OrderedDict[str, list[float]]:
    """Segment scores per system from one file (format detected from its first line).

    Parameters
    ----------
    path : str
        The file.

    Returns
    -------
    OrderedDict
        System name (``""`` for a file of plain floats) to its scores in segment order.
    """
    return read_scores_lines(path)[0]


def read_scores_lines(path: str) -> tuple[OrderedDict[str, list[float]], dict[str, int | None]]:
    """As :func:`read_scores_file`, with the line where each system first appears.

    Parameters
    ----------
    path : str
        The file.

    Returns
    -------
    tuple
        ``(scores, first_line)``: the scores as :func:`read_scores_file` returns them, and
        ``{system: 1-based line number}`` (``None`` for comet-score's JSON, one document),
        for messages that name the line of a system.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InvalidOptionError(f"{path}: cannot read ({e.strerror})") from None
    except UnicodeDecodeError:
        raise InvalidOptionError(f"{path}: not UTF-8 text") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or not any(line.strip() for line in lines):
        raise InvalidOptionError(f"{path}: no scores (empty file)")
    first = lines[0].lstrip()
    if first.startswith("{"):
        if _is_comet_json(text):
            data = _comet_json(path, text)
            return data, dict.fromkeys(data)
        return _jsonl(path, lines)
    if "\t" in lines[0]:
        return _tsv(path, lines)
    out: OrderedDict[str, list[float]] = OrderedDict()
    out[""] = [score_value(line, f"{path}:{no}") for no, line in enumerate(lines, 1)]
    return out, {"": 1}


def _add(out: dict[str, dict[int, float]], system: str, seg: int, value: float, where: str) -> None:
    segs = out.setdefault(system, {})
    if seg in segs:
        raise InvalidOptionError(f"{where}: duplicate score for system {system!r} segment {seg}")
    segs[seg] = value


def _complete(
    path: str, keyed: dict[str, dict[int, float]], first: dict[str, int | None]
) -> OrderedDict[str, list[float]]:
    out: OrderedDict[str, list[float]] = OrderedDict()
    for system, segs in keyed.items():
        n = max(segs) + 1
        missing = [str(i) for i in range(n) if i not in segs]
        if missing:
            raise InvalidOptionError(
                f"{path}: system {system!r} has no score for segment(s) {', '.join(missing[:5])}"
                f" (its scores start on line {first[system]})"
            )
        out[system] = [segs[i] for i in range(n)]
    return out


def _tsv(path: str, lines: list[str]) -> tuple[OrderedDict[str, list[float]], Lines]:
    keyed: dict[str, dict[int, float]] = OrderedDict()
    first: Lines = {}
    for no, line in enumerate(lines, 1):
        where = f"{path}:{no}"
        parts = line.split("\t")
        if len(parts) == 2:
            system, raw = parts
            seg = len(keyed.get(system, {}))
        elif len(parts) == 3:
            system, seg_raw, raw = parts
            try:
                seg = int(seg_raw)
            except ValueError:
                raise InvalidOptionError(
                    f"{where}: segment {seg_raw!r} is not an integer"
                ) from None
            if seg < 0:
                raise InvalidOptionError(f"{where}: segment {seg} is negative")
        else:
            raise InvalidOptionError(
                f"{where}: expected 'system<TAB>[segment<TAB>]score', got {len(parts)} fields"
            )
        first.setdefault(system, no)
        _add(keyed, system, seg, score_value(raw, where), where)
    return _complete(path, keyed, first), first


def _jsonl(path: str, lines: list[str]) -> tuple[OrderedDict[str, list[float]], Lines]:
    keyed: dict[str, dict[int, float]] = OrderedDict()
    first: Lines = {}
    for no, line in enumerate(lines, 1):
        where = f"{path}:{no}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InvalidOptionError(f"{where}: not JSON ({e.msg})") from None
        if not isinstance(obj, Mapping):
            raise InvalidOptionError(f"{where}: not a JSON object")
        system = str(obj.get("system", ""))
        seg_raw = obj.get("segment", obj.get("seg_id", len(keyed.get(system, {}))))
        if isinstance(seg_raw, bool) or not isinstance(seg_raw, int) or seg_raw < 0:
            raise InvalidOptionError(f"{where}: segment {seg_raw!r} is not a non-negative integer")
        first.setdefault(system, no)
        _add(keyed, system, seg_raw, _json_score(obj, where), where)
    return _complete(path, keyed, first), first


def _is_comet_json(text: str) -> bool:
    """comet-score's --to_json: one object whose values are lists of segments."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        return False
    return isinstance(obj, Mapping) and bool(obj) and all(isinstance(v, list) for v in obj.values())


def _comet_json(path: str, text: str) -> OrderedDict[str, list[float]]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidOptionError(f"{path}:{e.lineno}: not JSON ({e.msg})") from None
    if not isinstance(obj, Mapping) or not obj:
        raise InvalidOptionError(f"{path}: expected comet-score's --to_json object of systems")
    out: OrderedDict[str, list[float]] = OrderedDict()
    for system, items in obj.items():
        if not isinstance(items, list) or not items:
            raise InvalidOptionError(f"{path}: system {system!r}: expected a list of segments")
        out[str(system)] = [
            _json_score(it, f"{path}: system {system!r} segment {i}") for i, it in enumerate(items)
        ]
    return out


def imported_from_files(
    name: str,
    paths: Sequence[str],
    systems: Sequence[str] | None = None,
    n_segments: int | None = None,
    higher_is_better: bool | None = None,
    info: str = "",
) -> ImportedScores:
    """Read one file per system (plain floats), or one file keyed by system.

    Parameters
    ----------
    name : str
        Metric name.
    paths : sequence of str
        Score files.
    systems : sequence of str, optional
        The systems (``-i`` files) the scores must cover, in order.
    n_segments : int, optional
        Segments each system must have.
    higher_is_better : bool, optional
        Direction (required).
    info : str
        Provenance.

    Returns
    -------
    ImportedScores
        The checked scores.
    """
    merged: OrderedDict[str, list[float]] = OrderedDict()
    if systems is not None and len(paths) > 1 and len(paths) != len(systems):
        raise InvalidOptionError(
            f"--scores {name}: {len(paths)} files for {len(systems)} systems "
            "(give one per system, or one keyed file)"
        )
    for k, path in enumerate(paths):
        data = read_scores_file(path)
        if list(data) == [""]:
            key = systems[k] if systems is not None and k < len(systems) else Path(path).name
            data = OrderedDict([(key, data[""])])
        for system, vals in data.items():
            if system in merged:
                raise InvalidOptionError(f"{path}: system {system!r} scored twice")
            if n_segments is not None and len(vals) != n_segments:
                raise InvalidOptionError(
                    f"{path}: {len(vals)} scores for system {system!r}, "
                    f"expected {n_segments} (one per segment)"
                )
            merged[system] = vals
    if systems is not None:
        extra = [s for s in merged if s not in systems]
        missing = [s for s in systems if s not in merged]
        if extra or missing:
            raise InvalidOptionError(
                f"--scores {name}: systems do not match the inputs"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; unknown {', '.join(extra)}" if extra else "")
            )
        merged = OrderedDict((s, merged[s]) for s in systems)
    return ImportedScores(name, merged, higher_is_better=higher_is_better, info=info, files=paths)
