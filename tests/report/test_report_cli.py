"""``parbleu report`` on the command line: the page, the options, clear errors."""

from __future__ import annotations

import builtins
import json
from pathlib import Path
from typing import Any

import pytest
from report_support import NAMES, SAMPLE, parse, require_extra

import parbleu
from parbleu.cli import main

REF = str(SAMPLE / "ref.A.de")
HYPS = [str(SAMPLE / f"{n}.de") for n in NAMES]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_writes_a_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    code, stdout, err = _run(
        ["report", REF, "-i", *HYPS, "-o", str(out), "--n", "50", "--flavors", "nltk",
         "--baseline", "Facebook-AI", "-m", "bleu", "chrf", "--explain"],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    assert stdout == ""
    assert err.startswith(f"parbleu: wrote {out} (3 systems, 500 segments): analysis ")
    root = parse(out.read_text(encoding="utf-8"))
    data = json.loads(root.by_id("parbleu-data").text())
    assert data["systems"] == list(NAMES) and data["baseline"] == "Facebook-AI"
    assert [m["metric"] for m in data["scores"]] == ["BLEU", "chrF2"]
    assert [f["name"] for f in data["flavors"]] == ["nltk"]
    steps = data["flavors"][0]["explain"]
    assert steps and steps[-1]["score"] == data["flavors"][0]["scores"]["Facebook-AI"]
    # --flavor-systems: every system by default.
    assert all(v is not None for v in data["flavors"][0]["scores"].values())
    assert root.by_id("files").text().count(str(SAMPLE)) == 3


def test_baseline_by_file_and_quiet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    argv = ["report", REF, "-i", *HYPS[:2], "-o", str(out), "--n", "20", "--flavors",
            "--baseline", HYPS[1], "-q", "--freq-corpus", REF]  # fmt: skip
    code, stdout, err = _run(argv, capsys)
    assert (code, stdout, err) == (0, "", "")
    data = json.loads(parse(out.read_text(encoding="utf-8")).by_id("parbleu-data").text())
    assert data["baseline"] == "Facebook-AI" and data["flavors"] == []
    assert data["freq_buckets"]["source"] == "word list"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "-i", HYPS[0]], "report: no reference file"),
        (["report", REF, "-i", HYPS[0], HYPS[0]], "a system file is given twice"),
        (
            ["report", REF, "-i", HYPS[0], "--baseline", "nope"],
            "--baseline: 'nope' is not a system",
        ),
        (["report", REF, "-i", "/nonexistent/hyp"], "/nonexistent/hyp"),
        (["report", REF, "-i", HYPS[0], "--flavors", "bogus"], "--flavors: unknown flavor 'bogus'"),
        (["report", REF, "-i", HYPS[0], "-o", "/"], "-o/--output: '/' is a directory"),
        (["report", REF, "-i", str(SAMPLE / "README.md")], "has "),
        # A full disk fails where OSError has no file name: the file is still named.
        (
            ["report", REF, "-i", HYPS[0], "-o", "/dev/full", "--n", "10"],
            "-o/--output '/dev/full': cannot write it (No space left on device)",
        ),
        (
            ["report", REF, "-i", HYPS[0], "-o", "/dev/null", "--n", "10", "--png", REF],
            f"--png folder {REF!r}: is a file, not a folder",
        ),
    ],
)
def test_errors_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _stdout, err = _run(argv, capsys)
    assert code == 1
    assert err.startswith("parbleu: error: ") and err.count("\n") == 1
    assert message in err
    assert "Traceback" not in err


def test_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["report", REF, "-i", HYPS[0], "--n", "0"], capsys)
    assert code == 2 and "--n" in err


def test_png_without_matplotlib(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = builtins.__import__

    def fake(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)
    out = tmp_path / "r.html"
    figs = tmp_path / "figs"
    code, _, err = _run(
        ["report", REF, "-i", HYPS[0], "-o", str(out), "--n", "20", "--png", str(figs)], capsys
    )
    # Regression: the command wrote nothing where the API writes the page and the tables and
    # then raises; both now keep what needs no extra, and say in one line that plots are missing.
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith("parbleu: error: PNG plots (--png, Report.write_plots) need matplotlib")
    assert "parbleu[report]" in err
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "scores" in {p.stem for p in figs.glob("*.md")}
    assert not list(figs.glob("*.png"))
    rep = parbleu.report([["a b c"]], {"s": ["a b c"]}, metrics=[parbleu.BLEU()], n=10)
    assert rep.write_tables(tmp_path / "api")
    with pytest.raises(parbleu.MissingDependencyError, match=r"matplotlib.*parbleu\[report\]"):
        rep.write_plots(tmp_path / "api")


def test_png_and_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_extra("matplotlib")
    figs = tmp_path / "figs"
    argv = ["report", REF, "-i", *HYPS, "-o", str(tmp_path / "r.html"), "--n", "20",
            "--flavors", "nltk", "--png", str(figs)]  # fmt: skip
    code, _, err = _run(argv, capsys)
    assert code == 0, err
    assert "plots " in err
    pngs = sorted(p.name for p in figs.glob("*.png"))
    assert pngs == sorted([
        "freq_buckets.png", "length_buckets.png", "length_diff_buckets.png",
        *(f"sentence_{k}_{w}.png" for k in range(3) for w in ("distribution", "differences")),
    ])  # fmt: skip
    for p in figs.glob("*.png"):
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    stems = {p.stem for p in figs.glob("*.md")}
    assert stems == {
        "scores", "significance", "clusters", "length_buckets", "freq_buckets",
        "length_diff_buckets", "flavors",
    }  # fmt: skip
    assert stems == {p.stem for p in figs.glob("*.tex")}
