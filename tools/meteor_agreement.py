"""Measure the native METEOR's agreement with the jar on the whole golden set, by category.

    python tools/meteor_agreement.py [--every N] [--dump FILE] [--workers N]

Reads ``tests/data/meteor/golden.json.xz`` (the jar's statistics, see gen_meteor_golden.py)
and the packed test data, computes the native statistics of every segment (or every N-th) and
prints how many are equal, per source (COCO, WMT, crafted) and, for those that differ, per
first differing part: the lengths and function words (normalisation), another reference kept
(the jar's reference lengths are those of another of the segment's references), the paraphrase
module's columns, the exact/stem/synonym columns, or the chunks alone. ``--dump`` writes the
differing segments (text, native and jar statistics) as JSON lines, for probing the jar.
"""

from __future__ import annotations

import argparse
import json
import lzma
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tools"))
GOLDEN = REPO / "tests" / "data" / "meteor" / "golden.json.xz"
STATS = 23


def category(mine: list[int], jar: list[int], ref_lengths: list[tuple[int, int]]) -> str:
    """The first part of the statistics that differs.

    ``ref_lengths`` holds each reference's (words, function words) as normalised here: where the
    jar's reference lengths are another reference's, the jar kept another reference (its
    alignment scored higher), which is an alignment difference, not a normalisation one.
    """
    if mine[0] != jar[0] or mine[2] != jar[2] or (jar[1], jar[3]) not in ref_lengths:
        return "normalisation"
    if mine[1] != jar[1] or mine[3] != jar[3]:
        return "other reference kept"
    if mine[16:20] != jar[16:20]:
        return "paraphrase"
    if mine[4:16] != jar[4:16]:
        return "exact/stem/synonym"
    return "chunks"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--dump", type=Path)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    import gen_meteor_golden
    import testdata
    from parbleu.metrics.caption._meteor_native import load_scorer

    g = json.loads(lzma.decompress(GOLDEN.read_bytes()))
    segs = list(gen_meteor_golden.segments(testdata.root()))[: gen_meteor_golden.LIMIT]
    t0 = time.process_time()
    scorer = load_scorer(paraphrase=True)
    t1 = time.process_time()
    pick = [k for k in range(0, len(segs), args.every) if g["stats"][k] is not None]
    tests = [segs[k][1].replace("|||", "").replace("  ", " ") for k in pick]
    flat = scorer.stats(tests, [segs[k][2] for k in pick], args.workers)
    t2 = time.process_time()
    total: Counter[str] = Counter()
    same: Counter[str] = Counter()
    cats: Counter[str] = Counter()
    out = args.dump.open("w") if args.dump else None
    for n, k in enumerate(pick):
        mine = [int(x) for x in flat[n * STATS : (n + 1) * STATS]]
        jar = g["stats"][k]
        src = segs[k][0].split(":")[0]
        total[src] += 1
        if mine == jar:
            same[src] += 1
            continue
        one = [
            scorer.stats([tests[n]], [[r]], 1) for r in segs[k][2]
        ]  # each reference alone: its normalised lengths
        c = category(mine, jar, [(int(x[1]), int(x[3])) for x in one])
        cats[c] += 1
        if out:
            rec = {"k": k, "cat": c, "hyp": tests[n], "refs": segs[k][2], "mine": mine, "jar": jar}
            out.write(json.dumps(rec) + "\n")
    n_all, s_all = sum(total.values()), sum(same.values())
    print(f"equal: {s_all} of {n_all} ({s_all / n_all:.2%})")
    for src in sorted(total):
        print(f"  {src}: {same[src]} of {total[src]} ({same[src] / total[src]:.2%})")
    print("differing, by first differing part:")
    for c, v in cats.most_common():
        print(f"  {c}: {v}")
    print(f"cpu: data load {t1 - t0:.1f} s, stats {t2 - t1:.1f} s")


if __name__ == "__main__":
    main()
