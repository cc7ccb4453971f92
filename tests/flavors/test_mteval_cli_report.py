"""``parbleu --flavor mteval-v13a|v14``: the whole report, byte for byte, as the Perl scripts print.

Oracle: ``tests/data/mteval_cli/cases.jsonl`` (recorded from the real scripts; see its README).
"""

from __future__ import annotations

import io
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from parbleu.cli import main

DATA = Path(__file__).resolve().parent.parent / "data" / "mteval_cli"
CASES = [json.loads(x) for x in (DATA / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
_DATE = re.compile(r"^(MT evaluation scorer (?:began|ended) on ).*$", re.M)
_INFO = re.compile(r"^-?\d+\.\d\d info for each of ")


def _normalize(stdout: str) -> list[str]:
    """Dates masked; each run of ``-d 3`` n-gram lines sorted (Perl prints them in hash order)."""
    lines = _DATE.sub(r"\1DATE", stdout).split("\n")
    out: list[str] = []
    block: list[str] = []
    for line in lines:
        if _INFO.match(line):
            block.append(line)
            continue
        out += sorted(block)
        block = []
        out.append(line)
    return out + sorted(block)


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = main(argv)
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c['version']}:{' '.join(c['args'][1::2][:1] + c['args'][6:])}"
)
def test_report_is_the_perl_printout(
    case: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("src", "ref", "tst"):
        for ext in ("sgm", "xml"):
            shutil.copy(DATA / f"{name}.{ext}", tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(["--flavor", f"mteval-{case['version']}", *case["args"]])
    assert (code, err) == (case["rc"], case["stderr"])
    assert _normalize(out) == _normalize(case["stdout"])
    for name, text in case["files"].items():
        assert (tmp_path / name).read_text(encoding="utf-8") == text, name
    assert sorted(p.name for p in tmp_path.glob("*.scr")) == sorted(case["files"])


def test_cases_cover_every_report_option() -> None:
    flags = {a for c in CASES for a in c["args"][6:] if a.startswith("-")}
    assert flags >= {
        "-c",
        "-b",
        "-n",
        "-d",
        "-x",
        "--no-smoothing",
        "--international-tokenization",
        "--brevity-penalty",
        "--metricsMATR",
    }


def test_setids_must_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("src", "ref", "tst"):
        shutil.copy(DATA / f"{name}.sgm", tmp_path)
    tst = tmp_path / "tst.sgm"
    tst.write_text(tst.read_text(encoding="utf-8").replace('setid="demo"', 'setid="other"'))
    monkeypatch.chdir(tmp_path)
    argv = ["-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm"]
    code, _, err = _run(["--flavor", "mteval-v13a", *argv])
    assert code == 255
    assert err == "Not the same 'setid' attribute values across files at mteval-v13a.pl line 490.\n"
