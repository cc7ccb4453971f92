"""Reading the MTME golden files (golden/mtme, made with MTME itself on WMT21)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from helpers import GOLDEN

PAIRS = ("cs-en", "de-en", "ha-en", "is-en", "ja-en", "ru-en", "zh-en")
SEG_PAIRS = ("is-en", "ja-en", "ru-en")


@cache
def load(pair: str) -> dict[str, Any]:
    return json.loads((GOLDEN / "mtme" / f"wmt21.{pair}.json").read_text(encoding="utf-8"))


def flat(matrix: list[list[Any]]) -> list[Any]:
    return [v for row in matrix for v in row]


def vectors(pair: str, level: str, metric: str, gold: str) -> tuple[int, list[Any], list[float]]:
    """(num_sys, flat gold with None, flat metric scores) in MTME's layout."""
    inp = load(pair)["inputs"]
    num_sys = len(inp["systems"])
    if level == "sys":
        return (
            num_sys,
            list(inp["gold"]["sys"][gold]),
            list(inp["metrics"]["sys"][metric]["scores"]),
        )
    return num_sys, flat(inp["gold"]["seg"][gold]), flat(inp["metrics"]["seg"][metric]["scores"])
