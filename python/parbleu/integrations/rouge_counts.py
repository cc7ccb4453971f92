"""torchmetrics' ``ROUGEScore`` arithmetic on integer counts, without torch.

torchmetrics (``torchmetrics.functional.text.rouge``) scores each (prediction, reference) pair
from three integers per rouge key: matches (n-gram hits, LCS length or summary-level union-LCS
hits), prediction length and reference length, as rouge-score counts them, with rougeLsum's
sentences from ``nltk.sent_tokenize`` (rouge-score's ``split_summaries=True``). It then keeps
float32 precision/recall/F-measure per pair, picks one reference per prediction (``"best"``:
the highest float32 F-measure of the first key, the first of equal ones; every key then uses
that reference) or averages them (``"avg"``), and returns the mean over predictions.

This module holds the counts and the per-pair float32 values; the torch class
(:mod:`parbleu.integrations.rouge_torchmetrics`) keeps the counts as int64 states and takes the
means with torch, as torchmetrics does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import InputTypeError, InvalidOptionError, LengthMismatchError

__all__ = ["ACCUMULATE", "check_keys", "inputs", "pair_counts", "pair_values", "result_keys"]

#: torchmetrics' ``accumulate`` values.
ACCUMULATE = ("avg", "best")
#: The fields of each key, in the order torchmetrics' ``compute`` returns them.
FIELDS = ("fmeasure", "precision", "recall")


def check_keys(rouge_keys: str | Sequence[str]) -> tuple[str, ...]:
    """Return torchmetrics' ``rouge_keys`` as a tuple (a string is one key), or raise.

    Raises
    ------
    InvalidOptionError
        An unknown key (torchmetrics raises ``ValueError``), or none.
    """
    from ..metrics.rouge_engine import ROUGE_TYPES

    keys = (rouge_keys,) if isinstance(rouge_keys, str) else tuple(rouge_keys)
    for key in keys:
        if key not in ROUGE_TYPES:
            raise InvalidOptionError(
                f"rouge_keys: unknown rouge key {key!r}; expected one of {', '.join(ROUGE_TYPES)}"
            )
    if not keys:
        raise InvalidOptionError("rouge_keys: empty; expected at least one rouge key")
    return keys


def result_keys(keys: Sequence[str]) -> list[str]:
    """Output names in torchmetrics' order: ``rouge1_fmeasure``, ``rouge1_precision``, ..."""
    return [f"{k}_{f}" for k in dict.fromkeys(keys) for f in FIELDS]


def inputs(preds: Any, target: Any) -> tuple[list[str], list[list[str]]]:
    """Normalise ``update``'s inputs as torchmetrics does, and check the counts.

    A string prediction is one sample (a list of string targets is then its references); a
    list of string targets with a list of predictions is one reference each.

    Raises
    ------
    LengthMismatchError
        Different numbers of predictions and targets (torchmetrics' ``zip`` would drop some).
    InputTypeError
        A prediction or reference that is not a string, or a prediction without reference.
    """
    if isinstance(target, list) and all(isinstance(t, str) for t in target):
        target = [target] if isinstance(preds, str) else [[t] for t in target]
    if isinstance(preds, str):
        preds = [preds]
    if isinstance(target, str):
        target = [[target]]
    preds_ = list(preds)
    target_ = [[t] if isinstance(t, str) else list(t) for t in target]
    if len(preds_) != len(target_):
        raise LengthMismatchError(
            f"preds has {len(preds_)} predictions but target has {len(target_)}; nothing is "
            "truncated"
        )
    for i, (p, refs) in enumerate(zip(preds_, target_)):
        if not isinstance(p, str):
            raise InputTypeError(f"preds[{i}]: a {type(p).__name__}; expected a string")
        if not refs:
            raise InputTypeError(f"target[{i}]: no reference; every prediction needs one")
        for j, r in enumerate(refs):
            if not isinstance(r, str):
                raise InputTypeError(f"target[{i}][{j}]: a {type(r).__name__}; expected a string")
    return preds_, target_


def pair_counts(
    preds: list[str], target: list[list[str]], keys: Sequence[str], use_stemmer: bool
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Integer counts of every (prediction, reference) pair, and references per prediction.

    Returns
    -------
    tuple
        ``(counts, n_refs)``: ``counts`` is int64 ``(pairs, len(keys), 3)`` (matches,
        prediction length, reference length), pairs in order (prediction 0's references,
        then prediction 1's, ...); ``n_refs`` is int64 ``(predictions,)``.
    """
    from ..metrics import rouge_engine as engine

    flat_p = [p for p, refs in zip(preds, target) for _ in refs]
    flat_r = [[r] for refs in target for r in refs]
    n_refs = np.array([len(r) for r in target], dtype=np.int64)
    if not flat_p:
        return np.zeros((0, len(keys), 3), dtype=np.int64), n_refs
    batch = engine.score_batch(
        flat_p,
        flat_r,
        keys,
        use_stemmer=use_stemmer,
        # torchmetrics splits rougeLsum's sentences with nltk.sent_tokenize.
        split_summaries="rougeLsum" in keys,
    )
    return np.ascontiguousarray(batch.stats, dtype=np.int64), n_refs


def pair_values(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    """Return torchmetrics' float32 precision/recall/F-measure of each pair from its counts.

    ``precision = hits / pred_len`` and ``recall = hits / target_len`` in float64, 0 when a
    length is 0 or both are 0, ``fmeasure = 2 * precision * recall / (precision + recall)``,
    then each rounded to float32 (``torch.tensor(python_float)``).

    Parameters
    ----------
    counts
        ``(..., 3)`` int64: matches, prediction length, reference length.

    Returns
    -------
    numpy.ndarray
        float32 ``(..., 3)`` in torchmetrics' field order: fmeasure, precision, recall.
    """
    c = np.asarray(counts, dtype=np.int64)
    hits, plen, tlen = (c[..., i].astype(np.float64) for i in range(3))
    ok = (plen > 0) & (tlen > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(ok, hits / np.where(ok, plen, 1), 0.0)
        r = np.where(ok, hits / np.where(ok, tlen, 1), 0.0)
        f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
    return np.stack([f, p, r], axis=-1).astype(np.float32)


def choose_best(values: npt.NDArray[np.float32], n_refs: npt.NDArray[np.int64]) -> list[int]:
    """Index (into the pairs) of each prediction's reference under ``accumulate="best"``.

    The reference with the highest float32 F-measure of the first key, the first of equal
    ones (``torch.argmax``).
    """
    out = []
    start = 0
    for n in n_refs.tolist():
        out.append(start + int(np.argmax(values[start : start + n, 0, 0])))
        start += n
    return out
