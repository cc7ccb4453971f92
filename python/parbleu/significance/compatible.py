"""The SacreBLEU-compatible path: :class:`PairedTest` and the ``compat=True`` helpers.

Seeds come from ``SACREBLEU_SEED`` as in SacreBLEU; results, signatures and log lines are
SacreBLEU 2.6's bit for bit (the kernel is :mod:`parbleu._resampling`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .._options import MAX_RESAMPLES, check_count
from .._resampling import CompatEngine, estimate_ci, sacrebleu_seed, score_scalars, typed_scores
from ..errors import InvalidOptionError
from ..score import Score
from ..signature import Signature
from ._systems import References, Test, _rows, other_systems
from .results import ConfidenceInterval, PairedResult

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..metrics.base import Metric

logger = logging.getLogger("parbleu.significance")


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


def _compute_p_value(stats: npt.NDArray[Any], real_difference: float) -> float:
    # SacreBLEU's p-value: strictly greater, plus one.
    import numpy as np

    c = np.sum(stats > real_difference).item()
    return (c + 1) / (len(stats) + 1)


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
        self._engine = CompatEngine(workers)
        self._signatures: dict[str, Signature] = {}
        self._baseline_info: dict[str, tuple[npt.NDArray[Any], Result]] = {}
        self.metrics: dict[str, Any] = {}

        bl_name, bl_hyps = self.named_systems[0]
        for metric in metrics.values():  # every metric checked before any work
            metric.require("resample", "parbleu.significance")
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
            scores_sys = typed_scores(*self._engine.bootstrap(metric, sys_stats, idxs))
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
                sys_scores = typed_scores(*self._engine.bootstrap(metric, sys_stats, bs_idxs))
                res.mean, res.ci = estimate_ci(sys_scores)
            results[mname] = res
        return results


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
    engine: CompatEngine | None = None,
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

    engine = engine or CompatEngine(workers)
    if idxs is None:
        idxs = engine.choice(seed, n, len(rows))
    values, kinds = engine.bootstrap(metric, rows, idxs)
    k = n // 40
    if corpus_style:
        raw = sorted(score_scalars(values, kinds))
        low, high = raw[k], raw[n - 1 - k]
        mean, half = statistics.mean(raw), 0.5 * (high - low)
    else:
        typed = typed_scores(values, kinds)
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


def _compat_bs_p(
    engine: CompatEngine,
    metric: Metric[Any],
    bl_rows: npt.NDArray[Any],
    sys_rows: npt.NDArray[Any],
    bl_score: Score,
    sys_score: Score,
    idxs: npt.NDArray[Any],
) -> float:
    import numpy as np

    scores_bl = engine.bootstrap_cached("baseline", metric, bl_rows, idxs)
    scores_sys = typed_scores(*engine.bootstrap(metric, sys_rows, idxs))
    sample_diffs = np.abs(scores_sys - scores_bl)
    stats = sample_diffs - sample_diffs.mean()
    return _compute_p_value(stats, abs(bl_score.score - sys_score.score))


def compat_paired(
    test: Test,
    metric: Metric[Any],
    names: list[str],
    rows: list[npt.NDArray[Any]],
    bi: int,
    scores: list[Score],
    n: int,
    seed: int | None,
    workers: int | None,
) -> list[PairedResult]:
    """``paired_bootstrap``/``paired_ar`` with ``compat=True`` (``bi``: the baseline's index).

    SacreBLEU's ``PairedTest``: the baseline's interval and one set of bootstrap resamples
    first (bootstrap), or new masks for every system (AR), drawn in SacreBLEU's order.
    """
    import numpy as np

    name = scores[0].name
    cseed = _compat_seed(seed)
    engine = CompatEngine(workers)
    bl = idxs = None
    if test == "bootstrap":
        bl = _compat_interval(metric, names[bi], scores[bi], rows[bi], n, cseed, workers, engine)
        idxs = engine.choice(cseed if cseed else None, n, len(rows[0]))
    out = []
    for i, sys_name in other_systems(names, bi):
        ci = None
        if idxs is not None:
            ci = _compat_interval(
                metric, sys_name, scores[i], rows[i], n, cseed, workers, engine, idxs
            )
            p = _compat_bs_p(engine, metric, rows[bi], rows[i], scores[bi], scores[i], idxs)
        else:
            pos_sel, packed, _ = engine.ar_draws(cseed if cseed else None, n, len(rows[0]), -1)
            a, b = engine.ar(metric, rows[bi], rows[i], pos_sel, packed)
            p = _compute_p_value(np.abs(a - b), abs(scores[bi].score - scores[i].score))
        out.append(
            PairedResult(
                name, test, names[bi], sys_name, scores[bi].score, scores[i].score,
                scores[i].score - scores[bi].score, p, n, cseed, ci, bl, True,
            )
        )  # fmt: skip
    return out
