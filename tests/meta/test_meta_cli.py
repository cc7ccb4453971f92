"""``parbleu meta`` on WMT21 is-en (golden/mtme inputs): numbers equal MTME's, clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _mtme_golden import load

from parbleu.cli import main


def _write(path: Path, systems: list[str], matrix: list[list[Any]]) -> str:
    with path.open("w", encoding="utf-8") as f:
        for s, row in zip(systems, matrix):
            f.writelines(f"{s}\t{v}\n" for v in row)
    return str(path)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("meta")
    inp = load("is-en")["inputs"]
    systems = inp["systems"]
    out = {"human": _write(tmp / "human.seg.score", systems, inp["gold"]["seg"]["wmt-z"])}
    for m in ("sentBLEU", "sentchrF"):
        out[m] = _write(tmp / f"{m}.seg.score", systems, inp["metrics"]["seg"][m]["scores"])
    return out


def _golden(rec_id: str) -> float:
    for rec in load("is-en")["results"]["seg"]:
        if rec["id"] == rec_id:
            return float(rec["value"])
    raise KeyError(rec_id)


def test_json_equals_mtme(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "meta",
            "--human-seg",
            files["human"],
            "--seg-scores",
            f"BLEU={files['sentBLEU']}",
            "--scores",
            f"chrF={files['sentchrF']}",
            "--higher-is-better",
            "chrF",
            "--k",
            "20",
            "-f",
            "json",
        ]
    )
    assert code == 0
    table = json.loads(capsys.readouterr().out)
    seg = table["seg"]["metrics"]
    assert seg["BLEU"]["kendall_b_item"] == _golden("KendallVariants-b/item/sentBLEU")
    assert seg["chrF"]["kendall_b_sys"] == _golden("KendallVariants-b/sys/sentchrF")
    assert abs(seg["BLEU"]["pearson"] - _golden("Pearson/none/sentBLEU")) < 1e-12
    assert set(table["sys"]["clusters"]["ranks"]) == {"BLEU", "chrF"}


def test_text_table(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "meta",
                "--human-seg",
                files["human"],
                "--seg-scores",
                f"BLEU={files['sentBLEU']}",
                "--k",
                "0",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "System level (10 systems)" in out and "Segment level" in out and "BLEU" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--scores", "X=PATH"], "give exactly one of --higher-is-better X"),
        (["--seg-scores", "nopath"], "'nopath' is not NAME=PATH"),
    ],
)
def test_errors(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    code = main(["meta", "--human-seg", files["human"], *extra])
    assert code != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
