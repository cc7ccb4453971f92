"""spBLEU: corpus BLEU with a SentencePiece tokenizer, parbleu against SacreBLEU 2.6.

    python benchmarks/bench_spm.py [--runs 3] [--vocab 4000]

A SentencePiece model is trained on the WMT21 en-de references (the real flores200 model is
not downloaded: no network) and placed where both tools look for the ``flores200`` model
(``$SACREBLEU/models/flores200sacrebleuspm`` in a temporary cache). Workload: corpus BLEU of
each of the 20 WMT21 en-de systems against reference A, a fresh metric per run (so neither
tool reuses tokenized text between runs). Both tools tokenize with the same model; parbleu
encodes each corpus in one SentencePiece batch call. Prints a Markdown table with the ratio.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import tempfile
from pathlib import Path

import sacrebleu
import sacrebleu.tokenizers.tokenizer_spm as sb_spm
import sentencepiece as spm

import parbleu
from common import Table, en_de, median_time

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
logging.getLogger("parbleu").setLevel(logging.ERROR)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--vocab", type=int, default=4000)
    args = ap.parse_args()

    systems, refs = en_de()
    ref = refs["A"]
    cache = Path(tempfile.mkdtemp(prefix="bench-spm-"))
    (cache / "models").mkdir()
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(ref + refs["C"]), model_writer=model, vocab_size=args.vocab,
        minloglevel=2,
    )  # fmt: skip
    (cache / "models" / "flores200sacrebleuspm").write_bytes(model.getvalue())
    os.environ["SACREBLEU"] = str(cache)
    sb_spm.SACREBLEU_DIR = str(cache)

    def run_sacrebleu() -> list[float]:
        m = sacrebleu.BLEU(tokenize="flores200")
        return [m.corpus_score(h, [ref]).score for h in systems.values()]

    def run_parbleu() -> list[float]:
        m = parbleu.BLEU(tokenize="flores200")
        return [m.corpus_score(h, [ref]).score for h in systems.values()]

    def cached_sacrebleu() -> list[float]:
        m = sacrebleu.BLEU(tokenize="flores200", references=[ref])
        return [m.corpus_score(h, None).score for h in systems.values()]

    def cached_parbleu() -> list[float]:
        m = parbleu.BLEU(tokenize="flores200", references=[ref])
        return [m.corpus_score(h, None).score for h in systems.values()]

    n = sum(len(h) for h in systems.values()) // len(systems)
    table = Table(f"spBLEU (flores200 tokenizer, model of {args.vocab} pieces trained here)")
    for what, sb, pb in (
        (f"20 systems × {n:,} segments, ref A given per call", run_sacrebleu, run_parbleu),
        (f"20 systems × {n:,} segments, ref A given once", cached_sacrebleu, cached_parbleu),
    ):
        assert sb() == pb(), "spBLEU scores differ"
        t_sb, t_pb = median_time(sb, args.runs), median_time(pb, args.runs)
        table.add_raw(what, f"{t_sb:.3f} s (sacrebleu)", f"{t_pb:.3f} s", f"{t_sb / t_pb:.2f}×")
    print(table.markdown())


if __name__ == "__main__":
    main()
