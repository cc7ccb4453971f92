"""Tokenizers by SacreBLEU name: Rust (``none zh 13a intl char``), Python (MeCab, spm).

:data:`TOKENIZERS` is the one list of tokenizer names: the command line's ``-tok`` choices,
``BLEU.TOKENIZERS``, the docs and the tests read it from here.
"""

from __future__ import annotations

from .. import _core
from ..errors import InvalidOptionError
from .base import BaseTokenizer, PythonTokenizer
from .spm import SPM_TOKENIZERS

__all__ = [
    "MECAB_TOKENIZERS",
    "PYTHON_TOKENIZERS",
    "RUST_TOKENIZERS",
    "SPM_TOKENIZERS",
    "TOKENIZERS",
    "BaseTokenizer",
    "PythonTokenizer",
    "RustTokenizer",
    "get_tokenizer",
    "is_rust_tokenizer",
]

#: The core's tokenizers, as the core lists them (SacreBLEU's order).
RUST_TOKENIZERS: tuple[str, ...] = tuple(_core.TOKENIZERS)
#: MeCab's (extras ``ja`` and ``ko``).
MECAB_TOKENIZERS = ("ja-mecab", "ko-mecab")
#: Tokenizers run in Python before the core splits on whitespace.
PYTHON_TOKENIZERS = MECAB_TOKENIZERS + SPM_TOKENIZERS
#: Every tokenizer, in SacreBLEU's order (its ``BLEU.TOKENIZERS``).
TOKENIZERS = RUST_TOKENIZERS + PYTHON_TOKENIZERS


class RustTokenizer(BaseTokenizer):
    """A tokenizer implemented in the Rust core.

    Parameters
    ----------
    name
        One of ``none``, ``13a``, ``intl``, ``char``, ``zh``.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def signature(self) -> str:
        """Return the name used in signatures."""
        return self.name

    def __call__(self, line: str) -> str:
        """Tokenize one line (after ``rstrip``, as SacreBLEU's BLEU preprocessing does)."""
        return str(_core.tokenize(self.name, [line], False)[0])


def is_rust_tokenizer(tok: BaseTokenizer) -> bool:
    """Whether the tokenizer runs in the core (and can be applied there, in parallel)."""
    return isinstance(tok, RustTokenizer)


def get_tokenizer(name: str) -> BaseTokenizer:
    """Create a tokenizer by its SacreBLEU name.

    Parameters
    ----------
    name
        The tokenizer's name.

    Returns
    -------
    BaseTokenizer
        The tokenizer.

    Raises
    ------
    InvalidOptionError
        For an unknown name.
    TokenizerNotAvailableError
        When the tokenizer needs an extra that is not installed.
    """
    if name in RUST_TOKENIZERS:
        return RustTokenizer(name)
    if name == "ja-mecab":
        from .mecab import TokenizerJaMecab

        return TokenizerJaMecab()
    if name == "ko-mecab":
        from .mecab import TokenizerKoMecab

        return TokenizerKoMecab()
    if name in SPM_TOKENIZERS:
        from .spm import TokenizerSPM

        return TokenizerSPM(name)
    raise InvalidOptionError(f"tokenize={name!r}: expected one of {', '.join(TOKENIZERS)}")
