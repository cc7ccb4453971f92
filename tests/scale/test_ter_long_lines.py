"""TER of very long segments: SacreBLEU's numbers, in bounded memory and time.

SacreBLEU's TER computes each edit-distance row only inside a beam of about 50 columns around
the (length-ratio) diagonal. The Rust core stores only that band (full matrices made one line
of 100,000 characters, about 20,000 words, take gigabytes and 25-67 s: issue 24), and stops
recomputing a shift candidate's rows once they equal the hypothesis's plus a constant. Each
check of memory runs the real command in a fresh process and reads that process's peak
resident set (``ru_maxrss`` of the only child of a small wrapper process).
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

import parbleu

sacrebleu_ter = pytest.importorskip("sacrebleu.metrics.ter")

#: The issue's bound on the peak resident set of the whole command, in bytes.
MAX_RSS = 200 << 20

_VOCAB = [f"w{i}" for i in range(400)] + ["the", "a", "of", ".", ",", "Die", "der", "und"] * 20


def _pair(n_ref: int, seed: int, n_hyp: int | None = None) -> tuple[str, str]:
    """A reference of ``n_ref`` words and a hypothesis with substitutions, insertions,
    deletions and swapped blocks (which TER's shifts repair), ``n_hyp`` words if given."""
    rng = random.Random(seed)
    ref = [rng.choice(_VOCAB) for _ in range(n_ref)]
    hyp = list(ref)
    for i in range(0, len(hyp), 6):
        hyp[i] = rng.choice(_VOCAB)
    for i in range(0, len(hyp) - 12, 17):
        hyp[i : i + 4], hyp[i + 8 : i + 12] = hyp[i + 8 : i + 12], hyp[i : i + 4]
    for i in range(len(hyp) - 1, 0, -23):
        if rng.random() < 0.5:
            del hyp[i]
        else:
            hyp.insert(i, rng.choice(_VOCAB))
    if n_hyp is not None:
        hyp = (hyp * (n_hyp // max(len(hyp), 1) + 1))[:n_hyp]
    return " ".join(hyp), " ".join(ref)


def _long_line(chars: int, seed: int) -> tuple[str, str]:
    rng = random.Random(seed)
    n = 0
    words = []
    while n < chars:
        words.append(rng.choice(_VOCAB))
        n += len(words[-1]) + 1
    hyp, ref = _pair(len(words), seed)
    return hyp[:chars], ref[:chars]


@pytest.mark.parametrize(
    ("n_ref", "n_hyp", "kwargs"),
    [
        # Over 50 words: rows hold a band, not every column (SacreBLEU takes seconds here).
        (110, None, {}),
        (90, None, {"normalized": True, "case_sensitive": True}),
        # Reference/hypothesis length ratio over 50: SacreBLEU widens the beam.
        (260, 4, {}),
        (310, 6, {"no_punct": True}),
        # The hypothesis far longer than the reference.
        (5, 240, {}),
        (60, 130, {}),
    ],
)
def test_long_segments_equal_sacrebleu(
    n_ref: int, n_hyp: int | None, kwargs: dict[str, bool]
) -> None:
    hyp, ref = _pair(n_ref, n_ref, n_hyp)
    hyp2, ref2 = _pair(60, n_ref + 1)  # a second segment: sums over the corpus
    want = sacrebleu_ter.TER(**kwargs).corpus_score([hyp, hyp2], [[ref, ref2]])
    got = parbleu.TER(**kwargs).corpus_score([hyp, hyp2], [[ref, ref2]])
    assert (got.score, got.num_edits, got.ref_length) == (
        want.score,
        want.num_edits,
        want.ref_length,
    )
    assert got.num_edits > 0
    one = parbleu.TER(**kwargs).sentence_score(hyp, [ref])
    assert one.score == sacrebleu_ter.TER(**kwargs).sentence_score(hyp, [ref]).score


@pytest.mark.parametrize(("vocab", "n", "seed"), [(3, 80, 1), (8, 90, 2)])
def test_shuffled_small_vocabularies_equal_sacrebleu(vocab: int, n: int, seed: int) -> None:
    """Few distinct words: every word matches all over, so the shift search tries up to its
    1,000 candidates, many of them recomputing rows that catch up with the hypothesis."""
    rng = random.Random(seed)
    ref = [f"w{rng.randrange(vocab)}" for _ in range(n)]
    hyp = list(ref)
    rng.shuffle(hyp)
    hyp, r = " ".join(hyp[: n - 7]), " ".join(ref)
    want = sacrebleu_ter.TER().sentence_score(hyp, [r])
    got = parbleu.TER().sentence_score(hyp, [r])
    assert (got.score, got.num_edits) == (want.score, want.num_edits)


_WRAPPER = (
    "import resource, subprocess, sys\n"
    "p = subprocess.run(sys.argv[1:], capture_output=True)\n"
    "sys.stderr.buffer.write(p.stderr)\n"
    "sys.stdout.buffer.write(p.stdout)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)\n"
    "sys.exit(p.returncode)\n"
)


def _peak(argv: list[str], cwd: Path) -> tuple[str, int, float]:
    """Run ``python -m parbleu ARGV``; its standard output, peak RSS (bytes) and seconds."""
    t0 = time.perf_counter()
    p = subprocess.run(
        [sys.executable, "-c", _WRAPPER, sys.executable, "-m", "parbleu", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
    )
    seconds = time.perf_counter() - t0
    assert p.returncode == 0, p.stderr
    *out, rss = p.stdout.splitlines()
    return "\n".join(out), int(rss), seconds


@pytest.fixture(scope="module")
def long_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("ter_long")
    hyp, ref = _long_line(100_000, 24)
    assert len(ref) == 100_000 and len(hyp) > 95_000 and len(ref.split()) > 15_000
    (d / "hyp").write_text(hyp + "\n", encoding="utf-8")
    (d / "ref").write_text(ref + "\n", encoding="utf-8")
    return d


def test_cli_ter_of_a_100k_character_line_is_bounded(long_files: Path) -> None:
    out, rss, seconds = _peak(["ref", "-i", "hyp", "-m", "ter", "-b"], long_files)
    assert rss <= MAX_RSS, f"peak RSS {rss / 2**20:.0f} MiB"
    # Measured 0.5 s for the whole process on a loaded 2-core machine (full matrices: 25-67 s
    # and gigabytes); generous for load.
    assert seconds < 20
    hyp = (long_files / "hyp").read_text(encoding="utf-8").rstrip("\n")
    ref = (long_files / "ref").read_text(encoding="utf-8").rstrip("\n")
    assert out == f"{parbleu.TER().corpus_score([hyp], [[ref]]).score:.1f}"
    assert 0 < float(out) < 100


def test_report_ter_of_a_100k_character_line_is_bounded(long_files: Path) -> None:
    _, rss, _ = _peak(["report", "ref", "-i", "hyp", "-m", "ter", "-o", "r.html", "-q"], long_files)
    assert rss <= MAX_RSS, f"peak RSS {rss / 2**20:.0f} MiB"
    assert (long_files / "r.html").stat().st_size > 0
