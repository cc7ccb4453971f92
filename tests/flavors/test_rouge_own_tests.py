"""rouge-score 0.1.2's own unit tests, run against ``parbleu.flavors.rouge_score``.

The test files (tests/flavors/rouge_score_own/, unchanged) are imported with ``rouge_score``
and its modules aliased to parbleu's drop-in, so the numbers rouge-score's authors wrote for
themselves check it. They need ``absl-py`` (installed with the ``rouge`` extra). Tests that read
rouge-score's ``testdata/`` (not in its sdist) are skipped unless ``PARBLEU_ROUGE_TESTDATA``
names that directory; the sentence-splitting test needs NLTK's punkt data.
"""

from __future__ import annotations

import atexit
import importlib.util
import inspect
import linecache
import os
import shutil
import sys
import tempfile
import types
import unittest
from pathlib import Path

import pytest

from helpers import require

require("absl", extra="rouge")

import parbleu.flavors.rouge_score as pkg  # noqa: E402
from parbleu.flavors.rouge_score import (  # noqa: E402
    rouge_scorer,
    scoring,
    tokenize,
    tokenizers,
)

OWN = Path(__file__).parent / "rouge_score_own"
FILES = ["rouge_scorer_test", "scoring_test", "tokenize_test", "tokenizers_test"]
TESTDATA = Path(os.environ.get("PARBLEU_ROUGE_TESTDATA", OWN / "testdata"))
HAVE_TESTDATA = TESTDATA.is_dir()
# Without the data, the setUp methods (which read it for every test) get empty files and only
# the tests that use it are skipped.
# Removed at exit explicitly: a TemporaryDirectory left to its finalizer warns (ResourceWarning)
# as the interpreter exits, a traceback under -W error.
DATA = TESTDATA if HAVE_TESTDATA else Path(tempfile.mkdtemp(prefix="rouge-testdata-"))
if not HAVE_TESTDATA:
    atexit.register(shutil.rmtree, DATA, True)
for _f in ("target.txt", "prediction.txt", "target_large.txt", "prediction_large.txt"):
    if not HAVE_TESTDATA:
        (DATA / _f).write_text("", encoding="utf-8")


def _load(name: str, alias: dict[str, types.ModuleType]) -> types.ModuleType:
    spec = importlib.util.spec_from_loader(f"rouge_score_own.{name}", loader=None)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    mod.__file__ = str(OWN / f"{name}.py")
    source = (OWN / f"{name}.py.txt").read_text(encoding="utf-8")
    # inspect (the skip checks) and tracebacks read the source through linecache.
    linecache.cache[mod.__file__] = (len(source), None, source.splitlines(True), mod.__file__)
    saved = {k: sys.modules.get(k) for k in alias}
    sys.modules.update(alias)
    try:
        exec(compile(source, str(OWN / f"{name}.py"), "exec"), mod.__dict__)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return mod


def _modules() -> list[types.ModuleType]:
    alias: dict[str, types.ModuleType] = {
        "rouge_score": pkg,
        "rouge_score.rouge_scorer": rouge_scorer,
        "rouge_score.scoring": scoring,
        "rouge_score.tokenize": tokenize,
        "rouge_score.tokenizers": tokenizers,
    }
    test_util = _load("test_util", alias)
    test_util._TESTDATA_PREFIX = str(DATA)
    for k in ("TARGETS", "PREDICTIONS", "LARGE_TARGETS", "LARGE_PREDICTIONS"):
        base = Path(getattr(test_util, f"{k}_FILE")).name
        setattr(test_util, f"{k}_FILE", str(DATA / base))
    test_util.PYROUGE_DIR = str(DATA / "pyrouge_files")
    alias["rouge_score.test_util"] = test_util
    return [_load(name, {**alias, "rouge_score": _package_with(test_util)}) for name in FILES]


def _package_with(test_util: types.ModuleType) -> types.ModuleType:
    # `from rouge_score import test_util` reads the attribute of the package: a stand-in
    # package holding parbleu's modules and the test helper (parbleu's own package is left as is).
    stand_in = types.ModuleType("rouge_score")
    for name in ("rouge_scorer", "scoring", "tokenize", "tokenizers"):
        setattr(stand_in, name, getattr(pkg, name))
    stand_in.test_util = test_util  # type: ignore[attr-defined]
    return stand_in


def _cases() -> list[unittest.TestCase]:
    loader = unittest.TestLoader()
    cases: list[unittest.TestCase] = []
    for mod in _modules():
        suite = loader.loadTestsFromModule(mod)
        stack: list[unittest.TestSuite | unittest.TestCase] = [suite]
        while stack:
            item = stack.pop()
            if isinstance(item, unittest.TestSuite):
                stack.extend(reversed(list(item)))
            else:
                cases.append(item)
    return cases


CASES = _cases()


def _needs_testdata(case: unittest.TestCase) -> bool:
    src = inspect.getsource(getattr(type(case), case._testMethodName))
    return any(s in src for s in ("test_util.", "self.targets", "self.predictions"))


def _punkt() -> bool:
    try:
        import nltk

        nltk.sent_tokenize("A. B.")
    except (ImportError, LookupError):
        return False
    return True


def test_all_four_files_found() -> None:
    assert {type(c).__module__.rsplit(".", 1)[-1] for c in CASES} == set(FILES)
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[c.id().split(".", 1)[-1] for c in CASES])
def test_rouge_score_own(case: unittest.TestCase) -> None:
    if not HAVE_TESTDATA and _needs_testdata(case):
        pytest.skip("reads rouge-score's testdata/, which its sdist does not ship")
    if "SentenceSplitting" in case._testMethodName and not _punkt():
        pytest.skip("needs NLTK's punkt data (python -m nltk.downloader punkt_tab)")
    result = unittest.TestResult()
    case.run(result)
    problems = result.errors + result.failures
    assert not problems, problems[0][1]
    assert not result.skipped, result.skipped
