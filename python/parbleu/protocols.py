"""What the modules below the metrics ask of a metric, as structural types.

``stats`` (``StatsAccumulator``) and ``_resampling`` (bootstrap, approximate randomization)
work on any object with these methods; every ``parbleu.metrics.base.Metric`` has them. They
name these protocols instead of ``Metric`` so that ``metrics`` can use them without an import
cycle (``Metric.accumulator()`` and ``corpus_score(n_bootstrap=...)`` call into them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .score import Score

__all__ = ["BootstrapMetric", "RowScorer", "StatsMetric"]


class RowScorer(Protocol):
    """A metric that scores statistics rows (resampling's view of it)."""

    def core_scorer(self) -> Any:
        """Return the core's scorer of statistics rows (``_core.Scorer``)."""

    @property
    def signed_rows(self) -> bool:
        """Whether statistics rows may be negative (imported scores), not counts."""

    def score_rows(
        self, rows: npt.NDArray[Any], workers: int | None = None
    ) -> npt.NDArray[np.float64]:
        """Return the score of every statistics row."""


class BootstrapMetric(RowScorer, Protocol):
    """A row scorer whose signature records its bootstrap (``bs:`` and ``seed:``)."""

    n_bootstrap: int | None
    seed: int | None


class StatsMetric(Protocol):
    """A metric whose statistics rows add up (``StatsAccumulator``'s view of it)."""

    @property
    def stats_width(self) -> int:
        """Number of columns of a statistics row."""

    def stats_key(self) -> tuple[Any, ...]:
        """Return the options that change the statistics."""

    def extract_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        workers: int | None = None,
    ) -> npt.NDArray[Any]:
        """Return per-segment statistics."""

    def score_row(self, row: Sequence[Any]) -> Score:
        """Return the score of one summed statistics row."""

    def add_rows(self, total: list[Any] | None, rows: npt.NDArray[Any]) -> list[Any]:
        """Return ``total`` (``None``: none yet) plus a block of rows, in the metric's order."""
