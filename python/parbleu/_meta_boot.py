"""Bootstrap intervals of meta-evaluation statistics: items (segments) resampled.

Draw b takes ``n_items`` test-set items with replacement; every system keeps its scores of the
drawn items. Segment level: the statistics on the drawn items (all systems' scores of an item
stay together). System level: each system's human score is the mean of its judged scores on
the drawn items, each metric's system score its corpus score on the drawn segments (the mean
of its segment scores when it has no corpus score); then the system-level statistics. The
interval is the percentile interval of the draws (``numpy.quantile``, linear).

Draws: ``'parbleu'`` (the default), resample b is the counter-based stream (seed, b), the same
as ``parbleu compare``'s bootstrap resample b: results do not depend on the thread count;
``'numpy'``, ``numpy.random.default_rng(seed).choice(n_items, (n, n_items))``, as the golden
file's generator draws with MTME's own statistics (``tools/gen_meta_bootstrap_golden.py``).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from parbleu import _core
from parbleu.errors import InvalidOptionError

__all__ = ["boot_indices", "interval", "seg_draws", "sys_draws"]

Row = dict[str, float]


def boot_indices(n_items: int, n: int, seed: int, draws: str) -> npt.NDArray[np.int64]:
    """Item indices of ``n`` resamples, ``(n, n_items)``.

    Parameters
    ----------
    n_items : int
        Items (test-set lines).
    n : int
        Resamples.
    seed : int
        Seed (0 to 2**64 - 1).
    draws : str
        ``'parbleu'`` (counter-based) or ``'numpy'`` (``default_rng(seed).choice``).

    Returns
    -------
    numpy.ndarray
        int64 indices, one row per resample.
    """
    if not 0 <= seed < 2**64:
        raise InvalidOptionError(f"seed: {seed} is not an integer from 0 to 2**64 - 1")
    if draws == "numpy":
        idx = np.random.default_rng(seed).choice(n_items, size=(n, n_items), replace=True)
        return np.ascontiguousarray(idx, dtype=np.int64)
    if draws != "parbleu":
        raise InvalidOptionError(f"draws: {draws!r} is not 'parbleu' or 'numpy'")
    raw = _core.meta_boot_indices(seed, 0, n, n_items)
    return np.frombuffer(raw, dtype="<i8").reshape(n, n_items).copy()


def _nan_matrix(scores: dict[str, list[Any]], systems: list[str]) -> npt.NDArray[np.float64]:
    """Systems x items, NaN where a score is ``None``."""
    return np.array([scores[s] for s in systems], dtype=np.float64)


def seg_draws(
    gold: dict[str, list[Any]],
    metric: dict[str, list[float]],
    systems: list[str],
    idxs: npt.NDArray[np.int64],
    row: Callable[[Any], Row],
) -> list[Row]:
    """Segment-level statistics of every draw.

    Parameters
    ----------
    gold, metric : dict
        System to its segment scores (gold: ``None`` where not judged).
    systems : list of str
        System order of the vectors.
    idxs : numpy.ndarray
        ``(draws, items)`` item indices.
    row : callable
        Maps an MTME ``Correlation`` to the statistics of one table row.

    Returns
    -------
    list of dict
        One row of statistics per draw.
    """
    from parbleu.flavors.mtme import stats

    g = np.array([gold[s] for s in systems], dtype=object)
    m = _nan_matrix(metric, systems)
    out = []
    for idx in idxs:
        out.append(
            row(stats.Correlation(len(systems), g[:, idx].reshape(-1), m[:, idx].reshape(-1)))
        )
    return out


def _means(matrix: npt.NDArray[np.float64], idx: npt.NDArray[np.int64]) -> list[float | None]:
    out: list[float | None] = []
    for r in matrix[:, idx]:
        vals = r[~np.isnan(r)]
        out.append(float(np.mean(vals)) if len(vals) else None)
    return out


def sys_draws(
    gold_seg: dict[str, list[Any]],
    metric_seg: dict[str, list[float]] | None,
    resampled: npt.NDArray[np.float64] | None,
    systems: list[str],
    idxs: npt.NDArray[np.int64],
    row: Callable[[Any], Row],
) -> list[Row]:
    """System-level statistics of every draw.

    Parameters
    ----------
    gold_seg : dict
        System to its human segment scores (``None``: not judged).
    metric_seg : dict or None
        System to its metric segment scores (system score: their mean on the draw).
    resampled : numpy.ndarray or None
        ``(draws, systems)`` metric system scores of each draw (corpus scores), if known.
    systems : list of str
        System order.
    idxs : numpy.ndarray
        ``(draws, items)`` item indices.
    row : callable
        Maps an MTME ``Correlation`` to the statistics of one table row.

    Returns
    -------
    list of dict
        One row of statistics per draw.
    """
    from parbleu.flavors.mtme import stats

    g = _nan_matrix(gold_seg, systems)
    m = _nan_matrix(metric_seg, systems) if metric_seg is not None else None
    out = []
    for b, idx in enumerate(idxs):
        if resampled is not None:
            metric = [float(v) for v in resampled[b]]
        else:
            assert m is not None
            metric = [float(np.mean(r)) for r in m[:, idx]]
        out.append(row(stats.Correlation(len(systems), _means(g, idx), metric)))
    return out


def interval(draws: list[Row], confidence: float) -> dict[str, list[float]]:
    """Percentile interval of each statistic over the draws (NaN draws left out).

    Returns
    -------
    dict
        Statistic to ``[low, high]`` (NaN when no draw has a value).
    """
    lo, hi = (1 - confidence) / 2, (1 + confidence) / 2
    out: dict[str, list[float]] = {}
    for key in draws[0] if draws else []:
        vals = np.array([d[key] for d in draws], dtype=np.float64)
        vals = vals[~np.isnan(vals)]
        if not len(vals):
            out[key] = [float("nan"), float("nan")]
            continue
        out[key] = [float(np.quantile(vals, lo)), float(np.quantile(vals, hi))]
    return out
