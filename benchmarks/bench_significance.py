"""Significance tests: parbleu against SacreBLEU 2.6 in one process, same inputs (issue 4).

    python benchmarks/bench_significance.py [--sacrebleu-systems 20] [--runs 3]

Workload: the 20 WMT21 en-de systems against reference A, BLEU and chrF together, the first
system as baseline; paired bootstrap resampling with 1,000 resamples and paired approximate
randomization with 10,000 trials. End to end through each tool's ``PairedTest`` (what
``--paired-bs`` / ``--paired-ar`` run): metric construction with cached references, statistics
extraction, resampling, results. parbleu's SacreBLEU-compatible path gives the same numbers
(checked here); its exact path (``paired_bootstrap`` / ``paired_ar``) and the all-pairs
``compare_all`` are timed too. SacreBLEU can be timed on fewer systems
(``--sacrebleu-systems``): its time is then scaled to 20 systems linearly (its cost is per
compared system) and the output says so. Prints a Markdown table of ratios.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from collections.abc import Callable
from typing import Any

import parbleu
from common import Table, en_de, median_time
from parbleu import significance as sig

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
logging.getLogger("parbleu").setLevel(logging.ERROR)

TESTS = {
    "bs": ("paired bootstrap, 1,000 resamples", 1000),
    "ar": ("paired AR, 10,000 trials", 10000),
}


def paired(mod: Any, sig_mod: Any, named: list[tuple[str, list[str]]], ref: list[str],
           test: str, n: int) -> Any:  # fmt: skip
    metrics = {"BLEU": mod.BLEU(references=[ref]), "CHRF": mod.CHRF(references=[ref])}
    return sig_mod.PairedTest(named, metrics, None, test_type=test, n_samples=n)()


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def as_numbers(scores: dict[str, list[Any]]) -> dict[str, list[tuple[Any, ...]]]:
    return {
        k: [(r.score, r.p_value, None if r.mean is None else float(r.mean),
             None if r.ci is None else float(r.ci)) for r in v]
        for k, v in scores.items() if k != "System"
    }  # fmt: skip


def bench_test(
    sb: Any, sb_sig: Any, named: list[tuple[str, list[str]]], ref: list[str], k: int,
    test: str, n: int, runs: int,
) -> dict[str, Any]:  # fmt: skip
    """SacreBLEU on the first ``k`` systems; parbleu on those and on all of them."""
    sb_s, sb_out = timed(lambda: paired(sb, sb_sig, named[:k], ref, test, n))
    ours = paired(parbleu, sig, named[:k], ref, test, n)
    fn = sig.paired_bootstrap if test == "bs" else sig.paired_ar

    def exact(systems: dict[str, list[str]]) -> Any:
        return [fn(m, systems, [ref], n=n) for m in (parbleu.BLEU(), parbleu.CHRF())]

    return {
        "sacrebleu": sb_s,
        "same": as_numbers(ours[1]) == as_numbers(sb_out[1]),
        "compat": median_time(lambda: paired(parbleu, sig, named[:k], ref, test, n), runs),
        "compat_all": median_time(lambda: paired(parbleu, sig, named, ref, test, n), runs),
        "exact": median_time(lambda: exact(dict(named[:k])), runs),
        "exact_all": median_time(lambda: exact(dict(named)), runs),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--sacrebleu-systems",
        type=int,
        default=20,
        metavar="K",
        help="time SacreBLEU (and compare) on the first K systems only (2-20)",
    )
    ap.add_argument("--runs", type=int, default=3, help="parbleu runs (median)")
    args = ap.parse_args()
    os.environ["SACREBLEU_SEED"] = "12345"

    import sacrebleu.metrics as sb_metrics
    import sacrebleu.significance as sb_sig

    class SB:
        BLEU = sb_metrics.BLEU
        CHRF = sb_metrics.CHRF

    systems, refs = en_de()
    ref = refs["A"]
    names = ["Online-W"] + [n for n in systems if n != "Online-W"]
    named = [(n, systems[n]) for n in names]
    k = max(2, min(len(named), args.sacrebleu_systems))
    note = (
        ""
        if k == len(named)
        else f" (SacreBLEU too slow for all {len(named)}: both tools timed on the first {k} "
        f"systems for the ratios)"
    )
    table = Table(f"Significance: WMT21 en-de, BLEU + chrF, {k} systems{note}")
    totals = {"sacrebleu": 0.0, "compat": 0.0, "exact": 0.0, "compat_all": 0.0}
    for test, (label, n) in TESTS.items():
        r = bench_test(SB, sb_sig, named, ref, k, test, n, args.runs)
        flag = "" if r["same"] else " MISMATCH"
        table.add(f"{label}: PairedTest (SacreBLEU-compatible){flag}", r["sacrebleu"], r["compat"])
        table.add(f"{label}: exact path", r["sacrebleu"], r["exact"])
        for key in totals:
            totals[key] += r[key]
        print(
            f"{label}, {k} systems: SacreBLEU {r['sacrebleu']:.2f} s, parbleu compat "
            f"{r['compat']:.3f} s (identical results: {'yes' if r['same'] else 'NO'}), exact "
            f"{r['exact']:.3f} s; parbleu on all {len(named)}: compat {r['compat_all']:.3f} s, "
            f"exact {r['exact_all']:.3f} s",
            flush=True,
        )
    table.add("both tests: SacreBLEU-compatible", totals["sacrebleu"], totals["compat"])
    table.add("both tests: exact path", totals["sacrebleu"], totals["exact"])
    all_systems = dict(named)
    cmp_s = median_time(
        lambda: sig.compare_all([parbleu.BLEU(), parbleu.CHRF()], all_systems, [ref], n=1000),
        args.runs,
    )
    pairs = len(named) * (len(named) - 1) // 2
    table.add(f"{len(named)} systems, all {pairs} pairs, bootstrap 1,000 + Holm (compare_all)",
              None, cmp_s)  # fmt: skip
    print()
    print(table.markdown())
    ratio = totals["sacrebleu"] / totals["compat"]
    print(
        f"\nEnd to end, both tests, SacreBLEU-compatible path: {ratio:.0f}x SacreBLEU on {k} "
        f"systems (target >= 20x); parbleu on all {len(named)}: {totals['compat_all']:.2f} s"
    )


if __name__ == "__main__":
    main()
