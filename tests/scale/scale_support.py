"""Data shared by the scale tests: WMT21 en-de systems and generated sentences."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import strategies as st

from helpers import REPO, SHARED

__all__ = ["REPO"]

WMT21 = SHARED / "data" / "wmt21"
REF_A = WMT21 / "references" / "newstest2021.en-de.ref.A.de"
REF_C = WMT21 / "references" / "newstest2021.en-de.ref.C.de"
SYSTEMS = ("Online-W", "Facebook-AI", "VolcTrans-GLAT", "Online-B")

requires_wmt21 = pytest.mark.skipif(not REF_A.is_file(), reason="data/wmt21 is missing")


@functools.cache
def lines(path: Path) -> tuple[str, ...]:
    """Lines of a file as SacreBLEU's command line reads them (split on \\n, rstripped)."""
    parts = path.read_text(encoding="utf-8").split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return tuple(p.rstrip() for p in parts)


def system(name: str) -> tuple[str, ...]:
    """Output of one WMT21 en-de system."""
    return lines(WMT21 / "system-outputs" / f"newstest2021.en-de.hyp.{name}.de")


_WORDS = [
    "the",
    "The",
    "cat",
    "sat",
    "on",
    "mat",
    "a",
    "dog",
    "Straße",
    "ÉTÉ",
    "über",
    "42",
    "3.5",
    "(hi)",
    "it's",
    "-",
    ".",
    ",",
    "!",
    "no-one",
    "雨",
    "日本",
]

#: Sentences from a small vocabulary (many shared n-grams), with odd whitespace now and then.
sentences = st.lists(st.sampled_from(_WORDS), min_size=0, max_size=14).flatmap(
    lambda ws: st.sampled_from([" ", "  ", " \t"]).map(lambda sep: sep.join(ws))
)
