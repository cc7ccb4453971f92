"""parbleu's NLTK ``meteor_score`` against NLTK 3.10.4's, on WMT21 de-en (every system).

Both sides score the same ``str.split`` token lists against references A and B, with the same
WordNet (NLTK's, from nltk_data: build it with tools/build_nltk_wordnet.py and set NLTK_DATA);
the scores are checked equal to the bit before anything is timed. NLTK is timed once over a
sample (it is slow), parbleu over the whole set, per segment; WordNet loading is timed apart
(both load once per process).

    NLTK_DATA=/tmp/nltk_data python benchmarks/bench_nltk_meteor.py [--sample 3000] [--workers N]
"""

from __future__ import annotations

import argparse
import struct
import time

from common import WMT, read
from parbleu.flavors.nltk.meteor_score import load_wordnet, meteor_scores


def segments() -> tuple[list[list[list[str]]], list[list[str]]]:
    refs = [read(WMT / "references" / f"newstest2021.de-en.ref.{x}.en") for x in "AB"]
    hyps: list[list[str]] = []
    seg_refs: list[list[list[str]]] = []
    for p in sorted((WMT / "system-outputs").glob("newstest2021.de-en.hyp.*.en")):
        for i, line in enumerate(read(p)):
            hyps.append(line.split())
            seg_refs.append([r[i].split() for r in refs])
    return seg_refs, hyps


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=3000, help="segments NLTK scores")
    ap.add_argument("--workers", type=int, default=None, help="parbleu's threads (all cores)")
    args = ap.parse_args()
    from nltk.corpus import wordnet
    from nltk.translate.meteor_score import meteor_score

    t = time.perf_counter()
    wordnet.ensure_loaded()
    meteor_score([["warm"]], ["up"])
    t_nltk_load = time.perf_counter() - t
    t = time.perf_counter()
    wn = load_wordnet(wordnet.root.path)
    t_ours_load = time.perf_counter() - t

    refs, hyps = segments()
    n = min(args.sample, len(hyps))
    t = time.perf_counter()
    want = [meteor_score(r, h) for r, h in zip(refs[:n], hyps[:n])]
    t_nltk = (time.perf_counter() - t) / n

    got = meteor_scores(refs, hyps, wordnet=wn, workers=args.workers)
    bits = struct.Struct("<d").pack
    assert all(bits(a) == bits(b) for a, b in zip(got[:n], want)), "scores differ from NLTK"
    t = time.perf_counter()
    meteor_scores(refs, hyps, wordnet=wn, workers=args.workers)
    t_ours = (time.perf_counter() - t) / len(hyps)
    t = time.perf_counter()
    meteor_scores(refs, hyps, wordnet=wn, workers=1)
    t_one = (time.perf_counter() - t) / len(hyps)

    print(f"WMT21 de-en, {len(hyps)} segments, 2 references; NLTK timed on {n} (all equal)")
    print(f"{'':28}{'segments/s':>12}{'vs NLTK':>10}")
    print(f"{'NLTK 3.10.4':28}{1 / t_nltk:12,.0f}{1.0:10.1f}x")
    print(f"{'parbleu, all cores':28}{1 / t_ours:12,.0f}{t_nltk / t_ours:10.1f}x")
    print(f"{'parbleu, 1 thread':28}{1 / t_one:12,.0f}{t_nltk / t_one:10.1f}x")
    print(f"WordNet load: NLTK {t_nltk_load:.2f} s, parbleu {t_ours_load:.2f} s")


if __name__ == "__main__":
    main()
