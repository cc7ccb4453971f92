"""How the report tests significance: the resample count, the minimum corpus, the words.

Three decisions, each with its reason (``docs/report.md``, "Significance"):

- **Resamples from the number of pairs**, as :func:`parbleu.significance.compare_all` chooses
  them (:mod:`parbleu.significance._count`: the smallest reachable Holm-adjusted p-value is
  ``alpha / 5`` or less), with the reason on the page, and a warning when a count given is
  too small.
- **A minimum corpus for the bootstrap.** Resampling ``N`` segments cannot stand for the
  population when ``N`` is small: with one segment every resample is that segment, every
  interval collapses to a point and every difference is "significant". Below
  :data:`MIN_SEGMENTS` the report gives no bootstrap p-values or intervals, says why, and
  names approximate randomization, a permutation test valid at any size.
- **Saying which test ran** (:func:`describe`), and how it relates to ``sacrebleu --paired-bs``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..significance import DEFAULT_N, FLOOR_FACTOR, MIN_SEGMENTS, needed_resamples

__all__ = [
    "DEFAULT_N",
    "FLOOR_FACTOR",
    "MIN_SEGMENTS",
    "Plan",
    "describe",
    "needed_resamples",
    "plan",
    "why_count",
]


@dataclass(frozen=True)
class Plan:
    """How many resamples the report draws, and why.

    Attributes
    ----------
    n
        Resamples (bootstrap) or trials per pair (AR); ``None`` when significance is skipped.
    pairs
        Pairs per metric (each metric is its own Holm family).
    chosen
        ``"default"``, ``"pairs"`` (raised for the number of pairs), ``"given"`` or
        ``"skipped"`` (too few segments).
    floor
        The smallest reachable Holm-adjusted p-value, ``pairs / (n + 1)`` (``None``: no pairs
        or skipped).
    skipped
        Why there are no p-values and intervals (too few segments), or ``None``.
    notes
        Warnings for the page and the command line (empty when all is well).
    """

    n: int | None
    pairs: int
    chosen: str
    floor: float | None
    skipped: str | None
    notes: tuple[str, ...]


def plan(
    test: str, n: int | None, n_systems: int, n_segments: int, alpha: float, max_n: int
) -> Plan:
    """Choose the resample count (or skip significance) for a report.

    Parameters
    ----------
    test
        ``"bootstrap"`` or ``"ar"``.
    n
        The count the user gave, or ``None`` to choose it.
    n_systems, n_segments
        Size of the comparison.
    alpha
        Family-wise level of each metric.
    max_n
        The largest count the resampling accepts.

    Returns
    -------
    Plan
        The count and the reasons.
    """
    pairs = n_systems * (n_systems - 1) // 2
    if test == "bootstrap" and n_segments < MIN_SEGMENTS:
        why = (
            f"{n_segments} segment{'s' if n_segments != 1 else ''}: the paired bootstrap needs "
            f"at least {MIN_SEGMENTS} segments (with fewer its intervals shrink towards a "
            "point and it finds differences too often: at 10 segments twice as often as "
            "alpha promises), so no intervals and no p-values are given; approximate "
            "randomization (--paired-ar, test='ar') is valid at any size"
        )
        return Plan(None, pairs, "skipped", None, why, (f"no significance or intervals: {why}",))
    default = DEFAULT_N[test]
    what = "resamples" if test == "bootstrap" else "trials"
    capped = False
    if n is not None:
        count, chosen = n, "given"
    elif pairs:
        need = needed_resamples(pairs, alpha)
        count, chosen = (need, "pairs") if need > default else (default, "default")
        capped = count > max_n
        count = min(count, max_n)
    else:
        count, chosen = default, "default"
    floor = pairs / (count + 1) if pairs else None
    notes: list[str] = []
    if floor is None or floor <= alpha / FLOOR_FACTOR:
        pass
    elif capped:
        notes.append(
            f"{pairs} pairs would need {needed_resamples(pairs, alpha)} {what} for the smallest "
            f"reachable Holm-adjusted p-value to be alpha/{FLOOR_FACTOR}; {max_n} is the most "
            f"parbleu draws, which makes it {floor:.3g}"
            + (": no pair can be significant; compare fewer systems" if floor > alpha else "")
        )
    elif floor > alpha:
        notes.append(
            f"{count} {what} for {pairs} pairs: the smallest reachable Holm-adjusted p-value "
            f"is {pairs}/{count + 1} = {floor:.3g} > alpha = {alpha:g}, so no pair can be "
            f"significant; leave the count out to have it chosen (at least "
            f"{needed_resamples(pairs, alpha)})"
        )
    elif chosen == "given":
        notes.append(
            f"{count} {what} for {pairs} pairs: the smallest reachable Holm-adjusted p-value "
            f"is {floor:.3g}, close to alpha = {alpha:g}; pairs with small but nonzero "
            f"p-values may be missed (a count of {needed_resamples(pairs, alpha)} or more "
            "avoids it)"
        )
    return Plan(count, pairs, chosen, floor, None, tuple(notes))


def why_count(p: Plan, test: str, alpha: float) -> str:
    """Say in one sentence where the count comes from (for the page)."""
    what = "resamples" if test == "bootstrap" else "trials per pair"
    if p.n is None:
        return ""
    if p.chosen == "given":
        head = f"{p.n:,} {what}, as given."
    elif p.chosen == "pairs":
        head = (
            f"{p.n:,} {what}, chosen for the {p.pairs:,} pairs of each metric: a p-value is at "
            f"least 1/(n + 1), and Holm multiplies the smallest by the number of pairs, so the "
            f"count is the smallest that brings the smallest reachable adjusted p-value, "
            f"{p.pairs:,}/{p.n + 1:,} = {p.floor:.2g}, to alpha/{FLOOR_FACTOR} or below."
        )
    else:
        head = f"{p.n:,} {what} (the default; enough for {p.pairs:,} pair(s))."
    if p.floor is not None and p.chosen != "pairs":
        head += f" Smallest reachable Holm-adjusted p-value: {p.floor:.3g}."
    return head


def describe(test: str) -> str:
    """Say what the test computes, and how its p-values relate to ``sacrebleu --paired-bs``."""
    if test == "bootstrap":
        body = (
            "Paired bootstrap resampling, two-sided: each resample draws the segments with "
            "replacement and scores every system on the same draw; with d the observed "
            "difference and d* its value on a resample, p = (1 + #{|d* − d| ≥ |d|}) / (n + 1) "
            "(the shift test of Koehn 2004 and Berg-Kirkpatrick et al. 2012). One set of "
            "resamples serves all pairs and the intervals."
        )
    else:
        body = (
            "Approximate randomization, two-sided: each trial swaps the two systems' outputs "
            "segment by segment with probability 1/2; p = (1 + #{|a* − b*| ≥ |d|}) / (n + 1). "
            "Each pair runs its own trials (the same masks for every pair)."
        )
    return (
        body + " Draws: SplitMix64 from the seed, one stream per resample (the same result at "
        "any thread count). Each metric's pairs are one family, adjusted with "
        "Holm-Bonferroni. Not SacreBLEU's numbers: sacrebleu --paired-bs compares each "
        "system with the baseline only, counts resamples whose centred absolute difference "
        "exceeds the observed one (not a calibrated two-sided p-value: with no real "
        "difference it gives p ≤ 0.05 about twice as often as 5%), draws with numpy, and "
        "corrects for no multiple comparisons; its p-values are not comparable one to one. "
        "parbleu REF -i BASE SYS... --paired-bs reproduces SacreBLEU's table bit for bit."
    )
