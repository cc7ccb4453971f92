"""NLTK's own BLEU/GLEU/chrF tests, run against ``parbleu.flavors.nltk``.

The NLTK wheel ships its tests for these modules as doctests: the docstrings of
``nltk.translate.bleu_score``, ``gleu_score`` and ``chrf_score`` and the file
``nltk/test/bleu.doctest`` (its ``unit/translate/test_bleu.py`` is not installed). Each example
is run with NLTK's functions replaced by parbleu's (module globals and import lines rewritten),
so the expected outputs NLTK wrote for itself check the flavor.
"""

from __future__ import annotations

import doctest
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
nltk_gleu = pytest.importorskip("nltk.translate.gleu_score")
nltk_chrf = pytest.importorskip("nltk.translate.chrf_score")

from parbleu.flavors import nltk as pn  # noqa: E402

_REWRITES = [
    (
        re.compile(r"from nltk\.translate\.(bleu|gleu|chrf)_score import"),
        "from parbleu.flavors.nltk import",
    ),
    (
        re.compile(r"from nltk\.translate import bleu\b"),
        "from parbleu.flavors.nltk import sentence_bleu as bleu",
    ),
    (re.compile(r"from nltk\.translate import (\w+)"), r"from parbleu.flavors.nltk import \1"),
]


def _ours() -> dict[str, Any]:
    return {name: getattr(pn, name) for name in pn.__all__}


def _rewrite(test: doctest.DocTest) -> doctest.DocTest:
    for ex in test.examples:
        for pat, repl in _REWRITES:
            ex.source = pat.sub(repl, ex.source)
        assert "nltk." not in ex.source.replace("parbleu.flavors.nltk", ""), ex.source
    test.globs = {**test.globs, **_ours()}
    return test


def _module_tests() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder()
    tests = []
    for mod in (nltk_bleu, nltk_gleu, nltk_chrf):
        for t in finder.find(mod):
            if t.examples:
                tests.append(t)
    return tests


def _file_test() -> doctest.DocTest | None:
    path = Path(nltk_bleu.__file__).resolve().parents[1] / "test" / "bleu.doctest"
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    return doctest.DocTestParser().get_doctest(text, {}, "bleu.doctest", str(path), 0)


def _all_tests() -> list[doctest.DocTest]:
    tests = _module_tests()
    ft = _file_test()
    if ft is not None:
        tests.append(ft)
    return tests


@pytest.mark.parametrize("test", _all_tests(), ids=lambda t: t.name)
def test_nltk_doctest_against_parbleu(test: doctest.DocTest) -> None:
    test = _rewrite(test)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)


def test_doctests_were_found() -> None:
    tests = _all_tests()
    assert sum(len(t.examples) for t in tests) > 40
