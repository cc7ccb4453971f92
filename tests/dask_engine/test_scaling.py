"""The work of the driver follows the partitions, not the lines (issue 25, at small sizes).

The number of tasks the scheduler runs and the driver's own memory must not grow when the
same number of partitions holds 4 times as many lines; they grow with the partitions.
benchmarks/bench_distributed.py shows the same on a simulated 100-worker cluster.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from dask_support import require_dask

import parbleu

require_dask()

from distributed import get_task_stream  # noqa: E402

from parbleu import distributed as dist  # noqa: E402
from parbleu.distributed import sources  # noqa: E402
from parbleu.distributed.sources import auto_part_lines  # noqa: E402


def _write(folder: Path, n: int) -> tuple[str, str, list[str], list[str]]:
    hyps = [" ".join(f"w{(i * 7 + k) % 53}" for k in range(1 + i % 9)) for i in range(n)]
    refs = [" ".join(f"w{(i * 5 + k) % 53}" for k in range(1 + i % 11)) for i in range(n)]
    folder.mkdir()
    (folder / "h").write_text("".join(x + "\n" for x in hyps), encoding="utf-8")
    (folder / "r").write_text("".join(x + "\n" for x in refs), encoding="utf-8")
    return str(folder / "h"), str(folder / "r"), hyps, refs


def _run(client: Any, hyp: str, ref: str, part_lines: int) -> tuple[int, int, dict[str, Any]]:
    tracemalloc.start()
    try:
        with get_task_stream(client) as ts:
            got = dist.score_files(
                hyp, ref, ["bleu", "chrf"], scheduler=client, part_lines=part_lines
            )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return len(ts.data), peak, got


def test_tasks_and_driver_memory_follow_partitions(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The driver reads each file once for its newlines, in chunks of _SCAN_BYTES: small
    # chunks here so that the files are larger than one chunk, as real corpora are.
    monkeypatch.setattr(sources, "_SCAN_BYTES", 1 << 12)
    n = 4000
    small = _write(tmp_path / "small", n)
    large = _write(tmp_path / "large", 4 * n)
    _run(client, small[0], small[1], n // 8)  # warm-up: imports, connections
    tasks_s, peak_s, got_s = _run(client, small[0], small[1], n // 8)
    tasks_l, peak_l, got_l = _run(client, large[0], large[1], 4 * n // 8)
    tasks_m, _, _ = _run(client, large[0], large[1], 4 * n // 32)
    assert tasks_s == tasks_l == 8 + 1  # 8 partitions, one merge task
    assert tasks_m == 32 + 4 + 1  # 4 times the partitions: about 4 times the tasks
    # 4 times the lines, the same partitions: the driver's peak does not follow the lines
    # (the text alone is 4 * 4000 * ~20 bytes * 2 files more; the margin is for Dask's noise).
    assert peak_l < peak_s + 128 * 1024, (peak_s, peak_l)
    for (_, _, hyps, refs), got in ((small, got_s), (large, got_l)):
        assert str(got["bleu"]) == str(parbleu.BLEU().corpus_score(hyps, [refs]))
        assert str(got["chrf"]) == str(parbleu.CHRF().corpus_score(hyps, [refs]))


def test_automatic_partitions_spread_over_the_workers() -> None:
    grain, most = 1 << 13, 1 << 20
    # 1M lines on 2 threads: 8 equal tasks (the old fixed 2^20 lines gave one task).
    part = auto_part_lines(1_000_000, 2, grain, most)
    assert part % grain == 0 and -(-1_000_000 // part) == 8
    # 10M lines: tasks of at most 2^20 lines, 10 of them (5 per worker of 2).
    part = auto_part_lines(10_000_000, 2, grain, most)
    assert part <= most and -(-10_000_000 // part) == 10
    # 100 workers: about 4 tasks each (fewer: a task is a whole number of grains).
    assert -(-10_000_000 // auto_part_lines(10_000_000, 100, grain, most)) >= 300
    # A tiny corpus is one task of one grain.
    assert auto_part_lines(10, 100, grain, most) == grain


def test_automatic_partitions_give_the_in_memory_score(client: Any, tmp_path: Path) -> None:
    hyp, ref, hyps, refs = _write(tmp_path / "f", 3 * (1 << 13) + 5)
    with get_task_stream(client) as ts:
        got = dist.score_files(hyp, ref, ["bleu", "chrf", "ter"], scheduler=client)
    assert len(ts.data) == 4 + 1  # 4 ranges of one grain (the last of 5 lines), one merge
    assert str(got["bleu"]) == str(parbleu.BLEU().corpus_score(hyps, [refs]))
    assert str(got["chrf"]) == str(parbleu.CHRF().corpus_score(hyps, [refs]))
    assert str(got["ter"]) == str(parbleu.TER().corpus_score(hyps, [refs]))
