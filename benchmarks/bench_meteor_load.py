"""Loading the native METEOR's data, and the COCO suite end to end with it (issue 36).

    python benchmarks/bench_meteor_load.py [--runs 3] [--end-to-end] [--images 5000]

(a) Whole processes, run alternately ``--runs`` times each: ``load_scorer()`` (the data of the
    installed pycocoevalcap's METEOR: the jar's word lists and the 61.8 MB paraphrase table)
    with the compiled-table cache off (the table parsed, as before the cache), cold (an empty
    cache folder: parsed, then the compiled form written) and warm (read from the cache).
    Wall and CPU time (user + system, from ``getrusage`` of the finished child) of the whole
    process, and the wall time of the load alone as the child measures it.
(b) ``--end-to-end``: the whole suite as users run it, from raw captions, in a fresh process
    per run: pycocoevalcap's tokenizer and four scorers (its METEOR jar started as
    ``COCOEvalCap`` starts it) against ``coco.evaluate`` with the native METEOR (warm cache).
    BLEU, ROUGE-L and CIDEr-D must be equal to the bit before anything is timed; METEOR is
    printed on both sides, since the native aligner is not yet the jar's on every segment
    (docs/captioning.md).
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

LOAD = """
import time
t0 = time.perf_counter()
from parbleu.metrics.caption._meteor_native import load_scorer
load_scorer()
print(time.perf_counter() - t0)
"""

SUITE = """
import contextlib, io, json, sys
sys.path.insert(0, {bench!r})
from bench_coco import evaluation_set, raw_captions, their_suite
gts, res = evaluation_set(raw_captions(), {images})
metrics = ["Bleu", "METEOR", "ROUGE_L", "CIDEr"]
with contextlib.redirect_stdout(io.StringIO()):
    if {theirs}:
        out = their_suite(gts, res, metrics)
    else:
        import functools
        from parbleu.flavors import coco
        from parbleu.metrics.caption import meteor
        meteor.Meteor = functools.partial(meteor.Meteor, backend="native")
        out = coco.evaluate(gts, res, metrics=metrics)[0]
print(json.dumps({{k: float(v) for k, v in out.items()}}))
"""


def run(code: str, env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of a fresh ``python -c code``, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, out.strip().splitlines()[-1]


def load_times(runs: int) -> None:
    """(a): cache off, cold and warm, alternately."""
    rows: dict[str, list[tuple[float, float, float]]] = {"off": [], "cold": [], "warm": []}
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as d:
        for k in range(runs):
            folder = Path(d) / f"cache{k}"
            for name, value in [("off", "off"), ("cold", str(folder)), ("warm", str(folder))]:
                env = {**os.environ, "PARBLEU_METEOR_CACHE": value}
                wall, cpu, inner = run(LOAD, env)
                rows[name].append((wall, cpu, float(inner)))
        size = sum(p.stat().st_size for p in (Path(d) / "cache0").iterdir())
    load.append(os.getloadavg()[0])
    print(
        f"load_scorer() in a fresh process, best of {runs} (load average {load[0]:.1f} "
        f"before, {load[1]:.1f} after); compiled table {size / 1e6:.1f} MB"
    )
    print("| cache | process wall s | process CPU s | load_scorer wall s |")
    print("|---|---|---|---|")
    for name, r in rows.items():
        best = [min(x[i] for x in r) for i in range(3)]
        print(f"| {name} | {best[0]:.3f} | {best[1]:.3f} | {best[2]:.3f} |")
    off, warm = min(x[1] for x in rows["off"]), min(x[1] for x in rows["warm"])
    print(f"warm against off: {off / warm:.1f}x less CPU")


def end_to_end(runs: int, images: int) -> None:
    """(b): pycocoevalcap's suite against parbleu's with the native METEOR, fresh processes."""
    bench = str(Path(__file__).resolve().parent)
    got: dict[str, Any] = {}
    times: dict[str, list[tuple[float, float]]] = {"theirs": [], "ours": []}
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as d:
        env = {**os.environ, "PARBLEU_METEOR_CACHE": d}
        run(LOAD, env)  # the cache written, as after a user's first run
        for _ in range(runs):
            for side in times:
                code = SUITE.format(bench=bench, images=images, theirs=side == "theirs")
                wall, cpu, out = run(code, env)
                times[side].append((wall, cpu))
                got[side] = json.loads(out)
    load.append(os.getloadavg()[0])
    theirs, ours = got["theirs"], got["ours"]
    assert theirs.keys() == ours.keys()
    for k in theirs:
        if k != "METEOR":
            assert theirs[k] == ours[k], (k, theirs[k], ours[k])
    print(
        f"end to end from raw captions, {images} images, fresh process each, best of {runs} "
        f"(load average {load[0]:.1f} before, {load[1]:.1f} after): BLEU-1..4, ROUGE-L, "
        f"CIDEr-D equal; METEOR jar {theirs['METEOR']!r}, native {ours['METEOR']!r}"
    )
    tw, ow = (min(w for w, _ in times[s]) for s in ("theirs", "ours"))
    tc, oc = (min(c for _, c in times[s]) for s in ("theirs", "ours"))
    print(f"  wall: pycocoevalcap {tw:.3f} s, parbleu {ow:.3f} s ({tw / ow:.1f}x)")
    print(f"  CPU (user+sys): pycocoevalcap {tc:.3f} s, parbleu {oc:.3f} s ({tc / oc:.1f}x)")


def main() -> None:
    """Run the benchmark and print tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--end-to-end", action="store_true", help="also the whole COCO suite")
    ap.add_argument("--images", type=int, default=5_000)
    args = ap.parse_args()
    load_times(args.runs)
    if args.end_to_end:
        end_to_end(args.runs, args.images)


if __name__ == "__main__":
    main()
