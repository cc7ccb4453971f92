"""``parbleu.pairwise`` and ``mbr`` with ROUGE, against live rouge-score 0.1.2.

Element ``(i, j)`` of ``pairwise(H, R, m)`` is ``100 * RougeScorer([t]).score(R[j], H[i])[t]``'s
``m.pair_measure`` (F-measure by default), ``t`` the first rouge type of ``m``: with the default
measure, ``m.sentence_score(H[i], [R[j]]).score``, bit for bit.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import require
from rouge_support import summaries

require("rouge_score", "rouge")

from rouge_score import rouge_scorer  # noqa: E402

import parbleu  # noqa: E402
from parbleu.errors import InvalidOptionError  # noqa: E402
from parbleu.metrics.rouge import ROUGE  # noqa: E402

TYPES = ("rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum")
MEASURES = ("fmeasure", "precision", "recall")
#: Words with stemmable suffixes, digits, punctuation, non-ASCII letters and CJK.
WORDS = (
    "the cat sat on mat running runs ran runner quickly quick brown fox jumped jumps over lazy",
    "dog dogs generously generous connection connected 2024 3.5 U.S. isn't Café naïve 猫 犬",
)
_VOCAB = " ".join(WORDS).split()


def _text(rng: random.Random) -> str:
    sents = [
        " ".join(rng.choice(_VOCAB) for _ in range(rng.randint(0, 10))) + "."
        for _ in range(rng.randint(1, 3))
    ]
    return "\n".join(sents)


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = [_text(rng) for _ in range(n)]
    out[0] = ""  # empty texts: all zeros in rouge-score
    return out


def _oracle(
    hyps: list[str], refs: list[str], t: str, stem: bool, measure: str
) -> list[list[float]]:
    sc = rouge_scorer.RougeScorer([t], use_stemmer=stem)
    return [[100 * getattr(sc.score(r, h)[t], measure) for r in refs] for h in hyps]


@pytest.mark.parametrize("rouge_type", TYPES)
@pytest.mark.parametrize("stem", [False, True])
def test_pairwise_equals_rouge_score(rouge_type: str, stem: bool) -> None:
    hyps, refs = _texts(9, 1), _texts(7, 2)
    for measure in MEASURES:
        m = ROUGE((rouge_type, "rouge1"), use_stemmer=stem, pair_measure=measure)
        got = parbleu.pairwise(hyps, refs, m, workers=2)
        assert got.tolist() == _oracle(hyps, refs, rouge_type, stem, measure)
    # Against itself: every ordered pair (ROUGE declares no symmetric mode).
    m = ROUGE((rouge_type,), use_stemmer=stem)
    assert not m.symmetric_pairs
    got = parbleu.pairwise(hyps, None, m, workers=1)
    assert got.tolist() == _oracle(hyps, hyps, rouge_type, stem, "fmeasure")


def test_pairwise_on_wmt21_summaries_equals_rouge_score() -> None:
    preds, refs = summaries("en", n=30, per=3)
    others = [r[0] for r in refs]
    for t in ("rouge2", "rougeLsum"):
        got = parbleu.pairwise(preds, others, ROUGE((t,), use_stemmer=True), workers=2)
        assert got.tolist() == _oracle(preds, others, t, True, "fmeasure")


def test_rouge_by_name_is_rouge1_f_and_mbr_takes_it() -> None:
    hyps = _texts(8, 3)
    got = parbleu.pairwise(hyps, None, "rouge")
    assert got.tolist() == _oracle(hyps, hyps, "rouge1", False, "fmeasure")
    res = parbleu.mbr(hyps, "rouge")
    assert res.best_index == int(np.argmax(got.mean(axis=1))) and not res.approximate
    with pytest.raises(InvalidOptionError, match="not ROUGE"):
        parbleu.mbr(hyps, "rouge", aggregate=True)


def test_newline_applies_to_pair_tables() -> None:
    hyps, refs = _texts(5, 4), _texts(4, 5)
    flat = ROUGE(("rougeLsum",), newline="<n>")
    got = parbleu.pairwise(
        [h.replace("\n", "<n>") for h in hyps], [r.replace("\n", "<n>") for r in refs], flat
    )
    assert got.tolist() == _oracle(hyps, refs, "rougeLsum", False, "fmeasure")


def test_bad_pair_measure_is_refused() -> None:
    with pytest.raises(InvalidOptionError, match=r"pair_measure='f'.*'fmeasure', 'precision'"):
        ROUGE(pair_measure="f")


_words = st.lists(st.sampled_from([*_VOCAB, "\n", "Ünïcode", "ÉCOLE", "x"]), max_size=12)


@settings(max_examples=40, deadline=None)
@given(
    hyps=st.lists(_words.map(" ".join), min_size=1, max_size=4),
    refs=st.lists(_words.map(" ".join), min_size=1, max_size=4),
    rouge_type=st.sampled_from(TYPES),
    tokenize=st.sampled_from(("default", "unicode", "none")),
    stem=st.booleans(),
)
def test_pairwise_is_the_sentence_score_of_each_pair(
    hyps: list[str], refs: list[str], rouge_type: str, tokenize: str, stem: bool
) -> None:
    m = ROUGE((rouge_type,), use_stemmer=stem, tokenize=tokenize)
    got = parbleu.pairwise(hyps, refs, m, workers=1)
    want = [[m.sentence_score(h, [r]).score for r in refs] for h in hyps]
    assert got.tolist() == want
