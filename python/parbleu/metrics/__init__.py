"""The metrics: BLEU, chrF and TER (named by :mod:`parbleu.metrics.registry`)."""

from .base import Metric
from .bleu import BLEU, BLEUSignature
from .chrf import CHRF, CHRFScore, CHRFSignature
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
    "TERScore",
    "TERSignature",
    "word_tokenization",
]
