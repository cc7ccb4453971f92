"""Python's finalize goes through the core's: ``BLEU.compute_bleu`` and ``CHRF._compute_f_score``
against SacreBLEU's on generated statistics (every smoothing, orders 1..6, effective order both
ways, zero counts, huge counts, floats), and which path (core or Python fallback) each form takes.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF

import parbleu
from parbleu import _core

SMALL = st.integers(0, 40)
HUGE = st.integers(2**52, 2**64)  # beyond a float's integers: the Python fallback
COUNT = st.one_of(SMALL, SMALL, SMALL, st.just(0), HUGE)
FLOATISH = st.one_of(COUNT, st.floats(0, 40, allow_nan=False))


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    """The result, or the exception type (SacreBLEU's errors are part of its behaviour)."""
    try:
        return "ok", fn()
    except Exception as e:
        return "error", type(e)


def same_number(a: Any, b: Any) -> bool:
    return type(a) is type(b) and (a == b or (math.isnan(a) and math.isnan(b)))


@st.composite
def bleu_args(draw: st.DrawFn, counts: st.SearchStrategy[Any]) -> tuple[Any, ...]:
    n = draw(st.integers(1, 6))
    correct = [draw(counts) for _ in range(n)]
    total = [draw(counts) for _ in range(n)]
    method = draw(st.sampled_from(["none", "floor", "add-k", "exp"]))
    value = draw(st.one_of(st.none(), st.integers(0, 3), st.floats(0, 2, allow_nan=False)))
    # Integer lengths: SacreBLEU's BLEUScore formats them with ':d' (floats fail there).
    return (correct, total, draw(COUNT), draw(COUNT), method, value, draw(st.booleans()), n)


def check_bleu(args: tuple[Any, ...]) -> None:
    kind, want = outcome(lambda: SacreBLEU.compute_bleu(*copy.deepcopy(args)))
    got_kind, got = outcome(lambda: parbleu.BLEU.compute_bleu(*copy.deepcopy(args)))
    assert got_kind == kind, (args, want, got)
    if kind == "error":
        assert issubclass(got, want), (args, got, want)  # parbleu's classes subclass them
        return
    assert same_number(got.score, want.score), (args, got.score, want.score)
    assert got.bp == want.bp
    assert got.precisions == want.precisions
    for g, w in ((got.counts, want.counts), (got.totals, want.totals)):
        assert len(g) == len(w) and all(map(same_number, g, w)), (args, g, w)
    assert (got.sys_len, got.ref_len) == (want.sys_len, want.ref_len)


@settings(max_examples=400, deadline=None)
@given(bleu_args(COUNT))
def test_compute_bleu_integer_counts_equal_sacrebleu(args: tuple[Any, ...]) -> None:
    check_bleu(args)


@settings(max_examples=200, deadline=None)
@given(bleu_args(FLOATISH))
def test_compute_bleu_floats_equal_sacrebleu(args: tuple[Any, ...]) -> None:
    check_bleu(args)


@pytest.mark.parametrize(
    ("args", "core"),
    [
        (([3, 2, 1, 0], [5, 4, 3, 2], 5, 6, "exp", None, False, 4), True),
        (([3, 2, 1, 0], [5, 4, 3, 2], 5, 6, "add-k", 1, True, 4), True),
        (([0, 0], [0, 0], 0, 6, "floor", None, False, 2), True),
        (([3.0, 2, 1, 0], [5, 4, 3, 2], 5, 6, "exp", None, False, 4), False),  # float count
        (([2**60, 2, 1, 0], [2**61, 4, 3, 2], 5, 6, "exp", None, False, 4), False),  # huge
        (([3, 2, 1, 0, 9], [5, 4, 3, 2, 9], 5, 6, "exp", None, False, 4), False),  # longer
        (([3, 2, 1, 0], [5, 4, 3, 2], 5, 6, "floor", -1.0, False, 4), False),  # negative value
    ],
)
def test_compute_bleu_path(args: tuple[Any, ...], core: bool, monkeypatch: Any) -> None:
    calls = _spy_on_core(monkeypatch, "bleu_finalize")
    check_bleu(args)
    assert bool(calls) is core


def _spy_on_core(monkeypatch: Any, name: str) -> list[tuple[Any, ...]]:
    """The calls to ``_core.<name>`` from now on (the function still runs)."""
    calls: list[tuple[Any, ...]] = []
    real = getattr(_core, name)

    def spy(*a: Any) -> Any:
        calls.append(a)
        return real(*a)

    monkeypatch.setattr(_core, name, spy)
    return calls


@st.composite
def chrf_case(draw: st.DrawFn, counts: st.SearchStrategy[Any]) -> tuple[dict[str, Any], list[Any]]:
    nc, nw = draw(st.integers(0, 6)), draw(st.integers(0, 2))
    if nc + nw == 0:
        nc = 1
    opts = {
        "char_order": nc,
        "word_order": nw,
        "beta": draw(st.integers(0, 3)),
        "eps_smoothing": draw(st.booleans()),
    }
    stats = [draw(counts) for _ in range(3 * (nc + nw))]
    return opts, stats


def check_chrf(opts: dict[str, Any], stats: list[Any]) -> None:
    kind, want = outcome(lambda: SacreCHRF(**opts)._compute_f_score(list(stats)))
    got_kind, got = outcome(lambda: parbleu.CHRF(**opts)._compute_f_score(list(stats)))
    assert got_kind == kind, (opts, stats, want, got)
    ok = same_number(got, want) if kind == "ok" else issubclass(got, want)
    assert ok, (opts, stats, got, want)


@settings(max_examples=400, deadline=None)
@given(chrf_case(COUNT))
def test_chrf_f_score_integer_counts_equal_sacrebleu(
    case: tuple[dict[str, Any], list[Any]],
) -> None:
    check_chrf(*case)


@settings(max_examples=150, deadline=None)
@given(chrf_case(FLOATISH))
def test_chrf_f_score_floats_equal_sacrebleu(case: tuple[dict[str, Any], list[Any]]) -> None:
    check_chrf(*case)


@pytest.mark.parametrize(
    ("stats", "core"),
    [
        ([5, 6, 4] * 6, True),
        ([5, 6, 4] * 6 + [1, 2, 3], True),  # longer: the extra is ignored, as SacreBLEU does
        ([5.0, 6, 4] * 6, False),
        ([2**60, 6, 4] * 6, False),
        ([5, 6, 4] * 5, False),  # short: SacreBLEU's unpacking error
    ],
)
def test_chrf_f_score_path(stats: list[Any], core: bool, monkeypatch: Any) -> None:
    calls = _spy_on_core(monkeypatch, "chrf_f_score")
    check_chrf({}, stats)
    assert bool(calls) is core
