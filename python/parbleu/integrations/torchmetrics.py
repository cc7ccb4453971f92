"""torchmetrics metrics whose states are parbleu's integer statistics.

Switching is a change of import::

    # from torchmetrics.text import SacreBLEUScore, CHRFScore, TranslationEditRate
    from parbleu.integrations.torchmetrics import SacreBLEUScore, CHRFScore, TranslationEditRate

The classes are real ``torchmetrics.Metric`` subclasses with torchmetrics' constructor
arguments and its ``update``/``compute``/``reset``/``forward`` behaviour (inputs are
torchmetrics': ``target[i]`` holds the references of ``preds[i]``). Their states are the
sufficient statistics as int64 tensors with ``dist_reduce_fx="sum"``, so DDP synchronisation and
``merge_state`` add integers and every number of ranks gives the one-process result.

What each returns (see ``docs/integrations-torchmetrics.md``):

* :class:`SacreBLEUScore`, :class:`CHRFScore`, :class:`TranslationEditRate` (alias
  :class:`TERScore`): SacreBLEU's own numbers (``corpus_score(...).score / 100``) as float64
  tensors. torchmetrics' differ: float32 statistics, its closest reference length keeps the
  first of two equally close references, ``lowercase`` is applied after tokenizing, and its
  chrF averages the per-order statistics differently.
* :class:`BLEUScore`: torchmetrics' own definition (whitespace tokens, ``smooth`` adds one for
  orders 2 and up, ties to the first reference) with torchmetrics' float32 arithmetic on the
  exact counts: equal to ``torchmetrics.text.BLEUScore`` (``parbleu.flavors.torchmetrics``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import zip_longest
from typing import Any

import numpy as np

try:
    import torch
    from torchmetrics import Metric
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "parbleu.integrations.torchmetrics needs torch and torchmetrics: "
        "pip install 'parbleu[torch]'"
    ) from exc

from ..errors import InputTypeError, InvalidOptionError, LengthMismatchError
from ..flavors import torchmetrics as _tm_flavor
from ..metrics import BLEU, CHRF, TER
from ..metrics.base import Metric as _ParbleuMetric
from .rouge_torchmetrics import ROUGEScore

__all__ = [
    "BLEUScore",
    "CHRFScore",
    "ROUGEScore",
    "SacreBLEUScore",
    "TERScore",
    "TranslationEditRate",
]


def _inputs(preds: Any, target: Any) -> tuple[list[str], list[list[str]]]:
    """Normalise inputs as torchmetrics does: a bare string is one segment or reference."""
    preds_ = [preds] if isinstance(preds, str) else list(preds)
    target_ = [[t] if isinstance(t, str) else list(t) for t in target]
    if len(preds_) != len(target_):
        raise LengthMismatchError(
            f"preds has {len(preds_)} segments but target has {len(target_)} (torchmetrics "
            "raises ValueError: Corpus has different size); nothing is truncated"
        )
    if not all(target_):
        i = next(i for i, t in enumerate(target_) if not t)
        raise InputTypeError(f"target[{i}]: no reference; every prediction needs one")
    return preds_, target_


def _check_weight_count(weights: Sequence[float] | None, n_gram: int) -> None:
    if weights is not None and len(weights) != n_gram:
        raise InvalidOptionError(
            f"weights: {len(weights)} weights for n_gram={n_gram} (torchmetrics raises "
            "ValueError: List of weights has different weights than `n_gram`)"
        )


def _streams(target: list[list[str]]) -> list[list[str | None]]:
    """Per-segment references to SacreBLEU's streams (``None`` where a segment has fewer)."""
    # zip_longest transposes in C (the per-item loop was a fifth of a 50-segment update).
    return [list(s) for s in zip_longest(*target)]


class _StatsMetric(Metric):  # type: ignore[misc]
    """A torchmetrics ``Metric`` over a parbleu metric's summed statistics row."""

    is_differentiable = False
    full_state_update = False
    _scorer: _ParbleuMetric[Any]
    _stats_dtype: Any = np.int64

    def _init_stats(self, scorer: _ParbleuMetric[Any], sentence_level: bool = False) -> None:
        self._scorer = scorer
        torch_dtype = torch.int64 if self._stats_dtype == np.int64 else torch.float64
        self.add_state(
            "stats", torch.zeros(scorer.stats_width, dtype=torch_dtype), dist_reduce_fx="sum"
        )
        self.return_sentence_level_score = sentence_level
        if sentence_level:
            self.add_state("sentence_scores", [], dist_reduce_fx="cat")

    def update(self, preds: Any, target: Any) -> None:
        """Add a batch: ``preds`` (strings) and ``target`` (references per prediction)."""
        preds_, target_ = _inputs(preds, target)
        if not preds_:
            return
        rows = self._scorer.extract_stats(preds_, _streams(target_))
        total = rows.sum(axis=0).astype(self._stats_dtype)
        self.stats += torch.from_numpy(total).to(self.stats.device)
        if self.return_sentence_level_score:
            scores = self._scorer._score_rows(rows, 1) / 100.0
            self.sentence_scores.append(torch.from_numpy(scores).to(self.stats.device))

    def _corpus(self) -> Any:
        row = self.stats.detach().cpu().numpy()
        return torch.tensor(self._scorer.score_from_stats(row).score / 100.0, dtype=torch.float64)

    def compute(self) -> Any:
        """Score of everything added (float64 tensor, 0-1), with sentence scores if asked."""
        score = self._corpus()
        if not self.return_sentence_level_score:
            return score
        parts = self.sentence_scores
        if isinstance(parts, torch.Tensor):  # after a DDP sync, "cat" states are one tensor
            sentences = parts
        elif parts:
            sentences = torch.cat(parts)
        else:
            sentences = torch.zeros(0, dtype=torch.float64)
        return score, sentences


class SacreBLEUScore(_StatsMetric):
    """``torchmetrics.text.SacreBLEUScore`` returning SacreBLEU's exact corpus BLEU.

    Parameters
    ----------
    n_gram
        Highest n-gram order (SacreBLEU's ``max_ngram_order``).
    smooth
        torchmetrics' smoothing: add one to matches and totals of orders 2 and up (SacreBLEU's
        ``smooth_method="add-k"``, ``smooth_value=1``); ``False`` is ``smooth_method="none"``.
    tokenize
        A SacreBLEU tokenizer name.
    lowercase
        Lower-case before tokenizing (as SacreBLEU).
    weights
        Uniform only (SacreBLEU's definition); other weights raise
        :class:`~parbleu.errors.InvalidOptionError` (``parbleu.flavors.torchmetrics`` has them).
    **kwargs
        torchmetrics ``Metric`` options (``dist_sync_on_step``, ``sync_on_compute``, ...).
    """

    higher_is_better = True
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        tokenize: str = "13a",
        lowercase: bool = False,
        weights: Sequence[float] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        _check_weight_count(weights, n_gram)
        if weights is not None and any(abs(w - 1.0 / n_gram) > 1e-12 for w in weights):
            raise InvalidOptionError(
                f"weights={list(weights)!r}: SacreBLEU's BLEU has uniform weights; use "
                "parbleu.flavors.torchmetrics.SacreBLEUScore for torchmetrics' weighted "
                "float32 score"
            )
        self.n_gram = n_gram
        self.smooth = smooth
        self.tokenize = tokenize
        self.lowercase = lowercase
        scorer = BLEU(
            lowercase=lowercase,
            tokenize=tokenize,
            smooth_method="add-k" if smooth else "none",
            smooth_value=1 if smooth else None,
            max_ngram_order=n_gram,
        )
        self._init_stats(scorer)


class CHRFScore(_StatsMetric):
    """``torchmetrics.text.CHRFScore`` returning SacreBLEU's exact chrF.

    Parameters
    ----------
    n_char_order, n_word_order, beta, lowercase, whitespace
        As torchmetrics (``n_word_order=2`` is chrF++, torchmetrics' default).
    return_sentence_level_score
        Also return every segment's chrF (a ``"cat"`` state).
    **kwargs
        torchmetrics ``Metric`` options.
    """

    higher_is_better = True
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    def __init__(
        self,
        n_char_order: int = 6,
        n_word_order: int = 2,
        beta: float = 2.0,
        lowercase: bool = False,
        whitespace: bool = False,
        return_sentence_level_score: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if isinstance(beta, (int, float)) and beta < 0:
            raise InvalidOptionError(f"beta={beta!r}: expected a number >= 0")
        self.n_char_order = n_char_order
        self.n_word_order = n_word_order
        self.beta = beta
        self.lowercase = lowercase
        self.whitespace = whitespace
        scorer = CHRF(
            char_order=n_char_order,
            word_order=n_word_order,
            beta=beta,
            lowercase=lowercase,
            whitespace=whitespace,
        )
        self._init_stats(scorer, return_sentence_level_score)


class TranslationEditRate(_StatsMetric):
    """``torchmetrics.text.TranslationEditRate`` returning SacreBLEU's exact TER.

    The edit counts are an int64 state. The reference length is the mean over a segment's
    references, so it is a float64 state: with one reference per segment it is an integer
    and sums exactly; with several, SacreBLEU's own sum depends on segment order, and the
    result may differ from it in the last bit.

    Parameters
    ----------
    normalize, no_punctuation, lowercase, asian_support
        As torchmetrics (``lowercase=True`` by default, as SacreBLEU's
        ``case_sensitive=False``).
    return_sentence_level_score
        Also return every segment's TER (a ``"cat"`` state).
    **kwargs
        torchmetrics ``Metric`` options.
    """

    higher_is_better = False
    plot_lower_bound = 0.0
    _stats_dtype = np.float64

    def __init__(
        self,
        normalize: bool = False,
        no_punctuation: bool = False,
        lowercase: bool = True,
        asian_support: bool = False,
        return_sentence_level_score: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        for name, value in (
            ("normalize", normalize),
            ("no_punctuation", no_punctuation),
            ("lowercase", lowercase),
            ("asian_support", asian_support),
        ):
            if not isinstance(value, bool):
                raise InvalidOptionError(f"{name}={value!r}: expected a bool")
        scorer = TER(
            normalized=normalize,
            no_punct=no_punctuation,
            asian_support=asian_support,
            case_sensitive=not lowercase,
        )
        self._init_stats(scorer, return_sentence_level_score)


TERScore = TranslationEditRate


class BLEUScore(Metric):  # type: ignore[misc]
    """``torchmetrics.text.BLEUScore``: its definition and float32 result, exact counts.

    Whitespace tokens; the reference length is the closest one with ties to the first
    reference; ``smooth`` adds one to matches and totals of orders 2 and up. The counts are
    int64 states (torchmetrics keeps float32 ones, exact up to 2**24 per order); the score is
    torchmetrics' own float32 arithmetic on them, so it equals torchmetrics' value.

    Parameters
    ----------
    n_gram, smooth, weights
        As torchmetrics.
    **kwargs
        torchmetrics ``Metric`` options.
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        weights: Sequence[float] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        _check_weight_count(weights, n_gram)
        self.n_gram = n_gram
        self.smooth = smooth
        self.weights = list(weights) if weights is not None else [1.0 / n_gram] * n_gram
        self.add_state("numerator", torch.zeros(n_gram, dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("denominator", torch.zeros(n_gram, dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("preds_len", torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("target_len", torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")

    def update(self, preds: Any, target: Any) -> None:
        """Add a batch: ``preds`` (strings) and ``target`` (references per prediction)."""
        preds_, target_ = _inputs(preds, target)
        if not preds_:
            return
        state = _tm_flavor.BleuState(self.n_gram)
        state.add(_tm_flavor.split_stats(preds_, target_, self.n_gram))
        dev = self.numerator.device
        self.numerator += torch.tensor(state.numerator, dtype=torch.int64, device=dev)
        self.denominator += torch.tensor(state.denominator, dtype=torch.int64, device=dev)
        self.preds_len += state.preds_len
        self.target_len += state.target_len

    def compute(self) -> Any:
        """Return torchmetrics' float32 BLEU of everything added."""
        state = _tm_flavor.BleuState(self.n_gram)
        state.numerator = [int(x) for x in self.numerator.tolist()]
        state.denominator = [int(x) for x in self.denominator.tolist()]
        state.preds_len = int(self.preds_len)
        state.target_len = int(self.target_len)
        if state.preds_len == 0:
            return torch.tensor(0.0)
        return torch.tensor(float(state.compute(self.weights, self.smooth)), dtype=torch.float32)
