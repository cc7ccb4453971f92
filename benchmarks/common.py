"""Helpers shared by the benchmark scripts: data loading, timing, table printing."""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import testdata  # noqa: E402 - the test data tree (tests/data/testdata.tar.xz, extracted)

SHARED = testdata.root()
WMT = SHARED / "data" / "wmt21"


def read(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def en_de() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The 20 WMT21 en-de systems and the references A, C, D."""
    systems = {
        p.name.split(".hyp.")[1][: -len(".de")]: read(p)
        for p in sorted((WMT / "system-outputs").glob("newstest2021.en-de.hyp.*.de"))
    }
    refs = {x: read(WMT / "references" / f"newstest2021.en-de.ref.{x}.de") for x in "ACD"}
    return systems, refs


def median_time(fn: Callable[[], Any], runs: int) -> float:
    """Median wall time of ``runs`` calls; like ``timeit``, the garbage collector is paused
    while timing (so one tool's leftover heap does not bill the other)."""
    times = []
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        finally:
            gc.enable()
    return statistics.median(times)


def peak_rss_mb(code: str) -> float:
    """Peak resident memory (MiB) of a fresh Python process running ``code``."""
    prog = code + "\nimport resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    out = subprocess.run(
        [sys.executable, "-c", prog], check=True, capture_output=True, text=True, cwd=REPO
    ).stdout.split()[-1]
    return int(out) / 1024


class Table:
    def __init__(self, title: str) -> None:
        self.title = title
        self.rows: list[tuple[str, str, str, str]] = []

    def add(
        self, what: str, ref_s: float | None, ours_s: float, ref_name: str = "sacrebleu"
    ) -> None:
        ratio = f"{ref_s / ours_s:,.0f}×" if ref_s else "-"
        self.rows.append(
            (what, f"{ref_s:.3f} s ({ref_name})" if ref_s else "-", f"{ours_s:.4f} s", ratio)
        )

    def add_raw(self, what: str, a: str, b: str, c: str) -> None:
        self.rows.append((what, a, b, c))

    def markdown(self) -> str:
        head = ["workload", "reference tool", "parbleu", "speed-up"]
        lines = [f"### {self.title}", "", "| " + " | ".join(head) + " |", "|---|---:|---:|---:|"]
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(lines)
