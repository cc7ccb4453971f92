"""Bad input to ``parbleu.flavors.nltk.meteor_score``: one clear error (NLTK's type where NLTK
raises), never a traceback from the core, a hang or a silent wrong score. Light install."""

from __future__ import annotations

import pytest

from parbleu.errors import FlavorError, InvalidTextError
from parbleu.flavors.nltk.meteor_score import (
    load_wordnet,
    meteor_score,
    meteor_scores,
    single_meteor_score,
)

H = ["the", "dogs", "chased", "a", "large", "cat"]
R = ["a", "big", "cat", "was", "chasing", "the", "dog"]


def test_strings_and_non_tokens_are_type_errors() -> None:
    for call in (
        lambda: meteor_score([R], "the dog"),
        lambda: meteor_score("a cat", H),
        lambda: single_meteor_score("a cat", H),
        lambda: meteor_score([R], [b"dog"]),
        lambda: meteor_score([R], None),
        lambda: meteor_score([R], H, alpha="0.9"),
        lambda: meteor_score([R], H, preprocess=lambda w: 1),
        lambda: meteor_score([R], H, stemmer=object()),
        lambda: meteor_score([R], H, wordnet=object()),
    ):
        with pytest.raises(TypeError) as e:
            call()
        assert isinstance(e.value, FlavorError), e.value


def test_no_reference_is_nltks_value_error() -> None:
    with pytest.raises(ValueError, match="max"):
        meteor_score([], H)
    with pytest.raises(ValueError, match="segment 1"):
        meteor_scores([[R], []], [H, H])
    with pytest.raises(ValueError, match="2 hypotheses but 1"):
        meteor_scores([[R]], [H, H])


def test_overflowing_penalty_is_nltks_overflow_error() -> None:
    with pytest.raises(OverflowError, match="beta"):
        meteor_score([["a", "b", "x", "c"]], ["a", "b", "c"], beta=-2000)
    # One match, one chunk: 1.0 ** -2000 is 1.0, no overflow (as NLTK).
    assert meteor_score([["a"]], ["a"], beta=-2000) == 0.5


def test_lone_surrogate_names_the_token() -> None:
    with pytest.raises(InvalidTextError, match="U\\+D800"):
        meteor_score([R], ["a", "\ud800"])


def test_missing_or_damaged_wordnet(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(OSError, match="not a dict folder"):
        load_wordnet(tmp_path / "nope")
    (tmp_path / "index.noun").write_text("dog n 1 0 1 0 00000001\n")
    with pytest.raises(OSError, match=r"data\.noun"):
        load_wordnet(tmp_path)


def test_long_segment_is_linear_not_quadratic() -> None:
    # 50,000 words a side left to the synonym stage: testing each pair would take hours; NLTK's
    # lookup by name (used above a size) is linear.
    hyp = [f"h{i}" for i in range(50_000)] + ["dog"]
    ref = ["frump"] + [f"r{i}" for i in range(50_000)]
    assert meteor_score([ref], hyp, wordnet="parbleu") == pytest.approx(0.5 / 50_001)


def test_empty_sides_are_zero() -> None:
    assert meteor_score([[]], H) == 0.0
    assert meteor_score([R], []) == 0.0
    assert single_meteor_score([], []) == 0.0


def test_batch_errors_name_the_input() -> None:
    for hyps, refs in (([[1]], [[R]]), (["a b"], [[R]]), ([H], [["a b"]]), ([H], [[[None]]])):
        with pytest.raises(TypeError) as e:
            meteor_scores(refs, hyps)
        assert isinstance(e.value, FlavorError), e.value
    with pytest.raises(InvalidTextError, match="U\\+DC80"):
        meteor_scores([[R]], [["\udc80"]])
    # Tuples and generators are token lists too, as for NLTK.
    want = meteor_scores([[R]], [H])
    assert meteor_scores([(tuple(R),)], [tuple(H)]) == want
    assert meteor_scores([[iter(R)]], [iter(H)]) == want
