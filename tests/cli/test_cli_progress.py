"""Progress bars of long subcommands: on a terminal only, never with -q (issue 34).

``parbleu report`` and ``parbleu compare`` draw a bar on standard error while they work,
as ``score_files(progress=True)`` and ``parbleu distributed`` do; off a terminal and with
``-q`` nothing is drawn, and standard output is the same either way.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

import parbleu
from parbleu.cli import main

SAMPLE = Path(parbleu.__file__).parent / "sample"
NAMES = ("Online-W", "Facebook-AI", "VolcTrans-GLAT")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _argv(command: str, tmp_path: Path, *extra: str) -> list[str]:
    argv = [command, str(SAMPLE / "ref.A.de"), "-i", *(str(SAMPLE / f"{n}.de") for n in NAMES)]
    argv += ["--n", "50", *extra]
    if command == "report":
        argv += ["-o", str(tmp_path / "r.html"), "--flavors"]
    return argv


def _run(argv: list[str], stderr: Any, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    saved = sys.stderr
    sys.stderr = stderr
    try:
        code = main(argv)
    finally:
        sys.stderr = saved
    out = capsys.readouterr().out
    assert code == 0
    return out, stderr.getvalue()


@pytest.mark.parametrize("command", ["compare", "report"])
def test_bar_on_a_terminal_only(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_tty, err_tty = _run(_argv(command, tmp_path), _Terminal(), capsys)
    # Drawn with carriage returns, then erased (the summary lines stay readable).
    assert "\r" in err_tty and "%" in err_tty
    out_pipe, err_pipe = _run(_argv(command, tmp_path), io.StringIO(), capsys)
    assert "\r" not in err_pipe
    assert out_tty == out_pipe
    _, err_quiet = _run(_argv(command, tmp_path, "-q"), _Terminal(), capsys)
    assert "\r" not in err_quiet


@pytest.mark.parametrize("test", ["bootstrap", "ar"])
def test_compare_all_reports_each_step(test: str) -> None:
    from parbleu.significance import compare_all

    ref = (SAMPLE / "ref.A.de").read_text(encoding="utf-8").splitlines()[:60]
    systems = {n: (SAMPLE / f"{n}.de").read_text(encoding="utf-8").splitlines()[:60] for n in NAMES}
    calls: list[tuple[int, int]] = []
    metrics = [parbleu.BLEU(), parbleu.CHRF()]
    with_bar = compare_all(
        metrics, systems, [ref], test=test, n=20, progress=lambda d, t: calls.append((d, t))
    )
    steps = 2 if test == "bootstrap" else 2 * 3  # metrics, or metrics x pairs
    assert calls == [(i, steps) for i in range(1, steps + 1)]
    without = compare_all(metrics, systems, [ref], test=test, n=20)
    assert with_bar.to_dict() == without.to_dict()


def test_report_progress_callback_counts_every_step() -> None:
    from parbleu.reporting._analysis import analysis_steps

    ref = (SAMPLE / "ref.A.de").read_text(encoding="utf-8").splitlines()[:60]
    systems = {n: (SAMPLE / f"{n}.de").read_text(encoding="utf-8").splitlines()[:60] for n in NAMES}
    calls: list[tuple[int, int]] = []
    parbleu.report([ref], systems, n=20, flavors=(), progress=lambda d, t: calls.append((d, t)))
    total = analysis_steps(3)
    assert calls == [(i, total) for i in range(1, total + 1)]
