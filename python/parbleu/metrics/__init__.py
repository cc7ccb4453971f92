"""The metrics: BLEU, chrF and TER, and the registry that names them."""

from .base import Metric
from .bleu import BLEU, BLEUSignature
from .chrf import CHRF, CHRFScore, CHRFSignature
from .registry import (
    MetricEntry,
    MetricProfile,
    get_metric,
    make_metric,
    metric_aliases,
    metric_names,
    register_metric,
    unregister_metric,
)
from .ter import TER, TERScore, TERSignature
from .words import word_tokenization

__all__ = [
    "BLEU",
    "CHRF",
    "TER",
    "BLEUSignature",
    "CHRFScore",
    "CHRFSignature",
    "Metric",
    "MetricEntry",
    "MetricProfile",
    "TERScore",
    "TERSignature",
    "get_metric",
    "make_metric",
    "metric_aliases",
    "metric_names",
    "register_metric",
    "unregister_metric",
    "word_tokenization",
]
