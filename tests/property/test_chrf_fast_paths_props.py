"""chrF fast paths against SacreBLEU 2.6 on random input: per-segment word matching (no
corpus vocabulary), references shared between segments (the same object, or equal text),
batch sentence scores without statistics rows, and long segments (packed n-gram keys)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prop_strategies import CHRF_OPTIONS

import parbleu

sacre = pytest.importorskip("sacrebleu.metrics")

WORDS = ["the", "cat", "sat", ".", ",", "(a)", "dog!", "Σ", "über", "ÜBER", "x-y", "猫", "🙂"]
WORDS += ["", "  ", "a\tb", "\u2028", "ǅ", "İ", "ß", "x" * 40, "é" * 17 + "!"]
TOKEN = st.one_of(st.sampled_from(WORDS), st.text(st.characters(codec="utf-8"), max_size=12))
LINE = st.lists(TOKEN, max_size=12).map(" ".join)


@st.composite
def corpus(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    """Hypotheses and reference streams where references repeat: the same string object in
    several segments and streams, equal strings built separately, and None."""
    n = draw(st.integers(1, 8))
    pool = draw(st.lists(LINE, min_size=1, max_size=4))
    hyps = [draw(st.one_of(LINE, st.sampled_from(pool))) for _ in range(n)]

    def ref() -> str | None:
        kind = draw(st.integers(0, 3))
        if kind == 0:
            return draw(st.sampled_from(pool))  # shared object
        if kind == 1:
            return "".join(list(draw(st.sampled_from(pool))))  # equal text, another object
        return draw(LINE)

    streams: list[list[str | None]] = [[ref() for _ in range(n)]]
    for _ in range(draw(st.integers(0, 2))):
        streams.append([ref() if draw(st.integers(0, 4)) else None for _ in range(n)])
    return hyps, streams


def _sacre_refs(streams: list[list[str | None]], i: int) -> list[str]:
    return [s[i] for s in streams if s[i] is not None]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CHRF_OPTIONS, corpus())
def test_statistics_and_sentence_scores_equal_sacrebleu(
    opts: dict[str, Any], c: tuple[list[str], list[list[str | None]]]
) -> None:
    hyps, streams = c
    ours, theirs = parbleu.CHRF(**opts), sacre.CHRF(**opts)
    want = [theirs.sentence_score(h, _sacre_refs(streams, i)) for i, h in enumerate(hyps)]
    got = ours.sentence_scores(hyps, streams)
    assert got.tolist() == [w.score for w in want]
    stats = ours.extract_stats(hyps, streams).tolist()
    want_stats = [
        theirs._extract_corpus_statistics([h], [[r] for r in _sacre_refs(streams, i)])[0]
        for i, h in enumerate(hyps)
    ]
    assert stats == want_stats
    # Cached references give the same numbers.
    cached = parbleu.CHRF(**opts, references=streams)
    assert cached.sentence_scores(hyps).tolist() == got.tolist()
    assert cached.corpus_score(hyps, None).score == ours.corpus_score(hyps, streams).score


@pytest.mark.parametrize("word_order", [0, 2])
def test_long_segments_equal_sacrebleu(word_order: int) -> None:
    # Past the direct tables (and, at 70,000 characters, past 16-bit counts).
    base = "the cat sat on the mat, über (a) dog! 猫 x-y " * 1_600
    hyp = base[:70_000]
    refs = [base[5:69_000].replace("cat", "hat"), "a b", ""]
    ours, theirs = parbleu.CHRF(word_order=word_order), sacre.CHRF(word_order=word_order)
    assert ours.sentence_scores([hyp], [[r] for r in refs]).tolist() == [
        theirs.sentence_score(hyp, refs).score
    ]
    assert ours.extract_stats([hyp], [[r] for r in refs]).tolist() == [
        theirs._extract_corpus_statistics([hyp], [[r] for r in refs])[0]
    ]


def test_many_distinct_symbols_equal_sacrebleu() -> None:
    # Thousands of distinct characters: too many for packed 64-bit keys of order 6.
    hyp = "".join(chr(0x4E00 + (i * 7) % 5_000) for i in range(6_000))
    ref = "".join(chr(0x4E00 + (i * 11) % 5_000) for i in range(6_000))
    ours, theirs = parbleu.CHRF(whitespace=True), sacre.CHRF(whitespace=True)
    assert ours.sentence_scores([hyp], [[ref]]).tolist() == [
        theirs.sentence_score(hyp, [ref]).score
    ]
