"""ROUGE: parbleu against rouge-score 0.1.2 in one process, same inputs (issue 27).

    python benchmarks/bench_rouge.py [--pairs 10000] [--runs 3] [--workers N]

rouge1/rouge2/rougeL/rougeLsum with the stemmer over ``--pairs`` summary pairs made from the
WMT21 de-en English text in tests/data (3-6 consecutive sentences per summary, newline-
separated; a system output against reference A): rouge-score's ``score`` loop against
parbleu's ``engine.score_batch`` (all cores, then one thread) and the drop-in's ``score`` loop.
Checks that every number is equal, then prints the medians and the ratios.
"""

from __future__ import annotations

import argparse
import random

from common import SHARED, median_time
from parbleu.flavors.rouge_score import engine
from parbleu.flavors.rouge_score import rouge_scorer as ours

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def pairs(n: int) -> tuple[list[str], list[str]]:
    """``n`` (prediction, reference) summaries of 3-6 sentences."""
    wmt = SHARED / "data" / "wmt21"
    ref = (wmt / "references/newstest2021.de-en.ref.A.en").read_text(encoding="utf-8")
    hyps = sorted(wmt.glob("system-outputs/newstest2021.de-en.hyp.*.en"))
    refs = ref.split("\n")[:-1]
    systems = [h.read_text(encoding="utf-8").split("\n")[:-1] for h in hyps]
    rng = random.Random(27)
    p, r = [], []
    for _ in range(n):
        k = rng.randint(3, 6)
        i = rng.randrange(0, len(refs) - k)
        s = rng.choice(systems)
        p.append("\n".join(s[i : i + k]))
        r.append("\n".join(refs[i : i + k]))
    return p, r


def main() -> None:
    """Run the benchmark and print a table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    from rouge_score import rouge_scorer as theirs

    preds, refs = pairs(args.pairs)
    scorer = theirs.RougeScorer(TYPES, use_stemmer=True)
    drop_in = ours.RougeScorer(TYPES, use_stemmer=True)
    nested = [[r] for r in refs]

    expected: list[dict[str, object]] = []

    def run_theirs() -> None:
        expected[:] = [scorer.score(r, p) for p, r in zip(preds, refs, strict=True)]

    t_theirs = median_time(run_theirs, 1)
    got = engine.score_batch(preds, nested, TYPES, use_stemmer=True, workers=args.workers)
    for i, (e, g) in enumerate(zip(expected, got.score_dicts(), strict=True)):
        for t in TYPES:
            assert tuple(e[t]) == g[t], (i, t)  # type: ignore[arg-type]
    t_all = median_time(
        lambda: engine.score_batch(preds, nested, TYPES, use_stemmer=True, workers=args.workers),
        args.runs,
    )
    t_one = median_time(
        lambda: engine.score_batch(preds, nested, TYPES, use_stemmer=True, workers=1), args.runs
    )
    t_loop = median_time(lambda: [drop_in.score(r, p) for p, r in zip(preds, refs, strict=True)], 1)
    print(f"{args.pairs} pairs, {TYPES}, use_stemmer=True; all numbers equal\n")
    print("| implementation | seconds | rouge-score / this |")
    print("|---|---:|---:|")
    print(f"| rouge-score 0.1.2 `score` loop | {t_theirs:.2f} | 1.0x |")
    for name, t in [
        (f"parbleu `engine.score_batch` (workers={args.workers or 'all'})", t_all),
        ("parbleu `engine.score_batch` (workers=1)", t_one),
        ("parbleu drop-in `RougeScorer.score` loop", t_loop),
    ]:
        print(f"| {name} | {t:.3f} | {t_theirs / t:.1f}x |")


if __name__ == "__main__":
    main()
