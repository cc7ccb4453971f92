"""Scale benchmarks: batch sentence scores, MBR matrices, streaming, 1 -> 2 workers.

    python benchmarks/bench_scale.py [--pairs 1000000] [--sources 100] [--candidates 128]
                                     [--stream-lines 10000000] [--quick]

* Sentence BLEU (SacreBLEU's ``sentence_bleu`` defaults: effective order) and chrF of
  ``--pairs`` (hypothesis, reference) pairs: the 20 WMT21 en-de systems against reference A,
  repeated. parbleu scores all of them; SacreBLEU's ``sentence_score`` loop is timed on a
  subset and extrapolated per pair (printed as such).
* MBR with ``--sources`` × ``--candidates``: for each WMT21 source, the 20 system outputs plus
  deterministic word-dropout/swap variants of them; every candidate against every candidate
  (``parbleu.mbr``, exact, and with reference aggregation). SacreBLEU's loop over the same
  pairs is timed on a few sources and extrapolated.
* MBR with ROUGE (rouge1 F-measure, the core's ROUGE pair table) on the same candidates, when
  rouge-score is installed: its ``RougeScorer.score`` loop timed on one source, extrapolated.
* fast-bleu (``pip install fast-bleu``), when installed: its per-pair API on the same pairs, as
  a speed reference (it computes NLTK's rules on whitespace tokens, not SacreBLEU's numbers).
* Streaming: a ``--stream-lines`` hypothesis file and reference file made in /tmp by repeating
  WMT21 lines, scored by the ``parbleu`` command (corpus BLEU; the default path streams files
  of 32 MiB and more); wall time and the child's peak resident memory.
* Workers: every parbleu timing is taken with 1 and with 2 threads.

Timings on a shared machine vary; CPU contention from other processes lowers the 1 -> 2
worker speed-up. The ``mbrs`` package needs torch, COMET and BLEURT (gigabytes), so it is not
compared.
"""

from __future__ import annotations

import argparse
import functools
import gc
import logging
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import parbleu

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import en_de


def timed(fn: Any) -> tuple[float, Any]:
    # The garbage collector is paused while timing, as timeit and common.median_time do.
    gc.collect()
    gc.disable()
    try:
        t0 = time.perf_counter()
        out = fn()
        return time.perf_counter() - t0, out
    finally:
        gc.enable()


def best_of(fn: Any, runs: int) -> float:
    return min(timed(fn)[0] for _ in range(runs))


def _cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def cpu_profile(fn: Any) -> tuple[float, float, float]:
    """Wall time, process CPU time and calling-thread CPU time of one call."""
    p0, m0, t0 = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_THREAD), time.perf_counter()
    fn()
    t1 = time.perf_counter()
    return t1 - t0, _cpu(resource.RUSAGE_SELF) - p0, _cpu(resource.RUSAGE_THREAD) - m0


def idle_estimate(fn1: Any, fn2: Any) -> str:
    """Speed-up from 1 to 2 workers measured in CPU time, for a machine with 2 idle cores.

    With 2 workers the calling thread converts inputs and outputs (serial) and takes its share
    of the parallel chunks; the other thread takes the rest. On two idle cores the wall time
    is then the calling thread's CPU time (the other thread finishes with it).
    """
    _, cpu1, _ = cpu_profile(fn1)
    _, _, main2 = cpu_profile(fn2)
    return f"{cpu1 / main2:.2f}× (CPU-time estimate)"


def sentence_pairs(n: int) -> tuple[list[str], list[str]]:
    systems, refs = en_de()
    ref = refs["A"]
    hyps: list[str] = []
    for out in systems.values():
        hyps.extend(out)
    rs = ref * len(systems)
    k = -(-n // len(hyps))
    return (hyps * k)[:n], (rs * k)[:n]


def mbr_candidates(n_sources: int, n_cands: int) -> list[list[str]]:
    systems, _ = en_de()
    outs = list(systems.values())
    rng = random.Random(1234)
    sources = []
    for s in range(n_sources):
        base = [o[s] for o in outs]
        cands = list(base)
        while len(cands) < n_cands:
            words = rng.choice(base).split()
            if len(words) > 3:
                if rng.random() < 0.5:
                    del words[rng.randrange(len(words))]
                else:
                    i = rng.randrange(len(words) - 1)
                    words[i], words[i + 1] = words[i + 1], words[i]
            cands.append(" ".join(words))
        sources.append(cands[:n_cands])
    return sources


def bench_sentences(n: int, table: list[tuple[str, ...]]) -> None:
    import sacrebleu

    hyps, refs = sentence_pairs(n)
    sub = 2000
    for name, ours, theirs in (
        ("sentence BLEU", parbleu.BLEU(effective_order=True), sacrebleu.BLEU(effective_order=True)),
        ("sentence chrF", parbleu.CHRF(), sacrebleu.CHRF()),
    ):
        sacre = functools.partial(sacre_sentence_loop, theirs, hyps[:sub], refs[:sub])
        sb_total = timed(sacre)[0] / sub * n
        run = {w: functools.partial(ours.sentence_scores, hyps, [refs], workers=w) for w in (1, 2)}
        t1, t2 = best_of(run[1], 3), best_of(run[2], 3)
        est = idle_estimate(run[1], run[2])
        table.append(
            (
                f"{name}, {n:,} pairs",
                f"{sb_total:,.0f} s (loop, {sub:,} pairs timed, extrapolated)",
                f"{t1:.2f} s / {t2:.2f} s",
                f"{sb_total / t1:,.0f}× / {sb_total / t2:,.0f}×",
                f"{t1 / t2:.2f}× wall; {est}",
            )
        )
        print(table[-1], flush=True)
        if name == "sentence BLEU":
            fast_bleu_row(hyps, refs, sub, t2, table)


def fast_bleu_row(
    hyps: list[str], refs: list[str], sub: int, ours: float, table: list[tuple[str, ...]]
) -> None:
    """fast-bleu (PyPI ``fast-bleu``), if installed: its per-pair API over the same pairs.

    It computes NLTK's rules on ``str.split`` tokens, not SacreBLEU's numbers: a speed
    reference only. Timed on ``sub`` pairs and extrapolated, as SacreBLEU's loop.
    """
    from importlib.metadata import version

    try:
        import fast_bleu
    except ImportError:
        return
    n = len(hyps)
    weights = {"bleu4": (0.25, 0.25, 0.25, 0.25)}

    def loop() -> None:
        for h, r in zip(hyps[:sub], refs[:sub]):
            fast_bleu.BLEU([r.split()], weights).get_score([h.split()])

    total = timed(loop)[0] / sub * n
    table.append(
        (
            f"sentence BLEU, {n:,} pairs: fast-bleu {version('fast-bleu')} per-pair loop "
            "(NLTK rules, other numbers)",
            f"{total:,.0f} s (loop, {sub:,} pairs timed, extrapolated)",
            f"- / {ours:.2f} s",
            f"- / {total / ours:,.0f}×",
            "-",
        )
    )
    print(table[-1], flush=True)


def sacre_sentence_loop(metric: Any, hyps: list[str], refs: list[str]) -> None:
    for h, r in zip(hyps, refs):
        metric.sentence_score(h, [r])


def sacre_matrix_loop(metric: Any, sources: list[list[str]]) -> None:
    for cands in sources:
        for h in cands:
            for r in cands:
                metric.sentence_score(h, [r])


def mbr_all(sources: list[list[str]], metric: str, **kw: Any) -> None:
    for cands in sources:
        parbleu.mbr(cands, metric, **kw)


def bench_mbr(n_sources: int, n_cands: int, table: list[tuple[str, ...]]) -> None:
    import sacrebleu

    sources = mbr_candidates(n_sources, n_cands)
    timed_sources = 1
    for name, metric, theirs in (
        ("BLEU", "bleu", sacrebleu.BLEU(effective_order=True)),
        ("chrF", "chrf", sacrebleu.CHRF()),
    ):
        t_sb = timed(functools.partial(sacre_matrix_loop, theirs, sources[:timed_sources]))[0]
        sb_total = t_sb / timed_sources * n_sources
        run = {w: functools.partial(mbr_all, sources, metric, workers=w) for w in (1, 2)}
        res = {w: best_of(run[w], 2) for w in (1, 2)}
        est = idle_estimate(run[1], run[2])
        agg = best_of(functools.partial(mbr_all, sources, metric, aggregate=True, workers=1), 2)
        table.append(
            (
                f"MBR {name}, {n_sources} sources × {n_cands} candidates "
                f"({n_sources * n_cands * n_cands:,} utilities)",
                f"{sb_total:,.1f} s (loop, {timed_sources} source timed, extrapolated)",
                f"{res[1]:.3f} s / {res[2]:.3f} s",
                f"{sb_total / res[1]:,.0f}× / {sb_total / res[2]:,.0f}×",
                f"{res[1] / res[2]:.2f}× wall; {est}",
            )
        )
        print(table[-1], flush=True)
        table.append(
            (
                f"MBR {name}, reference aggregation (approximate)",
                "-",
                f"{agg:.3f} s",
                f"{sb_total / agg:,.0f}×",
                "-",
            )
        )
        print(table[-1], flush=True)


def rouge_matrix_loop(scorer: Any, sources: list[list[str]]) -> None:
    for cands in sources:
        for h in cands:
            for r in cands:
                scorer.score(r, h)


def bench_mbr_rouge(n_sources: int, n_cands: int, table: list[tuple[str, ...]]) -> None:
    """MBR with ROUGE (rouge1 F-measure) against rouge-score's per-pair loop, when installed."""
    try:
        from rouge_score import rouge_scorer
    except ImportError:
        print("rouge-score not installed: no ROUGE MBR row", flush=True)
        return
    sources = mbr_candidates(n_sources, n_cands)
    t_peer = timed(
        functools.partial(rouge_matrix_loop, rouge_scorer.RougeScorer(["rouge1"]), sources[:1])
    )[0]
    peer_total = t_peer * n_sources
    run = {w: functools.partial(mbr_all, sources, "rouge", workers=w) for w in (1, 2)}
    res = {w: best_of(run[w], 2) for w in (1, 2)}
    est = idle_estimate(run[1], run[2])
    table.append(
        (
            f"MBR ROUGE (rouge1 F), {n_sources} sources × {n_cands} candidates",
            f"{peer_total:,.1f} s (rouge-score's loop, 1 source timed, extrapolated)",
            f"{res[1]:.3f} s / {res[2]:.3f} s",
            f"{peer_total / res[1]:,.0f}× / {peer_total / res[2]:,.0f}×",
            f"{res[1] / res[2]:.2f}× wall; {est}",
        )
    )
    print(table[-1], flush=True)


def make_stream_files(n: int, folder: Path) -> tuple[Path, Path]:
    systems, refs = en_de()
    hyp_path, ref_path = folder / f"hyp.{n}.txt", folder / f"ref.{n}.txt"
    if hyp_path.exists() and ref_path.exists():
        return hyp_path, ref_path
    outs = list(systems.values())
    ref = refs["A"]
    block_h = "".join(line + "\n" for o in outs for line in o)
    block_r = "".join(line + "\n" for _ in outs for line in ref)
    per_block = len(outs) * len(ref)
    with open(hyp_path, "w", encoding="utf-8") as fh, open(ref_path, "w", encoding="utf-8") as fr:
        left = n
        while left >= per_block:
            fh.write(block_h)
            fr.write(block_r)
            left -= per_block
        if left:
            fh.write("".join(block_h.splitlines(keepends=True)[:left]))
            fr.write("".join(block_r.splitlines(keepends=True)[:left]))
    return hyp_path, ref_path


def bench_stream(n: int, table: list[tuple[str, ...]]) -> None:
    folder = Path(tempfile.gettempdir()) / "parbleu-bench-stream"
    folder.mkdir(exist_ok=True)
    hyp, ref = make_stream_files(n, folder)
    size_mb = (hyp.stat().st_size + ref.stat().st_size) / 2**20
    for w in (1, 2):
        env = dict(os.environ, PARBLEU_WORKERS=str(w))
        code = (
            "import resource, sys; from parbleu.cli import main; rc = main(sys.argv[1:]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); "
            "sys.exit(rc)"
        )
        t, p = timed(
            functools.partial(
                subprocess.run,
                [sys.executable, "-c", code, str(ref), "-i", str(hyp), "-b", "-q"],
                capture_output=True,
                text=True,
                env=env,
                check=True,
            )
        )
        peak = int(p.stderr.split()[-1]) / 1024
        table.append(
            (
                f"streaming corpus BLEU (CLI), {n:,} lines ({size_mb:,.0f} MiB), {w} worker(s)",
                "-",
                f"{t:.1f} s, peak RSS {peak:.0f} MiB",
                f"BLEU {p.stdout.strip()}",
                "-",
            )
        )
        print(table[-1], flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=1_000_000)
    ap.add_argument("--sources", type=int, default=100)
    ap.add_argument("--candidates", type=int, default=128)
    ap.add_argument("--stream-lines", type=int, default=10_000_000)
    ap.add_argument("--quick", action="store_true", help="100k pairs, 10 sources, 1M lines")
    ap.add_argument("--skip", nargs="*", default=[], choices=["sentences", "mbr", "stream"])
    args = ap.parse_args()
    logging.disable(logging.WARNING)  # SacreBLEU's tokenized-period warnings
    if args.quick:
        args.pairs, args.sources, args.stream_lines = 100_000, 10, 1_000_000
    table: list[tuple[str, ...]] = []
    if "sentences" not in args.skip:
        bench_sentences(args.pairs, table)
    if "mbr" not in args.skip:
        bench_mbr(args.sources, args.candidates, table)
        bench_mbr_rouge(args.sources, args.candidates, table)
    if "stream" not in args.skip:
        bench_stream(args.stream_lines, table)
    head = ("workload", "SacreBLEU", "parbleu (1 / 2 workers)", "speed-up", "1 → 2 workers")
    print()
    print("| " + " | ".join(head) + " |")
    print("|---|---:|---:|---:|---:|")
    for row in table:
        print("| " + " | ".join(row) + " |")
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"\n(benchmark process peak RSS {ru.ru_maxrss / 1024:.0f} MiB; {os.cpu_count()} CPUs; "
        f"load average at the end {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
