"""Mergeable statistics: the accumulator behind streaming and distributed scoring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ._stats_checks import check_counts, check_stats_array
from .errors import IncompatibleStatisticsError, StatisticsError

if TYPE_CHECKING:
    from .protocols import StatsMetric
    from .score import Score

__all__ = ["StatsAccumulator", "check_counts", "check_stats_array"]


class StatsAccumulator:
    """A running sum of a metric's statistics.

    Statistics only add when they were extracted with the same options (tokenizer, case,
    orders, ...): :meth:`merge` refuses anything else.

    Parameters
    ----------
    metric
        The metric whose options extract and finalize.
    """

    def __init__(self, metric: StatsMetric) -> None:
        self.metric = metric
        self.key = metric.stats_key()
        self.total: list[Any] = [0] * metric.stats_width
        self.n_segments = 0
        self._ref_counts: set[int] = set()

    def update(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        workers: int | None = None,
    ) -> StatsAccumulator:
        """Add a batch of segments.

        Parameters
        ----------
        hypotheses
            One string per segment.
        references
            Reference streams for those segments (or ``None`` for the metric's cached ones).
        workers
            Threads.

        Returns
        -------
        StatsAccumulator
            ``self``.
        """
        rows = self.metric.extract_stats(hypotheses, references, workers=workers)
        self.add_stats(rows)
        num_refs = getattr(self.metric, "num_refs", None)
        if num_refs is not None:
            self._ref_counts.add(num_refs)
        return self

    def add_stats(self, rows: Any) -> StatsAccumulator:
        """Add statistics rows (or one summed row) extracted elsewhere with the same options."""
        import numpy as np

        arr = check_stats_array(
            np.asarray(rows), self.metric.stats_width, "StatsAccumulator", "add_stats"
        )
        if arr.ndim == 1:
            self.total = [a + b for a, b in zip(self.total, arr.tolist())]
            self.n_segments += 1
            return self
        # The metric adds its rows in the order its corpus_score does (ROUGE's float rows one
        # after the other, TER's in SacreBLEU's order), so that a stream of blocks gives the
        # corpus score's bits; a block's column sums added to the total would not.
        self.total = list(self.metric.add_rows(self.total if self.n_segments else None, arr))
        self.n_segments += arr.shape[0]
        return self

    def merge(self, other: StatsAccumulator) -> StatsAccumulator:
        """Add another accumulator's statistics (made with the same extraction options).

        Raises
        ------
        IncompatibleStatisticsError
            If the two were extracted with different options.
        """
        if not isinstance(other, StatsAccumulator):
            raise IncompatibleStatisticsError(
                f"merge: expected a StatsAccumulator, got {type(other).__name__}"
            )
        if other.key != self.key:
            raise IncompatibleStatisticsError(
                f"merge: statistics extracted with different options cannot be added: "
                f"{_fmt_key(self.key)} vs {_fmt_key(other.key)}"
            )
        self.total = [a + b for a, b in zip(self.total, other.total)]
        self.n_segments += other.n_segments
        self._ref_counts |= other._ref_counts
        return self

    def result(self) -> Score:
        """Return the corpus score of everything added so far."""
        if self.n_segments == 0:
            from .errors import EmptyInputError

            raise EmptyInputError("StatsAccumulator.result: no segments were added")
        score: Score = self.metric.score_row(self.total)
        return score

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-serialisable form (to send partial sums between processes)."""
        return {"key": list(self.key), "total": list(self.total), "n_segments": self.n_segments}

    def merge_dict(self, d: dict[str, Any]) -> StatsAccumulator:
        """Merge a partial sum produced by :meth:`to_dict` (same key required)."""
        if tuple(d.get("key", ())) != self.key:
            raise IncompatibleStatisticsError(
                f"merge: statistics extracted with different options cannot be added: "
                f"{_fmt_key(self.key)} vs {_fmt_key(tuple(d.get('key', ())))}"
            )
        import numpy as np

        width = self.metric.stats_width
        total = check_stats_array(
            np.asarray(d.get("total", ())), width, "StatsAccumulator", "merge_dict"
        )
        if total.ndim != 1:
            raise StatisticsError(
                f"StatsAccumulator.merge_dict: 'total' must be one row, got shape {total.shape}"
            )
        n = d.get("n_segments")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise StatisticsError(
                f"StatsAccumulator.merge_dict: 'n_segments' must be an integer >= 0, got {n!r}"
            )
        self.total = [a + b for a, b in zip(self.total, total.tolist())]
        self.n_segments += n
        return self


def _fmt_key(key: tuple[Any, ...]) -> str:
    return "(" + ", ".join(map(repr, key)) + ")"
