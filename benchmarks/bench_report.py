"""``parbleu.report`` on 20 systems x 1,000 segments (issues 19, 24): parbleu time, plots apart.

    python benchmarks/bench_report.py [--systems 20] [--segments 1000] [--runs 3] [--png]
        [--no-sacrebleu]

Workload: the first ``--systems`` WMT21 en-de systems (of 20, by name) against reference A,
first ``--segments`` lines. Timed separately: the analysis without the flavors table (scores,
signatures, paired-bootstrap intervals and all pairs for BLEU, chrF and TER, with the
resamples the report chooses for the number of pairs, docs/report.md; sentence scores;
buckets; n-grams; segments), the same with the flavors table for the baseline only
(``flavor_systems=1``), the default analysis (the flavors table: 12 other implementations for
every system), the HTML page, and (``--png``) matplotlib's plots. The last line gives the
default report's wall time and its CPU time (all threads; a fairer measure on a loaded
machine). The reference point is SacreBLEU 2.6 computing only the score table's three corpus
scores of the systems, in the same run (about 200 s for 20; ``--no-sacrebleu`` skips it while
iterating, and the ratio column shows a dash).
"""

from __future__ import annotations

import argparse
import logging
import tempfile
import time
from pathlib import Path

import sacrebleu

import parbleu
from common import Table, en_de, median_time

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--systems", type=int, default=20, help="the first K systems (of 20)")
    ap.add_argument("--segments", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--png", action="store_true", help="also time the PNG plots (matplotlib)")
    ap.add_argument(
        "--no-sacrebleu", action="store_true", help="skip timing SacreBLEU (no ratio column)"
    )
    args = ap.parse_args()
    systems, refs = en_de()
    systems = {k: v[: args.segments] for k, v in list(systems.items())[: args.systems]}
    ref = refs["A"][: args.segments]
    print(f"{len(systems)} systems x {len(ref)} segments, median of {args.runs} runs")

    def analysis(flavors: tuple[str, ...] | None, k: int | None = None) -> parbleu.Report:
        return parbleu.report([ref], systems, flavors=flavors, flavor_systems=k)

    def sacre() -> None:
        for m in (sacrebleu.BLEU(), sacrebleu.CHRF(), sacrebleu.TER()):
            for hyps in systems.values():
                m.corpus_score(hyps, [ref])

    t_sacre = None if args.no_sacrebleu else median_time(sacre, 1)
    analysis(())  # imports (numpy, flavors) are not the report's time
    t_core = median_time(lambda: analysis(()), args.runs)
    t_base = median_time(lambda: analysis(None, 1), args.runs)
    t_all = median_time(lambda: analysis(None), args.runs)
    rep = analysis(None)
    t_page = median_time(rep.html, args.runs)
    size = len(rep.html().encode("utf-8"))
    cpu0 = time.process_time()
    analysis(None).html()
    cpu = time.process_time() - cpu0
    n = len(systems)
    table = Table(f"parbleu report, {n} systems x {len(ref)} segments")
    table.add("report analysis, no flavors table", t_sacre, t_core)
    table.add("report analysis, flavors table for the baseline only", t_sacre, t_base)
    table.add(f"report analysis (default: flavors table for all {n} systems)", t_sacre, t_all)
    table.add_raw("HTML page (render)", "-", f"{t_page:.4f} s", f"{size / 1e6:.1f} MB")
    total = t_all + t_page
    table.add("parbleu total (analysis + page)", t_sacre, total)
    if args.png:
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            rep.write_plots(Path(d))
            table.add_raw(
                "PNG plots (matplotlib, apart)", "-", f"{time.perf_counter() - t0:.3f} s", "-"
            )
    print("reference tool: SacreBLEU 2.6, the three corpus scores of every system only")
    print(table.markdown())
    print(
        f"\nparbleu time for the default report: {total:.2f} s wall, {cpu:.2f} s CPU "
        f"(target: under 5 s for 16 systems; resamples: {rep.data['test']['n']})"
    )


if __name__ == "__main__":
    main()
