"""Bootstrap intervals of ``parbleu meta``: MTME's statistics on numpy's draws, bit for bit.

tests/data/meta_bootstrap/wmt21.is-en.json.xz was written by tools/gen_meta_bootstrap_golden.py
with MTME itself (commit 68a481a) on the golden inputs of WMT21 is-en. With numpy draws
(``draws='numpy'``, ``parbleu meta --mtme-draws SEED``) every draw and interval is equal; the
default counter-based draws do not depend on the thread count, and permuting the systems or
making the metric equal to the human scores behaves as it must.
"""

from __future__ import annotations

import json
import lzma
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _mtme_golden import load
from hypothesis import given, settings
from hypothesis import strategies as st

from parbleu import _meta_boot
from parbleu.metaeval import HumanScores, agreement, given_scores, seg_row, sys_row

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "meta_bootstrap" / "wmt21.is-en.json.xz"


@cache
def golden() -> dict[str, Any]:
    return json.loads(lzma.decompress(GOLDEN.read_bytes()))  # type: ignore[no-any-return]


def _human_and_metrics() -> tuple[HumanScores, dict[str, Any]]:
    inp = load("is-en")["inputs"]
    systems = inp["systems"]
    seg = dict(zip(systems, inp["gold"]["seg"]["wmt-z"]))
    human = HumanScores(seg, {s: [None] for s in systems}, "golden")
    metrics = {
        m: given_scores(dict(zip(systems, inp["metrics"]["seg"][m]["scores"])))
        for m in ("sentBLEU", "sentchrF", "sentTER")
    }
    return human, metrics


def test_draws_equal_mtme() -> None:
    g = golden()
    human, metrics = _human_and_metrics()
    assert human.seg is not None
    systems = sorted(human.seg)
    n_items = len(human.seg[systems[0]])
    idxs = _meta_boot.boot_indices(n_items, g["n"], g["seed"], "numpy")
    for m, sc in metrics.items():
        seg = _meta_boot.seg_draws(human.seg, sc.seg, systems, idxs, seg_row)
        assert [{k: d[k] for k in g["draws"]["seg"][m][0]} for d in seg] == g["draws"]["seg"][m]
        sys_ = _meta_boot.sys_draws(human.seg, sc.seg, None, systems, idxs, sys_row)
        assert sys_ == g["draws"]["sys"][m]


def test_intervals_equal_mtme() -> None:
    g = golden()
    human, metrics = _human_and_metrics()
    human.sys = {s: [float(np.mean([x for x in v if x is not None]))] for s, v in human.seg.items()}  # type: ignore[union-attr]
    table = agreement(human, metrics, bootstrap=g["n"], seed=g["seed"], draws="numpy")
    assert table["bootstrap"]["n"] == g["n"]
    for level in ("seg", "sys"):
        assert table[level]["intervals"] == g["intervals"][level]


def test_counter_draws_do_not_depend_on_workers() -> None:
    from parbleu import _core

    one = np.frombuffer(_core.meta_boot_indices(7, 0, 20, 50), dtype="<i8")
    again = np.frombuffer(_core.meta_boot_indices(7, 10, 10, 50), dtype="<i8")
    assert (one[500:] == again).all() and one.min() >= 0 and one.max() < 50
    human, metrics = _human_and_metrics()
    small = {"sentchrF": metrics["sentchrF"]}
    a = agreement(human, small, bootstrap=4, seed=3)
    from parbleu.flavors.mtme import stats

    before = stats.random_mode()
    try:
        stats.set_random("parbleu", 3, 1)
        b = agreement(human, small, bootstrap=4, seed=3)
    finally:
        stats.set_random(*before)
    assert a["seg"]["intervals"] == b["seg"]["intervals"]


def _random_case(
    data: st.DataObject, n_sys: int, n_items: int
) -> tuple[dict[str, list[Any]], dict[str, list[float]]]:
    vals = st.integers(-5, 5).map(float)
    gold = {
        f"s{i}": data.draw(st.lists(st.one_of(vals, st.none()), min_size=n_items, max_size=n_items))
        for i in range(n_sys)
    }
    metric = {
        f"s{i}": data.draw(st.lists(vals, min_size=n_items, max_size=n_items)) for i in range(n_sys)
    }
    for i, row in enumerate(gold.values()):
        row[0] = float(i)  # one item judged for every system: something to correlate
    return gold, metric


def _acc23_at(gold: dict[str, list[Any]], metric: dict[str, list[float]], eps: float) -> float:
    """MTME's item-averaged acc23 at the tie threshold ``eps``, systems in sorted order."""
    from parbleu.flavors.mtme import stats

    systems = sorted(gold)
    g = [x for s in systems for x in gold[s]]
    m = [x for s in systems for x in metric[s]]
    return float(stats.Correlation(len(systems), g, m).KendallVariants("item", "acc23", eps)[0])


def test_tied_thresholds_follow_mtme_when_systems_are_reordered() -> None:
    """The case the property test below found: thresholds 0 and 1 both give acc23 = 1/3.

    MTME (68a481a, run on these vectors) gives ``(0.3333333333333333, 0.0)`` with the systems
    in this order and ``(0.33333333333333337, 1.0)`` with s1 first: its running sum rounds
    differently. parbleu follows it in both orders.
    """
    gold = {"s0": [0.0, None, 0.0], "s1": [1.0, None, -1.0], "s2": [2.0, None, -1.0]}
    metric = {"s0": [1.0, 0.0, 0.0], "s1": [-1.0, 0.0, 0.0], "s2": [1.0, 0.0, -1.0]}
    names = {"s1": "t0", "s0": "t1", "s2": "t2"}
    got = []
    for g, m in (
        (gold, metric),
        ({names[s]: v for s, v in gold.items()}, {names[s]: v for s, v in metric.items()}),
    ):
        row = agreement(HumanScores(g, None, ""), {"m": given_scores(m)})["seg"]["metrics"]["m"]
        got.append((row["acc23_item"], row["acc23_epsilon"]))
    assert got == [(0.3333333333333333, 0.0), (0.33333333333333337, 1.0)]


@settings(max_examples=15, deadline=None)
@given(data=st.data(), n_sys=st.integers(3, 5), n_items=st.integers(3, 8))
def test_permuting_systems_changes_nothing(data: st.DataObject, n_sys: int, n_items: int) -> None:
    gold, metric = _random_case(data, n_sys, n_items)
    perm = data.draw(st.permutations(list(gold)))
    renamed = {old: f"t{perm.index(old)}" for old in gold}
    # Sorted names give the vectors' order: renaming reorders the systems.
    g2 = {renamed[s]: v for s, v in gold.items()}
    m2 = {renamed[s]: v for s, v in metric.items()}
    a = agreement(HumanScores(gold, None, ""), {"m": given_scores(metric)}, bootstrap=5, seed=1)
    b = agreement(HumanScores(g2, None, ""), {"m": given_scores(m2)}, bootstrap=5, seed=1)
    assert a.keys() == b.keys()
    for key in ("seg",):
        if key in a:
            for stat, v in a[key]["metrics"]["m"].items():
                w = b[key]["metrics"]["m"][stat]
                if stat == "acc23_epsilon" and v != w:
                    # MTME's sweep keeps one running float sum, updated pair by pair in the
                    # systems' order, so two thresholds whose accuracies tie exactly can swap
                    # by rounding when that order changes. Both must then be best for both.
                    best = a[key]["metrics"]["m"]["acc23_item"]
                    for eps in (v, w):
                        assert _acc23_at(gold, metric, eps) == pytest.approx(best, abs=1e-12)
                        assert _acc23_at(g2, m2, eps) == pytest.approx(best, abs=1e-12)
                    continue
                assert v == pytest.approx(w, abs=1e-12, nan_ok=True)
            for stat, iv in a[key]["intervals"]["m"].items():
                assert iv == pytest.approx(b[key]["intervals"]["m"][stat], abs=1e-12, nan_ok=True)


@settings(max_examples=15, deadline=None)
@given(data=st.data(), n_sys=st.integers(3, 5), n_items=st.integers(4, 8))
def test_perfect_metric_gets_perfect_intervals(
    data: st.DataObject, n_sys: int, n_items: int
) -> None:
    vals = st.floats(-10, 10, allow_nan=False).map(lambda x: round(x, 3))
    gold = {
        f"s{i}": data.draw(st.lists(vals, min_size=n_items, max_size=n_items, unique=True))
        for i in range(n_sys)
    }
    # Distinct across systems too, so that no two segment scores tie.
    gold = {s: [v + 100 * i for v in row] for i, (s, row) in enumerate(gold.items())}
    table = agreement(HumanScores(gold, None, ""), {"m": given_scores(gold)}, bootstrap=4, seed=2)
    for stat in ("pearson", "kendall_b_none"):
        low, high = table["seg"]["intervals"]["m"][stat]
        assert low == pytest.approx(1.0) and high == pytest.approx(1.0)


def test_corpus_resamples_are_corpus_scores_at_any_thread_count() -> None:
    import parbleu
    from parbleu.metaeval import computed_scores
    from parbleu.metrics.registry import make_metric

    sample = Path(parbleu.__file__).parent / "sample"
    n = 80
    refs = [(sample / "ref.A.de").read_text(encoding="utf-8").splitlines()[:n]]
    systems = {
        s: (sample / f"{s}.de").read_text(encoding="utf-8").splitlines()[:n]
        for s in ("Online-W", "Facebook-AI", "VolcTrans-GLAT")
    }
    idxs = _meta_boot.boot_indices(n, 30, 5, "parbleu")
    metrics = {"BLEU": make_metric("bleu"), "TER": make_metric("ter")}
    one = computed_scores(metrics, systems, refs, workers=1)
    two = computed_scores(metrics, systems, refs, workers=2)
    for m in metrics:
        r1, r2 = one[m].resample, two[m].resample
        assert r1 is not None and r2 is not None
        assert (r1(idxs) == r2(idxs)).all()
    # A resample's system score is the metric's corpus score of the drawn segments (TER
    # negated: higher is better).
    got = one["BLEU"].resample(idxs)  # type: ignore[misc]
    ter = one["TER"].resample(idxs)  # type: ignore[misc]
    for j, s in enumerate(systems):
        hyps = [systems[s][i] for i in idxs[0]]
        drawn = [[refs[0][i] for i in idxs[0]]]
        assert got[0, j] == make_metric("bleu").corpus_score(hyps, drawn).score
        assert ter[0, j] == pytest.approx(-make_metric("ter").corpus_score(hyps, drawn).score)
