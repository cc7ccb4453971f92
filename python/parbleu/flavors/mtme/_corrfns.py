"""Which correlation function a ``corr_fcn`` is, and scipy-compatible stand-ins.

MTME passes scipy's functions (``scipy.stats.pearsonr`` ...) or its own (``KendallVariants``,
``KendallWithTiesOpt``); each known one maps to a core correlation ``(kind, variant, epsilon,
clip)``. Any other function is called from Python, as MTME does.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

import numpy as np

from parbleu import _core
from parbleu.flavors.mtme import _special
from parbleu.flavors.mtme._data import floats_of, to_floats


class Spec(NamedTuple):
    """A core correlation: kind, variant, epsilon, scipy clipping."""

    kind: str
    variant: str
    epsilon: float
    clip: bool


def _name(fn: Any) -> tuple[str, str]:
    return getattr(fn, "__name__", ""), getattr(fn, "__module__", "") or ""


def _is(fn: Any, name: str, modules: tuple[str, ...]) -> bool:
    n, m = _name(fn)
    return n == name and m.startswith(modules)


_OURS = ("parbleu.flavors.mtme",)
_SCIPY = ("scipy.stats", *_OURS)
_MTME = ("mt_metrics_eval", *_OURS)


def is_pearson(fn: Any) -> bool:
    """``scipy.stats.pearsonr`` or this module's :func:`pearsonr`."""
    return _is(fn, "pearsonr", _SCIPY)


def is_spearman(fn: Any) -> bool:
    """``scipy.stats.spearmanr`` or :func:`spearmanr`."""
    return _is(fn, "spearmanr", _SCIPY)


def is_kendall_variants(fn: Any) -> bool:
    """MTME's ``KendallVariants`` (or ours)."""
    return _is(fn, "KendallVariants", _MTME)


def is_ties_opt(fn: Any) -> bool:
    """MTME's ``KendallWithTiesOpt`` (or ours)."""
    return _is(fn, "KendallWithTiesOpt", _MTME)


def is_pce(fn: Any) -> bool:
    """MTME's ``PairwiseConfidenceError`` (or ours)."""
    return _is(fn, "PairwiseConfidenceError", _MTME)


def spec_of(fn: Callable[..., Any], args: dict[str, Any]) -> Spec | None:
    """Return the core correlation for ``fn(**args)``, or ``None`` to call ``fn`` in Python.

    Parameters
    ----------
    fn : callable
        The correlation function.
    args : dict
        Its extra keyword arguments.

    Returns
    -------
    Spec or None
        The core's description of it.
    """
    keys = set(args)
    if is_pearson(fn) and keys <= {"pdp"}:
        return Spec("pearson", "b", 0.0, False)
    if is_spearman(fn) and not keys:
        return Spec("spearman", "b", 0.0, False)
    if _is(fn, "kendalltau", _SCIPY) and keys <= {"variant"}:
        return Spec("kendall", str(args.get("variant", "b")), 0.0, True)
    if is_kendall_variants(fn) and keys <= {"variant", "epsilon"}:
        eps = float(args.get("epsilon", 0.0))
        variant = str(args.get("variant", "b"))
        if eps < 0 or (eps > 0 and variant == "c"):
            return None  # the Python call raises MTME's error
        return Spec("kendall", variant, eps, False)
    if is_ties_opt(fn) and keys <= {"variant", "sample_rate"}:
        if float(args.get("sample_rate", 0.1)) != 1.0:
            return None  # pair sampling draws from np.random on every call
        return Spec("ties_opt", str(args.get("variant", "acc23")), 0.0, False)
    return None


def group_values(spec: Spec, gold: np.ndarray, metric: np.ndarray, lens: list[int]) -> np.ndarray:
    """One correlation per group, from the core."""
    raw = _core.meta_group_values(
        spec.kind, spec.variant, spec.epsilon, spec.clip, gold, metric, lens
    )
    return floats_of(raw)


def _counts(v: np.ndarray) -> list[int]:
    return [int(c) for c in np.unique(v, return_counts=True)[1]]


def pvalues(
    spec: Spec, gold: np.ndarray, metric: np.ndarray, lens: list[int], values: np.ndarray
) -> list[float]:
    """Scipy's p-value of each group's correlation (0 for MTME's Kendall variants)."""
    out: list[float] = []
    start = 0
    stats: np.ndarray | None = None
    if spec.kind == "kendall" and spec.clip:
        stats = np.frombuffer(
            _core.meta_kendall_stats(gold, metric, lens, 0.0), dtype="<i8"
        ).reshape(-1, 5)
    for k, (n, r) in enumerate(zip(lens, values)):
        g, m = gold[start : start + n], metric[start : start + n]
        start += n
        r = float(r)
        if spec.kind == "pearson":
            out.append(_special.pearson_pvalue(r, n))
        elif spec.kind == "spearman":
            out.append(_special.spearman_pvalue(r, n))
        elif stats is not None:
            st = tuple(int(v) for v in stats[k])
            out.append(_special.kendall_pvalue(r, n, st, _counts(m), _counts(g)))  # type: ignore[arg-type]
        else:
            out.append(0.0)
    return out


def pearsonr(x: Any, y: Any) -> tuple[float, float]:
    """Pearson's r and its two-sided p-value, as ``scipy.stats.pearsonr`` (a tuple).

    Parameters
    ----------
    x, y : array_like
        Parallel vectors of at least two numbers.

    Returns
    -------
    tuple of float
        Statistic and p-value.
    """
    return _single(Spec("pearson", "b", 0.0, False), x, y)


def spearmanr(x: Any, y: Any) -> tuple[float, float]:
    """Spearman's rho and its p-value, as ``scipy.stats.spearmanr`` (a tuple)."""
    return _single(Spec("spearman", "b", 0.0, False), x, y)


def kendalltau(x: Any, y: Any, variant: str = "b") -> tuple[float, float]:
    """Kendall's tau-b or tau-c and its p-value, as ``scipy.stats.kendalltau`` (a tuple)."""
    return _single(Spec("kendall", variant, 0.0, True), x, y)


def _single(spec: Spec, x: Any, y: Any) -> tuple[float, float]:
    gx, my = to_floats(x, "x"), to_floats(y, "y")
    if spec.kind in ("pearson", "spearman") and (
        len(gx) < 2 or np.all(gx == gx[0]) or np.all(my == my[0])
    ):
        return (float("nan"), float("nan"))
    vals = group_values(spec, gx, my, [len(gx)])
    return (float(vals[0]), pvalues(spec, gx, my, [len(gx)], vals)[0])
