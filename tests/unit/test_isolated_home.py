"""The tests leave the user's machine alone: every test runs with a temporary home."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers import HOME_VARIABLES, REAL_HOME


def _listing(root: Path) -> set[str]:
    """Every path under ``root`` (relative), or nothing when it does not exist."""
    if not root.is_dir():
        return set()
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def test_every_home_variable_points_into_the_tests_home(_isolated_home: Path) -> None:
    assert Path(os.path.expanduser("~")).resolve() == _isolated_home.resolve()
    assert Path.home().resolve() != REAL_HOME
    for name, sub in HOME_VARIABLES.items():
        assert Path(os.environ[name]) == _isolated_home / sub, name


def test_a_cli_subprocess_writes_its_cache_in_the_tests_home(
    _isolated_home: Path, tmp_path: Path
) -> None:
    # Regression: `-tok spm` (tests/reliability/test_hostile_cli.py) left
    # ~/.sacrebleu/models/sacrebleu_tokenizer_spm.model.lock in the real home.
    (tmp_path / "ref").write_text("a b c\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("a b c\n", encoding="utf-8")
    real_cache = REAL_HOME / ".sacrebleu"
    before = _listing(real_cache)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    # No network is needed: the download fails (or succeeds) inside the temporary home.
    subprocess.run(
        [sys.executable, "-m", "parbleu", "ref", "-i", "hyp", "-tok", "spm"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        timeout=120,
    )
    models = _isolated_home / ".sacrebleu" / "models"
    assert any(p.name.startswith("sacrebleu_tokenizer_spm.model") for p in models.iterdir())
    assert _listing(real_cache) == before
