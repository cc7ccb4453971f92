"""Human scores for ``parbleu meta``: WMT21 DA files and the plain TSV.

The DA reader's output equals the golden file's gold (MTME's inputs, SIDs mapped to lines by
the README's rule), and each bad input is one line naming the file and line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _mtme_golden import load

from helpers import SHARED
from parbleu.cli import main
from parbleu.errors import InvalidOptionError
from parbleu.metaeval import read_da, read_docs, read_human_tsv, sid_to_line

DA = SHARED / "data" / "wmt21" / "humaneval" / "newstest2021-toen"
DOCS = SHARED / "data" / "wmt21" / "humaneval" / "derived" / "newstest2021.is-en.docs"


def test_sid_mapping_equals_golden() -> None:
    inp = load("is-en")["inputs"]
    assert sid_to_line(read_docs(str(DOCS))) == inp["sid_mapping"]["sid_to_line"]


def test_da_equals_mtme_inputs() -> None:
    inp = load("is-en")["inputs"]
    human = read_da([str(DA)], docs=str(DOCS), langpair="is-en")
    assert human.seg is not None and human.sys is not None
    assert list(human.seg) == inp["systems"] == list(human.sys)
    for s, row in zip(inp["systems"], inp["gold"]["seg"]["wmt-z"]):
        assert human.seg[s] == row
    assert [human.sys[s][0] for s in inp["systems"]] == inp["gold"]["sys"]["wmt-z"]
    raw = read_da([str(DA / "ad-seg-scores-is-en.csv")], docs=str(DOCS), score="raw")
    assert raw.seg is not None
    for s, row in zip(inp["systems"], inp["gold"]["seg"]["wmt-raw"]):
        assert raw.seg[s] == row


def test_da_without_docs_is_system_level() -> None:
    human = read_da([str(DA / "ad-seg-scores-is-en.csv")])
    assert human.seg is None and human.sys is not None
    inp = load("is-en")["inputs"]
    for s, z in zip(inp["systems"], inp["gold"]["sys"]["wmt-z"]):
        assert abs(human.sys[s][0] - z) < 1e-15  # README: the means agree to 4e-16


def test_human_system_kept_on_request(tmp_path: Path) -> None:
    f = tmp_path / "ad-sys-scores-xx-en.csv"
    f.write_text("RAW.SCR Z.SCR N SYS N.ALL \n70 0.1 9 A.0 9 \n80 0.3 9 HUMAN.0 9 \n")
    assert read_da([str(f)]).sys == {"A": [0.1]}
    assert read_da([str(f)], include_human=True).sys == {"A": [0.1], "HUMAN": [0.3]}


def test_tsv(tmp_path: Path) -> None:
    f = tmp_path / "h.tsv"
    f.write_text("B\t2\t0.5\nA\t1\t-1\nA\t3\t2\n")
    h = read_human_tsv(str(f), 3)
    assert h.seg == {"A": [-1.0, None, 2.0], "B": [None, 0.5, None]}
    assert h.sys == {"A": [0.5], "B": [0.5]}
    g = tmp_path / "s.tsv"
    g.write_text("A\t0.25\nB\t-1\n")
    assert read_human_tsv(str(g)).sys == {"A": [0.25], "B": [-1.0]}


SEG_HEAD = "SYS SID RAW.SCR Z.SCR N \n"


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("ad-seg-scores-xx-en.csv", "", "no lines (empty file)"),
        ("ad-seg-scores-xx-en.csv", "a b c\n", ":1: not a WMT DA file"),
        ("ad-seg-scores-xx-en.csv", SEG_HEAD + "A.0 1 50 0.1\n", ":2: expected 5 fields"),
        ("ad-seg-scores-xx-en.csv", SEG_HEAD + "A.0 x 50 0.1 2\n", ":2: SID 'x' is not"),
        ("ad-seg-scores-xx-en.csv", SEG_HEAD + "A.0 1 50 nan 2\n", ":2: 'nan' is not a finite"),
        ("ad-seg-scores-xx-en.csv", SEG_HEAD + "A.0 1 50 zz 2\n", ":2: 'zz' is not a number"),
        (
            "ad-seg-scores-xx-en.csv",
            SEG_HEAD + "A.0 1 50 0.1 2\nA.0 1 50 0.2 2\n",
            ":3: system A has SID 1 twice",
        ),
        ("h.tsv", "A\t1\n", None),
        ("h.tsv", "A\t1\t0.5\nA\t0.5\n", ":2: expected 3 tab-separated fields"),
        ("h.tsv", "A\tx\t0.5\n", ":1: segment 'x' is not a line number"),
        ("h.tsv", "A\t1\t0.5\nA\t1\t0.7\n", ":2: system A has segment 1 twice"),
        ("h.tsv", "A\t0\t0.5\n", ":1: segment 0 is outside"),
        ("h.tsv", "A\t1\tNone\n", ":1: missing score"),
    ],
)
def test_bad_files(tmp_path: Path, name: str, text: str, message: str | None) -> None:
    f = tmp_path / name
    f.write_text(text)
    read = read_human_tsv if name.endswith(".tsv") else (lambda p: read_da([p]))
    if message is None:
        read(str(f))
        return
    with pytest.raises(InvalidOptionError) as e:
        read(str(f))
    assert str(f) in str(e.value) and message in str(e.value)
    assert len(str(e.value).splitlines()) == 1


def test_sid_beyond_docs(tmp_path: Path) -> None:
    docs = tmp_path / "d.docs"
    docs.write_text("news b\nnews a\n")
    f = tmp_path / "ad-seg-scores-xx-en.csv"
    f.write_text(SEG_HEAD + "A.0 1 50 0.1 2\nA.0 3 50 0.1 2\n")
    with pytest.raises(InvalidOptionError, match=r":3: SID 3 is outside 1\.\.2"):
        read_da([str(f)], docs=str(docs))
    f.write_text(SEG_HEAD + "A.0 1 50 0.1 2\nA.0 2 50 0.2 2\n")
    # SID 1 is the first segment of document 'a', line 2.
    assert read_da([str(f)], docs=str(docs)).seg == {"A": [0.2, 0.1]}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--human-da", "FOLDER"], "a folder needs the language pair"),
        (["--human-da", "FOLDER", "-l", "xx-yy"], "no ad-seg-scores-xx-yy.csv"),
        (["--da-docs", "x.docs", "--human-tsv", "T"], "--da-docs: only with --human-da"),
        (["--human-tsv", "T", "--human-seg", "S"], "give one kind of human scores"),
        ([], "give --human-da, --human-tsv, --human-seg or --human-sys"),
    ],
)
def test_cli_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    args = [str(tmp_path) if a == "FOLDER" else a for a in args]
    code = main(["meta", *args, "--seg-scores", "X=none.score"])
    assert code != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
