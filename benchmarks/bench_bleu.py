"""BLEU: parbleu against SacreBLEU 2.6 in one process, same inputs (issue 2's workloads).

    python benchmarks/bench_bleu.py [--runs 5] [--big 1000000] [--quick]

(a) corpus BLEU of each of the 20 WMT21 en-de systems against reference A;
(b) the same against references A, C and D;
(c) sentence BLEU of those 20,040 segments: SacreBLEU's ``sentence_score`` loop, parbleu's loop,
    and parbleu's batch ``sentence_scores``;
(d) one corpus of ``--big`` segments made by repeating the en-de systems: time and peak memory
    (each tool in a fresh process);
and ``import parbleu`` time (``python -X importtime``).
Prints a Markdown table of medians and ratios.
"""

from __future__ import annotations

import argparse
import logging
import re
import subprocess
import sys

import parbleu
from common import REPO, Table, en_de, median_time

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
logging.getLogger("parbleu").setLevel(logging.ERROR)


def import_time_ms() -> float:
    best = float("inf")
    for _ in range(5):
        err = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import parbleu"],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        ).stderr
        us = max(int(m.group(1)) for m in re.finditer(r"\|\s*(\d+) \| +parbleu$", err, re.M))
        best = min(best, us / 1000)
    return best


BIG_CODE = """
import sys; sys.path.insert(0, 'benchmarks')
from common import en_de
systems, refs = en_de()
hyps, ref = [], []
while len(hyps) < {n}:
    for s in systems.values():
        hyps += s; ref += refs['A']
hyps, ref = hyps[:{n}], ref[:{n}]
import time, {mod} as m
t0 = time.perf_counter(); s = m.corpus_bleu(hyps, [ref]); dt = time.perf_counter() - t0
import resource
print(round(s.score, 6), dt, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--big", type=int, default=1_000_000)
    ap.add_argument("--quick", action="store_true", help="1 run, 100k-segment big corpus")
    args = ap.parse_args()
    runs = 1 if args.quick else args.runs
    big = 100_000 if args.quick else args.big

    import sacrebleu

    systems, refs = en_de()
    t = Table(f"BLEU, WMT21 en-de, {len(systems)} systems (median of {runs} runs)")

    for label, streams in (
        ("(a) corpus BLEU, 20 systems, 1 ref", [refs["A"]]),
        ("(b) corpus BLEU, 20 systems, 3 refs", [refs[x] for x in "ACD"]),
    ):

        def sb(streams: list[list[str]] = streams) -> list[float]:
            return [sacrebleu.BLEU().corpus_score(h, streams).score for h in systems.values()]

        def pb(streams: list[list[str]] = streams) -> list[float]:
            return [parbleu.BLEU().corpus_score(h, streams).score for h in systems.values()]

        assert sb() == pb(), "scores differ"
        # Time parbleu before SacreBLEU's timing runs: those leave a large heap (its lru_caches).
        ours = median_time(pb, runs)
        t.add(label, median_time(sb, runs), ours)
        cached = parbleu.BLEU(references=streams)
        t.add(
            label + ", refs cached",
            None,
            median_time(
                lambda cached=cached: [cached.corpus_score(h, None) for h in systems.values()],
                runs,
            ),
        )

    hyps = [h for s in systems.values() for h in s]
    ref_a = refs["A"] * len(systems)
    sbm = sacrebleu.BLEU(effective_order=True)
    pbm = parbleu.BLEU(effective_order=True)
    sb_loop = [sbm.sentence_score(h, [r]).score for h, r in zip(hyps, ref_a)]
    assert pbm.sentence_scores(hyps, [ref_a]).tolist() == sb_loop, "sentence scores differ"
    sb_t = median_time(
        lambda: [sbm.sentence_score(h, [r]) for h, r in zip(hyps, ref_a)], max(1, runs // 2)
    )
    t.add(
        f"(c) sentence BLEU, {len(hyps):,} segments, loop",
        sb_t,
        median_time(lambda: [pbm.sentence_score(h, [r]) for h, r in zip(hyps, ref_a)], runs),
    )
    t.add(
        f"(c) sentence BLEU, {len(hyps):,} segments, batch",
        sb_t,
        median_time(lambda: pbm.sentence_scores(hyps, [ref_a]), runs),
    )

    out = {}
    for mod in ("sacrebleu", "parbleu"):
        code = BIG_CODE.format(n=big, mod=mod)
        res = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
        ).stdout.split()
        out[mod] = (float(res[0]), float(res[1]), float(res[2]))
    assert out["sacrebleu"][0] == out["parbleu"][0], "big-corpus scores differ"
    t.add(f"(d) corpus BLEU, {big:,} segments (1 run)", out["sacrebleu"][1], out["parbleu"][1])
    t.add_raw(
        f"(d) peak memory, {big:,} segments",
        f"{out['sacrebleu'][2]:.0f} MiB",
        f"{out['parbleu'][2]:.0f} MiB",
        f"{out['parbleu'][2] / out['sacrebleu'][2]:.2f}× of sacrebleu",
    )
    t.add_raw("`import parbleu` (best of 5)", "-", f"{import_time_ms():.1f} ms", "-")
    print(t.markdown())


if __name__ == "__main__":
    main()
