"""The flavors table of a report: each flavor's score of every system, and why it differs."""

from __future__ import annotations

from typing import Any

from .. import flavors  # ``flavors.explain``: loaded on first use (the package's __getattr__)
from ..errors import InvalidOptionError, ParbleuError
from ..flavors import flavor_names, get_flavor
from ._numbers import json_number
from ._options import Options


def flavor_rows(
    streams: list[list[str | None]],
    systems: dict[str, list[str]],
    names: list[str],
    baseline: str,
    opts: Options,
) -> list[dict[str, Any]]:
    """Each flavor's score of every system, what it does differently, and (baseline) why."""
    chosen = flavor_names() if opts.flavors is None else opts.flavors
    if not chosen:
        return []
    if any(s is None for st in streams for s in st):
        return []  # the originals take no missing references
    refs = [[str(x) for x in st] for st in streams]
    k = len(names) if opts.flavor_systems is None else opts.flavor_systems
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidOptionError(
            f"flavor_systems={opts.flavor_systems!r}: expected an integer >= 1 or None (all)"
        )
    # The baseline first, then the others in order: each flavor scores each system anew.
    scored = [baseline, *(n for n in names if n != baseline)][:k]
    out = []
    for name in chosen:
        info = get_flavor(name)
        scores: dict[str, float | None] = dict.fromkeys(names)
        errors: dict[str, str] = {}
        for n in scored:
            try:
                scores[n] = json_number(float(info.score(systems[n], refs)) * info.to_percent)
            except (ParbleuError, ArithmeticError) as e:
                scores[n] = None
                errors[n] = str(e)
        steps: list[dict[str, Any]] = []
        if opts.explain and scores.get(baseline) is not None:
            try:
                ex = flavors.explain(systems[baseline], refs, name)
                steps = [
                    {"factor": s.factor, "change": s.change, "score": json_number(s.score)}
                    for s in ex.steps
                ]
            except (ParbleuError, ArithmeticError, KeyError):
                steps = []
        out.append(
            {
                "name": name,
                "original": info.original,
                "tokenization": info.tokenization,
                "case": info.case,
                "ref_length": info.ref_length,
                "smoothing": info.smoothing,
                "scale": info.scale,
                "scores": scores,
                "errors": errors,
                "explain": steps,
            }
        )
    return out
