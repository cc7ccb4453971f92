"""MTME's ``stats`` module (correlations and their significance), on parbleu's core.

Same public names, arguments and return values as ``mt_metrics_eval.stats`` at commit 68a481a:
replace ``from mt_metrics_eval import stats`` by ``from parbleu.flavors.mtme import stats``.
Correlation functions MTME takes from scipy (``scipy.stats.pearsonr``, ``spearmanr``,
``kendalltau``) may be scipy's own or this module's stand-ins (:func:`pearsonr` ...); either
runs in the core. Random draws: see :func:`set_random`.
"""

from __future__ import annotations

import itertools
import math
import warnings
from typing import Any, Callable

import numpy as np

from parbleu import _core
from parbleu.flavors._common import flavor_error
from parbleu.flavors.mtme import _corrfns, pce
from parbleu.flavors.mtme._corrfns import kendalltau, pearsonr, spearmanr
from parbleu.flavors.mtme._data import filter_rows, to_floats
from parbleu.flavors.mtme._data import reshape as _Reshape
from parbleu.flavors.mtme._kendall import (
    KendallPreproc,
    KendallVariants,
    KendallWithTiesOpt,
    PairwiseDiffs,
)
from parbleu.flavors.mtme._perm import (
    PairwisePermutationSigDiff,
    PermutationSigDiff,
    PermutationSigDiffParams,
    _ReshapeAndFilter,
    random_mode,
    set_random,
)
from parbleu.flavors.mtme._sample import Sample, WilliamsSigDiff, WilliamsTest

__all__ = [
    "Agreement",
    "AverageCorrelation",
    "Correlation",
    "KendallLike",
    "KendallPreproc",
    "KendallVariants",
    "KendallWithTiesOpt",
    "PairwiseConfidenceError",
    "PairwiseDiffs",
    "PairwisePermutationSigDiff",
    "PermutationSigDiff",
    "PermutationSigDiffParams",
    "Sample",
    "WilliamsSigDiff",
    "WilliamsTest",
    "_Reshape",
    "_ReshapeAndFilter",
    "filter_gold_nones",
    "is_constant_array",
    "kendalltau",
    "pearsonr",
    "random_mode",
    "set_random",
    "spearmanr",
]


class Correlation:
    """Gold and metric scores (grouped by system) and the correlations between them.

    Parameters
    ----------
    num_sys : int
        Number of systems: the vectors hold ``num_sys`` consecutive blocks of items.
    gold_scores : list
        Human scores; ``None`` where missing.
    metric_scores : list
        Metric scores, parallel.
    """

    def __init__(self, num_sys: int, gold_scores: Any, metric_scores: Any) -> None:
        # MTME's own checks are `//` and a bare `assert`: the same exception types here (a
        # FlavorError that is also one), with a message naming the argument.
        if isinstance(num_sys, bool) or not isinstance(num_sys, (int, np.integer)):
            raise flavor_error(
                "mtme", f"Correlation: num_sys={num_sys!r}: expected an integer >= 1", TypeError
            )
        if num_sys < 1:
            raise flavor_error(
                "mtme", f"Correlation: num_sys={num_sys}: expected >= 1", ZeroDivisionError
            )
        self.num_sys = num_sys
        self.num_items = len(gold_scores) // num_sys
        if num_sys * self.num_items != len(gold_scores) or len(metric_scores) != len(gold_scores):
            raise flavor_error(
                "mtme",
                f"Correlation: {len(gold_scores)} gold and {len(metric_scores)} metric scores; "
                f"expected the same number, a multiple of num_sys={num_sys}",
                AssertionError,
            )
        self.gold_scores = gold_scores
        self.metric_scores = metric_scores
        self.none_count = list(gold_scores).count(None)

    def AverageCorrelation(
        self,
        corr_fcn: Callable[..., Any],
        average_by: str,
        replace_nans_with_zeros: bool = False,
        macro: bool = True,
        **corr_fcn_args: Any,
    ) -> AverageCorrelation:
        """Return the averaging wrapper for these vectors' shape."""
        return AverageCorrelation(
            corr_fcn,
            self.num_sys,
            average_by,
            self.none_count > 0,
            replace_nans_with_zeros,
            macro,
            **corr_fcn_args,
        )

    def _run(self, fn: Callable[..., Any], average_by: str, **kw: Any) -> tuple[Any, ...]:
        macro = kw.pop("macro", True)
        cf = self.AverageCorrelation(fn, average_by, macro=macro, **kw)
        cf._filter_nones = True  # MTME always filters here
        return cf(self.gold_scores, self.metric_scores)

    def Pearson(self, average_by: str = "none", pdp: bool = False) -> tuple[Any, ...]:
        """Pearson's r (scipy), averaged as ``average_by`` says."""
        return self._run(pearsonr, average_by, pdp=pdp)

    def Spearman(self, average_by: str = "none") -> tuple[Any, ...]:
        """Spearman's rho (scipy)."""
        return self._run(spearmanr, average_by)

    def Kendall(self, average_by: str = "none", variant: str = "b") -> tuple[Any, ...]:
        """Kendall's tau (scipy's ``kendalltau``)."""
        return self._run(kendalltau, average_by, variant=variant)

    def KendallLike(self, average_by: str = "item", thresh: float = 25) -> tuple[Any, ...]:
        """WMT20's Kendall-like tau, micro-averaged over items by default."""
        return self._run(KendallLike, average_by, macro=False, thresh=thresh)

    def KendallVariants(
        self, average_by: str = "none", variant: str = "b", epsilon: float = 0.0
    ) -> tuple[Any, ...]:
        """MTME's Kendall variants (``b``, ``c``, ``23``, ``acc23``)."""
        return self._run(KendallVariants, average_by, variant=variant, epsilon=epsilon)

    def KendallWithTiesOpt(
        self, average_by: str = "none", variant: str = "acc23", sample_rate: float = 0.1
    ) -> tuple[Any, ...]:
        """Kendall with ties and the optimised tie threshold."""
        return self._run(KendallWithTiesOpt, average_by, variant=variant, sample_rate=sample_rate)

    def PairwiseConfidenceError(self, average_by: str = "none") -> tuple[Any, ...]:
        """System-level soft pairwise accuracy (1 - PCE)."""
        return self._run(PairwiseConfidenceError, average_by)


def filter_gold_nones(gold: Any, model: Any) -> tuple[Any, Any]:
    """Drop the pairs whose gold score is ``None`` (MTME returns an iterator of two tuples)."""
    filt = [(v1, v2) for v1, v2 in zip(gold, model) if v1 is not None]
    if not filt:
        return [], []
    return zip(*filt)  # type: ignore[return-value]


def is_constant_array(arr: Any) -> bool:
    """Return True if every element equals the first."""
    return bool(np.all(np.asarray(arr) == np.asarray(arr)[0]))


class AverageCorrelation:
    """A correlation function with averaging over rows or columns and ``None`` filtering.

    Parameters
    ----------
    corr_fcn : callable
        Maps two vectors to ``(corr, pvalue, ...)``; MTME's and scipy's known functions run in
        the core.
    num_sys : int
        Rows of the packed matrix (ignored for ``'none'``).
    average_by : str
        ``'none'``, ``'sys'`` or ``'item'``.
    filter_nones : bool
        Remove entries whose gold score is ``None``.
    replace_nans_with_zeros : bool
        Average NaN correlations as 0 instead of leaving them out.
    macro : bool
        Plain average; else weighted by the third return value or the row length.
    **corr_fcn_args
        Extra arguments of ``corr_fcn``.
    """

    def __init__(
        self,
        corr_fcn: Callable[..., Any],
        num_sys: int = 0,
        average_by: str = "none",
        filter_nones: bool = True,
        replace_nans_with_zeros: bool = False,
        macro: bool = True,
        **corr_fcn_args: Any,
    ) -> None:
        self._corr_fcn = corr_fcn
        self._num_sys = num_sys
        self._average_by = average_by
        self._filter_nones = filter_nones
        self._replace_nans_with_zeros = replace_nans_with_zeros
        self._macro = macro
        self._corr_fcn_args = corr_fcn_args

    def __call__(self, gold_vect: Any, metric_vect: Any) -> tuple[Any, ...]:
        """Correlation, p-value and the denominator of the average."""
        return self.Corr(gold_vect, metric_vect)

    def Corr(self, gold_vect: Any, metric_vect: Any) -> tuple[Any, ...]:
        """Correlation, p-value and the denominator of the average."""
        mat1 = _Reshape(gold_vect, self._num_sys, self._average_by)
        mat2 = _Reshape(metric_vect, self._num_sys, self._average_by)
        fn, args = self._corr_fcn, dict(self._corr_fcn_args)
        if _corrfns.is_ties_opt(fn):
            corr, _, _ = KendallWithTiesOpt(
                gold_vect, metric_vect, num_sys=self._num_sys, average_by=self._average_by, **args
            )
            return corr, 0, mat1.shape[0]
        if _corrfns.is_pce(fn):
            res = PairwiseConfidenceError(
                gold_vect,
                metric_vect,
                num_sys=self._num_sys,
                filter_nones=self._filter_nones,
                **args,
            )
            return res[0], 0, mat1.shape[0]
        if args.get("pdp"):
            if not _corrfns.is_pearson(fn):
                raise ValueError(
                    "pdp is not supported for correlations other than Pearson. The"
                    "acronym stands for Pairwise Difference Pearson."
                )
            d1, d2 = self._enumerate_pairwise_diffs(mat1, mat2)
            mat1, mat2 = _Reshape(d1, -1, "none"), _Reshape(d2, -1, "none")
        args.pop("pdp", None)
        spec = _corrfns.spec_of(fn, args)
        if spec is None:
            rets = self._python_rows(mat1, mat2, fn, args)
        else:
            rets = self._core_rows(mat1, mat2, spec)
        tot_corr: Any = 0
        tot_pval: Any = 0
        n: Any = 0
        k: Any = 1
        for ret, length in rets:
            if not self._macro:
                k = ret[2] if len(ret) > 2 else length
            if not math.isnan(ret[0]):
                tot_corr += k * ret[0]
                tot_pval += k * ret[1]
                n += k
            elif self._replace_nans_with_zeros:
                n += k
        return (tot_corr / n, tot_pval / n, n) if n else (0, 0, 0)

    def _core_rows(
        self, mat1: np.ndarray, mat2: np.ndarray, spec: _corrfns.Spec
    ) -> list[tuple[Any, int]]:
        if self._filter_nones:
            gold, metric, lens = filter_rows(mat1, mat2, min_len=2)
        else:
            gold = to_floats(mat1.reshape(-1), "gold scores")
            metric = to_floats(mat2.reshape(-1), "metric scores")
            lens = [mat1.shape[1]] * mat1.shape[0]
        vals = _corrfns.group_values(spec, gold, metric, lens)
        pvals = _corrfns.pvalues(spec, gold, metric, lens, vals)
        return [((float(v), p), n) for v, p, n in zip(vals, pvals, lens)]

    def _python_rows(
        self, mat1: np.ndarray, mat2: np.ndarray, fn: Callable[..., Any], args: dict[str, Any]
    ) -> list[tuple[Any, int]]:
        out = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for r1, r2 in zip(mat1, mat2):
                if self._filter_nones:
                    r1, r2 = filter_gold_nones(r1, r2)
                    r1, r2 = list(r1), list(r2)
                    if not r1 or len(r1) == 1:
                        continue
                ret = fn(r1, r2, **args)
                pearson_like = _corrfns.is_pearson(fn) or _corrfns.is_spearman(fn)
                if pearson_like and (is_constant_array(r1) or is_constant_array(r2)):
                    ret = (np.nan, np.nan)
                out.append((ret, len(r1)))
        return out

    def _enumerate_pairwise_diffs(self, human_scores: Any, metric_scores: Any) -> tuple[Any, Any]:
        """Within-row pairwise differences of two score matrices (MTME's PDP)."""
        h = np.array(human_scores, dtype=float)
        m = np.array(metric_scores, dtype=float)
        assert h.shape == m.shape, (
            f"Transposed input arrays must have the same shape. human_scores shape: {h.shape}"
            f" metric_scores shape: {m.shape}"
        )
        if h.shape[1] < 2:
            raise ValueError("Pairwise diffs cannot be calculated for less than 2 systems.")
        hd = (h[:, np.newaxis, :] - h[:, :, np.newaxis]).reshape(h.shape[0], -1)
        md = (m[:, np.newaxis, :] - m[:, :, np.newaxis]).reshape(m.shape[0], -1)
        nan = np.isnan(hd)
        hd_obj = hd.astype(object)
        hd_obj[nan] = None
        return hd_obj.tolist(), md.tolist()


def _pairs(gold: Any, metric: Any) -> tuple[np.ndarray, np.ndarray]:
    """Gold and metric differences ``a - b`` over pairs a before b, gold ``None`` left out."""
    g = list(gold)
    keep = [i for i, v in enumerate(g) if v is not None]
    gv = np.array([g[i] for i in keep], dtype=float)
    mv = np.array([list(metric)[i] for i in keep], dtype=float)
    i, j = np.triu_indices(len(keep), 1)
    return gv[i] - gv[j], mv[i] - mv[j]


def KendallLike(
    gold_scores: Any, metric_scores: Any, thresh: float = 25.0
) -> tuple[float, int, int, int, int]:
    """WMT20's Kendall-like tau: pairs whose gold scores differ by at least ``thresh``.

    Returns
    -------
    tuple
        ``(corr, 0, num_pairs, concordant, discordant)``.
    """
    dg, dm = _pairs(gold_scores, metric_scores)
    big = np.abs(dg) >= thresh
    # WMT's deliberate asymmetry: |diff| >= thresh selects, diff > 0 / < 0 orders.
    con_mask = big & (((dg > 0) & (dm > 0)) | ((dg < 0) & (dm < 0)))
    concordant = int(con_mask.sum())
    discordant = int(big.sum()) - concordant
    num_pairs = concordant + discordant
    corr = (concordant - discordant) / num_pairs if num_pairs else 0
    return corr, 0, num_pairs, concordant, discordant


def Agreement(gold_vect: Any, metric_vect: Any) -> tuple[int, int]:
    """Pairwise agreement: pairs whose gold and metric differences have the same sign.

    Returns
    -------
    tuple of int
        ``(agree, num_pairs)``.
    """
    dg, dm = _pairs(gold_vect, metric_vect)
    return int((np.sign(dg) == np.sign(dm)).sum()), len(dg)


def PairwiseConfidenceError(
    gold_scores: Any,
    metric_scores: Any,
    num_sys: int,
    num_permutations: int = 1000,
    filter_nones: bool = False,
) -> tuple[float]:
    """Pairwise confidence error: 1 - mean |p_gold - p_metric| over system pairs."""
    if filter_nones:
        gold_scores, metric_scores = filter_gold_nones(gold_scores, metric_scores)
        gold_scores, metric_scores = list(gold_scores), list(metric_scores)
    gold = _Reshape(gold_scores, num_sys, "sys").astype(float)
    metric = _Reshape(metric_scores, num_sys, "sys").astype(float)
    gp = pce.compute_pairwise_p_values(gold, num_permutations=num_permutations)
    mp = pce.compute_pairwise_p_values(metric, num_permutations=num_permutations)
    return (pce.compute_one_minus_pce(gp, mp),)


# MTME computes these statistics pair by pair in Python; nothing else here uses itertools.
del itertools, _core
