"""An accumulator fed in blocks gives the corpus score's bits (ROUGE's and TER's float rows).

The accumulator used to add each block's column sums to its total: for float rows that is
another order of additions than ``corpus_score``'s row after row, and ROUGE's streamed score
differed in the last bits (0.6629376314811336 against ...333 with 37-line blocks). It now
asks the metric to add the block (``Metric.add_rows``), in the metric's own order.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import parbleu

SAMPLE = Path(parbleu.__file__).parent / "sample"
HYPS = (SAMPLE / "Online-W.de").read_text(encoding="utf-8").splitlines()
REFS = (SAMPLE / "ref.A.de").read_text(encoding="utf-8").splitlines()


def _streamed(m: parbleu.metrics.Metric, block: int) -> parbleu.score.Score:  # type: ignore[type-arg]
    acc = m.accumulator()
    for i in range(0, len(HYPS), block):
        acc.update(HYPS[i : i + block], [REFS[i : i + block]])
    return acc.result()


@pytest.mark.parametrize("block", [1, 7, 37, 100, 499])
def test_rouge_blocks_equal_the_corpus_score(block: int) -> None:
    m = parbleu.ROUGE(tokenize="unicode")
    whole = m.corpus_score(HYPS, [REFS])
    got = _streamed(m, block)
    assert got.mean == whole.mean  # type: ignore[attr-defined]
    assert got.score == whole.score


@pytest.mark.parametrize("block", [7, 37])
def test_ter_and_bleu_blocks_equal_the_corpus_score(block: int) -> None:
    for m in (parbleu.TER(), parbleu.BLEU(), parbleu.CHRF()):
        assert _streamed(m, block).score == m.corpus_score(HYPS, [REFS]).score


def test_block_sums_would_differ() -> None:
    # The old order (each block's column sums, then added) gives other bits on this input:
    # the tests above can fail.
    m = parbleu.ROUGE(tokenize="unicode")
    rows = m.extract_stats(HYPS, [REFS])
    ordered = rows.sum(axis=0)
    blocks = [rows[i : i + 37].sum(axis=0) for i in range(0, len(rows), 37)]
    by_block = np.zeros(rows.shape[1])
    for b in blocks:
        by_block = by_block + b
    assert not np.array_equal(ordered, by_block)
