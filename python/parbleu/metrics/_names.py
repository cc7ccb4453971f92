"""Metric names: the one list the command line, the docs and the name-taking APIs read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable

from .base import Metric
from .bleu import BLEU
from .chrf import CHRF
from .ter import TER

__all__ = ["METRIC_NAMES", "NAMED_METRICS", "metric_from_name", "word_tokenization"]

#: The metrics, in SacreBLEU's order (the command line's ``-m`` choices).
METRIC_NAMES = ("bleu", "chrf", "ter")
#: Every name the APIs accept for a metric object (``chrf++`` is chrF with word order 2).
NAMED_METRICS = ("bleu", "chrf", "chrf++", "ter")

_ALIASES = {"chrfpp": "chrf++"}


def metric_from_name(name: str, *, sentence: bool = False) -> Metric[Any] | None:
    """Return a new metric object for a name of ``NAMED_METRICS`` (any case), or ``None``.

    Parameters
    ----------
    name
        ``"bleu"``, ``"chrf"``, ``"chrf++"`` (also ``"chrfpp"``) or ``"ter"``.
    sentence
        SacreBLEU's sentence-level defaults (``sentence_bleu``: BLEU with effective order);
        else the corpus defaults, as ``BLEU()``.

    Returns
    -------
    Metric or None
        The metric, or ``None`` for an unknown name (the caller words the error).
    """
    key = name.lower()
    key = _ALIASES.get(key, key)
    if key == "bleu":
        return BLEU(effective_order=True) if sentence else BLEU()
    if key == "chrf":
        return CHRF()
    if key == "chrf++":
        return CHRF(word_order=2)
    if key == "ter":
        return TER()
    return None


def word_tokenization(metrics: Sequence[Metric[Any]]) -> tuple[Callable[[str], str], bool]:
    """Word tokenizer and lowercasing of the first metric with word n-gram statistics.

    Parameters
    ----------
    metrics
        The metrics of a report.

    Returns
    -------
    tuple
        ``(tokenizer, lowercase)`` of that metric, or of ``BLEU()`` if none counts words.
    """
    words = next((m for m in metrics if m.word_ngram_stats), None)
    return (words if words is not None else BLEU()).word_tokenization()
