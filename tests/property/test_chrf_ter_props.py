"""Invariants of chrF and TER statistics (design.md): rows add, a sentence is a one-segment
corpus, and the thread count never changes a result."""

from __future__ import annotations

import functools
from typing import Any, Union

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prop_strategies import CHRF_OPTIONS

import parbleu
from helpers import SHARED, requires_shared

WORDS = ["the", "cat", "sat", "on", "mat", ".", ",", "(a)", "dog!", "Σ", "über", "1,000", "x-y"]
WORDS += ["猫", "The", "", "  ", "a\tb"]

sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=10).map(" ".join)


@st.composite
def corpus(draw: st.DrawFn, max_refs: int = 3) -> tuple[list[str], list[list[str]]]:
    n = draw(st.integers(1, 10))
    n_refs = draw(st.integers(1, max_refs))
    hyps = [draw(sentence) for _ in range(n)]
    refs = [[draw(sentence) for _ in range(n)] for _ in range(n_refs)]
    return hyps, refs


TER_OPTIONS = st.fixed_dictionaries(
    {
        "normalized": st.booleans(),
        "no_punct": st.booleans(),
        "asian_support": st.booleans(),
        "case_sensitive": st.booleans(),
    }
)

Metric = Union[parbleu.CHRF, parbleu.TER]


def _metric(draw_opts: dict[str, Any], which: str) -> Metric:
    return parbleu.CHRF(**draw_opts) if which == "chrf" else parbleu.TER(**draw_opts)


def _split_and_merge(m: Metric, hyps: list[str], refs: list[list[str]], cut: int) -> parbleu.Score:
    acc_a, acc_b = m.accumulator(), m.accumulator()
    if cut:
        acc_a.update(hyps[:cut], [r[:cut] for r in refs])
    if cut < len(hyps):
        acc_b.update(hyps[cut:], [r[cut:] for r in refs])
    return acc_a.merge(acc_b).result()


def _check_merge_of_any_split(
    m: Metric, c: tuple[list[str], list[list[str]]], data: st.DataObject
) -> tuple[parbleu.Score, parbleu.Score]:
    """Cut the corpus anywhere, accumulate the parts apart and merge them: the whole's score."""
    hyps, refs = c
    whole = m.corpus_score(hyps, refs)
    merged = _split_and_merge(m, hyps, refs, data.draw(st.integers(0, len(hyps))))
    assert merged.score == whole.score
    return whole, merged


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus(), CHRF_OPTIONS, st.data())
def test_chrf_merge_of_any_split_equals_whole(
    c: tuple[list[str], list[list[str]]], opts: dict[str, Any], data: st.DataObject
) -> None:
    m = parbleu.CHRF(**opts)
    whole, merged = _check_merge_of_any_split(m, c, data)
    assert merged.name == whole.name
    # Rows stacked in any order sum to the same statistics and score.
    hyps, refs = c
    stats = m.extract_stats(hyps, refs)
    perm = data.draw(st.permutations(range(len(hyps))))
    assert m.score_from_stats(stats[list(perm)]).score == whole.score


# TER rows are floats (mean reference length). With 1 or 2 references every value is a
# multiple of 1/2, so sums are exact in any order; with 3 they may differ in the last bit.
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus(max_refs=2), TER_OPTIONS, st.data())
def test_ter_merge_of_any_split_equals_whole(
    c: tuple[list[str], list[list[str]]], opts: dict[str, Any], data: st.DataObject
) -> None:
    whole, merged = _check_merge_of_any_split(parbleu.TER(**opts), c, data)
    assert (merged.num_edits, merged.ref_length) == (whole.num_edits, whole.ref_length)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus(), st.data())
def test_ter_merge_three_refs_close(
    c: tuple[list[str], list[list[str]]], data: st.DataObject
) -> None:
    hyps, refs = c
    m = parbleu.TER()
    whole = m.corpus_score(hyps, refs)
    merged = _split_and_merge(m, hyps, refs, data.draw(st.integers(0, len(hyps))))
    assert merged.num_edits == whole.num_edits
    assert merged.score == pytest.approx(whole.score, rel=1e-12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus(), st.sampled_from(["chrf", "ter"]), CHRF_OPTIONS, TER_OPTIONS)
def test_sentence_is_one_segment_corpus(
    c: tuple[list[str], list[list[str]]],
    which: str,
    chrf_opts: dict[str, Any],
    ter_opts: dict[str, Any],
) -> None:
    hyps, refs = c
    m = _metric(chrf_opts if which == "chrf" else ter_opts, which)
    batch = m.sentence_scores(hyps, refs)
    for i, h in enumerate(hyps):
        seg_refs = [r[i] for r in refs]
        sent = m.sentence_score(h, seg_refs)
        corp = m.corpus_score([h], [[x] for x in seg_refs])
        assert sent.score == corp.score == batch[i]
        assert str(sent) == str(corp)
    compat: Any
    if which == "chrf":
        o = dict(chrf_opts)
        o["remove_whitespace"] = not o.pop("whitespace")
        o.pop("lowercase")
        if not chrf_opts["lowercase"]:
            compat = parbleu.sentence_chrf(hyps[0], [r[0] for r in refs], **o)
            assert compat.score == batch[0]
    else:
        compat = parbleu.sentence_ter(hyps[0], [r[0] for r in refs], **ter_opts)
        assert compat.score == batch[0]


# --- threads --------------------------------------------------------------------------------
WMT = SHARED / "data" / "wmt21"


@functools.lru_cache(maxsize=1)
def _big_corpus() -> tuple[list[str], list[list[str]]]:
    """3006 segments (three en-de systems against refs A and C): above the serial threshold."""

    def lines(p: str) -> list[str]:
        return (WMT / p).read_bytes().decode("utf-8").split("\n")[:-1]

    hyps: list[str] = []
    for sys in ("Online-W", "Facebook-AI", "UEdin"):
        hyps += lines(f"system-outputs/newstest2021.en-de.hyp.{sys}.de")
    refs = [lines(f"references/newstest2021.en-de.ref.{x}.de") * 3 for x in "AC"]
    return hyps, refs


@requires_shared
@pytest.mark.parametrize(
    "m",
    [
        parbleu.CHRF(),
        parbleu.CHRF(word_order=2, lowercase=True, beta=1),
        parbleu.CHRF(char_order=4, whitespace=True, eps_smoothing=True),
        parbleu.TER(),
        parbleu.TER(normalized=True, no_punct=True),
    ],
    ids=["chrf", "chrf++", "chrf-ws-eps", "ter", "ter-norm"],
)
def test_workers_do_not_change_results(m: Metric) -> None:
    hyps, refs = _big_corpus()
    from parbleu import _workers

    assert len(hyps) >= _workers.SERIAL_BELOW
    one = m.extract_stats(hyps, refs, workers=1)
    two = m.extract_stats(hyps, refs, workers=2)
    assert one.dtype == two.dtype
    assert np.array_equal(one, two)
    s1 = m.corpus_score(hyps, refs, workers=1)
    s2 = m.corpus_score(hyps, refs, workers=2)
    assert s1.score == s2.score
    b1 = m.sentence_scores(hyps, refs, workers=1)
    b2 = m.sentence_scores(hyps, refs, workers=2)
    assert np.array_equal(b1, b2)
    # Cached references give the same rows.
    cached = type(m)(**_options(m), references=refs)
    assert np.array_equal(cached.extract_stats(hyps, workers=2), one)


def _options(m: Metric) -> dict[str, Any]:
    if isinstance(m, parbleu.CHRF):
        keys = ("char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing")
    else:
        keys = ("normalized", "no_punct", "asian_support", "case_sensitive")
    return {k: getattr(m, k) for k in keys}


def test_statistics_key_separates_options() -> None:
    assert parbleu.CHRF().stats_key() != parbleu.CHRF(beta=3).stats_key()
    assert parbleu.CHRF().stats_key() != parbleu.CHRF(eps_smoothing=True).stats_key()
    assert parbleu.TER().stats_key() != parbleu.TER(normalized=True).stats_key()
    a = parbleu.CHRF().accumulator().update(["a b"], [["a b"]])
    b = parbleu.CHRF(beta=1).accumulator().update(["a b"], [["a b"]])
    with pytest.raises(parbleu.IncompatibleStatisticsError):
        a.merge(b)


def test_invalid_options_are_refused() -> None:
    with pytest.raises(parbleu.InvalidOptionError):
        parbleu.CHRF(char_order=0, word_order=0)
    with pytest.raises(parbleu.InvalidOptionError):
        parbleu.CHRF(char_order=-1)
    with pytest.raises(parbleu.InvalidOptionError):
        parbleu.CHRF(beta=float("inf"))
    with pytest.raises(parbleu.InvalidOptionError):
        parbleu.CHRF(beta="2")  # type: ignore[arg-type]


@pytest.mark.parametrize("m", [parbleu.CHRF(), parbleu.TER()], ids=["chrf", "ter"])
def test_input_validation_is_shared(m: Metric) -> None:
    with pytest.raises(parbleu.InputTypeError):
        m.corpus_score("a b", [["a b"]])  # type: ignore[arg-type]
    with pytest.raises(parbleu.LengthMismatchError):
        m.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(parbleu.InputTypeError):
        m.corpus_score(["a"], [[None]])
    with pytest.raises(parbleu.InputTypeError):
        m.sentence_score("a", "a")  # type: ignore[arg-type]
    with pytest.raises(parbleu.StatisticsError):
        m.score_from_stats(np.zeros((2, m.stats_width + 1)))
