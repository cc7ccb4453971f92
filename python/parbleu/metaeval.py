"""Does the metric agree with people? Meta-evaluation tables on MTME's statistics.

Reads human scores (WMT's DA files, MTME's ``*.score`` layout, a plain TSV) and metric scores
(computed here with any registered metric, or imported), and computes, with
:mod:`parbleu.flavors.mtme.stats`, system-level Pearson, Spearman, Kendall and pairwise
accuracy, segment-level Pearson, Kendall (no/item/system grouping) and tie-calibrated accuracy
(Deutsch et al. 2023), PERM-BOTH significance clusters between metrics, and bootstrap
intervals.

The one call for "how well does each metric agree with people, at system and at segment
level": :func:`agreement` (its inputs from :func:`read_da`, :func:`read_human_tsv`,
:func:`human_from_mtme`, :func:`computed_scores`, :func:`given_scores`).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from pathlib import Path
from typing import Any

from parbleu._meta_inputs import HumanScores, read_da, read_docs, read_human_tsv, sid_to_line
from parbleu._meta_metrics import MetricScores, computed_scores, given_scores
from parbleu._options import MAX_RESAMPLES, check_count
from parbleu.errors import InvalidOptionError
from parbleu.metrics.imported import score_value

__all__ = [
    "HumanScores",
    "MetricScores",
    "agreement",
    "assign_ranks",
    "computed_scores",
    "given_scores",
    "human_from_mtme",
    "meta_table",
    "read_da",
    "read_docs",
    "read_human_tsv",
    "read_scores",
    "seg_row",
    "sid_to_line",
    "sys_row",
]


def read_scores(path: str, allow_none: bool) -> OrderedDict[str, list[float | None]]:
    """Scores per system from an MTME ``*.score`` file (``system<TAB>score`` lines).

    Parameters
    ----------
    path : str
        The file.
    allow_none : bool
        Accept ``None`` (a missing human score); metric files may not have it.

    Returns
    -------
    OrderedDict
        System name to its scores, in file order.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InvalidOptionError(f"{path}: cannot read ({e.strerror})") from None
    out: OrderedDict[str, list[float | None]] = OrderedDict()
    for no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.rstrip("\n").split("\t")
        if len(parts) != 2:
            raise InvalidOptionError(f"{path}:{no}: expected 'system<TAB>score', got {line!r}")
        name, raw = parts
        if raw == "None" and allow_none:
            out.setdefault(name, []).append(None)
            continue
        out.setdefault(name, []).append(score_value(raw, f"{path}:{no}"))
    if not out:
        raise InvalidOptionError(f"{path}: no scores (empty file)")
    return out


def _aligned(
    human: Any, metric: Any, systems: list[str], what: str, per_system: int | None
) -> list[Any]:
    missing = [s for s in systems if s not in metric]
    if missing:
        raise InvalidOptionError(f"{what}: no scores for system(s) {', '.join(missing)}")
    flat: list[Any] = []
    for s in systems:
        vals = metric[s]
        if per_system is not None and len(vals) != per_system:
            raise InvalidOptionError(
                f"{what}: system {s} has {len(vals)} scores, the human scores {per_system}"
            )
        flat.extend(vals)
    return flat


def assign_ranks(sig: list[list[float]], pval: float) -> list[int]:
    """Rank clusters as MTME's ``AssignRanks``.

    A new cluster starts at metric i when a metric of the current cluster is significantly
    better than it (``sig[j][i] <= pval``).
    """
    ranks, current, start = [], 1, 0
    for i in range(len(sig)):
        if any(sig[j][i] <= pval for j in range(start, i)):
            current += 1
            start = i
        ranks.append(current)
    return ranks


def _clusters(
    corrs: dict[str, Any], fn: Any, average_by: str, k: int, pval: float, **args: Any
) -> dict[str, Any]:
    from parbleu.flavors.mtme import stats

    values = {
        m: c.AverageCorrelation(fn, average_by, **args)(c.gold_scores, c.metric_scores)[0]
        for m, c in corrs.items()
    }
    order = sorted(values, key=lambda m: (-values[m], m))
    n = len(order)
    sig = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if k > 0:
                p, *_ = stats.PermutationSigDiff(
                    corrs[order[j]],
                    corrs[order[i]],
                    fn,
                    average_by,
                    k,
                    stats.PermutationSigDiffParams(block_size=max(k, 1)),
                    **args,
                )
                sig[i][j] = p
    ranks = assign_ranks(sig, pval)
    return {
        "order": order,
        "values": {m: values[m] for m in order},
        "ranks": dict(zip(order, ranks)),
        "sig_matrix": sig,
    }


def meta_table(
    human_sys: dict[str, list[float | None]] | None,
    human_seg: dict[str, list[float | None]] | None,
    metric_sys: dict[str, dict[str, list[float | None]]],
    metric_seg: dict[str, dict[str, list[float | None]]],
    k: int = 1000,
    pval: float = 0.05,
) -> dict[str, Any]:
    """Every agreement statistic of every metric, and significance clusters.

    The form of :func:`agreement` for MTME's score-file dictionaries (kept for its callers).

    Parameters
    ----------
    human_sys, human_seg : dict or None
        Human scores per system (system level: one value each).
    metric_sys, metric_seg : dict
        Metric name to its scores per system.
    k : int
        PERM-BOTH draws per metric pair (0: no significance).
    pval : float
        Significance level of the clusters.

    Returns
    -------
    dict
        ``{"sys": {...}, "seg": {...}}`` with per-metric statistics and clusters.
    """
    if human_seg is not None and human_sys is None:
        human_sys = {s: [_mean(v)] for s, v in human_seg.items()}
    metrics: dict[str, MetricScores] = {}
    for name in list(metric_sys) + [m for m in metric_seg if m not in metric_sys]:
        seg = metric_seg.get(name)
        sys_ = metric_sys.get(name)
        metrics[name] = MetricScores(
            seg,  # type: ignore[arg-type]
            sys_,  # type: ignore[arg-type]
            "given" if sys_ is not None else "mean",
        )
    return _table(HumanScores(human_seg, human_sys, ""), metrics, None, k, pval, 0, 0.95, None)


def human_from_mtme(seg_path: str | None, sys_path: str | None = None) -> HumanScores:
    """Human scores from MTME's ``*.score`` files (``system<TAB>score`` lines, ``None`` allowed).

    Without a system file, system scores are the means of the judged segment scores.
    """
    seg = dict(read_scores(seg_path, True)) if seg_path else None
    sys_ = dict(read_scores(sys_path, True)) if sys_path else None
    if seg is not None and sys_ is None:
        sys_ = {s: [_mean(v)] for s, v in seg.items()}
    return HumanScores(seg, sys_, ", ".join(p for p in (seg_path, sys_path) if p))


def sys_row(c: Any) -> dict[str, float]:
    """System-level statistics of one MTME ``Correlation`` (one value per system).

    Returns
    -------
    dict
        ``pearson``, ``spearman``, ``kendall_b`` and pairwise ``accuracy``.
    """
    from parbleu.flavors.mtme import stats

    agree, pairs = stats.Agreement(c.gold_scores, c.metric_scores)
    return {
        "pearson": float(c.Pearson()[0]),
        "spearman": float(c.Spearman()[0]),
        "kendall_b": float(c.Kendall()[0]),
        "accuracy": agree / pairs if pairs else math.nan,
    }


def seg_row(c: Any) -> dict[str, float]:
    """Segment-level statistics of one MTME ``Correlation`` (systems x segments).

    Returns
    -------
    dict
        ``pearson`` (no grouping), ``kendall_b_{none,item,sys}``, tie-calibrated
        ``acc23_item`` and its ``acc23_epsilon``.
    """
    from parbleu.flavors.mtme import stats

    acc, eps, _ = stats.KendallWithTiesOpt(
        c.gold_scores, c.metric_scores, "acc23", c.num_sys, "item", 1.0
    )
    return {
        "pearson": float(c.Pearson("none")[0]),
        "kendall_b_none": float(c.KendallVariants("none", "b")[0]),
        "kendall_b_item": float(c.KendallVariants("item", "b")[0]),
        "kendall_b_sys": float(c.KendallVariants("sys", "b")[0]),
        "acc23_item": float(acc),
        "acc23_epsilon": float(eps),
    }


def agreement(
    human: HumanScores,
    metrics: dict[str, MetricScores],
    *,
    systems: list[str] | None = None,
    k: int = 0,
    alpha: float = 0.05,
    bootstrap: int = 0,
    confidence: float = 0.95,
    seed: int = 12345,
    draws: str = "parbleu",
) -> dict[str, Any]:
    """System-level and segment-level agreement of each metric with the human scores.

    Parameters
    ----------
    human : HumanScores
        Human segment and/or system scores (:func:`read_da`, :func:`read_human_tsv`,
        :func:`human_from_mtme`).
    metrics : dict
        Metric name to its :class:`MetricScores` (:func:`computed_scores`,
        :func:`given_scores`), higher meaning better.
    systems : list of str, optional
        The systems to evaluate (each needs human and metric scores); default: every system
        with human scores.
    k : int
        PERM-BOTH draws per metric pair (0: no significance test, every metric its own rank).
    alpha : float
        Significance level of the rank clusters.
    bootstrap : int
        Resamples of the test-set items for percentile intervals (0: none; needs human
        segment scores).
    confidence : float
        Coverage of the intervals.
    seed : int
        Seed of the draws (permutations and bootstrap).
    draws : str
        ``'parbleu'``: the counter-based generator (results independent of the thread count);
        ``'numpy'``: MTME's draws (``np.random.seed(seed)`` before the permutation tests,
        ``numpy.random.default_rng(seed)`` for the bootstrap).

    Returns
    -------
    dict
        ``"sys"`` and/or ``"seg"``: ``systems``, ``metrics`` (statistics per metric),
        ``clusters`` (``order``, ``values``, ``ranks``, ``sig_matrix``), ``system_scores``
        (how each metric's system score was made), with ``bootstrap``: ``intervals`` (metric to
        statistic to ``[low, high]``); and ``"bootstrap"`` (its settings).
    """
    from parbleu.flavors.mtme import stats

    if draws not in ("parbleu", "numpy"):
        raise InvalidOptionError(f"draws: {draws!r} is not 'parbleu' or 'numpy'")
    # Bounded as every resample count is: a huge one would abort on allocation (the core
    # holds the draws) or run for days.
    k = check_count("k", k, 0, MAX_RESAMPLES)
    bootstrap = check_count("bootstrap", bootstrap, 0, MAX_RESAMPLES)
    if not 0 < confidence < 1:
        raise InvalidOptionError(f"confidence: {confidence} is not between 0 and 1")
    before = stats.random_mode()
    if draws == "numpy":
        import numpy as np

        np.random.seed(seed % 2**32)
        stats.set_random("numpy")
    else:
        stats.set_random("parbleu", seed)
    try:
        return _table(human, metrics, systems, k, alpha, bootstrap, confidence, (seed, draws))
    finally:
        stats.set_random(*before)


def _select(scores: dict[str, Any], systems: list[str] | None, what: str) -> list[str]:
    if systems is None:
        return sorted(scores)
    missing = [s for s in systems if s not in scores]
    if missing:
        raise InvalidOptionError(f"{what}: no scores for system(s) {', '.join(missing)}")
    return sorted(systems)


def _table(
    human: HumanScores,
    metrics: dict[str, MetricScores],
    only: list[str] | None,
    k: int,
    pval: float,
    n_boot: int,
    confidence: float,
    rng: tuple[int, str] | None,
) -> dict[str, Any]:
    from parbleu import _meta_boot
    from parbleu.flavors.mtme import stats

    out: dict[str, Any] = {}
    idxs = None
    if n_boot and human.seg is not None and rng is not None:
        n_items = len(next(iter(human.seg.values())))
        idxs = _meta_boot.boot_indices(n_items, n_boot, rng[0], rng[1])
        out["bootstrap"] = {
            "n": n_boot,
            "confidence": confidence,
            "draws": rng[1],
            "seed": rng[0],
            "items": n_items,
        }
    src = f" ({human.source})" if human.source else ""
    if human.sys is not None and metrics:
        systems = _select(human.sys, only, f"human system scores{src}")
        gold = [human.sys[s][0] for s in systems]
        sys_scores = {
            m: sc.sys if sc.sys is not None else _seg_means(sc.seg or {})
            for m, sc in metrics.items()
        }
        corrs = {
            m: stats.Correlation(
                len(systems), gold, _aligned(human.sys, v, systems, f"{m} (system level)", 1)
            )
            for m, v in sys_scores.items()
        }
        level: dict[str, Any] = {
            "systems": systems,
            "metrics": {m: sys_row(c) for m, c in corrs.items()},
            "system_scores": {m: sc.system_score for m, sc in metrics.items()},
            "clusters": _clusters(corrs, stats.pearsonr, "none", k, pval),
        }
        if idxs is not None and human.seg is not None and set(systems) <= set(human.seg):
            level["intervals"] = _sys_intervals(human, metrics, systems, idxs, confidence)
        out["sys"] = level
    seg_metrics = {m: sc.seg for m, sc in metrics.items() if sc.seg is not None}
    if human.seg is not None and seg_metrics:
        systems = _select(human.seg, only, f"human segment scores{src}")
        per = len(human.seg[systems[0]])
        gold = _aligned(human.seg, human.seg, systems, "human segment scores", per)
        corrs = {
            m: stats.Correlation(
                len(systems), gold, _aligned(human.seg, sc, systems, f"{m} (segment level)", per)
            )
            for m, sc in seg_metrics.items()
        }
        level = {
            "systems": systems,
            "metrics": {m: seg_row(c) for m, c in corrs.items()},
            "clusters": _clusters(corrs, stats.KendallVariants, "item", k, pval, variant="b"),
        }
        if idxs is not None:
            level["intervals"] = {
                m: _no_epsilon(
                    _meta_boot.interval(
                        _meta_boot.seg_draws(human.seg, sc, systems, idxs, seg_row), confidence
                    )
                )
                for m, sc in seg_metrics.items()
            }
        out["seg"] = level
    return out


def _no_epsilon(iv: dict[str, list[float]]) -> dict[str, list[float]]:
    return {k: v for k, v in iv.items() if k != "acc23_epsilon"}


def _sys_intervals(
    human: HumanScores,
    metrics: dict[str, MetricScores],
    systems: list[str],
    idxs: Any,
    confidence: float,
) -> dict[str, dict[str, list[float]]]:
    from parbleu import _meta_boot

    assert human.seg is not None
    out = {}
    for m, sc in metrics.items():
        resampled = None
        if sc.resample is not None:
            cols = [sc.systems.index(s) for s in systems]
            resampled = sc.resample(idxs)[:, cols]
        elif sc.seg is None or sc.system_score == "given":
            continue  # system scores of a file cannot be resampled
        out[m] = _meta_boot.interval(
            _meta_boot.sys_draws(human.seg, sc.seg, resampled, systems, idxs, sys_row), confidence
        )
    return out


def _seg_means(seg: dict[str, list[Any]]) -> dict[str, list[float | None]]:
    return {s: [_mean(v)] for s, v in seg.items()}


def _mean(v: list[float | None]) -> float | None:
    vals = [x for x in v if x is not None]
    return sum(vals) / len(vals) if vals else None
