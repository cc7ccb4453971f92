"""parbleu: SacreBLEU-exact BLEU on a fast Rust core.

Switching from SacreBLEU is a change of import::

    from parbleu import BLEU, corpus_bleu, sentence_bleu
"""

from . import errors
from ._version import __version__
from .compat import (
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    raw_corpus_bleu,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
)
from .errors import *  # noqa: F403 (its __all__: every exception, re-exported below)
from .integrations.evaluate import load as evaluate_load
from .metrics import BLEU, CHRF, TER
from .metrics.chrf import CHRFScore
from .metrics.imported import ImportedScores
from .metrics.rouge import ROUGE
from .metrics.ter import TERScore
from .pairwise import MBRResult, mbr, pairwise
from .reporting import Report, report
from .score import BLEUScore, Score
from .signature import Signature
from .stats import StatsAccumulator
from .streaming import score_files

__all__ = [
    "BLEU",
    "CHRF",
    "ROUGE",
    "TER",
    "BLEUScore",
    "CHRFScore",
    "ImportedScores",
    "MBRResult",
    "Report",
    "Score",
    "Signature",
    "StatsAccumulator",
    "TERScore",
    "__version__",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "evaluate_load",
    "mbr",
    "pairwise",
    "raw_corpus_bleu",
    "report",
    "score_files",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]
__all__ += errors.__all__
