import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import GOLDEN_PYTHON


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
