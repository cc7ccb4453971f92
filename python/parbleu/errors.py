"""Exceptions raised by parbleu.

Every exception derives from :class:`ParbleuError` and from the standard exception a caller
would expect (``ValueError``, ``TypeError``, ``ImportError``), so ``except ValueError`` code
written for SacreBLEU keeps working.
"""

from __future__ import annotations

__all__ = [
    "DatasetError",
    "DownloadError",
    "EmptyInputError",
    "FlavorError",
    "IncompatibleStatisticsError",
    "InputTypeError",
    "InvalidOptionError",
    "InvalidTextError",
    "LengthMismatchError",
    "MissingDependencyError",
    "ParbleuError",
    "StatisticsError",
    "TokenizerNotAvailableError",
    "TransposedReferencesError",
]


class ParbleuError(Exception):
    """Base class of every error parbleu raises on purpose."""


class InputTypeError(ParbleuError, TypeError):
    """An argument has the wrong type (a ``str`` where a list of strings is expected, ...)."""


class LengthMismatchError(ParbleuError, ValueError):
    """Parallel inputs (hypotheses, reference streams, files) differ in length."""


class TransposedReferencesError(ParbleuError, ValueError):
    """References look like one list per segment instead of one list per reference stream."""


class InvalidOptionError(ParbleuError, ValueError):
    """An option has a value outside its domain."""


class StatisticsError(ParbleuError, ValueError):
    """Statistics have the wrong shape or type for the metric."""


class IncompatibleStatisticsError(StatisticsError):
    """Statistics extracted with different options cannot be merged."""


class TokenizerNotAvailableError(ParbleuError, ImportError):
    """A tokenizer needs an optional dependency that is not installed."""


class MissingDependencyError(ParbleuError, ImportError):
    """A feature needs an optional extra that is not installed (``pip install 'parbleu[dask]'``)."""


class EmptyInputError(ParbleuError, ValueError):
    """There is nothing to score (no segments)."""


class FlavorError(ParbleuError, ValueError):
    """A flavor (``parbleu.flavors``) met input on which the original implementation crashes.

    The original's own exception type is kept as a further base class where it is not a
    ``ValueError`` (NLTK's ``ZeroDivisionError`` for an empty corpus, tensorflow/nmt's
    ``ZeroDivisionError`` for an empty translation, Moses' "Illegal division by zero", ...),
    so code written against the original keeps catching it.

    Parameters
    ----------
    flavor
        The flavor's name (``"nltk"``, ``"multi-bleu"``, ``"mteval-v13a"``, ...).
    reason
        What the input was and what the original does with it.
    """

    def __init__(self, flavor: str, reason: str) -> None:
        super().__init__(f"{flavor}: {reason}")
        self.flavor = flavor
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.flavor}: {self.reason}"


class InvalidTextError(ParbleuError, ValueError):
    """A string cannot be processed as text (a lone surrogate cannot be encoded as UTF-8)."""


class DatasetError(ParbleuError, ValueError):
    """A test set, language pair or field is unknown, or a test-set file cannot be read."""


class DownloadError(ParbleuError, OSError):
    """A file could not be downloaded, verified or unpacked into the cache.

    The message names the URL and the exact cache path where the file can be placed by hand.
    """


# Built here, beside FlavorError, so that every package (the caption engines under metrics/,
# the flavors) raises the same classes.
_FLAVOR_ERROR_CLASSES: dict[type[BaseException], type[FlavorError]] = {}


def _error_class(original: type[BaseException]) -> type[FlavorError]:
    if issubclass(FlavorError, original):
        return FlavorError
    cls = _FLAVOR_ERROR_CLASSES.get(original)
    if cls is None:
        name = f"FlavorError_{original.__name__}"
        cls = type(name, (FlavorError, original), {"__module__": "parbleu.errors"})
        _FLAVOR_ERROR_CLASSES[original] = cls
    return cls


def flavor_error(
    flavor: str, reason: str, original: type[BaseException] | None = None
) -> FlavorError:
    """Build a :class:`~parbleu.errors.FlavorError` that is also an instance of ``original``.

    Parameters
    ----------
    flavor
        Name of the flavor.
    reason
        What happened, in words.
    original
        The exception type the original implementation raises there (``ZeroDivisionError``,
        ``AssertionError``, ``KeyError``, ...), so that ``except`` clauses written for the
        original keep working.
    """
    cls = FlavorError if original is None else _error_class(original)
    return cls(flavor, reason)
