"""ROUGE's engine, where the ``rouge_score`` drop-in has always found it.

The engine is a metric's, so it lives in :mod:`parbleu.metrics.rouge_engine` (``metrics`` does
not import ``flavors``); this module re-exports its public names for the drop-in and for code
that imported it from here.
"""

from __future__ import annotations

from ...metrics.rouge_engine import (
    ROUGE_TYPES,
    SCORE_FIELDS,
    STAT_FIELDS,
    TOKENIZERS,
    DiscardShare,
    RougeBatch,
    bootstrap_compat,
    bootstrap_stats,
    check_bootstrap,
    check_rouge_types,
    discarded_share,
    merge_types,
    score_batch,
    sentence_splitter,
    tokenize,
)

__all__ = [
    "ROUGE_TYPES",
    "SCORE_FIELDS",
    "STAT_FIELDS",
    "TOKENIZERS",
    "DiscardShare",
    "RougeBatch",
    "bootstrap_compat",
    "bootstrap_stats",
    "check_bootstrap",
    "check_rouge_types",
    "discarded_share",
    "merge_types",
    "score_batch",
    "sentence_splitter",
    "tokenize",
]
