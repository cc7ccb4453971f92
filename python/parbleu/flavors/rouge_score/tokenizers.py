"""rouge-score 0.1.2's ``tokenizers`` module: ``Tokenizer`` and ``DefaultTokenizer``."""

from __future__ import annotations

import abc

from . import tokenize
from .tokenize import PorterStemmer

__all__ = ["DefaultTokenizer", "PorterStemmer", "Tokenizer"]


class Tokenizer(abc.ABC):
    """Abstract base class for a tokenizer: subclasses implement ``tokenize``."""

    @abc.abstractmethod
    def tokenize(self, text: str) -> list[str]:
        """Return the tokens of ``text``.

        Parameters
        ----------
        text : str
            The text.

        Returns
        -------
        list of str
            Its tokens.
        """
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge-score's default tokenizer (see :mod:`.tokenize`), in the core.

    Parameters
    ----------
    use_stemmer : bool, default False
        Stem tokens longer than 3 characters with NLTK's Porter stemmer.
    """

    def __init__(self, use_stemmer: bool = False) -> None:
        self._stemmer = PorterStemmer() if use_stemmer else None

    @property
    def use_stemmer(self) -> bool:
        """Whether tokens are stemmed."""
        return self._stemmer is not None

    def tokenize(self, text: str) -> list[str]:
        """Return the tokens of ``text`` as rouge-score's ``DefaultTokenizer`` gives them."""
        return tokenize.tokenize(text, self._stemmer)
