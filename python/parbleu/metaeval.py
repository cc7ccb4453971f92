"""Does the metric agree with people? Meta-evaluation tables on MTME's statistics.

Reads human and metric scores in MTME's layout (``system<TAB>score`` per line; segment files
list each system's segments in order, ``None`` where no human score exists) and computes, with
:mod:`parbleu.flavors.mtme.stats`, system-level Pearson, Spearman, Kendall and pairwise
accuracy, segment-level Pearson, Kendall (no/item/system grouping) and tie-calibrated accuracy
(Deutsch et al. 2023), and PERM-BOTH significance clusters between metrics.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from pathlib import Path
from typing import Any

from parbleu.errors import InvalidOptionError
from parbleu.metrics.imported import score_value


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
    from parbleu.flavors.mtme import stats

    out: dict[str, Any] = {}
    if human_seg is not None and human_sys is None:
        human_sys = {s: [_mean(v)] for s, v in human_seg.items()}
    sys_metrics = dict(metric_sys)
    for name, seg in metric_seg.items():
        if name not in sys_metrics:
            sys_metrics[name] = {s: [_mean(v)] for s, v in seg.items()}
    if human_sys is not None and sys_metrics:
        systems = sorted(human_sys)
        gold = [human_sys[s][0] for s in systems]
        corrs = {
            m: stats.Correlation(
                len(systems), gold, _aligned(human_sys, sc, systems, f"{m} (system level)", 1)
            )
            for m, sc in sys_metrics.items()
        }
        rows = {}
        for m, c in corrs.items():
            agree, pairs = stats.Agreement(c.gold_scores, c.metric_scores)
            rows[m] = {
                "pearson": c.Pearson()[0],
                "spearman": c.Spearman()[0],
                "kendall_b": c.Kendall()[0],
                "accuracy": agree / pairs if pairs else math.nan,
            }
        out["sys"] = {
            "systems": systems,
            "metrics": rows,
            "clusters": _clusters(corrs, stats.pearsonr, "none", k, pval),
        }
    if human_seg is not None and metric_seg:
        systems = sorted(human_seg)
        per = len(human_seg[systems[0]])
        gold = _aligned(human_seg, human_seg, systems, "human segment scores", per)
        corrs = {
            m: stats.Correlation(
                len(systems), gold, _aligned(human_seg, sc, systems, f"{m} (segment level)", per)
            )
            for m, sc in metric_seg.items()
        }
        rows = {}
        for m, c in corrs.items():
            acc, eps, _ = stats.KendallWithTiesOpt(
                c.gold_scores, c.metric_scores, "acc23", c.num_sys, "item", 1.0
            )
            rows[m] = {
                "pearson": c.Pearson("none")[0],
                "kendall_b_none": c.KendallVariants("none", "b")[0],
                "kendall_b_item": c.KendallVariants("item", "b")[0],
                "kendall_b_sys": c.KendallVariants("sys", "b")[0],
                "acc23_item": acc,
                "acc23_epsilon": eps,
            }
        out["seg"] = {
            "systems": systems,
            "metrics": rows,
            "clusters": _clusters(corrs, stats.KendallVariants, "item", k, pval, variant="b"),
        }
    return out


def _mean(v: list[float | None]) -> float | None:
    vals = [x for x in v if x is not None]
    return sum(vals) / len(vals) if vals else None
