"""BLEU against live SacreBLEU 2.6 (the oracle, a test dependency) on generated inputs."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parbleu

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
        "tokenize": st.sampled_from(["13a", "none", "intl", "char", "zh"]),
        "lowercase": st.booleans(),
        "smooth_method": st.sampled_from(["none", "floor", "add-k", "exp"]),
        "smooth_value": st.one_of(st.none(), st.sampled_from([0.0, 0.01, 0.5, 2])),
        "effective_order": st.booleans(),
        "max_ngram_order": st.integers(1, 6),
        "force": st.booleans(),
    }
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus(), OPTIONS)
def test_corpus_and_sentence_bleu_equal_sacrebleu(
    c: tuple[list[str], list[list[Any]]], opts: dict[str, Any]
) -> None:
    hyps, refs = c
    ours = parbleu.BLEU(**opts)
    theirs = sacrebleu.BLEU(**opts)
    a = ours.corpus_score(hyps, refs)
    b = theirs.corpus_score(hyps, refs)
    assert a.score == pytest.approx(b.score, rel=0, abs=1e-9)
    assert (a.counts, a.totals, a.sys_len, a.ref_len) == (b.counts, b.totals, b.sys_len, b.ref_len)
    assert str(a) == str(b)
    stats = ours.extract_stats(hyps, refs).tolist()
    assert stats == theirs._extract_corpus_statistics(hyps, refs)
    logging.getLogger("parbleu").disabled = True
    try:
        for i, h in enumerate(hyps):
            seg = [r[i] for r in refs]
            if all(x is None for x in seg):
                continue
            assert ours.sentence_score(h, seg).score == pytest.approx(
                theirs.sentence_score(h, seg).score, rel=0, abs=1e-9
            )
    finally:
        logging.getLogger("parbleu").disabled = False


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
