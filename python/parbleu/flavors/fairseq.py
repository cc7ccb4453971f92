"""fairseq 0.12.2's BLEU scorer (``fairseq-score``; ``fairseq/scoring/bleu.py`` + libbleu).

Lines become ids of one dictionary grown in reading order (system line, then reference line),
``<unk>`` in references never matches, libbleu trims leading pads and trailing end-of-sentence
markers (an empty line keeps its ``</s>`` and counts one word), and n-grams are matched by
**hash** (FNV-1a over the ids' bytes read as signed ``char``): different id sequences can
collide and match, so scores depend on the id assignment order and, like fairseq, on x86-64's
signed ``char``. All of it runs in the Rust core (``parbleu_core::flavors::fairseq``).

* :func:`score_lines` / :func:`score_files`: what ``fairseq-score -s SYS -r REF [-o N]
  [--ignore-case]`` computes; :class:`BleuStat` holds the counts and offers ``score``,
  ``precision``, ``brevity`` and ``result_string`` as fairseq's ``Scorer``.
* :func:`main`: the command line (prints the ``Namespace(...)`` of its arguments, as
  ``fairseq-score``'s ``print(args)``, then ``result_string``).

Single reference only; line pairs beyond the shorter file are ignored (``zip``), as fairseq.
``--sentence-bleu`` crashes in fairseq 0.12.2 and ``--sacrebleu`` delegates to SacreBLEU
(use ``parbleu.corpus_bleu``); both raise :class:`~parbleu.errors.FlavorError` here.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from .. import _core
from ._common import flavor_error

__all__ = ["BleuStat", "main", "score_files", "score_lines"]

FLAVOR = "fairseq"


@dataclass(frozen=True)
class BleuStat:
    """libbleu's ``bleu_stat`` with the arithmetic of fairseq's ``Scorer``."""

    reflen: int
    predlen: int
    match1: int
    match2: int
    match3: int
    match4: int
    count1: int
    count2: int
    count3: int
    count4: int

    def precision(self) -> list[float]:
        """Return the n-gram precisions (0 where there is no n-gram)."""

        def ratio(a: int, b: int) -> float:
            return a / b if b > 0 else 0

        return [
            ratio(self.match1, self.count1),
            ratio(self.match2, self.count2),
            ratio(self.match3, self.count3),
            ratio(self.match4, self.count4),
        ]

    def brevity(self) -> float:
        """Return ``min(1, exp(1 - reflen / predlen))``."""
        if self.predlen == 0:
            raise flavor_error(
                FLAVOR, "no predicted words (fairseq: ZeroDivisionError)", ZeroDivisionError
            )
        r = self.reflen / self.predlen
        return min(1, math.exp(1 - r))

    def score(self, order: int = 4) -> float:
        """Return BLEU on the 0-100 scale (log 0 = -inf: any zero precision gives 0)."""
        psum = sum(math.log(p) if p > 0 else float("-Inf") for p in self.precision()[:order])
        return self.brevity() * math.exp(psum / order) * 100

    def result_string(self, order: int = 4) -> str:
        """Return the line ``fairseq-score`` prints."""
        if order > 4:
            raise flavor_error(FLAVOR, "BLEU scores for order > 4 aren't supported", AssertionError)
        if order < 1:
            # fairseq divides by the order (ZeroDivisionError) or formats a negative count.
            raise flavor_error(
                FLAVOR,
                f"order {order}: fairseq-score needs an order from 1 to 4",
                ZeroDivisionError,
            )
        fmt = "BLEU{} = {:2.2f}, {:2.1f}"
        for _ in range(1, order):
            fmt += "/{:2.1f}"
        fmt += " (BP={:.3f}, ratio={:.3f}, syslen={}, reflen={})"
        bleup = [p * 100 for p in self.precision()[:order]]
        return fmt.format(
            order,
            self.score(order=order),
            *bleup,
            self.brevity(),
            self.predlen / self.reflen,
            self.predlen,
            self.reflen,
        )


def score_lines(
    system: Sequence[str], reference: Sequence[str], ignore_case: bool = False
) -> BleuStat:
    """Statistics of system lines against reference lines, as ``fairseq-score``."""
    sys_lines = [s.lower() if ignore_case else s for s in system]
    ref_lines = [r.lower() if ignore_case else r for r in reference]
    reflen, predlen, m, c = _core.flavor_fairseq_stats(sys_lines, ref_lines)
    return BleuStat(reflen, predlen, *m, *c)


def _readlines(path: str) -> list[str]:
    # fairseq: open() in text mode (universal newlines), readlines().
    with open(path, encoding="utf-8") as f:
        return f.readlines()


def score_files(sys_path: str, ref_path: str, ignore_case: bool = False) -> BleuStat:
    """Statistics of a system file against a reference file (``-`` reads standard input)."""
    sys_lines = sys.stdin.readlines() if sys_path == "-" else _readlines(sys_path)
    return score_lines(sys_lines, _readlines(ref_path), ignore_case)


def main(argv: Sequence[str], stdout: TextIO | None = None) -> int:
    """Run ``fairseq-score -s SYS -r REF [-o N] [--ignore-case]``; returns the exit status."""
    import argparse

    out = stdout if stdout is not None else sys.stdout
    ap = argparse.ArgumentParser(prog="fairseq-score")
    ap.add_argument("-s", "--sys", default="-")
    ap.add_argument("-r", "--ref", required=True)
    ap.add_argument("-o", "--order", type=int, default=4)
    ap.add_argument("--ignore-case", action="store_true")
    ap.add_argument("--sacrebleu", action="store_true")
    ap.add_argument("--sentence-bleu", action="store_true")
    a = ap.parse_args(list(argv))
    if a.sacrebleu or a.sentence_bleu:
        raise flavor_error(
            FLAVOR,
            "--sacrebleu delegates to SacreBLEU (use parbleu.corpus_bleu) and --sentence-bleu "
            "crashes in fairseq 0.12.2 (TypeError); neither is reproduced",
            ValueError,
        )
    # fairseq-score's print(args): the same arguments in the same order make the same
    # Namespace(...) line as fairseq's parser on this Python.
    out.write(f"{a}\n")
    st = score_files(a.sys, a.ref, a.ignore_case)
    out.write(st.result_string(a.order) + "\n")
    return 0
