"""MTME's Williams test and ``Sample`` (index sampling)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from parbleu.flavors.mtme import _special


def WilliamsSigDiff(
    corr1: Any, corr2: Any, corr_fcn: Callable[..., Any], one_sided: bool = True
) -> tuple[float, Any, Any]:
    """Williams test (Graham and Baldwin 2014) between two metrics' correlations.

    Returns
    -------
    tuple
        ``(pvalue, correlation1, correlation2)``.
    """
    if list(corr1.gold_scores) != list(corr2.gold_scores):
        raise ValueError("Gold scores for correlations don't match")
    r1 = corr_fcn(corr1.gold_scores, corr1.metric_scores)[0]
    r2 = corr_fcn(corr2.gold_scores, corr2.metric_scores)[0]
    r12 = corr_fcn(corr1.metric_scores, corr2.metric_scores)[0]
    n = len(corr1.gold_scores)
    return WilliamsTest(r1, r2, r12, n, one_sided), r1, r2


def WilliamsTest(r12: float, r13: float, r23: float, n: int, one_sided: bool = True) -> float:
    """Williams test p-value for dependent Pearson correlations r12 and r13."""
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r23 * r13
    rbar = (r12 + r13) / 2
    tnum = (r12 - r13) * np.sqrt((n - 1) * (1 + r23))
    tden = np.sqrt(2 * (n - 1) / (n - 3) * k + rbar**2 * (1 - r23) ** 3)
    p = _special.t_sf(float(np.abs(tnum / tden)), n - 3)
    return p if one_sided else 2 * p


class Sample:
    """``size`` indexes drawn from ``[0, total_size)``, uniformly or stratified by bins.

    Parameters
    ----------
    total_size : int
        Population size.
    size : int
        Sample size (0 or more than ``total_size``: everything).
    method : str
        ``'uniform'`` or ``'stratify'``.
    bin_sizes : list of int, optional
        Consecutive bins (``'stratify'``).
    seed : int, optional
        Seed of ``numpy.random.default_rng``.
    """

    def _SubsampleSizes(
        self, proportions: np.ndarray, size: int, bin_sizes: np.ndarray
    ) -> np.ndarray:
        """Split ``size`` over bins in proportion, largest residuals first, within bin sizes."""
        shuffled = np.random.permutation(len(proportions))
        proportions = proportions[shuffled]
        bin_sizes = bin_sizes[shuffled]
        ideal = proportions * size
        sizes = ideal.astype(int)
        residuals = sizes - ideal
        missing = size - sum(sizes)
        order = np.argpartition(residuals, missing)
        sizes[order[:missing]] += 1
        if (bin_sizes < sizes).any():
            assert sum(bin_sizes) >= size
            realloc = np.flatnonzero(sizes <= bin_sizes)
            mass = sum(np.maximum(sizes - bin_sizes, 0)) + sum(sizes[realloc])
            sizes = np.minimum(sizes, bin_sizes)
            props = proportions[realloc]
            props /= sum(props)
            sizes[realloc] = self._SubsampleSizes(props, mass, bin_sizes[realloc])
            assert (sizes <= bin_sizes).all()
        assert sum(sizes) == size, (sum(sizes), size)
        return sizes[np.argsort(shuffled)]

    def __init__(
        self,
        total_size: int,
        size: int,
        method: str,
        bin_sizes: list[int] | None = None,
        seed: int | None = None,
    ) -> None:
        self.total_size = total_size
        self.size = size
        self.method = method
        self.bin_sizes = bin_sizes
        self.seed = seed
        rng = np.random.default_rng(seed) if seed else np.random.default_rng()
        if size == 0 or size > total_size:
            size = total_size
        if method == "uniform":
            self.sample: Any = rng.choice(total_size, size, replace=False)
        elif method == "stratify":
            assert bin_sizes is not None and sum(bin_sizes) == total_size
            bins = np.asarray(bin_sizes)
            per_bin = self._SubsampleSizes(bins / total_size, size, bins)
            self.sample = []
            beg = 0
            for n, s in zip(bins, per_bin):
                self.sample.extend(rng.choice(n, s, replace=False) + beg)
                beg += n
        else:
            raise ValueError(f"Unknown method: {method}")

    def Select(self, v: Any) -> np.ndarray:
        """Return the sampled entries of ``v``."""
        assert len(v) == self.total_size
        return np.asarray(np.asarray(v)[self.sample])
