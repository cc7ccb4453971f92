"""Meta-evaluation: the WMT21 table of MTME's statistics, parbleu against MTME itself.

    python benchmarks/bench_meta.py [--mtme PATH] [--k 1000] [--mtme-k 10] [--rounds 2]
        [--pairs is-en ...]

The table (golden/mtme inputs, 7 into-English pairs, metrics BLEU/chrF/TER and their
sentence-level versions): system level Pearson, Spearman, Kendall-b and pairwise accuracy
per metric, PERM-BOTH (Pearson) for every metric pair; segment level (is/ja/ru-en) Pearson,
KendallVariants-b by item and tie-calibrated acc23 by item per metric, PERM-BOTH with
KendallVariants-b (item) and KendallWithTiesOpt-acc23 (item) for every metric pair.

The same driver runs with ``parbleu.flavors.mtme.stats`` and with MTME's ``stats`` (a
checkout of google-research/mt-metrics-eval at ``--mtme``, default /tmp/mtme; skipped with a
message when absent). MTME's PERM-BOTH at k=1000 takes hours (one tie-calibrated test on
ja-en: about 36 minutes), so MTME runs its permutation tests with ``--mtme-k`` draws and its
time is scaled linearly to ``--k`` (delta and each draw cost the same: ``(k + 1) / (mtme_k + 1)``);
everything else runs in full. Both sides run in one process, alternating (``--rounds``), and
each part is timed in wall seconds and in CPU seconds (user + sys of every thread,
``time.process_time``); the load average is printed at the start and the end. The table takes
the best round of each side.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import os
import sys
import time
import types
from pathlib import Path
from typing import Any

from common import SHARED

PAIRS = ("cs-en", "de-en", "ha-en", "is-en", "ja-en", "ru-en", "zh-en")
SEG = ("is-en", "ja-en", "ru-en")


def load(pair: str) -> dict[str, Any]:
    return json.loads((SHARED / "golden" / "mtme" / f"wmt21.{pair}.json").read_text())


class Clock:
    """Wall and CPU seconds (``time.process_time``: every thread of the process, user + sys)."""

    def __init__(self) -> None:
        self.wall = 0.0
        self.cpu = 0.0

    def __enter__(self) -> Clock:
        self._w, self._c = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall += time.perf_counter() - self._w
        self.cpu += time.process_time() - self._c


def table(stats: types.ModuleType, k: int, pairs: list[str]) -> tuple[Clock, Clock]:
    """(time without permutation tests, time of permutation tests)."""
    import numpy as np
    import scipy.stats

    base, perm = Clock(), Clock()
    np.random.seed(1234)
    for pair in pairs:
        inp = load(pair)["inputs"]
        ns = len(inp["systems"])
        levels = [
            (
                "sys",
                inp["gold"]["sys"]["wmt-z"],
                {m: v["scores"] for m, v in inp["metrics"]["sys"].items()},
            )
        ]
        if pair in SEG:
            flat = lambda mat: [x for row in mat for x in row]  # noqa: E731
            levels.append(
                (
                    "seg",
                    flat(inp["gold"]["seg"]["wmt-z"]),
                    {m: flat(v["scores"]) for m, v in inp["metrics"]["seg"].items()},
                )
            )
        for level, gold, metrics in levels:
            corrs = {m: stats.Correlation(ns, gold, s) for m, s in metrics.items()}
            with base:
                _statistics(stats, corrs, level, ns)
            tests = (
                [(scipy.stats.pearsonr, "none", {})]
                if level == "sys"
                else [
                    (stats.KendallVariants, "item", {"variant": "b"}),
                    (stats.KendallWithTiesOpt, "item", {"variant": "acc23", "sample_rate": 1.0}),
                ]
            )
            with perm:
                for fn, avg, kw in tests:
                    for a, b in itertools.combinations(corrs, 2):
                        stats.PermutationSigDiff(
                            corrs[a],
                            corrs[b],
                            fn,
                            avg,
                            k,
                            stats.PermutationSigDiffParams(block_size=k),
                            **kw,
                        )
    return base, perm


def _statistics(stats: types.ModuleType, corrs: dict[str, Any], level: str, ns: int) -> None:
    for c in corrs.values():
        if level == "sys":
            c.Pearson()
            c.Spearman()
            c.Kendall()
            stats.Agreement(c.gold_scores, c.metric_scores)
        else:
            c.Pearson("none")
            c.KendallVariants("item", "b")
            stats.KendallWithTiesOpt(c.gold_scores, c.metric_scores, "acc23", ns, "item", 1.0)


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--mtme", default="/tmp/mtme", help="checkout of mt-metrics-eval")
    ap.add_argument("--k", type=int, default=1000)
    ap.add_argument("--mtme-k", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2, help="alternating rounds (parbleu, MTME)")
    ap.add_argument("--pairs", nargs="*", default=list(PAIRS))
    args = ap.parse_args()
    from parbleu.flavors.mtme import stats as ours

    theirs = None
    if (Path(args.mtme) / "mt_metrics_eval" / "stats.py").exists():
        sys.path.insert(0, args.mtme)
        theirs = importlib.import_module("mt_metrics_eval.stats")
    else:
        print(
            f"MTME not found at {args.mtme}: MTME side skipped "
            "(fetch google-research/mt-metrics-eval)"
        )
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    best: dict[str, tuple[Clock, Clock]] = {}
    for r in range(args.rounds):
        # Alternate the two sides so that a change of load hits both.
        ours.set_random("parbleu", 1234)
        b, p = table(ours, args.k, args.pairs)
        print(
            f"round {r + 1} parbleu k={args.k}: statistics {b.wall:.2f} s wall {b.cpu:.2f} s CPU, "
            f"PERM-BOTH {p.wall:.2f} s wall {p.cpu:.2f} s CPU"
        )
        if "parbleu" not in best or b.cpu + p.cpu < sum(c.cpu for c in best["parbleu"]):
            best["parbleu"] = (b, p)
        if theirs is None:
            continue
        mb, mp = table(theirs, args.mtme_k, args.pairs)
        print(
            f"round {r + 1} MTME k={args.mtme_k}: statistics {mb.wall:.2f} s wall "
            f"{mb.cpu:.2f} s CPU, PERM-BOTH {mp.wall:.2f} s wall {mp.cpu:.2f} s CPU"
        )
        if "mtme" not in best or mb.cpu + mp.cpu < sum(c.cpu for c in best["mtme"]):
            best["mtme"] = (mb, mp)
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if theirs is None:
        return 0
    b, p = best["parbleu"]
    mb, mp = best["mtme"]
    # Each test computes delta (one draw's work) then k draws: scale the (k + 1) units.
    scale = (args.k + 1) / (args.mtme_k + 1)
    print(f"best of {args.rounds} rounds each; MTME's PERM-BOTH scaled from k={args.mtme_k}")
    print("| part | clock | MTME s | parbleu s | ratio |\n|---|---|---|---|---|")
    for clock in ("cpu", "wall"):
        m_b, m_p = getattr(mb, clock), getattr(mp, clock) * scale
        o_b, o_p = getattr(b, clock), getattr(p, clock)
        print(f"| statistics | {clock} | {m_b:.2f} | {o_b:.3f} | {m_b / o_b:.1f}x |")
        print(f"| PERM-BOTH k={args.k} | {clock} | {m_p:.1f} | {o_p:.2f} | {m_p / o_p:.1f}x |")
        print(
            f"| whole table | {clock} | {m_b + m_p:.1f} | {o_b + o_p:.2f} "
            f"| {(m_b + m_p) / (o_b + o_p):.1f}x |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
