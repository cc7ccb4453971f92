"""BLEU against SacreBLEU 2.6.0's recorded outputs (golden data)."""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

import golden_support as golden
import numpy as np
import pytest

import parbleu
from helpers import (
    parbleu_logging_off,
    require,
    requires_shared,
    sacre_version,
)

pytestmark = requires_shared


def _mecab_ok(options: dict[str, Any]) -> None:
    tok = options.get("tokenize")
    if tok is None:
        # BLEU's default tokenizer of the target language (SacreBLEU's): ja -> ja-mecab,
        # ko -> ko-mecab, which need MeCab as an explicit tokenize= does.
        tok = {"ja": "ja-mecab", "ko": "ko-mecab"}.get(options.get("trg_lang", ""))
    if tok == "ja-mecab":
        require("MeCab")
    if tok == "ko-mecab":
        require("mecab_ko")


def _metric(rec: dict[str, Any]) -> parbleu.BLEU:
    """BLEU with a record's options (skipped when they need a MeCab that is not installed)."""
    _mecab_ok(rec["options"])
    return parbleu.BLEU(**rec["options"])


def _sentence_loop(m: parbleu.BLEU, hyps: list[str], refs: list[list[str | None]]) -> list[float]:
    """``sentence_score`` on every segment in turn, quietly (it would warn once a segment)."""
    with parbleu_logging_off():
        return [m.sentence_score(h, [s[i] for s in refs]).score for i, h in enumerate(hyps)]


def _score(rec: dict[str, Any]) -> tuple[parbleu.BLEUScore, Any]:
    hyps, refs = golden.record_inputs(rec)
    opts = dict(rec["options"])
    _mecab_ok(opts)
    api = rec["api"]
    if api.startswith("sacrebleu.corpus_bleu"):
        return parbleu.corpus_bleu(hyps, refs, **opts), None
    if api.startswith("sacrebleu.raw_corpus_bleu"):
        return parbleu.raw_corpus_bleu(hyps, refs, **opts), None
    if "references=refs" in api:
        m = parbleu.BLEU(**opts, references=refs)
        return m.corpus_score(hyps, None), m
    m = parbleu.BLEU(**opts)
    return m.corpus_score(hyps, refs), m


def expected_signature(sig: str, options: dict[str, Any], short: bool = False) -> str:
    """SacreBLEU's signature plus the max_ngram_order field it omits (its issue #251)."""
    order = options.get("max_ngram_order", 4)
    if order == 4:
        return sig
    head, _, version = sig.rpartition("|")
    return f"{head}|{'n' if short else 'ngram'}:{order}|{version}"


def _check_corpus(rec: dict[str, Any], score: parbleu.BLEUScore, m: Any) -> None:
    assert score.score == pytest.approx(rec["score"], rel=0, abs=1e-9), rec["id"]
    assert score.counts == rec["counts"]
    assert score.totals == rec["totals"]
    assert score.sys_len == rec["sys_len"] and score.ref_len == rec["ref_len"]
    assert score.bp == pytest.approx(rec["bp"], abs=1e-12)
    assert score.precisions == pytest.approx(rec["precisions"], abs=1e-9)
    assert score.ratio == pytest.approx(rec["ratio"], abs=1e-12)
    assert str(score) == rec["formatted"]
    if m is not None and "signature" in rec:
        opts = rec["options"]
        assert sacre_version(m.get_signature().format()) == expected_signature(
            rec["signature"], rec["options"]
        )
        assert sacre_version(m.get_signature().format(short=True)) == expected_signature(
            rec["signature_short"], opts, short=True
        )


@pytest.mark.parametrize("rec", golden.cases("sacrebleu/bleu_corpus.jsonl", "bleu"))
def test_corpus_record(rec: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="parbleu"):
        score, m = _score(rec)
    _check_corpus(rec, score, m)
    if m is not None and "stats_raw" in rec:
        stats = m.extract_stats(*golden.record_inputs(rec))
        assert stats.sum(axis=0).tolist() == rec["stats_raw"]
    expected = Counter()
    for w in rec.get("log_warnings", []):
        expected[w["message"]] += w["count"]
    got = Counter(r.getMessage() for r in caplog.records if r.name == "parbleu")
    assert set(got) == set(expected)


@pytest.mark.parametrize("rec", golden.cases("sacrebleu/wmt21_all_systems.jsonl", "bleu"))
def test_wmt21_all_systems(rec: dict[str, Any]) -> None:
    score, m = _score(rec)
    _check_corpus(rec, score, m)


@pytest.mark.parametrize("rec", golden.cases("sacrebleu/bleu_sentence.jsonl", "bleu"))
def test_sentence_record(rec: dict[str, Any]) -> None:
    hyps, refs = golden.record_inputs(rec)
    m = _metric(rec)
    opts = rec["options"]
    assert _sentence_loop(m, hyps, refs) == pytest.approx(rec["scores"], rel=0, abs=1e-9)
    batch = m.sentence_scores(hyps, refs)
    assert batch.dtype == np.float64
    assert batch.tolist() == pytest.approx(rec["scores"], rel=0, abs=1e-9)
    if "stats" in rec:
        assert m.extract_stats(hyps, refs).tolist() == rec["stats"]
    assert sacre_version(m.get_signature().format()) == expected_signature(rec["signature"], opts)


@pytest.mark.parametrize("rec", golden.cases("edge_cases/sacrebleu.jsonl", "bleu"))
def test_edge_case(rec: dict[str, Any]) -> None:
    hyps, refs = golden.record_inputs(rec)
    m = _metric(rec)
    if rec["level"] == "corpus":
        score = m.corpus_score(hyps, refs)
        _check_corpus(rec, score, m)
        assert m.extract_stats(hyps, refs).tolist() == rec["segment_stats"]
    else:
        got = _sentence_loop(m, hyps, refs)
        assert got == pytest.approx(rec["scores"], rel=0, abs=1e-9)
        # SacreBLEU's signature after the loop reflects the last segment's reference count.
        assert sacre_version(m.get_signature().format()) == expected_signature(
            rec["signature"], rec["options"]
        )
        assert m.sentence_scores(hyps, refs).tolist() == pytest.approx(rec["scores"], abs=1e-9)


@pytest.mark.parametrize("rec", golden.cases("sacrebleu/signatures.jsonl", "bleu"))
def test_signature_record(rec: dict[str, Any]) -> None:
    m = _metric(rec)
    opts = rec["options"]
    inp = rec["inputs_inline"]
    n_bootstrap = 100 if "n_bootstrap" in rec["api"] else 1
    score = m.corpus_score(inp["hyps"], inp["refs"], n_bootstrap=n_bootstrap)
    sig = m.get_signature()
    assert sacre_version(sig.format()) == expected_signature(rec["signature"], opts)
    short = expected_signature(rec["signature_short"], opts, short=True)
    assert sacre_version(sig.format(short=True)) == short
    line = rec["score_line"].replace(rec["signature"], expected_signature(rec["signature"], opts))
    assert sacre_version(score.format(signature=sig.format())) == line
    line_w1 = rec["score_line_short_w1"].replace(rec["signature_short"], short)
    assert sacre_version(score.format(width=1, signature=sig.format(short=True))) == line_w1
