"""MTME's ``tau_optimization`` (tie calibration, Deutsch et al. 2023), on parbleu's core.

Same names, arguments and results as ``mt_metrics_eval.tau_optimization``; the sweep over
pairs runs in the Rust core with MTME's float arithmetic, so thresholds and taus are equal to
the last bit.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

from parbleu import _core
from parbleu.errors import InvalidOptionError
from parbleu.flavors.mtme._data import filter_rows, floats_of


class TauSufficientStats:
    """Sufficient statistics of Kendall's tau (pair counts of human and metric scores).

    Parameters
    ----------
    con, dis, ties_human, ties_metric, ties_both : int
        Concordant, discordant, human-only ties, metric-only ties, ties in both.
    """

    def __init__(
        self,
        con: int = 0,
        dis: int = 0,
        ties_human: int = 0,
        ties_metric: int = 0,
        ties_both: int = 0,
    ) -> None:
        self.con = con
        self.dis = dis
        self.ties_human = ties_human
        self.ties_metric = ties_metric
        self.ties_both = ties_both
        self.num_pairs = con + dis + ties_human + ties_metric + ties_both

    def tau_23(self) -> float:
        """Tau with ties as their own class (Deutsch et al. 2023)."""
        agree = self.con + self.ties_both
        return (agree - self.dis - self.ties_human - self.ties_metric) / self.num_pairs

    def acc_23(self) -> float:
        """Pairwise accuracy with ties (Deutsch et al. 2023)."""
        return (self.con + self.ties_both) / self.num_pairs

    def _key(self) -> tuple[int, int, int, int, int]:
        return (self.con, self.dis, self.ties_human, self.ties_metric, self.ties_both)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TauSufficientStats) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __iadd__(self, other: TauSufficientStats) -> TauSufficientStats:
        self.con += other.con
        self.dis += other.dis
        self.ties_human += other.ties_human
        self.ties_metric += other.ties_metric
        self.ties_both += other.ties_both
        self.num_pairs += other.num_pairs
        return self

    def __isub__(self, other: TauSufficientStats) -> TauSufficientStats:
        self.con -= other.con
        self.dis -= other.dis
        self.ties_human -= other.ties_human
        self.ties_metric -= other.ties_metric
        self.ties_both -= other.ties_both
        self.num_pairs -= other.num_pairs
        return self

    def __str__(self) -> str:
        c, d, th, tm, tb = self._key()
        return f"(C={c},D={d},T_h={th},T_m={tm},T_hm={tb})"

    def __repr__(self) -> str:
        return str(self)


@dataclasses.dataclass
class TauOptimizationResult:
    """Every candidate threshold with its average tau, and the best of them."""

    thresholds: list[float]
    taus: list[float]
    best_threshold: float
    best_tau: float


def variant_of(tau_fn: Callable[..., float]) -> str:
    """``'23'`` or ``'acc23'`` for MTME's (or this module's) ``TauSufficientStats`` methods.

    Parameters
    ----------
    tau_fn : callable
        ``TauSufficientStats.tau_23`` or ``TauSufficientStats.acc_23``.

    Returns
    -------
    str
        The Kendall variant name.
    """
    name = getattr(tau_fn, "__name__", "")
    if name == "tau_23":
        return "23"
    if name == "acc_23":
        return "acc23"
    raise InvalidOptionError(
        f"tau_fn: {tau_fn!r} is not TauSufficientStats.tau_23 or TauSufficientStats.acc_23"
    )


def optimize_rows(
    metric_rows: np.ndarray,
    human_rows: np.ndarray,
    variant: str,
    sample_rate: float = 1.0,
    curve: bool = True,
) -> TauOptimizationResult:
    """Tie calibration over matrix rows (``None`` entries removed on either side).

    Parameters
    ----------
    metric_rows, human_rows : numpy.ndarray
        Parallel matrices.
    variant : str
        ``'23'`` or ``'acc23'``.
    sample_rate : float
        Proportion of pairs taken, drawn with ``np.random.random`` as MTME does.
    curve : bool
        Return every threshold and tau (else empty lists).

    Returns
    -------
    TauOptimizationResult
        The result.
    """
    human, metric, lens = filter_rows(human_rows, metric_rows, metric_nones=True)
    sampled = None
    if sample_rate != 1.0:
        pairs = sum(n * (n - 1) // 2 for n in lens)
        sampled = (np.random.random(pairs) <= sample_rate).astype(np.uint8).tobytes()
    thr, taus, best_thr, best_tau = _core.meta_tau_opt(human, metric, lens, variant, sampled, curve)
    return TauOptimizationResult(
        floats_of(thr).tolist(), floats_of(taus).tolist(), best_thr, best_tau
    )


def tau_optimization(
    metric_scores: Any,
    human_scores: Any,
    tau_fn: Callable[[TauSufficientStats], float],
    sample_rate: float = 1.0,
) -> TauOptimizationResult:
    """Introduce metric ties below the threshold that maximises the average tau over rows.

    Parameters
    ----------
    metric_scores, human_scores : array_like
        N x M matrices (or vectors); missing values are ``None``.
    tau_fn : callable
        ``TauSufficientStats.acc_23`` or ``TauSufficientStats.tau_23``.
    sample_rate : float
        Proportion of pairs to consider, in (0, 1] (drawn with ``np.random``).

    Returns
    -------
    TauOptimizationResult
        Thresholds, taus, the best threshold and tau.
    """
    if sample_rate <= 0 or sample_rate > 1:
        raise ValueError(f"`sample_rate` must be in the range (0, 1]. Found {sample_rate}")
    variant = variant_of(tau_fn)
    metric = np.array(metric_scores)
    human = np.array(human_scores)
    if metric.ndim == 1:
        metric = np.expand_dims(metric, 0)
    if human.ndim == 1:
        human = np.expand_dims(human, 0)
    if human.shape != metric.shape:
        raise ValueError("Human and metric scores must have the same shape.")
    return optimize_rows(metric, human, variant, sample_rate)
