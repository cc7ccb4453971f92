"""The official WMT21 BLEU table (data/wmt21/automatic-scores.tsv of the test data), row by row.

``golden/wmt21_official_vs_sacrebleu.tsv`` records, for each row, whether SacreBLEU
2.6 reproduces it and with which tokenizer (the table scores Japanese with ``char``). Every
row SacreBLEU reproduces must be reproduced by parbleu.
"""

from __future__ import annotations

import pytest

import parbleu
from helpers import read_lines, require, requires_shared, wmt21_file, wmt21_row_id, wmt21_table

pytestmark = requires_shared

ROWS = wmt21_table("bleu-")
REPRODUCIBLE = [r for r in ROWS if r["match_1e-6"] == "yes" or r["reproduced_with_tokenize"]]

_cache: dict[tuple[str, str, str], parbleu.BLEU] = {}


def _metric(pair: str, refs: str, tok: str) -> parbleu.BLEU:
    key = (pair, refs, tok)
    if key not in _cache:
        streams = [list(read_lines(wmt21_file("references", pair, x))) for x in refs.split("+")]
        _cache[key] = parbleu.BLEU(tokenize=tok, references=streams)
    return _cache[key]


def test_table_is_covered() -> None:
    # Every BLEU row is either reproduced by SacreBLEU or recorded as not reproduced.
    assert len(ROWS) > 600
    assert len(REPRODUCIBLE) == len(ROWS)


@pytest.mark.parametrize("row", REPRODUCIBLE, ids=[wmt21_row_id(r) for r in REPRODUCIBLE])
def test_official_bleu_row(row: dict[str, str]) -> None:
    tok = row["reproduced_with_tokenize"] or row["tokenize"]
    if tok == "ja-mecab":
        require("MeCab")
    m = _metric(row["pair"], row["refs"], tok)
    hyps = list(read_lines(wmt21_file("system-outputs", row["pair"], row["system"])))
    score = m.corpus_score(hyps, None)
    assert score.score == pytest.approx(float(row["official"]), rel=0, abs=1e-9)
