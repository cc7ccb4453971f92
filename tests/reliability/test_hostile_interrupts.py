"""Ctrl-C inside one long single-segment computation (TER's shift search on a huge segment)
raises KeyboardInterrupt quickly: the search polls for signals, not only the loop over
segments (tests/reliability/test_interrupts.py covers long corpora)."""

from __future__ import annotations

import textwrap
import time

import pytest

from helpers import child_cpu, interrupt_when_ready, sigint_child

# One segment of 200,000 distinct words with 44 blocks moved 30 words: 44 shift rounds, each
# recomputing the segment's edit distance, about 0.7 s of shift search on a loaded 2-core
# machine. (TER stores only the beam of its matrices and stops a candidate's rows once they
# catch up with the hypothesis's, so a segment is linear in its length now: the 6,000 swapped
# words that took 5-10 s before take well under 0.5 s, too short to interrupt.) SIGINT is
# sent 0.1 s in.
CHILD = textwrap.dedent(
    """
    import sys, parbleu
    from parbleu.pairwise import pairwise
    n = 200_000
    ref = [f"u{i}" for i in range(n)]
    hyp = list(ref)
    for b in range(44):
        a = 1000 + b * (n // 50)
        block = hyp[a : a + 5]
        del hyp[a : a + 5]
        hyp[a + 30 : a + 30] = block
    h, r = " ".join(hyp), " ".join(ref)
    parbleu.TER().sentence_score("a b", ["a c"])  # warm up (lazy imports)
    calls = {
        "sentence_score": lambda: parbleu.TER().sentence_score(h, [r]),
        "corpus_score": lambda: parbleu.TER().corpus_score([h], [[r]]),
        "pairwise": lambda: pairwise([h], [r], "ter"),
    }
    call = calls[sys.argv[1]]
    print("ready", flush=True)
    try:
        call()
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    # Still usable afterwards: the next call is not stopped by the old interrupt.
    print(parbleu.TER().sentence_score("a b c d", ["a c b d"]).score, flush=True)
    """
)
# From SIGINT to KeyboardInterrupt: the child's CPU seconds, and a wall limit that only a hang
# reaches (wall time alone stretches with the machine's load; see test_interrupts.py).
CPU_BOUND = 0.3  # the whole search is about 0.7 s
WALL_BOUND = 15.0


@pytest.mark.parametrize("call", ["sentence_score", "corpus_score", "pairwise"])
def test_ctrl_c_stops_one_huge_ter_segment(call: str) -> None:
    with sigint_child(CHILD, call) as p:
        assert p.stdout is not None
        t0 = interrupt_when_ready(p, 0.1)
        c0 = child_cpu(p)
        assert p.stdout.readline().strip() == "interrupted"
        elapsed, cpu = time.monotonic() - t0, child_cpu(p) - c0
        assert cpu < CPU_BOUND, f"used {cpu:.2f} s of CPU to stop"
        assert elapsed < WALL_BOUND, f"took {elapsed:.1f}s to stop"
        assert float(p.stdout.readline()) == 25.0  # SacreBLEU: one shift in 4 words
        assert p.wait(timeout=30) == 0
