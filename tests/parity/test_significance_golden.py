"""Significance tests against SacreBLEU 2.6.0's recorded runs (golden/sacrebleu/significance.jsonl).

Every value is compared exactly (``==``): p-values, bootstrap means and interval half-widths are
SacreBLEU's float32-derived numbers, bit for bit, through ``PairedTest``, through
``corpus_score(..., n_bootstrap=N)`` and through the structured API with ``compat=True``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import parbleu
from helpers import SHARED, load_refs, read_lines, records, requires_shared, sacre_version
from parbleu import _resampling
from parbleu import significance as sig

pytestmark = requires_shared

RECORDS = list(records("sacrebleu/significance.jsonl")) if SHARED.is_dir() else []
PAIRED = [r for r in RECORDS if r["metric"] in ("paired_bs", "paired_ar") and "results" in r]
CI = [r for r in RECORDS if r["id"].startswith("sb.ci.")]


def _by_id(rid: str) -> dict[str, Any]:
    return next(r for r in RECORDS if r["id"] == rid)


def _as_golden(res: sig.Result) -> dict[str, Any]:
    return {
        "score": res.score,
        "p_value": res.p_value,
        "mean": None if res.mean is None else float(res.mean),
        "ci": None if res.ci is None else float(res.ci),
    }


def _metrics(rec: dict[str, Any], refs: list[list[str | None]]) -> dict[str, Any]:
    return {
        name: getattr(parbleu, name)(**opts, references=refs)
        for name, opts in rec["options"]["metrics"].items()
    }


def test_every_record_kind_is_present() -> None:
    assert len(PAIRED) >= 9 and len(CI) >= 6
    assert {r["metric"] for r in PAIRED} == {"paired_bs", "paired_ar"}


def test_numpy_draws_are_the_recorded_ones() -> None:
    """The compatibility path relies on numpy's default_rng giving SacreBLEU's indices."""
    rec = _by_id("sb.significance.rng_check")
    for n in (1000, 1002):
        idxs = np.random.default_rng(12345).choice(n, size=(1000, n), replace=True)
        assert idxs[0, :20].tolist() == rec[f"choice_N{n}_row0_first20"]
        assert idxs[999, -5:].tolist() == rec[f"choice_N{n}_row999_last5"]
        mask = np.random.default_rng(12345).integers(2, size=(1000, n), dtype=bool)
        assert mask[0, :20].astype(int).tolist() == rec[f"ar_mask_N{n}_row0_first20"]


@pytest.mark.parametrize("rec", PAIRED, ids=[r["id"] for r in PAIRED])
def test_paired_test_is_sacrebleus(rec: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", rec["options"]["SACREBLEU_SEED"])
    refs = load_refs(rec)
    named = [(name, list(read_lines(h))) for name, h in zip(rec["systems"], rec["hyp"])]
    opts = rec["options"]
    ps = sig.PairedTest(
        named,
        _metrics(rec, refs),
        None,
        test_type=opts["test_type"],
        n_samples=opts["n_samples_arg"],
        n_ar_confidence=opts["n_ar_confidence_arg"],
    )
    assert ps.n_samples == opts["n_samples_effective"]
    sigs, scores = ps()
    assert scores["System"] == rec["systems"]
    assert list(scores)[1:] == list(rec["results"])
    for name, expected in rec["results"].items():
        got = [_as_golden(r) for r in scores[name]]  # type: ignore[arg-type]
        assert got == expected, name
        assert sacre_version(sigs[name].format()) == rec["signatures"][name]
        assert sacre_version(sigs[name].format(short=True)) == rec["signatures_short"][name]


# AR with confidence intervals (n_ar_confidence) is PairedTest's option only.
PAIRED_API = [r for r in PAIRED if r["options"]["n_ar_confidence_arg"] <= 0]


@pytest.mark.parametrize("rec", PAIRED_API, ids=[r["id"] for r in PAIRED_API])
def test_structured_api_gives_sacrebleus_numbers(rec: dict[str, Any]) -> None:
    """paired_bootstrap / paired_ar with compat=True: the same numbers as dataclasses."""
    opts = rec["options"]
    refs = load_refs(rec)
    systems = {name: list(read_lines(h)) for name, h in zip(rec["systems"], rec["hyp"])}
    seed = int(opts["SACREBLEU_SEED"])
    for cls, mopts in opts["metrics"].items():
        metric = getattr(parbleu, cls)(**mopts)
        if opts["test_type"] == "bs":
            out = sig.paired_bootstrap(
                metric, systems, refs, n=opts["n_samples_effective"], seed=seed, compat=True
            )
        else:
            out = sig.paired_ar(
                metric, systems, refs, n=opts["n_samples_effective"], seed=seed, compat=True
            )
        expected = rec["results"][out[0].metric]
        assert [r.baseline_score for r in out] == [expected[0]["score"]] * len(out)
        for r, exp in zip(out, expected[1:]):
            assert r.compat and r.score == exp["score"] and r.p_value == exp["p_value"]
            if opts["test_type"] == "bs":
                assert r.ci is not None and r.baseline_ci is not None
                assert (r.ci.mean, r.ci.half_width) == (exp["mean"], exp["ci"])
                assert (r.baseline_ci.mean, r.baseline_ci.half_width) == (
                    expected[0]["mean"],
                    expected[0]["ci"],
                )
                assert r.ci.low <= r.ci.mean <= r.ci.high


def test_baseline_resample_scores_are_sacrebleus(monkeypatch: pytest.MonkeyPatch) -> None:
    """All 1000 bootstrap scores of the baseline, not only their mean."""
    rec = PAIRED[0]
    assert "baseline_bootstrap_scores_BLEU" in rec
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    bleu = parbleu.BLEU(tokenize="13a")
    rows = bleu.extract_stats(list(read_lines(rec["hyp"][0])), load_refs(rec))
    seed, values, kinds = _resampling._bootstrap_resample(rows, bleu, 1000)
    assert seed == "12345" and not kinds.any()
    assert values.tolist() == rec["baseline_bootstrap_scores_BLEU"]


@pytest.mark.parametrize("rec", CI, ids=[r["id"] for r in CI])
def test_corpus_score_confidence_is_sacrebleus(
    rec: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = rec["options"]["SACREBLEU_SEED"]
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    n = rec["options"]["n_bootstrap"]
    opts = {k: v for k, v in rec["options"].items() if k not in ("n_bootstrap", "SACREBLEU_SEED")}
    metric = getattr(parbleu, rec["metric"].upper())(**opts)
    hyps, refs = list(read_lines(rec["hyp"])), load_refs(rec)
    score = metric.corpus_score(hyps, refs, n_bootstrap=n)
    assert score.score == rec["score"]
    assert (score._mean, score._ci) == (rec["bootstrap_mean"], rec["bootstrap_ci"])
    signature = metric.get_signature()
    assert sacre_version(signature.format()) == rec["signature"]
    assert sacre_version(signature.format(short=True)) == rec["signature_short"]
    assert sacre_version(score.format(signature=signature.format())) == rec["formatted"]
    assert score.format(width=1) == rec["formatted_width1"]

    ci = sig.confidence_interval(metric, hyps, refs, n=n, seed=int(seed), compat=True)
    assert (ci.mean, ci.half_width, ci.score) == (
        rec["bootstrap_mean"],
        rec["bootstrap_ci"],
        rec["score"],
    )


def test_seed_zero_seeds_the_baseline_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """SACREBLEU_SEED=0: the baseline interval uses default_rng(0), the comparisons are unseeded."""
    rec = _by_id("sb.paired_bs.seed0_is_unseeded")
    monkeypatch.setenv("SACREBLEU_SEED", "0")
    refs = load_refs(rec)
    named = [(h, list(read_lines(h))) for h in rec["hyp"]]
    runs = []
    for _ in range(2):
        ps = sig.PairedTest(named, {"BLEU": parbleu.BLEU(references=refs)}, None, "bs", 100)
        sigs, scores = ps()
        assert sigs["BLEU"].format().startswith("nrefs:1|bs:100|seed:0|")
        runs.append([_as_golden(r) for r in scores["BLEU"]])  # type: ignore[arg-type]
    assert runs[0][0] == runs[1][0] == rec["run1"][0]
    assert runs[0][1]["score"] == rec["run1"][1]["score"]
    assert runs[0][1]["mean"] != runs[1][1]["mean"]  # unseeded, as SacreBLEU


SIG_BS = (
    [r for r in records("sacrebleu/signatures.jsonl") if "n_bootstrap=100" in r["api"]]
    if SHARED.is_dir()
    else []
)


@pytest.mark.parametrize("rec", SIG_BS, ids=[r["id"] for r in SIG_BS])
def test_bootstrap_signature_and_score_line(
    rec: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tiny corpora (2 segments, variable reference counts): the ``(μ = ... ± ...)`` lines."""
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    metric = getattr(parbleu, rec["metric"].upper())(**rec["options"])
    inp = rec["inputs_inline"]
    score = metric.corpus_score(inp["hyps"], inp["refs"], n_bootstrap=100)
    signature = metric.get_signature()
    assert sacre_version(signature.format()) == rec["signature"]
    assert sacre_version(score.format(signature=signature.format())) == rec["score_line"]
    line = score.format(width=1, signature=signature.format(short=True))
    assert sacre_version(line) == rec["score_line_short_w1"]
