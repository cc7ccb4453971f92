"""rouge-score 0.1.2's ``tokenize`` module: ``tokenize(text, stemmer)``.

Lowercase (Python's ``str.lower()``), every run of characters outside ``[a-z0-9]`` becomes a
space, split, stem tokens longer than 3 characters, keep tokens matching ``^[a-z0-9]+$``. With
``stemmer=None`` or NLTK's ``PorterStemmer()`` (the stemmer rouge-score uses) the core does it
all; any other stemmer object runs here, in Python, with the same steps.
"""

from __future__ import annotations

import re
from typing import Any

from parbleu import _core

from .engine import tokenize as _engine_tokenize

NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)


class PorterStemmer:
    """NLTK 3.10.4's ``PorterStemmer()`` (mode ``NLTK_EXTENSIONS``) for ASCII words, in the core.

    The stemmer rouge-score's ``DefaultTokenizer`` uses, without NLTK. Words with a non-ASCII
    character come back unchanged (rouge-score's tokenizer never passes one).
    """

    def stem(self, word: str) -> str:
        """Return the stem of ``word``.

        Parameters
        ----------
        word : str
            The word.

        Returns
        -------
        str
            NLTK's stem of the lowercased word.
        """
        return _core.rouge_porter_stem([word])[0]


def _is_core_porter(stemmer: object) -> bool:
    """Whether ``stemmer`` is a stemmer the core reproduces: NLTK's default ``PorterStemmer``."""
    if isinstance(stemmer, PorterStemmer):
        return True
    cls = type(stemmer)
    return (
        cls.__module__ == "nltk.stem.porter"
        and cls.__name__ == "PorterStemmer"
        and getattr(stemmer, "mode", None) == "NLTK_EXTENSIONS"
    )


def _tokenize(text: str, stemmer: Any) -> list[str]:
    """Tokenize ``text`` (see :func:`tokenize`)."""
    if stemmer is None or _is_core_porter(stemmer):
        return _engine_tokenize([text], use_stemmer=stemmer is not None)[0]
    # Another stemmer: rouge-score's steps in Python, calling it.
    text = NON_ALPHANUM_RE.sub(" ", text.lower())
    tokens = SPACES_RE.split(text)
    tokens = [str(stemmer.stem(x)) if len(x) > 3 else x for x in tokens]
    return [x for x in tokens if VALID_TOKEN_RE.match(x)]


def tokenize(text: str, stemmer: Any) -> list[str]:
    """Tokenize input text into a list of tokens, as rouge-score does.

    Parameters
    ----------
    text : str
        A text blob to tokenize.
    stemmer : object or None
        A stemmer with a ``stem(word)`` method (rouge-score passes NLTK's ``PorterStemmer()``),
        or ``None``.

    Returns
    -------
    list of str
        The tokens.
    """
    return _tokenize(text, stemmer)
