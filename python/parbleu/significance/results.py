"""Result types of the exact path (intervals, paired results, comparisons) and their text."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .._text import plural

if TYPE_CHECKING:
    from ._systems import Test


@dataclass(frozen=True)
class ConfidenceInterval:
    """A bootstrap confidence interval of one system's score.

    Attributes
    ----------
    metric
        Score name (``BLEU``, ``chrF2``, ``TER``, ...).
    system
        System name (``None`` when not named).
    score
        The corpus score (all segments).
    mean
        Mean of the resampled scores.
    low, high
        The interval: the resampled scores at ranks ``k`` and ``n - 1 - k`` (0-based) of the
        sorted resamples, ``k = floor(n * (1 - confidence) / 2)`` (SacreBLEU's ``n // 40`` for
        95%).
    half_width
        ``(high - low) / 2``: SacreBLEU's ``±`` value.
    confidence
        Coverage, e.g. 0.95.
    n
        Number of resamples.
    seed
        The seed used (``None``: SacreBLEU-compatible unseeded run).
    compat
        Computed by the SacreBLEU-compatible path (float32 sums, numpy's draws).
    """

    metric: str
    system: str | None
    score: float
    mean: float
    low: float
    high: float
    half_width: float
    confidence: float
    n: int
    seed: int | None
    compat: bool = False


@dataclass(frozen=True)
class PairedResult:
    """One system compared with the baseline by a paired test.

    Attributes
    ----------
    metric
        Score name.
    test
        ``"bootstrap"`` (paired bootstrap resampling) or ``"ar"`` (approximate randomization).
    baseline, system
        Names.
    baseline_score, score
        Corpus scores.
    delta
        ``score - baseline_score``.
    p_value
        Two-sided p-value of "no difference" (see ``docs/significance.md`` for each test's
        definition; with ``compat=True``, SacreBLEU's).
    n
        Resamples or trials.
    seed
        The seed used.
    ci
        The system's bootstrap interval (paired bootstrap only).
    baseline_ci
        The baseline's bootstrap interval (paired bootstrap only).
    compat
        Computed by the SacreBLEU-compatible path.
    """

    metric: str
    test: Test
    baseline: str
    system: str
    baseline_score: float
    score: float
    delta: float
    p_value: float
    n: int
    seed: int | None
    ci: ConfidenceInterval | None = None
    baseline_ci: ConfidenceInterval | None = None
    compat: bool = False

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether the difference is significant at level ``alpha`` (``p_value <= alpha``)."""
        return self.p_value <= alpha


@dataclass(frozen=True)
class PairwiseResult:
    """One pair of systems in an all-pairs comparison.

    Attributes
    ----------
    system_a, system_b
        Names; ``system_a`` ranks higher (better score, lower for TER).
    score_a, score_b
        Corpus scores.
    delta
        ``score_a - score_b``.
    p_value
        Two-sided p-value of the pair's test.
    p_holm
        Holm-Bonferroni adjusted p-value over all pairs of the metric.
    significant
        ``p_holm <= alpha``.
    """

    system_a: str
    system_b: str
    score_a: float
    score_b: float
    delta: float
    p_value: float
    p_holm: float
    significant: bool


@dataclass(frozen=True)
class MetricComparison:
    """All pairs of systems compared on one metric.

    Attributes
    ----------
    metric
        Score name.
    higher_is_better
        ``False`` for TER.
    signature
        The metric's signature with the test fields (``bs:``/``ar:``, ``seed:``,
        ``rng:splitmix64``).
    ranking
        System names, best first.
    scores
        Corpus score of each system.
    intervals
        Bootstrap interval of each system (paired bootstrap only).
    pairs
        Every pair, in ranking order (``system_a`` before ``system_b``).
    """

    metric: str
    higher_is_better: bool
    signature: str
    ranking: tuple[str, ...]
    scores: dict[str, float]
    intervals: dict[str, ConfidenceInterval]
    pairs: tuple[PairwiseResult, ...]

    def pair(self, a: str, b: str) -> PairwiseResult:
        """Return the result of the pair ``{a, b}`` (in either order)."""
        for p in self.pairs:
            if {p.system_a, p.system_b} == {a, b}:
                return p
        raise KeyError(f"no pair ({a!r}, {b!r})")


@dataclass(frozen=True)
class Comparison:
    """An all-pairs comparison of systems on one or more metrics (:func:`compare_all`).

    Attributes
    ----------
    test
        ``"bootstrap"`` or ``"ar"``.
    n
        Resamples or trials.
    seed
        The seed used.
    alpha
        Family-wise significance level (per metric).
    confidence
        Coverage of the bootstrap intervals.
    systems
        System names, as given.
    metrics
        One :class:`MetricComparison` per metric.
    """

    test: Test
    n: int
    seed: int
    alpha: float
    confidence: float
    systems: tuple[str, ...]
    metrics: tuple[MetricComparison, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain data (JSON-serializable)."""
        return asdict(self)

    def to_json(self, indent: int = 2) -> str:
        """Return the comparison as JSON (:meth:`to_dict`)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def table(self, width: int = 2) -> str:
        """Render a text report: per metric, the ranking and every pair, significant ones marked.

        Parameters
        ----------
        width
            Decimal places of scores.

        Returns
        -------
        str
            The report (no final newline).
        """
        return _render_comparison(self, width)


# --- text rendering of Comparison.table (here, not in a module of its own: the two would
# import each other) --------------------------------------------------------------------
def _grid(rows: list[list[str]], aligns: str) -> list[str]:
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [
            cell.rjust(w) if a == "r" else cell.center(w) if a == "c" else cell.ljust(w)
            for cell, w, a in zip(r, widths, aligns)
        ]
        out.append("  " + "  ".join(cells).rstrip())
    return out


def _render_comparison(c: Comparison, width: int) -> str:
    """``c.table(width)``: per metric, the ranking, every pair, the pair matrix."""
    test = (
        f"paired bootstrap resampling, {plural(c.n, 'resample')}"
        if c.test == "bootstrap"
        else f"approximate randomization, {plural(c.n, 'trial per pair', 'trials per pair')}"
    )
    k = len(c.systems)
    m = k * (k - 1) // 2
    lines = [
        f"All-pairs comparison of {k} systems: {test}, seed {c.seed}.",
        f"Holm-Bonferroni correction over the {plural(m, 'pair')} of each metric; "
        f"* = significantly different (adjusted p <= {c.alpha:g}).",
    ]
    for mc in c.metrics:
        better = "higher" if mc.higher_is_better else "lower"
        lines += ["", f"{mc.metric} ({better} is better)  {mc.signature}", ""]
        head = ["rank", "system", mc.metric]
        if mc.intervals:
            head.append(f"{c.confidence:.0%} CI")
        rows = [head]
        for r, nm in enumerate(mc.ranking, 1):
            row = [str(r), nm, f"{mc.scores[nm]:.{width}f}"]
            if mc.intervals:
                iv = mc.intervals[nm]
                row.append(f"[{iv.low:.{width}f}, {iv.high:.{width}f}]")
            rows.append(row)
        lines += _grid(rows, "rlrl")
        lines.append("")
        prow = [["system A", "system B", "delta", "p-value", "Holm p", ""]]
        for p in mc.pairs:
            prow.append(
                [p.system_a, p.system_b, f"{p.delta:+.{width}f}", f"{p.p_value:.4f}",
                 f"{p.p_holm:.4f}", "*" if p.significant else ""]
            )  # fmt: skip
        lines += _grid(prow, "llrrrl")
        lines.append("")
        rank = {nm: r for r, nm in enumerate(mc.ranking, 1)}
        mat = [["", *(str(rank[b]) for b in mc.ranking)]]
        for a in mc.ranking:
            row = [str(rank[a])]
            for b in mc.ranking:
                if a == b:
                    row.append(".")
                    continue
                pr = mc.pair(a, b)
                row.append((">" if pr.system_a == a else "<") if pr.significant else "=")
            mat.append(row)
        lines += _grid(mat, "r" + "c" * len(mc.ranking))
        lines.append(
            "  (by rank) > row significantly better than column, < worse, = no significant "
            "difference"
        )
    return "\n".join(lines)
