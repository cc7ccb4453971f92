"""Every module of parbleu imports on this interpreter (the CI runs it on Python 3.9 and 3.13 too).

A module-level expression that only newer interpreters evaluate (``float | None`` outside an
annotation is a ``TypeError`` before Python 3.10) breaks every command that imports the
module; only the modules of an optional extra may fail, and only when that extra is missing.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import parbleu


def _modules(folder: Path, prefix: str) -> Iterator[str]:
    """Every module under ``folder``, found without importing any (``pkgutil.walk_packages``
    imports each package to look inside it, so one failing package was a collection error
    that hid every other module's test)."""
    for m in pkgutil.iter_modules([str(folder)], prefix):
        yield m.name
        if m.ispkg:
            yield from _modules(folder / m.name.rsplit(".", 1)[1], m.name + ".")


MODULES = sorted(_modules(Path(parbleu.__file__).parent, "parbleu."))

# Top-level packages of the optional extras: a module may fail to import without them.
OPTIONAL = ("torch", "torchmetrics", "evaluate", "datasets", "distributed", "dask", "matplotlib")


def test_the_package_has_its_modules() -> None:
    assert len(MODULES) > 50
    assert "parbleu.metaeval" in MODULES and "parbleu.cli.meta" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_module_imports(name: str) -> None:
    try:
        importlib.import_module(name)
    except ImportError as e:
        missing = [m for m in OPTIONAL if importlib.util.find_spec(m) is None]
        if not any(m in str(e) for m in missing):
            raise
        pytest.skip(f"{name} needs an optional extra that is not installed: {e}")
