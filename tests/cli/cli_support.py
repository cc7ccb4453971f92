"""Running the ``parbleu`` command in-process and SacreBLEU's in a subprocess, for byte checks."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import parbleu
from parbleu.cli import main

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
GOLDEN_CLI = SHARED / "golden" / "sacrebleu" / "cli"
WMT21 = SHARED / "data" / "wmt21"

requires_shared = pytest.mark.skipif(
    not SHARED.is_dir(), reason="../shared (golden data) is not beside the checkout"
)

_VERSION = re.escape(parbleu.__version__)
_VERSION_FIELD = re.compile(rf'(version:|v:|"version": ")parbleu-{_VERSION}')
#: Variables that change SacreBLEU's and parbleu's output; cleared unless a case sets them.
OUTPUT_ENV = ("SACREBLEU_FORMAT", "NO_COLOR", "SACREBLEU_SEED")


@dataclass
class Run:
    """Exit code and the exact bytes written to standard output and standard error."""

    code: int
    out: bytes
    err: bytes

    @property
    def err_lines(self) -> list[str]:
        return self.err.decode("utf-8", errors="replace").splitlines()


def as_sacrebleu(data: bytes) -> bytes:
    """Rewrite parbleu's version fields as SacreBLEU 2.6.0's (the one allowed difference)."""
    text = data.decode("utf-8", errors="surrogateescape")
    text = _VERSION_FIELD.sub(lambda m: f"{m.group(1)}2.6.0", text)
    return text.encode("utf-8", errors="surrogateescape")


def run_main(
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    *,
    stdin: bytes = b"",
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> Run:
    """Run ``parbleu.cli.main(argv)`` with captured binary streams."""
    with monkeypatch.context() as mp:
        for k in OUTPUT_ENV:
            mp.delenv(k, raising=False)
        for k, v in (env or {}).items():
            mp.setenv(k, v)
        mp.chdir(cwd or SHARED)
        out, err = io.BytesIO(), io.BytesIO()
        out_w = io.TextIOWrapper(out, encoding="utf-8", newline="\n")
        err_w = io.TextIOWrapper(err, encoding="utf-8", newline="\n")
        mp.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        mp.setattr(sys, "stdout", out_w)
        mp.setattr(sys, "stderr", err_w)
        code = main(argv)
        out_w.flush()
        err_w.flush()
        return Run(int(code), out.getvalue(), err.getvalue())


def sacrebleu_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a SacreBLEU subprocess: output-changing variables cleared."""
    e = {k: v for k, v in os.environ.items() if k not in OUTPUT_ENV}
    e.update(env or {})
    return e


def start_sacrebleu(
    argv: list[str], cwd: Path, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """Start ``python -m sacrebleu argv`` (stdin written by :func:`finish`)."""
    return subprocess.Popen(
        [sys.executable, "-m", "sacrebleu", *argv],
        cwd=cwd,
        env=sacrebleu_env(env),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def finish(proc: subprocess.Popen[bytes], stdin: bytes = b"") -> Run:
    out, err = proc.communicate(stdin, timeout=120)
    return Run(proc.returncode, out, err)
