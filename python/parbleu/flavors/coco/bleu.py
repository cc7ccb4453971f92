"""pycocoevalcap 1.2's ``Bleu`` and ``BleuScorer``, from :mod:`parbleu.metrics.caption.bleu`.

Kept as a module so that ``parbleu.flavors.coco.bleu`` imports go on working.
"""

from __future__ import annotations

from ...metrics.caption.bleu import Bleu, BleuScorer

__all__ = ["Bleu", "BleuScorer"]
