"""Tokenizers by SacreBLEU name: Rust (``none zh 13a intl char``), Python (MeCab, spm).

The names, factories and help live in :mod:`parbleu.tokenizers.registry`, the one list: the
command line's ``-tok`` choices, ``BLEU.TOKENIZERS``, the messages and the docs read it.
"""

from __future__ import annotations

from typing import Any

from .base import BaseTokenizer, PythonTokenizer
from .registry import (
    TokenizerEntry,
    get_tokenizer_entry,
    register_tokenizer,
    tokenizer_names,
    unregister_tokenizer,
)
from .rust import RustTokenizer

__all__ = [
    "PYTHON_TOKENIZERS",
    "RUST_TOKENIZERS",
    "TOKENIZERS",
    "BaseTokenizer",
    "PythonTokenizer",
    "RustTokenizer",
    "TokenizerEntry",
    "TokenizerNames",
    "get_tokenizer",
    "get_tokenizer_entry",
    "is_rust_tokenizer",
    "register_tokenizer",
    "tokenizer_names",
    "unregister_tokenizer",
]


def __getattr__(name: str) -> tuple[str, ...]:
    # Read at each access, so that a later register_tokenizer is not missed.
    if name == "TOKENIZERS":
        return tokenizer_names()
    if name in ("RUST_TOKENIZERS", "PYTHON_TOKENIZERS"):
        core = name == "RUST_TOKENIZERS"
        return tuple(n for n in tokenizer_names() if get_tokenizer_entry(n).core is core)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class TokenizerNames:
    """A class attribute that reads the registry's names at each access (``BLEU.TOKENIZERS``)."""

    def __get__(self, obj: Any, owner: Any = None) -> tuple[str, ...]:
        return tokenizer_names()


def is_rust_tokenizer(tok: BaseTokenizer) -> bool:
    """Whether the tokenizer runs in the core (and can be applied there, in parallel)."""
    return isinstance(tok, RustTokenizer)


def get_tokenizer(name: str) -> BaseTokenizer:
    """Create the tokenizer ``name`` (SacreBLEU's, or one added with ``register_tokenizer``).

    An unknown name raises :func:`get_tokenizer_entry`'s ``InvalidOptionError``; a tokenizer
    whose extra is not installed raises ``TokenizerNotAvailableError`` naming the extra.
    """
    entry = get_tokenizer_entry(name)
    return entry.factory(name)
