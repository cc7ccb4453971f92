"""Distributed scoring: 1 and 2 Dask worker processes against the in-process streaming path.

    python benchmarks/bench_distributed.py [--lines 10000000] [--metrics bleu chrf]
                                           [--part-lines 1048576]

A hypothesis file and a reference file of ``--lines`` lines are made in a temporary directory
by repeating the WMT21 en-de lines (Online-W against reference A). Then:

* in process: ``parbleu.score_files`` (the streaming path, one thread, as each worker uses),
  in a fresh process;
* ``parbleu.distributed.score_files`` on a local cluster of 1 and of 2 worker processes (one
  thread each), cluster start-up not counted;

and printed: each wall time and CPU time (the workers' CPU time during the job, imports of
the first task included), the overhead ratio (1 worker / in process), the speed-up (1 -> 2
workers), the scores' equality, and the peak resident memory of every worker process (read
from the workers after the job, ``VmHWM``) next to the in-process run's.

Needs the ``dask`` extra. Timings on a shared machine vary: report ratios, not absolute times;
when the machine is oversubscribed, wall times measure the share of CPU the processes got,
and the CPU-time ratio is the better measure of overhead.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import REPO, WMT, read


def make_files(folder: Path, n: int) -> tuple[str, str]:
    hyps = read(WMT / "system-outputs" / "newstest2021.en-de.hyp.Online-W.de")
    refs = read(WMT / "references" / "newstest2021.en-de.ref.A.de")
    paths = []
    for name, lines in (("hyp.de", hyps), ("ref.de", refs)):
        block = ("\n".join(lines) + "\n").encode("utf-8")
        full, rest = divmod(n, len(lines))
        path = folder / name
        with open(path, "wb") as f:
            for _ in range(full):
                f.write(block)
            f.write(("\n".join(lines[:rest]) + "\n").encode("utf-8") if rest else b"")
        paths.append(str(path))
    return paths[0], paths[1]


def _peak_rss_mb() -> float:
    # VmHWM, not ru_maxrss: on Linux a child's ru_maxrss starts at its parent's peak (it is
    # kept across fork and exec), which would bill the workers for the benchmark's own memory.
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_s() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def run_in_process(
    hyp: str, ref: str, metrics: list[str]
) -> tuple[float, dict[str, str], float, float]:
    """The streaming path in a fresh process: wall time, scores, peak memory, CPU time."""
    code = (
        "import json, sys, time; sys.path.insert(0, 'benchmarks'); import parbleu\n"
        "from bench_distributed import _peak_rss_mb\n"
        "c0 = time.process_time()\n"
        f"t0 = time.perf_counter(); s = parbleu.score_files({hyp!r}, {ref!r}, {metrics!r}, "
        "workers=1)\n"
        "print(json.dumps([time.perf_counter() - t0, {k: str(v) for k, v in s.items()}, "
        "_peak_rss_mb(), time.process_time() - c0]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=REPO
    ).stdout.splitlines()[-1]
    wall, scores, rss, cpu = json.loads(out)
    return float(wall), dict(scores), float(rss), float(cpu)


def run_cluster(
    workers: int, hyp: str, ref: str, metrics: list[str], part_lines: int
) -> tuple[float, dict[str, Any], list[float], float]:
    """Wall time, scores, peak memory of each worker, CPU time of all workers."""
    from distributed import Client, LocalCluster

    from parbleu import distributed as dist

    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )
    with cluster, Client(cluster) as client:
        cpu0 = client.run(_cpu_s)
        t0 = time.perf_counter()
        scores = dist.score_files(hyp, ref, metrics, scheduler=client, part_lines=part_lines)
        wall = time.perf_counter() - t0
        cpu = sum(client.run(_cpu_s).values()) - sum(cpu0.values())
        rss = sorted(client.run(_peak_rss_mb).values())
    return wall, scores, rss, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=10_000_000)
    ap.add_argument("--metrics", nargs="+", default=["bleu", "chrf"])
    ap.add_argument("--part-lines", type=int, default=1 << 20)
    args = ap.parse_args()
    os.environ.setdefault("PARBLEU_WORKERS", "1")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        hyp, ref = make_files(Path(tmp), args.lines)
        size = (os.path.getsize(hyp) + os.path.getsize(ref)) / 2**20
        print(
            f"data: {args.lines:,} lines, {size:,.0f} MiB in all ({time.perf_counter() - t0:.1f} s)"
        )
        t_local, local, rss_local, cpu_local = run_in_process(hyp, ref, args.metrics)
        print(
            f"in process (streaming, 1 thread): {t_local:8.2f} s  CPU {cpu_local:8.2f} s  "
            f"peak RSS {rss_local:.0f} MiB"
        )
        results: dict[int, float] = {}
        cpus: dict[int, float] = {}
        for n in (1, 2):
            wall, scores, rss, cpu = run_cluster(n, hyp, ref, args.metrics, args.part_lines)
            same = all(str(scores[m]) == str(local[m]) for m in args.metrics)
            results[n] = wall
            cpus[n] = cpu
            print(
                f"dask, {n} worker process(es):      {wall:8.2f} s  CPU {cpu:8.2f} s  peak RSS "
                f"per worker {', '.join(f'{r:.0f}' for r in rss)} MiB  same scores: {same}"
            )
        print(f"overhead ratio (1 worker / in process): {results[1] / t_local:.2f}")
        print(f"  by CPU time (workers' / in process):  {cpus[1] / cpu_local:.2f}")
        print(f"speed-up (1 -> 2 workers):              {results[1] / results[2]:.2f}")
        for m in args.metrics:
            print(f"  {local[m]}")


if __name__ == "__main__":
    main()
