"""Invariants of the additive statistics (design.md), checked on generated and real data."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parbleu
from helpers import SHARED, read_lines
from parbleu import _workers
from parbleu.tokenizers import RUST_TOKENIZERS

WORDS = ["the", "cat", "sat", "on", "mat", ".", ",", "a", "dog", "Σ", "über", "1,000", "x-y", "猫"]

sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12).map(" ".join)


@st.composite
def corpus(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    n = draw(st.integers(1, 12))
    n_refs = draw(st.integers(1, 3))
    hyps = [draw(sentence) for _ in range(n)]
    refs = [[draw(sentence) for _ in range(n)] for _ in range(n_refs)]
    return hyps, refs


OPTIONS = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(RUST_TOKENIZERS),
        "lowercase": st.booleans(),
        "smooth_method": st.sampled_from(["none", "floor", "add-k", "exp"]),
        "effective_order": st.booleans(),
        "max_ngram_order": st.integers(1, 6),
    }
)


@settings(max_examples=150, deadline=None)
@given(corpus(), OPTIONS, st.data())
def test_merge_of_any_split_equals_whole(
    c: tuple[list[str], list[list[str]]], opts: dict[str, object], data: st.DataObject
) -> None:
    hyps, refs = c
    m = parbleu.BLEU(**opts)  # type: ignore[arg-type]
    whole = m.corpus_score(hyps, refs)
    cut = data.draw(st.integers(0, len(hyps)))
    acc_a, acc_b = m.accumulator(), m.accumulator()
    if cut:
        acc_a.update(hyps[:cut], [r[:cut] for r in refs])
    if cut < len(hyps):
        acc_b.update(hyps[cut:], [r[cut:] for r in refs])
    merged = acc_a.merge(acc_b).result()
    assert merged.score == whole.score
    assert merged.counts == whole.counts and merged.totals == whole.totals
    assert (merged.sys_len, merged.ref_len) == (whole.sys_len, whole.ref_len)


@settings(max_examples=150, deadline=None)
@given(corpus(), OPTIONS)
def test_sentence_score_is_one_segment_corpus(
    c: tuple[list[str], list[list[str]]], opts: dict[str, object]
) -> None:
    hyps, refs = c
    m = parbleu.BLEU(**opts)  # type: ignore[arg-type]
    batch = m.sentence_scores(hyps, refs)
    for i, h in enumerate(hyps):
        seg_refs = [r[i] for r in refs]
        one = m.corpus_score([h], [[r] for r in seg_refs])
        assert m.sentence_score(h, seg_refs).score == one.score
        assert batch[i] == one.score


def test_score_from_stats_equals_corpus_score_and_does_not_mutate() -> None:
    hyps = ["the cat sat on the mat", "a dog"]
    refs = [["the cat sat on a mat", "a dog barked"]]
    m = parbleu.BLEU(smooth_method="add-k")
    stats = m.extract_stats(hyps, refs)
    before = stats.copy()
    assert m.score_from_stats(stats).score == m.corpus_score(hyps, refs).score
    assert m.score_from_stats(stats.sum(axis=0)).score == m.corpus_score(hyps, refs).score
    assert (stats == before).all()


def test_merge_refuses_different_extraction_options() -> None:
    a = parbleu.BLEU(tokenize="13a").accumulator()
    b = parbleu.BLEU(tokenize="intl").accumulator()
    with pytest.raises(parbleu.IncompatibleStatisticsError, match="different options"):
        a.merge(b)
    # Finalize-only options (smoothing) do not change the statistics: merging is allowed.
    c = parbleu.BLEU(tokenize="13a", smooth_method="floor").accumulator()
    a.merge(c)
    with pytest.raises(parbleu.IncompatibleStatisticsError):
        a.merge_dict(parbleu.BLEU(lowercase=True).accumulator().to_dict())


def _big_corpus() -> tuple[list[str], list[list[str]]]:
    base = "data/wmt21/references/newstest2021.en-de.ref.A.de"
    if (SHARED / base).exists():
        ref_a = list(read_lines(base))
        ref_c = list(read_lines("data/wmt21/references/newstest2021.en-de.ref.C.de"))
        hyp = list(read_lines("data/wmt21/system-outputs/newstest2021.en-de.hyp.Online-W.de"))
    else:  # pragma: no cover - synthetic fallback without the data
        rng = random.Random(0)
        mk = lambda: " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 30)))  # noqa: E731
        ref_a, ref_c, hyp = ([mk() for _ in range(1000)] for _ in range(3))
    k = 5  # > several chunks of work per thread
    return hyp * k, [ref_a * k, ref_c * k]


@pytest.mark.parametrize("tokenize", ["13a", "intl", "char"])
def test_identical_results_for_any_thread_count(tokenize: str) -> None:
    hyps, refs = _big_corpus()
    assert len(hyps) > _workers.SERIAL_BELOW
    m = parbleu.BLEU(tokenize=tokenize, effective_order=True)
    s1 = m.extract_stats(hyps, refs, workers=1)
    s2 = m.extract_stats(hyps, refs, workers=2)
    sall = m.extract_stats(hyps, refs, workers=-1)
    assert np.array_equal(s1, s2) and np.array_equal(s1, sall)
    assert np.array_equal(
        m.sentence_scores(hyps, refs, workers=1), m.sentence_scores(hyps, refs, workers=2)
    )
    assert (
        m.corpus_score(hyps, refs, workers=1).score == m.corpus_score(hyps, refs, workers=2).score
    )


def test_workers_env_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARBLEU_WORKERS", "1")
    assert _workers.resolve_workers(None, 10**6) == 1
    monkeypatch.setenv("PARBLEU_WORKERS", "zwei")
    with pytest.raises(parbleu.InvalidOptionError, match="PARBLEU_WORKERS"):
        _workers.resolve_workers(None, 10**6)
    assert _workers.resolve_workers(2, 10) == 1  # small input stays serial
