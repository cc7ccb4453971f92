"""A toy metric, complete in this one file: the proof that a metric is one unit.

It subclasses nothing but the contract (:class:`parbleu.metrics.contract.SegmentMean`: the
corpus score is the mean of the segment scores), declares its capabilities and option schema
in its registry entry, and registers itself. ``tests/unit/test_toy_metric.py`` then drives it
through every surface; nothing in ``python/parbleu`` names it.
"""

from __future__ import annotations

from parbleu.metrics.contract import SegmentMean
from parbleu.metrics.registry import (
    Capabilities,
    MetricEntry,
    MetricOption,
    MetricProfile,
    register_metric,
    unregister_metric,
)

NAME = "toyf1"


class ToyF1(SegmentMean):
    """Unigram F1 x 100 against the best reference, averaged over segments."""

    metric_name = NAME

    def __init__(
        self, lowercase: bool = False, references: list[list[str | None]] | None = None
    ) -> None:
        self.lowercase = ENTRY.check_options({"lowercase": lowercase})["lowercase"]
        super().__init__(references)

    def options(self) -> dict[str, object]:
        """Return the option that changes the scores."""
        return {"lowercase": self.lowercase}

    def segment_score(self, hypothesis: str, references: list[str]) -> float:
        """Return the best unigram F1 x 100 of ``hypothesis`` over ``references``."""
        fold = str.lower if self.lowercase else str
        hyp = fold(hypothesis).split()
        best = 0.0
        for ref in references:
            r = fold(ref).split()
            common = sum(min(hyp.count(w), r.count(w)) for w in set(hyp))
            if common:
                p, rec = common / len(hyp), common / len(r)
                best = max(best, 100 * 2 * p * rec / (p + rec))
        return best


ENTRY = MetricEntry(
    name=NAME,
    factory=ToyF1,
    help="unigram F1 (a toy metric of the tests)",
    profile=MetricProfile(higher_is_better=True, title="ToyF1"),
    capabilities=Capabilities(resample=True, pairwise=False, rows="float"),
    options=(
        MetricOption(
            name="lowercase",
            type="bool",
            flags=("--toyf1-lowercase",),
            default=False,
            signature=("case", "c"),
            help="Compare lowercased tokens.",
        ),
    ),
)


def register() -> None:
    """Add the toy to the metric registry."""
    register_metric(ENTRY)


def unregister() -> None:
    """Remove it again."""
    unregister_metric(NAME)
