"""Input checks of the metric API's multi-system and one-sentence entry points.

Each bad input is one error naming the argument (``systems[2]``, ``references``); what the
core refuses (a non-string, an unencodable string) is traced back to the first culprit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._inputs import as_lines, check_items, diagnose_unencodable
from .._text import plural
from ..errors import EmptyInputError, InputTypeError, LengthMismatchError

__all__ = ["check_sentence_input", "check_systems", "diagnose_systems"]


def check_systems(
    systems: Sequence[Sequence[str]] | Mapping[Any, Sequence[str]],
) -> tuple[list[list[str]], list[str]]:
    """Return each system's lines and the label that names it in messages.

    Parameters
    ----------
    systems
        A sequence of systems, or a mapping from system names to systems; each system one
        string per segment, all of the same length.

    Returns
    -------
    tuple
        ``(hypotheses per system, labels)``: labels are ``systems[0]`` or ``systems['name']``.
    """
    if isinstance(systems, Mapping):
        labels = [f"systems[{k!r}]" for k in systems]
        values = list(systems.values())
    elif isinstance(systems, (str, bytes)) or not isinstance(systems, Iterable):
        raise InputTypeError(
            f"systems: got a {type(systems).__name__}; expected a sequence of systems, "
            "each a list of hypotheses (one string per segment)"
        )
    else:
        values = list(systems)
        labels = [f"systems[{i}]" for i in range(len(values))]
    if not values:
        raise EmptyInputError("systems: empty; expected at least one system")
    hyps = [as_lines(v, label) for v, label in zip(values, labels)]
    for h, label in zip(hyps, labels):
        if not h:
            raise EmptyInputError(f"{label}: empty; expected at least one segment")
        if len(h) != len(hyps[0]):
            raise LengthMismatchError(
                f"{label}: {plural(len(h), 'hypothesis', 'hypotheses')} but {labels[0]} has "
                f"{len(hyps[0])}; "
                "every system needs one per segment, nothing is truncated"
            )
    return hyps, labels


def diagnose_systems(
    hyps: list[list[str]], labels: list[str], error: TypeError | UnicodeEncodeError
) -> Exception:
    """Return the clear error for what the core refused in some system's lines.

    Parameters
    ----------
    hyps, labels
        What :func:`check_systems` returned.
    error
        The core's error.

    Returns
    -------
    Exception
        An error naming the first system (and line) at fault, or ``error`` itself.
    """
    for h, label in zip(hyps, labels):
        if isinstance(error, TypeError):
            try:
                check_items(h, label)
            except InputTypeError as found:
                return found
            continue
        try:
            "".join(h).encode("utf-8")
        except UnicodeEncodeError:
            return diagnose_unencodable([h], label)
    return error


def check_sentence_input(name: str, hypothesis: Any, references: Any) -> list[Any]:
    """Check ``sentence_score``'s arguments and return the references as a list.

    Parameters
    ----------
    name
        The metric class's name, for the message.
    hypothesis
        It must be a string.
    references
        A non-empty sequence of reference strings (``None`` entries allowed).

    Returns
    -------
    list
        The references.
    """
    if not isinstance(hypothesis, str):
        raise InputTypeError(
            f"{name}.sentence_score: hypothesis is a {type(hypothesis).__name__}; expected a string"
        )
    if isinstance(references, (str, bytes)):
        raise InputTypeError(
            f"{name}.sentence_score: references is a single string ({references[:40]!r}); "
            "expected a sequence of reference strings, e.g. [reference]"
        )
    if references is None or not isinstance(references, Iterable):
        raise InputTypeError(
            f"{name}.sentence_score: references is a {type(references).__name__}; "
            "expected a sequence of reference strings, e.g. [reference]"
        )
    refs = list(references)
    if not refs:
        raise InputTypeError(
            f"{name}.sentence_score: references is empty; expected at least one string"
        )
    return refs
