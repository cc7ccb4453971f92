import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import HOME_VARIABLES, golden_sum

# Tests must not touch the user's machine (caches, models, lock files in ~/.sacrebleu, ~/.cache).
# The variables point into a folder of this session already here, before the test modules
# import SacreBLEU (which reads $SACREBLEU once, at import); each test then gets a fresh home
# of its own (_isolated_home). matplotlib's config dir stays the session's: its font cache
# takes seconds to build, once.
_SESSION_HOME = Path(tempfile.mkdtemp(prefix="parbleu-tests-home-"))


def _point_home_at(home: Path, setenv: Callable[[str, str], None] = os.environ.__setitem__) -> None:
    for name, sub in HOME_VARIABLES.items():
        (home / sub).mkdir(parents=True, exist_ok=True)
        setenv(name, str(home / sub))


_point_home_at(_SESSION_HOME)
os.environ["MPLCONFIGDIR"] = str(_SESSION_HOME / ".config" / "matplotlib")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_SESSION_HOME, ignore_errors=True)


@pytest.fixture(autouse=True)
def _isolated_home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, empty home for each test: HOME, SACREBLEU, the XDG and HF/torch caches.

    Set in ``os.environ`` through ``monkeypatch``, so subprocesses the test starts inherit it.
    """
    home = Path(tempfile.mkdtemp(prefix="home-", dir=_SESSION_HOME))
    _point_home_at(home, monkeypatch.setenv)
    try:
        yield home
    finally:
        shutil.rmtree(home, ignore_errors=True)


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
    with golden_sum():
        yield
