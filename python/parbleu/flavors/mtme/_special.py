"""The p-values scipy attaches to correlations, without scipy (Pearson's: scipy's when installed).

Regularized incomplete beta by Lentz's continued fraction; Student's t and Pearson's beta
null distribution from it; Kendall's exact null distribution by its counting recursion.
"""

from __future__ import annotations

import math
from typing import Any

_TINY = 1e-300


def _beta_cf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        for num in (
            m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + num / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < 1e-16:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b).

    Parameters
    ----------
    a, b : float
        Positive shape parameters.
    x : float
        Point in [0, 1].

    Returns
    -------
    float
        I_x(a, b).
    """
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_cf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_cf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """Survival function of Student's t with ``df`` degrees of freedom."""
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t > 0 else 1.0 - tail


def pearson_pvalue(r: float, n: int) -> float:
    """Two-sided p-value of Pearson's r over n pairs (scipy's beta null distribution).

    With scipy installed (MTME needs it, so its users have it), scipy's own incomplete beta
    in ``pearsonr``'s form gives its bits; the continued fraction here agrees with it to
    about 1e-15 but not always to the last bit (MTME's ``stats_test`` compares with ``==``).
    """
    if math.isnan(r):
        return math.nan
    if n == 2:
        return 1.0
    ab = n / 2.0 - 1.0
    special = _scipy_special()
    if special is not None:
        # scipy.stats.pearsonr: 2 * beta(ab, ab, loc=-1, scale=2).sf(|r|).
        return float(2.0 * special.betaincc(ab, ab, (abs(r) - -1.0) / 2.0))
    return min(1.0, 2.0 * betainc(ab, ab, (1.0 - abs(r)) / 2.0))


def _scipy_special() -> Any:
    """``scipy.special`` if scipy (1.11 or later: ``betaincc``) is installed, else ``None``."""
    import importlib

    try:
        special = importlib.import_module("scipy.special")
    except ImportError:
        return None
    return special if hasattr(special, "betaincc") else None


def spearman_pvalue(rho: float, n: int) -> float:
    """Two-sided p-value of Spearman's rho (scipy's t approximation)."""
    if math.isnan(rho):
        return math.nan
    df = n - 2
    if df <= 0:
        return math.nan
    with_ties = (rho + 1.0) * (1.0 - rho)
    if with_ties <= 0.0:
        return 0.0
    t = rho * math.sqrt(df / with_ties)
    return 2.0 * t_sf(abs(t), df)


def _kendall_exact(n: int, c: int) -> float:
    """Scipy's exact two-sided p-value: ``c`` = min(discordant, concordant) pairs."""
    if n <= 2:
        return 1.0
    if c == 0:
        return 2.0 / math.factorial(n)
    if c == 1:
        return 2.0 / math.factorial(n - 1)
    if 2 * c == n * (n - 1) // 2:
        return 1.0
    new = [0] * (c + 1)
    new[0] = 1
    new[1] = 1
    for j in range(3, n + 1):
        acc = 0
        cum = []
        for v in new:
            acc += v
            cum.append(acc)
        if j <= c:
            cum = cum[:j] + [cum[i] - cum[i - j] for i in range(j, c + 1)]
        new = cum
    return min(1.0, 2.0 * sum(new) / math.factorial(n))


def kendall_pvalue(
    tau: float,
    n: int,
    stats: tuple[int, int, int, int, int],
    x_counts: list[int],
    y_counts: list[int],
) -> float:
    """Scipy ``kendalltau``'s two-sided p-value (method 'auto').

    Parameters
    ----------
    tau : float
        The statistic (NaN gives NaN).
    n : int
        Number of pairs of values.
    stats : tuple of int
        ``(con, dis, ties_human, ties_metric, ties_both)``.
    x_counts, y_counts : list of int
        Sizes of the groups of equal values on each side.

    Returns
    -------
    float
        The p-value.
    """
    if math.isnan(tau):
        return math.nan
    con, dis, th, tm, tb = stats
    tot = n * (n - 1) // 2
    xtie, ytie = tm + tb, th + tb
    if xtie == 0 and ytie == 0 and (n <= 33 or min(dis, tot - dis) <= 1):
        return _kendall_exact(n, min(dis, tot - dis))
    x0 = sum(c * (c - 1) * (c - 2) for c in x_counts)
    y0 = sum(c * (c - 1) * (c - 2) for c in y_counts)
    x1 = sum(c * (c - 1) * (2 * c + 5) for c in x_counts)
    y1 = sum(c * (c - 1) * (2 * c + 5) for c in y_counts)
    m = n * (n - 1.0)
    var = (m * (2 * n + 5) - x1 - y1) / 18.0 + (2.0 * xtie * ytie) / m
    if n > 2:
        var += x0 * y0 / (9.0 * m * (n - 2))
    z = (con - dis) / math.sqrt(var)
    return math.erfc(abs(z) / math.sqrt(2.0))
