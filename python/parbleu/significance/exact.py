"""The exact path: integer statistics, splitmix64 seeds, valid two-sided p-values.

:func:`confidence_interval`, :func:`paired_bootstrap`, :func:`paired_ar` (each with a
``compat=True`` switch to the SacreBLEU-compatible path) and :func:`compare_all`.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .. import _core
from .._options import MAX_RESAMPLES, check_count, check_probability
from .._resampling import DEFAULT_SEED
from .._workers import resolve_workers
from ..errors import InvalidOptionError
from ..score import Score
from ._count import default_resamples
from ._systems import References, Systems, Test, _system_rows, other_systems
from .compatible import _compat_interval, _compat_seed, compat_paired
from .results import Comparison, ConfidenceInterval, MetricComparison, PairedResult, PairwiseResult

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..metrics.base import Metric


def check_seed(seed: int | None) -> int:
    """Return the exact path's seed: ``seed`` checked, or a random one for ``None``."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise InvalidOptionError(f"seed={seed!r}: expected an integer in [0, 2**64) or None")
    return seed


def check_n(n: Any, name: str = "n") -> int:
    """Return a resample count checked to be from 1 to ``MAX_RESAMPLES``."""
    return check_count(name, n, 1, MAX_RESAMPLES)


def check_confidence(confidence: float) -> Fraction:
    """Return an interval's coverage in (0, 1), as an exact fraction."""
    if not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise InvalidOptionError(f"confidence={confidence!r}: expected a number in (0, 1)")
    return Fraction(str(confidence))


def _exact_bootstrap(
    metric: Metric[Any], rows: list[npt.NDArray[Any]], n: int, seed: int, workers: int | None
) -> npt.NDArray[Any]:
    """Return resampled scores, ``(n, len(rows))``, every system on the same segments."""
    import numpy as np

    scorer = metric.core_scorer()
    n_seg = len(rows[0])
    w = resolve_workers(workers, n * n_seg * len(rows))
    data = _core.sig_bootstrap(scorer, rows, n_seg, n, seed, w)
    return np.frombuffer(data, dtype="<f8").reshape(n, len(rows)).copy()


def _exact_ar(
    metric: Metric[Any],
    a: npt.NDArray[Any],
    b: npt.NDArray[Any],
    n: int,
    seed: int,
    workers: int | None,
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    import numpy as np

    scorer = metric.core_scorer()
    w = resolve_workers(workers, n * len(a))
    sa, sb = _core.sig_ar(scorer, a, b, len(a), n, seed, w)
    return np.frombuffer(sa, dtype="<f8").copy(), np.frombuffer(sb, dtype="<f8").copy()


def _interval(
    name: str,
    system: str | None,
    score: float,
    samples: npt.NDArray[Any],
    confidence: Fraction,
    seed: int | None,
) -> ConfidenceInterval:
    import numpy as np

    s = np.sort(samples)
    n = len(s)
    k = math.floor(n * (1 - confidence) / 2)
    low, high = float(s[k]), float(s[n - 1 - k])
    return ConfidenceInterval(
        metric=name,
        system=system,
        score=float(score),
        mean=math.fsum(s.tolist()) / n,
        low=low,
        high=high,
        half_width=0.5 * (high - low),
        confidence=float(confidence),
        n=n,
        seed=seed,
    )


def _bootstrap_p(deltas: npt.NDArray[Any], delta: float) -> float:
    """Return the two-sided p-value of the bootstrap shift test.

    The share of resamples whose difference is at least as far from the observed one as the
    observed one is from zero, plus one over ``n + 1``.
    """
    import numpy as np

    c = int(np.sum(np.abs(deltas - delta) >= abs(delta)))
    return (c + 1) / (len(deltas) + 1)


def _ar_p(scores_a: npt.NDArray[Any], scores_b: npt.NDArray[Any], delta: float) -> float:
    """Two-sided AR p-value: trials with an absolute difference at least the observed one."""
    import numpy as np

    c = int(np.sum(np.abs(scores_a - scores_b) >= abs(delta)))
    return (c + 1) / (len(scores_a) + 1)


def _corpus_scores(metric: Metric[Any], rows: list[npt.NDArray[Any]]) -> list[Score]:
    return [metric.score_from_stats(r) for r in rows]


def _baseline_index(names: list[str], baseline: str | None) -> int:
    if baseline is None:
        return 0
    if baseline not in names:
        raise InvalidOptionError(
            f"baseline={baseline!r}: not a system name; expected one of {names!r}"
        )
    return names.index(baseline)


def _paired_systems(
    metric: Metric[Any],
    systems: Systems,
    references: References,
    baseline: str | None,
    workers: int | None,
) -> tuple[list[str], list[npt.NDArray[Any]], int, list[Score]]:
    """Names, statistics rows, the baseline's index and corpus scores of a paired test."""
    names, rows = _system_rows(metric, systems, references, workers)
    return names, rows, _baseline_index(names, baseline), _corpus_scores(metric, rows)


def confidence_interval(
    metric: Metric[Any],
    hypotheses: Sequence[str] | npt.NDArray[Any],
    references: References = None,
    *,
    n: int = 1000,
    seed: int | None = DEFAULT_SEED,
    confidence: float = 0.95,
    compat: bool = False,
    workers: int | None = None,
) -> ConfidenceInterval:
    """Bootstrap confidence interval of a system's corpus score.

    Parameters
    ----------
    metric
        A parbleu ``BLEU``, ``CHRF`` or ``TER`` object.
    hypotheses
        One string per segment, or the system's statistics matrix (``extract_stats``).
    references
        Reference streams, or ``None`` for the metric's cached references.
    n
        Number of resamples.
    seed
        Exact path: any integer in ``[0, 2**64)`` (0 included) or ``None`` for a random seed
        (reported in the result). ``compat=True``: SacreBLEU's ``SACREBLEU_SEED`` value.
    confidence
        Coverage (exact path; SacreBLEU's is always 0.95).
    compat
        Reproduce SacreBLEU's ``corpus_score(..., n_bootstrap=n)`` bit for bit.
    workers
        Threads: 1 serial, -1 all cores, ``None`` the library default.

    Returns
    -------
    ConfidenceInterval
        The interval.
    """
    n = check_n(n)
    conf = check_confidence(confidence)
    _, rows = _system_rows(metric, {"system": hypotheses}, references, workers)
    score = metric.score_from_stats(rows[0])
    if compat:
        cseed = _compat_seed(seed)
        return _compat_interval(metric, None, score, rows[0], n, cseed, workers, corpus_style=True)
    s = check_seed(seed)
    samples = _exact_bootstrap(metric, rows, n, s, workers)[:, 0]
    return _interval(score.name, None, score.score, samples, conf, s)


def paired_bootstrap(
    metric: Metric[Any],
    systems: Systems,
    references: References = None,
    *,
    n: int = 1000,
    seed: int | None = DEFAULT_SEED,
    baseline: str | None = None,
    confidence: float = 0.95,
    compat: bool = False,
    workers: int | None = None,
) -> list[PairedResult]:
    """Paired bootstrap resampling test of every system against a baseline.

    Each resample draws segments with replacement and scores every system on the same
    segments. Exact path: p-value = share of resamples whose difference ``d*`` satisfies
    ``|d* - d| >= |d|`` (``d``: the observed difference), plus one, over ``n + 1``.

    Parameters
    ----------
    metric
        A parbleu ``BLEU``, ``CHRF`` or ``TER`` object.
    systems
        ``{name: hypotheses}`` (or ``{name: statistics matrix}``), in order.
    references
        Reference streams, or ``None`` for the metric's cached references.
    n
        Number of resamples.
    seed
        Exact path: any integer in ``[0, 2**64)`` or ``None`` (a random seed, reported).
        ``compat=True``: the ``SACREBLEU_SEED`` value to reproduce (``None``: unseeded; ``0``
        unseeds the comparisons, as in SacreBLEU).
    baseline
        Name of the baseline; the first system by default.
    confidence
        Coverage of the intervals (exact path).
    compat
        Reproduce SacreBLEU's ``PairedTest(test_type="bs")`` bit for bit.
    workers
        Threads: 1 serial, -1 all cores, ``None`` the library default.

    Returns
    -------
    list of PairedResult
        One per non-baseline system, in order.
    """
    n = check_n(n)
    conf = check_confidence(confidence)
    names, rows, bi, scores = _paired_systems(metric, systems, references, baseline, workers)
    if compat:
        return compat_paired("bootstrap", metric, names, rows, bi, scores, n, seed, workers)
    name = scores[0].name
    out = []
    s = check_seed(seed)
    samples = _exact_bootstrap(metric, rows, n, s, workers)
    bl_ci = _interval(name, names[bi], scores[bi].score, samples[:, bi], conf, s)
    for i, sys_name in other_systems(names, bi):
        delta = scores[i].score - scores[bi].score
        p = _bootstrap_p(samples[:, i] - samples[:, bi], delta)
        ci = _interval(name, sys_name, scores[i].score, samples[:, i], conf, s)
        out.append(
            PairedResult(
                name, "bootstrap", names[bi], sys_name, scores[bi].score, scores[i].score,
                delta, p, n, s, ci, bl_ci,
            )
        )  # fmt: skip
    return out


def paired_ar(
    metric: Metric[Any],
    systems: Systems,
    references: References = None,
    *,
    n: int = 10000,
    seed: int | None = DEFAULT_SEED,
    baseline: str | None = None,
    compat: bool = False,
    workers: int | None = None,
) -> list[PairedResult]:
    """Paired approximate randomization test of every system against a baseline.

    Each trial swaps the two systems' outputs on a random half of the segments. Exact path:
    p-value = share of trials whose absolute score difference is at least the observed one,
    plus one, over ``n + 1``.

    Parameters
    ----------
    metric, systems, references
        As in :func:`paired_bootstrap`.
    n
        Number of trials.
    seed
        As in :func:`paired_bootstrap`.
    baseline
        Name of the baseline; the first system by default.
    compat
        Reproduce SacreBLEU's ``PairedTest(test_type="ar")`` bit for bit.
    workers
        Threads, as in :func:`paired_bootstrap`.

    Returns
    -------
    list of PairedResult
        One per non-baseline system, in order (without intervals: AR draws no resamples).
    """
    n = check_n(n)
    names, rows, bi, scores = _paired_systems(metric, systems, references, baseline, workers)
    if compat:
        return compat_paired("ar", metric, names, rows, bi, scores, n, seed, workers)
    name = scores[0].name
    out = []
    s = check_seed(seed)
    for i, sys_name in other_systems(names, bi):
        a, b = _exact_ar(metric, rows[bi], rows[i], n, s, workers)
        delta = scores[i].score - scores[bi].score
        out.append(
            PairedResult(
                name, "ar", names[bi], sys_name, scores[bi].score, scores[i].score, delta,
                _ar_p(a, b, delta), n, s,
            )
        )  # fmt: skip
    return out


def holm_bonferroni(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (step-down, monotone, capped at 1).

    Rejecting the hypotheses whose adjusted p-value is at most ``alpha`` controls the
    family-wise error rate at ``alpha`` under any dependence between the tests.

    Parameters
    ----------
    p_values
        The raw p-values of the family, each in [0, 1] (else ``InvalidOptionError``).

    Returns
    -------
    list of float
        Adjusted p-values, in the input order.
    """
    p_values = [check_probability(f"p_values[{i}]", p) for i, p in enumerate(p_values)]
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def compare_all(
    metrics: Metric[Any] | Sequence[Metric[Any]],
    systems: Systems,
    references: References = None,
    *,
    test: Test = "bootstrap",
    n: int | None = None,
    seed: int | None = DEFAULT_SEED,
    alpha: float = 0.05,
    confidence: float = 0.95,
    workers: int | None = None,
) -> Comparison:
    """Compare every pair of systems, with the Holm-Bonferroni correction per metric.

    Parameters
    ----------
    metrics
        One metric or several; a metric with several reported scores (ROUGE's types) is
        compared on each (``Metric.columns()``).
    systems
        ``{name: hypotheses}`` (at least two), in order.
    references
        Reference streams, or ``None`` for each metric's cached references.
    test
        ``"bootstrap"`` (paired bootstrap resampling: one set of resamples shared by all
        systems) or ``"ar"`` (approximate randomization, one run per pair with the same
        masks).
    n
        Resamples or trials per pair. Default: 1000 for bootstrap, 10000 for AR, or, with
        more pairs than these resolve, the smallest count whose smallest reachable
        Holm-adjusted p-value (pairs / (n + 1)) is ``alpha / 5`` or below (16 systems:
        11,999; see :mod:`._count`).
    seed
        Any integer in ``[0, 2**64)``, or ``None`` for a random seed (reported).
    alpha
        Family-wise significance level of each metric's pairs.
    confidence
        Coverage of the bootstrap intervals.
    workers
        Threads: 1 serial, -1 all cores, ``None`` the library default.

    Returns
    -------
    Comparison
        Structured results; ``.table()`` renders them, ``.to_json()`` serializes them.
    """
    if test not in ("bootstrap", "ar"):
        raise InvalidOptionError(f"test={test!r}: expected 'bootstrap' or 'ar'")
    if not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise InvalidOptionError(f"alpha={alpha!r}: expected a number in (0, 1)")
    if n is None and isinstance(systems, Mapping):
        # Enough for Holm to reach alpha / 5 over all pairs (1,000 resamples made nothing
        # significant beyond 50 pairs); capped at the most that can be drawn.
        k = len(systems)
        n = min(default_resamples(test, k * (k - 1) // 2, float(alpha)), MAX_RESAMPLES)
    n = check_n(n if n is not None else (1000 if test == "bootstrap" else 10000))
    conf = check_confidence(confidence)
    s = check_seed(seed)
    given = list(metrics) if isinstance(metrics, Sequence) else [metrics]
    # One comparison per reported column: a metric with several scores (ROUGE's types)
    # is compared on each.
    metric_list = [c for m in given for c in m.columns()]
    if not metric_list:
        raise InvalidOptionError("metrics: empty; expected at least one metric")
    if not isinstance(systems, Mapping) or len(systems) < 2:
        raise InvalidOptionError("systems: expected a mapping of at least two systems")
    results = []
    names: list[str] = []
    for metric in metric_list:
        names, rows = _system_rows(metric, systems, references, workers)
        scores = _corpus_scores(metric, rows)
        name = scores[0].name
        higher = metric.higher_is_better
        by_score = {nm: sc.score for nm, sc in zip(names, scores)}
        order = sorted(range(len(names)), key=lambda i: (-by_score[names[i]], i))
        if not higher:
            order = sorted(range(len(names)), key=lambda i: (by_score[names[i]], i))
        pairs_idx = [
            (order[x], order[y]) for x in range(len(order)) for y in range(x + 1, len(order))
        ]
        intervals: dict[str, ConfidenceInterval] = {}
        raw_p: list[float] = []
        if test == "bootstrap":
            samples = _exact_bootstrap(metric, rows, n, s, workers)
            for i, nm in enumerate(names):
                intervals[nm] = _interval(name, nm, scores[i].score, samples[:, i], conf, s)
            for i, j in pairs_idx:
                delta = scores[i].score - scores[j].score
                raw_p.append(_bootstrap_p(samples[:, i] - samples[:, j], delta))
        else:
            for i, j in pairs_idx:
                a, b = _exact_ar(metric, rows[i], rows[j], n, s, workers)
                raw_p.append(_ar_p(a, b, scores[i].score - scores[j].score))
        adjusted = holm_bonferroni(raw_p)
        pairs = tuple(
            PairwiseResult(
                names[i], names[j], scores[i].score, scores[j].score,
                scores[i].score - scores[j].score, p, q, q <= alpha,
            )
            for (i, j), p, q in zip(pairs_idx, raw_p, adjusted)
        )  # fmt: skip
        sig = metric.get_signature()
        sig.update("bs" if test == "bootstrap" else "ar", n)
        sig.update("seed", s)
        sig.update("rng", "splitmix64", abbr="rng")
        results.append(
            MetricComparison(
                metric=name,
                higher_is_better=higher,
                signature=sig.format(),
                ranking=tuple(names[i] for i in order),
                scores=by_score,
                intervals=intervals,
                pairs=pairs,
            )
        )
    return Comparison(
        test=test,
        n=n,
        seed=s,
        alpha=float(alpha),
        confidence=float(conf),
        systems=tuple(names),
        metrics=tuple(results),
    )
