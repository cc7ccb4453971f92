import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import GOLDEN_PYTHON

# Without the compiled core every test module fails to import: say so once, before collecting.
try:
    import parbleu  # noqa: F401

    _MISSING_CORE = None
except ModuleNotFoundError as e:
    if e.name not in ("parbleu", "parbleu._core"):
        raise
    _MISSING_CORE = e.name


def pytest_sessionstart(session: pytest.Session) -> None:
    if _MISSING_CORE is not None:
        pytest.exit(
            f"cannot import {_MISSING_CORE}: the install builds the Rust core; run README "
            "command 2 (pip install -e '.[test,ja,ko]') in this clone first",
            returncode=pytest.ExitCode.USAGE_ERROR,
        )


@pytest.fixture(autouse=True)
def _sum_as_the_oracle(request: pytest.FixtureRequest) -> Iterator[None]:
    """BLEU's log sum is Python's sum(), compensated since CPython 3.12 (parbleu follows the
    running interpreter). The golden records were computed under CPython GOLDEN_PYTHON, so the
    golden tests (modules named *golden* or *official*) sum as that interpreter did; the tests
    against the live SacreBLEU/NLTK keep the running interpreter's way."""
    name = request.module.__name__.rsplit(".", 1)[-1]
    if "golden" not in name and "official" not in name:
        yield
        return
    from parbleu import _core

    was = _core.set_compensated_sum(GOLDEN_PYTHON >= (3, 12))
    try:
        yield
    finally:
        _core.set_compensated_sum(was)
