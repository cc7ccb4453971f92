"""WMT-style significance clusters and rank ranges from the pairwise results of one metric.

As the WMT findings papers present their system rankings:

- **Clusters.** Systems in score order are cut between positions ``k`` and ``k + 1`` when every
  system above the cut is significantly better than every system below it. A cluster is a run
  of systems between two cuts: no cut can separate them, so they are not told apart.
- **Rank range** of a system: from ``1 +`` the number of systems significantly better than it
  to ``N -`` the number of systems it is significantly better than (the ranks it could take
  in an order that contradicts no significant result).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


def clusters(ranking: Sequence[str], better: Iterable[tuple[str, str]]) -> list[dict[str, Any]]:
    """Group systems into WMT-style clusters.

    Parameters
    ----------
    ranking
        System names, best first.
    better
        ``(a, b)`` for each pair where ``a`` is significantly better than ``b``.

    Returns
    -------
    list of dict
        ``{"rank": k, "systems": [...], "ranks": {name: [low, high]}}`` per cluster, best
        first (``rank``: 1-based cluster number; ``ranks``: each member's rank range).
    """
    names = list(ranking)
    pos = {n: i for i, n in enumerate(names)}
    wins: dict[str, set[str]] = {n: set() for n in names}
    losses = dict.fromkeys(names, 0)
    for a, b in better:
        if b not in wins[a]:
            wins[a].add(b)
            losses[b] += 1
    total = len(names)
    # A cut after position k: each of the first k + 1 systems beats each of the other
    # total - k - 1 (quadratic per cut; fine for the hundreds of systems a page can show).
    out: list[dict[str, Any]] = []
    start = 0
    for k in range(total):
        last = k == total - 1
        cut = last or all(sum(pos[b] > k for b in wins[a]) == total - k - 1 for a in names[: k + 1])
        if cut:
            members = names[start : k + 1]
            out.append(
                {
                    "rank": len(out) + 1,
                    "systems": members,
                    "ranks": {n: [1 + losses[n], total - len(wins[n])] for n in members},
                }
            )
            start = k + 1
    return out
