"""Batch sentence scores equal SacreBLEU's sentence_score for every segment."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from scale_support import REF_A, REF_C, SYSTEMS, lines, requires_wmt21, sentences, system

import parbleu

METRICS = {
    "bleu-eff": (
        lambda: parbleu.BLEU(effective_order=True),
        lambda: sacrebleu.BLEU(effective_order=True),
    ),
    "bleu-floor-intl": (
        lambda: parbleu.BLEU(tokenize="intl", smooth_method="floor"),
        lambda: sacrebleu.BLEU(tokenize="intl", smooth_method="floor"),
    ),
    "chrf": (parbleu.CHRF, sacrebleu.CHRF),
    "chrf++": (lambda: parbleu.CHRF(word_order=2), lambda: sacrebleu.CHRF(word_order=2)),
    "ter": (parbleu.TER, sacrebleu.TER),
}


def sacre_scores(metric: object, hyps: list[str], streams: list[list[str]]) -> np.ndarray:
    return np.array(
        [
            metric.sentence_score(h, [s[i] for s in streams]).score  # type: ignore[attr-defined]
            for i, h in enumerate(hyps)
        ]
    )


@requires_wmt21
@pytest.mark.parametrize("name", sorted(METRICS))
def test_wmt21_two_references(name: str) -> None:
    ours, theirs = METRICS[name]
    n = 150 if name == "ter" else 400
    hyps = list(system("Online-W")[:n])
    streams = [list(lines(REF_A)[:n]), list(lines(REF_C)[:n])]
    got = ours().sentence_scores(hyps, streams, workers=2)
    want = sacre_scores(theirs(), hyps, streams)
    assert got.dtype == np.float64
    assert np.array_equal(got, want)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(sentences, sentences), min_size=1, max_size=12))
def test_generated_pairs(pairs: list[tuple[str, str]]) -> None:
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    for name, (ours, theirs) in METRICS.items():
        got = ours().sentence_scores(hyps, [refs], workers=1)
        assert np.array_equal(got, sacre_scores(theirs(), hyps, [refs])), name


@requires_wmt21
def test_thread_count_does_not_change_scores() -> None:
    hyps = list(system("Facebook-AI")) * 3  # above the serial threshold
    refs = list(lines(REF_A)) * 3
    for metric in (parbleu.BLEU(effective_order=True), parbleu.CHRF(word_order=2)):
        one = metric.sentence_scores(hyps, [refs], workers=1)
        two = metric.sentence_scores(hyps, [refs], workers=2)
        assert np.array_equal(one, two)


@requires_wmt21
def test_systems_against_repeated_references() -> None:
    # References repeated once per system are scored grouped, not in input order (and the
    # 1,000 pairs are cut into blocks of that order nowhere here, but results are put back in
    # place all the same): scores, statistics and corpus scores must be SacreBLEU's, in order.
    n = 250
    hyps = [h for name in SYSTEMS for h in system(name)[:n]]
    refs = list(lines(REF_A)[:n]) * len(SYSTEMS)
    for ours, theirs in (
        (parbleu.BLEU(effective_order=True), sacrebleu.BLEU(effective_order=True)),
        (
            parbleu.BLEU(tokenize="intl", lowercase=True),
            sacrebleu.BLEU(tokenize="intl", lowercase=True),
        ),
    ):
        got = ours.sentence_scores(hyps, [refs], workers=2)
        assert np.array_equal(got, sacre_scores(theirs, hyps, [refs]))
        want = theirs.corpus_score(hyps, [refs])
        corpus = ours.corpus_score(hyps, [refs], workers=2)
        assert (corpus.score, corpus.counts, corpus.totals) == (
            want.score,
            want.counts,
            want.totals,
        )
