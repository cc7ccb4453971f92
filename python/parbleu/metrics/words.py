"""Which tokenizer splits a report's text into words: the first word-counting metric's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .base import Metric
from .registry import make_metric

__all__ = ["word_tokenization"]


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
    return (words if words is not None else make_metric("bleu")).word_tokenization()
