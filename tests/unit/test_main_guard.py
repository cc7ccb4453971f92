"""A local Dask cluster started from a script's unguarded top level: one clear error.

The detection (``parbleu.distributed._main_guard``) needs no Dask: scripts that call it print
what it finds. The end-to-end run is in tests/dask_engine/test_main_guard_cli.py.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from parbleu.distributed import _main_guard
from parbleu.errors import InvalidOptionError

PROBE = "from parbleu.distributed._main_guard import _called_outside_guard as probe\n"


def _run(tmp_path: Path, body: str, *args: str) -> str:
    script = tmp_path / "script.py"
    script.write_text(PROBE + body, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, *args, str(script)], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("print(probe())\n", "True"),
        ("def main():\n    print(probe())\n\n\nmain()\n", "True"),
        ("x = [\n    probe()\n]\nprint(x[0])\n", "True"),
        ('if __name__ == "__main__":\n    print(probe())\n', "False"),
        ("if '__main__' == __name__:\n    print(probe())\n", "False"),
        ('def main():\n    print(probe())\n\n\nif __name__ == "__main__":\n    main()\n', "False"),
        ('if __name__ != "__main__":\n    pass\nelse:\n    print(probe())\n', "True"),
    ],
    ids=[
        "top level",
        "function called at top level",
        "multi-line statement",
        "guard",
        "reversed guard",
        "function called under the guard",
        "not a guard",
    ],
)
def test_unguarded_top_level_is_found(tmp_path: Path, body: str, expected: str) -> None:
    assert _run(tmp_path, body).strip() == expected


def test_no_script_no_guard_needed(tmp_path: Path) -> None:
    # python -c (like a REPL or a notebook) has no file to import again in the workers.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE + "print(probe())"], capture_output=True, text=True, env=env
    )
    assert out.stdout.strip() == "False", out.stderr


def test_spawned_child_still_bootstrapping_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # In a spawn/forkserver child, multiprocessing marks the process while it imports the
    # parent's main module; a cluster started then is what Dask reports as "Nanny failed".
    monkeypatch.setattr(multiprocessing.current_process(), "_inheriting", True, raising=False)
    with pytest.raises(InvalidOptionError, match=r"scheduler='local:4'.*__name__ == \"__main__\""):
        _main_guard.refuse_unguarded_main("local:4")
