"""Every option set a metric accepts gives a score in its range (issue 34).

SacreBLEU scores ``BLEU(smooth_method="floor", smooth_value=1e6)`` as 1495: a floor above a
zero count's total makes a precision above 100%. parbleu refuses such options; here every
*accepted* option set of BLEU, chrF, TER and ROUGE, on any text, gives a corpus score and
sentence scores in range: BLEU, chrF and ROUGE in [0, 100]; TER >= 0 (edits per reference
word: above 100 when the hypothesis is much longer).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parbleu import BLEU, CHRF, TER
from parbleu._options import MAX_FLOOR_VALUE, MAX_SMOOTH_VALUE
from parbleu.errors import InvalidOptionError

WORDS = st.sampled_from(["a", "b", "c", "the", "cat", ".", ",", "é", "中", "1", "!"])
SENT = st.lists(WORDS, max_size=8).map(" ".join)
SMOOTH_VALUE = st.one_of(
    st.none(),
    st.floats(0, 1e12, allow_nan=False),
    st.integers(0, 10**9),
    st.sampled_from([0, 1, MAX_FLOOR_VALUE, 2, 1e6, MAX_SMOOTH_VALUE]),
)


@st.composite
def corpus(draw: Any) -> tuple[list[str], list[list[str]]]:
    n = draw(st.integers(1, 4))
    hyps = draw(st.lists(SENT, min_size=n, max_size=n))
    refs = draw(st.lists(st.lists(SENT, min_size=n, max_size=n), min_size=1, max_size=2))
    return hyps, refs


def _built(make: Any) -> Any:
    try:
        return make()
    except InvalidOptionError:
        return None


def _in_range(score: float, upper: float = 100.0) -> bool:
    return math.isfinite(score) and 0.0 <= score <= upper + 1e-9


@settings(max_examples=400, deadline=None)
@given(
    method=st.sampled_from(["none", "floor", "add-k", "exp"]),
    value=SMOOTH_VALUE,
    order=st.integers(1, 6),
    effective=st.booleans(),
    lowercase=st.booleans(),
    data=corpus(),
)
def test_accepted_bleu_options_score_in_range(
    method: str, value: Any, order: int, effective: bool, lowercase: bool, data: Any
) -> None:
    def make() -> BLEU:
        return BLEU(
            smooth_method=method,
            smooth_value=value,
            max_ngram_order=order,
            effective_order=effective,
            lowercase=lowercase,
        )

    bleu = _built(make)
    if bleu is None:
        # Refused only where a score could leave the range (or the value is malformed).
        assert value is not None
        assert (method == "floor" and value > MAX_FLOOR_VALUE) or value > MAX_SMOOTH_VALUE
        return
    hyps, refs = data
    assert _in_range(bleu.corpus_score(hyps, refs).score)
    for hyp, *seg_refs in zip(hyps, *refs):
        assert _in_range(bleu.sentence_score(hyp, list(seg_refs)).score)


@settings(max_examples=300, deadline=None)
@given(
    char_order=st.integers(0, 8),
    word_order=st.integers(0, 4),
    beta=st.one_of(st.integers(-5, 50), st.floats(-1e100, 1e100, allow_nan=False)),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans()),
    data=corpus(),
)
def test_accepted_chrf_options_score_in_range(
    char_order: int, word_order: int, beta: float, flags: tuple[bool, bool, bool], data: Any
) -> None:
    lowercase, whitespace, eps = flags
    chrf = _built(
        lambda: CHRF(
            char_order=char_order,
            word_order=word_order,
            beta=beta,
            lowercase=lowercase,
            whitespace=whitespace,
            eps_smoothing=eps,
        )
    )
    if chrf is None:
        return
    hyps, refs = data
    assert _in_range(chrf.corpus_score(hyps, refs).score)
    for hyp, *seg_refs in zip(hyps, *refs):
        assert _in_range(chrf.sentence_score(hyp, list(seg_refs)).score)


@settings(max_examples=200, deadline=None)
@given(flags=st.tuples(*[st.booleans()] * 4), data=corpus())
def test_accepted_ter_options_score_non_negative(
    flags: tuple[bool, bool, bool, bool], data: Any
) -> None:
    normalized, no_punct, asian, case = flags
    ter = TER(normalized=normalized, no_punct=no_punct, asian_support=asian, case_sensitive=case)
    hyps, refs = data
    score = ter.corpus_score(hyps, refs).score
    assert math.isfinite(score) and score >= 0


@settings(max_examples=150, deadline=None)
@given(
    types=st.lists(
        st.sampled_from(["rouge1", "rouge2", "rouge5", "rougeL", "rougeLsum"]),
        min_size=1,
        max_size=3,
        unique=True,
    ),
    stem=st.booleans(),
    data=corpus(),
)
def test_accepted_rouge_options_score_in_range(types: list[str], stem: bool, data: Any) -> None:
    pytest.importorskip("parbleu.metrics.rouge")
    from parbleu.metrics.rouge import ROUGE

    rouge = _built(lambda: ROUGE(rouge_types=types, use_stemmer=stem))
    if rouge is None:
        return
    hyps, refs = data
    assert _in_range(rouge.corpus_score(hyps, refs).score)


@pytest.mark.parametrize("value", [1.0000001, 2, 1e6])
def test_floor_above_one_is_refused_with_the_reason(value: float) -> None:
    # SacreBLEU: BLEU(smooth_method="floor", smooth_value=1e6) scores 1495.
    with pytest.raises(InvalidOptionError, match="smooth_method='floor' takes a value from 0 to 1"):
        BLEU(smooth_method="floor", smooth_value=value)


def test_floor_of_one_and_large_add_k_stay_in_range() -> None:
    hyps, refs = ["a b c d"], [["a x y z"]]
    assert 0 < BLEU(smooth_method="floor", smooth_value=1).corpus_score(hyps, refs).score <= 100
    assert BLEU(smooth_method="add-k", smooth_value=1e6).corpus_score(hyps, refs).score <= 100
