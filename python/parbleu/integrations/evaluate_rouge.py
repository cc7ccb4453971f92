"""The hub's ``rouge`` evaluate module on parbleu's ROUGE engine (rouge-score 0.1.2's numbers).

``compute(predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False,
tokenizer=None)`` returns what the hub module returns:

* ``use_aggregator=True``: ``{type: BootstrapAggregator().aggregate()[type].mid.fmeasure}``:
  1000 bootstrap samples drawn from numpy's global RNG exactly as rouge-score draws them, so
  after ``np.random.seed(s)`` the values are bit-equal to the hub module's after the same seed
  (and, as there, they vary from call to call without a seed);
* ``use_aggregator=False``: ``{type: [fmeasure of each prediction]}``.

``references[i]`` is a string or a list of strings (rouge-score's ``score_multi``: per type the
reference with the best F-measure). ``tokenizer`` is a callable ``text -> tokens`` as the hub
module takes it: rouge-score then ignores ``use_stemmer``, and so does this module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import EmptyInputError, InputTypeError, LengthMismatchError

__all__ = ["rouge_compute"]

#: The hub module's default rouge types.
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _references(references: Sequence[Any], n: int) -> list[list[str]]:
    if isinstance(references, str):
        raise InputTypeError("rouge: references is a string; expected a list (one per prediction)")
    refs = [[r] if isinstance(r, str) else list(r) for r in references]
    if len(refs) != n:
        raise LengthMismatchError(
            f"rouge: {n} predictions but {len(refs)} references; nothing is truncated"
        )
    for i, r in enumerate(refs):
        if not r:
            raise EmptyInputError(f"rouge: references[{i}] is empty; expected at least one")
    return refs


class _Ids:
    """Tokens of a user's tokenizer as whitespace-free ids: equal tokens, equal ids."""

    def __init__(self, tokenize: Callable[[str], Sequence[str]]) -> None:
        self.tokenize = tokenize
        self.ids: dict[str, str] = {}

    def words(self, text: str) -> str:
        toks = self.tokenize(text)
        if isinstance(toks, str) or not all(isinstance(t, str) for t in toks):
            raise InputTypeError(
                f"rouge: tokenizer({text[:30]!r}) returned {type(toks).__name__}; expected a "
                "list of strings"
            )
        return " ".join(self.ids.setdefault(t, f"w{len(self.ids)}") for t in toks)

    def sentences(self, text: str) -> str:
        # rougeLsum tokenizes each newline-separated sentence on its own (as rouge-score).
        return "\n".join(self.words(s) for s in text.split("\n") if len(s))


def _batch(
    predictions: list[str],
    refs: list[list[str]],
    types: tuple[str, ...],
    use_stemmer: bool,
    tokenizer: Callable[[str], Sequence[str]] | None,
) -> dict[str, Any]:
    """Per type, the ``(pairs, 3)`` precision/recall/F-measure matrix from the engine.

    A user's tokenizer runs here; its tokens reach the engine as ids it splits on spaces.
    """
    from ..metrics import rouge_engine as engine

    if tokenizer is None:
        batch = engine.score_batch(predictions, refs, types, use_stemmer=use_stemmer)
        return {t: batch.scores[:, k, :] for k, t in enumerate(types)}

    ids = _Ids(tokenizer)
    parts = []
    for group, mapper in (
        ([t for t in types if t != "rougeLsum"], ids.words),
        ([t for t in types if t == "rougeLsum"], ids.sentences),
    ):
        if group:
            parts.append(
                engine.score_batch(
                    [mapper(p) for p in predictions],
                    [[mapper(r) for r in rs] for rs in refs],
                    group,
                    tokenizer="none",
                )
            )
    return {t: p.scores[:, k, :] for p in parts for k, t in enumerate(p.rouge_types)}


def rouge_compute(
    predictions: Sequence[str],
    references: Sequence[Any],
    rouge_types: Sequence[str] | None = None,
    use_aggregator: bool = True,
    use_stemmer: bool = False,
    tokenizer: Callable[[str], Sequence[str]] | None = None,
) -> dict[str, Any]:
    """Score as the hub's ``rouge`` module's ``compute``.

    Parameters
    ----------
    predictions
        One summary per pair.
    references
        Per prediction, a reference string or a list of them.
    rouge_types
        rouge-score's types (default ``rouge1``, ``rouge2``, ``rougeL``, ``rougeLsum``).
    use_aggregator
        Bootstrap mid F-measures (numpy's global RNG) instead of per-prediction lists.
    use_stemmer
        Porter stemming (ignored with ``tokenizer``, as rouge-score ignores it).
    tokenizer
        A callable ``text -> list of tokens``, or ``None`` for rouge-score's tokenizer.

    Returns
    -------
    dict
        ``{rouge_type: float}`` or ``{rouge_type: [float, ...]}``.
    """
    import numpy as np

    from ..metrics import rouge_engine as engine

    types = engine.check_rouge_types(DEFAULT_TYPES if rouge_types is None else rouge_types)
    if isinstance(predictions, str):
        raise InputTypeError("rouge: predictions is a string; expected a list of strings")
    preds = list(predictions)
    if not preds:
        raise EmptyInputError("rouge: predictions is empty; expected at least one")
    refs = _references(references, len(preds))
    per_type = _batch(preds, refs, types, bool(use_stemmer), tokenizer)
    keys = list(dict.fromkeys(types))  # rouge-score's dicts hold a repeated type once
    if not use_aggregator:
        return {t: per_type[t][:, 2].tolist() for t in keys}
    out: dict[str, Any] = {}
    for t in keys:  # one type after the other, as BootstrapAggregator draws
        bounds = engine.bootstrap_compat(np.ascontiguousarray(per_type[t]))
        out[t] = float(bounds[1, 2])
    return out
