"""Agreement of the report's metrics with human judgements (``parbleu meta``'s statistics).

Given human scores per system (segment scores, ``None`` where a segment has none; and
optionally system scores), every metric column of the report is compared with them by
:func:`parbleu.metaeval.agreement`, the function behind ``parbleu meta``: system level with
the metric's corpus scores (BLEU of the whole system, not a mean of sentence BLEU), segment
level with its sentence scores (the histograms' scores). Scores are oriented so that higher is
better (TER and lower-is-better imported scores negated), as MTME expects. The numbers equal
``parbleu meta``'s on the same scores (tests/report/test_report_imported.py,
test_report_human_da.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidOptionError
from ._numbers import json_number

__all__ = ["HumanScores", "agreement"]


@dataclass(frozen=True)
class HumanScores:
    """Human judgements of the report's systems.

    Parameters
    ----------
    seg
        ``{system: [score or None, ...]}``, one entry per segment (``None``: not judged).
    sys
        ``{system: score}``; ``None``: the mean of each system's judged segments.
    k
        PERM-BOTH draws per metric pair for the rank clusters (0: none).
    """

    seg: Mapping[str, Sequence[float | None]] | None = None
    sys: Mapping[str, float] | None = None
    k: int = 0


def _number(x: Any) -> float | None:
    return None if x is None else json_number(x)


def _mean(v: list[float | None]) -> float | None:
    vals = [x for x in v if x is not None]
    return sum(vals) / len(vals) if vals else None


def _human_value(v: Any, system: str, i: int) -> float | None:
    if v is None:
        return None
    x = float(v)
    if not math.isfinite(x):
        raise InvalidOptionError(
            f"human_seg[{system!r}][{i}]: {v!r} is not a finite number (None: not judged)"
        )
    return x


def agreement(
    data: dict[str, Any], human: HumanScores, rename: Mapping[str, str], seed: int, alpha: float
) -> dict[str, Any]:
    """Return the report's ``agreement`` section.

    Parameters
    ----------
    data
        The report's data (``scores``, ``sentence``, ``systems``, ``n_segments``).
    human
        The human scores, keyed by system (a key of the report's systems or its shown name).
    rename
        ``{key given: shown name}`` of the report's systems.
    seed
        Seed of the PERM-BOTH draws (parbleu's generator, as ``parbleu meta --seed``).
    alpha
        Significance level of the clusters.

    Returns
    -------
    dict
        ``{"systems", "left_out", "oriented", "k", "seed", "sys", "seg"}``: the systems
        compared, those left out (of the report, of the human scores), the metrics negated,
        and ``metaeval.agreement``'s statistics (non-finite numbers as ``None``).
    """
    if human.seg is None and human.sys is None:
        raise InvalidOptionError("human: give segment scores (seg) or system scores (sys)")
    if isinstance(human.k, bool) or not isinstance(human.k, int) or human.k < 0:
        raise InvalidOptionError(f"human k={human.k!r}: expected an integer >= 0")
    given = human.seg if human.seg is not None else human.sys
    assert given is not None
    names = list(data["systems"])
    keyed = {rename.get(str(s), str(s)): s for s in given}
    common = [n for n in names if n in keyed]
    if len(common) < 2:
        raise InvalidOptionError(
            f"human scores: {len(common)} of the report's systems have human scores; agreement "
            f"needs 2 or more (report: {', '.join(names)}; human: "
            f"{', '.join(str(s) for s in list(given)[:10])})"
        )
    n_seg = data["n_segments"]
    seg: dict[str, list[float | None]] | None = None
    if human.seg is not None:
        seg = {}
        for n in common:
            vals = list(human.seg[keyed[n]])
            if len(vals) != n_seg:
                raise InvalidOptionError(
                    f"human scores: system {keyed[n]!r} has {len(vals)} segment scores, the "
                    f"report {n_seg} segments"
                )
            seg[n] = [_human_value(v, n, i) for i, v in enumerate(vals)]
    sys_: dict[str, list[float | None]] | None = None
    if human.sys is not None:
        sys_keyed = {rename.get(str(s), str(s)): s for s in human.sys}
        missing = [n for n in common if n not in sys_keyed]
        if missing:
            raise InvalidOptionError(
                f"human system scores: none for system(s) {', '.join(missing)}"
            )
        sys_ = {n: [float(human.sys[sys_keyed[n]])] for n in common}
    from .. import metaeval

    # The sentence entries are the score entries' columns, in order (same labels); the
    # metric's own direction orients them (TER and lower-is-better imported scores negated).
    metrics = {
        sc["metric"]: metaeval.given_scores(
            {n: se["scores"][n] for n in common} if seg is not None else None,
            {n: [sc["scores"][n]] for n in common},
            sc["higher_is_better"],
        )
        for sc, se in zip(data["scores"], data["sentence"])
    }
    if seg is not None and sys_ is None:
        sys_ = {n: [_mean(v)] for n, v in seg.items()}
    judged = metaeval.HumanScores(seg, sys_, "report")
    table = metaeval.agreement(judged, metrics, k=human.k, alpha=alpha, seed=seed)
    out: dict[str, Any] = {
        "systems": sorted(common),
        "left_out": {
            "report": [n for n in names if n not in keyed],
            "human": sorted(str(s) for s in given if rename.get(str(s), str(s)) not in names),
        },
        "oriented": [m["metric"] for m in data["scores"] if not m["higher_is_better"]],
        "k": human.k,
        "seed": seed,
        "metrics": [m["metric"] for m in data["scores"]],
    }
    for level in ("sys", "seg"):
        if level in table:
            part = table[level]
            out[level] = {
                "metrics": {
                    m: {k: _number(v) for k, v in row.items()} for m, row in part["metrics"].items()
                },
                "ranks": dict(part["clusters"]["ranks"]),
            }
    return out
