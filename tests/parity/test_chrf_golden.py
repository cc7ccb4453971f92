"""chrF / chrF++ against SacreBLEU 2.6.0's recorded outputs (golden data).

Every chrF record of ``sacrebleu/chrf_corpus.jsonl``, ``sacrebleu/chrf_sentence.jsonl``,
``sacrebleu/signatures.jsonl`` and ``edge_cases/sacrebleu.jsonl``, and every ``chrf-*`` row of
``wmt21_official_vs_sacrebleu.tsv`` (all are reproduced by SacreBLEU; the ``refs`` column gives
the reference order, which matters: ties between references go to the first).
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parbleu
from helpers import SHARED, records, requires_shared, sacre_version

pytestmark = requires_shared


@functools.lru_cache(maxsize=512)
def read_lines(rel: str) -> tuple[str, ...]:
    """Lines as the golden records read them: split on '\\n' only, so a CR stays in the line.

    (``helpers.read_lines`` decodes with universal newlines, which turns CRLF into LF.)
    """
    parts = (SHARED / rel).read_bytes().decode("utf-8").split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return tuple(parts)


def load_refs(rec: dict[str, Any]) -> list[list[str | None]]:
    """Reference streams of a record (lines listed in ``refs_none_lines`` become None)."""
    streams: list[list[str | None]] = [list(read_lines(r)) for r in rec["refs"]]
    for key, idxs in (rec.get("refs_none_lines") or {}).items():
        k = next(j for j, p in enumerate(rec["refs"]) if f"ref.{key}." in p)
        for i in idxs:
            streams[k][i] = None
    return streams


def _records(path: str, metric: str = "chrf") -> dict[str, dict[str, Any]]:
    try:
        return {r["id"]: r for r in records(path) if r["metric"] == metric}
    except FileNotFoundError:
        return {}


def _check_signature(rec: dict[str, Any], m: parbleu.CHRF) -> None:
    sig = m.get_signature()
    assert sacre_version(sig.format()) == rec["signature"]
    assert sacre_version(sig.format(short=True)) == rec["signature_short"]


CORPUS = _records("sacrebleu/chrf_corpus.jsonl")


@pytest.mark.parametrize("rid", sorted(CORPUS))
def test_corpus_record(rid: str) -> None:
    rec = CORPUS[rid]
    hyps = list(read_lines(rec["hyp"]))
    refs = load_refs(rec)
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
    assert score.score == pytest.approx(rec["score"], rel=0, abs=1e-9)
    assert str(score) == rec["formatted"]
    if "name" in rec:
        assert score.name == rec["name"]
    stats = m.extract_stats(hyps, refs)
    assert stats.dtype == np.int64
    if "stats_raw" in rec:
        assert stats.sum(axis=0).tolist() == rec["stats_raw"]
    # Finalizing the statistics gives the same score, bit for bit.
    assert m.score_from_stats(stats).score == score.score
    if "signature" in rec:
        _check_signature(rec, m)


SENT = _records("sacrebleu/chrf_sentence.jsonl")


@functools.cache
def _sentence_stats(rid: str) -> list[list[int]]:
    return list(SENT[rid]["stats"])


@pytest.mark.parametrize("rid", sorted(SENT))
def test_sentence_record(rid: str) -> None:
    rec = SENT[rid]
    hyps = list(read_lines(rec["hyp"]))
    refs = load_refs(rec)
    m = parbleu.CHRF(**rec["options"])
    batch = m.sentence_scores(hyps, refs)
    assert batch.dtype == np.float64
    assert len(batch) == rec["n_segments"]
    assert batch.tolist() == pytest.approx(rec["scores"], rel=0, abs=1e-9)
    assert float(np.mean(batch)) == pytest.approx(rec["mean_score"], rel=0, abs=1e-9)
    stats = m.extract_stats(hyps, refs).tolist()
    assert stats == _sentence_stats(rec.get("stats_same_as", rid))
    # The per-sentence API on a sample of segments (each one a one-segment corpus).
    for i in range(0, len(hyps), 97):
        s = m.sentence_score(hyps[i], [r[i] for r in refs])
        assert s.score == pytest.approx(rec["scores"][i], rel=0, abs=1e-9)
    _check_signature(rec, m)


EDGE = _records("edge_cases/sacrebleu.jsonl")


@pytest.mark.parametrize("rid", sorted(EDGE))
def test_edge_case(rid: str) -> None:
    rec = EDGE[rid]
    hyps = list(read_lines(rec["hyp"]))
    refs = load_refs(rec)
    m = parbleu.CHRF(**rec["options"])
    if rec["level"] == "corpus":
        score = m.corpus_score(hyps, refs)
        assert score.score == pytest.approx(rec["score"], rel=0, abs=1e-9)
        assert str(score) == rec["formatted"]
        assert score.name == rec["name"]
        stats = m.extract_stats(hyps, refs)
        assert stats.tolist() == rec["segment_stats"]
        assert stats.sum(axis=0).tolist() == rec["stats_raw"]
        _check_signature(rec, m)
    else:
        got = [m.sentence_score(h, [r[i] for r in refs]) for i, h in enumerate(hyps)]
        assert [s.score for s in got] == pytest.approx(rec["scores"], rel=0, abs=1e-9)
        assert [s.name for s in got] == [s["name"] for s in rec["segments"]]
        # SacreBLEU's signature after the loop reflects the last segment's reference count.
        _check_signature(rec, m)
        batch = m.sentence_scores(hyps, refs)
        assert batch.tolist() == pytest.approx(rec["scores"], rel=0, abs=1e-9)


SIGS = _records("sacrebleu/signatures.jsonl")


@pytest.mark.parametrize("rid", sorted(SIGS))
def test_signature_record(rid: str) -> None:
    rec = SIGS[rid]
    m = parbleu.CHRF(**rec["options"])
    inp = rec["inputs_inline"]
    if "n_bootstrap" in rec["api"]:
        score = m.corpus_score(inp["hyps"], inp["refs"], n_bootstrap=100)
    else:
        score = m.corpus_score(inp["hyps"], inp["refs"])
    sig = m.get_signature()
    _check_signature(rec, m)
    assert score.name == rec["score_name"]
    assert sacre_version(score.format(signature=sig.format())) == rec["score_line"]
    line_w1 = score.format(width=1, signature=sig.format(short=True))
    assert sacre_version(line_w1) == rec["score_line_short_w1"]


# --- the official WMT21 table ---------------------------------------------------------------
WMT = SHARED / "data" / "wmt21"


def _tsv_rows() -> list[dict[str, str]]:
    path = SHARED / "golden" / "wmt21_official_vs_sacrebleu.tsv"
    if not path.exists():
        return []
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [r for r in rows if r["metric"].startswith("chrf-")]


def _file(kind: str, pair: str, name: str) -> str:
    tag = "hyp" if kind == "system-outputs" else "ref"
    found = sorted((WMT / kind).glob(f"*.{pair}.{tag}.{name}.*"))
    assert len(found) == 1, (kind, pair, name, found)
    return str(Path(found[0]).relative_to(SHARED))


TSV = _tsv_rows()
REPRODUCED = [r for r in TSV if r["match_1e-6"] == "yes"]


@functools.lru_cache(maxsize=64)
def _chrf_with_refs(pair: str, refs: str) -> parbleu.CHRF:
    streams = [list(read_lines(_file("references", pair, x))) for x in refs.split("+")]
    return parbleu.CHRF(references=streams)


def test_table_is_covered() -> None:
    assert len(TSV) > 600
    assert len(REPRODUCED) == len(TSV)


@pytest.mark.parametrize(
    "row", REPRODUCED, ids=[f"{r['pair']}:{r['system']}:{r['metric']}" for r in REPRODUCED]
)
def test_wmt21_official_chrf(row: dict[str, str]) -> None:
    m = _chrf_with_refs(row["pair"], row["refs"])
    hyps = list(read_lines(_file("system-outputs", row["pair"], row["system"])))
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
