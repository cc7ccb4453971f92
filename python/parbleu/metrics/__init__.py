"""The metrics: BLEU, chrF and TER."""

from .base import Metric
from .bleu import BLEU, BLEUSignature
from .chrf import CHRF, CHRFScore, CHRFSignature
from .ter import TER, TERScore, TERSignature

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
]
