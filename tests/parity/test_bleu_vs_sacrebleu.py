"""BLEU against live SacreBLEU 2.6 (the oracle, a test dependency) on generated inputs."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parbleu
from helpers import parbleu_logging_off
from parbleu.errors import InvalidOptionError
from parbleu.tokenizers import RUST_TOKENIZERS

assert sacrebleu.__version__ == "2.6.0"

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

# fmt: off
PIECES = [
    "the", "The", "cat", ".", ",", "-", "1", "2.5", "1,000", "&amp;", "&quot;", "<skipped>", "'",
    "Σ", "ΣΑΣ", "İ", "ß", "über", "猫", "東京", "。", "、", "“", "”", "—", "$", "%", "@", "x-y",
    "a.b", "e.g.", "\u00a0", "\u3000", "\t", "\x1c", " ", "  ", "é", "ﬁ", "🙂", "ǅ",
]
# fmt: on

text = st.lists(st.sampled_from(PIECES), max_size=15).map(
    lambda xs: "".join(x if i % 2 else x + " " for i, x in enumerate(xs))
)


@st.composite
def corpus(draw: st.DrawFn) -> tuple[list[str], list[list[Any]]]:
    n = draw(st.integers(1, 6))
    n_refs = draw(st.integers(1, 3))
    hyps = [draw(text) for _ in range(n)]
    refs: list[list[Any]] = [[draw(text) for _ in range(n)] for _ in range(n_refs)]
    if n_refs > 1 and draw(st.booleans()):  # variable number of references
        refs[-1][0] = None
    return hyps, refs


OPTIONS = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(RUST_TOKENIZERS),
        "lowercase": st.booleans(),
        "smooth_method": st.sampled_from(["none", "floor", "add-k", "exp"]),
        "smooth_value": st.one_of(st.none(), st.sampled_from([0.0, 0.01, 0.5, 2])),
        "effective_order": st.booleans(),
        "max_ngram_order": st.integers(1, 6),
        "force": st.booleans(),
    }
)


def _refused(opts: dict[str, Any]) -> bool:
    """A floor above 1: refused by parbleu (BLEU above 100), scored by SacreBLEU."""
    return bool(opts["smooth_method"] == "floor" and (opts["smooth_value"] or 0) > 1)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus(), OPTIONS)
def test_corpus_and_sentence_bleu_equal_sacrebleu(
    c: tuple[list[str], list[list[Any]]], opts: dict[str, Any]
) -> None:
    hyps, refs = c
    theirs = sacrebleu.BLEU(**opts)
    if _refused(opts):
        # Refused (issue 34): SacreBLEU's precisions, and BLEU, can exceed 100 there.
        with pytest.raises(InvalidOptionError, match="smooth_method='floor' takes a value"):
            parbleu.BLEU(**opts)
        return
    ours = parbleu.BLEU(**opts)
    a = ours.corpus_score(hyps, refs)
    b = theirs.corpus_score(hyps, refs)
    assert a.score == pytest.approx(b.score, rel=0, abs=1e-9)
    assert (a.counts, a.totals, a.sys_len, a.ref_len) == (b.counts, b.totals, b.sys_len, b.ref_len)
    assert str(a) == str(b)
    stats = ours.extract_stats(hyps, refs).tolist()
    assert stats == theirs._extract_corpus_statistics(hyps, refs)
    with parbleu_logging_off():
        for i, h in enumerate(hyps):
            seg = [r[i] for r in refs]
            if all(x is None for x in seg):
                continue
            assert ours.sentence_score(h, seg).score == pytest.approx(
                theirs.sentence_score(h, seg).score, rel=0, abs=1e-9
            )


def test_compat_functions_defaults() -> None:
    h = ["The cat sat on the mat.", "A dog."]
    r = [["The cat is on the mat.", "A dog barked."]]
    assert parbleu.corpus_bleu(h, r).score == sacrebleu.corpus_bleu(h, r).score
    assert parbleu.raw_corpus_bleu(h, r).score == sacrebleu.raw_corpus_bleu(h, r).score
    assert (
        parbleu.sentence_bleu(h[0], [r[0][0]]).score
        == sacrebleu.sentence_bleu(h[0], [r[0][0]]).score
    )
    # sentence_bleu() defaults to effective order, BLEU() does not.
    assert parbleu.sentence_bleu("a b", ["a b"]).score == pytest.approx(100.0)
    assert parbleu.BLEU().sentence_score("a b", ["a b"]).score != 100.0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus(), OPTIONS)
def test_batch_sentence_scores_equal_sacrebleu_loop(
    c: tuple[list[str], list[list[Any]]], opts: dict[str, Any]
) -> None:
    hyps, refs = c
    if any(all(r[i] is None for r in refs) for i in range(len(hyps))) or _refused(opts):
        return
    with parbleu_logging_off():
        got = parbleu.BLEU(**opts).sentence_scores(hyps, refs).tolist()
    theirs = sacrebleu.BLEU(**opts)
    want = [theirs.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    assert got == want


def test_segments_too_big_for_the_packed_table_equal_sacrebleu() -> None:
    # Two ways out of the packed n-gram table: 65,535+ reference tokens (16-bit ids), and
    # ids times order wider than 64 bits (40 distinct tokens need 6 bits: order 11 is 66).
    words = [f"w{i}" for i in range(40)]
    long_ref = " ".join(words[i % 40] for i in range(70_000))
    hyp = " ".join(words[:12] * 3)
    cases = [
        ({}, [hyp, "w1 w2"], [[long_ref, "w1 w2 w3"]]),
        ({"max_ngram_order": 11}, [hyp, hyp[:20]], [[" ".join(words * 2), " ".join(words)]]),
    ]
    for opts, hyps, refs in cases:
        ours, theirs = parbleu.BLEU(**opts), sacrebleu.BLEU(**opts)
        assert ours.extract_stats(hyps, refs).tolist() == theirs._extract_corpus_statistics(
            hyps, refs
        )
        assert ours.corpus_score(hyps, refs).score == theirs.corpus_score(hyps, refs).score
        want = [theirs.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
        assert ours.sentence_scores(hyps, refs).tolist() == want


def test_reused_references_are_compared_not_trusted() -> None:
    # Prepared references are kept between calls (parbleu._refcache); a list changed in place,
    # or an equal list of other objects, must give exactly what a fresh computation gives.
    from parbleu import _refcache

    hyps = ["the cat sat on the mat", "a dog barked", "x y z"]
    refs = [["the cat sat on a mat", "the dog barked", "x y"]]
    m = parbleu.BLEU()
    first = m.corpus_score(hyps, refs).score
    refs[0][1] = "a dog barked"  # mutate the caller's list after a call
    changed = m.corpus_score(hyps, refs).score
    assert changed != first
    assert changed == sacrebleu.BLEU().corpus_score(hyps, refs).score
    copy = [["".join(list(s)) for s in refs[0]]]  # equal strings, other objects
    assert m.corpus_score(hyps, copy).score == changed
    # Options that change the statistics never share prepared references.
    assert parbleu.BLEU(lowercase=True).corpus_score(hyps, refs).score == (
        sacrebleu.BLEU(lowercase=True).corpus_score(hyps, refs).score
    )
    _refcache.clear()
    assert m.corpus_score(hyps, refs).score == changed


def test_large_references_are_kept_only_when_few_are_distinct() -> None:
    # Over 100,000 strings, prepared references are kept only when identical segments share
    # one preparation (a test set repeated per system), so what stays is bounded.
    from parbleu import _refcache

    _refcache.clear()
    hyps = ["the cat", "a dog", "x"] * 50_000
    shared = [["the cat sat", "a dog", "x y z"] * 50_000]
    m = parbleu.BLEU()
    first = m.corpus_score(hyps, shared).score
    kept = _refcache._last
    assert kept is not None
    assert m.corpus_score(hyps, shared).score == first
    assert _refcache._last is kept  # reused, not prepared again
    _refcache.clear()
    assert m.corpus_score(hyps, shared).score == first  # and equal to a fresh preparation
    distinct = [[f"w{i} x" for i in range(150_000)]]
    m.corpus_score(hyps, distinct)
    assert _refcache._last is None
