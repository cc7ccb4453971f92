"""pycocoevalcap 1.2 (COCO caption evaluation), exactly: a drop-in facade.

The engines of the registered caption metrics (BLEU-1..4 with its own brevity penalty, CIDEr-D,
ROUGE-L, METEOR 1.5, the PTB tokenizer, the input checks) live in :mod:`parbleu.metrics.caption`;
this package gives them pycocoevalcap's API (``Bleu``/``BleuScorer``, ``Cider``, ...) and adds
what only the original's API has: the ``PTBTokenizer`` class (the native tokenizer, or the jar on
request), ``COCOEvalCap`` and ``evaluate`` (the whole suite in one call), and ``Spice`` (its jar).

BLEU, CIDEr-D and ROUGE-L run in parbleu's core and the PTB tokenizer in Python (no Java); METEOR
1.5 and SPICE run through the original's own jars (Java). See docs/captioning.md.
"""

from __future__ import annotations

from ...metrics.caption.checks import FLAVOR
from ...metrics.caption.cider import Cider
from ...metrics.caption.meteor import Meteor, MeteorError
from ...metrics.caption.rouge import Rouge
from .bleu import Bleu, BleuScorer
from .eval import METRICS, COCOEvalCap, evaluate
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
