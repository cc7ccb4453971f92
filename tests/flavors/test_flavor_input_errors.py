"""Bad input to the tfnmt, t2t, torchmetrics and NLTK flavors: one FlavorError that is also the
original's exception class, with the original's message, wherever the same check is made."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from parbleu.errors import FlavorError
from parbleu.flavors import nltk, t2t, tfnmt
from parbleu.flavors import torchmetrics as tm

SIZES = r"torchmetrics: Corpus has different size 2 != 1 \(torchmetrics raises this ValueError\)"
WEIGHTS = (
    r"torchmetrics: List of weights has different weights than `n_gram`: 3 != 4 "
    r"\(torchmetrics raises this ValueError\)"
)
TOKENIZER = r"torchmetrics: Unsupported tokenizer selected. Please, choose one of \['none', '13a'"
NO_REF_TM = (
    r"torchmetrics: segment 1 has no reference "
    r"\(torchmetrics: ValueError: min\(\) arg is an empty sequence\)"
)
NLTK_SIZES = (
    r"nltk: 1 reference lists for 2 hypotheses \(NLTK: AssertionError: The number of hypotheses "
    r"and their reference\(s\) should be the same\)"
)
NLTK_CHRF_SIZES = (
    r"nltk: 1 references for 2 hypotheses \(NLTK: AssertionError: The number of hypotheses "
    r"and their references should be the same\)"
)
T2T_SIZES = (
    r"t2t: 1 reference lines but 2 hypothesis lines \(the original: AssertionError: 1 != 2\)"
)
NO_REF_TFNMT = (
    r"segment 1 has no reference \(the original's min\(len\(r\) for r in references\) raises "
    r"ValueError: min\(\) arg is an empty sequence\)"
)


def _update(metric: Any, preds: Any, target: Any) -> None:
    metric.update(preds, target)


CASES: list[tuple[str, Callable[[], Any], str]] = [
    ("nltk corpus_bleu sizes", lambda: nltk.corpus_bleu([[["a"]]], [["a"], ["b"]]), NLTK_SIZES),
    ("nltk corpus_gleu sizes", lambda: nltk.corpus_gleu([[["a"]]], [["a"], ["b"]]), NLTK_SIZES),
    ("nltk corpus_chrf sizes", lambda: nltk.corpus_chrf(["a"], ["a", "b"]), NLTK_CHRF_SIZES),
    ("t2t bleu_lines sizes", lambda: t2t.bleu_lines(["a"], ["a", "b"]), T2T_SIZES),
    ("bleu_score sizes", lambda: tm.bleu_score(["a", "b"], [["a"]]), SIZES),
    ("sacre_bleu_score sizes", lambda: tm.sacre_bleu_score(["a", "b"], [["a"]]), SIZES),
    ("BLEUScore.update sizes", lambda: _update(tm.BLEUScore(), ["a", "b"], [["a"]]), SIZES),
    ("bleu_score weights", lambda: tm.bleu_score(["a"], [["a"]], weights=[1, 1, 1]), WEIGHTS),
    ("BLEUScore weights", lambda: tm.BLEUScore(weights=[1, 1, 1]), WEIGHTS),
    ("SacreBLEUScore weights", lambda: tm.SacreBLEUScore(weights=[1, 1, 1]), WEIGHTS),
    (
        "sacre_bleu_score tokenizer",
        lambda: tm.sacre_bleu_score(["a"], [["a"]], tokenize="x"),
        TOKENIZER,
    ),
    ("SacreBLEUScore tokenizer", lambda: tm.SacreBLEUScore(tokenize="x"), TOKENIZER),
    ("bleu_score no reference", lambda: tm.bleu_score(["a", "b"], [["a"], []]), NO_REF_TM),
    (
        "sacre_bleu_score no reference",
        lambda: tm.sacre_bleu_score(["a", "b"], [["a"], []]),
        NO_REF_TM,
    ),
    (
        "tfnmt no reference",
        lambda: tfnmt.compute_bleu([[["a"]], []], [["a"], ["b"]]),
        "tfnmt: " + NO_REF_TFNMT,
    ),
    (
        "hf_bleu no reference",
        lambda: tfnmt.hf_bleu(["a", "b"], [["a"], []]),
        "hf-bleu: " + NO_REF_TFNMT,
    ),
]


@pytest.mark.parametrize(("call", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_the_originals_error(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(FlavorError, match=f"^{message}") as info:
        call()
    # The original's exception class: NLTK and t2t assert, the others raise ValueError.
    original = AssertionError if message.startswith(("nltk", "t2t")) else ValueError
    assert isinstance(info.value, original)
