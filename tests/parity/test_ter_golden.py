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

import itertools
from pathlib import Path
from typing import Any

import golden_support as golden
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics.lib_ter import translation_edit_rate
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

import parbleu
from helpers import (
    WMT21,
    check_signature,
    read_lines,
    requires_shared,
)
from parbleu import _core

OPTION_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")
ALL_OPTIONS = [dict(zip(OPTION_NAMES, v)) for v in itertools.product([False, True], repeat=4)]


# --- golden records -------------------------------------------------------------------------
@requires_shared
@pytest.mark.parametrize("rec", golden.cases("sacrebleu/ter_corpus.jsonl", "ter"))
def test_corpus_record(rec: dict[str, Any]) -> None:
    hyps, refs = golden.record_inputs(rec)
    m = parbleu.TER(**rec["options"])
    score = m.corpus_score(hyps, refs)
    golden.check_corpus_score(rec, score)
    assert score.num_edits == rec["num_edits"] and isinstance(score.num_edits, int)
    assert score.ref_length == pytest.approx(rec["ref_length"], rel=0, abs=1e-9)
    stats = m.extract_stats(hyps, refs)
    assert stats.dtype == np.float64
    assert stats.sum(axis=0).tolist() == pytest.approx(rec["stats_raw"], rel=0, abs=1e-9)
    assert m.score_from_stats(stats).score == score.score
    check_signature(rec, m)
    # The compat function gives the same result.
    assert parbleu.corpus_ter(hyps, refs, **rec["options"]).score == score.score


@requires_shared
@pytest.mark.parametrize("rec", golden.cases("sacrebleu/ter_sentence.jsonl", "ter"))
def test_sentence_record(rec: dict[str, Any]) -> None:
    hyps, refs = golden.record_inputs(rec)
    m = parbleu.TER(**rec["options"])
    golden.check_sentence_batch(rec, m, hyps, refs)
    assert m.extract_stats(hyps, refs).tolist() == rec["stats"]
    for i, s in golden.sampled_sentence_scores(rec, m, hyps, refs):
        assert [s.num_edits, s.ref_length] == rec["stats"][i]
    check_signature(rec, m)


@requires_shared
@pytest.mark.parametrize("rec", golden.cases("edge_cases/sacrebleu.jsonl", "ter"))
def test_edge_case(rec: dict[str, Any]) -> None:
    hyps, refs = golden.record_inputs(rec)
    m = parbleu.TER(**rec["options"])
    if rec["level"] == "corpus":
        score = golden.check_edge_corpus(rec, m, hyps, refs)
        assert score.num_edits == rec["num_edits"]
        assert score.ref_length == pytest.approx(rec["ref_length"], rel=0, abs=1e-9)
    else:
        got = golden.check_edge_sentences(rec, m, hyps, refs)
        want = [(s["num_edits"], s["ref_length"]) for s in rec["segments"]]
        assert [(s.num_edits, s.ref_length) for s in got] == want


@requires_shared
@pytest.mark.parametrize("rec", golden.cases("sacrebleu/signatures.jsonl", "ter"))
def test_signature_record(rec: dict[str, Any]) -> None:
    golden.check_signature_record(rec, parbleu.TER(**rec["options"]))


# --- live SacreBLEU on every WMT21 en-de system --------------------------------------------
SYSTEMS = sorted(p.name for p in (WMT21 / "system-outputs").glob("newstest2021.en-de.hyp.*.de"))
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
    if not WMT21.is_dir():
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
