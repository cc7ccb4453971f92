"""``--scores``: imported segment scores beside BLEU in ``parbleu compare``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import REPO, run_main

import parbleu
from parbleu.significance import compare_all

SAMPLE = REPO / "python" / "parbleu" / "sample"
REF = str(SAMPLE / "ref.A.de")
NAMES = ("Online-W", "Facebook-AI", "VolcTrans-GLAT")
HYPS = [str(SAMPLE / f"{n}.de") for n in NAMES]


def _lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").split("\n")[:-1]


def _score_files(tmp_path: Path) -> list[str]:
    """A fake learned metric: chrF per sentence / 100, one file per system."""
    out = []
    for name, hyp in zip(NAMES, HYPS):
        scores = parbleu.CHRF().sentence_scores(_lines(hyp), [_lines(REF)])
        p = tmp_path / f"{name}.comet"
        p.write_text("".join(f"{float(s) / 100!r}\n" for s in scores), encoding="utf-8")
        out.append(str(p))
    return out


def test_imported_scores_resample_with_bleu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _score_files(tmp_path)
    argv = ["compare", REF, "-i", *HYPS, "-m", "bleu", "--scores", f"FAKE={','.join(files)}",
            "--higher-is-better", "FAKE", "--n", "200", "-f", "json"]  # fmt: skip
    run = run_main(argv, monkeypatch)
    assert run.code == 0, run.err
    data = json.loads(run.out)
    systems = {n: _lines(h) for n, h in zip(NAMES, HYPS)}
    fake = parbleu.ImportedScores(
        "FAKE",
        {n: [float(x) for x in _lines(f)] for n, f in zip(NAMES, files)},
        higher_is_better=True,
        info=",".join(files),
        hypotheses=systems,
    )
    api = compare_all([parbleu.BLEU(), fake], systems, [_lines(REF)], n=200, seed=12345)
    assert json.dumps(data["metrics"], sort_keys=True) == json.dumps(
        api.to_dict()["metrics"], sort_keys=True
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--scores", "X=FILES"], "give exactly one of --higher-is-better X"),
        (["--scores", "X", "--higher-is-better", "X"], "'X' is not NAME=PATH"),
    ],
)
def test_bad_scores(monkeypatch: pytest.MonkeyPatch, extra: list[str], message: str) -> None:
    run = run_main(["compare", REF, "-i", *HYPS, *extra], monkeypatch)
    assert run.code != 0
    assert message in run.err.decode() and b"Traceback" not in run.err


def test_wrong_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _score_files(tmp_path)
    Path(files[1]).write_text("0.5\n", encoding="utf-8")
    argv = ["compare", REF, "-i", *HYPS, "--scores", f"F={','.join(files)}",
            "--lower-is-better", "F"]  # fmt: skip
    run = run_main(argv, monkeypatch)
    assert run.code != 0
    assert "1 scores for system" in run.err.decode()
