"""Every ``>>>`` example in parbleu's docstrings runs and prints what it says (CI runs this).

A docstring example is documentation a reader copies; one that no longer holds (a metric
registered after the example was written) is a wrong statement, so they run with the unit tests.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import parbleu

PACKAGE = Path(parbleu.__file__).resolve().parent


def _modules_with_examples() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>>" not in path.read_text(encoding="utf-8"):
            continue
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append(".".join(["parbleu", *parts]))
    return out


def test_some_modules_have_examples() -> None:
    # The parametrized test below cannot pass vacuously: the registry's examples are found.
    assert "parbleu.metrics.registry" in _modules_with_examples()


@pytest.mark.parametrize("name", _modules_with_examples())
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
