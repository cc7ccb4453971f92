"""parbleu: SacreBLEU-exact BLEU on a fast Rust core.

Switching from SacreBLEU is a change of import::

    from parbleu import BLEU, corpus_bleu, sentence_bleu
"""

import sys
import types
from typing import TYPE_CHECKING, Any

from . import errors
from ._version import __version__
from .errors import *  # noqa: F403 (its __all__: every exception, re-exported below)

if TYPE_CHECKING:
    from .compat import (
        corpus_bleu,
        corpus_chrf,
        corpus_ter,
        raw_corpus_bleu,
        sentence_bleu,
        sentence_chrf,
        sentence_ter,
    )
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

#: Public name -> (module, attribute), imported on first use (PEP 562): ``import parbleu``
#: (and so every ``parbleu`` command) pays only for what it touches.
_LAZY: dict[str, tuple[str, str]] = {
    **{
        name: ("parbleu.compat", name)
        for name in (
            "corpus_bleu",
            "corpus_chrf",
            "corpus_ter",
            "raw_corpus_bleu",
            "sentence_bleu",
            "sentence_chrf",
            "sentence_ter",
        )
    },
    "evaluate_load": ("parbleu.integrations.evaluate", "load"),
    "BLEU": ("parbleu.metrics", "BLEU"),
    "CHRF": ("parbleu.metrics", "CHRF"),
    "TER": ("parbleu.metrics", "TER"),
    "CHRFScore": ("parbleu.metrics.chrf", "CHRFScore"),
    "ImportedScores": ("parbleu.metrics.imported", "ImportedScores"),
    "ROUGE": ("parbleu.metrics.rouge", "ROUGE"),
    "TERScore": ("parbleu.metrics.ter", "TERScore"),
    "MBRResult": ("parbleu.pairwise", "MBRResult"),
    "mbr": ("parbleu.pairwise", "mbr"),
    "Report": ("parbleu.reporting", "Report"),
    "report": ("parbleu.reporting", "report"),
    "BLEUScore": ("parbleu.score", "BLEUScore"),
    "Score": ("parbleu.score", "Score"),
    "Signature": ("parbleu.signature", "Signature"),
    "StatsAccumulator": ("parbleu.stats", "StatsAccumulator"),
    "score_files": ("parbleu.streaming", "score_files"),
}


def __getattr__(name: str) -> Any:
    """Import a public name on first use, then keep it as a module attribute."""
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'parbleu' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every public name, imported or not yet."""
    return sorted(set(globals()) | set(_LAZY) | {"pairwise"})


class _Package(types.ModuleType):
    """``parbleu``'s module type: ``parbleu.pairwise`` is the function, not the submodule.

    The import system binds a submodule as an attribute of its package when it first loads
    it; with lazy imports that can come after ``import parbleu``, so the function
    ``pairwise`` (same name as its module) is a property whose setter ignores that binding.
    """

    @property
    def pairwise(self) -> Any:
        """:func:`parbleu.pairwise.pairwise`."""
        from .pairwise import pairwise

        return pairwise

    @pairwise.setter
    def pairwise(self, value: Any) -> None:
        pass


sys.modules[__name__].__class__ = _Package


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
