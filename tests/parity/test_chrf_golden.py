"""chrF / chrF++ against SacreBLEU 2.6.0's recorded outputs (golden data).

Every chrF record of ``sacrebleu/chrf_corpus.jsonl``, ``sacrebleu/chrf_sentence.jsonl``,
``sacrebleu/signatures.jsonl`` and ``edge_cases/sacrebleu.jsonl``, and every ``chrf-*`` row of
``wmt21_official_vs_sacrebleu.tsv`` (all are reproduced by SacreBLEU; the ``refs`` column gives
the reference order, which matters: ties between references go to the first).
"""

from __future__ import annotations

import functools
from typing import Any

import golden_support as golden
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parbleu
from helpers import (
    check_signature,
    metric_records,
    read_lines,
    requires_shared,
    sacre_version,
    wmt21_file,
    wmt21_row_id,
    wmt21_table,
)

pytestmark = requires_shared


@pytest.mark.parametrize("rec", golden.cases("sacrebleu/chrf_corpus.jsonl", "chrf"))
def test_corpus_record(rec: dict[str, Any]) -> None:
    hyps, refs = golden.record_inputs(rec)
    opts = dict(rec["options"])
    if rec["api"].startswith("sacrebleu.corpus_chrf"):
        score = parbleu.corpus_chrf(hyps, refs, **opts)
        m = parbleu.CHRF(
            **{k: v for k, v in opts.items() if k != "remove_whitespace"},
            whitespace=not opts.get("remove_whitespace", True),
        )
    else:
        m = parbleu.CHRF(**opts)
        score = m.corpus_score(hyps, refs)
    golden.check_corpus_score(rec, score)
    if "name" in rec:
        assert score.name == rec["name"]
    stats = m.extract_stats(hyps, refs)
    assert stats.dtype == np.int64
    if "stats_raw" in rec:
        assert stats.sum(axis=0).tolist() == rec["stats_raw"]
    # Finalizing the statistics gives the same score, bit for bit.
    assert m.score_from_stats(stats).score == score.score
    if "signature" in rec:
        check_signature(rec, m)


SENT = metric_records("sacrebleu/chrf_sentence.jsonl", "chrf")


@functools.cache
def _sentence_stats(rid: str) -> list[list[int]]:
    return list(SENT[rid]["stats"])


@pytest.mark.parametrize("rec", golden.cases("sacrebleu/chrf_sentence.jsonl", "chrf"))
def test_sentence_record(rec: dict[str, Any]) -> None:
    hyps, refs = golden.record_inputs(rec)
    m = parbleu.CHRF(**rec["options"])
    golden.check_sentence_batch(rec, m, hyps, refs)
    stats = m.extract_stats(hyps, refs).tolist()
    assert stats == _sentence_stats(rec.get("stats_same_as", rec["id"]))
    golden.sampled_sentence_scores(rec, m, hyps, refs)
    check_signature(rec, m)


@pytest.mark.parametrize("rec", golden.cases("edge_cases/sacrebleu.jsonl", "chrf"))
def test_edge_case(rec: dict[str, Any]) -> None:
    hyps, refs = golden.record_inputs(rec)
    m = parbleu.CHRF(**rec["options"])
    if rec["level"] == "corpus":
        assert golden.check_edge_corpus(rec, m, hyps, refs).name == rec["name"]
    else:
        got = golden.check_edge_sentences(rec, m, hyps, refs)
        assert [s.name for s in got] == [s["name"] for s in rec["segments"]]


@pytest.mark.parametrize("rec", golden.cases("sacrebleu/signatures.jsonl", "chrf"))
def test_signature_record(rec: dict[str, Any]) -> None:
    score = golden.check_signature_record(rec, parbleu.CHRF(**rec["options"]))
    assert score.name == rec["score_name"]


# --- the official WMT21 table ---------------------------------------------------------------
TSV = wmt21_table("chrf-")
REPRODUCED = [r for r in TSV if r["match_1e-6"] == "yes"]


@functools.lru_cache(maxsize=64)
def _chrf_with_refs(pair: str, refs: str) -> parbleu.CHRF:
    streams = [list(read_lines(wmt21_file("references", pair, x))) for x in refs.split("+")]
    return parbleu.CHRF(references=streams)


def test_table_is_covered() -> None:
    assert len(TSV) > 600
    assert len(REPRODUCED) == len(TSV)


@pytest.mark.parametrize("row", REPRODUCED, ids=[wmt21_row_id(r) for r in REPRODUCED])
def test_wmt21_official_chrf(row: dict[str, str]) -> None:
    m = _chrf_with_refs(row["pair"], row["refs"])
    hyps = list(read_lines(wmt21_file("system-outputs", row["pair"], row["system"])))
    score = m.corpus_score(hyps, None)
    assert score.score == pytest.approx(float(row["sacrebleu_2.6.0"]), rel=0, abs=1e-9)
    assert score.score == pytest.approx(float(row["official"]), rel=0, abs=1e-6)
    assert sacre_version(m.get_signature().format()) == row["signature"]


# --- live SacreBLEU on generated inputs -----------------------------------------------------
PIECES = ["a", "b", "ab", "The", "the", "(x)", "x!", ",y", ".", "...", "é", "É", "ß", "İ", "Σσς"]
PIECES += ["猫", "1,000", "'s", "-", " ", "  ", "\t", "\u00a0", "\u3000", "\x1c", "\u200b", "\r"]

chrf_text = st.lists(st.sampled_from(PIECES), max_size=16).map("".join)


@st.composite
def chrf_corpus(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    n = draw(st.integers(1, 6))
    n_refs = draw(st.integers(1, 3))
    hyps = [draw(chrf_text) for _ in range(n)]
    refs: list[list[str | None]] = [[draw(chrf_text) for _ in range(n)] for _ in range(n_refs)]
    if n_refs > 1:  # a missing reference somewhere (never all of a segment's)
        refs[-1][draw(st.integers(0, n - 1))] = None
    return hyps, refs


CHRF_OPTIONS = st.fixed_dictionaries(
    {
        "char_order": st.integers(0, 7),
        "word_order": st.integers(0, 3),
        "beta": st.sampled_from([0, 1, 2, 3, 0.5, 1.5]),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
).filter(lambda o: o["char_order"] + o["word_order"] > 0)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chrf_corpus(), CHRF_OPTIONS)
def test_generated_against_sacrebleu(
    c: tuple[list[str], list[list[str | None]]], opts: dict[str, Any]
) -> None:
    from sacrebleu.metrics import CHRF as SacreCHRF

    hyps, refs = c
    ours, theirs = parbleu.CHRF(**opts), SacreCHRF(**opts)
    assert ours.extract_stats(hyps, refs).tolist() == theirs._extract_corpus_statistics(hyps, refs)
    want = theirs.corpus_score(hyps, refs)
    got = ours.corpus_score(hyps, refs)
    assert got.score == want.score  # bit-identical
    assert str(got) == str(want)
    assert sacre_version(ours.get_signature().format()) == theirs.get_signature().format()
    sent = ours.sentence_scores(hyps, refs).tolist()
    assert sent == [
        theirs.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)
    ]
