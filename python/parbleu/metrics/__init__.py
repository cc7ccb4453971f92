"""The metrics: BLEU, chrF and TER."""

from ._names import METRIC_NAMES, NAMED_METRICS, metric_from_name, word_tokenization
from .base import Metric
from .bleu import BLEU, BLEUSignature
from .chrf import CHRF, CHRFScore, CHRFSignature
from .ter import TER, TERScore, TERSignature

__all__ = [
    "BLEU",
    "CHRF",
    "METRIC_NAMES",
    "NAMED_METRICS",
    "TER",
    "BLEUSignature",
    "CHRFScore",
    "CHRFSignature",
    "Metric",
    "TERScore",
    "TERSignature",
    "metric_from_name",
    "word_tokenization",
]
