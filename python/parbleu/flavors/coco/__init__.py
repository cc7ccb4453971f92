"""pycocoevalcap 1.2 (COCO caption evaluation), exactly: BLEU, CIDEr-D, ROUGE-L in parbleu's
core; METEOR 1.5, SPICE and the PTB tokenizer through the original's jars (Java).

See docs/captioning.md. Modules: :mod:`.bleu`, :mod:`.cider`, :mod:`.rouge`, :mod:`.meteor`,
:mod:`.spice`, :mod:`.tokenizer`, :mod:`.eval` (``COCOEvalCap`` and :func:`evaluate`).
"""

from __future__ import annotations

from ._input import FLAVOR
from .bleu import Bleu, BleuScorer
from .cider import Cider
from .rouge import Rouge
from .tokenizer import PTBTokenizer

__all__ = ["FLAVOR", "Bleu", "BleuScorer", "Cider", "PTBTokenizer", "Rouge"]
