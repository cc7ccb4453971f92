"""Checks shared by the BLEU, chrF and TER golden tests (SacreBLEU 2.6.0's recorded outputs).

Each helper asserts what the metrics' records hold in the same fields; the tests add the
fields only one metric has (chrF's ``name``, TER's ``num_edits`` and ``ref_length``); BLEU's
records use only the inputs and the cases.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from helpers import check_signature, load_refs, metric_records, read_lines, sacre_version

#: Every how-many-th segment the per-sentence API is checked on (each a one-segment corpus).
SENTENCE_SAMPLE_STEP = 97


def cases(rel: str, metric: str) -> list[Any]:
    """The metric's records of a golden file as test parameters, sorted and named by id."""
    by_id = metric_records(rel, metric)
    return [pytest.param(by_id[rid], id=rid) for rid in sorted(by_id)]


def record_inputs(rec: dict[str, Any]) -> tuple[list[str], list[list[str | None]]]:
    """The hypotheses and reference streams a record was scored on."""
    return list(read_lines(rec["hyp"])), load_refs(rec)


def check_corpus_score(rec: dict[str, Any], score: Any) -> None:
    """The corpus score and its printed form equal the record's."""
    assert score.score == pytest.approx(rec["score"], rel=0, abs=1e-9)
    assert str(score) == rec["formatted"]


def check_sentence_batch(rec: dict[str, Any], m: Any, hyps: list[str], refs: Any) -> None:
    """``sentence_scores`` gives the record's scores, count and mean, as float64."""
    batch = m.sentence_scores(hyps, refs)
    assert batch.dtype == np.float64
    assert len(batch) == rec["n_segments"]
    assert batch.tolist() == pytest.approx(rec["scores"], rel=0, abs=1e-9)
    assert float(np.mean(batch)) == pytest.approx(rec["mean_score"], rel=0, abs=1e-9)


def sampled_sentence_scores(
    rec: dict[str, Any], m: Any, hyps: list[str], refs: list[list[str | None]]
) -> list[tuple[int, Any]]:
    """``sentence_score`` on a sample of segments, each checked against the record's score."""
    out = []
    for i in range(0, len(hyps), SENTENCE_SAMPLE_STEP):
        s = m.sentence_score(hyps[i], [r[i] for r in refs])
        assert s.score == pytest.approx(rec["scores"][i], rel=0, abs=1e-9)
        out.append((i, s))
    return out


def check_edge_corpus(
    rec: dict[str, Any], m: Any, hyps: list[str], refs: list[list[str | None]]
) -> Any:
    """A corpus-level edge case: score, printed form, statistics, signature; returns the score."""
    score = m.corpus_score(hyps, refs)
    check_corpus_score(rec, score)
    stats = m.extract_stats(hyps, refs)
    assert stats.tolist() == rec["segment_stats"]
    assert stats.sum(axis=0).tolist() == pytest.approx(rec["stats_raw"], rel=0, abs=1e-9)
    check_signature(rec, m)
    return score


def check_edge_sentences(
    rec: dict[str, Any], m: Any, hyps: list[str], refs: list[list[str | None]]
) -> list[Any]:
    """A sentence-level edge case: ``sentence_score`` on every segment in turn (as SacreBLEU's
    users loop), then the signature and ``sentence_scores``; returns the loop's scores."""
    got = [m.sentence_score(h, [r[i] for r in refs]) for i, h in enumerate(hyps)]
    assert [s.score for s in got] == pytest.approx(rec["scores"], rel=0, abs=1e-9)
    # SacreBLEU's signature after the loop reflects the last segment's reference count.
    check_signature(rec, m)
    batch = m.sentence_scores(hyps, refs)
    assert batch.tolist() == pytest.approx(rec["scores"], rel=0, abs=1e-9)
    return got


def check_signature_record(rec: dict[str, Any], m: Any) -> Any:
    """A record of ``signatures.jsonl``: the signatures and both score lines; returns the score."""
    inp = rec["inputs_inline"]
    bootstrap = {"n_bootstrap": 100} if "n_bootstrap" in rec["api"] else {}
    score = m.corpus_score(inp["hyps"], inp["refs"], **bootstrap)
    sig = m.get_signature()
    check_signature(rec, m)
    assert sacre_version(score.format(signature=sig.format())) == rec["score_line"]
    line_w1 = score.format(width=1, signature=sig.format(short=True))
    assert sacre_version(line_w1) == rec["score_line_short_w1"]
    return score
