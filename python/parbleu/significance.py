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
"""

from __future__ import annotations

import json
import logging
import math
import os
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Optional, Union

from . import _core
from ._options import MAX_RESAMPLES, check_count, check_probability
from ._workers import resolve_workers
from .errors import InputTypeError, InvalidOptionError, LengthMismatchError, StatisticsError
from .score import Score
from .signature import Signature

if TYPE_CHECKING:
    import numpy.typing as npt

    from .metrics.base import Metric

__all__ = [
    "DEFAULT_SEED",
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

logger = logging.getLogger("parbleu.significance")

#: The environment variable SacreBLEU reads its seed from.
SEED_ENV = "SACREBLEU_SEED"
#: SacreBLEU's default seed, also the exact path's.
DEFAULT_SEED = 12345

Test = Literal["bootstrap", "ar"]
Systems = Mapping[str, Union[Sequence[str], "npt.NDArray[Any]"]]
References = Optional[Sequence[Sequence[Optional[str]]]]


# === shared helpers ============================================================================
def _scorer(metric: Metric[Any]) -> Any:
    """Return the core's finalize step for ``metric`` (BLEU, CHRF or TER)."""
    from .metrics import BLEU, CHRF, TER

    if isinstance(metric, BLEU):
        value = metric.smooth_value
        return _core.Scorer.bleu(
            metric.smooth_method,
            None if value is None else float(value),
            bool(metric.effective_order),
            metric.max_ngram_order,
        )
    if isinstance(metric, CHRF):
        return _core.Scorer.chrf(*metric._core_opts())
    if isinstance(metric, TER):
        return _core.Scorer.ter()
    raise InvalidOptionError(
        f"metric: {type(metric).__name__} is not supported by parbleu.significance; "
        "expected a parbleu BLEU, CHRF or TER object"
    )


def _as_rows(scorer: Any, rows: Any, what: str) -> npt.NDArray[Any]:
    """Return a C-contiguous statistics matrix of the scorer's dtype (int64; TER float64)."""
    import numpy as np

    from .stats import check_counts

    arr = np.asarray(rows)
    if arr.dtype.kind not in "iuf":
        raise StatisticsError(f"{what}: expected numeric statistics, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] != scorer.width or arr.shape[0] == 0:
        raise StatisticsError(
            f"{what}: expected an (n_segments, {scorer.width}) statistics matrix with at least "
            f"one segment, got shape {arr.shape}"
        )
    check_counts(arr, what)
    dtype = np.float64 if scorer.float_rows else np.int64
    if (
        dtype is np.int64
        and arr.dtype.kind == "f"
        and not (np.all(np.isfinite(arr)) and np.all(arr == np.floor(arr)))
    ):
        raise StatisticsError(f"{what}: expected integer statistics")
    return np.ascontiguousarray(arr, dtype=dtype)


def _workers(workers: int | None, n_items: int) -> int:
    return resolve_workers(workers, n_items)


def _system_rows(
    metric: Metric[Any],
    systems: Systems,
    references: References,
    workers: int | None,
) -> tuple[list[str], list[npt.NDArray[Any]]]:
    """Names and statistics of every system; references are prepared once for all."""
    import numpy as np

    if isinstance(systems, (str, bytes)) or not isinstance(systems, Mapping):
        raise InputTypeError(
            f"systems: got a {type(systems).__name__}; expected a mapping "
            "{system name: hypotheses (list of str) or statistics matrix}"
        )
    if not systems:
        raise InvalidOptionError("systems: empty; expected at least one system")
    names = [str(k) for k in systems]
    scorer = _scorer(metric)
    prepared: Any = None
    out: list[npt.NDArray[Any]] = []
    n_first: int | None = None
    for name, value in systems.items():
        if isinstance(value, np.ndarray) and value.dtype.kind in "iuf":
            rows = _as_rows(scorer, value, f"systems[{name!r}]")
        else:
            hyps = metric._hyps(value)
            if references is None:
                rows = metric.extract_stats(hyps, None, workers=workers)
            else:
                if prepared is None:
                    w = resolve_workers(workers, len(hyps))
                    prepared = metric._refs_for(references, len(hyps), w)
                if len(hyps) != len(prepared):
                    raise LengthMismatchError(
                        f"systems[{name!r}]: {len(hyps)} hypotheses but the references have "
                        f"{len(prepared)} segments; nothing is truncated"
                    )
                try:
                    rows = metric._extract_rows(prepared, hyps, resolve_workers(workers, len(hyps)))
                except TypeError:
                    from ._inputs import check_items

                    check_items(hyps, f"systems[{name!r}]")
                    raise
            rows = _as_rows(scorer, rows, f"systems[{name!r}]")
        if n_first is None:
            n_first = len(rows)
        elif len(rows) != n_first:
            raise LengthMismatchError(
                f"systems[{name!r}]: {len(rows)} segments but systems[{names[0]!r}] has "
                f"{n_first}; paired tests need the same segments"
            )
        out.append(rows)
    return names, out


# === SacreBLEU-compatible path =================================================================
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


class Result:
    """SacreBLEU's result of one system in a paired test.

    Parameters
    ----------
    score
        The system's corpus score.
    p_value
        The p-value against the baseline (``None`` for the baseline).
    mean
        Bootstrap estimate of the true mean score (paired bootstrap, or AR with confidence).
    ci
        Half-width of the 95% interval around ``mean``.
    """

    def __init__(
        self,
        score: float,
        p_value: float | None = None,
        mean: float | None = None,
        ci: float | None = None,
    ) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join([f"{k}={v!s}" for k, v in self.__dict__.items()])


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


def _compute_p_value(stats: npt.NDArray[Any], real_difference: float) -> float:
    # SacreBLEU's p-value: strictly greater, plus one.
    import numpy as np

    c = np.sum(stats > real_difference).item()
    return (c + 1) / (len(stats) + 1)


def _typed(values: npt.NDArray[Any], kinds: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Resampled scores as SacreBLEU's ``np.array([s.score for s in ...])`` types them."""
    import numpy as np

    if kinds.all():
        return values.astype(np.float32)
    if not kinds.any():
        return values
    return np.array(_scalars(values, kinds))


def _scalars(values: npt.NDArray[Any], kinds: npt.NDArray[Any]) -> list[Any]:
    """Resampled scores as the Python / numpy scalars SacreBLEU's score objects hold."""
    import numpy as np

    return [np.float32(v) if k else float(v) for v, k in zip(values.tolist(), kinds.tolist())]


class _CompatEngine:
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
        self, metric: Metric[Any], rows: npt.NDArray[Any], idxs: npt.NDArray[Any]
    ) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """Float32 resample scores of ``rows`` on ``idxs``: values and float32 flags."""
        import numpy as np

        scorer = _scorer(metric)
        rows = _as_rows(scorer, rows, "statistics")
        w = _workers(self.workers, idxs.size)
        values, kinds = _core.sig_bootstrap_compat(scorer, rows, len(rows), idxs, w)
        return (
            np.frombuffer(values, dtype="<f8").copy(),
            np.frombuffer(kinds, dtype=np.uint8).astype(bool),
        )

    def bootstrap_cached(
        self, key: Any, metric: Metric[Any], rows: npt.NDArray[Any], idxs: npt.NDArray[Any]
    ) -> npt.NDArray[Any]:
        """Typed resample scores, reused while the same seeded indices come back."""
        full = (key, id(idxs))
        if full not in self._scores:
            self._scores[full] = (_typed(*self.bootstrap(metric, rows, idxs)), idxs)
        return self._scores[full][0]  # type: ignore[no-any-return]

    def ar(
        self,
        metric: Metric[Any],
        bl_rows: npt.NDArray[Any],
        sys_rows: npt.NDArray[Any],
        pos_sel: npt.NDArray[Any],
        packed: npt.NDArray[Any],
    ) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """SacreBLEU's scores of the shuffled pseudo-systems (float64 arrays)."""
        import numpy as np

        scorer = _scorer(metric)
        a = _as_rows(scorer, bl_rows, "baseline statistics")
        b = _as_rows(scorer, sys_rows, "system statistics")
        if scorer.float_rows and not (_integral(a) and _integral(b)):
            # Fractional TER lengths (several references): SacreBLEU sums them with a float64
            # matrix product whose rounding depends on the BLAS; the same product here gives
            # the same bits on the same machine.
            neg_sel = ~pos_sel
            shuf_a = pos_sel @ a + neg_sel @ b
            shuf_b = neg_sel @ a + pos_sel @ b
            return metric._score_rows(shuf_a, 1), metric._score_rows(shuf_b, 1)
        w = _workers(self.workers, pos_sel.size)
        sa, sb = _core.sig_ar_masks(scorer, a, b, len(a), packed, True, w)
        return np.frombuffer(sa, dtype="<f8").copy(), np.frombuffer(sb, dtype="<f8").copy()


def _integral(rows: npt.NDArray[Any]) -> bool:
    import numpy as np

    return bool(np.all(rows == np.floor(rows)) and np.abs(rows).sum() < 2.0**53)


def _bootstrap_resample(
    rows: npt.NDArray[Any], metric: Metric[Any], n_samples: int, workers: int | None = None
) -> tuple[str, npt.NDArray[Any], npt.NDArray[Any]]:
    """SacreBLEU's ``_bootstrap_resample``: seed string, resample values and float32 flags."""
    raw, seed = sacrebleu_seed()
    engine = _CompatEngine(workers)
    idxs = engine.choice(seed, n_samples, len(rows))
    values, kinds = engine.bootstrap(metric, rows, idxs)
    return raw.lower(), values, kinds


def bootstrap_ci(
    metric: Metric[Any],
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
    score.estimate_ci([Score(score.name, v) for v in _scalars(values, kinds)])


class PairedTest:
    """SacreBLEU's paired significance test, with its constructor and results.

    Paired bootstrap resampling (``test_type="bs"``) or paired approximate randomization
    (``"ar"``) of every system against the first (the baseline), for every metric. Results,
    signatures and log lines are SacreBLEU 2.6's, bit for bit, for the same ``SACREBLEU_SEED``.

    Parameters
    ----------
    named_systems
        ``(name, hypotheses)`` pairs; the first is the baseline.
    metrics
        ``{name: metric}``; the names appear in log lines.
    references
        Reference streams, or ``None`` for the metrics' cached references.
    test_type
        ``"ar"`` or ``"bs"``.
    n_samples
        AR trials or bootstrap resamples; 0 (or less) for the defaults, 10000 and 1000.
    n_ar_confidence
        With AR, also estimate confidence intervals with this many bootstrap resamples
        (-1: no, 0: 1000).
    n_jobs
        SacreBLEU's worker processes: only its log line is kept (0 picks a count as SacreBLEU
        does); parbleu resamples on ``workers`` threads.
    workers
        Threads for resampling: 1 serial, -1 all cores, ``None`` the library default.
    """

    _DEFAULT_SAMPLES: ClassVar[dict[str, int]] = {"ar": 10000, "bs": 1000}

    def __init__(
        self,
        named_systems: Sequence[tuple[str, Sequence[str]]],
        metrics: Mapping[str, Any],
        references: References,
        test_type: str = "ar",
        n_samples: int = 0,
        n_ar_confidence: int = -1,
        n_jobs: int = 1,
        *,
        workers: int | None = None,
    ) -> None:
        if test_type not in ("ar", "bs"):
            raise InvalidOptionError(
                f"test_type={test_type!r}: expected 'ar' (approximate randomization) or 'bs' "
                "(paired bootstrap resampling)"
            )
        if len(named_systems) < 1:
            raise InvalidOptionError("named_systems: empty; expected a baseline and systems")
        # Non-positive values pick SacreBLEU's defaults; the upper bound keeps memory finite.
        n_samples = check_count("n_samples", n_samples, -MAX_RESAMPLES, MAX_RESAMPLES)
        n_ar_confidence = check_count(
            "n_ar_confidence", n_ar_confidence, -MAX_RESAMPLES, MAX_RESAMPLES
        )
        n_jobs = check_count("n_jobs", n_jobs, 0, 1 << 20)
        self.test_type = test_type
        _, self._seed = sacrebleu_seed()
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = list(named_systems)
        self.n_ar_confidence = (
            n_ar_confidence if n_ar_confidence != 0 else self._DEFAULT_SAMPLES["bs"]
        )
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[self.test_type]
        self.n_systems = len(named_systems) - 1
        if os.name == "nt":
            logger.warning("Parallel tests are not supported on Windows.")
            self.n_jobs = 1
        elif self.n_jobs == 0:
            n_max_jobs = (os.cpu_count() or 1) // 2
            self.n_jobs = 1 if n_max_jobs == 0 else min(n_max_jobs, self.n_systems)
        self._engine = _CompatEngine(workers)
        self._signatures: dict[str, Signature] = {}
        self._baseline_info: dict[str, tuple[npt.NDArray[Any], Result]] = {}
        self.metrics: dict[str, Any] = {}

        bl_name, bl_hyps = self.named_systems[0]
        for name, metric in metrics.items():
            logger.info(f"Pre-computing {name} statistics for {bl_name!r}")
            bl_stats = _rows(metric, bl_hyps, references, workers)
            bl_score = metric.score_from_stats(bl_stats)
            confidence_n = self.n_samples if self.test_type == "bs" else self.n_ar_confidence
            bl_mean, bl_ci = None, None
            if confidence_n > 0:
                # SacreBLEU's _bootstrap_resample: SACREBLEU_SEED again, 0 included.
                _, env_seed = sacrebleu_seed()
                idxs = self._engine.choice(env_seed, confidence_n, len(bl_stats))
                scores = self._engine.bootstrap_cached(bl_score.name, metric, bl_stats, idxs)
                bl_mean, bl_ci = estimate_ci(scores)
            result = Result(bl_score.score, mean=bl_mean, ci=bl_ci)
            self._baseline_info[bl_score.name] = (bl_stats, result)
            self.metrics[bl_score.name] = metric
            sig = metric.get_signature()
            sig.update("seed", str(self._seed).lower())
            sig.update(self.test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                sig.update("bs", self.n_ar_confidence)
            self._signatures[bl_score.name] = sig

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list[str | Result]]]:
        """Run the test of every system against the baseline.

        Returns
        -------
        tuple
            ``({score name: signature}, {"System": names, score name: [Result, ...]})``, the
            baseline first.
        """
        scores: dict[str, list[str | Result]] = {"System": [ns[0] for ns in self.named_systems]}
        for metric, (_, result) in self._baseline_info.items():
            scores[metric] = [result]
        seed = self._seed if self._seed else None
        if self.n_jobs != 1 and self.n_systems > 0:
            logger.info(f"Launching {self.n_jobs} parallel workers.")
        test = self._paired_bs if self.test_type == "bs" else self._paired_ar
        for name, hyps in self.named_systems[1:]:
            for metric, res in test(name, hyps, seed).items():
                scores[metric].append(res)
        return self._signatures, scores

    def _system(self, mname: str, name: str, hyps: Sequence[str]) -> tuple[Any, Any, float]:
        metric = self.metrics[mname]
        logger.info(f"Computing {mname} for {name!r} and extracting sufficient statistics")
        sys_stats = _rows(metric, hyps, self.references, self._engine.workers)
        sys_score = metric.score_from_stats(sys_stats)
        bl_result = self._baseline_info[mname][1]
        return sys_stats, sys_score, abs(bl_result.score - sys_score.score)

    def _paired_bs(self, name: str, hyps: Sequence[str], seed: int | None) -> dict[str, Result]:
        import numpy as np

        results = {}
        n_seg = len(next(iter(self._baseline_info.values()))[0])
        idxs = self._engine.choice(seed, self.n_samples, n_seg)
        for mname, metric in self.metrics.items():
            bl_stats = self._baseline_info[mname][0]
            sys_stats, sys_score, diff = self._system(mname, name, hyps)
            logger.info(
                f" > Performing paired bootstrap resampling test (# resamples: {self.n_samples})"
            )
            scores_bl = self._engine.bootstrap_cached(mname, metric, bl_stats, idxs)
            scores_sys = _typed(*self._engine.bootstrap(metric, sys_stats, idxs))
            sys_mean, sys_ci = estimate_ci(scores_sys)
            sample_diffs = np.abs(scores_sys - scores_bl)
            stats = sample_diffs - sample_diffs.mean()
            p = _compute_p_value(stats, diff)
            results[mname] = Result(sys_score.score, p, sys_mean, sys_ci)
        return results

    def _paired_ar(self, name: str, hyps: Sequence[str], seed: int | None) -> dict[str, Result]:
        import numpy as np

        results = {}
        n_seg = len(next(iter(self._baseline_info.values()))[0])
        pos_sel, packed, bs_idxs = self._engine.ar_draws(
            seed, self.n_samples, n_seg, self.n_ar_confidence
        )
        for mname, metric in self.metrics.items():
            bl_stats = self._baseline_info[mname][0]
            sys_stats, sys_score, diff = self._system(mname, name, hyps)
            logger.info(
                f" > Performing approximate randomization test (# trials: {self.n_samples})"
            )
            scores_a, scores_b = self._engine.ar(metric, bl_stats, sys_stats, pos_sel, packed)
            p = _compute_p_value(np.abs(scores_a - scores_b), diff)
            res = Result(sys_score.score, p)
            if bs_idxs is not None:
                logger.info(
                    " > Performing bootstrap resampling for confidence interval (# resamples: "
                    f"{self.n_ar_confidence})"
                )
                sys_scores = _typed(*self._engine.bootstrap(metric, sys_stats, bs_idxs))
                res.mean, res.ci = estimate_ci(sys_scores)
            results[mname] = res
        return results


def _rows(
    metric: Metric[Any], hyps: Any, references: References, workers: int | None
) -> npt.NDArray[Any]:
    _, rows = _system_rows(metric, {"system": hyps}, references, workers)
    return rows[0]


# === exact path: results =======================================================================
@dataclass(frozen=True)
class ConfidenceInterval:
    """A bootstrap confidence interval of one system's score.

    Attributes
    ----------
    metric
        Score name (``BLEU``, ``chrF2``, ``TER``, ...).
    system
        System name (``None`` when not named).
    score
        The corpus score (all segments).
    mean
        Mean of the resampled scores.
    low, high
        The interval: the resampled scores at ranks ``k`` and ``n - 1 - k`` (0-based) of the
        sorted resamples, ``k = floor(n * (1 - confidence) / 2)`` (SacreBLEU's ``n // 40`` for
        95%).
    half_width
        ``(high - low) / 2``: SacreBLEU's ``±`` value.
    confidence
        Coverage, e.g. 0.95.
    n
        Number of resamples.
    seed
        The seed used (``None``: SacreBLEU-compatible unseeded run).
    compat
        Computed by the SacreBLEU-compatible path (float32 sums, numpy's draws).
    """

    metric: str
    system: str | None
    score: float
    mean: float
    low: float
    high: float
    half_width: float
    confidence: float
    n: int
    seed: int | None
    compat: bool = False


@dataclass(frozen=True)
class PairedResult:
    """One system compared with the baseline by a paired test.

    Attributes
    ----------
    metric
        Score name.
    test
        ``"bootstrap"`` (paired bootstrap resampling) or ``"ar"`` (approximate randomization).
    baseline, system
        Names.
    baseline_score, score
        Corpus scores.
    delta
        ``score - baseline_score``.
    p_value
        Two-sided p-value of "no difference" (see ``docs/significance.md`` for each test's
        definition; with ``compat=True``, SacreBLEU's).
    n
        Resamples or trials.
    seed
        The seed used.
    ci
        The system's bootstrap interval (paired bootstrap only).
    baseline_ci
        The baseline's bootstrap interval (paired bootstrap only).
    compat
        Computed by the SacreBLEU-compatible path.
    """

    metric: str
    test: Test
    baseline: str
    system: str
    baseline_score: float
    score: float
    delta: float
    p_value: float
    n: int
    seed: int | None
    ci: ConfidenceInterval | None = None
    baseline_ci: ConfidenceInterval | None = None
    compat: bool = False

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether the difference is significant at level ``alpha`` (``p_value <= alpha``)."""
        return self.p_value <= alpha


@dataclass(frozen=True)
class PairwiseResult:
    """One pair of systems in an all-pairs comparison.

    Attributes
    ----------
    system_a, system_b
        Names; ``system_a`` ranks higher (better score, lower for TER).
    score_a, score_b
        Corpus scores.
    delta
        ``score_a - score_b``.
    p_value
        Two-sided p-value of the pair's test.
    p_holm
        Holm-Bonferroni adjusted p-value over all pairs of the metric.
    significant
        ``p_holm <= alpha``.
    """

    system_a: str
    system_b: str
    score_a: float
    score_b: float
    delta: float
    p_value: float
    p_holm: float
    significant: bool


@dataclass(frozen=True)
class MetricComparison:
    """All pairs of systems compared on one metric.

    Attributes
    ----------
    metric
        Score name.
    higher_is_better
        ``False`` for TER.
    signature
        The metric's signature with the test fields (``bs:``/``ar:``, ``seed:``,
        ``rng:splitmix64``).
    ranking
        System names, best first.
    scores
        Corpus score of each system.
    intervals
        Bootstrap interval of each system (paired bootstrap only).
    pairs
        Every pair, in ranking order (``system_a`` before ``system_b``).
    """

    metric: str
    higher_is_better: bool
    signature: str
    ranking: tuple[str, ...]
    scores: dict[str, float]
    intervals: dict[str, ConfidenceInterval]
    pairs: tuple[PairwiseResult, ...]

    def pair(self, a: str, b: str) -> PairwiseResult:
        """Return the result of the pair ``{a, b}`` (in either order)."""
        for p in self.pairs:
            if {p.system_a, p.system_b} == {a, b}:
                return p
        raise KeyError(f"no pair ({a!r}, {b!r})")


@dataclass(frozen=True)
class Comparison:
    """An all-pairs comparison of systems on one or more metrics (:func:`compare_all`).

    Attributes
    ----------
    test
        ``"bootstrap"`` or ``"ar"``.
    n
        Resamples or trials.
    seed
        The seed used.
    alpha
        Family-wise significance level (per metric).
    confidence
        Coverage of the bootstrap intervals.
    systems
        System names, as given.
    metrics
        One :class:`MetricComparison` per metric.
    """

    test: Test
    n: int
    seed: int
    alpha: float
    confidence: float
    systems: tuple[str, ...]
    metrics: tuple[MetricComparison, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain data (JSON-serializable)."""
        return asdict(self)

    def to_json(self, indent: int = 2) -> str:
        """Return the comparison as JSON (:meth:`to_dict`)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def table(self, width: int = 2) -> str:
        """Render a text report: per metric, the ranking and every pair, significant ones marked.

        Parameters
        ----------
        width
            Decimal places of scores.

        Returns
        -------
        str
            The report (no final newline).
        """
        return _render_comparison(self, width)


# === exact path: computation ===================================================================
def _check_seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise InvalidOptionError(f"seed={seed!r}: expected an integer in [0, 2**64) or None")
    return seed


def _check_n(n: Any, name: str = "n") -> int:
    return check_count(name, n, 1, MAX_RESAMPLES)


def _check_confidence(confidence: float) -> Fraction:
    if not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise InvalidOptionError(f"confidence={confidence!r}: expected a number in (0, 1)")
    return Fraction(str(confidence))


def _exact_bootstrap(
    metric: Metric[Any], rows: list[npt.NDArray[Any]], n: int, seed: int, workers: int | None
) -> npt.NDArray[Any]:
    """Return resampled scores, ``(n, len(rows))``, every system on the same segments."""
    import numpy as np

    scorer = _scorer(metric)
    n_seg = len(rows[0])
    w = _workers(workers, n * n_seg * len(rows))
    data = _core.sig_bootstrap(scorer, rows, n_seg, n, seed, w)
    return np.frombuffer(data, dtype="<f8").reshape(n, len(rows)).copy()


def _exact_ar(
    metric: Metric[Any],
    a: npt.NDArray[Any],
    b: npt.NDArray[Any],
    n: int,
    seed: int,
    workers: int | None,
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    import numpy as np

    scorer = _scorer(metric)
    w = _workers(workers, n * len(a))
    sa, sb = _core.sig_ar(scorer, a, b, len(a), n, seed, w)
    return np.frombuffer(sa, dtype="<f8").copy(), np.frombuffer(sb, dtype="<f8").copy()


def _interval(
    name: str,
    system: str | None,
    score: float,
    samples: npt.NDArray[Any],
    confidence: Fraction,
    seed: int | None,
) -> ConfidenceInterval:
    import numpy as np

    s = np.sort(samples)
    n = len(s)
    k = math.floor(n * (1 - confidence) / 2)
    low, high = float(s[k]), float(s[n - 1 - k])
    return ConfidenceInterval(
        metric=name,
        system=system,
        score=float(score),
        mean=math.fsum(s.tolist()) / n,
        low=low,
        high=high,
        half_width=0.5 * (high - low),
        confidence=float(confidence),
        n=n,
        seed=seed,
    )


def _bootstrap_p(deltas: npt.NDArray[Any], delta: float) -> float:
    """Return the two-sided p-value of the bootstrap shift test.

    The share of resamples whose difference is at least as far from the observed one as the
    observed one is from zero, plus one over ``n + 1``.
    """
    import numpy as np

    c = int(np.sum(np.abs(deltas - delta) >= abs(delta)))
    return (c + 1) / (len(deltas) + 1)


def _ar_p(scores_a: npt.NDArray[Any], scores_b: npt.NDArray[Any], delta: float) -> float:
    """Two-sided AR p-value: trials with an absolute difference at least the observed one."""
    import numpy as np

    c = int(np.sum(np.abs(scores_a - scores_b) >= abs(delta)))
    return (c + 1) / (len(scores_a) + 1)


def _corpus_scores(metric: Metric[Any], rows: list[npt.NDArray[Any]]) -> list[Score]:
    return [metric.score_from_stats(r) for r in rows]


def _baseline_index(names: list[str], baseline: str | None) -> int:
    if baseline is None:
        return 0
    if baseline not in names:
        raise InvalidOptionError(
            f"baseline={baseline!r}: not a system name; expected one of {names!r}"
        )
    return names.index(baseline)


def confidence_interval(
    metric: Metric[Any],
    hypotheses: Sequence[str] | npt.NDArray[Any],
    references: References = None,
    *,
    n: int = 1000,
    seed: int | None = DEFAULT_SEED,
    confidence: float = 0.95,
    compat: bool = False,
    workers: int | None = None,
) -> ConfidenceInterval:
    """Bootstrap confidence interval of a system's corpus score.

    Parameters
    ----------
    metric
        A parbleu ``BLEU``, ``CHRF`` or ``TER`` object.
    hypotheses
        One string per segment, or the system's statistics matrix (``extract_stats``).
    references
        Reference streams, or ``None`` for the metric's cached references.
    n
        Number of resamples.
    seed
        Exact path: any integer in ``[0, 2**64)`` (0 included) or ``None`` for a random seed
        (reported in the result). ``compat=True``: SacreBLEU's ``SACREBLEU_SEED`` value.
    confidence
        Coverage (exact path; SacreBLEU's is always 0.95).
    compat
        Reproduce SacreBLEU's ``corpus_score(..., n_bootstrap=n)`` bit for bit.
    workers
        Threads: 1 serial, -1 all cores, ``None`` the library default.

    Returns
    -------
    ConfidenceInterval
        The interval.
    """
    n = _check_n(n)
    conf = _check_confidence(confidence)
    _, rows = _system_rows(metric, {"system": hypotheses}, references, workers)
    score = metric.score_from_stats(rows[0])
    if compat:
        cseed = _compat_seed(seed)
        return _compat_interval(metric, None, score, rows[0], n, cseed, workers, corpus_style=True)
    s = _check_seed(seed)
    samples = _exact_bootstrap(metric, rows, n, s, workers)[:, 0]
    return _interval(score.name, None, score.score, samples, conf, s)


def _compat_seed(seed: int | None) -> int | None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InvalidOptionError(
            f"seed={seed!r}: expected an integer >= 0 or None (numpy.random.default_rng)"
        )
    return seed


def _compat_interval(
    metric: Metric[Any],
    system: str | None,
    score: Score,
    rows: npt.NDArray[Any],
    n: int,
    seed: int | None,
    workers: int | None,
    engine: _CompatEngine | None = None,
    idxs: npt.NDArray[Any] | None = None,
    corpus_style: bool = False,
) -> ConfidenceInterval:
    """Return SacreBLEU's interval.

    ``corpus_style``: as ``Score.estimate_ci`` computes it (``corpus_score``, with
    ``statistics.mean``); else as ``significance.estimate_ci`` does (``PairedTest``, numpy's
    mean).
    """
    import statistics

    import numpy as np

    engine = engine or _CompatEngine(workers)
    if idxs is None:
        idxs = engine.choice(seed, n, len(rows))
    values, kinds = engine.bootstrap(metric, rows, idxs)
    k = n // 40
    if corpus_style:
        raw = sorted(_scalars(values, kinds))
        low, high = raw[k], raw[n - 1 - k]
        mean, half = statistics.mean(raw), 0.5 * (high - low)
    else:
        typed = _typed(values, kinds)
        mean, half = estimate_ci(typed)
        s = np.sort(typed)
        low, high = s[k], s[n - 1 - k]
    return ConfidenceInterval(
        metric=score.name,
        system=system,
        score=float(score.score),
        mean=float(mean),
        low=float(low),
        high=float(high),
        half_width=float(half),
        confidence=0.95,
        n=n,
        seed=seed,
        compat=True,
    )


def paired_bootstrap(
    metric: Metric[Any],
    systems: Systems,
    references: References = None,
    *,
    n: int = 1000,
    seed: int | None = DEFAULT_SEED,
    baseline: str | None = None,
    confidence: float = 0.95,
    compat: bool = False,
    workers: int | None = None,
) -> list[PairedResult]:
    """Paired bootstrap resampling test of every system against a baseline.

    Each resample draws segments with replacement and scores every system on the same
    segments. Exact path: p-value = share of resamples whose difference ``d*`` satisfies
    ``|d* - d| >= |d|`` (``d``: the observed difference), plus one, over ``n + 1``.

    Parameters
    ----------
    metric
        A parbleu ``BLEU``, ``CHRF`` or ``TER`` object.
    systems
        ``{name: hypotheses}`` (or ``{name: statistics matrix}``), in order.
    references
        Reference streams, or ``None`` for the metric's cached references.
    n
        Number of resamples.
    seed
        Exact path: any integer in ``[0, 2**64)`` or ``None`` (a random seed, reported).
        ``compat=True``: the ``SACREBLEU_SEED`` value to reproduce (``None``: unseeded; ``0``
        unseeds the comparisons, as in SacreBLEU).
    baseline
        Name of the baseline; the first system by default.
    confidence
        Coverage of the intervals (exact path).
    compat
        Reproduce SacreBLEU's ``PairedTest(test_type="bs")`` bit for bit.
    workers
        Threads: 1 serial, -1 all cores, ``None`` the library default.

    Returns
    -------
    list of PairedResult
        One per non-baseline system, in order.
    """
    n = _check_n(n)
    conf = _check_confidence(confidence)
    names, rows = _system_rows(metric, systems, references, workers)
    bi = _baseline_index(names, baseline)
    scores = _corpus_scores(metric, rows)
    name = scores[0].name
    out = []
    if compat:
        cseed = _compat_seed(seed)
        engine = _CompatEngine(workers)
        bl = _compat_interval(metric, names[bi], scores[bi], rows[bi], n, cseed, workers, engine)
        idxs = engine.choice(cseed if cseed else None, n, len(rows[0]))
        for i, sys_name in enumerate(names):
            if i == bi:
                continue
            sys_ci = _compat_interval(
                metric, sys_name, scores[i], rows[i], n, cseed, workers, engine, idxs
            )
            results = _compat_bs_p(engine, metric, rows[bi], rows[i], scores[bi], scores[i], idxs)
            out.append(
                PairedResult(
                    name, "bootstrap", names[bi], sys_name, scores[bi].score, scores[i].score,
                    scores[i].score - scores[bi].score, results, n, cseed, sys_ci, bl, True,
                )
            )  # fmt: skip
        return out
    s = _check_seed(seed)
    samples = _exact_bootstrap(metric, rows, n, s, workers)
    bl_ci = _interval(name, names[bi], scores[bi].score, samples[:, bi], conf, s)
    for i, sys_name in enumerate(names):
        if i == bi:
            continue
        delta = scores[i].score - scores[bi].score
        p = _bootstrap_p(samples[:, i] - samples[:, bi], delta)
        ci = _interval(name, sys_name, scores[i].score, samples[:, i], conf, s)
        out.append(
            PairedResult(
                name, "bootstrap", names[bi], sys_name, scores[bi].score, scores[i].score,
                delta, p, n, s, ci, bl_ci,
            )
        )  # fmt: skip
    return out


def _compat_bs_p(
    engine: _CompatEngine,
    metric: Metric[Any],
    bl_rows: npt.NDArray[Any],
    sys_rows: npt.NDArray[Any],
    bl_score: Score,
    sys_score: Score,
    idxs: npt.NDArray[Any],
) -> float:
    import numpy as np

    scores_bl = engine.bootstrap_cached("baseline", metric, bl_rows, idxs)
    scores_sys = _typed(*engine.bootstrap(metric, sys_rows, idxs))
    sample_diffs = np.abs(scores_sys - scores_bl)
    stats = sample_diffs - sample_diffs.mean()
    return _compute_p_value(stats, abs(bl_score.score - sys_score.score))


def paired_ar(
    metric: Metric[Any],
    systems: Systems,
    references: References = None,
    *,
    n: int = 10000,
    seed: int | None = DEFAULT_SEED,
    baseline: str | None = None,
    compat: bool = False,
    workers: int | None = None,
) -> list[PairedResult]:
    """Paired approximate randomization test of every system against a baseline.

    Each trial swaps the two systems' outputs on a random half of the segments. Exact path:
    p-value = share of trials whose absolute score difference is at least the observed one,
    plus one, over ``n + 1``.

    Parameters
    ----------
    metric
        A parbleu ``BLEU``, ``CHRF`` or ``TER`` object.
    systems
        ``{name: hypotheses}`` (or ``{name: statistics matrix}``), in order.
    references
        Reference streams, or ``None`` for the metric's cached references.
    n
        Number of trials.
    seed
        As in :func:`paired_bootstrap`.
    baseline
        Name of the baseline; the first system by default.
    compat
        Reproduce SacreBLEU's ``PairedTest(test_type="ar")`` bit for bit.
    workers
        Threads: 1 serial, -1 all cores, ``None`` the library default.

    Returns
    -------
    list of PairedResult
        One per non-baseline system, in order.
    """
    import numpy as np

    n = _check_n(n)
    names, rows = _system_rows(metric, systems, references, workers)
    bi = _baseline_index(names, baseline)
    scores = _corpus_scores(metric, rows)
    name = scores[0].name
    out = []
    if compat:
        cseed = _compat_seed(seed)
        engine = _CompatEngine(workers)
        for i, sys_name in enumerate(names):
            if i == bi:
                continue
            pos_sel, packed, _ = engine.ar_draws(cseed if cseed else None, n, len(rows[0]), -1)
            a, b = engine.ar(metric, rows[bi], rows[i], pos_sel, packed)
            p = _compute_p_value(np.abs(a - b), abs(scores[bi].score - scores[i].score))
            out.append(
                PairedResult(
                    name, "ar", names[bi], sys_name, scores[bi].score, scores[i].score,
                    scores[i].score - scores[bi].score, p, n, cseed, compat=True,
                )
            )  # fmt: skip
        return out
    s = _check_seed(seed)
    for i, sys_name in enumerate(names):
        if i == bi:
            continue
        a, b = _exact_ar(metric, rows[bi], rows[i], n, s, workers)
        delta = scores[i].score - scores[bi].score
        out.append(
            PairedResult(
                name, "ar", names[bi], sys_name, scores[bi].score, scores[i].score, delta,
                _ar_p(a, b, delta), n, s,
            )
        )  # fmt: skip
    return out


def holm_bonferroni(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (step-down, monotone, capped at 1).

    Rejecting the hypotheses whose adjusted p-value is at most ``alpha`` controls the
    family-wise error rate at ``alpha`` under any dependence between the tests.

    Parameters
    ----------
    p_values
        The raw p-values of the family, each in [0, 1] (else ``InvalidOptionError``).

    Returns
    -------
    list of float
        Adjusted p-values, in the input order.
    """
    p_values = [check_probability(f"p_values[{i}]", p) for i, p in enumerate(p_values)]
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def compare_all(
    metrics: Metric[Any] | Sequence[Metric[Any]],
    systems: Systems,
    references: References = None,
    *,
    test: Test = "bootstrap",
    n: int | None = None,
    seed: int | None = DEFAULT_SEED,
    alpha: float = 0.05,
    confidence: float = 0.95,
    workers: int | None = None,
) -> Comparison:
    """Compare every pair of systems, with the Holm-Bonferroni correction per metric.

    Parameters
    ----------
    metrics
        One metric or several (parbleu ``BLEU``, ``CHRF``, ``TER`` objects).
    systems
        ``{name: hypotheses}`` (at least two), in order.
    references
        Reference streams, or ``None`` for each metric's cached references.
    test
        ``"bootstrap"`` (paired bootstrap resampling: one set of resamples shared by all
        systems) or ``"ar"`` (approximate randomization, one run per pair with the same
        masks).
    n
        Resamples or trials (default 1000 for bootstrap, 10000 for AR).
    seed
        Any integer in ``[0, 2**64)``, or ``None`` for a random seed (reported).
    alpha
        Family-wise significance level of each metric's pairs.
    confidence
        Coverage of the bootstrap intervals.
    workers
        Threads: 1 serial, -1 all cores, ``None`` the library default.

    Returns
    -------
    Comparison
        Structured results; ``.table()`` renders them, ``.to_json()`` serializes them.
    """
    from .metrics import TER

    if test not in ("bootstrap", "ar"):
        raise InvalidOptionError(f"test={test!r}: expected 'bootstrap' or 'ar'")
    n = _check_n(n if n is not None else (1000 if test == "bootstrap" else 10000))
    if not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise InvalidOptionError(f"alpha={alpha!r}: expected a number in (0, 1)")
    conf = _check_confidence(confidence)
    s = _check_seed(seed)
    metric_list = list(metrics) if isinstance(metrics, Sequence) else [metrics]
    if not metric_list:
        raise InvalidOptionError("metrics: empty; expected at least one metric")
    if not isinstance(systems, Mapping) or len(systems) < 2:
        raise InvalidOptionError("systems: expected a mapping of at least two systems")
    results = []
    names: list[str] = []
    for metric in metric_list:
        names, rows = _system_rows(metric, systems, references, workers)
        scores = _corpus_scores(metric, rows)
        name = scores[0].name
        higher = not isinstance(metric, TER)
        by_score = {nm: sc.score for nm, sc in zip(names, scores)}
        order = sorted(range(len(names)), key=lambda i: (-by_score[names[i]], i))
        if not higher:
            order = sorted(range(len(names)), key=lambda i: (by_score[names[i]], i))
        pairs_idx = [
            (order[x], order[y]) for x in range(len(order)) for y in range(x + 1, len(order))
        ]
        intervals: dict[str, ConfidenceInterval] = {}
        raw_p: list[float] = []
        if test == "bootstrap":
            samples = _exact_bootstrap(metric, rows, n, s, workers)
            for i, nm in enumerate(names):
                intervals[nm] = _interval(name, nm, scores[i].score, samples[:, i], conf, s)
            for i, j in pairs_idx:
                delta = scores[i].score - scores[j].score
                raw_p.append(_bootstrap_p(samples[:, i] - samples[:, j], delta))
        else:
            for i, j in pairs_idx:
                a, b = _exact_ar(metric, rows[i], rows[j], n, s, workers)
                raw_p.append(_ar_p(a, b, scores[i].score - scores[j].score))
        adjusted = holm_bonferroni(raw_p)
        pairs = tuple(
            PairwiseResult(
                names[i], names[j], scores[i].score, scores[j].score,
                scores[i].score - scores[j].score, p, q, q <= alpha,
            )
            for (i, j), p, q in zip(pairs_idx, raw_p, adjusted)
        )  # fmt: skip
        sig = metric.get_signature()
        sig.update("bs" if test == "bootstrap" else "ar", n)
        sig.update("seed", s)
        sig._abbr.setdefault("rng", "rng")
        sig.update("rng", "splitmix64")
        results.append(
            MetricComparison(
                metric=name,
                higher_is_better=higher,
                signature=sig.format(),
                ranking=tuple(names[i] for i in order),
                scores=by_score,
                intervals=intervals,
                pairs=pairs,
            )
        )
    return Comparison(
        test=test,
        n=n,
        seed=s,
        alpha=float(alpha),
        confidence=float(conf),
        systems=tuple(names),
        metrics=tuple(results),
    )


# === report ====================================================================================
def _grid(rows: list[list[str]], aligns: str) -> list[str]:
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [
            cell.rjust(w) if a == "r" else cell.center(w) if a == "c" else cell.ljust(w)
            for cell, w, a in zip(r, widths, aligns)
        ]
        out.append("  " + "  ".join(cells).rstrip())
    return out


def _render_comparison(c: Comparison, width: int) -> str:
    test = (
        f"paired bootstrap resampling, {c.n} resamples"
        if c.test == "bootstrap"
        else f"approximate randomization, {c.n} trials per pair"
    )
    k = len(c.systems)
    m = k * (k - 1) // 2
    lines = [
        f"All-pairs comparison of {k} systems: {test}, seed {c.seed}.",
        f"Holm-Bonferroni correction over the {m} pairs of each metric; "
        f"* = significantly different (adjusted p <= {c.alpha:g}).",
    ]
    for mc in c.metrics:
        better = "higher" if mc.higher_is_better else "lower"
        lines += ["", f"{mc.metric} ({better} is better)  {mc.signature}", ""]
        head = ["rank", "system", mc.metric]
        if mc.intervals:
            head.append(f"{c.confidence:.0%} CI")
        rows = [head]
        for r, nm in enumerate(mc.ranking, 1):
            row = [str(r), nm, f"{mc.scores[nm]:.{width}f}"]
            if mc.intervals:
                iv = mc.intervals[nm]
                row.append(f"[{iv.low:.{width}f}, {iv.high:.{width}f}]")
            rows.append(row)
        lines += _grid(rows, "rlrl")
        lines.append("")
        prow = [["system A", "system B", "delta", "p-value", "Holm p", ""]]
        for p in mc.pairs:
            prow.append(
                [p.system_a, p.system_b, f"{p.delta:+.{width}f}", f"{p.p_value:.4f}",
                 f"{p.p_holm:.4f}", "*" if p.significant else ""]
            )  # fmt: skip
        lines += _grid(prow, "llrrrl")
        lines.append("")
        rank = {nm: r for r, nm in enumerate(mc.ranking, 1)}
        mat = [["", *(str(rank[b]) for b in mc.ranking)]]
        for a in mc.ranking:
            row = [str(rank[a])]
            for b in mc.ranking:
                if a == b:
                    row.append(".")
                    continue
                pr = mc.pair(a, b)
                row.append((">" if pr.system_a == a else "<") if pr.significant else "=")
            mat.append(row)
        lines += _grid(mat, "r" + "c" * len(mc.ranking))
        lines.append(
            "  (by rank) > row significantly better than column, < worse, = no significant "
            "difference"
        )
    return "\n".join(lines)
