"""The official WMT21 BLEU table (data/wmt21/automatic-scores.tsv of the test data), row by row.

``golden/wmt21_official_vs_sacrebleu.tsv`` records, for each row, whether SacreBLEU
2.6 reproduces it and with which tokenizer (the table scores Japanese with ``char``). Every
row SacreBLEU reproduces must be reproduced by parbleu.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import parbleu
from helpers import SHARED, read_lines, require, requires_shared

pytestmark = requires_shared

WMT = SHARED / "data" / "wmt21"


def _rows() -> list[dict[str, str]]:
    path = SHARED / "golden" / "wmt21_official_vs_sacrebleu.tsv"
    if not path.exists():
        return []
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _file(kind: str, pair: str, name: str) -> str:
    found = sorted(
        (WMT / kind).glob(f"*.{pair}.{'hyp' if kind == 'system-outputs' else 'ref'}.{name}.*")
    )
    assert len(found) == 1, (kind, pair, name, found)
    return str(Path(found[0]).relative_to(SHARED))


ROWS = [r for r in _rows() if r["metric"].startswith("bleu-")]
REPRODUCIBLE = [r for r in ROWS if r["match_1e-6"] == "yes" or r["reproduced_with_tokenize"]]

_cache: dict[tuple[str, str, str], parbleu.BLEU] = {}


def _metric(pair: str, refs: str, tok: str) -> parbleu.BLEU:
    key = (pair, refs, tok)
    if key not in _cache:
        streams = [list(read_lines(_file("references", pair, x))) for x in refs.split("+")]
        _cache[key] = parbleu.BLEU(tokenize=tok, references=streams)
    return _cache[key]


def test_table_is_covered() -> None:
    # Every BLEU row is either reproduced by SacreBLEU or recorded as not reproduced.
    assert len(ROWS) > 600
    assert len(REPRODUCIBLE) == len(ROWS)


@pytest.mark.parametrize(
    "row", REPRODUCIBLE, ids=[f"{r['pair']}:{r['system']}:{r['metric']}" for r in REPRODUCIBLE]
)
def test_official_bleu_row(row: dict[str, str]) -> None:
    tok = row["reproduced_with_tokenize"] or row["tokenize"]
    if tok == "ja-mecab":
        require("MeCab")
    m = _metric(row["pair"], row["refs"], tok)
    hyps = list(read_lines(_file("system-outputs", row["pair"], row["system"])))
    score = m.corpus_score(hyps, None)
    assert score.score == pytest.approx(float(row["official"]), rel=0, abs=1e-9)
