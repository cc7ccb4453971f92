"""SacreBLEU's resampling kernel: ``SACREBLEU_SEED``, its draws, float32 resample scores.

What :meth:`Metric.corpus_score(..., n_bootstrap=N) <parbleu.metrics.base.Metric.corpus_score>`
and the SacreBLEU-compatible path of :mod:`parbleu.significance` share: the names in
``__all__`` are for both. It sits below :mod:`parbleu.metrics` (it asks a metric for its core
scorer through :class:`parbleu.protocols.RowScorer`, and imports none) so that metrics and
significance both import it without a cycle.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from . import _core
from ._workers import resolve_workers
from .errors import InvalidOptionError, StatisticsError
from .score import Score

if TYPE_CHECKING:
    import numpy.typing as npt

    from .protocols import BootstrapMetric, RowScorer

__all__ = [
    "DEFAULT_SEED",
    "SEED_ENV",
    "CompatEngine",
    "as_stats_rows",
    "bootstrap_ci",
    "estimate_ci",
    "sacrebleu_seed",
    "score_scalars",
    "typed_scores",
]

#: The environment variable SacreBLEU reads its seed from.
SEED_ENV = "SACREBLEU_SEED"


#: SacreBLEU's default seed, also the exact path's.
DEFAULT_SEED = 12345


def as_stats_rows(scorer: Any, rows: Any, what: str, signed: bool = False) -> npt.NDArray[Any]:
    """Return a C-contiguous statistics matrix of the scorer's dtype (int64; TER float64).

    ``signed``: the metric's rows may be negative (``Metric.signed_rows``).
    """
    import numpy as np

    from ._stats_checks import check_counts

    arr = np.asarray(rows)
    if arr.dtype.kind not in "iuf":
        raise StatisticsError(f"{what}: expected numeric statistics, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] != scorer.width or arr.shape[0] == 0:
        raise StatisticsError(
            f"{what}: expected an (n_segments, {scorer.width}) statistics matrix with at least "
            f"one segment, got shape {arr.shape}"
        )
    check_counts(arr, what, signed)
    dtype = np.float64 if scorer.float_rows else np.int64
    if (
        dtype is np.int64
        and arr.dtype.kind == "f"
        and not (np.all(np.isfinite(arr)) and np.all(arr == np.floor(arr)))
    ):
        raise StatisticsError(f"{what}: expected integer statistics")
    return np.ascontiguousarray(arr, dtype=dtype)


def sacrebleu_seed() -> tuple[str, int | None]:
    """Read ``SACREBLEU_SEED`` as SacreBLEU does.

    Returns
    -------
    tuple
        The raw value (default ``"12345"``) and the seed: an integer, or ``None`` when the
        value is ``none`` in any case (SacreBLEU then draws entropy from the OS).
    """
    raw = os.environ.get(SEED_ENV, str(DEFAULT_SEED))
    if raw.lower() == "none":
        return raw, None
    try:
        value = int(raw)
    except ValueError:
        raise InvalidOptionError(
            f"environment variable {SEED_ENV}={raw!r}: expected an integer or 'None'"
        ) from None
    if value < 0:
        raise InvalidOptionError(
            f"environment variable {SEED_ENV}={raw!r}: expected an integer >= 0 or 'None' "
            "(numpy.random.default_rng refuses negative seeds)"
        )
    return raw, value


def estimate_ci(scores: npt.NDArray[Any]) -> tuple[Any, Any]:
    """Mean and half-width of the 95% interval of resampled scores, as SacreBLEU computes them.

    Parameters
    ----------
    scores
        Resampled scores (float64, or float32 for chrF and TER resamples).

    Returns
    -------
    tuple
        ``(mean, half_width)`` as numpy scalars of the array's dtype.
    """
    import numpy as np

    scores = np.sort(scores)
    n = len(scores)
    lower_idx = n // 40
    upper_idx = n - lower_idx - 1
    lower, upper = scores[lower_idx], scores[upper_idx]
    ci = 0.5 * (upper - lower)
    return (scores.mean(), ci)


def typed_scores(values: npt.NDArray[Any], kinds: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Resampled scores as SacreBLEU's ``np.array([s.score for s in ...])`` types them."""
    import numpy as np

    if kinds.all():
        return values.astype(np.float32)
    if not kinds.any():
        return values
    return np.array(score_scalars(values, kinds))


def score_scalars(values: npt.NDArray[Any], kinds: npt.NDArray[Any]) -> list[Any]:
    """Resampled scores as the Python / numpy scalars SacreBLEU's score objects hold."""
    import numpy as np

    return [np.float32(v) if k else float(v) for v, k in zip(values.tolist(), kinds.tolist())]


class CompatEngine:
    """SacreBLEU's draws and float32 resample scores, with draws cached when seeded.

    A seeded ``default_rng`` gives the same indices to every system, so they are drawn once;
    the baseline's resample scores are reused for every comparison.
    """

    def __init__(self, workers: int | None) -> None:
        self.workers = workers
        self._draws: dict[tuple[Any, ...], Any] = {}
        self._scores: dict[tuple[Any, ...], Any] = {}

    def choice(self, seed: int | None, n: int, n_seg: int) -> npt.NDArray[Any]:
        """``default_rng(seed).choice(n_seg, size=(n, n_seg), replace=True)``."""
        import numpy as np

        key = ("bs", seed, n, n_seg)
        if seed is None or key not in self._draws:
            idxs = np.random.default_rng(seed).choice(n_seg, size=(n, n_seg), replace=True)
            if seed is None:
                return np.ascontiguousarray(idxs, dtype=np.int64)
            self._draws[key] = np.ascontiguousarray(idxs, dtype=np.int64)
        return self._draws[key]  # type: ignore[no-any-return]

    def ar_draws(
        self, seed: int | None, n: int, n_seg: int, n_conf: int
    ) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any] | None]:
        """AR masks (bool and packed) and the bootstrap indices drawn after them."""
        import numpy as np

        key = ("ar", seed, n, n_seg, n_conf)
        if seed is None or key not in self._draws:
            rng = np.random.default_rng(seed)
            pos_sel = rng.integers(2, size=(n, n_seg), dtype=bool)
            bs_idxs = None
            if n_conf > 0:
                bs_idxs = np.ascontiguousarray(
                    rng.choice(n_seg, size=(n_conf, n_seg), replace=True), dtype=np.int64
                )
            packed = np.ascontiguousarray(np.packbits(pos_sel, axis=1, bitorder="little"))
            draws = (pos_sel, packed, bs_idxs)
            if seed is None:
                return draws
            self._draws[key] = draws
        return self._draws[key]  # type: ignore[no-any-return]

    def bootstrap(
        self, metric: RowScorer, rows: npt.NDArray[Any], idxs: npt.NDArray[Any]
    ) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """Float32 resample scores of ``rows`` on ``idxs``: values and float32 flags."""
        import numpy as np

        scorer = metric.core_scorer()
        rows = as_stats_rows(scorer, rows, "statistics", metric.signed_rows)
        w = resolve_workers(self.workers, idxs.size)
        values, kinds = _core.sig_bootstrap_compat(scorer, rows, len(rows), idxs, w)
        return (
            np.frombuffer(values, dtype="<f8").copy(),
            np.frombuffer(kinds, dtype=np.uint8).astype(bool),
        )

    def bootstrap_cached(
        self, key: Any, metric: RowScorer, rows: npt.NDArray[Any], idxs: npt.NDArray[Any]
    ) -> npt.NDArray[Any]:
        """Typed resample scores, reused while the same seeded indices come back."""
        full = (key, id(idxs))
        if full not in self._scores:
            self._scores[full] = (typed_scores(*self.bootstrap(metric, rows, idxs)), idxs)
        return self._scores[full][0]  # type: ignore[no-any-return]

    def ar(
        self,
        metric: RowScorer,
        bl_rows: npt.NDArray[Any],
        sys_rows: npt.NDArray[Any],
        pos_sel: npt.NDArray[Any],
        packed: npt.NDArray[Any],
    ) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """SacreBLEU's scores of the shuffled pseudo-systems (float64 arrays)."""
        import numpy as np

        scorer = metric.core_scorer()
        a = as_stats_rows(scorer, bl_rows, "baseline statistics", metric.signed_rows)
        b = as_stats_rows(scorer, sys_rows, "system statistics", metric.signed_rows)
        if scorer.float_rows and not (_integral(a) and _integral(b)):
            # Fractional TER lengths (several references): SacreBLEU sums them with a float64
            # matrix product whose rounding depends on the BLAS; the same product here gives
            # the same bits on the same machine.
            neg_sel = ~pos_sel
            shuf_a = pos_sel @ a + neg_sel @ b
            shuf_b = neg_sel @ a + pos_sel @ b
            return metric.score_rows(shuf_a, 1), metric.score_rows(shuf_b, 1)
        w = resolve_workers(self.workers, pos_sel.size)
        sa, sb = _core.sig_ar_masks(scorer, a, b, len(a), packed, True, w)
        return np.frombuffer(sa, dtype="<f8").copy(), np.frombuffer(sb, dtype="<f8").copy()


def _integral(rows: npt.NDArray[Any]) -> bool:
    import numpy as np

    return bool(np.all(rows == np.floor(rows)) and np.abs(rows).sum() < 2.0**53)


def _bootstrap_resample(
    rows: npt.NDArray[Any], metric: RowScorer, n_samples: int, workers: int | None = None
) -> tuple[str, npt.NDArray[Any], npt.NDArray[Any]]:
    """SacreBLEU's ``_bootstrap_resample``: seed string, resample values and float32 flags."""
    raw, seed = sacrebleu_seed()
    engine = CompatEngine(workers)
    idxs = engine.choice(seed, n_samples, len(rows))
    values, kinds = engine.bootstrap(metric, rows, idxs)
    return raw.lower(), values, kinds


def bootstrap_ci(
    metric: BootstrapMetric,
    rows: npt.NDArray[Any],
    score: Score,
    n_bootstrap: int,
    workers: int | None = None,
) -> None:
    """Add SacreBLEU's bootstrap confidence interval to ``score`` (``corpus_score``'s path).

    Exactly what SacreBLEU's ``corpus_score(..., n_bootstrap=N)`` does: resample indices from
    ``numpy.random.default_rng(SACREBLEU_SEED)``, float32 sums, the mean and half-width of the
    95% interval stored on the score, and ``n_bootstrap`` and ``seed`` set on the metric (they
    appear in its signature as ``bs:`` and ``seed:``).

    Parameters
    ----------
    metric
        The metric that produced ``rows``.
    rows
        Per-segment statistics (``extract_stats``).
    score
        The corpus score; its ``_mean`` and ``_ci`` are set.
    n_bootstrap
        Number of resamples.
    workers
        Threads, as in :meth:`Metric.corpus_score`.
    """
    metric.n_bootstrap = n_bootstrap
    seed, values, kinds = _bootstrap_resample(rows, metric, n_bootstrap, workers)
    metric.seed = seed  # type: ignore[assignment]
    score.estimate_ci([Score(score.name, v) for v in score_scalars(values, kinds)])
