"""docs/distributed.md's local cluster in a script without the ``__main__`` guard: one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from dask_support import require_dask

require_dask()


def _script(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "ref.txt").write_text("a b c\nd e f\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b c\nd e g\n", encoding="utf-8")
    (tmp_path / "score.py").write_text(body, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run(
        [sys.executable, "score.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


def test_unguarded_script_gets_one_clear_error(tmp_path: Path) -> None:
    # Regression: Dask printed hundreds of lines ("Nanny failed to start") from every worker.
    run = _script(
        tmp_path,
        "import parbleu.distributed as pd\n"
        'pd.score_files("hyp.txt", ["ref.txt"], ["bleu"], scheduler="local:2")\n',
    )
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("parbleu.errors.InvalidOptionError: scheduler='local:2'"), run.stderr
    assert 'if __name__ == "__main__":' in last
    assert "Nanny" not in run.stderr and "bootstrapping" not in run.stderr
