"""The tokenizers of the Rust core (``none zh 13a intl char``)."""

from __future__ import annotations

from .. import _core
from .base import BaseTokenizer

__all__ = ["RustTokenizer"]


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
