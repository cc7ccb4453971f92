"""PERM-BOTH (Deutsch et al. 2021) as MTME's ``PermutationSigDiff``, draws in the core.

Random draws: ``set_random('numpy')`` takes each draw's swap mask from numpy's global
generator exactly as MTME does (``np.random.binomial(1, 0.5, n)`` per draw), so p-values equal
MTME's after the same ``np.random.seed``; ``set_random('parbleu', seed)`` (the default) uses
parbleu's counter-based generator: draw i's mask depends on (seed, i) only, so results do not
depend on the thread count or on earlier calls.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any, Callable

import numpy as np

from parbleu import _core
from parbleu.errors import InvalidOptionError
from parbleu.flavors.mtme import _corrfns
from parbleu.flavors.mtme._data import floats_of, none_mask, reshape, to_floats

_RANDOM: dict[str, Any] = {"mode": "parbleu", "seed": 12345, "workers": -1}
# Draws per core call: Ctrl-C is seen between calls.
_CHUNK = 256


def set_random(mode: str, seed: int = 12345, workers: int = -1) -> None:
    """Choose where permutation draws come from.

    Parameters
    ----------
    mode : str
        ``'numpy'``: numpy's global generator, MTME's exact draws; ``'parbleu'``: the
        counter-based generator under ``seed``.
    seed : int
        Seed of the counter-based generator (0 to 2**64 - 1).
    workers : int
        Threads for the draws (-1: all cores); results do not depend on it.
    """
    if mode not in ("numpy", "parbleu"):
        raise InvalidOptionError(f"mode: {mode!r} is not 'numpy' or 'parbleu'")
    if not 0 <= int(seed) < 2**64:
        raise InvalidOptionError(f"seed: {seed} is not an integer from 0 to 2**64 - 1")
    _RANDOM.update(mode=mode, seed=int(seed), workers=int(workers))


def random_mode() -> tuple[str, int, int]:
    """Return the current ``(mode, seed, workers)``."""
    return _RANDOM["mode"], _RANDOM["seed"], _RANDOM["workers"]


@dataclasses.dataclass
class PermutationSigDiffParams:
    """Early stopping of :func:`PermutationSigDiff`."""

    block_size: int = 1000
    early_min: float = 0.02
    early_max: float = 0.5


# MTME's default argument (one shared instance, as in MTME).
_DEFAULT = PermutationSigDiffParams()


def _ReshapeAndFilter(
    corr1: Any, corr2: Any, average_by: str
) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray]:
    """Gold and both metrics' scores grouped for ``average_by``, gold ``None`` removed."""
    if list(corr1.gold_scores) != list(corr2.gold_scores):
        raise ValueError("Gold scores for correlations don't match")
    gold = reshape(corr1.gold_scores, corr1.num_sys, average_by)
    s1 = reshape(corr1.metric_scores, corr1.num_sys, average_by)
    s2 = reshape(corr2.metric_scores, corr2.num_sys, average_by)
    # One None mask and one boolean selection, row-major: the order of MTME's loop over rows.
    okay = ~none_mask(gold)
    counts = okay.sum(axis=1)
    lens = [int(c) for c in counts if c]
    return (
        lens,
        np.asarray(gold[okay].tolist()),
        np.asarray(s1[okay].tolist()),
        np.asarray(s2[okay].tolist()),
    )


def zscore(a: Any) -> np.ndarray:
    """``scipy.stats.zscore`` (population standard deviation)."""
    v = np.asarray(a, dtype=np.float64)
    mean = np.mean(v)
    dev = v - mean
    std = np.mean(dev * dev) ** 0.5
    with np.errstate(invalid="ignore", divide="ignore"):
        z: np.ndarray = np.asarray(dev / std)
    if std <= abs(np.finfo(np.float64).eps * mean):
        z[:] = np.nan
    return z


def _python_corr(
    corr_fcn: Callable[..., Any], args: dict[str, Any], replace: bool
) -> Callable[..., float]:
    """MTME's per-draw correlation for a function the core does not know."""

    def corr(
        gold: Any, mscores: np.ndarray, bounds: list[tuple[int, int]], num_sys: int, average_by: str
    ) -> float:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if _corrfns.is_ties_opt(corr_fcn):
                from parbleu.flavors.mtme._kendall import KendallWithTiesOpt

                return float(
                    KendallWithTiesOpt(
                        gold, mscores, num_sys=num_sys, average_by=average_by, **args
                    )[0]
                )
            vals = []
            for b, e in bounds:
                val = corr_fcn(gold[b:e], mscores[b:e], **args)[0]
                if _corrfns.is_pearson(corr_fcn) or _corrfns.is_spearman(corr_fcn):
                    g, m = np.asarray(gold[b:e]), mscores[b:e]
                    if np.all(g == g[0]) or np.all(m == m[0]):
                        val = np.nan
                vals.append(val)
            arr = np.nan_to_num(vals) if replace else np.asarray(vals)[~np.isnan(vals)]
            return float(np.average(arr)) if len(arr) else 0.0

    return corr


def PermutationSigDiff(
    corr1: Any,
    corr2: Any,
    corr_fcn: Callable[..., Any],
    average_by: str = "none",
    k: int = 1000,
    params: PermutationSigDiffParams = _DEFAULT,
    replace_nans_with_zeros: bool = False,
    **corr_fcn_args: Any,
) -> tuple[float, float, int, list[tuple[float, float]]]:
    """Test whether metric 2 correlates with the gold scores better than metric 1 (PERM-BOTH).

    Parameters
    ----------
    corr1, corr2 : Correlation
        The two metrics' scores, with the same gold scores.
    corr_fcn : callable
        Correlation function (scipy's, ``KendallVariants``, ``KendallWithTiesOpt`` or any).
    average_by : str
        ``'none'``, ``'sys'`` or ``'item'``.
    k : int
        Number of draws.
    params : PermutationSigDiffParams
        Early stopping.
    replace_nans_with_zeros : bool
        Average NaN correlations as 0.
    **corr_fcn_args
        Extra arguments of ``corr_fcn``.

    Returns
    -------
    tuple
        p-value, delta = corr(metric2) - corr(metric1), draws done, ``[(c2, c1), ...]``.
    """
    lens, gold, m1, m2 = _ReshapeAndFilter(corr1, corr2, average_by)
    spec = _corrfns.spec_of(corr_fcn, corr_fcn_args)
    ties = _corrfns.is_ties_opt(corr_fcn)
    if spec is not None and replace_nans_with_zeros and spec.kind != "ties_opt":
        spec = None  # NaN as 0 is only in the Python path
    keep_idx = None
    if ties:
        # MTME z-scores the unfiltered vectors here and draws one mask entry per position.
        full = len(corr1.gold_scores)
        idx = reshape(np.arange(full), corr1.num_sys, average_by)
        g_rows = reshape(corr1.gold_scores, corr1.num_sys, average_by)
        okay = ~none_mask(np.asarray(g_rows))
        keep_idx = idx[okay]
        z1_full, z2_full = zscore(corr1.metric_scores), zscore(corr2.metric_scores)
        lens = [int(c) for c in okay.sum(axis=1) if c]
        gold_f = to_floats(np.asarray(corr1.gold_scores, dtype=object)[keep_idx], "gold scores")
        z1, z2 = z1_full[keep_idx], z2_full[keep_idx]
        n_mask = full
    else:
        z1, z2 = zscore(m1), zscore(m2)
        gold_f = to_floats(gold, "gold scores")
        n_mask = len(z1)
    mode, seed, workers = random_mode()
    if spec is None:
        return _python_perm(
            corr1,
            corr2,
            corr_fcn,
            average_by,
            k,
            params,
            replace_nans_with_zeros,
            corr_fcn_args,
            lens,
            gold,
            z1,
            z2,
        )
    z1, z2 = np.ascontiguousarray(z1), np.ascontiguousarray(z2)
    args = (spec.kind, spec.variant, spec.epsilon, spec.clip)
    delta = _core.meta_perm_value(*args, gold_f, z2, lens) - _core.meta_perm_value(
        *args, gold_f, z1, lens
    )
    corrs: list[tuple[float, float]] = []
    count = 0
    i = 0
    done = 0
    while done < k:
        # Chunks end at block boundaries, where MTME checks for an early stop.
        todo = min(_CHUNK, k - done, params.block_size - done % params.block_size)
        masks = None
        if mode == "numpy":
            w = np.random.binomial(1, 0.5, (todo, n_mask)).astype(np.uint8)
            if keep_idx is not None:
                w = w[:, keep_idx]
            masks = np.ascontiguousarray(w)
        raw = _core.meta_perm_draws(*args, gold_f, z1, z2, lens, masks, seed, done, todo, workers)
        pairs = floats_of(raw).reshape(-1, 2)
        stop = False
        for c2, c1 in pairs:
            i = done + 1
            done = i
            corrs.append((float(c2), float(c1)))
            if c2 - c1 >= delta:
                count += 1
            if i % params.block_size == 0:
                pval = count / i
                if pval < params.early_min or pval > params.early_max:
                    stop = True
                    break
        if stop:
            break
    i = max(i, 1)
    return count / i, float(delta), i, corrs


def _python_perm(
    corr1: Any,
    corr2: Any,
    corr_fcn: Callable[..., Any],
    average_by: str,
    k: int,
    params: PermutationSigDiffParams,
    replace: bool,
    args: dict[str, Any],
    lens: list[int],
    gold: Any,
    z1: np.ndarray,
    z2: np.ndarray,
) -> tuple[float, float, int, list[tuple[float, float]]]:
    """MTME's loop, for correlation functions the core does not know (numpy draws)."""
    corr = _python_corr(corr_fcn, args, replace)
    if _corrfns.is_ties_opt(corr_fcn):
        gold = corr1.gold_scores
        z1, z2 = zscore(corr1.metric_scores), zscore(corr2.metric_scores)
    starts = np.r_[0, np.cumsum(lens)].astype(int)
    bounds = list(zip(starts[:-1].tolist(), starts[1:].tolist()))
    ns = corr1.num_sys
    delta = corr(gold, z2, bounds, ns, average_by) - corr(gold, z1, bounds, ns, average_by)
    corrs: list[tuple[float, float]] = []
    i, count = 1, 0
    for i in range(1, k + 1):
        w1 = np.random.binomial(1, 0.5, len(z1))
        w2 = 1 - w1
        a, b = w1 * z1 + w2 * z2, w2 * z1 + w1 * z2
        c1, c2 = corr(gold, a, bounds, ns, average_by), corr(gold, b, bounds, ns, average_by)
        corrs.append((c2, c1))
        if c2 - c1 >= delta:
            count += 1
        if i % params.block_size == 0:
            pval = count / i
            if pval < params.early_min or pval > params.early_max:
                break
    return count / i, delta, i, corrs


def PairwisePermutationSigDiff(
    corr1: Any,
    corr2: Any,
    variant: str = "acc23",
    average_by: str = "none",
    k: int = 1000,
    params: PermutationSigDiffParams = _DEFAULT,
    epsilon1: Any = None,
    epsilon2: Any = None,
    sample_rate: float = 1.0,
    replace_nans_with_zeros: bool = False,
) -> tuple[float, float, int, list[tuple[float, float]]]:
    """Permutation test that swaps pairwise comparisons (not scores) between two metrics.

    Returns
    -------
    tuple
        p-value, delta, draws done, ``[(c2, c1), ...]`` (numpy's global generator).
    """
    from parbleu.flavors.mtme._kendall import (
        KendallPreproc,
        KendallVariants,
        KendallWithTiesOpt,
        PairwiseDiffs,
    )

    if variant == "c":
        raise ValueError("tau-c not supported by PairwisePermutationSigDiff.")
    if epsilon1 is None:
        _, epsilon1, _ = KendallWithTiesOpt(
            corr1.gold_scores, corr1.metric_scores, variant, corr1.num_sys, average_by, sample_rate
        )
    if epsilon2 is None:
        _, epsilon2, _ = KendallWithTiesOpt(
            corr2.gold_scores, corr2.metric_scores, variant, corr2.num_sys, average_by, sample_rate
        )
    if epsilon1 < 0 or epsilon2 < 0:
        raise ValueError("Epsilon must be non-negative.")
    lens, gold, s1, s2 = _ReshapeAndFilter(corr1, corr2, average_by)
    starts = np.r_[0, np.cumsum(lens)].astype(int)
    bounds = list(zip(starts[:-1].tolist(), starts[1:].tolist()))
    pg = [KendallPreproc(gold[b:e].astype(float)) for b, e in bounds]
    p1 = [PairwiseDiffs(s1[b:e], epsilon1) for b, e in bounds]
    p2 = [PairwiseDiffs(s2[b:e], epsilon2) for b, e in bounds]

    def corr(pre: list[Any]) -> float:
        vals = [KendallVariants(None, None, variant, g, 0, m)[0] for g, m in zip(pg, pre)]
        arr = np.nan_to_num(vals) if replace_nans_with_zeros else np.asarray(vals)[~np.isnan(vals)]
        return float(np.average(arr)) if len(arr) else 0.0

    # Combined differences carry no vector: KendallVariants counts them from the matrices.
    for p in p1 + p2:
        p.x = None
    corrs: list[tuple[float, float]] = []
    delta = corr(p2) - corr(p1)
    i, count = 1, 0
    for i in range(1, k + 1):
        h1, h2 = [], []
        for n, a, b in zip(lens, p1, p2):
            w1 = np.triu(np.random.binomial(1, 0.5, (n, n)))
            w1 = w1 + w1.T
            w2 = 1 - w1
            h1.append(a.Combine(b, w1, w2))
            h2.append(b.Combine(a, w1, w2))
        c1, c2 = corr(h1), corr(h2)
        corrs.append((c2, c1))
        if c2 - c1 >= delta:
            count += 1
            # MTME checks for an early stop only after a large delta (kept as it is).
            if i % params.block_size == 0:
                pval = count / i
                if pval < params.early_min or pval > params.early_max:
                    break
    return count / i, delta, i, corrs


del math
