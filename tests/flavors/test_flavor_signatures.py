"""Public signatures of the flavors against their originals (where the original is installed).

pycocoevalcap and NLTK are test dependencies: every public function, class and method they
define must exist in the parbleu module with the same parameter names and defaults, except the
few pycocoevalcap members that fail in the original (documented in docs/flavors.md).
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import pytest

from parbleu.flavors import torchmetrics as tm

PAIRS = [
    ("parbleu.flavors.nltk", "nltk.translate.bleu_score"),
    ("parbleu.flavors.nltk", "nltk.translate.gleu_score"),
    ("parbleu.flavors.nltk", "nltk.translate.chrf_score"),
    # The modules mirror NLTK's, so moving an import from nltk to parbleu is a prefix change.
    ("parbleu.flavors.nltk.bleu_score", "nltk.translate.bleu_score"),
    ("parbleu.flavors.nltk.gleu_score", "nltk.translate.gleu_score"),
    ("parbleu.flavors.nltk.chrf_score", "nltk.translate.chrf_score"),
    ("parbleu.flavors.coco", "pycocoevalcap.bleu.bleu"),
    ("parbleu.flavors.coco", "pycocoevalcap.bleu.bleu_scorer"),
]
#: Broken in pycocoevalcap 1.2 (copy: NameError; score_ratio*: AttributeError) or internal
#: helpers on cooked counts, which parbleu does not keep.
NOT_OFFERED = {
    "BleuScorer.copy",
    "BleuScorer.score_ratio",
    "BleuScorer.score_ratio_str",
    "precook",
    "cook_refs",
    "cook_test",
}


def _params(fn: Any) -> list[tuple[str, Any]]:
    return [(p.name, p.default) for p in inspect.signature(fn).parameters.values()]


def _members(orig: Any) -> list[tuple[str, Any]]:
    out = []
    for name, obj in vars(orig).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != orig.__name__:
            continue
        if inspect.isclass(obj):
            for m, f in vars(obj).items():
                if callable(f) and (not m.startswith("_") or m in ("__init__", "__iadd__")):
                    out.append((f"{name}.{m}", f))
        elif callable(obj):
            out.append((name, obj))
    return out


@pytest.mark.parametrize(("ours", "theirs"), PAIRS)
def test_same_public_signatures(ours: str, theirs: str) -> None:
    pytest.importorskip(theirs)
    mine, orig = importlib.import_module(ours), importlib.import_module(theirs)
    for qual, f in _members(orig):
        if qual in NOT_OFFERED:
            continue
        obj: Any = mine
        for part in qual.split("."):
            assert hasattr(obj, part), f"{ours} lacks {qual}"
            obj = getattr(obj, part)
        assert _params(obj) == _params(f), qual


def test_torchmetrics_forward_is_call() -> None:
    preds, target = ["the cat sat"], [["the cat sat down"]]
    a, b = tm.BLEUScore(), tm.BLEUScore()
    assert a.forward(preds, target) == b(preds, target)
    assert a.compute() == b.compute()
