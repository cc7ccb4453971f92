"""Properties of parbleu.significance: both paths, and the statistics themselves.

- SacreBLEU-compatible path: PairedTest on random small corpora and options is SacreBLEU
  2.6's, bit for bit (live oracle); the float32 resample scorer returns SacreBLEU's values
  with SacreBLEU's Python / numpy scalar types.
- Exact path: identity resampling is the corpus score; AR with an all-baseline mask is the
  baseline; results are identical at any thread count and across runs; seed 0 is a seed;
  identical systems get p = 1.
- Statistics: on synthetic TER statistics (segment lengths 10-30, edits binomial), with
  K = 200 replications of 300 segments and 199 resamples / trials each (fixed seeds, so the
  checks are deterministic): under the null hypothesis the exact path's p-values are uniform
  (Kolmogorov-Smirnov distance to U(0, 1) at most 0.12, about the 1% critical value 0.115 for
  K = 200, plus the 1/200 grid), and with a known difference the rejection rate at 0.05 is
  within 0.1 of the power a normal approximation predicts (about 0.8).
"""

from __future__ import annotations

import os
import re
import textwrap
import time
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import parbleu
from helpers import interrupt_when_ready, sigint_child
from parbleu import _core, _resampling
from parbleu import significance as sig

sb_metrics = pytest.importorskip("sacrebleu.metrics")
sb_sig = pytest.importorskip("sacrebleu.significance")

SAMPLE = Path(parbleu.__file__).parent / "sample"


def _sample(name: str) -> list[str]:
    return (SAMPLE / name).read_text(encoding="utf-8").split("\n")[:-1]


REF = _sample("ref.A.de")
SYSTEMS = {n: _sample(f"{n}.de") for n in ("Online-W", "Facebook-AI", "VolcTrans-GLAT")}
METRICS = [parbleu.BLEU(), parbleu.CHRF(word_order=2), parbleu.TER()]


# --- exact path ---------------------------------------------------------------------------------
@pytest.mark.parametrize("metric", METRICS, ids=lambda m: type(m).__name__)
def test_identity_resample_is_the_corpus_score(metric: Any) -> None:
    rows = metric.extract_stats(SYSTEMS["Online-W"], [REF])
    scorer = metric.core_scorer()
    idxs = np.arange(len(rows), dtype=np.int64).reshape(1, -1)
    got = np.frombuffer(_core.sig_bootstrap_indices(scorer, [rows], len(rows), idxs, 1), "<f8")
    assert got.tolist() == [metric.corpus_score(SYSTEMS["Online-W"], [REF]).score]


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: type(m).__name__)
@pytest.mark.parametrize("compat", [False, True])
def test_ar_with_an_all_baseline_mask_is_the_baseline(metric: Any, compat: bool) -> None:
    a = metric.extract_stats(SYSTEMS["Online-W"], [REF])
    b = metric.extract_stats(SYSTEMS["Facebook-AI"], [REF])
    scorer = metric.core_scorer()
    ones = np.packbits(np.ones((2, len(a)), bool), axis=1, bitorder="little")
    ones[1] = np.packbits(np.zeros(len(a), bool), bitorder="little")  # trial 2: all system
    sa, sb = _core.sig_ar_masks(scorer, a, b, len(a), ones, compat, 1)
    score_a = metric.score_from_stats(a).score
    score_b = metric.score_from_stats(b).score
    assert np.frombuffer(sa, "<f8").tolist() == [score_a, score_b]
    assert np.frombuffer(sb, "<f8").tolist() == [score_b, score_a]


def _run_all(workers: int, seed: int) -> list[Any]:
    out: list[Any] = []
    for metric in METRICS:
        out += sig.paired_bootstrap(metric, SYSTEMS, [REF], n=120, seed=seed, workers=workers)
        out += sig.paired_ar(metric, SYSTEMS, [REF], n=300, seed=seed, workers=workers)
        out.append(
            sig.confidence_interval(
                metric, SYSTEMS["Online-W"], [REF], n=90, seed=seed, workers=workers
            )
        )
    out.append(sig.compare_all(METRICS, SYSTEMS, [REF], n=60, seed=seed, workers=workers))
    out.append(
        sig.compare_all(METRICS[:1], SYSTEMS, [REF], test="ar", n=80, seed=seed, workers=workers)
    )
    return out


def test_exact_results_do_not_depend_on_threads_or_runs() -> None:
    one = _run_all(1, 0)
    assert _run_all(2, 0) == one
    assert _run_all(1, 0) == one
    assert _run_all(2, 1) != one  # seed 0 is a seed like any other


def test_exact_results_do_not_depend_on_blocks() -> None:
    """Resamples and trials are computed in GIL-release blocks; any split gives the same."""
    rows = [parbleu.CHRF().extract_stats(s, [REF]) for s in SYSTEMS.values()]
    scorer = parbleu.CHRF().core_scorer()
    whole = np.frombuffer(_core.sig_bootstrap(scorer, rows, len(REF), 3000, 5, 2), "<f8")
    half = np.frombuffer(_core.sig_bootstrap(scorer, rows, len(REF), 1500, 5, 1), "<f8")
    assert whole[: len(half)].tolist() == half.tolist()
    a, b = rows[0], rows[1]
    wa, _ = _core.sig_ar(scorer, a, b, len(REF), 40000, 5, 2)
    ha, _ = _core.sig_ar(scorer, a, b, len(REF), 100, 5, 1)
    assert np.frombuffer(wa, "<f8")[:100].tolist() == np.frombuffer(ha, "<f8").tolist()


def test_unseeded_runs_report_their_seed() -> None:
    bleu = parbleu.BLEU()
    r = sig.paired_bootstrap(bleu, SYSTEMS, [REF], n=50, seed=None)[0]
    assert isinstance(r.seed, int)
    again = sig.paired_bootstrap(bleu, SYSTEMS, [REF], n=50, seed=r.seed)[0]
    assert again == r


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: type(m).__name__)
def test_identical_systems_are_not_significantly_different(metric: Any) -> None:
    same = {"a": SYSTEMS["Online-W"], "b": list(SYSTEMS["Online-W"])}
    assert sig.paired_bootstrap(metric, same, [REF], n=100)[0].p_value == 1.0
    assert sig.paired_ar(metric, same, [REF], n=100)[0].p_value == 1.0
    # SacreBLEU reports them as significantly different (p = 1 / (n + 1)); compat keeps that.
    assert sig.paired_bootstrap(metric, same, [REF], n=100, compat=True)[0].p_value == 1 / 101
    assert sig.paired_ar(metric, same, [REF], n=100, compat=True)[0].p_value == 1 / 101


def test_statistics_input_equals_hypotheses_input() -> None:
    bleu = parbleu.BLEU()
    stats = {k: bleu.extract_stats(v, [REF]) for k, v in SYSTEMS.items()}
    assert sig.paired_bootstrap(bleu, stats, n=80) == sig.paired_bootstrap(
        bleu, SYSTEMS, [REF], n=80
    )


def test_interval_bounds_and_baseline_choice() -> None:
    chrf = parbleu.CHRF()
    out = sig.paired_bootstrap(chrf, SYSTEMS, [REF], n=400, baseline="Facebook-AI")
    assert [r.system for r in out] == ["Online-W", "VolcTrans-GLAT"]
    for r in out:
        assert r.baseline == "Facebook-AI" and r.ci is not None and r.baseline_ci is not None
        assert r.ci.low <= r.ci.mean <= r.ci.high and r.ci.n == 400
        assert r.ci.half_width == (r.ci.high - r.ci.low) / 2
        assert r.delta == r.score - r.baseline_score
    assert out[0].baseline_ci == out[1].baseline_ci


def test_holm_bonferroni() -> None:
    assert sig.holm_bonferroni([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert sig.holm_bonferroni([0.5, 0.6]) == [1.0, 1.0]
    assert sig.holm_bonferroni([]) == []


def test_compare_all_structure() -> None:
    c = sig.compare_all([parbleu.BLEU(), parbleu.TER()], SYSTEMS, [REF], n=200)
    assert c.systems == tuple(SYSTEMS) and len(c.metrics) == 2
    bleu, ter = c.metrics
    assert bleu.higher_is_better and not ter.higher_is_better
    assert [bleu.scores[x] for x in bleu.ranking] == sorted(bleu.scores.values(), reverse=True)
    assert [ter.scores[x] for x in ter.ranking] == sorted(ter.scores.values())
    for mc in c.metrics:
        assert len(mc.pairs) == 3
        raw = [p.p_value for p in mc.pairs]
        assert [p.p_holm for p in mc.pairs] == sig.holm_bonferroni(raw)
        assert all(p.significant == (p.p_holm <= 0.05) for p in mc.pairs)
        assert "|bs:200|seed:12345|" in mc.signature and "rng:splitmix64" in mc.signature
    text = c.table()
    assert "Holm-Bonferroni" in text and "TER (lower is better)" in text
    assert c.to_dict()["metrics"][0]["pairs"][0]["p_holm"] == bleu.pairs[0].p_holm


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: sig.paired_bootstrap(parbleu.BLEU(), SYSTEMS, [REF], n=0), "n=0"),
        (lambda: sig.paired_ar(parbleu.BLEU(), SYSTEMS, [REF], seed=-1), "seed=-1"),
        (lambda: sig.paired_ar(parbleu.BLEU(), SYSTEMS, [REF], baseline="x"), "baseline"),
        (lambda: sig.paired_bootstrap(parbleu.BLEU(), {"a": ["x"]}, [REF]), "is 1 hypothesis;"),
        (lambda: sig.compare_all(parbleu.BLEU(), {"a": REF}, [REF]), "at least two"),
        (lambda: sig.PairedTest([("a", REF)], {}, None, test_type="x"), "test_type"),
    ],
)
def test_errors(call: Any, message: str) -> None:
    with pytest.raises(parbleu.ParbleuError, match=message):
        call()


def test_bad_sacrebleu_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "abc")
    with pytest.raises(parbleu.InvalidOptionError, match="SACREBLEU_SEED"):
        parbleu.BLEU().corpus_score(REF, [REF], n_bootstrap=10)
    monkeypatch.setenv("SACREBLEU_SEED", "NONE")
    bleu = parbleu.BLEU()
    bleu.corpus_score(REF, [REF], n_bootstrap=10)
    assert "|seed:none|" in bleu.get_signature().format()


def test_ctrl_c_interrupts_resampling() -> None:
    code = textwrap.dedent(
        f"""
        import sys, parbleu
        from parbleu.significance import paired_ar
        ref = open({str(SAMPLE / "ref.A.de")!r}, encoding="utf-8").read().split("\\n")[:-1]
        systems = {{"a": ref, "b": ref[::-1]}}
        print("ready", flush=True)
        try:
            paired_ar(parbleu.CHRF(), systems, [ref], n=10**6, workers=1)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(7)
        """
    )
    with sigint_child(code) as p:
        t0 = interrupt_when_ready(p, 0.5)
        rc = p.wait(timeout=30)
        elapsed = time.monotonic() - t0
        assert rc == 7, "KeyboardInterrupt was not raised"
    assert elapsed < 5, f"took {elapsed:.1f}s to stop"


# --- SacreBLEU-compatible path: live oracle ------------------------------------------------------
WORDS = ["the", "The", "cat", "sat", "on", "mat", ",", ".", "Haus", "über", "dog", "a"]


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[list[str]], list[list[str]]]:
    n = draw(st.integers(2, 25))
    line = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join)
    n_refs = draw(st.integers(1, 3))
    refs = [draw(st.lists(line, min_size=n, max_size=n)) for _ in range(n_refs)]
    systems = [draw(st.lists(line, min_size=n, max_size=n)) for _ in range(3)]
    return systems, refs


METRIC_OPTS = st.one_of(
    st.tuples(
        st.just("BLEU"),
        st.fixed_dictionaries(
            {
                "smooth_method": st.sampled_from(["exp", "floor", "add-k", "none"]),
                "effective_order": st.booleans(),
                "lowercase": st.booleans(),
                "max_ngram_order": st.integers(1, 4),
            },
            optional={"smooth_value": st.sampled_from([0.5, 1, 2.0, 0.01])},
        ).filter(  # a floor above 1 is refused (BLEU above 100): nothing to compare
            lambda d: not (d["smooth_method"] == "floor" and d.get("smooth_value", 0) > 1)
        ),
    ),
    st.tuples(
        st.just("CHRF"),
        st.fixed_dictionaries(
            {
                "char_order": st.integers(1, 6),
                "word_order": st.integers(0, 2),
                "beta": st.sampled_from([1, 2, 3, 0.5]),
                "eps_smoothing": st.booleans(),
            }
        ),
    ),
    st.tuples(
        st.just("TER"),
        st.fixed_dictionaries({"normalized": st.booleans(), "case_sensitive": st.booleans()}),
    ),
)


def _fields(res: Any) -> tuple[Any, ...]:
    return tuple(
        (type(v).__name__, None if v is None else float(v))
        for v in (res.score, res.p_value, res.mean, res.ci)
    )


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # shrinking SacreBLEU runs takes minutes
)
@given(
    data=corpora(),
    opts=METRIC_OPTS,
    test_type=st.sampled_from(["bs", "ar"]),
    n=st.integers(1, 60),
    n_conf=st.sampled_from([-1, 25]),
    seed=st.sampled_from(["1", "12345", "None"]),
)
def test_paired_test_matches_live_sacrebleu(
    data: tuple[list[list[str]], list[list[str]]],
    opts: tuple[str, dict[str, Any]],
    test_type: str,
    n: int,
    n_conf: int,
    seed: str,
) -> None:
    systems, refs = data
    cls, kwargs = opts
    if seed == "None":
        # Unseeded: only what does not depend on the draws can match.
        n, n_conf = 1, -1
    named = [(f"s{i}", s) for i, s in enumerate(systems)]
    saved = os.environ.get("SACREBLEU_SEED")
    os.environ["SACREBLEU_SEED"] = seed
    try:
        ours = sig.PairedTest(named, {cls: getattr(parbleu, cls)(**kwargs, references=refs)},
                              None, test_type, n, n_conf)()  # fmt: skip
        theirs = sb_sig.PairedTest(
            named, {cls: getattr(sb_metrics, cls)(**kwargs, references=refs)}, None,
            test_type, n, n_conf,
        )()  # fmt: skip
    finally:
        if saved is None:
            del os.environ["SACREBLEU_SEED"]
        else:
            os.environ["SACREBLEU_SEED"] = saved
    assert list(ours[1]) == list(theirs[1])
    for key in list(ours[1])[1:]:
        got = [_fields(r) for r in ours[1][key]]
        exp = [_fields(r) for r in theirs[1][key]]
        if seed == "None":
            got, exp = [g[:1] for g in got], [e[:1] for e in exp]
        assert got == exp
        # parbleu's signature adds ngram:N for a non-default BLEU order (SacreBLEU's #251).
        ours_sig = re.sub(r"\|ngram:\d+", "", ours[0][key].format())
        assert ours_sig.rsplit("|", 1)[0] == theirs[0][key].format().rsplit("|", 1)[0]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    opts=METRIC_OPTS,
    counts=st.lists(st.integers(0, 40), min_size=1, max_size=6),
    n_seg=st.integers(1, 30),
    seed=st.integers(0, 2**32),
)
def test_float32_resample_scores_are_sacrebleus(
    opts: tuple[str, dict[str, Any]], counts: list[int], n_seg: int, seed: int
) -> None:
    """Values and scalar types of SacreBLEU's ``_compute_score_from_stats(f32[idx].sum(0))``,
    on random statistics rows (zeros included) rather than extracted ones."""
    cls, kwargs = opts
    kwargs = {k: v for k, v in kwargs.items() if k not in ("normalized", "case_sensitive")}
    ours, theirs = getattr(parbleu, cls)(**kwargs), getattr(sb_metrics, cls)(**kwargs)
    scorer = ours.core_scorer()
    rng = np.random.default_rng(seed)
    rows = rng.choice(counts, size=(n_seg, scorer.width))
    if cls == "TER":
        rows = rows.astype(float) / rng.integers(1, 4, size=rows.shape)
    idxs = rng.choice(n_seg, size=(20, n_seg), replace=True)
    values, kinds = _resampling.CompatEngine(1).bootstrap(ours, rows, idxs)
    got = _resampling.score_scalars(values, kinds)
    stats_np = np.array(rows.tolist(), dtype="float32")
    exp = [theirs._compute_score_from_stats(s.sum(0)).score for s in stats_np[idxs]]
    assert [(type(x), x) for x in got] == [(type(x), x) for x in exp]


# --- the statistics -----------------------------------------------------------------------------
K, N_SEG, N_RESAMPLES, P_A, P_B = 200, 300, 199, 0.30, 0.277


def _ter_pair(rng: np.random.Generator, p_b: float) -> dict[str, Any]:
    lengths = rng.integers(10, 31, size=N_SEG)
    a = np.stack([rng.binomial(lengths, P_A), lengths], 1).astype(float)
    b = np.stack([rng.binomial(lengths, p_b), lengths], 1).astype(float)
    return {"A": a, "B": b}


def _p_values(p_b: float) -> dict[str, np.ndarray]:
    ter = parbleu.TER()
    out: dict[str, list[float]] = {"bootstrap": [], "ar": []}
    for k in range(K):
        pair = _ter_pair(np.random.default_rng(1000 + k), p_b)
        out["bootstrap"].append(sig.paired_bootstrap(ter, pair, n=N_RESAMPLES, seed=k)[0].p_value)
        out["ar"].append(sig.paired_ar(ter, pair, n=N_RESAMPLES, seed=k)[0].p_value)
    return {k: np.array(v) for k, v in out.items()}


def _ks_uniform(p: np.ndarray) -> float:
    grid = np.arange(1, N_RESAMPLES + 2) / (N_RESAMPLES + 1)
    emp = np.searchsorted(np.sort(p), grid, side="right") / len(p)
    return float(np.max(np.abs(emp - grid)))


def test_p_values_are_uniform_under_the_null_hypothesis() -> None:
    for test, p in _p_values(P_A).items():
        d = _ks_uniform(p)
        assert d <= 0.12, f"{test}: KS distance {d:.3f} to U(0, 1)"
        assert p.max() == 1.0 or p.max() > 0.9


def test_a_known_difference_is_detected_at_the_expected_rate() -> None:
    # Normal approximation: mean length 20, E[delta] = (P_A - P_B) * sum of lengths, with the
    # variance of the sum of per-segment edit differences.
    mean_len = 20.0
    mu = (P_A - P_B) * mean_len * N_SEG
    sd = (mean_len * N_SEG * (P_A * (1 - P_A) + P_B * (1 - P_B))) ** 0.5
    z = NormalDist().inv_cdf(0.975)
    power = NormalDist().cdf(mu / sd - z) + NormalDist().cdf(-mu / sd - z)
    assert 0.7 < power < 0.9
    for test, p in _p_values(P_B).items():
        rate = float(np.mean(p <= 0.05))
        assert abs(rate - power) <= 0.1, f"{test}: rejection rate {rate:.3f}, power {power:.3f}"
