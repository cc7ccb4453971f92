"""Imported scores as report columns, and the section "Agreement with human judgements".

An imported metric gets what ROUGE's columns get (scores, intervals, clusters, pairs,
histograms over its own range); the agreement numbers equal ``parbleu meta``'s on the same
scores, with the same functions.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from report_support import NAMES, SAMPLE, lines, parse, sample

import parbleu
from parbleu.cli import main
from parbleu.reporting._assets import JS, ranged_js
from parbleu.significance import compare_all

REF = str(SAMPLE / "ref.A.de")
HYPS = [str(SAMPLE / f"{n}.de") for n in NAMES]


def _fake(hyps: list[str], ref: list[str]) -> list[float]:
    """A fake learned metric near 0-1: sentence chrF / 100."""
    return [float(x) / 100 for x in parbleu.CHRF().sentence_scores(hyps, [ref])]


def _human(hyps: list[str], ref: list[str], k: int) -> list[float | None]:
    """Fake human judgements: sentence BLEU plus a fixed wobble; every 11th not judged."""
    bleu = parbleu.BLEU(effective_order=True).sentence_scores(hyps, [ref])
    return [None if i % 11 == k else float(b) + 7.0 * math.sin(i * 1.7 + k) for i, b in
            enumerate(bleu)]  # fmt: skip


def _write_mtme(path: Path, scores: dict[str, list[Any]]) -> str:
    with path.open("w", encoding="utf-8") as f:
        for system, vals in scores.items():
            f.writelines(f"{system}\t{'None' if v is None else repr(v)}\n" for v in vals)
    return str(path)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("imported")
    ref, systems = sample()
    out: dict[str, Any] = {"fake": [], "neg": []}
    for n in NAMES:
        fake = _fake(systems[n], ref)
        for key, sign in (("fake", 1.0), ("neg", -1.0)):  # neg: negative scores
            p = tmp / f"{n}.{key}"
            p.write_text("".join(f"{sign * x!r}\n" for x in fake), encoding="utf-8")
            out[key].append(str(p))
    # Keyed by the -i files' base names, as a WMT/MTME file names its systems.
    human = {f"{n}.de": _human(systems[n], ref, k) for k, n in enumerate(NAMES)}
    out["human"] = _write_mtme(tmp / "human.seg.score", human)
    out["human_by_name"] = {n: human[f"{n}.de"] for n in NAMES}
    return out


def _page_data(path: Path) -> tuple[Any, dict[str, Any]]:
    root = parse(path.read_text(encoding="utf-8"))
    return root, json.loads(root.by_id("parbleu-data").text())


def test_imported_column_is_a_metric_of_the_report(
    tmp_path: Path, files: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.html"
    argv = ["report", REF, "-i", *HYPS, "-m", "bleu", "--scores", f"FAKE={','.join(files['fake'])}",
            "--higher-is-better", "FAKE", "--scores-info", "FAKE=fake-model v1", "--n", "100",
            "-o", str(out), "--flavors", "-q"]  # fmt: skip
    code, _, err = _run(argv, capsys)
    assert code == 0, err
    root, data = _page_data(out)
    assert [m["metric"] for m in data["scores"]] == ["BLEU", "FAKE"]
    ref, systems = sample()
    fake = parbleu.ImportedScores(
        "FAKE",
        {n: _fake(systems[n], ref) for n in NAMES},
        higher_is_better=True,
        hypotheses=systems,
    )
    api = compare_all([parbleu.BLEU(), fake], systems, [ref], n=100, seed=12345).to_dict()
    col = data["scores"][1]
    mc = next(m for m in api["metrics"] if m["metric"] == "FAKE")
    assert col["scores"] == fake.system_scores()
    assert [(p["a"], p["b"], p["p"]) for p in col["pairs"]] == [
        (p["system_a"], p["system_b"], p["p_value"]) for p in mc["pairs"]
    ]
    assert col["clusters"] and set(col["ci"]) == set(NAMES)
    assert "info:fake-model v1" in col["signature"] and "nrefs" not in col["signature"]
    # Histograms over the scores' own range, with the ranged script; sentence scores are the file's.
    sent = data["sentence"][1]
    assert sent["metric"] == "FAKE" and sent["range"] == [0.0, 1.0]
    assert sent["scores"]["Online-W"] == [float(x) for x in lines(Path(files["fake"][0]))]
    page = out.read_text(encoding="utf-8")
    assert f"<script>{ranged_js()}</script>" in page
    assert root.by_id("score-table").text().count("FAKE") == 3  # score, CI low, CI high


def test_pages_of_percent_metrics_keep_their_script() -> None:
    ref, systems = sample(60)
    rep = parbleu.report([ref], systems, n=50, flavors=())
    page = rep.html()
    assert f"<script>{JS}</script>" in page and "range" not in rep.data["sentence"][0]
    assert "agreement" not in rep.data and 'id="agreement"' not in page
    # The ranged script is the same script with the ranges swapped in.
    assert ranged_js() != JS and "scoreBars(v, lo, hi, 20)" in ranged_js()


def test_agreement_equals_parbleu_meta(
    tmp_path: Path, files: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.html"
    argv = ["report", REF, "-i", *HYPS, "-m", "bleu", "chrf", "ter", "--scores",
            f"NEG={','.join(files['neg'])}", "--lower-is-better", "NEG", "--human",
            files["human"], "--human-k", "20", "--seed", "7", "--n", "50", "-o", str(out),
            "--flavors", "-q"]  # fmt: skip
    code, _, err = _run(argv, capsys)
    assert code == 0, err
    root, data = _page_data(out)
    agr = data["agreement"]
    assert agr["metrics"] == ["BLEU", "chrF2", "TER", "NEG"]
    assert agr["oriented"] == ["TER", "NEG"] and agr["systems"] == sorted(NAMES)
    # The same scores, oriented, through `parbleu meta`.
    meta = ["meta", "--human-seg", _write_mtme(tmp_path / "h", files["human_by_name"]),
            "--k", "20", "--seed", "7", "-f", "json"]  # fmt: skip
    for sc, se in zip(data["scores"], data["sentence"]):
        sign = 1.0 if sc["higher_is_better"] else -1.0
        seg = {n: [sign * x for x in se["scores"][n]] for n in NAMES}
        sys_ = {n: [sign * sc["scores"][n]] for n in NAMES}
        name = sc["metric"]
        seg_file = _write_mtme(tmp_path / f"{name}.seg", seg)
        sys_file = _write_mtme(tmp_path / f"{name}.sys", sys_)
        meta += ["--seg-scores", f"{name}={seg_file}", "--sys-scores", f"{name}={sys_file}"]
    code, stdout, err = _run(meta, capsys)
    assert code == 0, err
    table = json.loads(stdout)
    for level in ("sys", "seg"):
        for m, row in table[level]["metrics"].items():
            want = {k: None if math.isnan(v) else v for k, v in row.items()}
            assert agr[level]["metrics"][m] == want, (level, m)
        assert agr[level]["ranks"] == table[level]["clusters"]["ranks"]
    # The page's table: one row per metric, system and segment level side by side.
    rows = root.by_id("agreement-table").iter("tr")[1:]
    assert [r.iter("td")[0].text() for r in rows] == agr["metrics"]
    assert "sys rank" in root.by_id("agreement-table").text()


def test_agreement_names_the_systems_left_out(tmp_path: Path, files: dict[str, Any]) -> None:
    ref, systems = sample(100)
    human = {n: files["human_by_name"][n][:100] for n in NAMES[:2]}
    human["Other"] = [1.0] * 100
    rep = parbleu.report([ref], systems, metrics=[parbleu.BLEU()], human_seg=human, n=50,
                         flavors=())  # fmt: skip
    agr = rep.data["agreement"]
    assert agr["systems"] == sorted(NAMES[:2])
    assert agr["left_out"] == {"report": ["VolcTrans-GLAT"], "human": ["Other"]}
    assert "Human scores of systems not in this report, left out: Other." in rep.html()
    tables = rep.write_tables(tmp_path)
    agreement_md = next(p for p in tables if p.name == "agreement.md").read_text(encoding="utf-8")
    assert agreement_md.startswith("| Metric | sys Pearson |") and "| BLEU |" in agreement_md
    json.loads(rep.to_json())


@pytest.mark.parametrize("case", ["unreadable", "k alone", "count", "one system", "not a number"])
def test_human_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    short = _write_mtme(tmp_path / "short", {n: [1.0, 2.0, 3.0] for n in NAMES})
    one = _write_mtme(tmp_path / "one", {"Online-W.de": [1.0] * 500})
    bad = tmp_path / "bad"
    bad.write_text("Online-W\t1\nOnline-W\tx\n", encoding="utf-8")
    extra, message = {
        "unreadable": (["--human", "/nonexistent/h"], "--human: /nonexistent/h: cannot read"),
        "k alone": (["--human-k", "5"], "--human-k: give --human, --human-sys, --human-da"),
        "count": (["--human", short], f"--human: {short}: system 'Online-W' has 3 scores"),
        "one system": (["--human", one], f"--human: {one}: 1 of the -i systems have human"),
        "not a number": (["--human", str(bad)], f"--human: {bad}:2: 'x' is not a number"),
    }[case]
    out = tmp_path / "r.html"
    code, _, err = _run(["report", REF, "-i", *HYPS, "-o", str(out), *extra], capsys)
    assert code != 0 and message in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()


def test_human_system_scores(
    tmp_path: Path, files: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    # System scores alone: system level only, equal to `parbleu meta --human-sys`.
    human_sys = {f"{n}.de": [float(10 - k)] for k, n in enumerate(NAMES)}
    path = _write_mtme(tmp_path / "h.sys.score", human_sys)
    out = tmp_path / "r.html"
    argv = ["report", REF, "-i", *HYPS, "-m", "bleu", "chrf", "--human-sys", path, "--n", "50",
            "-o", str(out), "--flavors", "-q"]  # fmt: skip
    code, _, err = _run(argv, capsys)
    assert code == 0, err
    agr = _page_data(out)[1]["agreement"]
    assert "seg" not in agr and set(agr["sys"]["metrics"]) == {"BLEU", "chrF2"}
    data = _page_data(out)[1]
    meta = ["meta", "--human-sys", _write_mtme(tmp_path / "h2", {n: human_sys[f"{n}.de"]
            for n in NAMES}), "--k", "0", "-f", "json"]  # fmt: skip
    for sc in data["scores"]:
        sys_file = _write_mtme(
            tmp_path / f"{sc['metric']}.sys", {n: [sc["scores"][n]] for n in NAMES}
        )
        meta += ["--sys-scores", f"{sc['metric']}={sys_file}"]
    code, stdout, err = _run(meta, capsys)
    assert code == 0, err
    table = json.loads(stdout)["sys"]["metrics"]
    for m, row in table.items():
        assert agr["sys"]["metrics"][m] == {k: None if math.isnan(v) else v for k, v in row.items()}
    # With segment scores too, every judged system needs a system score.
    short = _write_mtme(tmp_path / "short.sys", {f"{n}.de": [1.0] for n in NAMES[:2]})
    code, _, err = _run([*argv[:-6], "--human", files["human"], "--human-sys", short, "-o",
                         str(out), "-q"], capsys)  # fmt: skip
    assert code != 0 and f"--human-sys: {short}: no score for system(s) VolcTrans-GLAT" in err


def test_metric_names_are_escaped_in_the_new_sections(files: dict[str, Any]) -> None:
    ref, systems = sample(60)
    name = "<img src=x onerror=alert(1)>"
    fake = {n: [0.5 + (len(h) % 3) / 10 for h in systems[n]] for n in NAMES}
    imported = parbleu.ImportedScores(name, fake, higher_is_better=False, hypotheses=systems)
    human = {n: files["human_by_name"][n][:60] for n in NAMES}
    rep = parbleu.report([ref], systems, metrics=[imported], n=50, flavors=(), human_seg=human)
    page = rep.html()
    assert name not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    parse(page)  # every element closed in order
