"""Corpus chrF and chrF++ against sacrebleu-mojo, a compiled (Mojo) chrF/BLEU kernel.

    python benchmarks/bench_peers.py [--runs 5] [--rounds 1] [--no-install]

The 20 WMT21 en-de systems against reference A, corpus chrF and chrF++ (and BLEU, which
sacrebleu-mojo also provides): median of ``--runs`` runs of all 20 systems, each tool with
the same inputs; parbleu also scores all 20 systems in one ``corpus_scores`` call (rows
"in one call": each segment's references are then probed by every system while they are in
the cache), against the same per-system loop of the peer. With ``--rounds N`` the peer and
parbleu are timed in alternation N times and the median per-round ratio is printed (a loaded
machine slows both about alike). The last column is the largest difference between
sacrebleu-mojo's score and parbleu's (which are SacreBLEU's): it promises 1e-9, but its
chrF++ differs.

sacrebleu-mojo needs Python 3.12 or later; parbleu's own environment may be older, so the
peer runs in a virtual environment of its own, ``.venv-peers`` beside this repository's
``.venv`` (made with the first ``python3.12``/``python3.13`` found, and ``pip install
sacrebleu-mojo`` from the package index), and is timed there in a child process. With
``--no-install`` or without such a Python, only parbleu and SacreBLEU are timed.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import parbleu
from common import REPO, WMT, en_de, median_time

PEER = "sacrebleu-mojo==0.2.4"
PEER_ENV = REPO / ".venv-peers"
PEER_PYTHON = PEER_ENV / "bin" / "python"

PEER_CODE = """
import json, sys, time, statistics
sys.path.insert(0, {bench!r})
from common import en_de
systems, refs = en_de()
ref = refs["A"]
import sacrebleu_mojo as m
if not m.native_available():
    raise SystemExit("sacrebleu-mojo: native kernel unavailable: " + str(m.backend_info()))
out = {{}}
for name, fn in (("chrF", lambda s: m.corpus_chrf(s, [ref])),
                 ("chrF++", lambda s: m.corpus_chrf(s, [ref], word_order=2)),
                 ("BLEU", lambda s: m.corpus_bleu(s, [ref]))):
    scores = [fn(s).score for s in systems.values()]
    times, cpu = [], []
    for _ in range({runs}):
        t0, c0 = time.perf_counter(), time.process_time()
        for s in systems.values():
            fn(s)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    out[name] = [statistics.median(times), scores, statistics.median(cpu)]
print(json.dumps(out))
"""


def peer_python(install: bool) -> Path | None:
    if PEER_PYTHON.exists():
        return PEER_PYTHON
    if not install:
        return None
    base = next((p for p in map(shutil.which, ("python3.13", "python3.12")) if p), None)
    if base is None:
        print("no Python 3.12+ found: sacrebleu-mojo cannot be installed", file=sys.stderr)
        return None
    try:
        subprocess.run([base, "-m", "venv", str(PEER_ENV)], check=True)
        subprocess.run([str(PEER_PYTHON), "-m", "pip", "install", "-q", PEER], check=True)
    except subprocess.CalledProcessError as e:
        print(f"installing {PEER} failed: {e}", file=sys.stderr)
        shutil.rmtree(PEER_ENV, ignore_errors=True)
        return None
    return PEER_PYTHON


def peer_times(python: Path, runs: int) -> dict[str, list]:
    code = PEER_CODE.format(bench=str(REPO / "benchmarks"), runs=runs)
    run = subprocess.run([str(python), "-c", code], capture_output=True, text=True, cwd=REPO)
    if run.returncode != 0:
        raise SystemExit(run.stderr)
    result: dict[str, list] = json.loads(run.stdout.splitlines()[-1])
    return result


def wall_and_cpu(fn: Callable[[], Any], runs: int) -> tuple[float, float]:
    """Median wall time and median process CPU time (all threads) of ``runs`` calls."""
    wall, cpu = [], []
    for _ in range(runs):
        c0 = time.process_time()
        wall.append(median_time(fn, 1))
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument(
        "--rounds", type=int, default=1, help="alternate the peer and parbleu this many times"
    )
    ap.add_argument("--no-install", action="store_true", help="do not create .venv-peers")
    args = ap.parse_args()
    if not WMT.is_dir():
        raise SystemExit(f"missing {WMT}")
    logging.getLogger("parbleu").setLevel(logging.ERROR)
    systems, refs = en_de()
    ref = refs["A"]
    ours = {
        "chrF": parbleu.CHRF(),
        "chrF++": parbleu.CHRF(word_order=2),
        "BLEU": parbleu.BLEU(),
    }
    python = peer_python(not args.no_install)
    print(f"load average before: {os.getloadavg()[0]:.2f}\n")

    # Timed in alternation (peer, then parbleu, per round), so that both see about the same
    # machine load; ratios are per round, then the median is taken.
    rows: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = {}
    worst: dict[str, float] = {}
    names = list(systems)
    hyps = [systems[n] for n in names]
    for _ in range(args.rounds):
        peer = peer_times(python, args.runs) if python else {}
        for name, metric in ours.items():
            scores = [metric.corpus_score(s, [ref]).score for s in hyps]
            # Each system one corpus_score call, as the peer is called.
            t = wall_and_cpu(lambda m=metric: [m.corpus_score(s, [ref]) for s in hyps], args.runs)
            # All systems in one call (references probed by every system while cached).
            many = [x.score for x in metric.corpus_scores(hyps, [ref])]
            if many != scores:
                raise SystemExit(f"{name}: corpus_scores differs from corpus_score")
            t_many = wall_and_cpu(lambda m=metric: m.corpus_scores(hyps, [ref]), args.runs)
            p = (peer[name][0], peer[name][2]) if name in peer else (float("nan"),) * 2
            rows.setdefault(name, []).append((p, t))
            rows.setdefault(f"{name}, 20 systems in one call", []).append((p, t_many))
            if name in peer:
                # parbleu's scores are SacreBLEU's (tests/parity); the peer promises 1e-9.
                worst[name] = max(abs(a - b) for a, b in zip(scores, peer[name][1]))

    print(
        f"### Corpus scores, 20 WMT21 en-de systems, ref A (median of {args.runs} runs, "
        f"{args.rounds} round(s))\n"
    )
    print("sacrebleu-mojo is called once per system in every row; parbleu once per system")
    print('(`corpus_score`), or once for all 20 (`corpus_scores`, rows "in one call").\n')
    print("CPU time: all of a process's threads (parbleu uses every core; the peer one).\n")
    print(
        "| metric | sacrebleu-mojo 0.2.4 | parbleu | speed-up | CPU-time speed-up "
        "| mojo's largest score difference |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name, pairs in rows.items():
        peer_s = statistics.median(p[0] for p, _ in pairs)
        t = statistics.median(x[0] for _, x in pairs)
        base = name.split(",")[0]
        if python:
            ratio = statistics.median(p[0] / x[0] for p, x in pairs)
            cpu = statistics.median(p[1] / x[1] for p, x in pairs)
            print(
                f"| {name} | {peer_s:.3f} s | {t:.4f} s | {ratio:,.1f}× | {cpu:,.1f}× "
                f"| {worst[base]:.2g} |"
            )
        else:
            print(f"| {name} | - | {t:.4f} s | - | - | - |")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
