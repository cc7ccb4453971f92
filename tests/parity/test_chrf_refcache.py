"""chrF's references kept between calls, against live SacreBLEU 2.6 (the oracle).

A ``corpus_score`` loop over systems with the same references reuses their preparation
(``parbleu._refcache``: one entry, used only when the references are equal string by string
and the options the same). Every score must be SacreBLEU's, bit for bit: after the caller
mutates its lists, with other options on the same references, and past the bound on what is
kept.
"""

from __future__ import annotations

import logging
from typing import Any

import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parbleu
from parbleu import _refcache

assert sacrebleu.__version__ == "2.6.0"

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

# fmt: off
PIECES = [
    "the", "The", "cat", ".", ",", "!", "(", "1", "über", "Über", "猫", "東京", "。", " ", "  ",
    "\t", "\u00a0", "é", "ß", "🙂", "a-b", "xxxxxxxx", "the cat", "İ",
]
# fmt: on

text = st.lists(st.sampled_from(PIECES), max_size=14).map(
    lambda xs: "".join(x if i % 2 else x + " " for i, x in enumerate(xs))
)

OPTIONS: list[dict[str, Any]] = [
    {},
    {"word_order": 2},
    {"lowercase": True, "word_order": 1},
    {"whitespace": True},
    {"char_order": 3, "word_order": 3},
    {"char_order": 0, "word_order": 2},
    {"beta": 1, "eps_smoothing": True},
]


def _same(hyps: list[str], refs: list[list[str]], **opts: Any) -> float:
    ours = parbleu.CHRF(**opts).corpus_score(hyps, refs)
    theirs = sacrebleu.CHRF(**opts).corpus_score(hyps, refs)
    assert ours.score == theirs.score, opts
    return ours.score


def test_mutated_references_are_scored_as_they_are_now() -> None:
    hyps = ["the cat sat on the mat", "a dog barked", "x y z"]
    refs = [["the cat sat on a mat", "the dog barked", "x y"]]
    m = parbleu.CHRF(word_order=2)
    first = m.corpus_score(hyps, refs).score
    assert m.corpus_score(["w"] * 3, refs).score == (
        sacrebleu.CHRF(word_order=2).corpus_score(["w"] * 3, refs).score
    )
    refs[0][1] = "a dog barked"  # changed in place after two calls
    changed = m.corpus_score(hyps, refs).score
    assert changed != first
    assert changed == sacrebleu.CHRF(word_order=2).corpus_score(hyps, refs).score
    refs[0].append("one more")  # a longer list: no longer aligned
    hyps.append("one more")
    assert m.corpus_score(hyps, refs).score == (
        sacrebleu.CHRF(word_order=2).corpus_score(hyps, refs).score
    )
    copy = [["".join(list(s)) for s in refs[0]]]  # equal strings, other objects
    assert m.corpus_score(hyps, copy).score == m.corpus_score(hyps, refs).score


def test_other_options_on_the_same_references() -> None:
    # Each options set in turn, twice, on one reference list: nothing prepared for one
    # serves another with other statistics (orders, case, whitespace, beta).
    hyps = ["Der Hund bellte laut.", "Über den Berg!", "猫が 好き", ""]
    refs = [["der Hund bellt laut .", "Über den Berg", "猫は 好き", "x"]]
    for _ in range(2):
        for opts in OPTIONS:
            _same(hyps, refs, **opts)


def test_large_references_are_not_kept() -> None:
    # Over 100,000 distinct strings nothing is kept (bounded memory after a call); the
    # scores are a fresh preparation's.
    hyps = [f"w{i} x y" for i in range(100_001)]
    refs = [[f"w{i} x" for i in range(100_001)]]
    m = parbleu.CHRF()
    _refcache.clear()
    first = m.corpus_score(hyps, refs).score
    assert _refcache._last is None
    assert m.corpus_score(hyps, refs).score == first
    small = (hyps[:50], [r[:50] for r in refs])
    assert m.corpus_score(*small).score == sacrebleu.CHRF().corpus_score(*small).score
    assert _refcache._last is not None  # small references are kept
    assert m.corpus_score(*small).score == sacrebleu.CHRF().corpus_score(*small).score


@st.composite
def systems(draw: st.DrawFn) -> tuple[list[list[str]], list[list[str]]]:
    n = draw(st.integers(1, 6))
    n_refs = draw(st.integers(1, 3))
    n_sys = draw(st.integers(2, 4))
    refs = [[draw(text) for _ in range(n)] for _ in range(n_refs)]
    return [[draw(text) for _ in range(n)] for _ in range(n_sys)], refs


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(systems(), st.sampled_from(OPTIONS))
def test_systems_one_call_each_equal_sacrebleu(
    data: tuple[list[list[str]], list[list[str]]], opts: dict[str, Any]
) -> None:
    # The second and later systems reuse the references the first one prepared.
    sys_hyps, refs = data
    _refcache.clear()
    m = parbleu.CHRF(**opts)
    oracle = sacrebleu.CHRF(**opts)
    for hyps in sys_hyps:
        ours = m.corpus_score(hyps, refs)
        theirs = oracle.corpus_score(hyps, refs)
        assert ours.score == theirs.score
        rows = oracle._extract_corpus_statistics(hyps, refs)
        assert m.extract_stats(hyps, refs).tolist() == [list(r) for r in rows]
