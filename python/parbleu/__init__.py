"""parbleu: SacreBLEU-exact BLEU on a fast Rust core.

Switching from SacreBLEU is a change of import::

    from parbleu import BLEU, corpus_bleu, sentence_bleu
"""

from ._version import __version__
from .compat import corpus_bleu, raw_corpus_bleu, sentence_bleu
from .errors import (
    EmptyInputError,
    IncompatibleStatisticsError,
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
    ParbleuError,
    StatisticsError,
    TokenizerNotAvailableError,
    TransposedReferencesError,
)
from .metrics import BLEU
from .score import BLEUScore, Score
from .signature import Signature
from .stats import StatsAccumulator

__all__ = [
    "BLEU",
    "BLEUScore",
    "EmptyInputError",
    "IncompatibleStatisticsError",
    "InputTypeError",
    "InvalidOptionError",
    "LengthMismatchError",
    "ParbleuError",
    "Score",
    "Signature",
    "StatsAccumulator",
    "TokenizerNotAvailableError",
    "TransposedReferencesError",
    "__version__",
    "corpus_bleu",
    "raw_corpus_bleu",
    "sentence_bleu",
]
