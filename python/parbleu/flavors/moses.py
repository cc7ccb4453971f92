r"""Moses' ``multi-bleu.perl`` and ``multi-bleu-detok.perl``, exactly.

Both scripts (mosesdecoder ``scripts/generic/``, as of commit ``34452895``) print one line, e.g.
``BLEU = 27.16, 55.1/33.0/21.3/14.0 (BP=1.000, ratio=1.002, hyp_len=24616, ref_len=24557)``.
:func:`multi_bleu` and :func:`multi_bleu_detok` return that line (byte for byte), the exit
status and every number behind it; :func:`main` runs either script's command line
(``[-lc] REF [MOREREFS ...] < HYP``) with its file rules.

Kept on purpose (``docs/flavors.md``):

* ``multi-bleu.perl`` works on bytes: whitespace is ASCII only (a no-break space is part of a
  token), ``-lc`` lowers ``A``-``Z`` only, lines lose their ``\n`` only (``chomp``: a CR stays and
  is whitespace);
* ``multi-bleu-detok.perl`` decodes UTF-8, lowers with Perl's ``lc`` (full Unicode, no final
  sigma), tokenizes as mteval-v13a (= SacreBLEU ``13a``), and ``chop``\ s every line: a file
  without a final newline loses the last character of its last line;
* closest reference length, ties to the shorter; a hypothesis line without reference line counts
  9999 reference words; no smoothing (``log 0 = -9999999999``: any zero precision gives 0.00);
* an empty reference side prints ``BLEU = 0, 0/0/0/0 (...)`` and exits 1; an empty hypothesis
  side with references makes Perl die ("Illegal division by zero", exit 255): the API raises
  :class:`~parbleu.errors.FlavorError` (also a ``ZeroDivisionError``), :func:`main` prints
  Perl's message and returns 255.
"""

from __future__ import annotations

import gzip
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO, Union, cast

import numpy as np

from ._common import (
    SegStats,
    closest_ref_lens,
    flavor_error,
    has_py_only_space,
    line_stats,
    merge_stats,
    perl_13a,
    perl_lc,
    perl_split,
    token_stats,
)

__all__ = ["MultiBleuResult", "main", "multi_bleu", "multi_bleu_detok", "read_ref_files"]

Line = Union[str, bytes]

_ADVISORY = (
    "It is not advisable to publish scores from multi-bleu.perl.  The scores depend on your "
    "tokenizer, which is unlikely to be reproducible from your paper or consistent across "
    "research groups.  Instead you should detokenize then use mteval-v14.pl, which has a "
    "standard tokenization.  Scores from multi-bleu.perl can still be used for internal "
    "purposes when you have a consistent tokenizer.\n"
)


@dataclass(frozen=True)
class MultiBleuResult:
    """What the script computes and prints.

    Attributes
    ----------
    bleu
        BLEU on the 0-1 scale (the script prints ``100 * bleu`` with two decimals).
    precisions
        n-gram precisions, 0-1 (0 for an order without any hypothesis n-gram).
    bp, ratio, hyp_len, ref_len
        Brevity penalty, ``hyp_len / ref_len``, lengths in tokens.
    counts, totals
        Clipped matches and hypothesis n-grams per order.
    stdout, stderr, exit_code
        What the script writes and returns.
    """

    bleu: float
    precisions: list[float]
    bp: float
    ratio: float
    hyp_len: int
    ref_len: int
    counts: list[int]
    totals: list[int]
    stdout: str
    stderr: str = ""
    exit_code: int = 0
    script: str = field(default="multi-bleu.perl", repr=False)

    @property
    def score(self) -> float:
        """BLEU on the 0-100 scale (unrounded)."""
        return 100 * self.bleu

    @property
    def line(self) -> str:
        """The printed line without its newline."""
        return self.stdout.rstrip("\n")


def _segments(n: int, refs: Sequence[Sequence[str]]) -> list[list[str]]:
    """Return the reference lines of each hypothesis line (a shorter file adds nothing)."""
    if len(refs) == 1:
        (only,) = refs
        return [[r] for r in only[:n]] + [[] for _ in range(n - len(only))]
    return [[s[i] for s in refs if i < len(s)] for i in range(n)]


def _as_latin1(line: Line) -> str:
    raw = line if isinstance(line, bytes) else line.encode("utf-8", "surrogateescape")
    return raw.decode("latin-1")


def _latin1_lines(lines: Sequence[Line]) -> list[str]:
    """Return ``[_as_latin1(x) for x in lines]``, in one decode when every line is ``bytes``."""
    if all(type(x) is bytes for x in lines):
        out = b"\n".join(cast(Sequence[bytes], lines)).decode("latin-1").split("\n")
        if len(out) == len(lines):  # no line holds a newline
            return out
    return [_as_latin1(x) for x in lines]


def _as_text(line: Line) -> str:
    return line.decode("utf-8", "replace") if isinstance(line, bytes) else line


def _texts(lines: Sequence[Line]) -> list[str]:
    if all(type(x) is str for x in lines):
        return cast(list[str], list(lines))
    return [_as_text(x) for x in lines]


def _finish(script: str, st: SegStats, warn_line: int, stdin_lines: int) -> MultiBleuResult:
    n = len(st)
    counts, totals, hyp_len = st.corpus_counts(4)
    ref_len = 0
    if n and bool((np.diff(st.ref_offsets) > 0).all()):
        # Closest reference, ties to the shorter, then Perl's start value (9999, 9999) wins
        # over anything farther.
        closest = closest_ref_lens(st)
        diff = np.abs(closest - st.hyp_lens)
        closest[(diff > 9999) | ((diff == 9999) & (closest > 9999))] = 9999
        ref_len = int(closest.sum())
    else:
        for i, rl in enumerate(st.ref_len_lists()):
            h = int(st.hyp_lens[i])
            best = (9999, 9999)
            for r in rl:
                best = min(best, (abs(h - r), r))
            ref_len += best[1]
    stderr = []
    prec = [0.0] * 4
    for k in range(4):
        if totals[k]:
            if not counts[k]:
                stderr.append(
                    f"Use of uninitialized value in division (/) at {script} line {warn_line}, "
                    f"<STDIN> line {stdin_lines}.\n"
                )
            prec[k] = counts[k] / totals[k]
    if ref_len == 0:
        return MultiBleuResult(
            0.0,
            prec,
            0.0,
            0.0,
            hyp_len,
            ref_len,
            counts,
            totals,
            "BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, ref_len=0)\n",
            "".join(stderr),
            1,
            script,
        )
    bp = 1.0
    if hyp_len < ref_len:
        if hyp_len == 0:
            line = 154 if script == "multi-bleu.perl" else 166
            raise flavor_error(
                script,
                f"the hypotheses have no tokens but the references have {ref_len} (Perl dies: "
                f"Illegal division by zero at {script} line {line}, exit status 255)",
                ZeroDivisionError,
            )
        bp = math.exp(1 - ref_len / hyp_len)

    def my_log(x: float) -> float:
        return -9999999999 if not x else math.log(x)

    bleu = bp * math.exp(
        (my_log(prec[0]) + my_log(prec[1]) + my_log(prec[2]) + my_log(prec[3])) / 4
    )
    ratio = hyp_len / ref_len
    # Perl's printf: C's rounding of the binary double, as Python's format().
    out = (
        f"BLEU = {100 * bleu:.2f}, {100 * prec[0]:.1f}/{100 * prec[1]:.1f}/"
        f"{100 * prec[2]:.1f}/{100 * prec[3]:.1f} (BP={bp:.3f}, ratio={ratio:.3f}, "
        f"hyp_len={hyp_len:d}, ref_len={ref_len:d})\n"
    )
    if script == "multi-bleu.perl":
        stderr.append(_ADVISORY)
    return MultiBleuResult(
        bleu, prec, bp, ratio, hyp_len, ref_len, counts, totals, out, "".join(stderr), 0, script
    )


def multi_bleu(
    hypotheses: Sequence[Line],
    references: Sequence[Sequence[Line]],
    lowercase: bool = False,
    workers: int | None = None,
) -> MultiBleuResult:
    """``multi-bleu.perl [-lc] REF... < HYP`` on lines already read (newlines removed).

    Parameters
    ----------
    hypotheses
        Hypothesis lines (``str`` lines are encoded to UTF-8: the script works on bytes).
    references
        Reference streams: ``references[k][i]`` is reference ``k`` of line ``i``; a stream may
        be shorter than the hypotheses (as a shorter reference file).
    lowercase
        ``-lc``: lower ASCII letters only.
    workers
        Threads for the n-gram counting (``None``: the library default).

    Returns
    -------
    MultiBleuResult
        The printed line, exit status and numbers.
    """
    hyps = _latin1_lines(hypotheses)
    refs = [_latin1_lines(s) for s in references]
    if lowercase:
        hyps = [h.encode("latin-1").lower().decode("latin-1") for h in hyps]
    case = "ascii" if lowercase else "keep"
    st = line_stats(
        hyps,
        _segments(len(hyps), refs),
        ("none", "keep", "ascii"),
        ("none", case, "ascii"),
        4,
        workers,
    )
    return _finish("multi-bleu.perl", st, 139, len(hyps))


def multi_bleu_detok(
    hypotheses: Sequence[Line],
    references: Sequence[Sequence[Line]],
    lowercase: bool = False,
    workers: int | None = None,
) -> MultiBleuResult:
    """``multi-bleu-detok.perl [-lc] REF... < HYP`` on lines already read (and chopped).

    Lines are tokenized as mteval-v13a (SacreBLEU's ``13a``) with Perl's definition of
    whitespace; ``-lc`` is Perl's ``lc`` (hypotheses lowered before tokenizing, references after,
    as the script does).
    """
    hyps = _texts(hypotheses)
    refs = [_texts(s) for s in references]
    if lowercase:
        hyps = [perl_lc(h) for h in hyps]
    segs = _segments(len(hyps), refs)
    case = "perl" if lowercase else "keep"
    st = line_stats(hyps, segs, ("13a", "keep", "perl"), ("13a", case, "perl"), 4, workers)
    special = []
    if has_py_only_space("".join(hyps)) or any(has_py_only_space("".join(s)) for s in refs):
        special = [
            i for i, (h, rs) in enumerate(zip(hyps, segs)) if has_py_only_space(h + "".join(rs))
        ]
    if special:

        def ref_tok(r: str) -> list[str]:
            t = perl_13a(r)
            return perl_split(perl_lc(t) if lowercase else t)

        part = token_stats(
            [perl_split(perl_13a(hyps[i])) for i in special],
            [[ref_tok(r) for r in segs[i]] for i in special],
            4,
        )
        st = merge_stats(st, special, part)
    return _finish("multi-bleu-detok.perl", st, 151, len(hyps))


def _chomp_lines(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def _read_chop(data: bytes) -> list[str]:
    """Return the lines as Perl's ``while (<>) { chop; ... }`` sees them.

    Each loses its last character: the newline, or the last real character of a final line
    without one.
    """
    text = data.decode("utf-8", "replace")
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    else:
        lines[-1] = lines[-1][:-1]
    return lines


def _read_bytes(path: str) -> bytes:
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            return f.read()
    with open(path, "rb") as f:
        return f.read()


def _ref_stem(stem: str) -> str:
    """Return the scripts' reference stem: ``STEM.ref`` when only ``STEM.ref0`` exists."""
    if (
        not os.path.exists(stem)
        and not os.path.exists(stem + "0")
        and os.path.exists(stem + ".ref0")
    ):
        return stem + ".ref"
    return stem


def read_ref_files(args: Sequence[str]) -> list[str]:
    """Return the reference files the scripts read for their arguments (after ``-lc``).

    The first argument is a stem: ``STEM0, STEM1, ...`` while they exist, then ``STEM`` itself
    if it exists (``STEM.ref0...`` when neither ``STEM`` nor ``STEM0`` exists), then every further
    argument that exists.
    """
    stem = _ref_stem(args[0])
    files = []
    k = 0
    while os.path.exists(f"{stem}{k}"):
        files.append(f"{stem}{k}")
        k += 1
    if os.path.exists(stem):
        files.append(stem)
    files += [a for a in args[1:] if os.path.exists(a)]
    return files


def main(
    argv: Sequence[str],
    detok: bool = False,
    stdin: bytes | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``multi-bleu.perl`` (or ``multi-bleu-detok.perl``) with arguments ``argv``.

    Parameters
    ----------
    argv
        ``[-lc] REF [MOREREFS ...]``.
    detok
        Run multi-bleu-detok.perl.
    stdin
        The hypothesis file's bytes (default: read standard input).

    Returns
    -------
    int
        The script's exit status.
    """
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    script = "multi-bleu-detok.perl" if detok else "multi-bleu.perl"
    args = list(argv)
    lowercase = bool(args) and args[0] == "-lc"
    if lowercase:
        args = args[1:]
    if not args:
        err.write(f"usage: {script[:-5]}.pl [-lc] reference < hypothesis\n")
        err.write("Reads the references from reference or reference0, reference1, ...\n")
        return 1
    files = read_ref_files(args)
    raw_refs = [_read_bytes(f) for f in files]
    # Perl dies unless the stem's files (before the further arguments are added) hold a line;
    # its exit status is errno of the last file test: ENOENT when the stem itself does not
    # exist, 255 (no errno) after reading it.
    if not any(raw_refs[: len(read_ref_files(args[:1]))]):
        stem = _ref_stem(args[0])
        # Line numbers of mosesdecoder 34452895 (the division by zero is at 154 / 166).
        line = 42 if detok else 32
        err.write(f"ERROR: could not find reference file {stem} at {script} line {line}.\n")
        return 255 if os.path.exists(stem) else 2
    data = stdin if stdin is not None else sys.stdin.buffer.read()
    try:
        if detok:
            refs_t = [_read_chop(b) for b in raw_refs]
            res = multi_bleu_detok(_read_chop(data), refs_t, lowercase)
        else:
            lines = _chomp_lines(data)
            refs_b = [_chomp_lines(b) for b in raw_refs]
            res = multi_bleu(lines, refs_b, lowercase)
    except ZeroDivisionError:
        n = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
        line = 166 if detok else 154
        err.write(f"Illegal division by zero at {script} line {line}, <STDIN> line {n}.\n")
        return 255
    out.write(res.stdout)
    err.write(res.stderr)
    return res.exit_code
