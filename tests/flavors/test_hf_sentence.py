"""Sentence-level HF BLEU: ``tfnmt.hf_sentence_bleu`` (per call) and ``hf_sentence_bleus``
(batch) give exactly ``hf_bleu([p], [refs])``, which the golden records check against the
original (tests/flavors/test_tfnmt_t2t_golden.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parbleu.errors import FlavorError
from parbleu.flavors import tfnmt

# Punctuation, digits, non-ASCII and non-space whitespace exercise 13a and the token split.
WORDS = ["the", "cat", "sat", "on", "a", "mat", "Hello,", "world!", "2022.", "it's", "Ä", ""]
WORDS += ["1,000.5", "«q»", "x\u3000y", "a\tb", "-", "U.S.", "&quot;", "e\u0301"]
sentence = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(sentence, st.lists(sentence, min_size=1, max_size=3)), max_size=6),
    st.integers(1, 5),
    st.booleans(),
)
def test_equal_to_hf_bleu_of_one_sentence(
    pairs: list[tuple[str, list[str]]], max_order: int, smooth: bool
) -> None:
    want = [tfnmt.hf_bleu([p], [r], max_order=max_order, smooth=smooth) for p, r in pairs]
    got = [tfnmt.hf_sentence_bleu(p, r, max_order, smooth) for p, r in pairs]
    assert got == want
    for workers in (1, 2):
        batch = tfnmt.hf_sentence_bleus(
            [p for p, _ in pairs], [r for _, r in pairs], max_order, smooth, workers=workers
        )
        assert batch == want


@pytest.mark.parametrize("workers", [1, 2])
def test_log_sum_is_the_interpreters_sum(workers: int) -> None:
    # Found by hypothesis on CPython 3.13, whose sum() of floats is compensated: the core added
    # the log precisions plainly and differed from hf_bleu (Python's sum()) in the last bit.
    pred, refs = "the U.S.", ["the"]
    want = tfnmt.hf_bleu([pred], [refs], max_order=5, smooth=True)
    assert tfnmt.hf_sentence_bleu(pred, refs, 5, True) == want
    assert tfnmt.hf_sentence_bleus([pred], [refs], 5, True, workers=workers) == [want]


def test_reference_forms_and_errors() -> None:
    assert tfnmt.hf_sentence_bleu("a cat", "a cat") == tfnmt.hf_bleu(["a cat"], ["a cat"])
    assert tfnmt.hf_sentence_bleus(["a cat", "a dog"], ["a cat", "a dog"]) == [
        tfnmt.hf_bleu(["a cat"], ["a cat"]),
        tfnmt.hf_bleu(["a dog"], ["a dog"]),
    ]
    assert tfnmt.hf_sentence_bleus([], []) == []
    with pytest.raises(FlavorError) as e:
        tfnmt.hf_sentence_bleu("a", [])
    assert isinstance(e.value, ValueError)
    with pytest.raises(FlavorError):
        tfnmt.hf_sentence_bleus(["a", "b"], [["a"], []])
    with pytest.raises(FlavorError) as e:
        tfnmt.hf_sentence_bleu("a", ["a"], max_order=0)
    assert isinstance(e.value, ValueError)
