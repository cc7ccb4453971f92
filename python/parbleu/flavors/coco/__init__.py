"""pycocoevalcap 1.2 (COCO caption evaluation), exactly.

BLEU, CIDEr-D and ROUGE-L run in parbleu's core and the PTB tokenizer in Python (no Java; the
original jar on request); METEOR 1.5 and SPICE run through the original's own jars (Java).

``evaluate(gts, res)`` returns COCOEvalCap's scores and per-image scores in one call; the
original's classes (``Bleu``, ``Cider``, ``Rouge``, ``Meteor``, ``Spice``, ``PTBTokenizer``,
``COCOEvalCap``) are drop-ins. See docs/captioning.md.
"""

from __future__ import annotations

from ._input import FLAVOR
from .bleu import Bleu, BleuScorer
from .cider import Cider
from .eval import METRICS, COCOEvalCap, evaluate
from .meteor import Meteor, MeteorError
from .rouge import Rouge
from .spice import Spice, spice_available
from .tokenizer import PTBTokenizer

__all__ = [
    "FLAVOR",
    "METRICS",
    "Bleu",
    "BleuScorer",
    "COCOEvalCap",
    "Cider",
    "Meteor",
    "MeteorError",
    "PTBTokenizer",
    "Rouge",
    "Spice",
    "evaluate",
    "spice_available",
]
