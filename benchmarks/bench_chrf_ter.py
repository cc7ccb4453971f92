"""chrF, chrF++ and TER: parbleu against SacreBLEU 2.6 in one process, same inputs (issue 3).

    python benchmarks/bench_chrf_ter.py [--runs 5] [--sacre-runs 3] [--ter-systems 3]
                                        [--ter-runs 1] [--quick]

(a) corpus chrF and chrF++ of each of the 20 WMT21 en-de systems against reference A, then
    against references A, C and D;
(b) the same with the references given once to the constructor (``references=``), as when
    scoring many systems;
(c) batch sentence chrF of the 20,040 segments: SacreBLEU's ``sentence_score`` loop against
    parbleu's ``sentence_scores``;
(d) corpus TER against reference A and batch sentence TER. SacreBLEU's TER runs at ~150-200
    segments/s (about 5 s per system), so it is timed on the first ``--ter-systems`` systems
    only (``--ter-runs`` runs after a warm-up run); parbleu is timed on the same systems for
    the ratio, and on all 20.

Every workload checks that both tools give the same scores. Prints a Markdown table of
medians and ratios (SacreBLEU time / parbleu time).
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections.abc import Callable
from typing import Any, TypeVar

import parbleu
from common import Table, en_de, median_time

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
logging.getLogger("parbleu").setLevel(logging.ERROR)

T = TypeVar("T")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs of parbleu (median)")
    ap.add_argument("--sacre-runs", type=int, default=3, help="runs of SacreBLEU's chrF (median)")
    ap.add_argument(
        "--ter-systems", type=int, default=3, help="systems SacreBLEU's TER is timed on"
    )
    ap.add_argument("--ter-runs", type=int, default=1, help="runs of SacreBLEU's TER (median)")
    ap.add_argument("--quick", action="store_true", help="1 run each, TER on 1 system")
    args = ap.parse_args()
    runs = 1 if args.quick else args.runs
    sruns = 1 if args.quick else args.sacre_runs
    n_ter = 1 if args.quick else args.ter_systems

    import sacrebleu
    from sacrebleu.metrics import CHRF as SacreCHRF
    from sacrebleu.metrics import TER as SacreTER

    systems, refs = en_de()
    hyps_all = list(systems.values())
    n_seg = sum(len(h) for h in hyps_all)
    t = Table(
        f"chrF / TER, WMT21 en-de, {len(systems)} systems, {n_seg:,} segments "
        f"(median of {runs} parbleu runs, {sruns} SacreBLEU runs)"
    )

    # (a) corpus chrF / chrF++, references passed at every call.
    for name, wo in (("chrF", 0), ("chrF++", 2)):
        for label, streams in (("1 ref", [refs["A"]]), ("3 refs", [refs[x] for x in "ACD"])):

            def sb(wo: int = wo, streams: list[list[str]] = streams) -> list[float]:
                return [SacreCHRF(word_order=wo).corpus_score(h, streams).score for h in hyps_all]

            def pb(wo: int = wo, streams: list[list[str]] = streams) -> list[float]:
                return [
                    parbleu.CHRF(word_order=wo).corpus_score(h, streams).score for h in hyps_all
                ]

            versus(t, f"(a) corpus {name}, 20 systems, {label}", sb, pb, sruns, runs)

    # (b) the same with cached references.
    for name, wo in (("chrF", 0), ("chrF++", 2)):
        streams = [refs[x] for x in "ACD"]

        def sb_cached(wo: int = wo, streams: list[list[str]] = streams) -> list[float]:
            m = SacreCHRF(word_order=wo, references=streams)
            return [m.corpus_score(h, None).score for h in hyps_all]

        def pb_cached(wo: int = wo, streams: list[list[str]] = streams) -> list[float]:
            m = parbleu.CHRF(word_order=wo, references=streams)
            return [m.corpus_score(h, None).score for h in hyps_all]

        label = f"(b) corpus {name}, 20 systems, 3 refs given once"
        versus(t, label, sb_cached, pb_cached, sruns, runs)

    # (c) batch sentence chrF.
    ref_a = refs["A"]

    sb_sent, pb_sent = loop_vs_batch(SacreCHRF, parbleu.CHRF, hyps_all, ref_a)
    label = f"(c) sentence chrF, {n_seg:,} segments (SacreBLEU loop vs batch)"
    versus(t, label, sb_sent, pb_sent, sruns, runs)

    # (d) TER on a subset of systems for SacreBLEU.
    subset = hyps_all[:n_ter]
    n_sub = sum(len(h) for h in subset)
    ter_runs = 1 if args.quick else args.ter_runs

    def sb_ter() -> list[float]:
        return [SacreTER().corpus_score(h, [ref_a]).score for h in subset]

    def pb_ter(hyps: list[list[str]] = subset) -> list[float]:
        return [parbleu.TER().corpus_score(h, [ref_a]).score for h in hyps]

    label = f"(d) corpus TER, {n_ter} system(s) ({n_sub:,} segments), 1 ref"
    t_sb = versus(t, label, sb_ter, pb_ter, ter_runs, runs)

    sb_ter_sent, pb_ter_sent = loop_vs_batch(SacreTER, parbleu.TER, subset, ref_a)
    label = f"(d) sentence TER, {n_sub:,} segments (SacreBLEU loop vs batch)"
    versus(t, label, sb_ter_sent, pb_ter_sent, ter_runs, runs)
    t_all = median_time(lambda: pb_ter(hyps_all), runs)
    t.add_raw(
        f"(d) corpus TER, all 20 systems ({n_seg:,} segments)",
        f"~{t_sb / n_sub * n_seg:.1f} s (sacrebleu, extrapolated)",
        f"{t_all:.4f} s",
        f"~{t_sb / n_sub * n_seg / t_all:,.0f}×",
    )

    print()
    print(t.markdown())
    print()
    print(
        f"SacreBLEU's TER was timed on {n_ter} of the 20 systems ({n_sub:,} segments): it runs at "
        f"about {n_sub / t_sb:,.0f} segments/s here. parbleu: default workers "
        f"(serial below {parbleu._workers.SERIAL_BELOW} segments per call), sacrebleu "
        f"{sacrebleu.__version__}. Targets: chrF >= 50x, TER >= 100x."
    )


def loop_vs_batch(
    sacre_cls: Callable[[], Any], ours_cls: Callable[[], Any], hyps: list[list[str]], ref: list[str]
) -> tuple[Callable[[], list[float]], Callable[[], list[float]]]:
    """Sentence scores of every segment of ``hyps`` against ``ref``: SacreBLEU's
    ``sentence_score`` loop, and parbleu's ``sentence_scores`` (one batch call a system)."""

    def sacre() -> list[float]:
        m = sacre_cls()
        return [m.sentence_score(x, [r]).score for h in hyps for x, r in zip(h, ref)]

    def ours() -> list[float]:
        m = ours_cls()
        return [s for h in hyps for s in m.sentence_scores(h, [ref]).tolist()]

    return sacre, ours


def timed(fn: Callable[[], T], runs: int, warm_up: bool) -> tuple[T, float]:
    """The result of ``fn`` and the median time of ``runs`` calls (after one more if warm_up)."""
    times = []
    out = fn() if warm_up else None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    assert out is not None
    return out, statistics.median(times)


def versus(
    t: Table,
    label: str,
    sacre: Callable[[], list[float]],
    ours: Callable[[], list[float]],
    sacre_runs: int,
    runs: int,
) -> float:
    """Time both, check that they give the same scores, add a row; SacreBLEU's time."""
    want, t_sacre = timed(sacre, sacre_runs, warm_up=False)
    got, t_ours = timed(ours, runs, warm_up=True)
    assert got == want, f"{label}: scores differ"
    t.add(label, t_sacre, t_ours)
    print(f"{label}: {t_sacre:.3f} s vs {t_ours:.4f} s ({t_sacre / t_ours:,.0f}x)", flush=True)
    return t_sacre


if __name__ == "__main__":
    main()
