"""pycocoevalcap 1.2's ``Bleu`` and ``BleuScorer``: the engine of :mod:`parbleu.metrics.caption.bleu`."""

from __future__ import annotations

from ...metrics.caption.bleu import Bleu, BleuScorer

__all__ = ["Bleu", "BleuScorer"]
