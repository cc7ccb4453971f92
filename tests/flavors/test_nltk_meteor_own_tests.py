"""NLTK's own METEOR tests, run against ``parbleu.flavors.nltk.meteor_score`` (no WordNet needed).

The docstrings of ``nltk.translate.meteor_score`` and the file ``nltk/test/meteor.doctest``
(both shipped in the NLTK wheel), with NLTK's functions replaced by parbleu's. The doctest file
tokenizes with ``word_tokenize``, which needs punkt_tab (a download): its sentences have no
punctuation, so ``str.split`` gives the same tokens and stands in for it.
"""

from __future__ import annotations

import doctest
import inspect
import re
from pathlib import Path

import pytest

nltk_meteor = pytest.importorskip("nltk.translate.meteor_score")

from parbleu.flavors.nltk import meteor_score as pm  # noqa: E402

_REWRITES = [
    (re.compile(r"from nltk\.translate import meteor\b"), "meteor = pm.meteor_score"),
    (re.compile(r"from nltk import word_tokenize"), "word_tokenize = str.split"),
]


def _tests() -> list[doctest.DocTest]:
    # The module's own functions only: a finder that walks the module's globals also asks
    # NLTK's lazy ``wordnet`` loader for ``__wrapped__``, which loads WordNet and raises
    # LookupError where it is not downloaded (seen with NLTK 3.9.2 on Python 3.9, at
    # collection, so the whole run stopped).
    finder = doctest.DocTestFinder(recurse=False)
    own = [nltk_meteor] + [
        f
        for f in vars(nltk_meteor).values()
        if inspect.isfunction(f) and f.__module__ == nltk_meteor.__name__
    ]
    name = nltk_meteor.__name__
    tests = [
        t
        for f in own
        for t in finder.find(
            f, f"{name}.{f.__name__}" if f is not nltk_meteor else name, nltk_meteor
        )
        if t.examples
    ]
    tests.sort()
    path = Path(nltk_meteor.__file__).resolve().parents[1] / "test" / "meteor.doctest"
    if path.is_file():
        text = path.read_text(encoding="utf-8")
        tests.append(doctest.DocTestParser().get_doctest(text, {}, "meteor.doctest", str(path), 0))
    return tests


@pytest.mark.parametrize("test", _tests(), ids=lambda t: t.name)
def test_nltk_doctest_against_parbleu(test: doctest.DocTest) -> None:
    for ex in test.examples:
        for pat, repl in _REWRITES:
            ex.source = pat.sub(repl, ex.source)
    ours = {n: getattr(pm, n) for n in ("meteor_score", "single_meteor_score")}
    test.globs = {**test.globs, **ours, "pm": pm}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
    assert runner.tries > 0


def test_doctests_were_found() -> None:
    assert sum(len(t.examples) for t in _tests()) >= 8
