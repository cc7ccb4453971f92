"""Live NLTK as the oracle on generated inputs: same values, same types, same exceptions."""

from __future__ import annotations

import warnings
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import require_reproduced_nltk

nb = pytest.importorskip("nltk.translate.bleu_score")
ng = pytest.importorskip("nltk.translate.gleu_score")
nc = pytest.importorskip("nltk.translate.chrf_score")
require_reproduced_nltk()

from parbleu import _core  # noqa: E402
from parbleu.errors import FlavorError  # noqa: E402
from parbleu.flavors import nltk as pn  # noqa: E402

WORDS = ["a", "b", "c", "d", "the", "é", "", "0"]
token = st.sampled_from(WORDS) | st.integers(0, 3)
sent = st.lists(token, max_size=9)
segment_refs = st.lists(sent, min_size=1, max_size=3)
corpus = st.integers(1, 4).flatmap(
    lambda n: st.tuples(
        st.lists(sent, min_size=n, max_size=n), st.lists(segment_refs, min_size=n, max_size=n)
    )
)
weights = st.sampled_from(
    [
        (0.25, 0.25, 0.25, 0.25),
        (0.5, 0.5),
        (1.0,),
        (0.2,) * 5,
        (0.1, 0.3, 0.5, 0.1),
        [(0.5, 0.5), (1 / 3,) * 3, (0.25,) * 4],
        [0.25, 0.25, 0.25, 0.25],
    ]
)
method = st.sampled_from([None, *range(8)])
params = st.sampled_from([(0.1, 5, 5), (0.01, 3, 3)])


def outcome(fn: Callable[..., Any], *args: Any, **kw: Any) -> tuple[str, Any]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = fn(*args, **kw)
        except FlavorError as e:
            bases = [c for c in type(e).__mro__ if c.__module__ == "builtins"]
            return "raise", sorted(c.__name__ for c in bases)
        except Exception as e:  # the oracle's exceptions
            return "raise", type(e).__name__
        msgs = sorted(str(w.message) for w in caught)
    return type(value).__name__, (value, msgs)


def same(ours: tuple[str, Any], theirs: tuple[str, Any]) -> None:
    if theirs[0] == "raise":
        assert ours[0] == "raise" and theirs[1] in ours[1], (ours, theirs)
    else:
        assert ours == theirs


def agree(ours: Callable[..., Any], theirs: Callable[..., Any], *args: Any) -> None:
    """Ours and NLTK's function on the same arguments: the same result, or the same error."""
    same(outcome(ours, *args), outcome(theirs, *args))


@settings(max_examples=300, deadline=None)
@given(corpus, weights, method, params, st.booleans())
def test_corpus_bleu(c: Any, w: Any, m: Any, p: Any, ar: bool) -> None:
    hyps, refs = c
    sf_n = None if m is None else getattr(nb.SmoothingFunction(*p), f"method{m}")
    sf_p = None if m is None else getattr(pn.SmoothingFunction(*p), f"method{m}")
    same(
        outcome(pn.corpus_bleu, refs, hyps, w, sf_p, ar),
        outcome(nb.corpus_bleu, refs, hyps, w, sf_n, ar),
    )
    same(
        outcome(pn.sentence_bleu, refs[0], hyps[0], w, sf_p, ar),
        outcome(nb.sentence_bleu, refs[0], hyps[0], w, sf_n, ar),
    )


@settings(max_examples=200, deadline=None)
@given(sent, st.lists(sent, max_size=3), st.integers(1, 6))
def test_modified_precision(h: Any, refs: Any, n: int) -> None:
    ours = outcome(pn.modified_precision, refs, h, n)
    theirs = outcome(nb.modified_precision, refs, h, n)
    if theirs[0] == "raise":
        same(ours, theirs)
    else:
        assert ours[0] == "Fraction" and theirs[0] == "Fraction"
        a, b = ours[1][0], theirs[1][0]
        assert (a.numerator, a.denominator) == (b.numerator, b.denominator)


@settings(max_examples=200, deadline=None)
@given(corpus, st.integers(1, 3), st.integers(1, 5))
def test_gleu(c: Any, lo: int, hi: int) -> None:
    hyps, refs = c
    agree(pn.corpus_gleu, ng.corpus_gleu, refs, hyps, lo, hi)


text = st.text(alphabet="ab c\t\x1c\u00a0é", max_size=12)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(text, text), min_size=0, max_size=4),
    st.integers(1, 3),
    st.integers(1, 7),
    st.sampled_from([3.0, 2, 0.5]),
    st.booleans(),
)
def test_chrf(pairs: Any, lo: int, hi: int, beta: Any, ignore_ws: bool) -> None:
    refs = [r for r, _ in pairs]
    hyps = [h for _, h in pairs]
    agree(pn.corpus_chrf, nc.corpus_chrf, refs, hyps, lo, hi, beta, ignore_ws)


# ``str`` tokens in lists or tuples: the one-call path of sentence_bleu / sentence_gleu.
str_sent = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "é", ""]), max_size=20)
str_refs = st.lists(str_sent | str_sent.map(tuple), min_size=0, max_size=3)
float_weights = st.sampled_from(
    [(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1.0,), (0.2,) * 5, (0.1, 0.3, 0.5, 0.1), (0.0, 1.0)]
)


@settings(max_examples=400, deadline=None)
@given(
    str_sent | str_sent.map(tuple),
    str_refs,
    float_weights,
    st.sampled_from([None, 0, 1, 2, 3]),
    st.sampled_from([0.1, 0.0, 1e-9]),
    st.booleans(),
)
def test_sentence_bleu_one_call(h: Any, refs: Any, w: Any, m: Any, eps: float, ar: bool) -> None:
    sf_n = None if m is None else getattr(nb.SmoothingFunction(epsilon=eps), f"method{m}")
    sf_p = None if m is None else getattr(pn.SmoothingFunction(epsilon=eps), f"method{m}")
    same(
        outcome(pn.sentence_bleu, refs, h, w, sf_p, ar),
        outcome(nb.sentence_bleu, refs, h, w, sf_n, ar),
    )


@settings(max_examples=300, deadline=None)
@given(str_sent, str_refs, st.integers(1, 3), st.integers(1, 5))
def test_sentence_gleu_one_call(h: Any, refs: Any, lo: int, hi: int) -> None:
    agree(pn.sentence_gleu, ng.sentence_gleu, refs, h, lo, hi)


str_corpus = st.integers(0, 4).flatmap(
    lambda n: st.tuples(
        st.lists(str_sent | str_sent.map(tuple), min_size=n, max_size=n),
        st.lists(str_refs | str_refs.map(tuple), min_size=n, max_size=n),
    )
)


@settings(max_examples=300, deadline=None)
@given(str_corpus, st.integers(1, 3), st.integers(1, 9))
def test_corpus_gleu_one_call(c: Any, lo: int, hi: int) -> None:
    hyps, refs = c
    agree(pn.corpus_gleu, ng.corpus_gleu, refs, hyps, lo, hi)


def test_gleu_one_call_is_taken_and_exact() -> None:
    # The core path answers for str tokens in lists and tuples (not a fallback), and equals NLTK,
    # also past what packs into 64-bit keys (300 distinct tokens at order 8).
    words = [f"w{i}" for i in range(300)]
    hyp = words + words[:50]
    refs = [words[::-1] + words[:20], words[10:200], ("w1", "w2")]
    for lo, hi in [(1, 4), (2, 8), (1, 1)]:
        got = _core.flavor_nltk_sentence_gleu(refs, hyp, lo, hi)
        assert got is not None and got == ng.sentence_gleu(refs, hyp, lo, hi)
        got = _core.flavor_nltk_corpus_gleu([refs, refs[:1]], [hyp, words], lo, hi)
        assert got is not None and got == ng.corpus_gleu([refs, refs[:1]], [hyp, words], lo, hi)
    # Other containers or tokens are left to the Python path.
    assert _core.flavor_nltk_corpus_gleu([[["a"]]], [iter(["a"])], 1, 4) is None
    assert _core.flavor_nltk_corpus_gleu([[["a"]]], [[1]], 1, 4) is None
    assert _core.flavor_nltk_corpus_gleu([[["\ud800"]]], [["a"]], 1, 4) is None


chrf_text = st.text(alphabet="ab c\t\n\x1c\x1f\u00a0\u2003\u3000é€😀", max_size=60)


@settings(max_examples=400, deadline=None)
@given(
    chrf_text,
    chrf_text,
    st.integers(1, 4),
    st.integers(1, 9),
    st.sampled_from([3.0, 2, 0.5, 1.0, 0.0, -2.0, 1e-200, 1e150, 7, 0, 1 << 30, True]),
    st.sampled_from([True, False, 0, 1]),
)
def test_sentence_chrf_one_call(r: str, h: str, lo: int, hi: int, beta: Any, ws: Any) -> None:
    agree(pn.sentence_chrf, nc.sentence_chrf, r, h, lo, hi, beta, ws)


def test_sentence_chrf_one_call_is_taken_and_exact() -> None:
    # Empty, single character, whitespace only, long, and more distinct characters than pack
    # into 64-bit keys at order 6 (the core counts those with maps).
    many = "".join(chr(0x4E00 + i) for i in range(1100))
    cases = [
        ("", ""),
        ("a", ""),
        ("", "a"),
        ("a", "a"),
        (" \t\u3000", "\u00a0"),
        ("the cat sat on the mat " * 40, "the cat sat on a mat " * 45),
        (many, many[::-1] + many[:300]),
        ("Grüße, 😀 \x1c welt", "Grüße 😀\x1cwelt"),
    ]
    for r, h in cases:
        for lo, hi, beta, ws in [(1, 6, 3.0, True), (2, 4, 1.0, False), (1, 1, 2, True)]:
            got = _core.flavor_nltk_sentence_chrf(r, h, lo, hi, float(beta**2), ws)
            assert got is not None
            assert got == nc.sentence_chrf(r, h, lo, hi, beta, ws)
            assert pn.sentence_chrf(r, h, lo, hi, beta, ws) == got
    assert _core.flavor_nltk_sentence_chrf("\ud800", "a", 1, 6, 9.0, True) is None
    assert pn.sentence_chrf("\ud800x", "x", 1, 6) == nc.sentence_chrf("\ud800x", "x", 1, 6)


class _Tok(str):
    """A str subclass: not taken by the one-call paths (its == could differ), same results."""


def test_one_call_paths_leave_other_tokens_to_python() -> None:
    hyp = ["the", "cat", "sat", "on", "the", "mat"]
    refs = [["the", "cat", "is", "on", "the", "mat"], ["a", "cat", "sat"]]
    sub_hyp = [_Tok(t) for t in hyp]
    sur_hyp = [*hyp, "\ud800"]
    sf_p, sf_n = pn.SmoothingFunction().method1, nb.SmoothingFunction().method1
    w = (0.25, 0.25, 0.25, 0.25)
    assert _core.flavor_nltk_sentence_bleu(refs, sub_hyp, w, 1, 0.1, False) is None
    assert _core.flavor_nltk_sentence_bleu(refs, sur_hyp, w, 1, 0.1, False) is None
    assert _core.flavor_nltk_sentence_bleu(refs, hyp, w, 1, 0.1, False) is not None
    assert _core.flavor_nltk_sentence_gleu(refs, sub_hyp, 1, 4) is None
    assert _core.flavor_nltk_sentence_gleu(refs, sur_hyp, 1, 4) is None
    for h in (hyp, sub_hyp, sur_hyp, tuple(hyp)):
        assert pn.sentence_bleu(refs, h, smoothing_function=sf_p) == nb.sentence_bleu(
            refs, h, smoothing_function=sf_n
        )
        assert pn.sentence_gleu(refs, h) == ng.sentence_gleu(refs, h)
        assert pn.corpus_gleu([refs], [h]) == ng.corpus_gleu([refs], [h])
