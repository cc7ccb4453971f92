"""The report at 14-50 systems (issue 24): names, long lines, the added views, the PNG legend.

What needs a browser (widths, the controls) is in ``test_report_layout_browser.py``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from report_support import (
    NAMES,
    SAMPLE,
    Node,
    check_bucket_bleu,
    data_v,
    parse,
    require_extra,
    sample,
    wmt_ja_en,
)
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import parbleu
from parbleu.cli import main
from parbleu.errors import InputTypeError, InvalidOptionError, LengthMismatchError
from parbleu.reporting._html import SHOW_CHARS
from parbleu.reporting._html_buckets import score_range


def _cls(node: Node, name: str) -> list[Node]:
    return [d for d in node.iter() if name in d.cls()]


# --- names ------------------------------------------------------------------------------


def test_wmt_prefixes_are_stripped_by_default() -> None:
    ref, systems = wmt_ja_en(20)
    rep = parbleu.report([ref], systems, n=10, flavors=())
    short = [k[len("newstest2021.ja-en.hyp.") : -len(".en")] for k in systems]
    assert rep.data["systems"] == short and "Facebook-AI" in short
    header = [th.text() for th in parse(rep.html()).by_id("length_buckets-bleu").iter("th")]
    assert not any("newstest2021" in h for h in header)
    # The baseline may still be given by its key.
    key = next(iter(systems.keys() - {min(systems)}))
    rep = parbleu.report([ref], systems, n=10, flavors=(), baseline=key)
    assert rep.data["baseline"] == key[len("newstest2021.ja-en.hyp.") : -len(".en")]


def test_names_set_the_names() -> None:
    ref, systems = sample(20)
    rep = parbleu.report([ref], systems, n=10, flavors=(), names=["a", "b", "c"], baseline="b")
    assert rep.data["systems"] == ["a", "b", "c"] and rep.data["baseline"] == "b"
    assert rep.data["scores"][0]["scores"]["a"] == pytest.approx(
        sacrebleu.corpus_bleu(systems[NAMES[0]], [ref]).score
    )
    # names= keeps names that would otherwise be shortened.
    keys = {"sys.x": systems[NAMES[0]], "sys.y": systems[NAMES[1]]}
    assert parbleu.report([ref], keys, n=10, flavors=()).data["systems"] == ["x", "y"]
    rep = parbleu.report([ref], keys, n=10, flavors=(), names=list(keys))
    assert rep.data["systems"] == ["sys.x", "sys.y"]


@pytest.mark.parametrize(
    ("names", "error", "message"),
    [
        (["a"], LengthMismatchError, "names: 1 name for 3 systems;"),
        (["a", "b"], LengthMismatchError, "names: 2 names for 3 systems"),
        (["a", "b", "c", "d"], LengthMismatchError, "names: 4 names for 3 systems"),
        (["a", "a", "c"], InvalidOptionError, "names: 'a' is given twice (names 1 and 2)"),
        (["a", "", "c"], InvalidOptionError, "names: name 2 is ''"),
        (["a", " ", "c"], InvalidOptionError, "names: name 2 is ' '"),
        (["a", 2, "c"], InvalidOptionError, "names: name 2 is 2"),
        ("abc", InvalidOptionError, "names: got a str"),
    ],
)
def test_names_are_validated(names: Any, error: type[Exception], message: str) -> None:
    ref, systems = sample(5)
    with pytest.raises(error) as e:
        parbleu.report([ref], systems, n=10, flavors=(), names=names)
    assert str(e.value).startswith(message)


def test_cli_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = str(SAMPLE / "ref.A.de")
    hyps = [str(SAMPLE / f"{n}.de") for n in NAMES]
    out = tmp_path / "r.html"
    base = ["report", ref, "-i", *hyps, "-o", str(out), "--n", "10", "--flavors", "-q"]
    assert main([*base, "--names", "A,B,C", "--baseline", "B"]) == 0
    data = json.loads(parse(out.read_text(encoding="utf-8")).by_id("parbleu-data").text())
    assert data["systems"] == ["A", "B", "C"] and data["baseline"] == "B"
    for names, message in (
        ("A,B", "--names: 2 names for 3 systems"),
        ("A,A,B", "--names: 'A' is given twice"),
        ("A,,B", "--names: name 2 is ''"),
    ):
        capsys.readouterr()
        assert main([*base, "--names", names]) == 1
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err


# --- long lines ---------------------------------------------------------------------------


def _visible(node: Node) -> str:
    """Text outside folded ``<details class="more">`` (what shows before a click)."""
    out = []
    for c in node.children:
        if isinstance(c, str):
            out.append(c)
        elif "more" not in c.cls():
            out.append(_visible(c))
    return "".join(out)


def _folded(node: Node) -> str:
    """Text inside folded ``<details class="more">``, without its summary."""
    out = []
    for d in _cls(node, "more"):
        for x in d.children:
            if isinstance(x, str):
                out.append(x)
            elif x.tag != "summary":
                out.append(x.text())
    return "".join(out)


def test_long_lines_are_clipped_and_reachable() -> None:
    ref, systems = sample(4)
    huge = "y" * 100_000  # one 100k-character token
    many = " ".join(["word"] * 20_000)  # 100k characters of short tokens
    refs = [many, ref[1], huge, ref[3]]
    rep = parbleu.report(
        [refs], {"a": systems["Online-W"], "b": [many, ref[1], huge, "x"]},
        metrics=[parbleu.BLEU(), parbleu.CHRF()], n=10, flavors=(), top_segments=4,
    )  # fmt: skip
    root = parse(rep.html())
    texts = _cls(root, "hyp") + _cls(root, "ref")
    long = [t for t in texts if len(t.text()) > 10_000]
    assert len(long) == 4  # two references, two outputs
    for t in long:
        shown = _visible(t)
        assert len(shown) <= SHOW_CHARS + 100, len(shown)
        assert "more characters" in t.text()
        # Nothing is lost: the shown part and the folded rest are the whole text.
        full = shown.rstrip() + " " + _folded(t)
        assert full.replace(" ", "").count("y") + full.count("word") in (100_000, 20_000)


def test_long_ngrams_are_clipped() -> None:
    ref, systems = sample(3)
    huge = "z" * 5_000
    rep = parbleu.report(
        [[huge, *ref[1:]]], {"a": [huge, *systems["Online-W"][1:]], "b": systems["Facebook-AI"]},
        metrics=[parbleu.BLEU()], n=10, flavors=(),
    )  # fmt: skip
    cell = next(td for td in parse(rep.html()).by_id("ngrams-0-a").iter("td") if "zzz" in td.text())
    assert len(_visible(cell)) <= 80 and cell.text().count("z") == 5_000


# --- views compare-mt has -------------------------------------------------------------------


def test_length_difference_buckets_equal_a_naive_count() -> None:
    ref, systems = sample(200)
    rep = parbleu.report([ref], systems, n=10, flavors=())
    b = rep.data["length_diff_buckets"]
    edges = b["edges"]
    assert edges == [-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 10, 20]
    assert b["labels"][:3] == ["<-20", "-20..-11", "-10..-6"]
    assert b["labels"][6:10] == ["-2", "-1", "0", "+1"] and b["labels"][-1] == ">=+20"
    tok = Tokenizer13a()
    rt = [len(tok(r).split()) for r in ref]
    root = parse(rep.html())
    seg_rows = root.by_id("length_diff_buckets-segments").iter("tbody")[0].iter("tr")
    bleu_rows = root.by_id("length_diff_buckets-bleu").iter("tbody")[0].iter("tr")
    for name, srow, brow in zip(NAMES, seg_rows, bleu_rows):
        diff = [len(tok(h).split()) - r for h, r in zip(systems[name], rt)]
        bucket = [sum(d >= e for e in edges) for d in diff]
        counts = Counter(bucket)
        assert b["segments"][name] == [counts[k] for k in range(len(edges) + 1)]
        assert srow.iter("td")[0].text() == name
        assert [data_v(td) for td in srow.iter("td")[1:]] == b["segments"][name]
        for k in range(len(edges) + 1):
            idx = [i for i, x in enumerate(bucket) if x == k]
            check_bucket_bleu(data_v(brow.iter("td")[1 + k]), systems[name], ref, idx)


def test_bucket_bars_draw_the_numbers() -> None:
    ref, systems = sample(100)
    rep = parbleu.report([ref], systems, n=10, flavors=())
    view = parse(rep.html()).by_id("length_buckets-bleu")
    row = view.iter("tbody")[0].iter("tr")[0]
    bleu = rep.data["length_buckets"]["bleu"]
    # Bars over the data's range (issue 34: 22-33 against 0-100 were alike), labelled.
    lo, hi = score_range(x for v in bleu.values() for x in v)
    assert 0 <= lo <= min(x for v in bleu.values() for x in v if x is not None) < hi <= 100
    for td, x in zip(row.iter("td")[1:], bleu[NAMES[0]]):
        if x is None:
            assert "style" not in td.attrs
        else:
            assert td.attrs["style"] == f"--w:{100 * (x - lo) / (hi - lo):.1f}%"
    assert f"Bars: {lo:g} (empty) to {hi:g} (full)" in rep.html()


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([22.1, 33.4], (15.0, 35.0)),  # the BLEU 22-33: a round range around it
        ([0.5, 99.0], (0.0, 100.0)),
        ([40.0, 40.0], (0.0, 40.0)),  # equal values: from 0
        ([None, 10.0, 12.0], (9.5, 12.0)),
    ],
)
def test_score_range(values: list[float | None], expected: tuple[float, float]) -> None:
    assert score_range(values) == pytest.approx(expected)


def test_source_is_shown_with_the_examples(tmp_path: Path) -> None:
    ref, systems = sample(30)
    src = [f"source sentence {i} <b>" for i in range(30)]
    rep = parbleu.report([ref], systems, n=10, flavors=(), src=src)
    root = parse(rep.html())
    segs = _cls(root, "seg")
    assert segs
    for seg in segs:
        i = int(seg.attrs["data-index"] or "")
        assert _cls(seg, "src")[0].text() == f"#{i + 1} source: {src[i]}"
    with pytest.raises(LengthMismatchError, match=r"src: 29 source sentences but the ref"):
        parbleu.report([ref], systems, n=10, flavors=(), src=src[:29])
    with pytest.raises(InputTypeError, match=r"src\[3\]: got a NoneType"):
        parbleu.report([ref], systems, n=10, flavors=(), src=[*src[:3], None, *src[4:]])


def test_cli_src(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = str(SAMPLE / "ref.A.de")
    hyps = [str(SAMPLE / f"{n}.de") for n in NAMES]
    n_lines = len((SAMPLE / "ref.A.de").read_text(encoding="utf-8").splitlines())
    src = tmp_path / "src.en"
    src.write_text("".join(f"src {i}\n" for i in range(n_lines)), encoding="utf-8")
    out = tmp_path / "r.html"
    base = ["report", ref, "-i", *hyps, "-o", str(out), "--n", "10", "--flavors", "-q"]
    assert main([*base, "--src", str(src)]) == 0
    assert "source: src " in out.read_text(encoding="utf-8")
    src.write_text("only one line\n", encoding="utf-8")
    capsys.readouterr()
    assert main([*base, "--src", str(src)]) == 1
    err = capsys.readouterr().err
    assert f"--src: file {str(src)!r} has 1 line but the references have {n_lines}" in err
    assert len(err.strip().splitlines()) == 1


def test_flavors_score_every_system_by_default() -> None:
    ref, systems = wmt_ja_en(30)
    rep = parbleu.report([ref], systems, n=10, flavors=("nltk", "multi-bleu"))
    for f in rep.data["flavors"]:
        assert all(v is not None for v in f["scores"].values()), f["name"]
    rows = parse(rep.html()).by_id("flavor-table").iter("tbody")[0].iter("tr")
    assert len(rows) == 14 and not any(td.text() == "–" for r in rows for td in r.iter("td"))


# --- PNG -------------------------------------------------------------------------------------


def test_png_legends_do_not_cover_the_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_extra("matplotlib")
    import matplotlib.pyplot as plt

    ref, systems = wmt_ja_en(40)
    rep = parbleu.report([ref], systems, n=10, flavors=())
    figures: list[Any] = []
    close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig: figures.append(fig))
    written = rep.write_plots(tmp_path)
    assert {p.stem for p in written} >= {"length_buckets", "freq_buckets"}
    for fig in figures:
        fig.canvas.draw()
        if len(fig.axes) > 1:  # small multiples: each panel titled with its system
            assert all(ax.get_title() for ax in fig.axes if ax.get_visible())
            close(fig)
            continue
        for ax in fig.axes:
            legend = ax.get_legend()
            assert legend is not None
            assert not legend.get_window_extent().overlaps(ax.get_window_extent())
        close(fig)
