"""Properties of parbleu.flavors.mtme on random data, and agreement with plain definitions."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from parbleu.flavors.mtme import stats, tau_optimization

scores = st.lists(st.integers(-5, 5).map(float), min_size=3, max_size=12)


def _kendall_ref(
    g: list[float], m: list[float], eps: float = 0.0
) -> tuple[int, int, int, int, int]:
    """The pair classes by definition (Deutsch et al. 2023)."""
    con = dis = th = tm = tb = 0
    for i, j in itertools.combinations(range(len(g)), 2):
        dg, dm = g[i] - g[j], m[i] - m[j]
        mt, ht = abs(dm) <= eps, dg == 0
        if mt and ht:
            tb += 1
        elif mt:
            tm += 1
        elif ht:
            th += 1
        elif (dg > 0) == (dm > 0):
            con += 1
        else:
            dis += 1
    return con, dis, th, tm, tb


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_kendall_variants_match_the_definition(data: st.DataObject) -> None:
    g = data.draw(scores)
    m = data.draw(st.lists(st.integers(-5, 5).map(float), min_size=len(g), max_size=len(g)))
    eps = data.draw(st.sampled_from([0.0, 1.0, 2.5]))
    con, dis, th, tm, tb = _kendall_ref(g, m, eps)
    tot = con + dis + th + tm + tb
    assert stats.KendallVariants(g, m, "acc23", epsilon=eps)[0] == (con + tb) / tot
    assert stats.KendallVariants(g, m, "23", epsilon=eps)[0] == (con + tb - dis - th - tm) / tot
    # The optimised epsilon's accuracy is the best over every candidate threshold.
    best = max(
        stats.KendallVariants(g, m, "acc23", epsilon=e)[0]
        for e in {0.0, *(abs(a - b) for a, b in itertools.combinations(m, 2))}
    )
    opt = stats.KendallWithTiesOpt(g, m, "acc23", sample_rate=1.0)
    assert abs(opt[0] - best) < 1e-12
    assert (
        tau_optimization.tau_optimization(m, g, tau_optimization.TauSufficientStats.acc_23).best_tau
        == opt[0]
    )


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-100, 100, allow_nan=False), min_size=4, max_size=30, unique=True))
def test_a_metric_equal_to_the_gold_is_perfect(g: list[float]) -> None:
    c = stats.Correlation(1, g, list(g))
    assert abs(c.Pearson()[0] - 1.0) < 1e-12
    # scipy's own arithmetic gives 0.9999999999999999 for some of these (e.g. 10 / 10**0.5 /
    # 10**0.5 for tau-b over 5 values): perfect up to rounding.
    assert abs(c.Spearman()[0] - 1.0) < 1e-12
    assert abs(c.Kendall()[0] - 1.0) < 1e-12
    assert c.KendallVariants(variant="acc23")[0] == 1.0
    agree, n = stats.Agreement(g, g)
    assert agree == n


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_permuting_systems_changes_nothing(data: st.DataObject) -> None:
    num_sys = data.draw(st.integers(2, 5))
    items = data.draw(st.integers(2, 6))
    n = num_sys * items
    g = data.draw(st.lists(st.integers(0, 9).map(float), min_size=n, max_size=n))
    m = data.draw(st.lists(st.integers(0, 9).map(float), min_size=n, max_size=n))
    perm = data.draw(st.permutations(range(num_sys)))

    def permuted(v: list[float]) -> list[float]:
        rows = [v[s * items : (s + 1) * items] for s in range(num_sys)]
        return [x for s in perm for x in rows[s]]

    a, b = stats.Correlation(num_sys, g, m), stats.Correlation(num_sys, permuted(g), permuted(m))
    for avg in ("item", "sys", "none"):
        for variant in ("b", "acc23"):
            x, y = a.KendallVariants(avg, variant)[0], b.KendallVariants(avg, variant)[0]
            # 'sys' and 'none' average in another order: equal up to rounding.
            assert x == y or abs(x - y) < 1e-12 or (np.isnan(x) and np.isnan(y))
    xa = stats.KendallWithTiesOpt(g, m, "acc23", num_sys, "item", 1.0)
    xb = stats.KendallWithTiesOpt(permuted(g), permuted(m), "acc23", num_sys, "item", 1.0)
    # The item average sums in another order, so the optimum is equal up to rounding, and two
    # thresholds whose accuracies tie exactly may swap (MTME keeps the first maximum too): each
    # threshold must reach the other's optimum on the other ordering.
    assert abs(xa[0] - xb[0]) < 1e-12
    at_a = b.KendallVariants("item", "acc23", epsilon=xa[1])[0]
    at_b = a.KendallVariants("item", "acc23", epsilon=xb[1])[0]
    assert abs(at_a - xb[0]) < 1e-12 and abs(at_b - xa[0]) < 1e-12


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["pearson", "kendall", "ties"]))
def test_thread_count_changes_nothing(seed: int, which: str) -> None:
    rng = np.random.default_rng(seed)
    num_sys, items = 4, 25
    g = rng.integers(0, 20, num_sys * items).astype(float).tolist()
    c1 = stats.Correlation(num_sys, g, rng.normal(size=num_sys * items).tolist())
    c2 = stats.Correlation(num_sys, g, rng.normal(size=num_sys * items).tolist())
    fn, avg, kw = {
        "pearson": (stats.pearsonr, "none", {}),
        "kendall": (stats.KendallVariants, "item", {"variant": "b"}),
        "ties": (stats.KendallWithTiesOpt, "item", {"sample_rate": 1.0}),
    }[which]
    out = []
    for workers in (1, 2, 4):
        stats.set_random("parbleu", seed, workers)
        try:
            out.append(stats.PermutationSigDiff(c1, c2, fn, avg, 40, **kw))
        finally:
            stats.set_random("parbleu")
    assert out[0] == out[1] == out[2]


def test_numpy_draws_equal_mtme_loop() -> None:
    """numpy mode gives the draws of MTME's own loop (here its Python fallback)."""
    rng = np.random.default_rng(3)
    g = rng.normal(size=30).tolist()
    c1 = stats.Correlation(3, g, rng.normal(size=30).tolist())
    c2 = stats.Correlation(3, g, rng.normal(size=30).tolist())

    def kendall_py(a, b, variant="b"):  # type: ignore[no-untyped-def]
        return stats.KendallVariants(a, b, variant)

    stats.set_random("numpy")
    try:
        np.random.seed(7)
        fast = stats.PermutationSigDiff(c1, c2, stats.KendallVariants, "sys", 50)
        np.random.seed(7)
        slow = stats.PermutationSigDiff(c1, c2, kendall_py, "sys", 50)
    finally:
        stats.set_random("parbleu")
    assert fast[:3] == slow[:3]
    assert fast[3] == slow[3]
