"""Tables of a report as Markdown and LaTeX (``--png DIR`` writes them)."""

from __future__ import annotations

from pathlib import Path

from report_support import NAMES, sample_report

import parbleu
from parbleu.reporting._static import (
    fold_into,
    latex,
    latex_escape,
    markdown,
    markdown_escape,
    tables,
)


def test_score_table_text() -> None:
    data = sample_report(200).data
    head, rows = tables(data)["scores"]
    assert head == ["System", "BLEU", "95% CI", "chrF2", "95% CI", "TER", "95% CI"]
    bleu = data["scores"][0]
    # Best first by the first metric (issue 34); order="file" keeps the -i order.
    assert [r[0] for r in rows] == sorted(NAMES, key=lambda n: -bleu["scores"][n])
    assert [r[0] for r in tables({**data, "order": "file"})["scores"][1]] == list(NAMES)
    ci = bleu["ci"]["Online-W"]
    row = next(r for r in rows if r[0] == "Online-W")
    assert row[1:3] == [
        f"{bleu['scores']['Online-W']:.2f}",
        f"[{ci['low']:.2f}, {ci['high']:.2f}]",
    ]
    md = markdown((head, rows)).splitlines()
    assert md[0] == "| System | BLEU | 95% CI | chrF2 | 95% CI | TER | 95% CI |"
    assert md[1] == "|---|---:|---:|---:|---:|---:|---:|"
    assert len(md) == 2 + len(NAMES)


def test_latex_escapes_user_text() -> None:
    assert latex_escape(r"a_b & 100% $x$ #1 {y} ~ ^ \z") == (
        r"a\_b \& 100\% \$x\$ \#1 \{y\} \textasciitilde{} \textasciicircum{} \textbackslash{}z"
    )
    text = latex((["System", "BLEU"], [["sys_1 & co", "12.00"]]))
    assert text.splitlines() == [
        r"\begin{tabular}{lr}", r"\toprule", r"System & BLEU \\", r"\midrule",
        r"sys\_1 \& co & 12.00 \\", r"\bottomrule", r"\end{tabular}",
    ]  # fmt: skip


def test_markdown_escapes_pipes() -> None:
    assert markdown((["a|b"], [["c|d"]])).splitlines()[0] == "| a\\|b |"


def test_markdown_escapes_html_as_latex_is_escaped(tmp_path: Path) -> None:
    # Markdown renders raw HTML: a system's name must stay text, as in the .tex tables.
    evil = "<img src=x onerror=alert(1)>&amp;\\|\nx"
    assert markdown_escape(evil) == "&lt;img src=x onerror=alert(1)&gt;&amp;amp;\\\\\\| x"
    # 60 segments: from 50 on the significance table has rows (docs/report.md), so every
    # table holds the name.
    refs = [["the cat sat on the mat", "a dog"] * 30]
    hyps = {evil: ["the cat sat", "a dog"] * 30, "b": ["cat", "dog"] * 30}
    rep = parbleu.report(refs, hyps, n=10)
    written = [p for p in rep.write_tables(tmp_path) if p.suffix == ".md"]
    assert {p.stem for p in written} >= {"scores", "significance", "length_buckets"}
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert "<img" not in text and "onerror=alert(1)" in text, path.name
        assert all(line.startswith("|") for line in text.splitlines()), path.name


def test_write_tables(tmp_path: Path) -> None:
    written = sample_report(200).write_tables(tmp_path / "t")
    assert {p.name for p in written} >= {"scores.md", "scores.tex", "flavors.tex"}


def test_plots_fold_values_outside_the_range() -> None:
    # A perfect sentence BLEU is 100.00000000000004; TER can exceed 100: neither may vanish.
    v, outside = fold_into([100.00000000000004, 250.0, 0.0, 37.5, -120.0], 0, 100)
    assert v.tolist() == [100.0, 100.0, 0.0, 37.5, 0.0] and outside == 2


def test_cluster_table() -> None:
    data = {
        "systems": ["a", "b", "c"],
        "baseline": "a",
        "test": {"confidence": 0.95},
        "scores": [
            {"metric": "BLEU", "scores": {"a": 30.0, "b": 29.0, "c": 20.0}, "ci": {},
             "pairs": [], "clusters": [
                 {"rank": 1, "systems": ["a", "b"], "ranks": {"a": [1, 2], "b": [1, 2]}},
                 {"rank": 2, "systems": ["c"], "ranks": {"c": [3, 3]}}]},
        ],
        "length_buckets": {"labels": [], "bleu": {}, "f1": {}},
        "freq_buckets": {"labels": [], "f1": {}},
        "flavors": [],
    }  # fmt: skip
    head, rows = tables(data)["clusters"]
    assert head == ["Metric", "Cluster", "Rank range", "System", "Score"]
    assert rows == [["BLEU", "1", "1–2", "a", "30.00"], ["BLEU", "1", "1–2", "b", "29.00"],
                    ["BLEU", "2", "3", "c", "20.00"]]  # fmt: skip
