"""parbleu's table rendering against ``tabulate`` and SacreBLEU's own printing functions.

parbleu reimplements the part of ``tabulate`` SacreBLEU uses (it must not depend on it); these
differential tests feed both the same cells: numbers in every shape tabulate recognises,
multi-line cells, colour codes, LaTeX specials, non-ASCII text, and paired-test results.
"""

from __future__ import annotations

import argparse
import copy
import io
from contextlib import redirect_stdout
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parbleu.cli import render
from parbleu.cli.tabulate import tabulate

tabulate_mod = pytest.importorskip("tabulate")
sb_utils = pytest.importorskip("sacrebleu.utils")
sb_significance = pytest.importorskip("sacrebleu.significance")

FRAGMENTS = [
    "1",
    "2.5",
    "29.7",
    "-3",
    "+4.25",
    "1,000",
    "1,000.5",
    "1e3",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "True",
    "False",
    "0x1f",
    "1_000",
    " 7 ",
    "١٢",
    "",
    " ",
    "\n",
    "\r",
    "\r\n",
    "\x1b[31m",
    "\x1b[0m",
    "\x1b[36m12\x1b[0m",
    "&",
    "%",
    "_",
    "{",
    "}",
    "~",
    "^",
    "\\",
    "<",
    ">",
    "#",
    "$",
    "System",
    "é",
    "ü",
    "μ",
    "±",
    "中文",
    "a b",
    "\t",
    "(p = 0.0100)*",
    "Baseline: x",
]

#: Cells that make tabulate's column-type detection pick int, float or bool columns.
NUMBERS = [
    "1", "2.5", "29.7", "-3", "0.05", "1,000", "1,000.5", "12,345,678", "1e3", "nan", "inf",
    "1_000", " 7 ", "١٢", "", "True", "False", "\x1b[36m12\x1b[0m", "\x1b[31m2.5\x1b[0m",
    "\x1b[31m1,000.5\x1b[0m", "\x1b[32m007\x1b[0m",
]  # fmt: skip

#: render.py follows tabulate 0.10 (Python >= 3.10). 0.9, the newest for Python 3.9, detects
#: column types differently (empty cells, digit groups such as "1,000.5", "True"/"False"), so
#: the comparisons with tabulate's output need 0.10.
needs_tabulate_0_10 = pytest.mark.skipif(
    tuple(int(x) for x in tabulate_mod.__version__.split(".")[:2]) < (0, 10),
    reason=f"tabulate {tabulate_mod.__version__}: render.py follows tabulate 0.10 (Python >= 3.10)",
)

cell = st.lists(st.sampled_from(FRAGMENTS), max_size=4).map("".join)
number = st.sampled_from(NUMBERS)
header = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=3).map("".join)


@st.composite
def tables(draw: st.DrawFn) -> dict[str, list[str]]:
    n_rows = draw(st.integers(1, 4))
    n_cols = draw(st.integers(1, 4))
    names = draw(st.lists(header, min_size=n_cols, max_size=n_cols, unique=True))
    return {
        name: draw(
            st.lists(draw(st.sampled_from([cell, number])), min_size=n_rows, max_size=n_rows)
        )
        for name in names
    }


def _reference_tabulate(columns: dict[str, list[str]], fmt: str, floatfmt: str) -> str:
    return str(
        tabulate_mod.tabulate(
            columns,
            headers="keys",
            tablefmt=fmt,
            colalign=("right",),
            stralign="center",
            numalign="center",
            floatfmt=floatfmt,
        )
    )


@needs_tabulate_0_10
@pytest.mark.parametrize("fmt", ["fancy_grid", "latex_booktabs"])
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(columns=tables(), width=st.integers(0, 5))
def test_tabulate_subset_matches_tabulate(
    fmt: str, columns: dict[str, list[str]], width: int
) -> None:
    floatfmt = f".{width}f"
    expected = _reference_tabulate(copy.deepcopy(columns), fmt, floatfmt)
    assert tabulate(columns, fmt, floatfmt) == expected


def _args(fmt: str, width: int, paired: str | None, n: int) -> argparse.Namespace:
    return argparse.Namespace(
        format=fmt,
        width=width,
        paired_bs=paired == "bs",
        paired_ar=paired == "ar",
        paired_bs_n=n,
        paired_ar_n=n,
    )


def _sacrebleu_lines(
    scores: dict[str, list[Any]], sigs: dict[str, str], args: argparse.Namespace, colors: bool
) -> list[str]:
    buf = io.StringIO()
    old = sb_utils.Color.ENABLE_COLORS
    sb_utils.Color.ENABLE_COLORS = colors
    try:
        with redirect_stdout(buf):
            sb_utils.print_results_table(copy.deepcopy(scores), sigs, args)
    finally:
        sb_utils.Color.ENABLE_COLORS = old
    return buf.getvalue().split("\n")[:-1]


def _ours(
    scores: dict[str, list[Any]], sigs: dict[str, str], args: argparse.Namespace, colors: bool
) -> list[str]:
    paired = None
    if args.paired_bs or args.paired_ar:
        paired = (bool(args.paired_bs), args.paired_bs_n if args.paired_bs else args.paired_ar_n)
    lines = render.results_lines(
        copy.deepcopy(scores), sigs, args.format, args.width, colors, paired
    )
    return "\n".join(lines).split("\n")


result = st.builds(
    sb_significance.Result,
    score=st.floats(0, 100),
    p_value=st.one_of(st.none(), st.floats(0, 1)),
    mean=st.one_of(st.none(), st.floats(0, 100)),
    ci=st.floats(0, 10),
)


@st.composite
def paired_scores(draw: st.DrawFn) -> tuple[dict[str, list[Any]], dict[str, str]]:
    n_sys = draw(st.integers(2, 4))
    others = draw(st.lists(cell, min_size=n_sys - 1, max_size=n_sys - 1))
    labels = ["Baseline: " + draw(cell), *others]
    bootstrap = draw(st.booleans())
    scores: dict[str, list[Any]] = {"System": labels}
    sigs = {}
    for name in draw(
        st.lists(
            st.sampled_from(["BLEU", "chrF2", "TER", "chrF2++"]),
            min_size=1,
            max_size=3,
            unique=True,
        )
    ):
        cells = []
        for i in range(n_sys):
            r = draw(result)
            r.p_value = None if i == 0 else (r.p_value if r.p_value is not None else 0.5)
            r.mean = r.mean if bootstrap and r.mean is not None else (1.5 if bootstrap else None)
            cells.append(r)
        scores[name] = cells
        sigs[name] = f"nrefs:1|bs:1000|{name}|version:2.6.0"
    return scores, sigs


@pytest.mark.parametrize("fmt", ["text", "latex", "json"])
@pytest.mark.parametrize("colors", [False, True])
@settings(max_examples=60, deadline=None)
@given(data=paired_scores(), width=st.integers(0, 4), n=st.integers(1, 10000))
def test_paired_results_as_sacrebleu_prints_them(
    fmt: str, colors: bool, data: tuple[dict[str, list[Any]], dict[str, str]], width: int, n: int
) -> None:
    scores, sigs = data
    kind = "bs" if any(r.mean is not None for r in list(scores.values())[1]) else "ar"
    args = _args(fmt, width, kind, n)
    assert _ours(scores, sigs, args, colors) == _sacrebleu_lines(scores, sigs, args, colors)


@needs_tabulate_0_10
@pytest.mark.parametrize("fmt", ["text", "latex", "json"])
@pytest.mark.parametrize("colors", [False, True])
@settings(max_examples=60, deadline=None)
@given(columns=tables(), width=st.integers(0, 4))
def test_plain_results_as_sacrebleu_prints_them(
    fmt: str, colors: bool, columns: dict[str, list[str]], width: int
) -> None:
    labels = next(iter(columns.values()))
    scores: dict[str, list[Any]] = {"System": labels, **dict(list(columns.items())[1:])}
    sigs = {name: f"sig-of-{name}" for name in list(scores)[1:]}
    args = _args(fmt, width, None, 0)
    assert _ours(scores, sigs, args, colors) == _sacrebleu_lines(scores, sigs, args, colors)


@pytest.mark.parametrize("fmt", ["json", "text", "latex"])
@pytest.mark.parametrize("colors", [False, True])
@given(results=st.lists(cell, min_size=1, max_size=4))
def test_single_results_as_sacrebleu_prints_them(
    fmt: str, colors: bool, results: list[str]
) -> None:
    buf = io.StringIO()
    old = sb_utils.Color.ENABLE_COLORS
    sb_utils.Color.ENABLE_COLORS = colors
    try:
        with redirect_stdout(buf):
            sb_utils.print_single_results(list(results), argparse.Namespace(format=fmt))
    finally:
        sb_utils.Color.ENABLE_COLORS = old
    ours = render.single_results(list(results), fmt, colors)
    assert "".join(line + "\n" for line in ours) == buf.getvalue()


def test_confidence_is_coloured_like_sacrebleu() -> None:
    line = "BLEU|nrefs:1|bs:200|version:2.6.0 = 29.7 (μ = 29.7 ± 1.0) 60.2/35.6"
    assert render.single_results([line], "text", True) == [
        "BLEU|nrefs:1|bs:200|version:2.6.0 = 29.7 \x1b[36m(μ = 29.7 ± 1.0)\x1b[0m 60.2/35.6"
    ]


def test_colorama_strip() -> None:
    assert render.colorama_strip("\x1b[36mBLEU\x1b[0m \x1b]0;title\x07x") == "BLEU x"
    assert render.colorama_strip("plain") == "plain"
