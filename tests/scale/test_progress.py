"""The progress bar: drawn on a terminal only, never with --quiet or into a pipe."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys

import pytest
from scale_support import REF_A, requires_wmt21

from parbleu.progress import ProgressBar, make_progress

HYP = REF_A.parent.parent / "system-outputs" / "newstest2021.en-de.hyp.Online-W.de"


def _run(extra: list[str], tty: bool) -> tuple[int, bytes, bytes]:
    env = dict(os.environ, PARBLEU_STREAM_MIN_BYTES="0")
    cmd = [sys.executable, "-m", "parbleu", str(REF_A), "-i", str(HYP), "-b", *extra]
    if not tty:
        p = subprocess.run(cmd, capture_output=True, env=env, timeout=60)
        return p.returncode, p.stdout, p.stderr
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    out, _ = proc.communicate(timeout=60)
    code = proc.returncode
    os.close(master)
    return code, out, b"".join(chunks)


@requires_wmt21
def test_bar_on_a_terminal_only() -> None:
    code, out, err = _run([], tty=True)
    assert code == 0 and out.strip()
    assert b"\r" in err and b"lines/s" in err and b"parbleu" in err
    code, out_pipe, err_pipe = _run([], tty=False)
    assert (code, out_pipe, err_pipe) == (0, out, b"")
    code, out_q, err_q = _run(["-q"], tty=True)
    assert code == 0 and out_q == out and b"lines/s" not in err_q


def test_render_and_callbacks() -> None:
    stream = io.StringIO()
    bar = ProgressBar(1000, "pairs", "mbr", stream=stream, min_interval=0.0)
    text = bar.render(250, now=bar.start + 2.0)
    assert text.startswith("mbr [######") and "25%" in text
    assert "250/1.0k pairs" in text and "125 pairs/s" in text and "00:06 left" in text
    bar.update(1000)
    bar.close()
    assert stream.getvalue().startswith("\r") and stream.getvalue().endswith("\n")
    assert make_progress(None, 5, "x") == (None, None)
    assert make_progress(False, 5, "x") == (None, None)
    seen: list[tuple[int, int]] = []
    cb, b = make_progress(lambda d, t: seen.append((d, t)), 5, "x")
    assert b is None and cb is not None
    cb(1, 5)
    assert seen == [(1, 5)]
    with pytest.raises(ValueError):
        make_progress("yes", 5, "x")  # type: ignore[arg-type]
