"""A toy tokenizer (scratch: verifies docs/architecture.md's checklist)."""

from __future__ import annotations

from .base import PythonTokenizer


class TokenizerToy(PythonTokenizer):
    """Split off every comma."""

    def signature(self) -> str:
        """Return ``toy``."""
        return "toy"

    def __call__(self, line: str) -> str:
        """Tokenize one line."""
        return " ".join(line.replace(",", " , ").split())
