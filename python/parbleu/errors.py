"""Exceptions raised by parbleu.

Every exception derives from :class:`ParbleuError` and from the standard exception a caller
would expect (``ValueError``, ``TypeError``, ``ImportError``), so ``except ValueError`` code
written for SacreBLEU keeps working.
"""

from __future__ import annotations

__all__ = [
    "EmptyInputError",
    "IncompatibleStatisticsError",
    "InputTypeError",
    "InvalidOptionError",
    "LengthMismatchError",
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


class EmptyInputError(ParbleuError, ValueError):
    """There is nothing to score (no segments)."""
