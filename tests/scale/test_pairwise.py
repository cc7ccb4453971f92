"""Pairwise matrices equal SacreBLEU's per-pair sentence scores; MBR and aggregation."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from scale_support import REF_A, lines, requires_wmt21, sentences, system

import parbleu
from parbleu.pairwise import resolve_metric

NAMED = {
    "bleu": lambda: sacrebleu.BLEU(effective_order=True),  # sentence_bleu's defaults
    "chrf": sacrebleu.CHRF,
    "chrf++": lambda: sacrebleu.CHRF(word_order=2),
    "ter": sacrebleu.TER,
}

OBJECTS = [
    (
        lambda: parbleu.BLEU(tokenize="intl", lowercase=True, smooth_method="add-k"),
        lambda: sacrebleu.BLEU(tokenize="intl", lowercase=True, smooth_method="add-k"),
    ),
    (
        lambda: parbleu.BLEU(max_ngram_order=2, smooth_method="none"),
        lambda: sacrebleu.BLEU(max_ngram_order=2, smooth_method="none"),
    ),
    (
        lambda: parbleu.CHRF(char_order=4, word_order=1, beta=1, lowercase=True, whitespace=True),
        lambda: sacrebleu.CHRF(char_order=4, word_order=1, beta=1, lowercase=True, whitespace=True),
    ),
    (lambda: parbleu.CHRF(eps_smoothing=True), lambda: sacrebleu.CHRF(eps_smoothing=True)),
    (
        lambda: parbleu.TER(normalized=True, case_sensitive=True),
        lambda: sacrebleu.TER(normalized=True, case_sensitive=True),
    ),
]


def sacre_matrix(metric: object, hyps: list[str], refs: list[str]) -> np.ndarray:
    score = metric.sentence_score  # type: ignore[attr-defined]
    return np.array([[score(h, [r]).score for r in refs] for h in hyps]).reshape(
        len(hyps), len(refs)
    )


@requires_wmt21
@pytest.mark.parametrize("name", sorted(NAMED))
def test_wmt21_systems(name: str) -> None:
    n = 12 if name == "ter" else 30
    hyps = [system(s)[i] for s in ("Online-W", "Facebook-AI") for i in range(n)]
    refs = [*list(lines(REF_A)[: n // 2]), ""]
    want = sacre_matrix(NAMED[name](), hyps, refs)
    got = parbleu.pairwise(hyps, refs, name, workers=2)
    assert got.shape == (len(hyps), len(refs)) and got.dtype == np.float64
    assert np.array_equal(got, want)
    # symmetric: a list against itself
    sym = parbleu.pairwise(hyps, None, name, workers=2)
    assert np.array_equal(sym, sacre_matrix(NAMED[name](), hyps, hyps))
    assert np.array_equal(parbleu.pairwise(hyps, hyps, name), sym)


@requires_wmt21
@pytest.mark.parametrize("k", range(len(OBJECTS)))
def test_metric_objects(k: int) -> None:
    ours, theirs = OBJECTS[k]
    hyps = list(system("VolcTrans-GLAT")[:10])
    refs = list(lines(REF_A)[:8])
    assert np.array_equal(parbleu.pairwise(hyps, refs, ours()), sacre_matrix(theirs(), hyps, refs))
    assert np.array_equal(parbleu.pairwise(hyps, None, ours()), sacre_matrix(theirs(), hyps, hyps))


@settings(max_examples=20, deadline=None)
@given(st.lists(sentences, min_size=1, max_size=7), st.lists(sentences, min_size=0, max_size=5))
def test_generated(hyps: list[str], refs: list[str]) -> None:
    for name, theirs in NAMED.items():
        assert np.array_equal(
            parbleu.pairwise(hyps, refs, name), sacre_matrix(theirs(), hyps, refs)
        )
        assert np.array_equal(
            parbleu.pairwise(hyps, None, name), sacre_matrix(theirs(), hyps, hyps)
        )


def test_blocks_and_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    # parbleu.pairwise is the function; the module is in sys.modules under the same name
    pw = sys.modules["parbleu.pairwise"]
    monkeypatch.setattr(pw, "_BLOCK_PAIRS", 7)
    hyps = [f"w{i % 5} x{i % 3} the cat {i}" for i in range(23)]
    refs = hyps[:9]
    calls: list[tuple[int, int]] = []
    for name in ("bleu", "chrf"):
        calls.clear()
        got = parbleu.pairwise(hyps, None, name, progress=lambda d, t: calls.append((d, t)))
        assert np.array_equal(got, sacre_matrix(NAMED[name](), hyps, hyps))
        assert len(calls) > 2 and calls[-1] == (23 * 23, 23 * 23)
        assert [d for d, _ in calls] == sorted(d for d, _ in calls)
        rect = parbleu.pairwise(hyps, refs, name, progress=lambda d, t: calls.append((d, t)))
        assert np.array_equal(rect, got[:, :9])


def test_inputs() -> None:
    assert parbleu.pairwise([], ["a"]).shape == (0, 1)
    assert parbleu.pairwise(["a"], []).shape == (1, 0)
    with pytest.raises(parbleu.InputTypeError):
        parbleu.pairwise("a b c", ["a"])
    with pytest.raises(parbleu.InputTypeError):
        parbleu.pairwise(["a"], [["a", "b"]])  # type: ignore[list-item]
    with pytest.raises(parbleu.InvalidOptionError):
        parbleu.pairwise(["a"], ["a"], "meteor")  # type: ignore[arg-type]
    assert resolve_metric("bleu").effective_order is True  # type: ignore[union-attr]


def test_mbr_selects_best_expected_utility() -> None:
    cands = ["the cat sat on the mat", "a cat sat on a mat", "the cat sat", "dogs bark", ""]
    for name in ("bleu", "chrf", "ter"):
        res = parbleu.mbr(cands, name)
        matrix = parbleu.pairwise(cands, None, name)
        assert np.array_equal(res.utilities, matrix.mean(axis=1))
        pick = np.argmin if name == "ter" else np.argmax
        assert res.best_index == int(pick(res.utilities))
        assert res.candidate == cands[res.best_index] and res.approximate is False
    refs = ["the cat sat on the mat", "dogs bark loudly"]
    res = parbleu.mbr(cands, "chrf", refs, weights=[3, 1])
    matrix = parbleu.pairwise(cands, refs, "chrf")
    assert np.allclose(res.utilities, matrix @ np.array([0.75, 0.25]), rtol=0, atol=1e-12)
    with pytest.raises(parbleu.InvalidOptionError):
        parbleu.mbr(cands, "chrf", refs, weights=[1])
    with pytest.raises(parbleu.InvalidOptionError):
        parbleu.mbr(cands, "ter", aggregate=True)
    with pytest.raises(parbleu.EmptyInputError):
        parbleu.mbr([], "chrf")


# --- reference aggregation: its definition on cases computed by hand -----------------------


def test_aggregate_bleu_by_hand() -> None:
    # Expected counts of refs "a b" and "a c": a 1, b .5, c .5; "a b" .5, "a c" .5; length 2.
    # h = "a b": p1 = (1 + .5) / 2 = 75 %, p2 = .5 / 1 = 50 %, BP = 1.
    bleu = parbleu.BLEU(tokenize="none", max_ngram_order=2, smooth_method="none")
    res = parbleu.mbr(["a b", "a c"], bleu, ["a b", "a c"], aggregate=True)
    want = math.exp((math.log(75.0) + math.log(50.0)) / 2)
    assert res.utilities[0] == pytest.approx(want, rel=1e-15)
    assert res.approximate is True
    # Weights 3:1 -> b .75, "a b" .75: p1 = 87.5 %, p2 = 75 %; "a c": p1 = 62.5 %, p2 = 25 %.
    res = parbleu.mbr(["a b", "a c"], bleu, ["a b", "a c"], weights=[3, 1], aggregate=True)
    assert res.utilities[0] == pytest.approx(math.sqrt(87.5 * 75.0), rel=1e-14)
    assert res.utilities[1] == pytest.approx(math.sqrt(62.5 * 25.0), rel=1e-14)
    assert res.best_index == 0
    # Mean length 3 > 2: BP = exp(1 - 3 / 2).
    res = parbleu.mbr(["a b"], bleu, ["a b", "a b c d"], aggregate=True)
    # counts: a 1, b 1, c .5, d .5; "a b" 1: p1 = 100 %, p2 = 100 %
    assert res.utilities[0] == pytest.approx(100 * math.exp(1 - 3 / 2), rel=1e-14)


def test_aggregate_chrf_by_hand() -> None:
    chrf = parbleu.CHRF(char_order=1, word_order=0, beta=1)
    # Expected character counts of "ab", "ac": a 1, b .5, c .5 (total 2); h = "ab" matches 1.5
    # of 2: P = R = .75, F1 = 75.
    res = parbleu.mbr(["ab", "zz"], chrf, ["ab", "ac"], aggregate=True)
    assert res.utilities[0] == pytest.approx(75.0, rel=1e-15)
    assert res.utilities[1] == 0.0
    res = parbleu.mbr(["ab"], chrf, ["ab", "ac"], weights=[3, 1], aggregate=True)
    assert res.utilities[0] == pytest.approx(87.5, rel=1e-15)
    # Different lengths: refs "a", "abcd" -> counts a 1, b c d .5, total 2.5; h "ab": match 1.5,
    # P = 1.5 / 2, R = 1.5 / 2.5, F1 = 2PR / (P + R).
    res = parbleu.mbr(["ab"], chrf, ["a", "abcd"], aggregate=True)
    p, r = 0.75, 0.6
    assert res.utilities[0] == pytest.approx(100 * 2 * p * r / (p + r), rel=1e-14)


@requires_wmt21
def test_aggregate_with_one_reference_is_the_sentence_score() -> None:
    cands = list(system("Online-B")[:20])
    ref = lines(REF_A)[3]
    for name in ("bleu", "chrf", "chrf++"):
        res = parbleu.mbr(cands, name, [ref], aggregate=True)
        assert np.array_equal(res.utilities, parbleu.pairwise(cands, [ref], name)[:, 0])
