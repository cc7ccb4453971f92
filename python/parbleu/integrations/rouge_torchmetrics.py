"""``torchmetrics.text.ROUGEScore`` with integer states, on parbleu's ROUGE engine.

Switching is a change of import::

    # from torchmetrics.text import ROUGEScore
    from parbleu.integrations.torchmetrics import ROUGEScore

Same constructor, ``update(preds, target)`` inputs and ``compute()`` keys (``rouge1_fmeasure``,
``rouge1_precision``, ``rouge1_recall``, ...). ROUGE of a set is a mean of per-prediction
ratios, so the states are the ratios' integer numerators and denominators per (prediction,
reference) pair (``"cat"`` states, int64) instead of torchmetrics' float32 per-prediction
scores; ``compute`` forms torchmetrics' float32 ratios from them
(:mod:`parbleu.integrations.rouge_counts`) and takes the means with torch, as torchmetrics.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

# Imported through parbleu.integrations.torchmetrics, which says what to install without torch.
import torch
from torchmetrics import Metric

from ..errors import InvalidOptionError
from . import rouge_counts as rc

__all__ = ["ROUGEScore"]


class ROUGEScore(Metric):  # type: ignore[misc]
    """``torchmetrics.text.ROUGEScore``: rouge-score's counts, torchmetrics' float32 means.

    Parameters
    ----------
    use_stemmer
        NLTK's Porter stemmer on tokens longer than 3 characters.
    normalizer, tokenizer
        torchmetrics' custom text callables: not supported (``None`` only); for your own
        tokens use ``parbleu.ROUGE(tokenize="none")`` on pre-tokenized text.
    accumulate
        ``"best"`` (the reference with the highest F-measure of the first key) or ``"avg"``.
    rouge_keys
        ``rouge1`` .. ``rouge9``, ``rougeL``, ``rougeLsum`` (sentences from
        ``nltk.sent_tokenize``, as torchmetrics: needs NLTK's punkt data).
    **kwargs
        Passed on to ``torchmetrics.Metric`` (``sync_on_compute``, ``dist_sync_on_step``...).
    """

    # torchmetrics' class facts: direction, plot bounds, no gradient, no full-state update.
    higher_is_better = True
    plot_lower_bound, plot_upper_bound = 0.0, 1.0
    is_differentiable = full_state_update = False

    def __init__(
        self,
        use_stemmer: bool = False,
        normalizer: Callable[[str], str] | None = None,
        tokenizer: Callable[[str], Sequence[str]] | None = None,
        accumulate: str = "best",
        rouge_keys: str | tuple[str, ...] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if normalizer is not None or tokenizer is not None:
            raise InvalidOptionError(
                "normalizer/tokenizer: custom callables are not supported by parbleu's "
                "ROUGEScore; use parbleu.ROUGE(tokenize='none') on pre-tokenized text"
            )
        if accumulate not in rc.ACCUMULATE:
            raise InvalidOptionError(
                f"accumulate={accumulate!r}: expected 'avg' or 'best' (torchmetrics raises "
                "ValueError)"
            )
        self.rouge_keys = rc.check_keys(rouge_keys)
        self.use_stemmer = bool(use_stemmer)
        self.accumulate = accumulate
        self.normalizer = normalizer
        self.tokenizer = tokenizer
        self.add_state("counts", [], dist_reduce_fx="cat")
        self.add_state("n_refs", [], dist_reduce_fx="cat")

    def update(self, preds: Any, target: Any) -> None:
        """Add a batch: ``preds`` (strings) and ``target`` (references per prediction)."""
        preds_, target_ = rc.inputs(preds, target)
        if not preds_:
            return
        counts, n_refs = rc.pair_counts(preds_, target_, self.rouge_keys, self.use_stemmer)
        self.counts.append(torch.from_numpy(counts))
        self.n_refs.append(torch.from_numpy(n_refs))

    @staticmethod
    def _cat(state: Any, width: tuple[int, ...]) -> np.ndarray[Any, Any]:
        if not isinstance(state, torch.Tensor):  # after a DDP sync, "cat" states are one tensor
            if not state:
                return np.zeros((0, *width), dtype=np.int64)
            state = torch.cat(list(state))
        return np.asarray(state.detach().cpu().numpy(), dtype=np.int64)

    def compute(self) -> dict[str, Any]:
        """Return ``{rouge1_fmeasure: ..., ...}``: float32 means over the predictions."""
        keys = list(dict.fromkeys(self.rouge_keys))
        counts = self._cat(self.counts, (len(self.rouge_keys), 3))
        n_refs = self._cat(self.n_refs, ())
        values = torch.from_numpy(rc.pair_values(counts))  # (pairs, keys, 3) float32
        if self.accumulate == "best":
            per_pred = values[rc.choose_best(values.numpy(), n_refs)]
        else:
            groups = torch.split(values, [int(n) for n in n_refs.tolist()])
            # torchmetrics: torch.tensor([...]).mean() over each prediction's references.
            per_pred = torch.stack([g.mean(dim=0) for g in groups]) if groups else values
        out: dict[str, Any] = {}
        for key in keys:
            k = self.rouge_keys.index(key)
            for j, field in enumerate(rc.FIELDS):
                out[f"{key}_{field}"] = per_pred[:, k, j].contiguous().mean()
        return out
