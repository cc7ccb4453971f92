r"""tensor2tensor's ``bleu_hook`` (tensor2tensor/utils/bleu_hook.py, commit ``bafdc1b``).

* :func:`compute_bleu`: **one** reference token list per segment, mteval-style "exp"
  smoothing always on (the k-th order without a match gets ``1 / (2**k * possible)``), orders
  without any hypothesis n-gram skipped in the log sum but still counted in the divisor (so they
  act as precision 1), brevity penalty 1 when the references are empty; returns
  ``numpy.float32``.
* :func:`bleu_tokenize`: mteval-v14's international rules with Python's ``unicodedata``
  punctuation/symbol classes and ``re``'s ``\d`` (Unicode 14 on Python 3.11), no entity
  decoding, no padding.
* :func:`bleu_wrapper`: what ``t2t-bleu`` runs: whole files read as ``tf.gfile`` reads them (no
  newline translation: ``\r`` of CRLF files stays) and split on ``\n`` (the empty piece after a
  final newline is a segment too), lower-cased unless
  ``case_sensitive``; different line counts raise a :class:`~parbleu.errors.FlavorError` that is
  also the original's ``AssertionError``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._common import SegStats, check_sizes, flavor_error, line_stats, token_stats, tokens

__all__ = ["bleu_tokenize", "bleu_wrapper", "compute_bleu", "t2t_bleu"]

FLAVOR = "t2t"


def _finish(st: SegStats, max_order: int, use_bp: bool) -> np.float32:
    matches, possible, translation_length = st.corpus_counts(max_order)
    reference_length = int(st.ref_lens.sum())
    bp = 1.0
    geo_mean: float = 0
    precisions: list[float] = [0.0] * max_order
    smooth = 1.0
    for i in range(max_order):
        if possible[i] > 0:
            precisions[i] = matches[i] / possible[i]
            if matches[i] > 0:
                precisions[i] = matches[i] / possible[i]
            else:
                smooth *= 2
                precisions[i] = 1.0 / (smooth * possible[i])
        else:
            precisions[i] = 0.0
    if not precisions:
        raise flavor_error(
            FLAVOR, "max_order=0 (the original's max(precisions) raises ValueError)", ValueError
        )
    if max(precisions) > 0:
        p_log_sum = sum(math.log(p) for p in precisions if p)
        geo_mean = math.exp(p_log_sum / max_order)
    if use_bp:
        if not reference_length:
            bp = 1.0
        else:
            ratio = translation_length / reference_length
            if ratio <= 0.0:
                bp = 0.0
            elif ratio < 1.0:
                bp = math.exp(1 - 1.0 / ratio)
            else:
                bp = 1.0
    return np.float32(geo_mean * bp)


def compute_bleu(
    reference_corpus: Sequence[Sequence[Any]],
    translation_corpus: Sequence[Sequence[Any]],
    max_order: int = 4,
    use_bp: bool = True,
) -> np.float32:
    """BLEU of translations against **one** reference each (token lists), as ``numpy.float32``."""
    n = min(len(reference_corpus), len(translation_corpus))
    hyps = list(translation_corpus[:n])
    refs = [[r] for r in reference_corpus[:n]]
    st = token_stats(hyps, refs, max_order, workers=None)
    return _finish(st, max_order, use_bp)


def bleu_tokenize(string: str) -> list[str]:
    """tensor2tensor's ``bleu_tokenize``: punctuation and symbols split off (see module docs)."""
    return tokens([string], ("t2t", "keep", "python"))[0]


def _read(path: str) -> list[str]:
    # tf.gfile.Open(path, "r").read() translates no newline: a CRLF file keeps its "\r".
    with open(path, encoding="utf-8", newline="") as f:
        return f.read().split("\n")


def bleu_wrapper(ref_filename: str, hyp_filename: str, case_sensitive: bool = False) -> np.float32:
    """BLEU of a hypothesis file against a reference file, as ``t2t-bleu`` computes it."""
    ref_lines = _read(ref_filename)
    hyp_lines = _read(hyp_filename)
    return bleu_lines(ref_lines, hyp_lines, case_sensitive)


def bleu_lines(
    ref_lines: Sequence[str],
    hyp_lines: Sequence[str],
    case_sensitive: bool = False,
    workers: int | None = None,
) -> np.float32:
    """:func:`bleu_wrapper` on lines already read."""
    check_sizes(
        FLAVOR,
        ref_lines,
        hyp_lines,
        "{0} reference lines but {1} hypothesis lines (the original: AssertionError: {0} != {1})",
        AssertionError,
    )
    if not case_sensitive:
        ref_lines = [x.lower() for x in ref_lines]
        hyp_lines = [x.lower() for x in hyp_lines]
    prep = ("t2t", "keep", "python")
    st = line_stats(list(hyp_lines), [[r] for r in ref_lines], prep, prep, 4, workers)
    return _finish(st, 4, True)


def t2t_bleu(translation: str, reference: str) -> str:
    """Return what ``t2t-bleu --translation=... --reference=...`` prints."""
    uncased = 100 * bleu_wrapper(reference, translation, case_sensitive=False)
    cased = 100 * bleu_wrapper(reference, translation, case_sensitive=True)
    return f"BLEU_uncased = {uncased:6.2f}\nBLEU_cased = {cased:6.2f}\n"
