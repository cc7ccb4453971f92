"""Distributed scoring: Dask worker processes against the in-process streaming path.

    python benchmarks/bench_distributed.py                  # 10M lines: the issue-25 run
    python benchmarks/bench_distributed.py --lines 500000   # a quick check at a small size
    python benchmarks/bench_distributed.py --sim-only       # only the simulated 100 workers

A hypothesis file and a reference file of ``--lines`` lines are made in a temporary directory
by repeating the WMT21 en-de lines (Online-W against reference A). Then:

* in process: ``parbleu.score_files`` (the streaming path, one thread, as each worker uses),
  in a fresh process, ``parbleu`` imported before the clock starts;
* ``parbleu.distributed.score_files`` on the local cluster of ``--scheduler local:1`` and
  ``local:2`` (worker processes of one thread; ``--part-lines`` as given, default:
  automatic), the cluster started and ``parbleu`` imported on the workers before the clock
  starts;
* a simulated large cluster: ``--sim-workers`` (100) workers of one thread in this process
  (a ``LocalCluster`` of threads) on small partitions (``--sim-part-lines``), at ``--sim-lines``
  and at 4 times as many lines with the same number of partitions, then twice the partitions:
  the tasks and the result brought to the driver follow the partitions, not the lines. The
  peak RSS printed is the whole process's (driver, scheduler and the 100 workers, whose
  tasks hold their partitions); tests/dask_engine/test_scaling.py measures the driver's own
  allocations (tracemalloc, with worker processes) at small sizes.

Printed: the load average (1 min) before and after every run and the number of cores, each
wall time and CPU time (the workers' CPU during the job), the overhead ratio (1 worker / in
process, by wall and by CPU time; goal <= 1.2), the speed-up (1 -> 2 workers; goal >= 1.7 on
an idle 2-core machine), whether the scores are identical, and the peak resident memory of
every worker process (``VmHWM``: bounded by ``--block-lines``, not by the corpus) next to the
in-process run's. The script always exits 0 when it ran: it reports, it does not judge.

Timings on a shared machine vary: compare ratios from one run; when the load average is
above the number of cores, wall times measure the share of CPU the processes got, and the
CPU-time ratio is the better measure of overhead. Needs the ``dask`` extra.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
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


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _cpu_s() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


def _import_parbleu() -> None:
    import parbleu.distributed.sources  # noqa: F401 - what a task imports


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
    workers: int, hyp: str, ref: str, metrics: list[str], part_lines: int | None
) -> tuple[float, dict[str, Any], list[float], float]:
    """Wall time, scores, peak memory of each worker, CPU time of all workers."""
    from parbleu import distributed as dist

    # The local cluster of `--scheduler local:N` (its settings), started before the clock.
    with dist.connect(f"local:{workers}") as client:
        client.run(_import_parbleu)
        cpu0 = client.run(_cpu_s)
        t0 = time.perf_counter()
        scores = dist.score_files(hyp, ref, metrics, scheduler=client, part_lines=part_lines)
        wall = time.perf_counter() - t0
        cpu = sum(client.run(_cpu_s).values()) - sum(cpu0.values())
        rss = sorted(client.run(_peak_rss_mb).values())
    return wall, scores, rss, cpu


def simulate(folder: Path, n_workers: int, lines: int, part_lines: int, metrics: list[str]) -> None:
    """A LocalCluster of ``n_workers`` threads: tasks and driver memory against lines."""
    import logging

    import dask
    from distributed import Client, LocalCluster, get_task_stream

    from parbleu import distributed as dist
    from parbleu.distributed.cluster import LOCAL_CONFIG

    # The settings of parbleu's local clusters: without them, 100 profilers sampling every
    # 10 ms in one process take most of its time.
    with dask.config.set(LOCAL_CONFIG):
        cluster = LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            processes=False,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
    print(
        f"simulated cluster: {n_workers} workers of 1 thread (one process), load {_load()}, "
        f"{os.cpu_count()} cores"
    )
    # The first run warms the 100 workers up (imports, tokenizer tables) and is not compared.
    runs = [(lines, part_lines)] * 2 + [(4 * lines, 4 * part_lines), (4 * lines, 2 * part_lines)]
    with cluster, Client(cluster) as client:
        for k, (n, part) in enumerate(runs):
            sub = folder / f"sim{k}"
            sub.mkdir()
            hyp, ref = make_files(sub, n)
            # Peak RSS of this process (the driver, the scheduler and the 100 workers) from
            # here on: Linux resets VmHWM when "5" is written to clear_refs. (tracemalloc would
            # slow every allocation of the 100 workers down several times.)
            with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
                f.write("5")
            rss0 = _rss_mb()
            t0 = time.perf_counter()
            with get_task_stream(client) as ts:
                scores = dist.score_files(hyp, ref, metrics, scheduler=client, part_lines=part)
            wall = time.perf_counter() - t0
            peak = _peak_rss_mb() - rss0
            parts = -(-n // part)
            print(
                f"  {n:>10,} lines, {parts:>4} partitions of {part:,} lines: {len(ts.data):>4} "
                f"tasks, peak RSS +{peak:5.1f} MiB, {wall:6.2f} s, "
                f"result {len(pickle.dumps(scores))} bytes{' (warm-up)' if k == 0 else ''}"
            )
            for f in (hyp, ref):
                os.remove(f)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--lines", type=int, default=10_000_000, help="Lines of each file.")
    ap.add_argument("--metrics", nargs="+", default=["bleu", "chrf"])
    ap.add_argument(
        "--part-lines",
        type=int,
        default=None,
        help="Lines per task (default: automatic, 4 tasks per worker thread).",
    )
    ap.add_argument("--sim-workers", type=int, default=100, help="Workers of the simulation.")
    ap.add_argument("--sim-lines", type=int, default=20_000, help="Lines of the simulation.")
    ap.add_argument(
        "--sim-part-lines", type=int, default=100, help="Lines per task in the simulation."
    )
    ap.add_argument("--no-sim", action="store_true", help="Skip the simulated cluster.")
    ap.add_argument("--sim-only", action="store_true", help="Only the simulated cluster.")
    args = ap.parse_args()
    os.environ.setdefault("PARBLEU_WORKERS", "1")
    with tempfile.TemporaryDirectory() as tmp:
        if not args.sim_only:
            compare(Path(tmp), args)
        if not args.no_sim:
            simulate(Path(tmp), args.sim_workers, args.sim_lines, args.sim_part_lines, args.metrics)


def compare(folder: Path, args: argparse.Namespace) -> None:
    """In process against 1 and 2 worker processes, on one pair of files."""
    t0 = time.perf_counter()
    hyp, ref = make_files(folder, args.lines)
    size = (os.path.getsize(hyp) + os.path.getsize(ref)) / 2**20
    print(
        f"data: {args.lines:,} lines, {size:,.0f} MiB in all ({time.perf_counter() - t0:.1f} s); "
        f"{os.cpu_count()} cores"
    )
    before = _load()
    t_local, local, rss_local, cpu_local = run_in_process(hyp, ref, args.metrics)
    print(
        f"in process (streaming, 1 thread): {t_local:8.2f} s  CPU {cpu_local:8.2f} s  "
        f"peak RSS {rss_local:.0f} MiB  load {before} -> {_load()}"
    )
    results: dict[int, float] = {}
    cpus: dict[int, float] = {}
    for n in (1, 2):
        before = _load()
        wall, scores, rss, cpu = run_cluster(n, hyp, ref, args.metrics, args.part_lines)
        same = all(str(scores[m]) == str(local[m]) for m in args.metrics)
        results[n] = wall
        cpus[n] = cpu
        print(
            f"dask, {n} worker process(es):      {wall:8.2f} s  CPU {cpu:8.2f} s  peak RSS "
            f"per worker {', '.join(f'{r:.0f}' for r in rss)} MiB  same scores: {same}  "
            f"load {before} -> {_load()}"
        )
    print(f"overhead ratio (1 worker / in process): {results[1] / t_local:.2f}  (goal <= 1.2)")
    print(f"  by CPU time (workers' / in process):  {cpus[1] / cpu_local:.2f}")
    print(f"speed-up (1 -> 2 workers):              {results[1] / results[2]:.2f}  (goal >= 1.7)")
    for m in args.metrics:
        print(f"  {local[m]}")


if __name__ == "__main__":
    main()
