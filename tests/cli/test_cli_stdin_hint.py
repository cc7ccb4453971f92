"""Hypotheses awaited on a terminal: one line on standard error, standard output unchanged.

``parbleu ref.de hyp.de`` (``-i`` forgotten) reads the hypotheses from standard input; on a
terminal that used to wait without a word. Each test runs the command with a pseudo-terminal
as standard input, types the hypothesis and Ctrl-D, and compares with SacreBLEU run the same way.
"""

from __future__ import annotations

import os
import pty
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

HINT = "parbleu: reading hypotheses from standard input (the terminal)"


def _run_on_tty(cmd: list[str], typed: bytes, cwd: Path) -> tuple[bytes, bytes]:
    """Run ``cmd`` with a pseudo-terminal as standard input; type ``typed`` then Ctrl-D."""
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen(
            cmd, stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd
        )
        os.close(slave)
        time.sleep(0.2)  # let it start waiting (the hint is written before the read anyway)
        os.write(master, typed)
        os.write(master, b"\x04")  # Ctrl-D at the start of a line: end of input
        out, err = p.communicate(timeout=120)
    finally:
        os.close(master)
    return out, err


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "ref.de").write_text("Das ist ein kleiner Test .\n", encoding="utf-8")
    return tmp_path


def test_terminal_stdin_gets_one_hint_line(files: Path) -> None:
    out, err = _run_on_tty(
        [sys.executable, "-m", "parbleu", "ref.de", "-b"], b"Das ist ein Test .\n", files
    )
    lines = err.decode().splitlines()
    assert [line for line in lines if line.startswith(HINT)] == [lines[0]]
    assert "Ctrl-D" in lines[0] and "Ctrl-C" in lines[0] and "-i/--input" in lines[0]
    assert out.strip() == b"40.9"


def test_hint_even_with_quiet(files: Path) -> None:
    _, err = _run_on_tty(
        [sys.executable, "-m", "parbleu", "ref.de", "-b", "-q"], b"Das ist ein Test .\n", files
    )
    assert err.decode().startswith(HINT)


def test_stdout_identical_to_sacrebleu_on_a_terminal(files: Path) -> None:
    exe = shutil.which("sacrebleu") or str(Path(sys.executable).parent / "sacrebleu")
    if not Path(exe).exists():
        pytest.skip("sacrebleu's command is not installed")
    typed = b"Das ist ein Test .\n"
    ours, _ = _run_on_tty([sys.executable, "-m", "parbleu", "ref.de"], typed, files)
    theirs, _ = _run_on_tty([exe, "ref.de"], typed, files)
    assert b'"score"' in ours
    # Byte for byte but the version (signature field and "version" key).
    version = re.compile(rb'version:[^"|]*|"version": "[^"]*"')
    assert version.sub(b"V", ours) == version.sub(b"V", theirs)


def test_no_hint_from_a_pipe(files: Path) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "parbleu", "ref.de", "-b"],
        input=b"Das ist ein Test .\n",
        capture_output=True,
        cwd=files,
        check=True,
    )
    assert b"standard input" not in p.stderr
    assert p.stdout.strip() == b"40.9"


def test_moses_flavor_hint_on_a_terminal(files: Path) -> None:
    _, err = _run_on_tty(
        [sys.executable, "-m", "parbleu", "--flavor", "multi-bleu", "ref.de"],
        b"Das ist ein Test .\n",
        files,
    )
    assert err.decode().startswith(HINT)


def test_fairseq_flavor_hint_only_when_reading_stdin(files: Path) -> None:
    _, err = _run_on_tty(
        [sys.executable, "-m", "parbleu", "--flavor", "fairseq", "-r", "ref.de"],
        b"Das ist ein Test .\n",
        files,
    )
    assert err.decode().startswith(HINT)
    (files / "hyp.de").write_text("Das ist ein Test .\n", encoding="utf-8")
    _, err = _run_on_tty(
        [sys.executable, "-m", "parbleu", "--flavor", "fairseq", "-r", "ref.de", "-s", "hyp.de"],
        b"",
        files,
    )
    assert HINT not in err.decode()
