"""``parbleu meta -r REF -i SYS ... -m ...``: metrics computed inside meta, against MTME.

WMT21 is-en: the DA files read directly, BLEU/chrF/TER computed by parbleu on the system
outputs. Their sentence scores equal the golden file's (sacrebleu's ``sentence_score``), their
system scores its corpus scores, and so the statistics equal MTME's on the golden inputs.
The toy metric passes through meta in tests/unit/test_toy_metric.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _mtme_golden import load

from helpers import SHARED, golden_sum
from parbleu.cli import main
from parbleu.metaeval import computed_scores
from parbleu.metrics.registry import make_metric

HUMANEVAL = SHARED / "data" / "wmt21" / "humaneval"
DA = HUMANEVAL / "newstest2021-toen"
DOCS = HUMANEVAL / "derived" / "newstest2021.is-en.docs"


def _inputs() -> tuple[str, list[str]]:
    inp = load("is-en")["inputs"]
    return str(SHARED / inp["reference"]), [
        f"{s}={SHARED / p}" for s, p in inp["system_outputs"].items()
    ]


@pytest.fixture(scope="module")
def table() -> dict[str, Any]:
    ref, hyps = _inputs()
    argv = ["meta", "--human-da", str(DA), "-l", "is-en", "--da-docs", str(DOCS)]
    argv += ["-r", ref, "-i", *hyps, "-m", "bleu", "chrf", "ter", "--k", "0", "-f", "json"]
    from contextlib import redirect_stdout
    from io import StringIO

    buf = StringIO()
    # Sentence BLEU follows the interpreter's sum() (compensated since 3.12), and the golden
    # statistics count exact ties: score as the golden's interpreter did.
    with redirect_stdout(buf), golden_sum():
        assert main(argv) == 0
    return json.loads(buf.getvalue())  # type: ignore[no-any-return]


def _golden(level: str, rec_id: str) -> float:
    for rec in load("is-en")["results"][level]:
        if rec["id"] == rec_id:
            return float(rec["value"])
    raise KeyError(rec_id)


def test_sentence_and_corpus_scores_equal_golden() -> None:
    inp = load("is-en")["inputs"]
    ref = (SHARED / inp["reference"]).read_text(encoding="utf-8").split("\n")[:-1]
    systems = {
        s: (SHARED / p).read_text(encoding="utf-8").split("\n")[:-1]
        for s, p in inp["system_outputs"].items()
    }
    metrics = {n: make_metric(n.lower()) for n in ("BLEU", "chrF", "TER")}
    got = computed_scores(metrics, systems, [ref])
    for name, seg in (("BLEU", "sentBLEU"), ("chrF", "sentchrF"), ("TER", "sentTER")):
        scores = got[name]
        assert scores.system_score == "corpus"
        assert scores.seg is not None and scores.sys is not None
        want_seg = inp["metrics"]["seg"][seg]["scores"]
        for s, row in zip(inp["systems"], want_seg):
            assert scores.seg[s] == pytest.approx(row, abs=1e-12)
        want_sys = inp["metrics"]["sys"][name]["scores"]
        assert [scores.sys[s][0] for s in inp["systems"]] == pytest.approx(want_sys, abs=1e-12)


@pytest.mark.parametrize(
    ("level", "stat", "rec"),
    [
        ("sys", "pearson", "Pearson/none/{m}"),
        ("sys", "spearman", "Spearman/none/{m}"),
        ("sys", "kendall_b", "Kendall-b/none/{m}"),
        ("sys", "accuracy", "Agreement/none/{m}"),
        ("seg", "pearson", "Pearson/none/sent{m}"),
        ("seg", "kendall_b_item", "KendallVariants-b/item/sent{m}"),
        ("seg", "kendall_b_sys", "KendallVariants-b/sys/sent{m}"),
        ("seg", "kendall_b_none", "KendallVariants-b/none/sent{m}"),
        ("seg", "acc23_item", "KendallWithTiesOpt-acc23/item/sent{m}"),
    ],
)
@pytest.mark.parametrize("metric", ["BLEU", "chrF", "TER"])
def test_statistics_equal_mtme(
    table: dict[str, Any], level: str, stat: str, rec: str, metric: str
) -> None:
    want = _golden(level, rec.format(m=metric))
    got = table[level]["metrics"][metric][stat]
    assert got == pytest.approx(want, abs=1e-12)
    assert table["sys"]["system_scores"][metric] == "corpus"


def test_systems_named_from_files() -> None:
    from parbleu.cli.meta import _inputs as parse_inputs

    names, paths = parse_inputs(["d/newstest.x.hyp.A-1.en", "d/newstest.x.hyp.B.en", "C=d/z.en"])
    assert names == ["A-1", "B", "C"] and paths[2] == "d/z.en"


def test_names_must_match_the_human_systems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyps = _inputs()
    argv = ["meta", "--human-da", str(DA), "-l", "is-en", "-r", ref, "-i"]
    argv += ["Nobody=" + hyps[0].split("=", 1)[1], *hyps[1:], "-m", "chrf", "--k", "0"]
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert "no scores for system(s) Nobody" in err and len(err.strip().splitlines()) == 1


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyps = _inputs()
    short = tmp_path / "short.en"
    short.write_text("one line\n", encoding="utf-8")
    docs = tmp_path / "d.docs"
    docs.write_text("news a\nnews b\n", encoding="utf-8")
    human = ["meta", "--human-da", str(DA), "-l", "is-en"]
    _one_line_error(
        capsys, [*human, "-r", ref, "-i", f"X={short}", "-m", "bleu"], "has 1 lines but"
    )
    _one_line_error(capsys, [*human, "-i", *hyps, "-m", "bleu"], "-i needs the references (-r)")
    _one_line_error(capsys, [*human, "-r", ref, "-m", "bleu"], "need the system outputs (-i)")
    _one_line_error(
        capsys,
        [*human, "--da-docs", str(docs), "-r", ref, "-i", *hyps, "-m", "chrf"],
        "ad-seg-scores-is-en.csv:2: SID 984 is outside 1..2",
    )
    _one_line_error(capsys, [*human, "--k", "0"], "meta: give metrics")
    _one_line_error(
        capsys,
        [*human, "--bootstrap", "-1", "--seg-scores", "X=y"],
        "--bootstrap: -1 is outside 0..1,000,000",
    )
