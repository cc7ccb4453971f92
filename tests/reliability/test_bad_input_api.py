"""Bad input through the Python API: SacreBLEU's result where it has a sane one, else a
``ParbleuError`` (or the standard error SacreBLEU raises) with a one-line message.

The table in docs/reliability.md lists every case.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import pytest
import sacrebleu

import parbleu
from parbleu.errors import (
    EmptyInputError,
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
    ParbleuError,
)

METRICS: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "bleu": (parbleu.BLEU, sacrebleu.BLEU),
    "chrf": (parbleu.CHRF, sacrebleu.CHRF),
    "chrf++": (lambda: parbleu.CHRF(word_order=2), lambda: sacrebleu.CHRF(word_order=2)),
    "ter": (parbleu.TER, sacrebleu.TER),
}

# Strings SacreBLEU scores sanely: parbleu must give the same statistics and score.
ODD_TEXT = {
    "BOM": ("\ufeffthe cat sat", "the cat sat"),
    "CRLF": ("the cat sat\r\n", "the cat sat\r\n"),
    "lone CR": ("the cat\rsat", "the cat sat"),
    "NUL": ("the\x00cat sat", "the cat\x00 sat"),
    "U+2028/U+2029": ("the cat\u2028sat\u2029", "the cat sat"),
    "other separators": ("the\x0bcat\x0csat\x1c\x1d\x1e\x85on", "the cat sat on"),
    "only whitespace": ("\u3000 \t\u00a0", "the cat"),
    "empty": ("", "the cat"),
    "empty reference": ("the cat", ""),
    "combining marks": ("cafe\u0301 noe\u0308l", "café noël"),
}


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("case", ODD_TEXT)
def test_odd_text_as_sacrebleu(metric: str, case: str) -> None:
    ours, theirs = METRICS[metric]
    hyp, ref = ODD_TEXT[case]
    hyps, refs = [hyp, "a dog ."], [[ref, "a dog ."]]
    a, b = ours().corpus_score(hyps, refs), theirs().corpus_score(hyps, refs)
    assert a.score == pytest.approx(b.score, abs=1e-9)
    assert str(a) == str(b)


@pytest.mark.parametrize("metric", ["bleu", "ter"])
def test_ten_megabyte_line_as_sacrebleu(metric: str) -> None:
    # Long words keep SacreBLEU (the oracle, pure Python) fast on a 10 MB line.
    words = [f"{i % 97:03d}" + "x" * 49_997 for i in range(200)]
    hyp, ref = " ".join(words), " ".join(reversed(words))
    ours, theirs = METRICS[metric]
    a, b = ours().corpus_score([hyp], [[ref]]), theirs().corpus_score([hyp], [[ref]])
    assert str(a) == str(b)


def test_ten_megabyte_line_of_text() -> None:
    hyp = ("the cat sat on the mat . " * 400_000)[:10_000_000]
    for metric in (parbleu.BLEU(), parbleu.CHRF()):
        score = metric.corpus_score([hyp], [[hyp.replace("mat", "hat")]]).score
        assert math.isfinite(score) and 0 < score < 100


@pytest.mark.parametrize("metric", METRICS)
def test_a_hundred_references(metric: str) -> None:
    ours, theirs = METRICS[metric]
    hyps = ["the cat sat on the mat .", "a dog barked ."]
    refs = [[f"the cat{i % 9} sat on the mat .", f"a dog{i % 5} barked ."] for i in range(100)]
    refs[37][1] = None  # type: ignore[call-overload]  # variable reference counts, as SacreBLEU
    a, b = ours().corpus_score(hyps, refs), theirs().corpus_score(hyps, refs)
    assert str(a) == str(b)


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize(
    ("hyps", "refs", "error"),
    [
        ([None], [["a"]], InputTypeError),
        ([1], [["a"]], InputTypeError),
        ([b"a"], [["a"]], InputTypeError),
        (["a"], [[1]], InputTypeError),
        (["a"], [[None]], InputTypeError),  # no reference at all for a segment
        ("a b", [["a b"]], InputTypeError),  # a bare string, not a list
        (["a"], "a", InputTypeError),
        ([], [[]], EmptyInputError),
        (["a", "b"], [["a"]], LengthMismatchError),
        (["a"], [["a"], ["a", "b"]], LengthMismatchError),
    ],
    ids=[
        "None hyp",
        "int hyp",
        "bytes hyp",
        "int ref",
        "all refs None",
        "str hyps",
        "str refs",
        "empty",
        "short refs",
        "ragged refs",
    ],
)
def test_misuse_is_one_clear_error(metric: str, hyps: Any, refs: Any, error: type) -> None:
    with pytest.raises(error) as e:
        METRICS[metric][0]().corpus_score(hyps, refs)
    message = str(e.value)
    assert message and "\n" not in message


@pytest.mark.parametrize(
    ("factory", "error"),
    [
        (
            lambda: parbleu.BLEU(smooth_method="floor", smooth_value=float("nan")),
            InvalidOptionError,
        ),
        (lambda: parbleu.BLEU(smooth_method="add-k", smooth_value=-1), InvalidOptionError),
        (lambda: parbleu.BLEU(smooth_method="floor", smooth_value=math.inf), InvalidOptionError),
        # SacreBLEU scores BLEU = inf: 100 * smooth_value overflows.
        (lambda: parbleu.BLEU(smooth_method="floor", smooth_value=1e308), InvalidOptionError),
        (lambda: parbleu.BLEU(smooth_method="add-k", smooth_value=2e306), InvalidOptionError),
        (lambda: parbleu.BLEU(max_ngram_order=0), InvalidOptionError),
        (lambda: parbleu.BLEU(max_ngram_order=-3), InvalidOptionError),
        (lambda: parbleu.BLEU(tokenize="no-such-tokenizer"), InvalidOptionError),
        (lambda: parbleu.BLEU(smooth_method="no-such-method"), InvalidOptionError),
        (lambda: parbleu.CHRF(beta=float("nan")), InvalidOptionError),
        (lambda: parbleu.CHRF(char_order=-1), InvalidOptionError),
        (lambda: parbleu.CHRF(char_order=0, word_order=0), InvalidOptionError),
        (lambda: parbleu.BLEU(no_such_option=1), TypeError),  # as SacreBLEU
        (lambda: parbleu.CHRF(no_such_option=1), TypeError),
        (lambda: parbleu.TER(no_such_option=1), TypeError),
    ],
)
def test_bad_options(factory: Callable[[], Any], error: type) -> None:
    with pytest.raises(error) as e:
        factory().corpus_score(["a b"], [["a c"]])
    assert str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("workers", [float("nan"), 1.5, "2", True])
def test_bad_workers(workers: Any) -> None:
    with pytest.raises((InvalidOptionError, InputTypeError)):
        parbleu.BLEU().corpus_score(["a"], [["a"]], workers=workers)


def test_negative_beta_as_sacrebleu() -> None:
    # beta only enters as beta**2: SacreBLEU gives the same score as |beta|, so does parbleu.
    a = parbleu.CHRF(beta=-2).corpus_score(["a b c"], [["a c b"]]).score
    assert a == sacrebleu.CHRF(beta=-2).corpus_score(["a b c"], [["a c b"]]).score


def test_lone_surrogates_are_refused() -> None:
    # Strings that cannot be UTF-8 (lone surrogates, e.g. from errors="surrogateescape") are
    # refused with a ParbleuError naming the item and position; SacreBLEU scores them.
    with pytest.raises(
        parbleu.errors.InvalidTextError,
        match=r"hypotheses\[1\]: lone surrogate U\+D800 at position 1",
    ):
        parbleu.BLEU().corpus_score(["a", "a\ud800"], [["a", "b"]])
    with pytest.raises(parbleu.errors.InvalidTextError, match=r"references\[0\]\[0\]"):
        parbleu.CHRF().corpus_score(["a"], [["\udcff"]])
    with pytest.raises(parbleu.errors.InvalidTextError):
        parbleu.TER().sentence_score("\ud800", ["a"])


def test_errors_are_parbleu_errors() -> None:
    for cls in (InputTypeError, InvalidOptionError, LengthMismatchError, EmptyInputError):
        assert issubclass(cls, ParbleuError)
