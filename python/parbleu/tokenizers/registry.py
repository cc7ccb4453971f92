"""The tokenizer registry: every tokenizer's name, factory, signature name, help and extra.

The one list of tokenizers. The command line's ``-tok`` choices and help, ``BLEU.TOKENIZERS``,
the unknown-tokenizer message and the docs read it when they are built, so a tokenizer added
with :func:`register_tokenizer` appears everywhere a built-in one does.

Factories are lazy: MeCab's and SentencePiece's modules (and their optional packages) are
imported only when such a tokenizer is built. This module imports nothing heavy and no consumer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .._record import record
from ..errors import InvalidOptionError

if TYPE_CHECKING:
    from .base import BaseTokenizer

__all__ = [
    "TokenizerEntry",
    "get_tokenizer_entry",
    "register_tokenizer",
    "tokenizer_names",
    "unregister_tokenizer",
]

#: The registered tokenizers by name, in registration order (the built-in ones: SacreBLEU's).
_ENTRIES: dict[str, TokenizerEntry] = {}


@record
class TokenizerEntry:
    """One tokenizer.

    Parameters
    ----------
    name
        The name ``tokenize=`` and ``-tok`` take.
    factory
        Builds the tokenizer, given the name it was asked by (one factory can serve several
        names, as SentencePiece's does). It imports its implementation when called.
    signature
        The name signatures show (MeCab's add the MeCab version when built).
    help
        One line for the command line's help and the docs.
    extra
        The ``parbleu[...]`` extra it needs (``None``: none).
    core
        Whether it runs in the Rust core (and can be applied there, in parallel).
    """

    name: str
    factory: Callable[[str], BaseTokenizer]
    signature: str
    help: str
    extra: str | None = None
    core: bool = False


def register_tokenizer(entry: TokenizerEntry) -> None:
    """Add a tokenizer (its name must be new).

    Parameters
    ----------
    entry
        The tokenizer.

    Raises
    ------
    ValueError
        When a tokenizer of that name is already registered.
    """
    if entry.name in _ENTRIES:
        raise ValueError(f"tokenizer {entry.name!r} is already registered")
    _ENTRIES[entry.name] = entry


def unregister_tokenizer(name: str) -> None:
    """Remove a tokenizer (for tests that register a toy one).

    Parameters
    ----------
    name
        The tokenizer's name.
    """
    _ENTRIES.pop(name, None)


def tokenizer_names() -> tuple[str, ...]:
    """Return the names of the registered tokenizers, the built-in ones in SacreBLEU's order."""
    return tuple(_ENTRIES)


def get_tokenizer_entry(name: str) -> TokenizerEntry:
    """Return the entry of a tokenizer.

    Parameters
    ----------
    name
        The tokenizer's name.

    Returns
    -------
    TokenizerEntry
        Its entry.

    Raises
    ------
    InvalidOptionError
        For an unknown name (the message lists the known ones).
    """
    try:
        return _ENTRIES[name]
    except (KeyError, TypeError):  # TypeError: an unhashable name
        raise InvalidOptionError(
            f"tokenize={name!r}: expected one of {', '.join(_ENTRIES)}"
        ) from None


# --- the built-in tokenizers (SacreBLEU 2.6's, in its order) ----------------------------------


def _rust(name: str) -> BaseTokenizer:
    from .rust import RustTokenizer

    return RustTokenizer(name)


def _ja_mecab(name: str) -> BaseTokenizer:
    from .mecab import TokenizerJaMecab

    return TokenizerJaMecab()


def _ko_mecab(name: str) -> BaseTokenizer:
    from .mecab import TokenizerKoMecab

    return TokenizerKoMecab()


def _spm(name: str) -> BaseTokenizer:
    from .spm import TokenizerSPM

    return TokenizerSPM(name)


# The core's names are ``_core.TOKENIZERS`` (tests/parity/test_tokenizers.py checks they agree);
# they are written here so that listing the names needs no import of the core.
for _entry in (
    TokenizerEntry("none", _rust, "none", "no tokenization", core=True),
    TokenizerEntry("zh", _rust, "zh", "Chinese characters apart, then 13a", core=True),
    TokenizerEntry("13a", _rust, "13a", "mteval-v13a's, the default", core=True),
    TokenizerEntry("intl", _rust, "intl", "mteval-v14's international tokenizer", core=True),
    TokenizerEntry("char", _rust, "char", "every character apart", core=True),
    TokenizerEntry("ja-mecab", _ja_mecab, "ja-mecab", "Japanese, MeCab with ipadic", extra="ja"),
    TokenizerEntry("ko-mecab", _ko_mecab, "ko-mecab", "Korean, MeCab with its ko-dic", extra="ko"),
    TokenizerEntry("spm", _spm, "flores101", "an alias of flores101", extra="spm"),
    TokenizerEntry("flores101", _spm, "flores101", "spBLEU's FLORES-101 model", extra="spm"),
    TokenizerEntry("flores200", _spm, "flores200", "spBLEU's FLORES-200 model", extra="spm"),
    TokenizerEntry("spBLEU-1K", _spm, "spBLEU-1K", "spBLEU's 1K-language model", extra="spm"),
):
    register_tokenizer(_entry)
del _entry
