"""What every metric shares: input checks, reference caching, the statistics API.

A metric is (extract, +, finalize): ``extract_stats`` gives one row per segment, rows add, and
``score_from_stats`` turns a summed row into a score. ``corpus_score``, ``sentence_score``,
``sentence_scores`` and the accumulator are all built from those three.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .. import _refcache
from .._inputs import (
    as_lines,
    as_ref_streams,
    check_items,
    diagnose_refs,
    diagnose_unencodable,
)
from .._lazylog import get_logger
from .._options import MAX_RESAMPLES, check_count
from .._stats_checks import check_stats_array
from .._workers import resolve_workers
from ..errors import EmptyInputError, InputTypeError
from ..score import Score
from ..signature import Signature
from ._checks import check_sentence_input, check_systems, diagnose_systems
from .capabilities import MetricCapabilities

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ..stats import StatsAccumulator

logger = get_logger("parbleu")

S = TypeVar("S", bound=Score)
R = TypeVar("R")

#: Above this many cells, statistics rows are summed with numpy (Python's loop costs about
#: 20 ns a cell; importing numpy about 60 ms).
_PY_SUM_MAX_CELLS = 500_000


class Metric(MetricCapabilities, ABC, Generic[S]):
    """Base class of BLEU, chrF and TER (SacreBLEU's ``Metric`` API plus statistics).

    The capability attributes and core objects other modules ask for (``higher_is_better``,
    ``core_scorer()``, ``pair_table()``, ...) are in :class:`.capabilities.MetricCapabilities`.
    """

    _SIGNATURE_TYPE: type[Signature] = Signature

    def __init__(self) -> None:
        self._ref_cache: Any = None
        self._force = True
        self.n_bootstrap: int | None = None
        self.seed: int | None = None

    # --- implemented by each metric -------------------------------------------------------
    @abstractmethod
    def _prepare_refs(self, streams: list[list[Any]], workers: int) -> Any:
        """Preprocess reference streams into the core's reference object."""

    @abstractmethod
    def _score_row(self, row: Sequence[Any]) -> S:
        """Finalize one summed statistics row into a score object."""

    @abstractmethod
    def _score_rows(self, rows: npt.NDArray[Any], workers: int) -> npt.NDArray[np.float64]:
        """Score of every row."""

    @abstractmethod
    def stats_key(self) -> tuple[Any, ...]:
        """Options that change the statistics; rows merge only when these are equal."""

    @property
    @abstractmethod
    def stats_width(self) -> int:
        """Number of columns of a statistics row."""

    #: How ``_extract_raw`` encodes a statistics row's cells (TER: float64).
    _ROW_DTYPE = "<i8"

    @abstractmethod
    def _extract_raw(self, prepared: Any, hyps: list[str], workers: int) -> bytes:
        """Statistics rows of prepared input, row-major, as ``_ROW_DTYPE`` bytes."""

    def _extract_rows(self, prepared: Any, hyps: list[str], workers: int) -> npt.NDArray[Any]:
        """Statistics rows (n_segments x width) of hypotheses against prepared references."""
        import numpy as np

        data = self._extract_raw(prepared, hyps, workers)
        return np.frombuffer(data, dtype=self._ROW_DTYPE).reshape(len(hyps), -1).copy()

    def _sum_rows(self, rows: npt.NDArray[Any]) -> list[Any]:
        """Column sums of a statistics matrix (TER overrides: floats added in index order)."""
        return rows.sum(axis=0).tolist()  # type: ignore[no-any-return]

    def _sum_raw(self, data: bytes, n_rows: int) -> list[Any]:
        """Column sums of ``_extract_raw``'s bytes, as ``_sum_rows`` gives them.

        Small inputs are summed without numpy: importing it costs more than a one-system
        command line spends scoring (integer sums are exact either way).
        """
        width = self.stats_width
        if n_rows * width > _PY_SUM_MAX_CELLS or sys.byteorder != "little":
            import numpy as np

            rows = np.frombuffer(data, dtype=self._ROW_DTYPE).reshape(n_rows, width)
            return self._sum_rows(rows)
        cells = memoryview(data).cast("q")
        return [sum(cells[j::width]) for j in range(width)]

    def _extract_sum(self, prepared: Any, hyps: list[str], workers: int) -> list[Any]:
        return self._sum_raw(self._extract_raw(prepared, hyps, workers), len(hyps))

    def _extract_many_rows(
        self, prepared: Any, systems: list[list[str]], workers: int
    ) -> list[npt.NDArray[Any]]:
        """Statistics rows of each system (metrics with a multi-system kernel override)."""
        return [self._extract_rows(prepared, hyps, workers) for hyps in systems]

    def _extract_many_sums(
        self, prepared: Any, systems: list[list[str]], workers: int
    ) -> list[list[Any]]:
        """Column sums of each system's rows (as ``_extract_sum``; overridable likewise)."""
        return [self._extract_sum(prepared, hyps, workers) for hyps in systems]

    def sentence_metric(self) -> Metric[S]:
        """Return the metric that scores single sentences the way SacreBLEU's users expect.

        BLEU without effective order gives a copy with it (as ``sentence_bleu``); every other
        metric returns itself.

        Returns
        -------
        Metric
            This metric or a modified copy.
        """
        return self

    def add_rows(self, total: list[Any] | None, rows: npt.NDArray[Any]) -> list[Any]:
        """Add a block of statistics rows to a running column total.

        Parameters
        ----------
        total
            The total so far (``None`` before the first block); not modified.
        rows
            An ``(n, stats_width)`` statistics matrix.

        Returns
        -------
        list
            The new total: exact integer sums (TER: floats added in SacreBLEU's order).
        """
        part = [int(x) for x in rows.sum(axis=0).tolist()]
        if total is not None:
            part = [a + b for a, b in zip(total, part)]
        return part

    def score_row(self, row: Sequence[Any]) -> S:
        """Finalize one summed statistics row into a score object (no checks).

        Parameters
        ----------
        row
            ``stats_width`` column sums, as :meth:`extract_stats` rows add up.

        Returns
        -------
        Score
            The metric's score object.
        """
        return self._score_row(row)

    def score_rows(
        self, rows: npt.NDArray[Any], workers: int | None = None
    ) -> npt.NDArray[np.float64]:
        """Score of every statistics row, each finalized on its own (no checks).

        Parameters
        ----------
        rows
            An ``(n, stats_width)`` statistics matrix.
        workers
            Threads, as in :meth:`corpus_score`.

        Returns
        -------
        numpy.ndarray
            float64, one score per row.
        """
        return self._score_rows(rows, resolve_workers(workers, len(rows)))

    def check_hypotheses(self, hypotheses: Any) -> list[str]:
        """Return ``hypotheses`` as a non-empty list of lines, or raise a clear error.

        Parameters
        ----------
        hypotheses
            One string per segment.

        Returns
        -------
        list of str
            The lines.
        """
        return self._hyps(hypotheses)

    def prepare(
        self,
        references: Sequence[Sequence[str | None]],
        n_segments: int | None = None,
        *,
        workers: int | None = None,
    ) -> Any:
        """Prepare reference streams once, for :meth:`extract_prepared` on many systems.

        Parameters
        ----------
        references
            Reference streams, each one string (or ``None``) per segment.
        n_segments
            The number of hypotheses they must match (``None``: any).
        workers
            Threads, as in :meth:`corpus_score`.

        Returns
        -------
        object
            The core's prepared references (``len()`` is the number of segments); cached, so
            preparing the same streams with the same options again is free.
        """
        if n_segments is not None:
            n_segments = check_count("n_segments", n_segments, 1, sys.maxsize)
        streams = as_ref_streams(references, n_segments)
        return self._prepare_checked(streams, resolve_workers(workers, len(streams[0])))

    def extract_prepared(
        self, prepared: Any, hypotheses: list[str], workers: int | None = None
    ) -> npt.NDArray[Any]:
        """Statistics rows of ``hypotheses`` against references from :meth:`prepare`.

        Parameters
        ----------
        prepared
            What :meth:`prepare` returned (same number of segments as ``hypotheses``).
        hypotheses
            Lines, as :meth:`check_hypotheses` returns them.
        workers
            Threads, as in :meth:`corpus_score`.

        Returns
        -------
        numpy.ndarray
            Shape ``(n_segments, stats_width)``.
        """
        return self._extract_rows(prepared, hypotheses, resolve_workers(workers, len(hypotheses)))

    # --- references -----------------------------------------------------------------------
    def _refs_for(
        self, references: Sequence[Sequence[str | None]] | None, n_hyps: int, workers: int
    ) -> Any:
        if references is None:
            if self._ref_cache is None:
                raise InputTypeError(
                    "references: None, and no references were cached; pass references here or "
                    "to the constructor (references=...)"
                )
            if len(self._ref_cache) != n_hyps:
                from ..errors import LengthMismatchError

                raise LengthMismatchError(
                    f"hypotheses: {n_hyps} lines but the cached references have "
                    f"{len(self._ref_cache)}; nothing is truncated"
                )
            return self._ref_cache
        streams = as_ref_streams(references, n_hyps)
        return self._prepare_checked(streams, workers)

    def _prepare_checked(self, streams: list[list[Any]], workers: int) -> Any:
        key = (type(self).__qualname__, *self.stats_key())
        prepared = _refcache.get(key, streams)
        if prepared is None:
            try:
                prepared = self._prepare_refs(streams, workers)
            except TypeError:
                raise diagnose_refs(streams) from None
            except UnicodeEncodeError:
                raise diagnose_unencodable(streams, "references") from None
            _refcache.put(key, streams, prepared)
        zero = prepared.first_segment_without_refs()
        if zero is not None:
            raise InputTypeError(
                f"references: segment {zero} has no reference (None in every stream); "
                "every segment needs at least one"
            )
        counts = prepared.ref_counts()
        self.num_refs = counts[0] if len(counts) == 1 else -1
        return prepared

    def _cache_references(self, references: Sequence[Sequence[str | None]]) -> Any:
        return self.prepare(references)

    def _hyps(self, hypotheses: Any) -> list[str]:
        hyps = as_lines(hypotheses, "hypotheses")
        if not hyps:
            raise EmptyInputError("hypotheses: empty; expected at least one segment")
        return hyps

    def _rows(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        workers: int | None,
    ) -> npt.NDArray[Any]:
        return self._per_segment(hypotheses, references, workers, self._extract_rows)

    def _per_segment(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        workers: int | None,
        run: Callable[[Any, list[str], int], R],
    ) -> R:
        """Validate, prepare the references, and call ``run(prepared, hyps, workers)``."""
        hyps = self._hyps(hypotheses)
        w = resolve_workers(workers, len(hyps))
        prepared = self._refs_for(references, len(hyps), w)
        try:
            return run(prepared, hyps, w)
        except TypeError:
            check_items(hyps, "hypotheses")
            raise
        except UnicodeEncodeError:
            raise diagnose_unencodable([hyps], "hypotheses") from None

    def _sentence_scores(
        self, prepared: Any, hyps: list[str], workers: int
    ) -> npt.NDArray[np.float64]:
        """Sentence scores of prepared input (metrics may override with a fused path)."""
        return self._score_rows(self._extract_rows(prepared, hyps, workers), workers)

    # --- SacreBLEU's API --------------------------------------------------------------------
    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        n_bootstrap: int = 1,
        *,
        workers: int | None = None,
    ) -> S:
        """Score a corpus against one or more reference streams.

        Parameters
        ----------
        hypotheses
            One string per segment.
        references
            Reference streams, each one string (or ``None``) per segment; ``None`` to use the
            references given to the constructor.
        n_bootstrap
            If > 1, also estimate a 95% confidence interval with that many bootstrap resamples.
        workers
            Threads: 1 serial, -1 all cores, ``None`` the default (``PARBLEU_WORKERS`` or all).

        Returns
        -------
        Score
            The metric's score object.
        """
        n_bootstrap = check_count("n_bootstrap", n_bootstrap, 0, MAX_RESAMPLES)
        if n_bootstrap <= 1:
            # Summed where the rows are made: no statistics matrix, no numpy.
            return self._score_row(
                self._per_segment(hypotheses, references, workers, self._extract_sum)
            )
        rows = self._rows(hypotheses, references, workers)
        score = self._score_row(self._sum_rows(rows))
        from .._resampling import bootstrap_ci

        bootstrap_ci(self, rows, score, n_bootstrap)
        return score

    def corpus_scores(
        self,
        systems: Sequence[Sequence[str]] | Mapping[Any, Sequence[str]],
        references: Sequence[Sequence[str | None]] | None,
        *,
        workers: int | None = None,
    ) -> list[S]:
        """Score several systems' outputs of one test set in one call.

        Each score equals ``corpus_score(system, references)``; the references are prepared
        once, and metrics with a multi-system kernel (chrF) score every system against a
        segment's references while those are in the cache.

        Parameters
        ----------
        systems
            The systems' hypotheses, each one string per segment (all the same length): a
            sequence, or a mapping from system names (used in messages) to hypotheses.
        references, workers
            As in :meth:`corpus_score`.

        Returns
        -------
        list of Score
            One score per system, in order.
        """
        return [
            self._score_row(total)
            for total in self._many(systems, references, workers, self._extract_many_sums)
        ]

    def extract_stats_many(
        self,
        systems: Sequence[Sequence[str]] | Mapping[Any, Sequence[str]],
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        workers: int | None = None,
    ) -> list[npt.NDArray[Any]]:
        """Per-segment statistics of several systems (arguments: see :meth:`corpus_scores`).

        Each matrix equals ``extract_stats(system, references)``; the references are prepared
        once for all.

        Returns
        -------
        list of numpy.ndarray
            One ``(n_segments, stats_width)`` matrix per system, in order.
        """
        return self._many(systems, references, workers, self._extract_many_rows)

    def _many(
        self,
        systems: Sequence[Sequence[str]] | Mapping[Any, Sequence[str]],
        references: Sequence[Sequence[str | None]] | None,
        workers: int | None,
        run: Callable[[Any, list[list[str]], int], list[R]],
    ) -> list[R]:
        """Validate the systems, prepare the references once, ``run(prepared, hyps, w)``."""
        hyps, labels = check_systems(systems)
        w = resolve_workers(workers, len(hyps[0]))
        prepared = self._refs_for(references, len(hyps[0]), w)
        try:
            return run(prepared, hyps, w)
        except (TypeError, UnicodeEncodeError) as e:
            raise diagnose_systems(hyps, labels, e) from None

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> S:
        """Score one segment against its references (a one-segment corpus).

        Parameters
        ----------
        hypothesis
            The hypothesis string.
        references
            Its references: a sequence of strings (``None`` entries are skipped).

        Returns
        -------
        Score
            The metric's score object.
        """
        refs = check_sentence_input(type(self).__name__, hypothesis, references)
        return self._sentence_one(hypothesis, refs)

    def _sentence_one(self, hypothesis: str, refs: list[Any]) -> S:
        """Score one validated segment (metrics may override with a one-call path)."""
        rows = self._rows([hypothesis], [[r] for r in refs], 1)
        return self._score_row(rows[0].tolist())

    def get_signature(self) -> Signature:
        """Return the reproducibility signature (available once references have been seen)."""
        return self._SIGNATURE_TYPE(self.__dict__)

    # --- statistics API ---------------------------------------------------------------------
    def extract_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        workers: int | None = None,
    ) -> npt.NDArray[Any]:
        """Per-segment sufficient statistics, SacreBLEU's column order.

        Parameters
        ----------
        hypotheses, references, workers
            As in :meth:`corpus_score`.

        Returns
        -------
        numpy.ndarray
            Shape ``(n_segments, stats_width)``; rows add.
        """
        return self._rows(hypotheses, references, workers)

    def score_from_stats(self, stats: Any) -> S:
        """Score from statistics: one summed row, or a matrix of rows (summed first).

        Parameters
        ----------
        stats
            A row of length ``stats_width`` or an ``(n, stats_width)`` matrix, as returned by
            :meth:`extract_stats` (never modified).

        Returns
        -------
        Score
            The metric's score object.
        """
        import numpy as np

        arr = check_stats_array(
            np.asarray(stats), self.stats_width, type(self).__name__, signed=self.signed_rows
        )
        if arr.ndim == 2:
            return self._score_row(self._sum_rows(arr))
        return self._score_row(arr.tolist())

    def sentence_scores(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        workers: int | None = None,
    ) -> npt.NDArray[np.float64]:
        """Sentence-level score of every segment in one call (arguments: see :meth:`extract_stats`).

        Equal, segment by segment, to ``sentence_score`` with this object's options.

        Returns
        -------
        numpy.ndarray
            float64, one score per segment.
        """
        return self._per_segment(hypotheses, references, workers, self._sentence_scores)

    def accumulator(self) -> StatsAccumulator:
        """Return a running sum of statistics (for streaming and distributed scoring)."""
        from ..stats import StatsAccumulator

        return StatsAccumulator(self)
