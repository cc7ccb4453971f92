"""The metrics: BLEU (chrF and TER to come)."""

from .base import Metric
from .bleu import BLEU, BLEUSignature

__all__ = ["BLEU", "BLEUSignature", "Metric"]
