"""The report's defaults a new user meets first (issue 34).

The baseline is the best system by the first metric (was: the first ``-i`` file, with a glob
an alphabetical accident) and the page says which rule chose it; the score table and its
exports are best first, with a way back to file order; the output path and the systems'
files are checked before the analysis; counts read "1 pair", not "1 pairs".
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from report_support import NAMES, SAMPLE, require_extra, sample

import parbleu
from parbleu.cli import main
from parbleu.reporting._static import markdown, tables


@pytest.fixture(scope="module")
def three() -> tuple[list[str], dict[str, list[str]]]:
    return sample(60)


def test_default_baseline_is_the_best_by_the_first_metric(three: Any) -> None:
    ref, systems = three
    rep = parbleu.report([ref], systems, n=20, flavors=())
    bleu = rep.data["scores"][0]["scores"]
    best = max(NAMES, key=lambda n: bleu[n])
    assert best != NAMES[0]  # the sample's first file is not its best: the test can fail
    assert rep.data["baseline"] == best
    assert rep.data["baseline_rule"] == {"rule": "best", "metric": "BLEU"}
    assert f"Baseline: {best}, the best system by BLEU (the default" in rep.html()
    # TER first: lower is better.
    ter_first = parbleu.report(
        [ref], systems, metrics=[parbleu.TER(), parbleu.BLEU()], n=20, flavors=()
    )
    ter = ter_first.data["scores"][0]["scores"]
    assert ter_first.data["baseline"] == min(NAMES, key=lambda n: ter[n])
    given = parbleu.report([ref], systems, n=20, flavors=(), baseline=NAMES[2])
    assert given.data["baseline_rule"]["rule"] == "given"
    assert f"Baseline: {NAMES[2]}, chosen with --baseline" in given.html()


def test_order_file_keeps_the_input_order(three: Any) -> None:
    ref, systems = three
    rep = parbleu.report([ref], systems, n=20, flavors=(), order="file")
    assert [r[0] for r in tables(rep.data)["scores"][1]] == list(NAMES)
    assert "show best first" in rep.html()
    with pytest.raises(parbleu.errors.InvalidOptionError, match="order='x'"):
        parbleu.report([ref], systems, n=20, flavors=(), order="x")


def test_clusters_markdown_left_aligns_names(three: Any) -> None:
    ref, systems = three
    data = parbleu.report([ref], systems, n=20, flavors=()).data
    head, rows = tables(data)["clusters"]
    assert head == ["Metric", "Cluster", "Rank range", "System", "Score"]
    assert markdown((head, rows)).splitlines()[1] == "|---|---:|---:|---|---:|"
    sig = markdown(tables(data)["significance"]).splitlines()[1]
    assert sig == "|---|---|---|---:|---:|---:|---|"


def test_one_pair_is_singular(three: Any) -> None:
    ref, systems = three
    two = {n: systems[n] for n in NAMES[:2]}
    page = parbleu.report([ref], two, n=20, flavors=()).html()
    assert "The pair of BLEU" in page and "All 1 pairs" not in page
    assert "1 pairs" not in page and "1 resamples" not in page
    one_seg = parbleu.report([ref[:1]], {n: systems[n][:1] for n in NAMES[:2]}, flavors=())
    assert "1 segment," in one_seg.html() and "1 segments" not in one_seg.html()


def test_compare_says_one_pair(capsys: pytest.CaptureFixture[str]) -> None:
    hyps = [str(SAMPLE / f"{n}.de") for n in NAMES[:2]]
    assert main(["compare", str(SAMPLE / "ref.A.de"), "-i", *hyps, "-m", "bleu", "--n", "20"]) == 0
    out = capsys.readouterr().out
    assert "over the 1 pair of each metric" in out and "1 pairs" not in out


def test_flavor_table_keeps_names_on_one_line() -> None:
    from parbleu.reporting._assets import CSS

    assert "#flavor-table td.txt{white-space:nowrap" in CSS


def test_output_path_checked_before_the_analysis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import parbleu.reporting as reporting

    def no_analysis(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the analysis ran before the output path was checked")

    monkeypatch.setattr(reporting, "report", no_analysis)
    ref, hyp = str(SAMPLE / "ref.A.de"), str(SAMPLE / "Online-W.de")
    out = str(tmp_path / "nodir" / "r.html")
    t0 = time.perf_counter()
    assert main(["report", ref, "-i", hyp, "-o", out]) == 1
    err = capsys.readouterr().err
    folder = str(tmp_path / "nodir")
    assert err == f"parbleu: error: -o/--output {out!r}: folder {folder!r} does not exist\n"
    assert time.perf_counter() - t0 < 30
    (tmp_path / "f").write_text("x")
    assert (
        main(
            ["report", ref, "-i", hyp, "-o", str(tmp_path / "r.html"), "--png", str(tmp_path / "f")]
        )
        == 1
    )
    assert "is a file, not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["report", "compare", None])
def test_same_file_under_two_spellings_is_refused(
    command: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    for name in ("ref.de", "hyp.de", "other.de"):
        src = SAMPLE / {"ref.de": "ref.A.de", "hyp.de": "Online-W.de"}.get(name, "Facebook-AI.de")
        (tmp_path / name).write_bytes(src.read_bytes())
    (tmp_path / "link.de").symlink_to(tmp_path / "hyp.de")
    monkeypatch.chdir(tmp_path)
    prefix = [command] if command else []
    for twice in (["hyp.de", "./hyp.de"], ["hyp.de", "other.de", "link.de"]):
        argv = [*prefix, "ref.de", "-i", *twice] + (["-o", "r.html"] if command == "report" else [])
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert f"{twice[0]!r} and {twice[-1]!r} are the same file" in err, err
        assert err.count("\n") == 1


def test_png_differences_are_small_multiples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_extra("matplotlib")
    import matplotlib.pyplot as plt

    ref, systems = sample(60)
    rep = parbleu.report([ref], systems, n=20, flavors=(), baseline=NAMES[0])
    figures: dict[str, Any] = {}
    close = plt.close

    def keep(fig: Any) -> None:
        figures[fig.axes[0].get_title() or str(len(figures))] = fig

    monkeypatch.setattr(plt, "close", keep)
    rep.write_plots(tmp_path)
    panels = [f for f in figures.values() if len(f.axes) > 1]
    assert panels, "no small multiples"
    for fig in panels:
        titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
        assert titles == list(NAMES[1:])  # one panel a system, the baseline left out
        close(fig)
