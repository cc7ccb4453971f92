"""The report's agreement section from WMT DA files and plain TSV (``--human-da``,
``--human-tsv``): the numbers equal ``parbleu meta``'s on the same inputs (WMT21 is-en).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from report_support import parse

from helpers import GOLDEN, SHARED
from parbleu.cli import main

HUMANEVAL = SHARED / "data" / "wmt21" / "humaneval"
DA = HUMANEVAL / "newstest2021-toen"
DOCS = HUMANEVAL / "derived" / "newstest2021.is-en.docs"
SHOWN = {"chrF": "chrF2"}  # meta names a metric by its title, the report by its label


def _inputs() -> tuple[str, list[str], list[str]]:
    golden = GOLDEN / "mtme" / "wmt21.is-en.json"  # its inputs: as tests/meta reads them
    inp = json.loads(golden.read_text(encoding="utf-8"))["inputs"]
    outs = inp["system_outputs"]
    return str(SHARED / inp["reference"]), list(outs), [str(SHARED / p) for p in outs.values()]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _report(tmp_path: Path, human: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    ref, names, paths = _inputs()
    out = tmp_path / "r.html"
    argv = ["report", ref, "-i", *paths, "--names", ",".join(names), "-l", "is-en", "-m",
            "bleu", "chrf", "ter", *human, "--human-k", "20", "--seed", "7", "--n", "20",
            "-o", str(out), "--flavors", "-q"]  # fmt: skip
    code, _, err = _run(argv, capsys)
    assert code == 0, err
    root = parse(out.read_text(encoding="utf-8"))
    return json.loads(root.by_id("parbleu-data").text())["agreement"]


def _meta(human: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    ref, names, paths = _inputs()
    argv = ["meta", *human, "-r", ref, "-i", *(f"{n}={p}" for n, p in zip(names, paths)),
            "-m", "bleu", "chrf", "ter", "--k", "20", "--seed", "7", "-f", "json"]  # fmt: skip
    code, out, err = _run(argv, capsys)
    assert code == 0, err
    return json.loads(out)


def _same(agr: dict[str, Any], table: dict[str, Any], levels: tuple[str, ...]) -> None:
    assert [lv for lv in ("sys", "seg") if lv in agr] == list(levels)
    for level in levels:
        assert agr["systems"] == table[level]["systems"]
        for m, row in table[level]["metrics"].items():
            want = {k: None if math.isnan(v) else v for k, v in row.items()}
            assert agr[level]["metrics"][SHOWN.get(m, m)] == want, (level, m)
        ranks = table[level]["clusters"]["ranks"]
        assert agr[level]["ranks"] == {SHOWN.get(m, m): r for m, r in ranks.items()}


@pytest.mark.parametrize(
    ("docs", "score"), [(True, "z"), (False, "z"), (True, "raw")], ids=["seg+sys", "sys", "raw"]
)
def test_da_agreement_equals_parbleu_meta(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], docs: bool, score: str
) -> None:
    human = ["--human-da", str(DA), "--da-score", score]
    human += ["--da-docs", str(DOCS)] if docs else []
    agr = _report(tmp_path, human, capsys)
    table = _meta([*human, "-l", "is-en"], capsys)
    _same(agr, table, ("sys", "seg") if docs else ("sys",))
    assert agr["oriented"] == ["TER"] and len(agr["systems"]) >= 5
    assert all(isinstance(r["pearson"], float) for r in agr["sys"]["metrics"].values())


def test_tsv_agreement_equals_parbleu_meta(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The DA segment scores written as system<TAB>line<TAB>score.
    from parbleu.metaeval import read_da

    seg = read_da([str(DA)], docs=str(DOCS), langpair="is-en").seg
    assert seg is not None
    tsv = tmp_path / "h.tsv"
    tsv.write_text("".join(f"{s}\t{i}\t{v!r}\n" for s, vals in seg.items()
                           for i, v in enumerate(vals, 1) if v is not None),
                   encoding="utf-8")  # fmt: skip
    agr = _report(tmp_path, ["--human-tsv", str(tsv)], capsys)
    _same(agr, _meta(["--human-tsv", str(tsv)], capsys), ("sys", "seg"))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--human-da", str(DA), "--human-tsv", "x"], "give one kind of human scores"),
        (["--da-docs", str(DOCS)], "--da-docs: only with --human-da"),
        (["--human-da", str(DA), "-l", "de-en"], "--human-da: " + str(DA) + ": no ad-seg"),
        (["--human-da", "/nonexistent/da.csv"], "--human-da: /nonexistent/da.csv: cannot read"),
        (["--human-tsv", "/nonexistent/h.tsv"], "--human-tsv: /nonexistent/h.tsv: cannot read"),
    ],
    ids=["two kinds", "docs alone", "pair", "unreadable da", "unreadable tsv"],
)
def test_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    ref, _, paths = _inputs()
    out = tmp_path / "r.html"
    code, _, err = _run(["report", ref, "-i", *paths[:2], "-o", str(out), *extra], capsys)
    assert code != 0 and message in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()
