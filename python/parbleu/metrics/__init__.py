"""The metrics: BLEU, chrF and TER (named by :mod:`parbleu.metrics.registry`).

The names below are imported on first use (PEP 562), so importing one submodule (the
registry, for the command line's ``-m`` choices; ``bleu`` for ``-m bleu``) does not import
every metric.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import Metric
    from .bleu import BLEU, BLEUSignature
    from .chrf import CHRF, CHRFScore, CHRFSignature
    from .ter import TER, TERScore, TERSignature
    from .words import word_tokenization

#: Public name -> submodule that defines it.
_LAZY = {
    "Metric": "base",
    "BLEU": "bleu",
    "BLEUSignature": "bleu",
    "CHRF": "chrf",
    "CHRFScore": "chrf",
    "CHRFSignature": "chrf",
    "TER": "ter",
    "TERScore": "ter",
    "TERSignature": "ter",
    "word_tokenization": "words",
}

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
    "word_tokenization",
]


def __getattr__(name: str) -> Any:
    import importlib

    module = _LAZY.get(name)
    if module is None:
        # A submodule not imported yet (``parbleu.metrics.chrf`` after ``import
        # parbleu.metrics``), as when this package imported them all.
        if name.startswith("_") or not name.isidentifier():
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
