"""Native METEOR: the Python-side cost of ``compute_score`` beyond the core's statistics.

    python benchmarks/bench_meteor_overhead.py [--segments 4000] [--rounds 21]

Three things are timed on the same inputs (those of bench_meteor.py), alternating:

* ``compute_score`` (one ``MeteorScorer.evaluate`` call after ``captions()``);
* the former composition, still the path taken when ``evaluate`` declines a batch: the Python
  checks, the hypotheses' ``replace``, ``MeteorScorer.stats``, one ``score`` call per image and
  ``corpus_stats``;
* ``MeteorScorer.stats`` alone on the prepared hypotheses (the core's work both share);

and two parts of the first: ``captions()`` (shared with the other COCO metrics) and
``evaluate`` declining a batch whose last caption it refuses (the strings' conversion, which
``stats`` does too, and the checks).

Each side's overhead is its CPU time less that of the ``stats`` run beside it (median over
rounds; ``stats`` also builds its 23 floats per image as a Python list, which ``evaluate`` does
not). Both sides are checked equal first. Single-threaded (``--workers 1``) by default, so CPU
time is the work done.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from statistics import median
from typing import Any

from bench_meteor import inputs
from parbleu.metrics.caption import meteor as meteor_mod
from parbleu.metrics.caption.checks import captions


def old_compute_score(m: meteor_mod.Meteor, gts: Any, res: Any) -> tuple[float, list[float]]:
    """``compute_score`` as it was before ``evaluate``: checks and scoring in Python."""
    ids, hyps, refs = captions(gts, res, "METEOR")
    meteor_mod._check_lines(ids, hyps, refs)
    meteor_mod._check_surrogates(ids, hyps, refs)
    return m._native(ids, hyps, refs)


def cpu(f: Callable[[], object]) -> tuple[float, float]:
    """Run ``f``: (CPU seconds, wall seconds)."""
    t, c = time.perf_counter(), time.process_time()
    f()
    return time.process_time() - c, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--segments", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=21)
    args = ap.parse_args()
    gts, res = inputs(args.segments)
    m = meteor_mod.Meteor(backend="native", workers=args.workers)
    if m.compute_score(gts, res) != old_compute_score(m, gts, res):
        raise SystemExit("evaluate and the former composition differ: no timing printed")
    _, hyps, refs = captions(gts, res, "METEOR")
    tests = [h.replace("|||", "").replace("  ", " ") for h in hyps]
    # The last reference refused: evaluate converts and checks every caption, scores none.
    declined = [*refs[:-1], [*refs[-1], "a\nb"]]
    runs: dict[str, Callable[[], object]] = {
        "compute_score": lambda: m.compute_score(gts, res),
        "former": lambda: old_compute_score(m, gts, res),
        "stats": lambda: m.native.stats(tests, refs, m.workers),
        "captions()": lambda: captions(gts, res, "METEOR"),
        "checks only": lambda: m.native.evaluate(hyps, declined, meteor_mod.MAX_CHARS, 1),
    }
    took: dict[str, list[float]] = {k: [] for k in runs}
    load = os.getloadavg()[0]
    for _ in range(args.rounds):  # alternate, so load changes hit every side alike
        for k, f in runs.items():
            took[k].append(cpu(f)[0])
    load = max(load, os.getloadavg()[0])
    print(f"segments: {len(gts)}; workers {m.workers}; load average up to {load:.2f}")
    for k, v in took.items():
        print(f"{k:>14}: {min(v) * 1e3:7.1f} ms CPU best, {median(v) * 1e3:7.1f} median")
    # Each round's difference to the stats run next to it: steadier than differences of bests.
    old = median(a - b for a, b in zip(took["former"], took["stats"]))
    new = median(a - b for a, b in zip(took["compute_score"], took["stats"]))
    print(f"CPU beyond stats, median of {args.rounds} rounds: former {old * 1e3:.1f} ms, ", end="")
    print(f"now {new * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
