"""Running the ``parbleu`` command in-process and SacreBLEU's in a subprocess, for byte checks."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import parbleu
from helpers import REPO, SHARED, requires_shared
from parbleu.cli import main

GOLDEN_CLI = SHARED / "golden" / "sacrebleu" / "cli"
WMT21 = SHARED / "data" / "wmt21"

__all__ = ["GOLDEN_CLI", "REPO", "SHARED", "WMT21", "requires_shared"]

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
    """The environment for SacreBLEU: output-changing variables cleared, ``env`` added."""
    e = {k: v for k, v in os.environ.items() if k not in OUTPUT_ENV}
    e.update(env or {})
    return e


@dataclass
class Job:
    """One SacreBLEU command: arguments, working directory, standard input, environment."""

    argv: list[str]
    cwd: Path
    stdin: bytes = b""
    env: dict[str, str] | None = None


# Imports SacreBLEU once, then runs each job in a forked child exactly as ``python -m sacrebleu``
# would (its main() with sys.argv set, file descriptors 0-2 redirected, exit handlers run):
# the same process state, without paying Python's and SacreBLEU's start-up for every command.
_DRIVER = r"""
import atexit, json, os, sys, traceback
import sacrebleu.sacrebleu, sacrebleu.metrics, sacrebleu.significance
jobs = json.load(open(sys.argv[1]))
running = {}
def reap():
    pid, status = os.wait()
    running.pop(pid)
for i, job in enumerate(jobs):
    while len(running) >= int(sys.argv[2]):
        reap()
    pid = os.fork()
    if pid:
        running[pid] = i
        continue
    code = 1
    try:
        os.chdir(job["cwd"])
        os.environ.clear()
        os.environ.update(job["env"])
        for fd, path, mode in ((0, job["stdin"], os.O_RDONLY),
                               (1, job["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                               (2, job["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            os.dup2(os.open(path, mode, 0o644), fd)
        sys.argv = ["sacrebleu", *job["argv"]]
        try:
            sacrebleu.sacrebleu.main()
            code = 0
        except SystemExit as e:
            if e.code is None or isinstance(e.code, int):
                code = e.code or 0
            else:
                print(e.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    finally:
        with open(job["code"], "w") as f:
            f.write(str(code))
        os._exit(code)
while running:
    reap()
"""


def run_sacrebleu(jobs: list[Job], tmp: Path, parallel: int = 2) -> list[Run]:
    """Run SacreBLEU 2.6.0's command line on every job; results in job order."""
    specs: list[dict[str, Any]] = []
    for i, job in enumerate(jobs):
        stdin = tmp / f"job{i}.stdin"
        stdin.write_bytes(job.stdin)
        specs.append(
            {
                "argv": job.argv,
                "cwd": str(job.cwd),
                "env": sacrebleu_env(job.env),
                "stdin": str(stdin),
                "stdout": str(tmp / f"job{i}.stdout"),
                "stderr": str(tmp / f"job{i}.stderr"),
                "code": str(tmp / f"job{i}.code"),
            }
        )
    spec_path = tmp / "jobs.json"
    spec_path.write_text(json.dumps(specs))
    subprocess.run(
        [sys.executable, "-c", _DRIVER, str(spec_path), str(parallel)], check=True, timeout=600
    )
    return [
        Run(
            int(Path(s["code"]).read_text()),
            Path(s["stdout"]).read_bytes(),
            Path(s["stderr"]).read_bytes(),
        )
        for s in specs
    ]
