"""Pairwise sentence scores and minimum-Bayes-risk (MBR) selection.

``pairwise(H, R, metric)`` is the ``len(H) × len(R)`` matrix whose element ``(i, j)`` equals
SacreBLEU's ``metric.sentence_score(H[i], [R[j]]).score``, bit for bit (ROUGE: rouge-score's
``score(R[j], H[i])`` of the first rouge type, ``100 *`` its ``pair_measure``). Every string is
preprocessed once (in Rust: BLEU's and chrF's n-grams interned once, so a pair costs one pass
over the reference's distinct n-grams). Scoring a list against itself (``references=None``)
computes the clipped matches of each unordered pair once where the metric declares pairs
symmetric (BLEU, chrF).

``mbr(candidates, metric)`` picks the candidate with the best expected utility against the
pseudo-references (the candidates themselves, or ``references=``). With ``aggregate=True``
the expected utility is approximated by one score against an "expected reference" (weighted
mean n-gram counts and lengths; DeNero et al. 2009, Vamvas & Sennrich 2024): linear instead
of quadratic in the number of references, but **not** equal to the mean of sentence scores,
and nothing a SacreBLEU signature describes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Union

from ._inputs import as_lines, check_items, diagnose_unencodable
from ._workers import resolve_workers
from .errors import InvalidOptionError
from .metrics.base import Metric
from .metrics.registry import make_metric, metric_aliases
from .progress import ProgressArg, make_progress

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["MBRResult", "MetricArg", "mbr", "pairwise", "resolve_metric"]

#: A metric name (``parbleu.metrics.metric_aliases()``: ``"bleu"``, ``"chrf"``, ``"chrf++"``,
#: ``"ter"``, ``"rouge"``, ...) or a metric object.
MetricArg = Union[str, Metric[Any]]

#: Pairs per call into the core between two progress reports / Ctrl-C checks (divided by
#: the metric's ``pair_cost``).
_BLOCK_PAIRS = 1 << 20


def resolve_metric(metric: MetricArg) -> Metric[Any]:
    """Return the metric object for a name, with SacreBLEU's sentence-level defaults.

    Parameters
    ----------
    metric
        ``"bleu"`` (SacreBLEU's ``sentence_bleu`` defaults: 13a, exp smoothing, effective
        order), ``"chrf"``, ``"chrf++"`` (word order 2), ``"ter"``, ``"rouge"`` (rouge1
        F-measure), or a metric object (``BLEU``, ``CHRF``, ``TER``, ``ROUGE``) whose options
        are used as they are.

    Returns
    -------
    Metric
        The metric object.
    """
    if isinstance(metric, Metric):
        return metric
    if isinstance(metric, str) and metric.lower() in metric_aliases():
        return make_metric(metric, sentence=True)
    # The names are read now: a metric registered later is listed.
    raise InvalidOptionError(
        f"metric={metric!r}: expected one of {', '.join(map(repr, metric_aliases()))} or a "
        "parbleu metric object"
    )


def _strings(obj: Any, what: str) -> list[str]:
    lines = as_lines(obj, what)
    check_items(lines, what)
    return lines


def _table(m: Metric[Any], strings: list[str], workers: int, n_hyps: int, what: str) -> Any:
    """Build the core table of ``strings``: ``what`` first (``n_hyps``), then references."""
    try:
        return m.pair_table(strings, workers)
    except UnicodeEncodeError:
        hyps, refs = strings[:n_hyps], strings[n_hyps:]
        bad_hyp = any(not x.isascii() and _unencodable(x) for x in hyps)
        raise diagnose_unencodable(
            [hyps if bad_hyp or not refs else refs], (what if bad_hyp or not refs else "references")
        ) from None


def _unencodable(x: str) -> bool:
    try:
        x.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def pairwise(
    hypotheses: Sequence[str],
    references: Sequence[str] | None = None,
    metric: MetricArg = "bleu",
    *,
    workers: int | None = None,
    progress: ProgressArg = None,
) -> npt.NDArray[np.float64]:
    """Sentence score of every hypothesis against every reference.

    Element ``(i, j)`` equals ``m.sentence_score(hypotheses[i], [references[j]]).score`` in
    SacreBLEU 2.6, where ``m`` is the metric (see :func:`resolve_metric` for names); for
    ROUGE, ``100 *`` rouge-score's ``m.pair_measure`` of the first rouge type.

    Parameters
    ----------
    hypotheses
        H strings.
    references
        R strings (one reference per column, not SacreBLEU's reference streams); ``None`` (or
        the same list object as ``hypotheses``) scores the hypotheses against themselves,
        computing each unordered pair's n-gram matches once (BLEU, chrF).
    metric
        ``"bleu"``, ``"chrf"``, ``"chrf++"``, ``"ter"``, ``"rouge"`` or a metric object.
    workers
        Threads: 1 serial, -1 all cores, ``None`` the default (``PARBLEU_WORKERS`` or all).
    progress
        ``True`` for a progress bar on standard error, a callable ``progress(done, total)``
        (pairs), or ``None``.

    Returns
    -------
    numpy.ndarray
        float64, shape ``(H, R)``.
    """
    import numpy as np

    m = resolve_metric(metric)
    m.require("pairwise", "pairwise")
    hyps = _strings(hypotheses, "hypotheses")
    symmetric = references is None or references is hypotheses
    refs = hyps if symmetric else _strings(references, "references")
    n_h, n_r = len(hyps), len(refs)
    out = np.zeros((n_h, n_r), dtype=np.float64)
    total = n_h * n_r
    if total == 0:
        return out
    w = resolve_workers(workers, total)
    table = _table(m, hyps if symmetric else hyps + refs, w, n_h, "hypotheses")
    report, bar = make_progress(progress, total, "pairs", "pairwise")
    try:
        if symmetric and m.symmetric_pairs:
            n = n_h
            start = 0
            while start < n:
                # rows [start, stop) cover about _BLOCK_PAIRS of the triangle
                stop = start + max(1, (2 * _BLOCK_PAIRS) // max(n - start, 1))
                stop = min(stop, n)
                table.score_symmetric(start, stop, out, w)
                start = stop
                if report is not None:
                    report(n * n - (n - stop) * (n - stop), total)
        else:
            c0 = 0 if symmetric else n_h
            block = max(1, _BLOCK_PAIRS // m.pair_cost)
            rows = max(1, block // n_r)
            for a in range(0, n_h, rows):
                b = min(a + rows, n_h)
                table.score_rect((a, b), (c0, c0 + n_r), out[a:b], w)
                if report is not None:
                    report(b * n_r, total)
    finally:
        if bar is not None:
            bar.close()
    return out


class MBRResult(NamedTuple):
    """Outcome of :func:`mbr`.

    Attributes
    ----------
    best_index
        Position of the selected candidate (the first one among equals).
    utilities
        Expected utility of every candidate (float64; for TER, expected TER: lower is better).
    candidate
        The selected candidate.
    approximate
        ``True`` when computed with reference aggregation (not a mean of sentence scores).
    """

    best_index: int
    utilities: Any
    candidate: str
    approximate: bool


def _weights(weights: Sequence[float] | None, n: int) -> npt.NDArray[np.float64]:
    import numpy as np

    if weights is None:
        return np.full(n, 1.0 / n)
    w = np.asarray(weights, dtype=np.float64).reshape(-1)
    if w.shape[0] != n:
        raise InvalidOptionError(f"weights: {w.shape[0]} values for {n} references")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise InvalidOptionError("weights: expected finite values >= 0 with a positive sum")
    return w / w.sum()  # type: ignore[no-any-return]


def mbr(
    candidates: Sequence[str],
    metric: MetricArg = "bleu",
    references: Sequence[str] | None = None,
    *,
    weights: Sequence[float] | None = None,
    aggregate: bool = False,
    workers: int | None = None,
    progress: ProgressArg = None,
) -> MBRResult:
    """Minimum-Bayes-risk selection: the candidate with the best expected utility.

    The utility of candidate ``c`` is ``Σ_j w_j · score(c, r_j)`` over the pseudo-references
    ``r_j`` (the candidates themselves, each candidate included, unless ``references`` is
    given), with uniform weights unless ``weights`` is given (normalised to sum to 1).

    Parameters
    ----------
    candidates
        The candidate translations of one source.
    metric
        ``"bleu"``, ``"chrf"``, ``"chrf++"``, ``"ter"``, ``"rouge"`` or a metric object (see
        :func:`pairwise`). For TER the lowest expected TER wins.
    references
        Pseudo-references (samples); ``None`` uses the candidates.
    weights
        One non-negative weight per reference (e.g. sample probabilities).
    aggregate
        Reference aggregation (BLEU and chrF only): score each candidate once against the
        weighted mean of the references' n-gram counts and lengths. **An approximation**: it
        ranks candidates like the exact expected utility in most cases but its values are
        not means of sentence scores.
    workers
        Threads, as in :func:`pairwise`.
    progress
        As in :func:`pairwise`.

    Returns
    -------
    MBRResult
        ``(best_index, utilities, candidate, approximate)``.
    """
    import numpy as np

    m = resolve_metric(metric)
    m.require("pairwise", "mbr")
    cands = _strings(candidates, "candidates")
    if not cands:
        from .errors import EmptyInputError

        raise EmptyInputError("candidates: empty; expected at least one candidate")
    same = references is None or references is candidates
    refs = cands if same else _strings(references, "references")
    if not refs:
        from .errors import EmptyInputError

        raise EmptyInputError("references: empty; expected at least one pseudo-reference")
    w = _weights(weights, len(refs))
    if aggregate:
        if not m.aggregates_references:
            raise InvalidOptionError(
                "aggregate=True: reference aggregation is defined for BLEU and chrF, not "
                f"{m.metric_name.upper()}"
            )
        n_c = len(cands)
        workers_ = resolve_workers(workers, n_c * 64)
        table = _table(m, cands if same else cands + refs, workers_, n_c, "candidates")
        utilities = np.zeros(n_c, dtype=np.float64)
        c0 = 0 if same else n_c
        table.score_aggregate((0, n_c), (c0, c0 + len(refs)), np.ascontiguousarray(w), utilities, 1)
    else:
        matrix = pairwise(cands, None if same else refs, m, workers=workers, progress=progress)
        utilities = matrix.mean(axis=1) if weights is None else matrix @ w
    best = int(np.argmax(utilities) if m.higher_is_better else np.argmin(utilities))
    return MBRResult(best, utilities, cands[best], aggregate)
