"""torchmetrics 1.9.0's ``bleu_score``, ``sacre_bleu_score``, ``BLEUScore``, ``SacreBLEUScore``.

Same functions and classes, parameters and defaults, without needing torch: scores are
returned as ``numpy.float32`` scalars computed with torchmetrics' float32 arithmetic, operation
for operation (float32 states and precisions, torch's summation order). The counting runs in
Rust; only the last few float32 operations differ in where they run:

* with torch installed, the final ``log``/``sum``/``exp`` are torch's own calls on the same
  float32 tensors, so scores are equal to torchmetrics' as float32;
* without torch, with the ``mkl`` wheel installed (``pip install parbleu[torchmetrics-exact]``),
  ``log`` and ``exp`` are the functions torch's CPU build calls: Intel MKL's vector math
  (``vmsLn``/``vmsExp`` in ``VML_HA`` mode, ``aten/src/ATen/cpu/vml.h``), loaded with ctypes
  (``parbleu.flavors._mkl``). Every golden float32 record is then reproduced bit for bit;
* without either (or with ``PARBLEU_NO_MKL=1``), ``log`` and ``exp`` are correctly rounded to
  float32. MKL's are not: on uniform inputs ``log`` is off by up to 0.86 ulp (7.5% of results
  differ from the correctly rounded ones) and ``exp`` by up to 0.55 ulp (1%). Every other
  operation is reproduced exactly (a test substitutes MKL's or torch's ``log``/``exp`` into
  this arithmetic and matches every golden record). Without torch or MKL, 134 of the 3,525
  golden float32 comparisons (3,369 scores, 156 of them also through the functional API; 11 of
  the 197 corpus scores) differ in the last bit or two (at most 2 float32 ulps, about 1e-7
  relative). Substituting MKL's ``log`` alone fixes 113 of them, its ``exp`` of the weighted
  log sum 17, its ``exp`` of the brevity penalty 3; the last one needs two of them together.

Kept on purpose (``docs/flavors.md``): the reference length is the closest one with ties to the
**first** reference in the list; any order without a match gives 0, even with ``smooth=True``;
``smooth`` adds one for orders 2 and up; ``sacre_bleu_score`` lower-cases **after** tokenizing
and does not ``rstrip``; ``bleu_score`` tokenizes with ``str.split()``. Counts beyond 2**24 per
order would lose integer precision in torchmetrics' float32 states; parbleu counts exactly (a
difference only past 16.7 million n-grams of one order).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._common import (
    SegStats,
    check_refs,
    check_sizes,
    closest_ref_lens,
    flavor_error,
    line_stats,
    token_stats,
)

__all__ = [
    "AVAILABLE_TOKENIZERS",
    "BLEUScore",
    "BleuState",
    "SacreBLEUScore",
    "bleu_score",
    "sacre_bleu_score",
    "split_stats",
]

FLAVOR = "torchmetrics"
AVAILABLE_TOKENIZERS = (
    "none",
    "13a",
    "zh",
    "intl",
    "char",
    "ja-mecab",
    "ko-mecab",
    "flores101",
    "flores200",
)
_F32 = np.float32


def _log32(x: np.float32) -> np.float32:
    return _F32(math.log(float(x))) if x > 0 else _F32(-math.inf if x == 0 else math.nan)


def _exp32(x: np.float32) -> np.float32:
    return _F32(math.exp(float(x)))


def _sum32(values: list[np.float32]) -> np.float32:
    """``torch.sum`` of a short float32 vector on CPU (four interleaved accumulators)."""
    acc = [_F32(0.0)] * 4
    n4 = len(values) // 4
    for j in range(n4):
        for k in range(4):
            acc[k] = _F32(acc[k] + values[4 * j + k])
    for i in range(n4 * 4, len(values)):
        acc[0] = _F32(acc[0] + values[i])
    for k in range(1, 4):
        acc[0] = _F32(acc[0] + acc[k])
    return acc[0]


class BleuState:
    """torchmetrics' float32 states: numerator, denominator, preds_len, target_len."""

    def __init__(self, n_gram: int) -> None:
        self.n_gram = n_gram
        self.numerator = [0] * n_gram
        self.denominator = [0] * n_gram
        self.preds_len = 0
        self.target_len = 0

    def add(self, st: SegStats) -> None:
        """Add a batch's n-gram statistics, as torchmetrics' update does."""
        if len(st) == 0:
            return
        m = st.matches.sum(axis=0).tolist()
        t = st.totals.sum(axis=0).tolist()
        for i in range(self.n_gram):
            self.numerator[i] += int(m[i])
            self.denominator[i] += int(t[i])
        self.preds_len += int(st.hyp_lens.sum())
        self.target_len += int(closest_ref_lens(st, ties="first").sum())

    def compute(self, weights: Sequence[float], smooth: bool) -> np.float32:
        """Return BLEU of the states in torchmetrics' float32 arithmetic."""
        torch = _torch()
        if torch is not None:
            return self._compute_torch(torch, weights, smooth)
        from . import _mkl

        vml = _mkl.load()
        if vml is not None:
            return self.compute_f32(weights, smooth, vml.log32, vml.exp32)
        return self.compute_f32(weights, smooth)

    def compute_f32(
        self,
        weights: Sequence[float],
        smooth: bool,
        log32: Callable[[np.float32], np.float32] = _log32,
        exp32: Callable[[np.float32], np.float32] = _exp32,
    ) -> np.float32:
        """Score with torchmetrics' ``_bleu_score_compute`` float32 arithmetic.

        ``log32``/``exp32`` stand for ``torch.log``/``torch.exp`` (the tests pass torch's own
        to show that the rest is exact).
        """
        num = [_F32(x) for x in self.numerator]
        den = [_F32(x) for x in self.denominator]
        if min(num) == 0.0:
            return _F32(0.0)
        if smooth:
            prec = [_F32(_F32(a + _F32(1.0)) / _F32(b + _F32(1.0))) for a, b in zip(num, den)]
            prec[0] = _F32(num[0] / den[0])
        else:
            prec = [_F32(a / b) for a, b in zip(num, den)]
        w = [_F32(x) for x in weights]
        logs = [_F32(wi * log32(p)) for wi, p in zip(w, prec)]
        geometric_mean = exp32(_sum32(logs))
        preds_len, target_len = _F32(self.preds_len), _F32(self.target_len)
        if preds_len > target_len:
            bp = _F32(1.0)
        else:
            bp = exp32(_F32(_F32(1.0) - _F32(target_len / preds_len)))
        return _F32(bp * geometric_mean)

    def _compute_torch(self, torch: Any, weights: Sequence[float], smooth: bool) -> np.float32:
        # torchmetrics' _bleu_score_compute on its float32 states.
        numerator = torch.tensor(self.numerator, dtype=torch.float32)
        denominator = torch.tensor(self.denominator, dtype=torch.float32)
        preds_len = torch.tensor(float(self.preds_len))
        target_len = torch.tensor(float(self.target_len))
        n_gram = self.n_gram
        if min(numerator) == 0.0:
            return _F32(0.0)
        if smooth:
            precision_scores = torch.div(
                torch.add(numerator, torch.ones(n_gram)), torch.add(denominator, torch.ones(n_gram))
            )
            precision_scores[0] = numerator[0] / denominator[0]
        else:
            precision_scores = numerator / denominator
        log_precision_scores = torch.tensor(weights) * torch.log(precision_scores)
        geometric_mean = torch.exp(torch.sum(log_precision_scores))
        brevity_penalty = (
            torch.tensor(1.0) if preds_len > target_len else torch.exp(1 - (target_len / preds_len))
        )
        return _F32((brevity_penalty * geometric_mean).item())


_TORCH: list[Any] = []


def _torch() -> Any:
    """Torch if it is installed (imported once), else None."""
    if not _TORCH:
        import importlib.util

        mod = None
        if importlib.util.find_spec("torch") is not None:
            try:
                mod = importlib.import_module("torch")
            except Exception:  # pragma: no cover - a broken torch install
                mod = None
        _TORCH.append(mod)
    return _TORCH[0]


def _as_lists(
    preds: str | Sequence[str], target: Sequence[str | Sequence[str]]
) -> tuple[list[str], list[list[str]]]:
    """Return the inputs as lists, as torchmetrics reads them: a bare string is one item."""
    preds_ = [preds] if isinstance(preds, str) else list(preds)
    return preds_, [[tgt] if isinstance(tgt, str) else list(tgt) for tgt in target]


def _check_sizes(preds: Sequence[Any], target: Sequence[Any]) -> None:
    check_sizes(
        FLAVOR,
        preds,
        target,
        "Corpus has different size {0} != {1} (torchmetrics raises this ValueError)",
        ValueError,
    )


def _weights(n_gram: int, weights: Sequence[float] | None) -> list[float]:
    """Return the weights of the orders: uniform by default, else as many as ``n_gram``."""
    if weights is not None and len(weights) != n_gram:
        raise flavor_error(
            FLAVOR,
            "List of weights has different weights than `n_gram`: "
            f"{len(weights)} != {n_gram} (torchmetrics raises this ValueError)",
            ValueError,
        )
    return [1.0 / n_gram] * n_gram if weights is None else list(weights)


def _check_tokenize(tokenize: str) -> None:
    if tokenize not in AVAILABLE_TOKENIZERS:
        raise flavor_error(
            FLAVOR,
            f"Unsupported tokenizer selected. Please, choose one of {list(AVAILABLE_TOKENIZERS)}",
            ValueError,
        )


def _check(preds: Sequence[Any], target: Sequence[Any], n_gram: int, weights: Any) -> list[float]:
    from .._options import check_order

    # Sized lists are made from n_gram (the original's MemoryError for 2**40): bounded first.
    check_order("n_gram", n_gram)
    _check_sizes(preds, target)
    return _weights(n_gram, weights)


def _check_refs(target: Sequence[Sequence[Any]]) -> None:
    check_refs(target, FLAVOR, "torchmetrics: ValueError: min() arg is an empty sequence")


def split_stats(preds: Sequence[str], target: Sequence[Sequence[str]], n_gram: int) -> SegStats:
    """Per-segment n-gram statistics of ``bleu_score`` (``str.split()`` tokens, case kept).

    Shared with :mod:`parbleu.integrations.torchmetrics`, whose metric states add them up.
    """
    _check_refs(target)
    prep = ("none", "keep", "python")
    return line_stats(list(preds), [list(t) for t in target], prep, prep, n_gram)


def _sacre_stats(
    preds: Sequence[str],
    target: Sequence[Sequence[str]],
    n_gram: int,
    tokenize: str,
    lowercase: bool,
) -> SegStats:
    _check_tokenize(tokenize)
    _check_refs(target)
    case = "python" if lowercase else "keep"
    if tokenize in ("none", "13a", "zh", "intl", "char"):
        prep = (tokenize, case, "python")
        return line_stats(list(preds), [list(t) for t in target], prep, prep, n_gram)
    if tokenize in ("flores101", "flores200"):
        raise flavor_error(
            FLAVOR,
            f"tokenize={tokenize!r} downloads a SentencePiece model at run time; parbleu does "
            "not reproduce it",
            ValueError,
        )
    from ..tokenizers import get_tokenizer

    tok = get_tokenizer(tokenize)

    def toks(line: str) -> list[str]:
        if not line:
            return []
        t = tok(line)
        return (t.lower() if lowercase else t).split()

    return token_stats(
        [toks(p) for p in preds], [[toks(r) for r in t] for t in target], n_gram, None
    )


def bleu_score(
    preds: str | Sequence[str],
    target: Sequence[str | Sequence[str]],
    n_gram: int = 4,
    smooth: bool = False,
    weights: Sequence[float] | None = None,
) -> np.float32:
    """``torchmetrics.functional.text.bleu_score``: BLEU of whitespace tokens, as float32."""
    preds_, target_ = _as_lists(preds, target)
    w = _check(preds_, target_, n_gram, weights)
    state = BleuState(n_gram)
    state.add(split_stats(preds_, target_, n_gram))
    return state.compute(w, smooth)


def sacre_bleu_score(
    preds: Sequence[str],
    target: Sequence[Sequence[str]],
    n_gram: int = 4,
    smooth: bool = False,
    tokenize: str = "13a",
    lowercase: bool = False,
    weights: Sequence[float] | None = None,
) -> np.float32:
    """``torchmetrics.functional.text.sacre_bleu_score``: BLEU with SacreBLEU's tokenizers.

    ``target[i]`` holds the references of ``preds[i]`` (torchmetrics' layout, not SacreBLEU's
    streams). A bare string in ``target`` is iterated character by character, as torchmetrics
    does.
    """
    w = _check(preds, target, n_gram, weights)
    state = BleuState(n_gram)
    state.add(_sacre_stats(preds, target, n_gram, tokenize, lowercase))
    return state.compute(w, smooth)


class BLEUScore:
    """``torchmetrics.text.BLEUScore``: accumulate with :meth:`update`, score with :meth:`compute`.

    Parameters
    ----------
    n_gram
        Highest n-gram order.
    smooth
        Add one to numerator and denominator of orders 2 and up.
    weights
        Weights of the orders (default: uniform).
    """

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        weights: Sequence[float] | None = None,
        **kwargs: Any,
    ) -> None:
        self.n_gram = n_gram
        self.smooth = smooth
        self.weights = _weights(n_gram, weights)
        self._state = BleuState(n_gram)

    def _stats(self, preds: list[str], target: list[list[str]]) -> SegStats:
        return split_stats(preds, target, self.n_gram)

    def update(self, preds: str | Sequence[str], target: Sequence[str | Sequence[str]]) -> None:
        """Add a batch of predictions and their references to the state."""
        preds_, target_ = _as_lists(preds, target)
        _check_sizes(preds_, target_)
        self._state.add(self._stats(preds_, target_))

    def compute(self) -> np.float32:
        """BLEU of everything added so far (float32)."""
        return self._state.compute(self.weights, self.smooth)

    def reset(self) -> None:
        """Forget everything added."""
        self._state = BleuState(self.n_gram)

    def __call__(self, preds: str | Sequence[str], target: Sequence[Any]) -> np.float32:
        """Torchmetrics' ``forward``: the score of this batch; the batch is also accumulated."""
        batch = type(self).__new__(type(self))
        batch.__dict__.update(self.__dict__)
        batch._state = BleuState(self.n_gram)
        batch.update(preds, target)
        self.update(preds, target)
        return batch.compute()

    #: ``metric.forward(preds, target)``, as torchmetrics' ``Metric.forward``.
    forward = __call__


class SacreBLEUScore(BLEUScore):
    """``torchmetrics.text.SacreBLEUScore``: :class:`BLEUScore` with SacreBLEU's tokenizers."""

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        tokenize: str = "13a",
        lowercase: bool = False,
        weights: Sequence[float] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(n_gram=n_gram, smooth=smooth, weights=weights)
        _check_tokenize(tokenize)
        self.tokenize = tokenize
        self.lowercase = lowercase

    def _stats(self, preds: list[str], target: list[list[str]]) -> SegStats:
        return _sacre_stats(preds, target, self.n_gram, self.tokenize, self.lowercase)
