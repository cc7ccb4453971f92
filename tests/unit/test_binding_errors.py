"""Every error the compiled binding raises on purpose is a class of parbleu.errors.

The Python layer validates first, so these calls go to ``parbleu._core`` directly: each case
reaches one check of the binding (a core error kind, or a check of the binding's own), and the
exception must be the parbleu class with the core's message, never a bare ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from parbleu import _core
from parbleu.errors import (
    InvalidOptionError,
    LengthMismatchError,
    ParbleuError,
    StatisticsError,
)


def _bleu_opts(order: int = 4) -> Any:
    return _core.BleuOptions("13a", False, order, "exp", None, False)


def _bleu_refs() -> Any:
    return _core.Refs([["a b c", "d e f"]], _bleu_opts(), 1)


def _ter_table() -> Any:
    return _core.PairTable(["a b", "c d"], _core.TerOptions(False, False, False, True), 1)


def _bleu_table() -> Any:
    return _core.PairTable(["a b", "c d"], _bleu_opts(), 1)


CASES: list[tuple[str, Callable[[], object], type[ParbleuError], str]] = [
    # Core error kinds.
    ("InvalidOption", lambda: _core.tokenize("nope", ["a"]), InvalidOptionError, "tokenize"),
    (
        "LengthMismatch",
        lambda: _bleu_refs().extract(["only one"], 1),
        LengthMismatchError,
        "hypotheses vs references",
    ),
    (
        "BadStatsShape",
        lambda: _core.bleu_scores(np.zeros((1, 5), np.int64), 5, _bleu_opts(), 1),
        StatisticsError,
        "10",
    ),
    (
        "order",
        lambda: _bleu_opts(10**6),
        InvalidOptionError,
        "n-gram order",
    ),
    # The binding's own checks.
    # One conversion of reference streams for the three metrics (core RefSet).
    (
        "chrF streams",
        lambda: _core.Refs(
            [["a", "b"], ["c"]], _core.ChrfOptions(6, 0, 4.0, 5.0, False, False, False), 1
        ),
        LengthMismatchError,
        "reference streams",
    ),
    (
        "BLEU streams",
        lambda: _core.Refs(
            [["a"], ["c", None]], _core.BleuOptions("13a", False, 4, "exp", None, False), 1
        ),
        LengthMismatchError,
        "reference streams",
    ),
    (
        "BLEU finalize lengths",
        lambda: _core.bleu_finalize([1.0, 2.0], [3.0], 3.0, 3.0, "exp", None, False),
        LengthMismatchError,
        "total vs correct",
    ),
    (
        "chrF finalize width",
        lambda: _core.chrf_f_score(
            [1.0, 2.0], _core.ChrfOptions(6, 0, 4.0, 5.0, False, False, False)
        ),
        StatisticsError,
        "columns",
    ),
    (
        "TER streams",
        lambda: _core.Refs([["a", "b"], [None]], _core.TerOptions(False, False, False, False), 1),
        LengthMismatchError,
        "reference streams",
    ),
    (
        "symmetric TER",
        lambda: _ter_table().score_symmetric(0, 1, np.zeros(4), 1),
        InvalidOptionError,
        "not declared by TER",
    ),
    (
        "aggregate TER",
        lambda: _ter_table().score_aggregate((0, 1), (0, 1), np.ones(1), np.zeros(1), 1),
        InvalidOptionError,
        "not declared by TER",
    ),
    (
        "aggregate weights",
        lambda: _bleu_table().score_aggregate((0, 1), (0, 2), np.ones(1), np.zeros(1), 1),
        LengthMismatchError,
        "weights",
    ),
    (
        "out buffer",
        lambda: _bleu_table().score_rect((0, 1), (0, 2), np.zeros(3), 1),
        InvalidOptionError,
        "out: expected",
    ),
    (
        "NLTK method",
        lambda: _core.flavor_nltk_sentence_bleu([["a"]], ["a"], [1.0], 7, 0.1, False),
        InvalidOptionError,
        "method must be",
    ),
    (
        "GLEU orders",
        lambda: _core.flavor_nltk_sentence_gleu([["a"]], ["a"], 2, 1),
        InvalidOptionError,
        "min_len",
    ),
    (
        "GLEU lengths",
        lambda: _core.flavor_nltk_corpus_gleu([[["a"]]], [["a"], ["b"]], 1, 4),
        LengthMismatchError,
        "as many reference lists",
    ),
    (
        "chrF orders",
        lambda: _core.flavor_nltk_sentence_chrf("a", "a", 0, 1, 9.0, True),
        InvalidOptionError,
        "min_len",
    ),
]


@pytest.mark.parametrize(("case", "call", "cls", "text"), CASES, ids=[c[0] for c in CASES])
def test_binding_raises_parbleu_errors(
    case: str, call: Callable[[], object], cls: type[ParbleuError], text: str
) -> None:
    with pytest.raises(ParbleuError) as info:
        call()
    assert type(info.value) is cls, case
    assert text in str(info.value)
