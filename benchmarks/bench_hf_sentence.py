"""Per-sentence HF-style BLEU: parbleu.flavors.tfnmt against the Rust ``bleuscore`` package.

    python benchmarks/bench_hf_sentence.py [--runs 5] [--no-install]

Scores every segment of one WMT21 en-de system (1,002 sentences) against reference A, one
sentence at a time, as HuggingFace ``evaluate.load("bleu")`` (13a tokens, shortest reference):

* ``bleuscore.compute(references=[refs], predictions=[hyp])`` once per sentence (PyPI
  ``bleuscore``; installed with pip when missing unless ``--no-install``),
* ``tfnmt.hf_bleu([hyp], [refs])`` once per sentence (the general path, for comparison),
* ``tfnmt.hf_sentence_bleu(hyp, refs)`` once per sentence (parbleu's per-call path),
* ``tfnmt.hf_sentence_bleus(hyps, refs)``: the batch API, one call for all sentences, on one
  thread (``workers=1``) and on the shared pool (the default: all cores, the GIL released).

Both sides are checked to give the same BLEU first; prints the times and the ratios.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

from common import en_de, median_time
from parbleu.flavors import tfnmt


def _bleuscore(install: bool) -> object | None:
    try:
        return importlib.import_module("bleuscore")
    except ImportError:
        if not install:
            return None
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "bleuscore"], check=False)
    if done.returncode != 0:
        return None
    importlib.invalidate_caches()
    try:
        return importlib.import_module("bleuscore")
    except ImportError:
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-install", action="store_true", help="do not pip-install bleuscore")
    a = ap.parse_args()
    systems, refs = en_de()
    name = sorted(systems)[0]
    hyps = systems[name]
    ref_lists = [[r] for r in refs["A"]]
    n = len(hyps)

    def per_call() -> list[dict[str, object]]:
        return [tfnmt.hf_sentence_bleu(h, r) for h, r in zip(hyps, ref_lists)]

    def batch() -> list[dict[str, object]]:
        return tfnmt.hf_sentence_bleus(hyps, ref_lists, workers=1)

    def batch_pool() -> list[dict[str, object]]:
        return tfnmt.hf_sentence_bleus(hyps, ref_lists)

    ours = per_call()
    assert ours == batch() == batch_pool()
    assert ours[:50] == [tfnmt.hf_bleu([h], [r]) for h, r in zip(hyps[:50], ref_lists[:50])]

    def general() -> list[dict[str, object]]:
        return [tfnmt.hf_bleu([h], [r]) for h, r in zip(hyps, ref_lists)]

    t_general = median_time(general, a.runs)
    t_call = median_time(per_call, a.runs)
    t_batch = median_time(batch, a.runs)
    t_pool = median_time(batch_pool, a.runs)
    print(f"{n} sentences of {name} against reference A, median of {a.runs} runs")
    print(
        f"parbleu hf_bleu([h], [r]) loop: {t_general:.4f} s ({t_general / n * 1e6:.2f} us/sentence)"
    )
    print(f"parbleu hf_sentence_bleu loop : {t_call:.4f} s ({t_call / n * 1e6:.2f} us/sentence)")
    print(
        f"parbleu hf_sentence_bleus, 1 thread: {t_batch:.4f} s "
        f"({t_batch / n * 1e6:.2f} us/sentence)"
    )
    print(
        f"parbleu hf_sentence_bleus, pool    : {t_pool:.4f} s ({t_pool / n * 1e6:.2f} us/sentence)"
    )
    bs = _bleuscore(not a.no_install)
    if bs is None:
        print("bleuscore: not available (pip install bleuscore); no ratio")
        return
    compute = bs.compute  # type: ignore[attr-defined]

    def peer() -> list[dict[str, object]]:
        return [compute(references=[r], predictions=[h]) for h, r in zip(hyps, ref_lists)]

    theirs = peer()
    same = sum(x["bleu"] == y["bleu"] for x, y in zip(ours, theirs))
    print(f"same BLEU as bleuscore on {same} of {n} sentences")
    t_peer = median_time(peer, a.runs)
    print(f"bleuscore compute loop        : {t_peer:.4f} s ({t_peer / n * 1e6:.2f} us/sentence)")
    print(
        f"ratio to bleuscore: hf_bleu loop {t_peer / t_general:.1f}x, per call "
        f"{t_peer / t_call:.1f}x, batch {t_peer / t_batch:.1f}x (1 thread), "
        f"{t_peer / t_pool:.1f}x (pool)"
    )


if __name__ == "__main__":
    main()
