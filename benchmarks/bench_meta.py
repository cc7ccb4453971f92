"""Meta-evaluation: the WMT21 table of MTME's statistics, parbleu against MTME itself.

    python benchmarks/bench_meta.py [--mtme PATH] [--k 1000] [--mtme-k 10] [--pairs is-en ...]

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
everything else runs in full.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
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


def table(stats: types.ModuleType, k: int, pairs: list[str]) -> tuple[float, float]:
    """(seconds without permutation tests, seconds of permutation tests)."""
    import numpy as np
    import scipy.stats

    base = perm = 0.0
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
            t = time.perf_counter()
            for c in corrs.values():
                if level == "sys":
                    c.Pearson()
                    c.Spearman()
                    c.Kendall()
                    stats.Agreement(c.gold_scores, c.metric_scores)
                else:
                    c.Pearson("none")
                    c.KendallVariants("item", "b")
                    stats.KendallWithTiesOpt(
                        c.gold_scores, c.metric_scores, "acc23", ns, "item", 1.0
                    )
            base += time.perf_counter() - t
            tests = (
                [(scipy.stats.pearsonr, "none", {})]
                if level == "sys"
                else [
                    (stats.KendallVariants, "item", {"variant": "b"}),
                    (stats.KendallWithTiesOpt, "item", {"variant": "acc23", "sample_rate": 1.0}),
                ]
            )
            t = time.perf_counter()
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
            perm += time.perf_counter() - t
    return base, perm


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--mtme", default="/tmp/mtme", help="checkout of mt-metrics-eval")
    ap.add_argument("--k", type=int, default=1000)
    ap.add_argument("--mtme-k", type=int, default=10)
    ap.add_argument("--pairs", nargs="*", default=list(PAIRS))
    args = ap.parse_args()
    from parbleu.flavors.mtme import stats as ours

    ours.set_random("parbleu", 1234)
    b, p = table(ours, args.k, args.pairs)
    print(f"parbleu  k={args.k}: statistics {b:.2f} s, PERM-BOTH {p:.2f} s, total {b + p:.2f} s")
    if not (Path(args.mtme) / "mt_metrics_eval" / "stats.py").exists():
        print(
            f"MTME not found at {args.mtme}: MTME side skipped "
            "(fetch google-research/mt-metrics-eval)"
        )
        return 0
    sys.path.insert(0, args.mtme)
    theirs = importlib.import_module("mt_metrics_eval.stats")
    mb, mp = table(theirs, args.mtme_k, args.pairs)
    # Each test computes delta (one draw's work) then k draws: scale the (k + 1) units.
    scaled = mp * (args.k + 1) / (args.mtme_k + 1)
    print(
        f"MTME     k={args.mtme_k}: statistics {mb:.2f} s, PERM-BOTH {mp:.2f} s "
        f"(scaled to k={args.k}: {scaled:.1f} s), total {mb + scaled:.1f} s"
    )
    print("| part | MTME s | parbleu s | ratio |\n|---|---|---|---|")
    print(f"| statistics | {mb:.2f} | {b:.2f} | {mb / b:.1f}x |")
    print(
        f"| PERM-BOTH k={args.k} (MTME scaled from k={args.mtme_k}) | {scaled:.1f} "
        f"| {p:.2f} | {scaled / p:.1f}x |"
    )
    print(f"| whole table | {mb + scaled:.1f} | {b + p:.2f} | {(mb + scaled) / (b + p):.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
