"""``parbleu.report`` on bad and unusual input: one clear error, or a page that still parses."""

from __future__ import annotations

import json
from typing import Any

import pytest
from report_support import parse, sample

import parbleu
from parbleu.errors import InputTypeError, InvalidOptionError, LengthMismatchError


@pytest.mark.parametrize(
    ("refs", "systems", "kwargs", "error", "message"),
    [
        ("ref", {"a": ["x"]}, {}, InputTypeError, "references: got a str"),
        ([["x"]], ["x"], {}, InputTypeError, "systems: got a list"),
        ([["x"]], {}, {}, InvalidOptionError, "systems: empty"),
        ([["x"]], {"a": "x"}, {}, InputTypeError, "systems['a']: a single string"),
        ([["x", "y"]], {"a": ["x"]}, {}, LengthMismatchError, "systems['a']: 1 hypothesis"),
        ([["x"], ["y", "z"]], {"a": ["x"]}, {}, LengthMismatchError, "stream 2 has 2"),
        ([[]], {"a": []}, {}, InvalidOptionError, "references: no segments"),
        ([["x"]], {"a": ["x"]}, {"baseline": "b"}, InvalidOptionError, "baseline='b'"),
        ([["x"]], {"a": ["x"]}, {"length_edges": (5, 3)}, InvalidOptionError, "length_edges"),
        ([["x"]], {"a": ["x"]}, {"max_order": 0}, InvalidOptionError, "max_order=0"),
        ([["x"]], {"a": ["x"]}, {"flavor_systems": 0}, InvalidOptionError, "flavor_systems=0"),
        ([["x"]], {"a": ["x"], "b": ["y"]}, {"alpha": 2}, InvalidOptionError, "alpha=2"),
    ],
)
def test_bad_input_is_one_clear_error(
    refs: Any, systems: Any, kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=None) as info:
        parbleu.report(refs, systems, n=10, **kwargs)
    assert message in str(info.value)


def test_empty_lines_and_missing_references() -> None:
    ref, systems = sample(20)
    second: list[str | None] = [None if i % 3 else r for i, r in enumerate(ref)]
    hyps = {"empty": [""] * 20, "full": systems["Online-W"]}
    rep = parbleu.report([ref, second], hyps, n=20)
    root = parse(rep.html())
    assert json.loads(root.by_id("parbleu-data").text())["systems"] == ["empty", "full"]
    assert rep.data["scores"][0]["scores"]["empty"] == 0.0
    assert rep.data["flavors"] == []  # the originals take no missing references
    f = rep.data["freq_buckets"]
    assert all(p is None for p in f["precision"]["empty"])  # no words: no precision


def test_flavor_failures_are_shown_not_raised() -> None:
    ref, systems = sample(5)
    rep = parbleu.report([ref], {"blank": [""] * 5, "ok": systems["Online-W"]}, n=10,
                         flavors=("multi-bleu", "nltk"), flavor_systems=2)  # fmt: skip
    moses = rep.data["flavors"][0]
    assert moses["scores"]["blank"] is None and "multi-bleu" in moses["errors"]["blank"]
    assert moses["scores"]["ok"] is not None
    root = parse(rep.html())
    # Systems down, flavors across: the "blank" row's multi-bleu cell.
    cells = root.by_id("flavor-table").iter("tbody")[0].iter("tr")[0].iter("td")
    assert cells[0].text() == "blank"
    assert cells[1].attrs["title"] == moses["errors"]["blank"]
