"""parbleu's stand-in for the hub's ``meteor`` module against the hub module's computation.

The hub module is ``{"meteor": np.mean([nltk meteor_score of word_tokenize'd texts])}``;
here the same with live NLTK (and WordNet), on WMT21 lines, with one and several references.
NLTK's ``word_tokenize`` needs punkt_tab (a download): where it is absent, the tokenizer is
``str.split`` through the ``tokenizer`` option, and the default says what is missing.
"""

from __future__ import annotations

import numpy as np
import pytest

from helpers import SHARED
from nltk_meteor_support import nltk_wordnet
from parbleu.errors import InputTypeError, LengthMismatchError, MissingDependencyError
from parbleu.integrations import evaluate as pe

nltk_wordnet()
from nltk.translate import meteor_score as nltk_meteor  # noqa: E402

WMT = SHARED / "data" / "wmt21"


def _lines(name: str, n: int = 300) -> list[str]:
    return (WMT / name).read_text(encoding="utf-8").split("\n")[:n]


def _punkt() -> bool:
    from nltk.data import find

    try:
        find("tokenizers/punkt_tab/english/")
    except LookupError:
        return False
    return True


def _hub(preds: list[str], refs: list, tok) -> dict:  # type: ignore[no-untyped-def, type-arg]
    if isinstance(refs[0], list):
        s = [nltk_meteor.meteor_score([tok(r) for r in rs], tok(p)) for rs, p in zip(refs, preds)]
    else:
        s = [nltk_meteor.single_meteor_score(tok(r), tok(p)) for r, p in zip(refs, preds)]
    return {"meteor": np.mean(s)}


def test_same_numbers_as_the_hub_module() -> None:
    preds = _lines("system-outputs/newstest2021.de-en.hyp.Online-A.en")
    ref_a = _lines("references/newstest2021.de-en.ref.A.en")
    ref_b = _lines("references/newstest2021.de-en.ref.B.en")
    if _punkt():
        from nltk import word_tokenize

        toks = [(None, word_tokenize), (str.split, str.split)]
    else:
        toks = [(str.split, str.split)]
        with pytest.raises(MissingDependencyError, match="punkt_tab"):
            pe.compute("meteor", preds, ref_a)
    for ours, theirs in toks:
        for refs in (ref_a, [[a, b] for a, b in zip(ref_a, ref_b)]):
            kw = {} if ours is None else {"tokenizer": ours}
            got = pe.compute("meteor", preds, refs, **kw)
            want = _hub(preds, refs, theirs)
            assert got.keys() == want.keys() == {"meteor"}
            assert type(got["meteor"]) is type(want["meteor"])
            assert got["meteor"].tobytes() == want["meteor"].tobytes()
        got = pe.compute("meteor", preds, ref_a, alpha=0.5, beta=2, gamma=0.25, tokenizer=str.split)
        s = [
            nltk_meteor.single_meteor_score(r.split(), p.split(), alpha=0.5, beta=2, gamma=0.25)
            for r, p in zip(ref_a, preds)
        ]
        assert got["meteor"] == np.mean(s)


def test_bad_inputs() -> None:
    with pytest.raises(LengthMismatchError):
        pe.compute("meteor", ["a"], ["a", "b"], tokenizer=str.split)
    with pytest.raises(InputTypeError):
        pe.compute("meteor", ["a"], "a", tokenizer=str.split)
    with pytest.raises(InputTypeError, match="predictions"):
        pe.compute("meteor", [1], ["a"], tokenizer=str.split)
