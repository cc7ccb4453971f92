"""NLTK 3.10.4's ``nltk.translate.chrf_score``, exactly (see :mod:`parbleu.flavors.nltk`)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from ... import _core
from ...errors import InvalidTextError
from .._common import (
    SegStats,
    check_sizes,
    flavor_error,
    has_py_only_space,
    token_stats,
)
from .bleu_score import FLAVOR, _ngrams

#: What NLTK's ``redos.sub(r"\s+", "", s)`` (the ``regex`` module's ``\s``, Unicode
#: White_Space) removes; unlike ``str.split()`` it keeps U+001C..U+001F.
_WHITE_SPACE = dict.fromkeys(
    map(
        ord,
        "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
        "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000",
    )
)


_WHITE_SPACE_RE = re.compile("[" + "".join(chr(c) for c in _WHITE_SPACE) + "]+")


def _preprocess(sent: Any, ignore_whitespace: bool) -> str:
    if type(sent) is not str:
        sent = " ".join(sent)
    if ignore_whitespace:
        # Without U+001C..U+001F, Python's whitespace is the regex's \s (and split is faster).
        sent = _WHITE_SPACE_RE.sub("", sent) if has_py_only_space(sent) else "".join(sent.split())
    return str(sent)


def chrf_precision_recall_fscore_support(
    reference: Sequence[Any],
    hypothesis: Sequence[Any],
    n: int,
    beta: float = 3.0,
    epsilon: float = 1e-16,
) -> tuple[float, float, float, int]:
    """Precision, recall, F-score and true positives of the order-``n`` n-grams."""
    ref_ngrams = Counter(_ngrams(reference, n))
    hyp_ngrams = Counter(_ngrams(hypothesis, n))
    tp = sum((ref_ngrams & hyp_ngrams).values())
    tpfp = sum(hyp_ngrams.values())
    tpfn = sum(ref_ngrams.values())
    return _prf(tp, tpfp, tpfn, beta, epsilon)


def _prf(tp: int, tpfp: int, tpfn: int, beta: float, epsilon: float) -> tuple[Any, Any, Any, int]:
    try:
        prec = tp / tpfp
        rec = tp / tpfn
        factor = beta**2
        fscore = (1 + factor) * (prec * rec) / (factor * prec + rec)
    except ZeroDivisionError:
        prec = rec = fscore = epsilon
    return prec, rec, fscore, tp


def _char_matches(hyps: list[str], refs: list[str], max_len: int) -> SegStats:
    from ...metrics import CHRF

    rows = CHRF(char_order=max_len, word_order=0).extract_stats(hyps, [refs], workers=None)
    matches = np.ascontiguousarray(np.asarray(rows, dtype=np.int64)[:, 2::3])
    n = len(hyps)
    return SegStats(
        max_len,
        matches,
        np.zeros_like(matches),
        np.fromiter(map(len, hyps), dtype=np.int64, count=n),
        np.fromiter(map(len, refs), dtype=np.int64, count=n),
        np.arange(n + 1, dtype=np.int64),
    )


def _fscores(st: SegStats, n: int, beta: Any) -> list[Any]:
    """Per-sentence F-scores of order ``n``, ``_prf`` vectorized (same IEEE operations)."""
    tp = st.matches[:, n - 1].astype(np.float64)
    tpfp = np.maximum(st.hyp_lens - n + 1, 0)
    tpfn = np.maximum(st.ref_lens - n + 1, 0)
    factor = beta**2
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = tp / tpfp
        rec = tp / tpfn
        denom = factor * prec + rec
        f = (1 + factor) * (prec * rec) / denom
    bad = (tpfp == 0) | (tpfn == 0) | (denom == 0)
    f[bad] = 1e-16
    out: list[Any] = f.tolist()
    return out


def sentence_chrf(
    reference: Any,
    hypothesis: Any,
    min_len: int = 1,
    max_len: int = 6,
    beta: float = 3.0,
    ignore_whitespace: bool = True,
) -> float:
    """Sentence-level chrF (one reference; a list of strings is joined with spaces)."""
    if (
        type(reference) is str
        and type(hypothesis) is str
        and type(min_len) is int
        and type(max_len) is int
        and 1 <= min_len <= max_len
        and type(ignore_whitespace) is bool
    ):
        # NLTK's arithmetic takes ``beta**2`` as Python computes it; the core does the rest.
        factor: Any = None
        if type(beta) is float and abs(beta) < 1e100:
            factor = beta**2
        elif type(beta) is int and abs(beta) < 1 << 26:
            factor = float(beta**2)
        if factor is not None:
            r = _core.flavor_nltk_sentence_chrf(
                reference, hypothesis, min_len, max_len, factor, ignore_whitespace
            )
            if r is not None:
                return r
    return corpus_chrf(
        [reference], [hypothesis], min_len, max_len, beta=beta, ignore_whitespace=ignore_whitespace
    )


def corpus_chrf(
    references: Sequence[Any],
    hypotheses: Sequence[Any],
    min_len: int = 1,
    max_len: int = 6,
    beta: float = 3.0,
    ignore_whitespace: bool = True,
) -> float:
    """Corpus chrF as NLTK: the macro average of sentence-level per-order F-scores."""
    check_sizes(
        FLAVOR,
        references,
        hypotheses,
        "{0} references for {1} hypotheses (NLTK: AssertionError: The number of hypotheses and "
        "their references should be the same)",
        AssertionError,
    )
    num_sents = len(hypotheses)
    refs = [_preprocess(r, ignore_whitespace) for r in references]
    hyps = [_preprocess(h, ignore_whitespace) for h in hypotheses]
    ngram_fscores: dict[int, list[Any]] = defaultdict(list)
    st: SegStats | None = None
    if min_len >= 1 and max_len >= min_len and num_sents:
        try:
            if ignore_whitespace and not any(map(has_py_only_space, hyps + refs)):
                # No whitespace is left in the strings: the core's chrF extraction gives the
                # same clipped character n-gram matches per order (its hypothesis totals are
                # not used).
                st = _char_matches(hyps, refs, max_len)
            else:
                st = token_stats([list(h) for h in hyps], [[list(r)] for r in refs], max_len, None)
        except (UnicodeEncodeError, InvalidTextError):
            st = None  # a lone surrogate (not UTF-8): NLTK's own loop below
    if st is not None:
        for n in range(min_len, max_len + 1):
            ngram_fscores[n] = _fscores(st, n, beta)
    else:
        for reference, hypothesis in zip(refs, hyps):
            for n in range(min_len, max_len + 1):
                ngram_fscores[n].append(
                    chrf_precision_recall_fscore_support(reference, hypothesis, n, beta=beta)[2]
                )
    num_ngram_sizes = len(ngram_fscores)
    total_scores = [sum(fscores) for n, fscores in ngram_fscores.items()]
    try:
        result: float = (sum(total_scores) / num_ngram_sizes) / num_sents
        return result
    except ZeroDivisionError:
        raise flavor_error(
            FLAVOR,
            "empty corpus or no n-gram order (NLTK: ZeroDivisionError: division by zero)",
            ZeroDivisionError,
        ) from None
