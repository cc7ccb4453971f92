"""``parbleu compare``: all-pairs significance from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import REPO, run_main

import parbleu
from parbleu.cli.compare import short_names
from parbleu.cli.errors import ExitCode
from parbleu.significance import compare_all

SAMPLE = REPO / "python" / "parbleu" / "sample"
REF = str(SAMPLE / "ref.A.de")
HYPS = [str(SAMPLE / f"{n}.de") for n in ("Online-W", "Facebook-AI", "VolcTrans-GLAT")]


def _lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").split("\n")[:-1]


def test_text_report(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_main(["compare", REF, "-i", *HYPS, "-m", "bleu", "ter", "--n", "200"], monkeypatch)
    assert run.code == 0, run.err
    text = run.out.decode()
    assert text.startswith(f"Systems: the files {SAMPLE}/<name>.de.\n")
    assert "paired bootstrap resampling, 200 resamples, seed 12345" in text
    assert "BLEU (higher is better)" in text and "TER (lower is better)" in text
    assert "Holm-Bonferroni correction over the 3 pairs" in text
    assert run.err == b""


def test_json_equals_the_api(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["compare", REF, "-i", *HYPS, "-m", "chrf", "--chrf-word-order", "2", "--paired-ar",
            "--n", "300", "--seed", "0", "--alpha", "0.01", "-f", "json"]  # fmt: skip
    run = run_main(argv, monkeypatch)
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert data.pop("files") == dict(zip(["Online-W", "Facebook-AI", "VolcTrans-GLAT"], HYPS))
    systems = {n: _lines(h) for n, h in zip(["Online-W", "Facebook-AI", "VolcTrans-GLAT"], HYPS)}
    api = compare_all(parbleu.CHRF(word_order=2), systems, [_lines(REF)], test="ar", n=300,
                      seed=0, alpha=0.01)  # fmt: skip
    assert data == json.loads(api.to_json())
    assert data["metrics"][0]["metric"] == "chrF2++"


@pytest.mark.parametrize(
    ("argv", "code", "fragment"),
    [
        (["-i", *HYPS], ExitCode.ERROR, "no reference file"),
        ([REF, "-i", HYPS[0]], ExitCode.ERROR, "at least two"),
        ([REF, "-i", HYPS[0], HYPS[0]], ExitCode.ERROR, "twice"),
        ([REF, "-i", *HYPS, "--alpha", "2"], ExitCode.USAGE, "between 0 and 1"),
        ([REF, "-i", *HYPS, "--seed", "-1"], ExitCode.USAGE, ">= 0"),
        ([REF, "-i", *HYPS, "--paired-bs", "--paired-ar"], ExitCode.USAGE, "not allowed"),
        ([REF, "-i", HYPS[0], REF + ".missing"], ExitCode.ERROR, "missing"),
    ],
)
def test_errors(argv: list[str], code: int, fragment: str, monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_main(["compare", *argv], monkeypatch)
    assert run.code == code
    assert run.out == b""
    assert fragment in run.err.decode()
    if code == ExitCode.ERROR:
        assert len(run.err_lines) == 1 and run.err_lines[0].startswith("parbleu: error: ")


def test_length_mismatch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    short = tmp_path / "short.de"
    short.write_text("a\nb\n", encoding="utf-8")
    run = run_main(["compare", REF, "-i", HYPS[0], str(short)], monkeypatch)
    assert run.code == ExitCode.ERROR and "2 lines" in run.err.decode()


def test_help(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_main(["compare", "--help"], monkeypatch)
    assert run.code == 0 and run.out.startswith(b"usage: parbleu compare")


def test_short_names() -> None:
    assert short_names(["d/hyp.a.de", "d/hyp.b.de"]) == ["a", "b"]
    assert short_names(["d/hyp.UF.de", "d/hyp.UEdin.de"]) == ["UF", "UEdin"]
    assert short_names(["x", "y"]) == ["x", "y"]
    assert short_names(["d/a.de", "e/a.de"]) == ["d", "e"]
    assert short_names(["a.de", "a.de.gz"]) == ["de", "de.gz"]


def test_few_segments_warn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # One segment: every bootstrap resample is that segment, every pair "significant".
    files = []
    for name, path in (("ref", REF), *((f"h{k}", h) for k, h in enumerate(HYPS))):
        (tmp_path / name).write_text(_lines(path)[0] + "\n", encoding="utf-8")
        files.append(str(tmp_path / name))
    run = run_main(["compare", files[0], "-i", *files[1:], "-m", "bleu"], monkeypatch)
    assert run.code == 0 and run.out
    assert run.err_lines == [
        "parbleu: compare: warning: 1 segment: the paired bootstrap needs at least 50 segments "
        "(with fewer it finds differences too often); use --paired-ar, valid at any size"
    ]
    run = run_main(["compare", files[0], "-i", *files[1:], "-m", "bleu", "-par"], monkeypatch)
    assert run.code == 0 and run.err_lines == []
