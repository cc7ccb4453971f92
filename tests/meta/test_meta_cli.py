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


@pytest.mark.parametrize("with_inputs", [False, True], ids=["scores alone", "with -i"])
@pytest.mark.parametrize(
    ("scores", "message"),
    [
        ("X=/nonexistent/x.txt", "--scores X: /nonexistent/x.txt: cannot read"),
        ("X=BAD", "--scores X: BAD:2: 'x' is not a number"),
        ("X=EMPTY", "--scores X: EMPTY"),
        ("X=", "--scores: 'X=' is not NAME=PATH[,PATH...]"),
    ],
)
def test_scores_errors_name_the_option(
    tmp_path: Path,
    files: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    with_inputs: bool,
    scores: str,
    message: str,
) -> None:
    # Every --scores error through `parbleu meta` names --scores, as the main command does.
    paths = {"BAD": tmp_path / "bad", "EMPTY": tmp_path / "empty"}
    paths["BAD"].write_text("0.5\nx\n", encoding="utf-8")
    paths["EMPTY"].write_text("", encoding="utf-8")
    for k, p in paths.items():
        scores, message = scores.replace(k, str(p)), message.replace(k, str(p))
    argv = ["meta", "--human-seg", files["human"], "--scores", scores, "--higher-is-better", "X"]
    if with_inputs:
        (tmp_path / "r").write_text("a\nb\n", encoding="utf-8")
        argv += ["-r", str(tmp_path / "r"), "-i", f"A={tmp_path / 'r'}", f"B={tmp_path / 'r'}"]
    code = main(argv)
    err = capsys.readouterr().err
    assert code != 0 and message in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("flag", ["--k", "--bootstrap"])
@pytest.mark.parametrize("value", ["-1", str(2**63), str(10**11)])
def test_absurd_resample_counts_are_one_line(
    flag: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A count outside 0..1,000,000 is refused at once (2**63 aborted the core before)."""
    human = tmp_path / "h.seg.score"
    human.write_text("".join(f"{s}\t{i % 3}\n" for s in "ABC" for i in range(4)), "utf-8")
    argv = ["meta", "--human-seg", str(human), "--seg-scores", f"M={human}", flag, value]
    assert main(argv) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{flag}: {value} is outside 0..1,000,000" in err[0]
