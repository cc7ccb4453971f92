"""rouge-score 0.1.2's ``scoring`` module, with its numbers.

``Score``, ``AggregateScore``, ``BaseScorer``, ``BootstrapAggregator`` and ``fmeasure``.

``BootstrapAggregator`` draws from numpy's global RNG exactly as rouge-score does (the same
numpy calls in the same order, :func:`.engine.bootstrap_compat`), so after
``np.random.seed(s)`` its ``low``/``mid``/``high`` are rouge-score's bits. parbleu's own
bootstrap, independent of numpy's global state and of the thread count, is
:func:`.engine.bootstrap_stats`.
"""

from __future__ import annotations

import abc
import collections
from typing import Any, NamedTuple

import numpy as np

from .engine import bootstrap_compat, check_bootstrap


class Score(NamedTuple):
    """Tuple containing precision, recall, and f-measure values."""

    precision: float
    recall: float
    fmeasure: float


class AggregateScore(NamedTuple):
    """Tuple containing confidence intervals for scores."""

    low: Any
    mid: Any
    high: Any


class BaseScorer(metaclass=abc.ABCMeta):
    """Base class for Scorer objects."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Calculate the scores between ``target`` and ``prediction``.

        Parameters
        ----------
        target : str
            The reference (ground truth) text.
        prediction : str
            The predicted text.

        Returns
        -------
        dict
            Score type -> :class:`Score`.
        """


class BootstrapAggregator:
    """Aggregate scores into bootstrap confidence intervals, as rouge-score does.

    Parameters
    ----------
    confidence_interval : float, default 0.95
        In ``[0, 1]``.
    n_samples : int, default 1000
        Bootstrap samples, positive.

    Raises
    ------
    ValueError
        (:class:`parbleu.errors.InvalidOptionError`) an argument out of its range.
    """

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000) -> None:
        check_bootstrap(confidence_interval, n_samples)
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._scores: dict[str, list[Any]] = collections.defaultdict(list)

    def add_scores(self, scores: dict[str, Any]) -> None:
        """Add one sample (score type -> ``Score``-like namedtuple) for later aggregation.

        Parameters
        ----------
        scores : dict
            Score type -> a namedtuple of measures (e.g. :class:`Score`).
        """
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> dict[str, AggregateScore]:
        """Aggregate the scores added so far.

        Returns
        -------
        dict
            Score type -> :class:`AggregateScore` of ``low``, ``mid`` and ``high``, each of the
            class of the added scores.
        """
        result = {}
        for score_type, scores in self._scores.items():
            score_matrix = np.vstack(tuple(scores))
            percentiles = bootstrap_compat(
                score_matrix,
                confidence_interval=self._confidence_interval,
                n_samples=self._n_samples,
            )
            intervals = tuple(scores[0].__class__(*percentiles[j, :]) for j in range(3))
            result[score_type] = AggregateScore(
                low=intervals[0], mid=intervals[1], high=intervals[2]
            )
        return result


def fmeasure(precision: float, recall: float) -> float:
    """Compute the f-measure of ``precision`` and ``recall`` as rouge-score does.

    Parameters
    ----------
    precision, recall : float
        The two measures.

    Returns
    -------
    float
        ``2 * precision * recall / (precision + recall)``, 0.0 when both are 0.
    """
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0
