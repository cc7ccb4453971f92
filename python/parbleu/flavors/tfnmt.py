"""tensorflow/nmt's ``compute_bleu`` (nmt/scripts/bleu.py, commit ``0be8642``) and HF ``evaluate``.

* :func:`compute_bleu` takes token lists, as the original: the reference length is the
  **shortest** reference of each segment, ``smooth=True`` adds one to numerator and denominator
  of **every** order (unigrams included), and the result is
  ``(bleu, precisions, bp, ratio, translation_length, reference_length)`` on the 0-1 scale.
  The original divides by zero when the references (``ratio``) or the translations (``bp``)
  are empty: a :class:`~parbleu.errors.FlavorError` that is also a ``ZeroDivisionError`` is
  raised there; a segment without references is its ``ValueError`` (``min()`` of nothing).
* :func:`bleu` is nmt's own command-line path (``nmt/utils/evaluation_utils.py``, ``_bleu``):
  one reference file, lines read by ``codecs`` (``str.splitlines`` boundaries), ``strip()`` and
  ``split(" ")`` (empty tokens for runs of spaces), BPE/SPM cleaning of references, ×100.
* :func:`hf_bleu` / :func:`load` reproduce HuggingFace ``evaluate.load("bleu").compute(...)``
  (13a tokens, then nmt's ``compute_bleu`` as HF vendors it: with empty translations or
  references it returns ``bp = ratio = 0`` instead of dividing by zero) and
  ``evaluate.load("google_bleu")`` (NLTK's ``corpus_gleu`` on 13a tokens).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any, Callable, Optional

from .. import _core
from .._workers import resolve_workers
from ._common import (
    SegStats,
    check_refs,
    flavor_error,
    line_stats,
    shortest_ref_lens,
    token_stats,
)

__all__ = [
    "HFMetric",
    "bleu",
    "compute_bleu",
    "hf_bleu",
    "hf_google_bleu",
    "hf_sentence_bleu",
    "hf_sentence_bleus",
    "load",
]

FLAVOR = "tfnmt"

Result = tuple[float, list[float], float, float, int, int]


def _zip(refs: Sequence[Any], hyps: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    n = min(len(refs), len(hyps))
    return list(refs[:n]), list(hyps[:n])


def _check_refs(refs: Sequence[Sequence[Any]], flavor: str) -> None:
    check_refs(
        refs,
        flavor,
        "the original's min(len(r) for r in references) raises ValueError: min() arg is an "
        "empty sequence",
    )


def _finish(st: SegStats, max_order: int, smooth: bool, hf: bool) -> Result:
    matches, possible, translation_length = st.corpus_counts(max_order)
    reference_length = int(shortest_ref_lens(st).sum()) if len(st) else 0
    precisions: list[float] = [0.0] * max_order
    for i in range(max_order):
        if smooth:
            precisions[i] = (matches[i] + 1.0) / (possible[i] + 1.0)
        elif possible[i] > 0:
            precisions[i] = float(matches[i]) / possible[i]
        else:
            precisions[i] = 0.0
    if not precisions:
        raise flavor_error(
            FLAVOR, "max_order=0 (the original's min(precisions) raises ValueError)", ValueError
        )
    if min(precisions) > 0:
        p_log_sum = sum((1.0 / max_order) * math.log(p) for p in precisions)
        geo_mean: float = math.exp(p_log_sum)
    else:
        geo_mean = 0
    if hf and (reference_length == 0 or translation_length == 0):
        ratio, bp = 0.0, 0.0
    else:
        if reference_length == 0:
            raise flavor_error(
                FLAVOR,
                "the references have no tokens (the original divides by zero: "
                "ratio = translation_length / reference_length)",
                ZeroDivisionError,
            )
        ratio = float(translation_length) / reference_length
        if ratio > 1.0:
            bp = 1.0
        elif ratio == 0:
            raise flavor_error(
                FLAVOR,
                "the translations have no tokens (the original divides by zero: "
                "bp = exp(1 - 1 / ratio))",
                ZeroDivisionError,
            )
        else:
            bp = math.exp(1 - 1.0 / ratio)
    return (geo_mean * bp, precisions, bp, ratio, translation_length, reference_length)


def compute_bleu(
    reference_corpus: Sequence[Sequence[Sequence[Any]]],
    translation_corpus: Sequence[Sequence[Any]],
    max_order: int = 4,
    smooth: bool = False,
) -> Result:
    """BLEU of token lists against one or more references per segment.

    Parameters
    ----------
    reference_corpus
        For each segment, its reference token lists.
    translation_corpus
        Translation token lists (the longer of the two corpora is truncated, as ``zip``).
    max_order
        Highest n-gram order.
    smooth
        Add one to numerator and denominator of every order.

    Returns
    -------
    tuple
        ``(bleu, precisions, bp, ratio, translation_length, reference_length)``.
    """
    refs, hyps = _zip(reference_corpus, translation_corpus)
    _check_refs(refs, FLAVOR)
    st = token_stats(hyps, refs, max_order, workers=None)
    return _finish(st, max_order, smooth, hf=False)


def _lines_codecs(path: str) -> list[str]:
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    return text.splitlines(keepends=True)


def _clean(sentence: str, subword_option: str | None) -> str:
    sentence = sentence.strip()
    if subword_option == "bpe":
        sentence = re.sub("@@ ", "", sentence)
    elif subword_option == "spm":
        sentence = "".join(sentence.split()).replace("\u2581", " ").lstrip()
    return sentence


def bleu(ref_file: str, trans_file: str, subword_option: str | None = None) -> float:
    """Nmt's ``evaluation_utils._bleu``: 100 × BLEU of a translation file against one reference.

    Lines are read as ``codecs`` reads them (every ``str.splitlines`` boundary ends a line),
    stripped and split on single spaces; ``subword_option`` (``"bpe"``, ``"spm"``) cleans the
    references only, as the original does.
    """
    refs = [[_clean(r, subword_option).split(" ")] for r in _lines_codecs(ref_file)]
    hyps = [_clean(h, None).split(" ") for h in _lines_codecs(trans_file)]
    return 100 * compute_bleu(refs, hyps, 4, False)[0]


# --- HuggingFace evaluate -------------------------------------------------------------------

Tokenizer = Optional[Callable[[str], Sequence[Any]]]


def _hf_references(references: Sequence[Any]) -> list[list[str]]:
    if isinstance(references[0], str):
        return [[ref] for ref in references]
    return [list(r) for r in references]


def hf_bleu(
    predictions: Sequence[str],
    references: Sequence[str | Sequence[str]],
    tokenizer: Tokenizer = None,
    max_order: int = 4,
    smooth: bool = False,
    tokenizer_name: str | None = None,
) -> dict[str, Any]:
    """``evaluate.load("bleu").compute(predictions=..., references=..., ...)``.

    ``tokenizer=None`` is HF's default ``Tokenizer13a`` (SacreBLEU's ``13a``, split on
    whitespace); any callable returning tokens may be given; ``tokenizer_name="whitespace"``
    is ``str.split``.
    """
    refs = _hf_references(references)
    if tokenizer_name is not None:
        if tokenizer_name != "whitespace":
            raise flavor_error(
                "hf-bleu",
                f"tokenizer_name={tokenizer_name!r} is not reproduced (only 'whitespace' is)",
                ValueError,
            )
        tokenizer = str.split
    refs, preds = _zip(refs, list(predictions))
    _check_refs(refs, "hf-bleu")
    if tokenizer is None:
        st = line_stats(
            list(preds), refs, ("13a", "keep", "python"), ("13a", "keep", "python"), max_order
        )
    else:
        tok = tokenizer
        st = token_stats(
            [tok(p) for p in preds], [[tok(r) for r in rs] for rs in refs], max_order, None
        )
    b, precisions, bp, ratio, tl, rl = _finish(st, max_order, smooth, hf=True)
    return {
        "bleu": b,
        "precisions": precisions,
        "brevity_penalty": bp,
        "length_ratio": ratio,
        "translation_length": tl,
        "reference_length": rl,
    }


def hf_sentence_bleu(
    prediction: str,
    references: str | Sequence[str],
    max_order: int = 4,
    smooth: bool = False,
) -> dict[str, Any]:
    """``hf_bleu([prediction], [references])`` of one sentence, in one call to the core.

    The per-call path of sentence-level HF BLEU (default ``Tokenizer13a``): tokenizing, counting
    and HF's arithmetic run in Rust and the dict is built there.

    Parameters
    ----------
    prediction
        The hypothesis.
    references
        Its reference, or a list of references.
    max_order, smooth
        As :func:`compute_bleu`.

    Returns
    -------
    dict
        As :func:`hf_bleu`: ``bleu``, ``precisions``, ``brevity_penalty``, ``length_ratio``,
        ``translation_length``, ``reference_length``.
    """
    refs = [references] if isinstance(references, str) else references
    if max_order < 1 or not refs or type(prediction) is not str:
        # The original's errors (and anything the core does not take) go the general way.
        return hf_bleu([prediction], [list(refs)], max_order=max_order, smooth=smooth)
    out: dict[str, Any] = _core.flavor_hf_sentence_bleu(prediction, refs, max_order, smooth)
    return out


def hf_sentence_bleus(
    predictions: Sequence[str],
    references: Sequence[str | Sequence[str]],
    max_order: int = 4,
    smooth: bool = False,
    workers: int | None = None,
) -> list[dict[str, Any]]:
    """Sentence-level HF BLEU of every prediction: ``[hf_bleu([p], [r]) for p, r in ...]``.

    The batch API: one call to the core for the whole list (parallel with ``workers``).
    ``references`` is as for :func:`hf_bleu` (one string per prediction, or a list each); the
    longer of the two lists is truncated, as ``zip``.

    Returns
    -------
    list of dict
        One :func:`hf_bleu` result per prediction.
    """
    preds = list(predictions)
    if not preds or not references:
        return []
    refs, preds = _zip(_hf_references(references), preds)
    _check_refs(refs, "hf-bleu")
    if max_order < 1:
        return [hf_bleu(preds[:1], refs[:1], max_order=max_order, smooth=smooth)]
    w = resolve_workers(workers, len(preds))
    out: list[dict[str, Any]] = _core.flavor_hf_sentence_bleus(preds, refs, max_order, smooth, w)
    return out


def hf_google_bleu(
    predictions: Sequence[str],
    references: Sequence[str | Sequence[str]],
    tokenizer: Tokenizer = None,
    min_len: int = 1,
    max_len: int = 4,
) -> dict[str, float]:
    """``evaluate.load("google_bleu").compute(...)``: NLTK's ``corpus_gleu`` on 13a tokens."""
    from . import nltk as _nltk
    from ._common import tokens as _tokens

    refs = _hf_references(references)
    if tokenizer is None:
        hyp_t: list[Any] = _tokens(list(predictions), ("13a", "keep", "python"))
        flat = [r for rs in refs for r in rs]
        flat_t = iter(_tokens(flat, ("13a", "keep", "python")))
        ref_t: list[Any] = [[next(flat_t) for _ in rs] for rs in refs]
    else:
        hyp_t = [tokenizer(p) for p in predictions]
        ref_t = [[tokenizer(r) for r in rs] for rs in refs]
    return {"google_bleu": _nltk.corpus_gleu(ref_t, hyp_t, min_len=min_len, max_len=max_len)}


class HFMetric:
    """What ``evaluate.load(name)`` returns, for ``bleu`` and ``google_bleu``."""

    def __init__(self, name: str) -> None:
        if name not in ("bleu", "google_bleu"):
            raise flavor_error("hf", f"metric {name!r} is not a BLEU flavor", ValueError)
        self.name = name

    def compute(
        self, *, predictions: Sequence[str], references: Sequence[Any], **kwargs: Any
    ) -> dict[str, Any]:
        """Score ``predictions`` against ``references`` (HF's keyword-only call)."""
        if self.name == "bleu":
            return hf_bleu(predictions, references, **kwargs)
        return hf_google_bleu(predictions, references, **kwargs)


def load(name: str) -> HFMetric:
    """``evaluate.load("bleu")`` / ``evaluate.load("google_bleu")`` without downloading anything."""
    return HFMetric(name)
