"""parbleu.flavors.mtme against MTME's own numbers on WMT21 (golden/mtme).

Every correlation is equal to the last bit (``==``): Kendall variants, tie-calibrated accuracy
and tau with their epsilon, KendallLike and Agreement count pairs exactly and then do MTME's
float operations in MTME's order; Pearson and Spearman follow scipy 1.17's arithmetic with
numpy's pairwise sums and OpenBLAS's AVX-512 ``ddot`` order (what numpy used where the golden
files were made). PERM-BOTH's delta, draws and p-values with numpy draws are equal too, except
Pearson over more than 10,000 values, where OpenBLAS's threads decide the last bit (see
test_perm_both_with_numpy_draws). scipy's p-values are within 1e-9 relative (parbleu's own
incomplete beta function and normal tail, not scipy's Cephes/Boost code).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from _mtme_golden import PAIRS, SEG_PAIRS, load, vectors

from parbleu.flavors.mtme import stats

REL_P = 1e-9


def _records(level: str) -> list[Any]:
    pairs = PAIRS if level == "sys" else SEG_PAIRS
    return [
        pytest.param(pair, rec, id=f"{pair}/{rec['id']}")
        for pair in pairs
        for rec in load(pair)["results"][level]
    ]


def _compute(pair: str, level: str, rec: dict[str, Any]) -> tuple[Any, ...]:
    fn, avg = rec["function"], rec["average_by"]
    num_sys, gold, metric = vectors(pair, level, rec["metric"], rec["gold"])
    corr = stats.Correlation(num_sys, gold, metric)
    if fn == "Pearson":
        return corr.Pearson(avg)
    if fn == "Spearman":
        return corr.Spearman(avg)
    if fn.startswith("Kendall-"):
        return corr.Kendall(avg, variant=fn.split("-")[1])
    if fn.startswith("KendallVariants-"):
        # The '-eps' records carry the epsilon KendallWithTiesOpt chose.
        return corr.KendallVariants(avg, variant=fn.split("-")[1], epsilon=rec.get("epsilon", 0.0))
    if fn.startswith("KendallWithTiesOpt-"):
        return stats.KendallWithTiesOpt(
            gold, metric, fn.split("-")[1], num_sys, avg, sample_rate=1.0
        )
    if fn == "KendallLike":
        return corr.KendallLike(avg, thresh=25)
    if fn == "Agreement":
        agree, n = stats.Agreement(gold, metric)
        return agree / n, agree, n
    raise AssertionError(f"unknown record {fn}")


def _check(pair: str, level: str, rec: dict[str, Any]) -> None:
    got = _compute(pair, level, rec)
    fn = rec["function"]
    value = got[0]
    assert value == rec["value"], (value, rec["value"])
    if fn.startswith("KendallWithTiesOpt-"):
        assert got[1] == rec["epsilon"]
        assert len(got[2].thresholds) == rec["num_thresholds"]
    elif fn == "Agreement":
        assert (got[1], got[2]) == (rec["agree"], rec["num_pairs"])
    else:
        assert got[2] == rec["n"]
        want_p = rec["pvalue"]
        if want_p == 0 or want_p is None:
            assert got[1] == want_p or (want_p is None and math.isnan(got[1]))
        else:
            assert got[1] == pytest.approx(want_p, rel=REL_P, abs=1e-300), (got[1], want_p)


@pytest.mark.parametrize(("pair", "rec"), _records("sys"))
def test_system_level(pair: str, rec: dict[str, Any]) -> None:
    _check(pair, "sys", rec)


@pytest.mark.parametrize(("pair", "rec"), _records("seg"))
def test_segment_level(pair: str, rec: dict[str, Any]) -> None:
    _check(pair, "seg", rec)


def _corr_fcn(name: str) -> Any:
    return {
        "scipy.stats.pearsonr": stats.pearsonr,
        "scipy.stats.kendalltau": stats.kendalltau,
        "stats.KendallVariants": stats.KendallVariants,
        "stats.KendallWithTiesOpt": stats.KendallWithTiesOpt,
    }[name]


def _sig_records() -> list[Any]:
    return [
        pytest.param(pair, rec, id=f"{pair}/{rec['id']}")
        for pair in PAIRS
        for rec in load(pair)["results"]["significance"]
    ]


def _fn_args(rec: dict[str, Any]) -> dict[str, Any]:
    call = rec["mtme_call"]
    args: dict[str, Any] = {}
    for key, val in (("variant='b'", "b"), ("variant='acc23'", "acc23")):
        if key in call:
            args["variant"] = val
    if "sample_rate=1.0" in call:
        args["sample_rate"] = 1.0
    return args


@pytest.mark.parametrize(("pair", "rec"), _sig_records())
def test_perm_both_with_numpy_draws(pair: str, rec: dict[str, Any]) -> None:
    level = rec["level"]
    gold = "wmt-z"
    m1, m2 = rec["metric1"], rec["metric2"]
    n, g, s1 = vectors(pair, level, m1, gold)
    _, _, s2 = vectors(pair, level, m2, gold)
    c1, c2 = stats.Correlation(n, g, s1), stats.Correlation(n, g, s2)
    stats.set_random("numpy")
    try:
        np.random.seed(rec["seed"])
        p, delta, k, draws = stats.PermutationSigDiff(
            c1,
            c2,
            _corr_fcn(rec["corr_fcn"]),
            rec["average_by"],
            rec["k"],
            stats.PermutationSigDiffParams(**rec["params"]),
            **_fn_args(rec),
        )
    finally:
        stats.set_random("parbleu")
    judged = sum(v is not None for v in g)
    # numpy 2.0.x (the last for Python 3.9) ships an older OpenBLAS whose dot product rounds
    # is-en's and ru-en's Pearson draws differently in the last bit (docs/meta-evaluation.md).
    old_blas = np.lib.NumpyVersion(np.__version__) < "2.1.0"
    if rec["corr_fcn"] == "scipy.stats.pearsonr" and (judged > 10_000 or old_blas):
        # OpenBLAS splits a dot product of more than 10,000 values over its threads (the
        # machine's cores): the last bit then depends on the machine. parbleu keeps the
        # one-thread order, so ja-en's 14,482-value Pearson draws agree to 1e-12.
        assert abs(delta - rec["delta"]) <= 1e-12
        np.testing.assert_allclose(draws, rec["draws"], rtol=0, atol=1e-12)
    else:
        assert delta == rec["delta"]
        assert [list(d) for d in draws] == rec["draws"]
    assert k == rec["k_used"]
    assert p == rec["pvalue"]
