"""The hub's ``meteor`` evaluate module on parbleu's NLTK ``meteor_score`` (NLTK 3.10.4's numbers).

``compute(predictions, references, alpha=0.9, beta=3, gamma=0.5)`` returns what the hub module
returns: ``{"meteor": numpy.mean(scores)}``, each score NLTK's ``meteor_score`` of
``word_tokenize``'d texts (``single_meteor_score`` when ``references[0]`` is a string).

Tokens: the hub module uses NLTK's ``word_tokenize``, which needs NLTK and its ``punkt_tab``
data (a download). With both installed this module uses the same function, so the numbers are
the hub module's. ``tokenizer`` (parbleu's addition) takes a callable ``text -> tokens``
instead (``str.split`` works offline and without NLTK); without NLTK's punkt_tab and without
``tokenizer`` there is one clear error. WordNet needs no download (see
:mod:`parbleu.flavors.nltk.meteor_score`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import EmptyInputError, InputTypeError, LengthMismatchError, MissingDependencyError

__all__ = ["meteor_compute"]


def _word_tokenize() -> Callable[[str], list[str]]:
    import importlib

    try:
        # Untyped and optional: imported by name, so mypy's result does not depend on it.
        nltk: Any = importlib.import_module("nltk")
        word_tokenize, find = nltk.word_tokenize, nltk.data.find
    except ImportError:
        raise MissingDependencyError(
            "meteor: the hub module tokenizes with NLTK's word_tokenize; install nltk (and its "
            "punkt_tab data), or pass tokenizer=str.split (or another callable)"
        ) from None
    try:
        find("tokenizers/punkt_tab/english/")
    except LookupError:
        raise MissingDependencyError(
            "meteor: NLTK's word_tokenize needs its punkt_tab data, which is not installed "
            "(nltk.download('punkt_tab') needs the network); or pass tokenizer=str.split"
        ) from None
    return word_tokenize  # type: ignore[no-any-return]


def _tokens(tok: Callable[[str], Any], text: Any, what: str) -> list[str]:
    if not isinstance(text, str):
        raise InputTypeError(f"meteor: {what} is a {type(text).__name__}; expected a string")
    out = tok(text)
    if isinstance(out, str) or not all(isinstance(t, str) for t in out):
        raise InputTypeError(
            f"meteor: tokenizer({text[:30]!r}) returned {type(out).__name__}; expected a list "
            "of strings"
        )
    return list(out)


def meteor_compute(
    predictions: Sequence[str],
    references: Sequence[Any],
    alpha: float = 0.9,
    beta: float = 3,
    gamma: float = 0.5,
    tokenizer: Callable[[str], Sequence[str]] | None = None,
) -> dict[str, Any]:
    """Score as the hub ``meteor`` module's ``compute``: ``{"meteor": mean of NLTK's scores}``.

    Parameters
    ----------
    predictions
        One string per segment.
    references
        Per prediction a string, or a list of strings (NLTK's best over them); the hub module
        decides by ``references[0]``.
    alpha, beta, gamma
        NLTK's parameters.
    tokenizer
        ``None``: NLTK's ``word_tokenize`` (as the hub module; needs punkt_tab); or a callable.

    Returns
    -------
    dict
        ``{"meteor": numpy.float64}``.
    """
    import numpy as np

    from ..flavors.nltk.meteor_score import meteor_scores

    if isinstance(references, str):
        raise InputTypeError("meteor: references is a string; expected a list")
    if len(predictions) != len(references):
        raise LengthMismatchError(
            f"meteor: {len(predictions)} predictions but {len(references)} references"
        )
    if not predictions:
        raise EmptyInputError("meteor: no predictions (the hub module fails on references[0])")
    tok = tokenizer if tokenizer is not None else _word_tokenize()
    multiple = isinstance(references[0], list)
    refs = [
        [_tokens(tok, r, f"references[{i}]") for r in (rs if multiple else [rs])]
        for i, rs in enumerate(references)
    ]
    hyps = [_tokens(tok, p, f"predictions[{i}]") for i, p in enumerate(predictions)]
    scores = meteor_scores(refs, hyps, alpha=alpha, beta=beta, gamma=gamma)
    return {"meteor": np.mean(scores)}
