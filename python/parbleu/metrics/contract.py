"""The metric contract: what every surface uses of a metric, and the smallest way to meet it.

:class:`MetricContract` lists what the command line, significance, the report, streaming,
Dask and the integrations call on a metric object (all of it implemented by
:class:`~.base.Metric`). A new metric subclasses :class:`~.base.Metric` (extract, add,
finalize: see docs/architecture.md) or, when its corpus score is the mean of its segment
scores, :class:`SegmentMean`, which needs one method: :meth:`SegmentMean.segment_score`.
Registered with :func:`~.registry.register_metric` (capabilities and option schema in the
entry), it is then found by ``-m``, ``parbleu compare``, ``--paired-bs``, ``parbleu report``,
streaming, Dask and ``compute_metrics`` without another edit.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from .. import _core
from ..score import Score
from .base import Metric
from .schema import Capabilities

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ..signature import Signature
    from ..stats import StatsAccumulator

__all__ = ["MetricContract", "SegmentMean"]


class MetricContract(Protocol):
    """What parbleu's surfaces use of a metric object (``Metric`` implements all of it)."""

    metric_name: str
    higher_is_better: ClassVar[bool]

    @property
    def title(self) -> str:
        """Display name (the registry entry's title)."""

    @property
    def capabilities(self) -> Capabilities:
        """The registry entry's declared capabilities."""

    @property
    def stats_width(self) -> int:
        """Columns of a statistics row."""

    def stats_key(self) -> tuple[Any, ...]:
        """Return the options the rows depend on (rows merge only when equal)."""

    def columns(self) -> list[Any]:
        """Return the metrics a table reports for this one (itself, or one per sub-score)."""

    def corpus_score(
        self, hypotheses: Sequence[str], references: Any, n_bootstrap: int = 1
    ) -> Score:
        """Return the corpus score of one system."""

    def extract_stats(self, hypotheses: Sequence[str], references: Any = None) -> Any:
        """Return per-segment statistics rows."""

    def extract_stats_many(self, systems: Any, references: Any = None) -> list[Any]:
        """Return per-segment statistics of several systems."""

    def score_from_stats(self, stats: Any) -> Score:
        """Return the score of a row or of summed rows."""

    def score_row(self, row: Sequence[Any]) -> Score:
        """Return the score of one summed row."""

    def score_rows(self, rows: Any, workers: int | None = None) -> Any:
        """Return the score of every row on its own (sentence scores)."""

    def add_rows(self, total: list[Any] | None, rows: Any) -> list[Any]:
        """Return a running total plus a block of rows, in the metric's order."""

    def core_scorer(self) -> Any:
        """Return the core's finalize step, for resampling (``resample`` capability)."""

    def sentence_metric(self) -> Any:
        """Return the metric of sentence scores."""

    def get_signature(self) -> Signature:
        """Return the reproducibility signature."""

    def accumulator(self) -> StatsAccumulator:
        """Return a running sum of statistics (streaming, Dask)."""


class _SegmentRefs:
    """References per segment (``None`` entries dropped), as ``Metric.prepare`` keeps them."""

    def __init__(self, streams: list[list[Any]]) -> None:
        self.per_segment = [[r for r in refs if r is not None] for refs in zip(*streams)]

    def __len__(self) -> int:
        return len(self.per_segment)

    def first_segment_without_refs(self) -> int | None:
        return next((i for i, r in enumerate(self.per_segment) if not r), None)

    def ref_counts(self) -> list[int]:
        return sorted({len(r) for r in self.per_segment})


class SegmentMean(Metric[Score]):
    """A metric whose corpus score is the mean of its segment scores: one method to write.

    A statistics row is ``[segment score, 1.0]`` (float64): rows add, a summed row divided by
    its count is the mean, and the core resamples rows with ``_core.Scorer.mean`` (paired
    tests, intervals, the report's clusters). Subclasses set :attr:`metric_name` (the
    registry name) and implement :meth:`segment_score`; options that change the scores go in
    :meth:`options` (the statistics key and the signature).
    """

    #: Name in the registry, statistics keys and messages.
    metric_name = "segment-mean"
    _ROW_DTYPE = "<f8"

    def __init__(self, references: Sequence[Sequence[str | None]] | None = None) -> None:
        """Keep ``references`` (streams) for every call, as every metric's ``references=``.

        A subclass sets its options first, then calls this (the cache key reads them).
        """
        super().__init__()
        if references is not None:
            self._ref_cache = self._cache_references(references)

    @abstractmethod
    def segment_score(self, hypothesis: str, references: list[str]) -> float:
        """Return one segment's score (the corpus score is their mean).

        Parameters
        ----------
        hypothesis
            The segment's hypothesis.
        references
            Its references (at least one).

        Returns
        -------
        float
            The score, on the scale the metric reports.
        """

    def options(self) -> dict[str, Any]:
        """Return the options that change the scores (``{}``; subclasses add theirs)."""
        return {}

    @property
    def stats_width(self) -> int:
        """``2``: the segment's score, then a count of 1.0."""
        return 2

    def stats_key(self) -> tuple[Any, ...]:
        """Return the metric's name and options: rows merge only when these are equal."""
        return (self.metric_name, *sorted(self.options().items()))

    def _prepare_refs(self, streams: list[list[Any]], workers: int) -> Any:
        return _SegmentRefs(streams)

    def _extract_raw(self, prepared: Any, hyps: list[str], workers: int) -> bytes:
        import numpy as np

        rows = np.ones((len(hyps), 2), dtype="<f8")
        rows[:, 0] = [self.segment_score(h, r) for h, r in zip(hyps, prepared.per_segment)]
        return rows.tobytes()

    def _sum_raw(self, data: bytes, n_rows: int) -> list[Any]:
        import numpy as np

        return self._sum_rows(np.frombuffer(data, dtype="<f8").reshape(n_rows, 2))

    def _sum_rows(self, rows: npt.NDArray[Any]) -> list[Any]:
        # Row after row in index order (numpy along axis 0): the order the core's mean
        # scorer and add_rows use too, so every path gives the same bits.
        import numpy as np

        return np.ascontiguousarray(rows, dtype=np.float64).sum(axis=0).tolist()  # type: ignore[no-any-return]

    def add_rows(self, total: list[Any] | None, rows: npt.NDArray[Any]) -> list[Any]:
        """Return ``total`` (``None``: none yet) plus the rows, added one after the other."""
        import numpy as np

        if total is None:
            return self._sum_rows(rows)
        return self._sum_rows(np.vstack([np.asarray([total], dtype=np.float64), rows]))

    def _score_row(self, row: Sequence[Any]) -> Score:
        return Score(self.title, float(row[0]) / float(row[1]))

    def _score_rows(self, rows: npt.NDArray[Any], workers: int) -> npt.NDArray[np.float64]:
        import numpy as np

        arr = np.asarray(rows, dtype=np.float64)
        return arr[:, 0] / arr[:, 1]

    def core_scorer(self) -> Any:
        """Return ``_core.Scorer.mean(2, 0)``: the mean of the segment scores, resampled."""
        return _core.Scorer.mean(2, 0, 1.0)
