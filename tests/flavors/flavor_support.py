"""Helpers shared by the flavor tests: golden records, inputs, float comparison."""

from __future__ import annotations

import ast
import functools
import io
import json
import math
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers import GOLDEN, REPO, SHARED, records, requires_shared

__all__ = [
    "GOLDEN",
    "REPO",
    "SHARED",
    "close",
    "read_lines",
    "read_text",
    "records",
    "requires_shared",
    "run_cli",
    "smoothing",
    "with_edge_cases",
]

#: Relative tolerance of float comparisons with golden values (the issue's bar).
REL = 1e-12


def close(got: Any, want: Any, rel: float = REL) -> bool:
    """Floats within ``rel`` relative (or both exactly 0), recursively for lists."""
    if isinstance(want, list):
        return (
            isinstance(got, (list, tuple))
            and len(got) == len(want)
            and all(close(g, w, rel) for g, w in zip(got, want))
        )
    if want is None or got is None:
        return want is got
    got, want = float(got), float(want)
    if math.isnan(want):
        return math.isnan(got)
    if want == got:
        return True
    return abs(got - want) <= rel * max(abs(want), abs(got))


@functools.lru_cache(maxsize=256)
def read_lines(rel: str) -> tuple[str, ...]:
    """Lines as the golden records read them: UTF-8, split on ``\\n`` only (a ``\\r`` stays),
    the final empty piece dropped, nothing stripped."""
    parts = read_text(rel).split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return tuple(parts)


def with_edge_cases(golden: Iterable[dict[str, Any]], tag: str) -> list[dict[str, Any]]:
    """A tool's golden records, then its cases of ``edge_cases_others/edge_cases.jsonl`` (the
    records whose id holds ``tag``)."""
    edge = records("edge_cases_others/edge_cases.jsonl")
    return [*golden, *(r for r in edge if tag in r["id"])]


def read_text(rel: str) -> str:
    with open(SHARED / rel, encoding="utf-8", newline="") as f:
        return f.read()


def options(rec: dict[str, Any]) -> dict[str, Any]:
    """Record options (some files store them as a Python repr)."""
    opts = rec["options"]
    if isinstance(opts, str):
        parsed: dict[str, Any] = ast.literal_eval(opts)
        return parsed
    out: dict[str, Any] = opts
    return out


def ref_paths(rec: dict[str, Any]) -> list[str]:
    refs = rec["refs"]
    if isinstance(refs, str):
        refs = ast.literal_eval(refs)
    return list(refs)


_SF = re.compile(r"SmoothingFunction\((.*)\)\.(method\d)")


def smoothing(spec: str | None, module: Any) -> Any:
    """The bound smoothing method a golden record names (``SmoothingFunction(...).methodN``)."""
    if spec is None:
        return None
    m = _SF.fullmatch(spec)
    assert m, spec
    kwargs = {}
    for part in filter(None, (p.strip() for p in m.group(1).split(","))):
        k, v = part.split("=")
        kwargs[k] = json.loads(v)
    return getattr(module.SmoothingFunction(**kwargs), m.group(2))


def skip_unless(cond: bool, why: str) -> None:
    if not cond:
        pytest.skip(why)


def run_cli(argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, bytes]:
    """``parbleu.cli.main(argv)`` with byte streams as stdin/stdout/stderr: code, out, err."""
    from parbleu.cli import main

    out, err = io.BytesIO(), io.BytesIO()
    wrappers = (
        io.TextIOWrapper(io.BytesIO(stdin)),
        io.TextIOWrapper(out, encoding="utf-8", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", write_through=True),
    )
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = wrappers
    try:
        code = main(argv)
        sys.stdout.flush()
        sys.stderr.flush()
        result = code, out.getvalue(), err.getvalue()
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
        for w in wrappers:
            w.detach()
    return result
