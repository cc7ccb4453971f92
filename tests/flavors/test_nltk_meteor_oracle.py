"""parbleu's ``meteor_score`` against live NLTK 3.10.4 with WordNet: bit-exact.

Hypothesis draws token lists from words that exercise every stage (exact, Porter stems,
WordNet synonyms of stems, case, non-ASCII), parameters, several references, and NLTK's
hooks (``preprocess``, ``stemmer``); errors are NLTK's exception types. Needs NLTK's WordNet
(CI: ``tools/build_nltk_wordnet.py``, ``PARBLEU_REQUIRE=nltk-wordnet``).
"""

from __future__ import annotations

import struct
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nltk_meteor_support import nltk_wordnet
from parbleu.errors import FlavorError
from parbleu.flavors.nltk import meteor_score as ours

nltk_wordnet()
from nltk.stem import LancasterStemmer  # noqa: E402
from nltk.translate import meteor_score as theirs  # noqa: E402

WORDS = " ".join(
    [
        "the a dog dogs Dog puppy cat cats big large great huge small little run running ran",
        "runs quick quickly fast speedy house home houses housing car auto automobile cars",
        "went go goes gone is are was be been being good well better best nice fine happy",
        "glad generously generalization relational conditional caresses ponies ties hopping",
        "filing sky skies dying naïve cafés ÉTÉ İstanbul Straße ΟΔΟΣ ' , . ! ? - 1 2010 U.S.",
        "don't it's",
    ]
).split()

word = st.one_of(st.sampled_from(WORDS), st.text(min_size=0, max_size=6))
sentence = st.lists(word, max_size=14)


def same(a: float, b: float) -> bool:
    return struct.pack("<d", a) == struct.pack("<d", b)


@settings(max_examples=400, deadline=None)
@given(hyp=sentence, refs=st.lists(sentence, min_size=1, max_size=3))
def test_default_parameters(hyp: list[str], refs: list[list[str]]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = theirs.meteor_score(refs, hyp)
    assert same(ours.meteor_score(refs, hyp), want)
    assert same(ours.meteor_score(refs, hyp, wordnet="parbleu"), want)
    assert same(ours.single_meteor_score(refs[0], hyp), theirs.single_meteor_score(refs[0], hyp))


@settings(max_examples=150, deadline=None)
@given(
    hyp=sentence,
    refs=st.lists(sentence, min_size=1, max_size=2),
    alpha=st.floats(0, 1),
    beta=st.floats(0, 10),
    gamma=st.floats(0, 1),
)
def test_parameters(
    hyp: list[str], refs: list[list[str]], alpha: float, beta: float, gamma: float
) -> None:
    kw = {"alpha": alpha, "beta": beta, "gamma": gamma}
    try:
        want = theirs.meteor_score(refs, hyp, **kw)
    except OverflowError:
        with pytest.raises(OverflowError):
            ours.meteor_score(refs, hyp, **kw)
        return
    assert same(ours.meteor_score(refs, hyp, **kw), want)


@settings(max_examples=100, deadline=None)
@given(hyp=sentence, refs=st.lists(sentence, min_size=1, max_size=2))
def test_hooks(hyp: list[str], refs: list[list[str]]) -> None:
    lanc = LancasterStemmer()
    for kw in ({"preprocess": str.upper}, {"preprocess": lambda w: w}, {"stemmer": lanc}):
        assert same(ours.meteor_score(refs, hyp, **kw), theirs.meteor_score(refs, hyp, **kw))


def test_batch_equals_one_by_one() -> None:
    hyps = [WORDS[i : i + 7] for i in range(0, 80, 3)]
    refs = [[WORDS[i + 2 : i + 9], WORDS[i + 40 : i + 50]] for i in range(0, 80, 3)]
    want = [theirs.meteor_score(r, h) for r, h in zip(refs, hyps)]
    for workers in (1, 3):
        got = ours.meteor_scores(refs, hyps, workers=workers)
        assert all(same(a, b) for a, b in zip(got, want))


def test_errors_are_nltks() -> None:
    for call, args in (
        ("meteor_score", ([["a"]], "a b")),
        ("single_meteor_score", ("a b", ["a"])),
        ("meteor_score", ([["a"]], [1, 2])),
    ):
        with pytest.raises(TypeError):
            getattr(theirs, call)(*args)
        with pytest.raises(TypeError) as e:
            getattr(ours, call)(*args)
        assert isinstance(e.value, FlavorError)
    with pytest.raises(ValueError):
        theirs.meteor_score([], ["a"])
    with pytest.raises(ValueError, match="max"):
        ours.meteor_score([], ["a"])
    with pytest.raises(OverflowError):
        theirs.meteor_score([["a", "b", "x", "c"]], ["a", "b", "c"], beta=-2000)
    with pytest.raises(OverflowError, match="beta"):
        ours.meteor_score([["a", "b", "x", "c"]], ["a", "b", "c"], beta=-2000)


def test_nltk_reader_object_and_lazy_loader() -> None:
    from nltk.corpus import wordnet

    h = ["the", "dogs", "chased", "a", "large", "cat"]
    r = ["a", "big", "cat", "chasing", "the", "dog"]
    assert same(ours.meteor_score([r], h, wordnet=wordnet), theirs.meteor_score([r], h))


@settings(max_examples=500, deadline=None)
@given(words=st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=12)), max_size=20))
def test_porter_stems_of_any_text(words: list[str]) -> None:
    # meteor_score stems every token, any Unicode (rouge-score only ever stems ASCII).
    from nltk.stem.porter import PorterStemmer

    from parbleu import _core

    words = [w for w in words if not any("\ud800" <= c <= "\udfff" for c in w)]
    ps = PorterStemmer()
    assert _core.flavor_nltk_porter_stem(words) == [ps.stem(w) for w in words]
