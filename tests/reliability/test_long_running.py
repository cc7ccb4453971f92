"""Memory stays flat over many calls in one process; caches are per object and bounded."""

from __future__ import annotations

import gc
import os
import sys
from typing import Callable

import pytest

import parbleu

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

LIMIT = 20 * 2**20  # generous: allocator noise is a few MB


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _growth(step: Callable[[int], object], n: int) -> int:
    """RSS growth over ``n`` calls of ``step``, after a warm-up of ``n // 10`` calls."""
    for i in range(n // 10):
        step(i)
    gc.collect()
    before = _rss()
    for i in range(n):
        step(i)
    gc.collect()
    return _rss() - before


def test_the_check_detects_a_leak() -> None:
    kept: list[bytes] = []
    assert _growth(lambda i: kept.append(bytes(1000)), 100_000) > LIMIT


def test_sentence_score_is_flat() -> None:
    bleu, chrf, ter = parbleu.BLEU(effective_order=True), parbleu.CHRF(), parbleu.TER()

    def step(i: int) -> None:
        hyp = f"the cat {i} sat on the mat {i % 1000} ."  # new strings every call
        refs = [f"the cat sat on mat {i} .", "a cat"]
        bleu.sentence_score(hyp, refs)
        if i % 10 == 0:
            chrf.sentence_score(hyp, refs)
            ter.sentence_score(hyp, refs)

    assert _growth(step, 200_000) < LIMIT


def test_corpus_score_is_flat() -> None:
    hyps = [f"the cat {j} sat on the mat ." for j in range(200)]
    refs = [[f"the cat sat on the mat {j} ." for j in range(200)]]
    metrics = [parbleu.BLEU(), parbleu.CHRF(word_order=2), parbleu.TER()]

    def step(i: int) -> None:
        for m in metrics:
            m.corpus_score([*hyps[1:], str(i)], refs)

    assert _growth(step, 1_000) < LIMIT


def test_caches_are_per_object() -> None:
    # Nothing is cached on the class or module: scoring with one object and dropping it
    # frees what it held (SacreBLEU's method-level lru_cache keeps it, its issue #264).
    big = ["word" + str(i) for i in range(50_000)]

    def step(i: int) -> None:
        parbleu.BLEU().corpus_score([" ".join(big[:1000]) + str(i)], [[" ".join(big)]])

    assert _growth(step, 100) < LIMIT
