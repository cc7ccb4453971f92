"""METEOR 1.5: parbleu's native backend against the started jar, same inputs, one run.

    python benchmarks/bench_meteor.py [--segments 4000] [--workers N]

Needs pycocoevalcap 1.2 and Java. Inputs: COCO-MINI captions leave-one-out, then WMT21
into-English system lines against their references, no line used twice (see ``inputs``). The
jar is started first (its start-up, loading the paraphrase table, is timed on its own) and then
timed on ``compute_score`` alone; the native backend's data loading is also timed on its own.

Both sides are checked equal before any timing is printed: every segment's score and the
corpus score, to the bit except the documented one-ulp difference of Java's ``Math.pow``
(docs/captioning.md), which may move a score by two ulps at most.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from pathlib import Path

from common import SHARED
from parbleu.metrics.caption import meteor as meteor_mod


def inputs(n: int) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """``n`` segments as pycocoevalcap's ``gts``/``res`` dicts, no source line used twice.

    COCO-MINI captions leave-one-out (val and train: each caption against the image's other
    four), then WMT21 into-English lines of each pair's first system against its references
    (both where there are two), pair after pair. Nothing is repeated to reach ``n``: a batch
    that repeats its lines would time the native side's once-per-distinct-line work
    (normalising, word lookups) too kindly.
    """
    gts: dict[int, list[str]] = {}
    res: dict[int, list[str]] = {}

    def add(hyp: str, refs: list[str]) -> None:
        if len(gts) < n:
            gts[len(gts)] = refs
            res[len(res)] = [hyp]

    for split in ("val2017", "train2017"):
        path = SHARED / "data/captions/coco-mini" / f"captions_{split}.json"
        caps: dict[int, list[str]] = {}
        for a in json.loads(path.read_text(encoding="utf-8"))["annotations"]:
            caps.setdefault(a["image_id"], []).append(" ".join(a["caption"].split()))
        for cs in caps.values():
            for k, c in enumerate(cs):
                add(c, cs[:k] + cs[k + 1 :])
    wmt = SHARED / "data" / "wmt21"
    for pair in ("cs-en", "de-en", "ru-en", "is-en", "ja-en", "zh-en", "ha-en"):
        if len(gts) == n:
            break
        refs = [
            p.read_text(encoding="utf-8").split("\n")
            for p in sorted((wmt / "references").glob(f"newstest2021.{pair}.ref.*.en"))
        ]
        first = sorted((wmt / "system-outputs").glob(f"newstest2021.{pair}.hyp.*.en"))[0]
        for k, line in enumerate(first.read_text(encoding="utf-8").split("\n")):
            rs = [r[k] for r in refs if k < len(r)]
            if line.strip() and rs and all(r.strip() for r in rs):
                add(line, rs)
    if len(gts) < n:
        raise SystemExit(f"only {len(gts)} segments without repeating a line; ask for fewer")
    return gts, res


def _jar_cpu(jar: meteor_mod.Meteor) -> float:
    """CPU seconds (user + system) the jar process has used so far, from /proc."""
    fields = Path(f"/proc/{jar.meteor_p.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--segments", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3, help="alternating timed runs of each side")
    args = ap.parse_args()
    for name in ("segments", "rounds"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, not {getattr(args, name)}")
    gts, res = inputs(args.segments)

    t = time.perf_counter()
    jar = meteor_mod.Meteor(backend="jar")
    jar.compute_score({0: ["a"]}, {0: ["a"]})
    jar_start = time.perf_counter() - t
    t, c = time.perf_counter(), time.process_time()
    native = meteor_mod.Meteor(backend="native", workers=args.workers)
    native_load, native_load_cpu = time.perf_counter() - t, time.process_time() - c

    jar_wall: list[float] = []
    jar_cpu: list[float] = []
    nat_wall: list[float] = []
    nat_cpu: list[float] = []
    for _ in range(args.rounds):  # alternate, so load changes hit both sides alike
        t, c = time.perf_counter(), _jar_cpu(jar)
        j_corpus, j_seg = jar.compute_score(gts, res)
        jar_wall.append(time.perf_counter() - t)
        jar_cpu.append(_jar_cpu(jar) - c)
        t, c = time.perf_counter(), time.process_time()
        n_corpus, n_seg = native.compute_score(gts, res)
        nat_wall.append(time.perf_counter() - t)
        nat_cpu.append(time.process_time() - c)

    same = sum(a == b for a, b in zip(j_seg, n_seg))
    close = all(
        abs(a - b) <= 2 * math.ulp(a) for a, b in zip([*j_seg, j_corpus], [*n_seg, n_corpus])
    )
    if not close:
        raise SystemExit("native and jar differ beyond the documented ulp: no timing printed")
    print(f"segments: {len(gts)}; load average {os.getloadavg()[0]:.2f}")
    print(f"equal segment scores: {same} of {len(gts)} ({same / len(gts):.1%})")
    print(f"corpus: jar {j_corpus!r}, native {n_corpus!r}")
    print(
        f"start-up: jar {jar_start:.1f} s wall, native data load {native_load:.1f} s wall "
        f"({native_load_cpu:.1f} s CPU)"
    )
    jw, jc, nw, nc = min(jar_wall), min(jar_cpu), min(nat_wall), min(nat_cpu)
    print(
        f"compute_score (best of {args.rounds}): jar {jw:.3f} s wall {jc:.3f} s CPU (its process)"
    )
    print(f"compute_score (best of {args.rounds}): native {nw:.3f} s wall {nc:.3f} s CPU")
    print(f"ratio (started jar / native): {jw / nw:.1f}x wall, {jc / nc:.1f}x CPU")
    jar.close()


if __name__ == "__main__":
    main()
