"""Tokenizers by SacreBLEU name: Rust (``none 13a intl char zh``), Python (MeCab, spm)."""

from __future__ import annotations

from .. import _core
from ..errors import InvalidOptionError
from .base import BaseTokenizer, PythonTokenizer

__all__ = [
    "RUST_TOKENIZERS",
    "TOKENIZERS",
    "BaseTokenizer",
    "PythonTokenizer",
    "RustTokenizer",
    "get_tokenizer",
    "is_rust_tokenizer",
]

RUST_TOKENIZERS = ("none", "13a", "intl", "char", "zh")
PYTHON_TOKENIZERS = ("ja-mecab", "ko-mecab", "spm", "flores101", "flores200", "spBLEU-1K")
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
    if name in ("spm", "flores101", "flores200", "spBLEU-1K"):
        from .spm import TokenizerSPM

        return TokenizerSPM(name)
    raise InvalidOptionError(f"tokenize={name!r}: expected one of {', '.join(TOKENIZERS)}")
