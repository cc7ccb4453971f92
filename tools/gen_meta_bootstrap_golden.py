#!/usr/bin/env python3
"""Write tests/data/meta_bootstrap/wmt21.is-en.json.xz: bootstrap draws computed by MTME itself.

MTME (google-research/mt-metrics-eval, commit 68a481a) has no bootstrap of its correlations;
this script builds one from MTME's own statistics, the way ``parbleu meta --bootstrap N
--mtme-draws SEED`` defines it (``python/parbleu/_meta_boot.py``):

* items: ``numpy.random.default_rng(SEED).choice(n_items, size=(N, n_items), replace=True)``;
* segment level, per draw: the drawn columns of the systems x items matrices (gold ``None``
  kept), then MTME's ``stats.Correlation(num_sys, gold, metric)``: ``Pearson('none')``,
  ``KendallVariants(g, 'b')`` for g in none/item/sys, ``stats.KendallWithTiesOpt(gold, metric,
  'acc23', num_sys, 'item', 1.0)``;
* system level, per draw: each system's human score is ``np.mean`` of its judged drawn scores,
  each metric's ``np.mean`` of its drawn segment scores; then ``Pearson()``, ``Spearman()``,
  ``Kendall()`` and ``stats.Agreement`` (agree / pairs);
* intervals: ``np.quantile`` at (1 - c) / 2 and (1 + c) / 2 of the draws without NaN.

Inputs: golden/mtme/wmt21.is-en.json (human z-scores and sentBLEU/sentchrF/sentTER, -TER).
Run with MTME's source tree on the path (numpy and scipy as the test environment)::

    python tools/gen_meta_bootstrap_golden.py --mtme /path/to/mt-metrics-eval \
        --shared ../shared --n 40 --seed 2024
"""

from __future__ import annotations

import argparse
import json
import lzma
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "meta_bootstrap"
METRICS = ("sentBLEU", "sentchrF", "sentTER")


def _quantiles(vals: list[float], conf: float) -> list[float]:
    arr = np.array(vals, dtype=np.float64)
    arr = arr[~np.isnan(arr)]
    return [float(np.quantile(arr, (1 - conf) / 2)), float(np.quantile(arr, (1 + conf) / 2))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mtme", required=True, help="checkout of mt-metrics-eval (commit 68a481a)")
    ap.add_argument("--shared", default=str(Path(__file__).resolve().parents[2] / "shared"))
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--confidence", type=float, default=0.95)
    args = ap.parse_args()
    sys.path.insert(0, args.mtme)
    from mt_metrics_eval import stats  # type: ignore[import-not-found]

    inp = json.loads((Path(args.shared) / "golden/mtme/wmt21.is-en.json").read_text())["inputs"]
    systems = inp["systems"]
    ns = len(systems)
    gold = np.array(inp["gold"]["seg"]["wmt-z"], dtype=object)
    n_items = gold.shape[1]
    idxs = np.random.default_rng(args.seed).choice(n_items, size=(args.n, n_items), replace=True)
    seg: dict[str, list[dict[str, float]]] = {}
    sys_: dict[str, list[dict[str, float]]] = {}
    for m in METRICS:
        scores = np.array(inp["metrics"]["seg"][m]["scores"], dtype=np.float64)
        seg[m], sys_[m] = [], []
        for idx in idxs:
            g, s = gold[:, idx].reshape(-1).tolist(), scores[:, idx].reshape(-1).tolist()
            c = stats.Correlation(ns, g, s)
            acc = stats.KendallWithTiesOpt(g, s, "acc23", ns, "item", 1.0)[0]
            seg[m].append(
                {
                    "pearson": float(c.Pearson("none")[0]),
                    "kendall_b_none": float(c.KendallVariants("none", "b")[0]),
                    "kendall_b_item": float(c.KendallVariants("item", "b")[0]),
                    "kendall_b_sys": float(c.KendallVariants("sys", "b")[0]),
                    "acc23_item": float(acc),
                }
            )
            hg = [float(np.mean([x for x in gold[r, idx] if x is not None])) for r in range(ns)]
            hm = [float(np.mean(scores[r, idx])) for r in range(ns)]
            c = stats.Correlation(ns, hg, hm)
            agree, pairs = stats.Agreement(hg, hm)
            sys_[m].append(
                {
                    "pearson": float(c.Pearson()[0]),
                    "spearman": float(c.Spearman()[0]),
                    "kendall_b": float(c.Kendall()[0]),
                    "accuracy": agree / pairs,
                }
            )
    out = {
        "made_by": f"tools/gen_meta_bootstrap_golden.py with MTME 68a481a (numpy {np.__version__})",
        "pair": "is-en",
        "n": args.n,
        "seed": args.seed,
        "confidence": args.confidence,
        "draws": {"seg": seg, "sys": sys_},
        "intervals": {
            level: {
                m: {k: _quantiles([d[k] for d in rows], args.confidence) for k in rows[0]}
                for m, rows in data.items()
            }
            for level, data in (("seg", seg), ("sys", sys_))
        },
    }
    OUT.mkdir(parents=True, exist_ok=True)
    text = json.dumps(out, indent=0, sort_keys=True).encode()
    (OUT / "wmt21.is-en.json.xz").write_bytes(lzma.compress(text, preset=9))
    print(f"wrote {OUT / 'wmt21.is-en.json.xz'} ({args.n} draws)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
