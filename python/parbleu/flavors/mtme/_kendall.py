"""MTME's Kendall variants and tie-calibrated Kendall, on the core."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from parbleu.flavors.mtme import _corrfns, tau_optimization
from parbleu.flavors.mtme._data import reshape as _Reshape
from parbleu.flavors.mtme._data import to_floats

__all__ = ["KendallPreproc", "KendallVariants", "KendallWithTiesOpt", "PairwiseDiffs"]


class KendallPreproc:
    """Gold-side preprocessing for :func:`KendallVariants` (kept for MTME's interface).

    Parameters
    ----------
    y : array_like
        The gold vector.
    """

    def __init__(self, y: Any) -> None:
        self.y = np.asarray(y)


class PairwiseDiffs:
    """Metric-side pairwise differences, differences up to ``epsilon`` made ties.

    Parameters
    ----------
    x : array_like, optional
        The metric vector.
    epsilon : float
        Tie threshold.
    """

    def __init__(self, x: Any = None, epsilon: float = 0.0) -> None:
        self.x = None if x is None else np.asarray(x, dtype=float)
        self.epsilon = epsilon
        if self.x is not None:
            diffs = self.x[np.newaxis, :] - self.x[:, np.newaxis]
            self.x_is_tie = np.abs(diffs) <= epsilon
            diffs[self.x_is_tie] = 0.0
            self.x_diffs = diffs

    def Combine(self, other: PairwiseDiffs, self_wts: Any, other_wts: Any) -> PairwiseDiffs:
        """Pairs taken from ``self`` where ``self_wts`` is 1, from ``other`` elsewhere."""
        ret = PairwiseDiffs()
        ret.x_diffs = self_wts * self.x_diffs + other_wts * other.x_diffs
        ret.x_is_tie = (self_wts * self.x_is_tie + other_wts * other.x_is_tie).astype(bool)
        return ret


def _matrix_tau(y: np.ndarray, pd: PairwiseDiffs, variant: str, x: Any) -> float:
    """Kendall variants from a metric difference matrix (combined pairs have no vector)."""
    yd = y[np.newaxis, :] - y[:, np.newaxis]
    yt = yd == 0.0
    xd, xt = pd.x_diffs, pd.x_is_tie
    n = len(y)
    tot = n * (n - 1) // 2
    con = int((((xd > 0) & (yd > 0)) | ((xd < 0) & (yd < 0))).sum() // 2)
    t_x = int((xt & ~yt).sum() // 2)
    t_y = int((~xt & yt).sum() // 2)
    t_xy = int(((xt & yt).sum() - n) // 2)
    dis = tot - (con + t_x + t_y + t_xy)
    xtie, ytie = t_x + t_xy, t_y + t_xy
    if variant in ("b", "c") and (xtie == tot or ytie == tot):
        return math.nan
    if variant == "b":
        return float((con - dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie))
    if variant == "c":
        mc = min(len(set(np.asarray(x).tolist())), len(set(y.tolist())))
        return 2 * (con - dis) / (n**2 * (mc - 1) / mc)
    if variant == "23":
        return (con + t_xy - dis - t_x - t_y) / tot
    return (con + t_xy) / tot


def KendallVariants(
    gold_scores: Any,
    metric_scores: Any,
    variant: str = "b",
    preproc: KendallPreproc | None = None,
    epsilon: float = 0.0,
    metric_preproc: PairwiseDiffs | None = None,
) -> tuple[float, int]:
    """Kendall's tau variants ``b``, ``c``, ``23``, ``acc23`` (Deutsch et al. 2023).

    Parameters
    ----------
    gold_scores, metric_scores : array_like
        Parallel vectors (``None`` when the matching preprocessing object is given).
    variant : str
        ``'b'``, ``'c'``, ``'23'`` or ``'acc23'``.
    preproc : KendallPreproc, optional
        Gold-side preprocessing (replaces ``gold_scores``).
    epsilon : float
        Metric differences up to this are ties.
    metric_preproc : PairwiseDiffs, optional
        Metric-side preprocessing (replaces ``metric_scores`` except for tau-c).

    Returns
    -------
    tuple
        ``(tau, 0)``.
    """
    if epsilon < 0:
        raise ValueError("Epsilon must be non-negative.")
    if epsilon > 0 and variant == "c":
        raise ValueError("Non-zero epsilon with tau-c not supported.")
    if metric_scores is None and variant == "c":
        raise ValueError("Metric scores must be provided for tau-c.")
    if variant not in ("b", "c", "23", "acc23"):
        raise ValueError(
            f"Unknown variant of the method chosen: {variant}. "
            "variant must be 'b', 'c', '23', or 'acc23'."
        )
    y = np.asarray(gold_scores) if gold_scores is not None else preproc.y  # type: ignore[union-attr]
    if metric_preproc is not None:
        if metric_preproc.x is None:
            return _matrix_tau(
                np.asarray(y, dtype=float), metric_preproc, variant, metric_scores
            ), 0
        x, epsilon = metric_preproc.x, metric_preproc.epsilon
    else:
        x = metric_scores
    spec = _corrfns.Spec("kendall", variant, float(epsilon), False)
    gy, mx = to_floats(y, "gold_scores"), to_floats(x, "metric_scores")
    return float(_corrfns.group_values(spec, gy, mx, [len(gy)])[0]), 0


def KendallWithTiesOpt(
    gold_scores: Any,
    metric_scores: Any,
    variant: str = "acc23",
    num_sys: int = 1,
    average_by: str = "none",
    sample_rate: float = 0.1,
) -> tuple[float, float, tau_optimization.TauOptimizationResult]:
    """Tau variant ``23`` or ``acc23`` at the tie threshold that maximises it.

    Returns
    -------
    tuple
        Correlation, the optimal threshold, the full optimisation result.
    """
    if variant not in ("23", "acc23"):
        raise ValueError("Only the *23 variants support epsilon optimization.")
    if sample_rate <= 0 or sample_rate > 1:
        raise ValueError(f"`sample_rate` must be in the range (0, 1]. Found {sample_rate}")
    gold = _Reshape(gold_scores, num_sys, average_by)
    metric = _Reshape(metric_scores, num_sys, average_by)
    res = tau_optimization.optimize_rows(metric, gold, variant, sample_rate)
    return res.best_tau, res.best_threshold, res
