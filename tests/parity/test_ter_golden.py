"""TER against SacreBLEU 2.6.0: recorded outputs (golden data) and SacreBLEU itself.

* Every TER record of ``sacrebleu/ter_corpus.jsonl``, ``sacrebleu/ter_sentence.jsonl``,
  ``sacrebleu/signatures.jsonl`` and ``edge_cases/sacrebleu.jsonl``.
* Every WMT21 en-de system against live SacreBLEU (imported as the oracle). SacreBLEU's TER
  runs at ~150-200 segments/s, so the whole test set of 20 systems (~2 minutes) is too slow
  for CI: the golden files cover full corpora (Online-W with refs A and A+C+D, all options),
  and each system is compared on a deterministic sample of 167 segments (every 6th segment,
  the offset chosen by the system's index), segment statistics compared exactly.
* Generated inputs with repeated words and block moves, where the choice among equally good
  shifts (SacreBLEU's ranking: gain, length, earliest start, earliest target) and the beam
  decide the result; and the Tercom tokenizer on generated strings and on real data.
"""

from __future__ import annotations

import functools
import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics.lib_ter import translation_edit_rate
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

import parbleu
from helpers import SHARED, records, requires_shared, sacre_version
from parbleu import _core

OPTION_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")
ALL_OPTIONS = [dict(zip(OPTION_NAMES, v)) for v in itertools.product([False, True], repeat=4)]


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


def _records(path: str) -> dict[str, dict[str, Any]]:
    if not (SHARED / "golden").is_dir():
        return {}
    return {r["id"]: r for r in records(path) if r["metric"] == "ter"}


def _check_signature(rec: dict[str, Any], m: parbleu.TER) -> None:
    sig = m.get_signature()
    assert sacre_version(sig.format()) == rec["signature"]
    assert sacre_version(sig.format(short=True)) == rec["signature_short"]


# --- golden records -------------------------------------------------------------------------
CORPUS = _records("sacrebleu/ter_corpus.jsonl")


@requires_shared
@pytest.mark.parametrize("rid", sorted(CORPUS))
def test_corpus_record(rid: str) -> None:
    rec = CORPUS[rid]
    hyps = list(read_lines(rec["hyp"]))
    refs = load_refs(rec)
    m = parbleu.TER(**rec["options"])
    score = m.corpus_score(hyps, refs)
    assert score.score == pytest.approx(rec["score"], rel=0, abs=1e-9)
    assert score.num_edits == rec["num_edits"] and isinstance(score.num_edits, int)
    assert score.ref_length == pytest.approx(rec["ref_length"], rel=0, abs=1e-9)
    assert str(score) == rec["formatted"]
    stats = m.extract_stats(hyps, refs)
    assert stats.dtype == np.float64
    assert stats.sum(axis=0).tolist() == pytest.approx(rec["stats_raw"], rel=0, abs=1e-9)
    assert m.score_from_stats(stats).score == score.score
    _check_signature(rec, m)
    # The compat function gives the same result.
    assert parbleu.corpus_ter(hyps, refs, **rec["options"]).score == score.score


SENT = _records("sacrebleu/ter_sentence.jsonl")


@requires_shared
@pytest.mark.parametrize("rid", sorted(SENT))
def test_sentence_record(rid: str) -> None:
    rec = SENT[rid]
    hyps = list(read_lines(rec["hyp"]))
    refs = load_refs(rec)
    m = parbleu.TER(**rec["options"])
    batch = m.sentence_scores(hyps, refs)
    assert batch.dtype == np.float64
    assert len(batch) == rec["n_segments"]
    assert batch.tolist() == pytest.approx(rec["scores"], rel=0, abs=1e-9)
    assert float(np.mean(batch)) == pytest.approx(rec["mean_score"], rel=0, abs=1e-9)
    assert m.extract_stats(hyps, refs).tolist() == rec["stats"]
    for i in range(0, len(hyps), 97):
        s = m.sentence_score(hyps[i], [r[i] for r in refs])
        assert s.score == pytest.approx(rec["scores"][i], rel=0, abs=1e-9)
        assert [s.num_edits, s.ref_length] == rec["stats"][i]
    _check_signature(rec, m)


EDGE = _records("edge_cases/sacrebleu.jsonl")


@requires_shared
@pytest.mark.parametrize("rid", sorted(EDGE))
def test_edge_case(rid: str) -> None:
    rec = EDGE[rid]
    hyps = list(read_lines(rec["hyp"]))
    refs = load_refs(rec)
    m = parbleu.TER(**rec["options"])
    if rec["level"] == "corpus":
        score = m.corpus_score(hyps, refs)
        assert score.score == pytest.approx(rec["score"], rel=0, abs=1e-9)
        assert score.num_edits == rec["num_edits"]
        assert score.ref_length == pytest.approx(rec["ref_length"], rel=0, abs=1e-9)
        assert str(score) == rec["formatted"]
        stats = m.extract_stats(hyps, refs)
        assert stats.tolist() == rec["segment_stats"]
        assert stats.sum(axis=0).tolist() == pytest.approx(rec["stats_raw"], rel=0, abs=1e-9)
        _check_signature(rec, m)
    else:
        got = [m.sentence_score(h, [r[i] for r in refs]) for i, h in enumerate(hyps)]
        assert [s.score for s in got] == pytest.approx(rec["scores"], rel=0, abs=1e-9)
        want = [(s["num_edits"], s["ref_length"]) for s in rec["segments"]]
        assert [(s.num_edits, s.ref_length) for s in got] == want
        _check_signature(rec, m)
        batch = m.sentence_scores(hyps, refs)
        assert batch.tolist() == pytest.approx(rec["scores"], rel=0, abs=1e-9)


SIGS = _records("sacrebleu/signatures.jsonl")


@requires_shared
@pytest.mark.parametrize("rid", sorted(SIGS))
def test_signature_record(rid: str) -> None:
    rec = SIGS[rid]
    m = parbleu.TER(**rec["options"])
    inp = rec["inputs_inline"]
    if "n_bootstrap" in rec["api"]:
        score = m.corpus_score(inp["hyps"], inp["refs"], n_bootstrap=100)
    else:
        score = m.corpus_score(inp["hyps"], inp["refs"])
    sig = m.get_signature()
    _check_signature(rec, m)
    assert sacre_version(score.format(signature=sig.format())) == rec["score_line"]
    line_w1 = score.format(width=1, signature=sig.format(short=True))
    assert sacre_version(line_w1) == rec["score_line_short_w1"]


# --- live SacreBLEU on every WMT21 en-de system --------------------------------------------
WMT = SHARED / "data" / "wmt21"
SYSTEMS = sorted(p.name for p in (WMT / "system-outputs").glob("newstest2021.en-de.hyp.*.de"))
SAMPLE_EVERY = 6


@pytest.mark.slow
@requires_shared
@pytest.mark.parametrize("k", range(len(SYSTEMS)), ids=[s.split(".")[3] for s in SYSTEMS])
def test_wmt21_en_de_against_sacrebleu(k: int) -> None:
    hyps = read_lines(str(Path("data/wmt21/system-outputs") / SYSTEMS[k]))
    ref = read_lines("data/wmt21/references/newstest2021.en-de.ref.A.de")
    idx = list(range(k % SAMPLE_EVERY, len(hyps), SAMPLE_EVERY))
    h = [hyps[i] for i in idx]
    r = [ref[i] for i in idx]
    want = SacreTER()._extract_corpus_statistics(h, [r])
    got = parbleu.TER().extract_stats(h, [r])
    assert got.tolist() == want


def test_wmt21_systems_found() -> None:
    if not WMT.is_dir():
        pytest.skip("no shared data")
    assert len(SYSTEMS) == 20


# --- generated inputs -----------------------------------------------------------------------
def _sacre_stats(hyp: str, refs: list[str], **opts: bool) -> list[Any]:
    m = SacreTER(**opts)
    out: list[Any] = m._extract_corpus_statistics([hyp], [[r] for r in refs])[0]
    return out


VOCAB = ["a", "b", "c", "d", "e", "the", "A", "b."]


@st.composite
def shuffled_blocks(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A reference of repeated words and a hypothesis made of its blocks, moved and edited."""
    ref = draw(st.lists(st.sampled_from(VOCAB[:5]), min_size=0, max_size=30))
    cuts = sorted(draw(st.lists(st.integers(0, len(ref)), max_size=4)))
    blocks = [ref[i:j] for i, j in zip([0, *cuts], [*cuts, len(ref)])]
    order = draw(st.permutations(range(len(blocks))))
    hyp = [w for b in order for w in blocks[b]]
    for _ in range(draw(st.integers(0, 3))):  # a few substitutions, insertions, deletions
        op = draw(st.sampled_from(["sub", "ins", "del"]))
        pos = draw(st.integers(0, max(len(hyp) - 1, 0)))
        w = draw(st.sampled_from(VOCAB))
        if op == "ins":
            hyp.insert(pos, w)
        elif hyp and op == "sub":
            hyp[pos] = w
        elif hyp:
            del hyp[pos]
    other = draw(st.lists(st.sampled_from(VOCAB), max_size=12))
    refs = [" ".join(ref)] + ([" ".join(other)] if draw(st.booleans()) else [])
    return " ".join(hyp), refs


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shuffled_blocks())
def test_shifts_match_sacrebleu(case: tuple[str, list[str]]) -> None:
    hyp, refs = case
    m = parbleu.TER()
    assert m.extract_stats([hyp], [[r] for r in refs]).tolist() == [_sacre_stats(hyp, refs)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(VOCAB[:4]), min_size=0, max_size=3),
    st.lists(st.sampled_from(VOCAB[:4]), min_size=40, max_size=130),
    st.booleans(),
)
def test_very_different_lengths(short: list[str], long: list[str], swap: bool) -> None:
    # Length ratios above 50 widen SacreBLEU's beam; below, the beam cuts the matrix.
    hyp, ref = (" ".join(long), " ".join(short)) if swap else (" ".join(short), " ".join(long))
    assert parbleu.TER().extract_stats([hyp], [[ref]]).tolist() == [_sacre_stats(hyp, [ref])]


# (seed, length, vocabulary, moved blocks): chosen so that SacreBLEU reaches its limit of 1000
# shift candidates in the first round, or only after several shifts, and so that the beam is
# narrower than the row (reference length + 1 > 50).
LONG_CASES = [
    (1, 30, "ab", 1),
    (5, 55, "ab", 1),
    (0, 45, "abcdefghij", 4),
    (5, 45, "abcdefghij", 4),
    (4, 60, "abcdefghijkl", 4),
    (6, 60, "abcdefghijkl", 4),
    (11, 60, "abcdefghijkl", 4),
]


def _long_case(seed: int, n: int, vocab: str, cuts: int) -> tuple[list[str], list[str]]:
    import random

    rng = random.Random(seed)
    ref = [rng.choice(vocab) for _ in range(n)]
    if cuts == 1:
        hyp = ref[n // 3 :] + ref[: n // 3]
    else:
        at = sorted(rng.sample(range(1, n), cuts))
        blocks = [ref[i:j] for i, j in zip([0, *at], [*at, n])]
        rng.shuffle(blocks)
        hyp = [w for b in blocks for w in b]
    hyp = [w if rng.random() > 0.1 else "z" for w in hyp]
    return hyp, ref


def test_long_sentences_with_many_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    from sacrebleu.metrics import lib_ter

    seen: list[tuple[int, int]] = []  # (shift rounds, candidates) per case
    orig = lib_ter._shift

    def counting_shift(*args: Any) -> Any:
        out = orig(*args)
        seen[-1] = (seen[-1][0] + 1, out[2])
        return out

    monkeypatch.setattr(lib_ter, "_shift", counting_shift)
    for case in LONG_CASES:
        hyp, ref = _long_case(*case)
        seen.append((0, 0))
        want = translation_edit_rate(hyp, ref)
        h, r = " ".join(hyp), " ".join(ref)
        got = parbleu.TER(case_sensitive=True).extract_stats([h], [[r]])[0].tolist()
        assert got == [want[0], want[1]], case
    # The cases exercise what they are meant to.
    assert any(rounds == 1 and cands >= 1000 for rounds, cands in seen)
    assert any(rounds > 1 and cands >= 1000 for rounds, cands in seen)
    assert any(rounds >= 5 for rounds, _ in seen)


def test_tie_between_references_goes_to_fewest_edits_first() -> None:
    m = parbleu.TER()
    # Both references need one edit; the mean length is over all references.
    assert m.extract_stats(["a b c"], [["a b d"], ["x b c e f"]]).tolist() == [[1.0, 4.0]]
    assert m.extract_stats(["a b c"], [[""], ["a b c"]]).tolist() == [[0.0, 1.5]]


# --- the Tercom tokenizer -------------------------------------------------------------------
# fmt: off
TOKENS = [
    "a", "B", "It's", "'s", "1", "3.5", "1,000", "x-1", "4-", "-", ".", ",", ";", "!", "?",
    '"', "(", ")", "[", "]", "{", "}", "/", "\\", "&", "&amp;", "&quot;", "&lt;", "&gt;", "#",
    "@", "~", "`", "^", "_", "|", "<", ">", "=", "+", "*", "%", "$", "\n", "\n-", "\t", "\r",
    " ", "  ", "\u00a0", "\u3000", "\x1c", "日本", "語", "ひらがな", "カタカナ", "ㇰ", "。", "、",
    "「", "」", "・", "！", "（", "）", "．", "，", "｡", "㈱", "㍻", "豈", "︰", "⺀", "Σ", "İ",
    "ß", "ﬁ", "é", "\u0301", "…", "—", "’s",
]
# fmt: on

tercom_text = st.lists(st.sampled_from(TOKENS), max_size=14).map("".join) | st.text(max_size=20)


@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tercom_text, st.sampled_from(ALL_OPTIONS))
def test_tokenizer_matches_sacrebleu(text: str, opts: dict[str, bool]) -> None:
    want = TercomTokenizer(**opts)(text)
    assert _core.tercom_tokenize([text], _core.TerOptions(*(opts[k] for k in OPTION_NAMES))) == [
        want
    ]
    assert parbleu.TER(**opts)._preprocess_segment(text) == SacreTER(**opts)._preprocess_segment(
        text
    )


DATA_FILES = [
    "data/wmt21/references/newstest2021.en-zh.ref.A.zh",
    "data/wmt21/references/newstest2021.en-ja.ref.A.ja",
    "data/wmt21/references/newstest2021.en-de.ref.A.de",
    "data/wmt21/references/newstest2021.zh-en.ref.A.en",
    "data/wmt21/references/newstest2021.en-ru.ref.A.ru",
]


@requires_shared
@pytest.mark.parametrize("rel", DATA_FILES)
def test_tokenizer_on_real_data(rel: str) -> None:
    lines = list(read_lines(rel))
    for opts in ALL_OPTIONS:
        tok = TercomTokenizer(**opts)
        want = [tok(x.rstrip()) for x in lines]
        got = _core.tercom_tokenize(
            [x.rstrip() for x in lines], _core.TerOptions(*(opts[k] for k in OPTION_NAMES))
        )
        assert got == want, opts
