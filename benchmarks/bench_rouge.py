"""ROUGE: parbleu against rouge-score 0.1.2 and rouge-score-rs in one process, same inputs.

    python benchmarks/bench_rouge.py [--runs 5] [--workers N] [--short 1000] [--long 100]

rouge1/rouge2/rougeL/rougeLsum with the stemmer on two workloads made from the WMT21 de-en
English text in tests/data (a system output against reference A, newline-separated
sentences): ``--short`` summaries of 3-6 consecutive sentences and ``--long`` documents of 40.
For each: rouge-score's ``score`` loop (timed once: it is the slow reference), rouge-score-rs's
``score`` loop and ``score_batch``, parbleu's drop-in ``RougeScorer.score`` loop and
``engine.score_batch``. Every number of the three is checked equal first. Then ``--runs``
interleaved rounds (one run of each implementation per round); the table gives the minimum
wall time and the minimum CPU time (``time.process_time``, all threads of the process) of the
rounds, and ratios of the minimum wall times.

``--workers 1`` is the one-thread table: parbleu's batches get ``workers=1`` and
rouge-score-rs's Rayon pool ``RAYON_NUM_THREADS=1`` (set before it is imported); without it
both batches use every core. rouge-score-rs is optional: without it its rows are skipped with
a message.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import random
import time
from collections.abc import Callable
from importlib import metadata
from typing import Any

from common import SHARED
from parbleu.flavors.rouge_score import engine
from parbleu.flavors.rouge_score import rouge_scorer as ours

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def documents(n: int, low: int, high: int) -> tuple[list[str], list[str]]:
    """``n`` (prediction, reference) texts of ``low``-``high`` consecutive sentences."""
    wmt = SHARED / "data" / "wmt21"
    ref = (wmt / "references/newstest2021.de-en.ref.A.en").read_text(encoding="utf-8")
    hyps = sorted(wmt.glob("system-outputs/newstest2021.de-en.hyp.*.en"))
    refs = ref.split("\n")[:-1]
    systems = [h.read_text(encoding="utf-8").split("\n")[:-1] for h in hyps]
    rng = random.Random(27)
    p, r = [], []
    for _ in range(n):
        k = rng.randint(low, high)
        i = rng.randrange(0, len(refs) - k)
        s = rng.choice(systems)
        p.append("\n".join(s[i : i + k]))
        r.append("\n".join(refs[i : i + k]))
    return p, r


def timed(fn: Callable[[], Any]) -> tuple[float, float]:
    """Wall and CPU seconds of one call, the garbage collector paused (as ``timeit``)."""
    gc.collect()
    gc.disable()
    try:
        w, c = time.perf_counter(), time.process_time()
        fn()
        return time.perf_counter() - w, time.process_time() - c
    finally:
        gc.enable()


def as_tuples(rows: list[Any]) -> list[dict[str, tuple[float, ...]]]:
    return [{t: tuple(row[t]) for t in TYPES} for row in rows]


def workload(name: str, preds: list[str], refs: list[str], args: argparse.Namespace) -> None:
    """Check, time and print one workload."""
    from rouge_score import rouge_scorer as theirs

    rs: Any = None
    try:
        import rouge_score_rs

        rs = rouge_score_rs.RougeScorer(TYPES, use_stemmer=True)
    except ImportError:
        print("rouge-score-rs is not installed (pip install rouge-score-rs): its rows skipped\n")
    scorer = theirs.RougeScorer(TYPES, use_stemmer=True)
    drop_in = ours.RougeScorer(TYPES, use_stemmer=True)
    nested = [[r] for r in refs]
    pairs = list(zip(refs, preds, strict=True))

    expected: list[Any] = []
    t_ref, _ = timed(lambda: expected.extend(scorer.score(r, p) for r, p in pairs))
    want = as_tuples(expected)
    candidates: dict[str, Callable[[], list[Any]]] = {
        "parbleu drop-in `RougeScorer.score` loop": lambda: [drop_in.score(r, p) for r, p in pairs],
        "parbleu `engine.score_batch`": lambda: engine.score_batch(
            preds, nested, TYPES, use_stemmer=True, workers=args.workers
        ).score_dicts(),
    }
    if rs is not None:
        candidates = {
            "rouge-score-rs `score` loop": lambda: [rs.score(r, p) for r, p in pairs],
            "rouge-score-rs `score_batch`": lambda: rs.score_batch(refs, preds),
            **candidates,
        }
    for label, fn in candidates.items():
        assert as_tuples(fn()) == want, f"{label}: a number differs from rouge-score's"
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in candidates}
    for _ in range(args.runs):
        for label, fn in candidates.items():
            times[label].append(timed(fn))
    threads = "one thread" if args.workers == 1 else "all cores"
    print(f"### {name}: {len(preds)} pairs, {TYPES}, use_stemmer=True, {threads}")
    print("all numbers equal to rouge-score's\n")
    print("| implementation | wall s (min) | CPU s (min) | rouge-score / this (wall) |")
    print("|---|---:|---:|---:|")
    print(f"| rouge-score 0.1.2 `score` loop (once) | {t_ref:.3f} | - | 1.0x |")
    for label, ts in times.items():
        wall, cpu = min(t[0] for t in ts), min(t[1] for t in ts)
        print(f"| {label} | {wall:.4f} | {cpu:.4f} | {t_ref / wall:.0f}x |")
    if rs is not None:
        for k, what in ((0, "wall"), (1, "CPU")):
            best = {label: min(t[k] for t in ts) for label, ts in times.items()}
            loop = (
                best["rouge-score-rs `score` loop"]
                / best["parbleu drop-in `RougeScorer.score` loop"]
            )
            batch = best["rouge-score-rs `score_batch`"] / best["parbleu `engine.score_batch`"]
            print(
                f"\nparbleu / rouge-score-rs ({what}): loop {loop:.2f}x, batch {batch:.2f}x", end=""
            )
        print("\n")


def main() -> None:
    """Run the benchmark and print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--short", type=int, default=1000, help="summaries of 3-6 sentences")
    ap.add_argument("--long", type=int, default=100, help="documents of 40 sentences")
    args = ap.parse_args()
    if args.workers == 1:
        os.environ["RAYON_NUM_THREADS"] = "1"
    versions = ["rouge-score", "rouge-score-rs", "parbleu"]
    found = []
    for v in versions:
        with contextlib.suppress(metadata.PackageNotFoundError):
            found.append(f"{v} {metadata.version(v)}")
    print(", ".join(found), f"; load average {os.getloadavg()[0]:.2f}\n")
    if args.short:
        workload("summaries of 3-6 sentences", *documents(args.short, 3, 6), args)
    if args.long:
        workload("documents of 40 sentences", *documents(args.long, 40, 40), args)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
