"""Tokenizer interface."""

from __future__ import annotations

from abc import ABC, abstractmethod


class BaseTokenizer(ABC):
    """A tokenizer: ``signature()`` for the signature, ``__call__`` to tokenize a line."""

    @abstractmethod
    def signature(self) -> str:
        """Return the name shown in signatures."""

    @abstractmethod
    def __call__(self, line: str) -> str:
        """Tokenize one line."""


class PythonTokenizer(BaseTokenizer):
    """A tokenizer that runs in Python (it needs an optional package)."""

    def batch(self, lines: list[str]) -> list[str]:
        """Tokenize many lines (subclasses with a batch API override this)."""
        return [self(x) for x in lines]
