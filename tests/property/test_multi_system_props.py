"""Several systems in one call (``Metric.corpus_scores``, ``Metric.extract_stats_many``)
against one system at a time and against SacreBLEU 2.6, at 1 and 2 threads.

chrF has a kernel of its own (each segment's reference tables probed by every system); BLEU
and TER use the generic loop. Either way every system's rows and score must be exactly the
ones it gets alone, which are SacreBLEU's."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prop_strategies import CHRF_OPTIONS

import parbleu
from parbleu.errors import EmptyInputError, InputTypeError, InvalidTextError, LengthMismatchError

sacre = pytest.importorskip("sacrebleu.metrics")

WORDS = ["the", "cat", "sat", ".", ",", "(a)", "dog!", "Σ", "über", "ÜBER", "x-y", "猫", "🙂"]
WORDS += ["", "  ", "a\tb", "\u2028", "İ", "ß", "x" * 30, "é" * 9 + "!"]
TOKEN = st.one_of(st.sampled_from(WORDS), st.text(st.characters(codec="utf-8"), max_size=8))
LINE = st.lists(TOKEN, max_size=10).map(" ".join)


@st.composite
def systems_and_refs(draw: st.DrawFn) -> tuple[list[list[str]], list[list[str | None]]]:
    """Systems (sharing lines with each other and the references) and reference streams.

    Up to 40 segments: the core splits more than 16 into chunks for its threads."""
    n = draw(st.integers(1, 40))
    pool = draw(st.lists(LINE, min_size=1, max_size=5))
    line = st.one_of(LINE, st.sampled_from(pool))
    refs: list[list[str | None]] = [[draw(line) for _ in range(n)]]
    for _ in range(draw(st.integers(0, 2))):
        refs.append([draw(line) if draw(st.integers(0, 4)) else None for _ in range(n)])
    n_sys = draw(st.integers(1, 4))
    systems = [[draw(line) for _ in range(n)] for _ in range(n_sys)]
    return systems, refs


def _check(
    ours: parbleu.metrics.base.Metric[Any],
    theirs: Any,
    systems: list[list[str]],
    refs: list[list[str | None]],
    workers: int,
) -> None:
    many = ours.extract_stats_many(systems, refs, workers=workers)
    scores = ours.corpus_scores(systems, refs, workers=workers)
    assert len(many) == len(scores) == len(systems)
    for hyps, rows, score in zip(systems, many, scores):
        alone = ours.extract_stats(hyps, refs, workers=1)
        assert rows.dtype == alone.dtype and rows.shape == alone.shape
        assert rows.tolist() == alone.tolist()
        want = theirs.corpus_score(hyps, refs)
        assert score.score == want.score  # bit-identical
        assert str(score) == str(want)
        assert score.score == ours.corpus_score(hyps, refs, workers=1).score


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(systems_and_refs(), CHRF_OPTIONS, st.sampled_from([1, 2]))
def test_chrf_many_equals_alone_and_sacrebleu(
    data: tuple[list[list[str]], list[list[str | None]]], opts: dict[str, Any], workers: int
) -> None:
    systems, refs = data
    ours, theirs = parbleu.CHRF(**opts), sacre.CHRF(**opts)
    _check(ours, theirs, systems, refs, workers)
    for hyps, rows in zip(systems, ours.extract_stats_many(systems, refs, workers=workers)):
        assert rows.tolist() == theirs._extract_corpus_statistics(hyps, refs)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(systems_and_refs(), st.sampled_from([1, 2]))
def test_bleu_and_ter_many_equal_alone(
    data: tuple[list[list[str]], list[list[str | None]]], workers: int
) -> None:
    systems, refs = data
    _check(parbleu.BLEU(), sacre.BLEU(), systems, refs, workers)
    _check(parbleu.TER(), sacre.TER(), systems, refs, workers)


def test_cached_references_and_mapping() -> None:
    refs = [["the cat sat .", "a dog"]]
    m = parbleu.CHRF(word_order=2, references=refs)
    systems = {"A": ["the cat sat", "a dog"], "B": ["cat", "dog a"]}
    got = [s.score for s in m.corpus_scores(systems, None)]
    assert got == [m.corpus_score(h, None).score for h in systems.values()]
    assert got == [sacre.CHRF(word_order=2).corpus_score(h, refs).score for h in systems.values()]
    with pytest.raises(LengthMismatchError, match="3 lines but the cached references have 2"):
        m.corpus_scores([["a", "b", "c"]], None)


@pytest.mark.parametrize("metric", [parbleu.CHRF(), parbleu.BLEU(), parbleu.TER()])
def test_clear_errors(metric: parbleu.metrics.base.Metric[Any]) -> None:
    refs = [["a b", "c d"]]
    with pytest.raises(LengthMismatchError, match=r"systems\[1\]: 1 hypothesis but systems\[0\]"):
        metric.corpus_scores([["a", "b"], ["a"]], refs)
    with pytest.raises(InputTypeError, match=r"systems\['y'\]\[1\]"):
        metric.corpus_scores({"x": ["a", "b"], "y": ["a", 3]}, refs)
    with pytest.raises(InputTypeError, match=r"systems\[0\]: got a single str"):
        metric.extract_stats_many(["a b", "c d"], refs)
    with pytest.raises(InputTypeError, match="systems: got a int"):
        metric.corpus_scores(3, refs)  # type: ignore[arg-type]
    with pytest.raises(EmptyInputError, match="systems: empty"):
        metric.corpus_scores([], refs)
    with pytest.raises(EmptyInputError, match=r"systems\[0\]: empty"):
        metric.corpus_scores([[]], refs)
    with pytest.raises(InvalidTextError, match=r"systems\[1\]\[0\]: lone surrogate"):
        metric.corpus_scores([["a", "b"], ["\udc80", "b"]], refs)
