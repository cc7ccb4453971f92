"""Mergeable statistics: the accumulator behind streaming and distributed scoring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .errors import IncompatibleStatisticsError, StatisticsError

if TYPE_CHECKING:
    import numpy.typing as npt

    from .metrics.base import Metric
    from .score import Score


def check_stats_array(
    arr: npt.NDArray[Any], width: int, owner: str, method: str = "score_from_stats"
) -> npt.NDArray[Any]:
    """Check that ``arr`` is a statistics row or matrix of ``width`` columns.

    Parameters
    ----------
    arr
        The array.
    width
        Expected number of columns.
    owner
        Metric name for the message.
    method
        Method name for the message.

    Returns
    -------
    numpy.ndarray
        ``arr`` itself.
    """
    if arr.dtype.kind not in "iuf":
        raise StatisticsError(f"{owner}.{method}: expected numbers, got dtype {arr.dtype}")
    if arr.ndim not in (1, 2) or arr.shape[-1] != width:
        raise StatisticsError(
            f"{owner}.{method}: expected a row of {width} statistics or an (n, {width}) "
            f"matrix, got shape {arr.shape}"
        )
    check_counts(arr, f"{owner}.{method}")
    return arr


def check_counts(arr: npt.NDArray[Any], what: str) -> None:
    """Raise ``StatisticsError`` for a NaN, an infinity or a negative value in statistics.

    Every metric's statistics are counts or lengths: such a value would be scored into a
    plausible-looking number (BLEU 100 from negative rows) instead of an error.

    Parameters
    ----------
    arr
        The statistics (any shape, numeric dtype).
    what
        Where they were passed, for the message.
    """
    import numpy as np

    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        where = tuple(np.argwhere(~np.isfinite(arr))[0].tolist())
        raise StatisticsError(f"{what}: statistics must be finite, found {arr[where]} at {where}")
    if arr.dtype.kind != "u" and arr.size and (arr < 0).any():
        where = tuple(np.argwhere(arr < 0)[0].tolist())
        raise StatisticsError(
            f"{what}: statistics are counts and must be >= 0, found {arr[where]} at {where}"
        )


class StatsAccumulator:
    """A running sum of a metric's statistics.

    Statistics only add when they were extracted with the same options (tokenizer, case,
    orders, ...): :meth:`merge` refuses anything else.

    Parameters
    ----------
    metric
        The metric whose options extract and finalize.
    """

    def __init__(self, metric: Metric[Any]) -> None:
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
        n = 1 if arr.ndim == 1 else arr.shape[0]
        summed = arr if arr.ndim == 1 else arr.sum(axis=0)
        self.total = [a + b for a, b in zip(self.total, summed.tolist())]
        self.n_segments += n
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
        score: Score = self.metric._score_row(self.total)
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
