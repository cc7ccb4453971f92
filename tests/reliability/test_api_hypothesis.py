"""Random text and random options through the public API: either a ParbleuError (or the
standard TypeError for a wrong keyword) or a finite score in range, never anything else."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parbleu
from parbleu.errors import ParbleuError
from parbleu.tokenizers import RUST_TOKENIZERS

# Unicode without surrogates (lone surrogates cannot be UTF-8: see test_bad_input_api.py).
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
LINE = st.one_of(
    TEXT, st.lists(st.sampled_from(["the", "cat", ".", ",", "猫", "\u2028", "\r"])).map(" ".join)
)
NUMBER = st.one_of(st.integers(-3, 8), st.floats(allow_nan=True, allow_infinity=True), st.none())

BLEU_OPTS = st.fixed_dictionaries(
    {},
    optional={
        "lowercase": st.booleans(),
        "tokenize": st.sampled_from([*RUST_TOKENIZERS, "bogus"]),
        "smooth_method": st.sampled_from(["exp", "floor", "add-k", "none", "bogus"]),
        "smooth_value": NUMBER,
        "max_ngram_order": NUMBER,
        "effective_order": st.booleans(),
    },
)
CHRF_OPTS = st.fixed_dictionaries(
    {},
    optional={
        "char_order": NUMBER,
        "word_order": NUMBER,
        "beta": NUMBER,
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    },
)
TER_OPTS = st.fixed_dictionaries(
    {},
    optional={
        "normalized": st.booleans(),
        "no_punct": st.booleans(),
        "asian_support": st.booleans(),
        "case_sensitive": st.booleans(),
    },
)
CORPUS = st.integers(1, 4).flatmap(
    lambda n: st.tuples(
        st.lists(LINE, min_size=n, max_size=n),
        st.lists(
            st.lists(st.one_of(LINE, st.none()), min_size=n, max_size=n), min_size=1, max_size=3
        ),
    )
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check(
    make: Any, opts: dict[str, Any], corpus: tuple[list[str], list[list[str]]], hi: float
) -> None:
    hyps, refs = corpus
    try:
        metric = make(**opts)
        scores = [metric.corpus_score(hyps, refs).score]
        scores += list(metric.sentence_scores(hyps, refs))
        scores.append(metric.sentence_score(hyps[0], [r[0] for r in refs]).score)
    except ParbleuError:
        return
    for s in scores:
        assert math.isfinite(s) and -1e-9 <= s <= hi + 1e-9, (opts, corpus, s)


@SETTINGS
@given(BLEU_OPTS, CORPUS)
def test_bleu(opts: dict[str, Any], corpus: Any) -> None:
    # A floor above 1 (a zero-match precision floor/total over 100%: SacreBLEU scores 122.47
    # for "000:" against "000" with floor 3) is refused, so every accepted option is in range.
    _check(parbleu.BLEU, opts, corpus, 100.0)


@SETTINGS
@given(CHRF_OPTS, CORPUS)
def test_chrf(opts: dict[str, Any], corpus: Any) -> None:
    _check(parbleu.CHRF, opts, corpus, 100.0)


@SETTINGS
@given(TER_OPTS, CORPUS)
def test_ter(opts: dict[str, Any], corpus: Any) -> None:
    _check(parbleu.TER, opts, corpus, math.inf)  # TER exceeds 100 when edits outnumber words
