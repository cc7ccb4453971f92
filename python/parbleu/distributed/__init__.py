"""Scoring on a Dask cluster: corpora spread over many files, Parquet datasets, dataframes.

Statistics are extracted per partition on the workers and merged in a tree (integer rows add
in any order); the client turns the merged row into the score, so scores and signatures are
those of ``metric.corpus_score`` on the whole corpus, bit for bit. Needs the ``dask`` extra
(``pip install 'parbleu[dask]'``: ``dask[distributed]`` and ``pyarrow``); nothing here is
imported by ``import parbleu``. See ``docs/distributed.md``.

>>> from parbleu import distributed
>>> distributed.score_files("out/*.de", ["ref/*.de"], ["bleu", "chrf"], scheduler="local:4")
... # doctest: +SKIP
"""

from __future__ import annotations

from .api import (
    DEFAULT_PART_LINES,
    score_arrow,
    score_bag,
    score_dataframe,
    score_files,
    score_parquet,
)
from .cluster import SchedulerArg, connect, reduce_tree
from .frames import mbr_by_source, segment_stats, with_sentence_scores
from .partials import Partial, extract_partial, final_scores, merge, merge_all, resolve_metrics
from .sentence_parquet import sentence_scores_parquet

__all__ = [
    "DEFAULT_PART_LINES",
    "Partial",
    "SchedulerArg",
    "connect",
    "extract_partial",
    "final_scores",
    "mbr_by_source",
    "merge",
    "merge_all",
    "reduce_tree",
    "resolve_metrics",
    "score_arrow",
    "score_bag",
    "score_dataframe",
    "score_files",
    "score_parquet",
    "segment_stats",
    "sentence_scores_parquet",
    "with_sentence_scores",
]
