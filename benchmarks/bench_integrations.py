"""Integrations: torchmetrics' text metrics, the hub's evaluate modules, token-id sentence BLEU.

    python benchmarks/bench_integrations.py [--runs 3] [--segments N] [--skip-ter]
        [--torchmetrics-only NAME...] [--skip-torchmetrics] [--skip-evaluate] [--skip-ids]

1. torchmetrics' ``SacreBLEUScore``, ``CHRFScore``, ``TranslationEditRate`` against
   ``parbleu.integrations.torchmetrics``': ``update`` with each of the 20 WMT21 en-de systems
   (reference A) and ``compute``, a fresh metric per system.
2. The hub's ``sacrebleu`` module against ``parbleu.evaluate_load("sacrebleu")``. The hub cannot
   be reached here, so the baseline is the hub module's ``_compute`` (reconstructed from its
   published source: references transposed, then ``sacrebleu.corpus_bleu``) running on SacreBLEU
   2.6.0, without evaluate's Arrow round trip (which only adds to the baseline). With
   ``evaluate`` installed, ``evaluate.load(module_path("sacrebleu"))`` is also timed.
3. Sentence BLEU of a batch of 256 x 128 token ids (RL rewards): torchmetrics'
   ``sacre_bleu_score`` per sentence (``tokenize="none"`` on the ids as text) and an NLTK
   ``sentence_bleu`` loop (the usual reward code) against ``BLEU.sentence_scores_ids`` and the
   torch counting path on CPU.

Every row checks that both sides agree (or says how they differ) before timing. Prints a Markdown
table of median timings and ratios; timings on a shared machine are noisy, ratios less so.
"""

from __future__ import annotations

import argparse
import statistics
import warnings
from typing import Any

import numpy as np
import sacrebleu

import parbleu
from common import WMT, Table, en_de, median_time
from parbleu.integrations.evaluate import hub_result


def _per_prediction(streams: list[list[str]]) -> list[list[str]]:
    return [list(t) for t in zip(*streams)]


def bench_torchmetrics(
    table: Table,
    systems: dict[str, list[str]],
    ref: list[str],
    runs: int,
    skip_ter: bool,
    only: list[str] | None = None,
) -> None:
    import torchmetrics.text as tmt

    from parbleu.integrations import torchmetrics as ptm

    target = _per_prediction([ref])
    pairs = [
        ("SacreBLEUScore", tmt.SacreBLEUScore, ptm.SacreBLEUScore),
        ("CHRFScore", tmt.CHRFScore, ptm.CHRFScore),
    ]
    if not skip_ter:
        pairs.append(("TranslationEditRate", tmt.TranslationEditRate, ptm.TranslationEditRate))
    if only:
        pairs = [p for p in pairs if p[0] in only]
    for name, theirs, ours in pairs:

        def run(cls: Any) -> list[float]:
            out = []
            for hyp in systems.values():
                m = cls()
                m.update(hyp, target)
                out.append(float(m.compute()))
            return out

        a, b = run(theirs), run(ours)
        diff = max(abs(x - y) for x, y in zip(a, b))
        print(
            f"{name}: largest difference torchmetrics - parbleu (SacreBLEU) = {diff:.3g}",
            flush=True,
        )
        t_theirs = median_time(lambda c=theirs: run(c), 1 if name != "SacreBLEUScore" else runs)
        t_ours = median_time(lambda c=ours: run(c), runs)
        table.add(f"torchmetrics {name}, 20 systems", t_theirs, t_ours, "torchmetrics")
        print("|", " | ".join(table.rows[-1]), "|", flush=True)


def _hub_sacrebleu(predictions: list[str], references: list[list[str]]) -> dict[str, Any]:
    """The hub module's ``_compute`` (huggingface/evaluate metrics/sacrebleu) on SacreBLEU."""
    k = len(references[0])
    streams = [[refs[i] for refs in references] for i in range(k)]
    return hub_result("sacrebleu", sacrebleu.corpus_bleu(predictions, streams))


def bench_evaluate(
    table: Table, systems: dict[str, list[str]], refs: dict[str, list[str]], runs: int
) -> None:
    references = _per_prediction([refs["A"], refs["C"]])
    module = parbleu.evaluate_load("sacrebleu")
    for hyp in systems.values():
        assert module.compute(predictions=hyp, references=references) == _hub_sacrebleu(
            hyp, references
        )

    def hub() -> None:
        for hyp in systems.values():
            _hub_sacrebleu(hyp, references)

    def ours() -> None:
        for hyp in systems.values():
            module.compute(predictions=hyp, references=references)

    t_hub = median_time(hub, runs)
    table.add(
        "evaluate `sacrebleu` module, 20 systems x 2 refs",
        t_hub,
        median_time(ours, runs),
        "hub module on sacrebleu",
    )
    try:
        import evaluate
    except ImportError:
        print("evaluate not installed: evaluate.load(module_path(...)) not timed")
        return
    from parbleu.integrations.evaluate import module_path

    loaded = evaluate.load(module_path("sacrebleu"))

    def via_evaluate() -> None:
        for hyp in systems.values():
            loaded.compute(predictions=hyp, references=references)

    table.add(
        "same, parbleu's module through evaluate.load(path)",
        t_hub,
        median_time(via_evaluate, runs),
        "hub module on sacrebleu",
    )


def bench_ids(table: Table, runs: int) -> None:
    rng = np.random.default_rng(0)
    batch, length, vocab = 256, 128, 1000
    hyp = rng.integers(1, vocab, size=(batch, length))
    ref = hyp.copy()
    noise = rng.random(ref.shape) < 0.3  # 70 % of the tokens kept: realistic overlaps
    ref[noise] = rng.integers(1, vocab, size=int(noise.sum()))
    bleu = parbleu.BLEU(effective_order=True)
    ours = bleu.sentence_scores_ids(hyp, [ref])
    hyp_txt = [" ".join(map(str, r)) for r in hyp.tolist()]
    ref_txt = [" ".join(map(str, r)) for r in ref.tolist()]
    want = [
        sacrebleu.sentence_bleu(h, [r], tokenize="none").score for h, r in zip(hyp_txt, ref_txt)
    ]
    assert ours.tolist() == want

    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    smooth = SmoothingFunction().method1
    hyp_l, ref_l = hyp.tolist(), ref.tolist()

    def nltk_loop() -> list[float]:
        return [sentence_bleu([r], h, smoothing_function=smooth) for h, r in zip(hyp_l, ref_l)]

    # Alternated, one NLTK loop then parbleu per round, so that both see the same machine; the
    # ratio is the median of the rounds' ratios (either time alone varies by a third from run
    # to run here). parbleu's time is that of a batch among 10 scored back to back, as a
    # training loop scores one batch per step: a single call after the second core has idled
    # (NLTK's loop runs on one) pays its wake-up, up to +1 ms here (printed as "first call").
    ratios, t_nltk, t_par, t_first = [], [], [], []

    def ten_batches() -> None:
        for _ in range(10):
            bleu.sentence_scores_ids(hyp, [ref])

    for _ in range(max(runs, 5)):
        t_nltk.append(median_time(nltk_loop, 1))
        t_first.append(median_time(lambda: bleu.sentence_scores_ids(hyp, [ref]), 1))
        t_par.append(median_time(ten_batches, 3) / 10)
        ratios.append(t_nltk[-1] / t_par[-1])
    t_ours = statistics.median(t_par)
    print(
        f"token ids: a first call after NLTK's loop {statistics.median(t_first) * 1e3:.2f} ms "
        f"(median of rounds), back to back {statistics.median(t_par) * 1e3:.2f} ms per batch"
    )
    table.add_raw(
        "sentence BLEU 256x128 ids: NLTK sentence_bleu loop",
        f"{statistics.median(t_nltk):.3f} s (nltk)",
        f"{statistics.median(t_par):.4f} s",
        f"{statistics.median(ratios):,.0f}× (rounds: {min(ratios):,.0f}–{max(ratios):,.0f}×)",
    )
    try:
        import torch
        from torchmetrics.functional.text import sacre_bleu_score
    except ImportError:
        print("torch/torchmetrics not installed: their rows are skipped")
        return

    def tm_loop() -> list[float]:
        return [
            float(sacre_bleu_score([h], [[r]], tokenize="none")) for h, r in zip(hyp_txt, ref_txt)
        ]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table.add(
            "sentence BLEU 256x128 ids: torchmetrics sacre_bleu_score loop",
            median_time(tm_loop, 1),
            t_ours,
            "torchmetrics",
        )
    from parbleu.integrations.torch_ids import sentence_scores_ids_torch

    th, tr = torch.from_numpy(hyp), torch.from_numpy(ref)
    assert sentence_scores_ids_torch(bleu, th, [tr]).tolist() == want
    t_torch = median_time(lambda: sentence_scores_ids_torch(bleu, th, [tr]), max(runs, 5))
    table.add_raw(
        "same, parbleu's torch counting path on CPU",
        "-",
        f"{t_torch:.4f} s",
        f"{t_ours / t_torch:.2f}× the Rust core",
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--segments", type=int, default=0, help="first N segments only (0: all)")
    ap.add_argument("--skip-ter", action="store_true", help="skip torchmetrics' (slow) TER")
    ap.add_argument(
        "--skip-torchmetrics", action="store_true", help="skip section 1 (torchmetrics' metrics)"
    )
    ap.add_argument(
        "--torchmetrics-only",
        nargs="+",
        metavar="NAME",
        help="section 1 for these metrics only (SacreBLEUScore CHRFScore TranslationEditRate)",
    )
    ap.add_argument(
        "--skip-evaluate", action="store_true", help="skip section 2 (evaluate modules)"
    )
    ap.add_argument("--skip-ids", action="store_true", help="skip section 3 (token ids)")
    args = ap.parse_args()
    systems, refs = en_de()
    if args.segments:
        systems = {k: v[: args.segments] for k, v in systems.items()}
        refs = {k: v[: args.segments] for k, v in refs.items()}
    print(f"{len(systems)} systems x {len(refs['A'])} segments from {WMT}")
    table = Table("Integrations")
    try:
        if not args.skip_torchmetrics:
            bench_torchmetrics(
                table, systems, refs["A"], args.runs, args.skip_ter, args.torchmetrics_only
            )
    except ImportError:
        print("torch/torchmetrics not installed: torchmetrics rows skipped")
    if not args.skip_evaluate:
        bench_evaluate(table, systems, refs, args.runs)
    if not args.skip_ids:
        bench_ids(table, args.runs)
    print(table.markdown())


if __name__ == "__main__":
    main()
