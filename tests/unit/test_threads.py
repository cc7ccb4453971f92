"""Thread pools survive fork; long work stops on Ctrl-C."""

from __future__ import annotations

import multiprocessing as mp
import os
import textwrap
import time

import pytest

import parbleu
from helpers import interrupt_when_ready, sigint_child

HYPS = ["the cat sat on the mat today , said the dog ."] * 6000
REFS = [["the cat sat on a mat today , the dog said ."] * 6000]


def _score_in_child(q: mp.Queue) -> None:  # type: ignore[type-arg]
    q.put(parbleu.BLEU().corpus_score(HYPS, REFS, workers=2).score)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_parallel_work_in_forked_child() -> None:
    parent = parbleu.BLEU().corpus_score(HYPS, REFS, workers=2).score  # pool started here
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_score_in_child, args=(q,))
    p.start()
    p.join(timeout=60)
    assert p.exitcode == 0, "child hung or crashed after fork"
    assert q.get(timeout=5) == parent


def test_ctrl_c_interrupts_long_extraction() -> None:
    code = textwrap.dedent(
        """
        import sys, parbleu
        hyps = ["the cat sat on the mat today , said the dog ."] * 3_000_000
        refs = [["the cat sat on a mat today , the dog said ."] * 3_000_000]
        m = parbleu.BLEU(references=refs)
        m.corpus_score(hyps[:1], [refs[0][:1]])  # import numpy (lazy) before the signal
        print("ready", flush=True)
        try:
            for _ in range(100):
                m.corpus_score(hyps, None, workers=1)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(7)
        """
    )
    with sigint_child(code) as p:
        assert p.stdout is not None
        t0 = interrupt_when_ready(p, 0.5)
        rc = p.wait(timeout=30)
        elapsed = time.monotonic() - t0
        assert rc == 7, "KeyboardInterrupt was not raised"
        assert p.stdout.read().strip() == "interrupted"
    assert elapsed < 5, f"took {elapsed:.1f}s to stop"
