"""Significance testing: SacreBLEU's paired tests bit for bit, and an exact path beyond them.

Both paths resample the per-segment statistics of :meth:`Metric.extract_stats` in Rust, in
parallel, and release the GIL (Ctrl-C interrupts them). See ``docs/significance.md``.

SacreBLEU-compatible path
    :class:`PairedTest` (the ``--paired-bs`` / ``--paired-ar`` tables), :func:`bootstrap_ci`
    (``corpus_score(..., n_bootstrap=N)`` and ``--confidence``), and ``compat=True`` in the
    functions below. Seeds come from ``SACREBLEU_SEED`` as in SacreBLEU (default ``12345``,
    ``None`` for an unseeded run, and ``0`` unseeds the system comparisons), indices from
    ``numpy.random.default_rng``, and bootstrap resamples are summed and scored in SacreBLEU's
    float32 arithmetic: p-values, means and intervals are SacreBLEU 2.6's to the last bit.

Exact path (the default of :func:`paired_bootstrap`, :func:`paired_ar`,
:func:`confidence_interval` and :func:`compare_all`)
    Integer statistics throughout (TER: float64 in a fixed order), a seed that is a seed even
    when it is 0, results identical at any thread count, valid two-sided p-values (identical
    systems get p = 1), structured results, and all-pairs comparison of N systems with the
    Holm-Bonferroni correction.

Modules: :mod:`.compatible` (the SacreBLEU-compatible path), :mod:`.exact` (the exact path and
:func:`compare_all`), :mod:`.results` (result types), :mod:`.report` (text rendering); the
resampling kernel both paths share with ``corpus_score`` is :mod:`parbleu._resampling`.
"""

from __future__ import annotations

from .._resampling import DEFAULT_SEED, SEED_ENV, bootstrap_ci, estimate_ci, sacrebleu_seed

# What the report and the command line check and size with (not in __all__: helpers of
# parbleu's own surfaces, public so that no package reaches into significance's modules).
from ._count import DEFAULT_N as DEFAULT_N
from ._count import FLOOR_FACTOR as FLOOR_FACTOR
from ._count import MIN_SEGMENTS as MIN_SEGMENTS
from ._count import needed_resamples as needed_resamples
from ._systems import References as References
from ._systems import Systems as Systems
from ._systems import Test as Test
from ._systems import check_systems as check_systems
from .compatible import PairedTest, Result
from .exact import check_confidence as check_confidence
from .exact import check_n as check_n
from .exact import check_seed as check_seed
from .exact import compare_all, confidence_interval, holm_bonferroni, paired_ar, paired_bootstrap
from .results import (
    Comparison,
    ConfidenceInterval,
    MetricComparison,
    PairedResult,
    PairwiseResult,
)

__all__ = [
    "DEFAULT_SEED",
    "SEED_ENV",
    "Comparison",
    "ConfidenceInterval",
    "MetricComparison",
    "PairedResult",
    "PairedTest",
    "PairwiseResult",
    "Result",
    "bootstrap_ci",
    "compare_all",
    "confidence_interval",
    "estimate_ci",
    "holm_bonferroni",
    "paired_ar",
    "paired_bootstrap",
    "sacrebleu_seed",
]
