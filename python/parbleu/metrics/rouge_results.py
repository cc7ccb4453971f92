"""ROUGE's result objects: per-type means, bootstrap bounds and the printed score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..score import Score

__all__ = ["RougeAggregate", "RougeMeasures", "RougeScore"]


class RougeMeasures(NamedTuple):
    """Precision, recall and F-measure of one rouge type, 0-1 (rouge-score's ``Score``)."""

    precision: float
    recall: float
    fmeasure: float


class RougeAggregate(NamedTuple):
    """Bootstrap bounds of one rouge type (rouge-score's ``AggregateScore``)."""

    low: RougeMeasures
    mid: RougeMeasures
    high: RougeMeasures


class RougeScore(Score):
    """A ROUGE result: the mean per-pair measures of every rouge type.

    ``score`` is the first type's mean F-measure on parbleu's 0-100 scale (what the command
    line prints first and the report ranks by); every number in :attr:`mean` and
    :attr:`aggregate` is on rouge-score's 0-1 scale.

    Parameters
    ----------
    rouge_types
        The types, in the order asked for.
    mean
        Per type, the mean of the per-pair precision, recall and F-measure.
    n_pairs
        Number of (prediction, references) pairs averaged.

    Attributes
    ----------
    aggregate : dict or None
        Per type, the bootstrap's low/mid/high (``BootstrapAggregator.aggregate()``'s
        values); set by ``corpus_score`` with ``n_bootstrap > 1``, else ``None``.
    """

    def __init__(
        self, rouge_types: Sequence[str], mean: Mapping[str, RougeMeasures], n_pairs: int
    ) -> None:
        self.rouge_types = tuple(rouge_types)
        self.mean = dict(mean)
        self.n_pairs = n_pairs
        self.aggregate: dict[str, RougeAggregate] | None = None
        super().__init__("ROUGE", 100 * self.mean[self.rouge_types[0]].fmeasure)
        self._verbose = "F: " + "/".join(
            f"{t} {100 * self.mean[t].fmeasure:.2f}" for t in dict.fromkeys(self.rouge_types)
        )

    def set_aggregate(self, aggregate: Mapping[str, RougeAggregate]) -> None:
        """Store bootstrap bounds, and the first type's mid/half-width as the printed interval.

        Parameters
        ----------
        aggregate
            Per type, the bootstrap's low/mid/high.
        """
        self.aggregate = dict(aggregate)
        first = self.aggregate[self.rouge_types[0]]
        self._mean = 100 * first.mid.fmeasure
        self._ci = 100 * 0.5 * (first.high.fmeasure - first.low.fmeasure)

    def fmeasures(self) -> dict[str, float]:
        """Return ``{rouge_type: mean F-measure}`` (0-1): the hub module's aggregated output.

        Returns
        -------
        dict
            One value per type.
        """
        return {t: self.mean[t].fmeasure for t in self.rouge_types}
