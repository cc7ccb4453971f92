"""NLTK 3.10.4's ``nltk.translate.bleu_score``, exactly (see :mod:`parbleu.flavors.nltk`)."""

from __future__ import annotations

import math
import sys
import warnings
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction as _Fraction
from typing import Any, Callable, Union, cast

import numpy as np

from ... import _core
from .._common import (
    check_sizes,
    closest_ref_lens,
    flavor_error,
    token_stats,
    token_stats_small,
)

FLAVOR = "nltk"
#: Corpora up to this many segments are summed in Python (cheaper than numpy for sentences).
_SMALL = 16

Weights = Union[Sequence[float], Sequence[Sequence[float]]]
Score = Union[float, int, list[Union[float, int]]]


class Fraction(_Fraction):
    """NLTK's ``Fraction`` with ``_normalize=False``.

    ``numerator`` and ``denominator`` are the values given (``2/4`` stays ``2/4``), on every
    Python version.
    """

    _normalize: bool
    _original_numerator: int
    _original_denominator: int

    def __new__(
        cls, numerator: Any = 0, denominator: Any = None, _normalize: bool = False
    ) -> Fraction:
        """Create the fraction (unnormalised unless ``_normalize``)."""
        new: Any = _Fraction.__new__
        if sys.version_info >= (3, 12) or _normalize:
            self: Fraction = new(cls, numerator, denominator)
        else:  # pragma: no cover - depends on the Python version
            self = new(cls, numerator, denominator, _normalize=_normalize)
        self._normalize = _normalize
        self._original_numerator = numerator
        self._original_denominator = denominator
        return self

    @property
    def numerator(self) -> int:
        """Return the numerator as given."""
        if not self._normalize:
            return self._original_numerator
        return super().numerator

    @property
    def denominator(self) -> int:
        """Return the denominator as given."""
        if not self._normalize:
            return self._original_denominator
        return super().denominator


def _closest(ref_lens: list[int], hyp_len: int) -> int:
    return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))


def _check_segment_refs(refs: Sequence[Any], hyp: Any, max_order: int) -> None:
    """Raise what NLTK raises for a segment without references."""
    if len(refs) == 0:
        if max_order >= 1 and len(hyp) >= 1:
            first = tuple(list(hyp)[:1])
            raise flavor_error(
                FLAVOR,
                "a segment has no references (NLTK's modified_precision raises "
                f"KeyError({first!r}))",
                KeyError,
            )
        raise flavor_error(
            FLAVOR,
            "a segment has no references (NLTK's closest_ref_length raises "
            "ValueError: min() arg is an empty sequence)",
            ValueError,
        )


_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


def sentence_bleu(
    references: Sequence[Sequence[Any]],
    hypothesis: Sequence[Any],
    weights: Weights = _DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
) -> Score:
    """Sentence-level BLEU: ``corpus_bleu([references], [hypothesis], ...)``.

    Parameters
    ----------
    references
        Reference token lists.
    hypothesis
        Hypothesis tokens.
    weights
        Weights of the n-gram orders (one tuple), or a list of weight tuples (a list of scores
        is then returned).
    smoothing_function
        A ``SmoothingFunction().methodN`` (default: method0, no smoothing).
    auto_reweigh
        Uniform weights over the hypothesis length when it is below 4 and ``weights`` is the
        tuple ``(0.25, 0.25, 0.25, 0.25)``.

    Returns
    -------
    float, int or list
        As NLTK: ``0`` (an ``int``) when nothing matches.
    """
    try:
        method = _FAST_METHODS.get(getattr(smoothing_function, "__func__", smoothing_function), -1)
    except TypeError:  # an unhashable callable
        method = -1
    if method >= 0 and (
        weights is _DEFAULT_WEIGHTS
        or (type(weights) is tuple and all(type(w) is float for w in weights))
    ):
        epsilon = 0.0
        if smoothing_function is not None:
            sf = getattr(smoothing_function, "__self__", None)
            if type(sf) is not SmoothingFunction:
                method = -1
            elif method == 1:
                epsilon = sf.epsilon
                if type(epsilon) is not float:
                    method = -1
        if method >= 0:
            reweigh = bool(auto_reweigh) and weights == _DEFAULT_WEIGHTS
            r = _core.flavor_nltk_sentence_bleu(
                references, hypothesis, weights, method, epsilon, reweigh
            )
            if r is not None:
                if type(r) is tuple:
                    for order in r[1]:
                        _warn_zero_order(order)
                    return r[0]
                return cast(Union[float, int], r)
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)


def _check_sizes(list_of_references: Sequence[Any], hypotheses: Sequence[Any]) -> None:
    """NLTK's assertion of ``corpus_bleu`` and ``corpus_gleu``: as many references as hypotheses."""
    check_sizes(
        FLAVOR,
        list_of_references,
        hypotheses,
        "{0} reference lists for {1} hypotheses (NLTK: AssertionError: The number of hypotheses "
        "and their reference(s) should be the same)",
        AssertionError,
    )


def corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[Any]]],
    hypotheses: Sequence[Sequence[Any]],
    weights: Weights = (0.25, 0.25, 0.25, 0.25),
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
) -> Score:
    """Corpus-level BLEU as ``nltk.translate.bleu_score.corpus_bleu``.

    Parameters
    ----------
    list_of_references
        For each segment, its reference token lists.
    hypotheses
        Hypothesis token lists.
    weights, smoothing_function, auto_reweigh
        As :func:`sentence_bleu`.

    Returns
    -------
    float, int or list
        As NLTK.
    """
    _check_sizes(list_of_references, hypotheses)
    weight_list: list[Any]
    try:
        cast(Any, weights)[0][0]
        weight_list = list(weights)
    except (TypeError, IndexError):
        weight_list = [weights]
    max_weight_length = max(len(weight) for weight in weight_list)

    n_seg = len(hypotheses)
    for refs, hyp in zip(list_of_references, hypotheses):
        if len(refs) == 0:
            _check_segment_refs(refs, hyp, max_weight_length)
    if 0 < n_seg <= _SMALL:
        sm = token_stats_small(hypotheses, list_of_references, max_weight_length)
        nums = [sum(col) for col in zip(*sm.matches)] or [0] * max_weight_length
        dens = [sum(max(1, x) for x in col) for col in zip(*sm.totals)] or [0] * max_weight_length
        hyp_lengths = sum(sm.hyp_lens)
        ref_lengths = sum(_closest(rl, h) for rl, h in zip(sm.ref_lens, sm.hyp_lens))
    elif n_seg:
        st = token_stats(hypotheses, list_of_references, max_weight_length, workers=None)
        nums = [int(x) for x in st.matches.sum(axis=0)]
        dens = [int(x) for x in np.maximum(st.totals, 1).sum(axis=0)]
        hyp_lengths = int(st.hyp_lens.sum())
        ref_lengths = int(closest_ref_lens(st).sum())
    else:
        nums = [0] * max_weight_length
        dens = [0] * max_weight_length
        hyp_lengths = ref_lengths = 0

    bp = brevity_penalty(ref_lengths, hyp_lengths)
    if max_weight_length and not n_seg:
        raise flavor_error(
            FLAVOR, "empty corpus (NLTK: ZeroDivisionError: Fraction(0, 0))", ZeroDivisionError
        )
    if not nums or nums[0] == 0:
        return 0 if len(weight_list) == 1 else [0] * len(weight_list)

    fast = _fast_precisions(smoothing_function, nums, dens)
    if fast is not None:
        p_n: list[Any] = fast
    else:
        p_n = [Fraction(nums[i], dens[i], _normalize=False) for i in range(max_weight_length)]
        if not smoothing_function:
            smoothing_function = SmoothingFunction().method0
        # NLTK passes the loop variables of its last iteration: the last segment.
        references = list_of_references[-1]
        hypothesis = hypotheses[-1]
        p_n = smoothing_function(
            p_n, references=references, hypothesis=hypothesis, hyp_len=hyp_lengths
        )

    bleu_scores: list[Any] = []
    for weight in weight_list:
        if auto_reweigh and hyp_lengths < 4 and weight == (0.25, 0.25, 0.25, 0.25):
            weight = (1 / hyp_lengths,) * hyp_lengths
        s = (w_i * math.log(p_i) for w_i, p_i in zip(weight, p_n) if p_i > 0)
        bleu_scores.append(bp * math.exp(math.fsum(s)))
    return bleu_scores[0] if len(weight_list) == 1 else bleu_scores


def _fast_precisions(
    smoothing_function: Callable[..., Any] | None, nums: list[int], dens: list[int]
) -> list[Any] | None:
    """Compute the smoothed precisions of methods 0-3 on the counts directly.

    NLTK builds ``Fraction`` objects and converts them to float in ``math.log``; a
    ``Fraction``'s float is ``numerator / denominator`` (correctly rounded), so the same
    divisions on the integers give the same floats, without the objects. Any other smoothing
    function (methods 4-7, a subclass, a user's callable) gets NLTK's ``Fraction`` path.
    Returns None when the fast path does not apply.
    """
    sf: Any
    if smoothing_function is None:
        name = "method0"
        sf = SmoothingFunction()
    else:
        sf = getattr(smoothing_function, "__self__", None)
        name = getattr(smoothing_function, "__name__", "")
        if type(sf) is not SmoothingFunction or getattr(
            SmoothingFunction, name, None
        ) is not getattr(smoothing_function, "__func__", None):
            return None
    if name == "method0":
        out: list[Any] = []
        for i, (m, d) in enumerate(zip(nums, dens)):
            if m != 0:
                out.append(m / d)
            else:
                _warn_zero_order(i + 1)
                out.append(sys.float_info.min)
        return out
    if name == "method1":
        return [(m + sf.epsilon) / d if m == 0 else m / d for m, d in zip(nums, dens)]
    if name == "method2":
        return [nums[0] / dens[0]] + [(m + 1) / (d + 1) for m, d in zip(nums[1:], dens[1:])]
    if name == "method3":
        incvnt = 1
        p: list[Any] = []
        for m, d in zip(nums, dens):
            if m == 0:
                p.append(1 / (2**incvnt * d))
                incvnt += 1
            else:
                p.append(m / d)
        return p
    return None


def modified_precision(
    references: Sequence[Sequence[Any]], hypothesis: Sequence[Any], n: int
) -> Fraction:
    """Clipped ``n``-gram precision of one segment, as an unnormalised :class:`Fraction`.

    The denominator is ``max(1, number of hypothesis n-grams)``.
    """
    if n < 1:
        return _modified_precision_py(references, hypothesis, n)
    if len(references) == 0:
        if len(hypothesis) >= n:
            first = tuple(list(hypothesis)[:n])
            raise flavor_error(
                FLAVOR,
                f"no references (NLTK's modified_precision raises KeyError({first!r}))",
                KeyError,
            )
        return Fraction(0, 1, _normalize=False)
    st = token_stats_small([hypothesis], [references], n)
    return Fraction(st.matches[0][n - 1], max(1, st.totals[0][n - 1]), _normalize=False)


def _ngrams(seq: Sequence[Any], n: int) -> list[tuple[Any, ...]]:
    s = list(seq)
    return [tuple(s[i : i + n]) for i in range(len(s) - n + 1)]


def _modified_precision_py(
    references: Sequence[Sequence[Any]], hypothesis: Sequence[Any], n: int
) -> Fraction:
    # NLTK's own code, for orders the core does not count (n < 1).
    counts = Counter(_ngrams(hypothesis, n)) if len(hypothesis) >= n else Counter()
    max_counts: dict[Any, int] = {}
    for reference in references:
        reference_counts = Counter(_ngrams(reference, n)) if len(reference) >= n else Counter()
        for ngram in counts:
            max_counts[ngram] = max(max_counts.get(ngram, 0), reference_counts[ngram])
    clipped = {ngram: min(count, max_counts[ngram]) for ngram, count in counts.items()}
    return Fraction(sum(clipped.values()), max(1, sum(counts.values())), _normalize=False)


def closest_ref_length(references: Sequence[Sequence[Any]], hyp_len: int) -> int:
    """Length of the reference closest to ``hyp_len`` (ties: the shorter)."""
    ref_lens = (len(reference) for reference in references)
    return min(ref_lens, key=lambda ref_len: (abs(ref_len - hyp_len), ref_len))


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> int | float:
    """``1`` if the hypothesis is longer, ``0`` if empty, else ``exp(1 - r/c)``."""
    if hyp_len > closest_ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - closest_ref_len / hyp_len)


_METHOD0_WARNING = (
    "\nThe hypothesis contains 0 counts of {}-gram overlaps.\n"
    "Therefore the BLEU score evaluates to 0, independently of\n"
    "how many N-gram overlaps of lower order it contains.\n"
    "Consider using lower n-gram order or use "
    "SmoothingFunction()"
)


def _warn_zero_order(n: int) -> None:
    # One source line for every such warning, as NLTK's single ``warnings.warn`` call: the
    # default filter then shows each message once per process, as with NLTK.
    warnings.warn(_METHOD0_WARNING.format(n), UserWarning, stacklevel=1)


_SegmentMethod = Callable[[Any, list[Any], Any, Any, int], list[Any]]


def _segment_method(body: _SegmentMethod) -> Callable[..., list[Any]]:
    """Give a smoothing method that reads the segment NLTK's calling convention.

    NLTK's methods 4 to 7 take ``(p_n, references, hypothesis, hyp_len=None, *args, **kwargs)``,
    read ``hyp_len`` as ``len(hypothesis)`` when it is not given (or 0) and ignore the rest; the
    body gets ``hyp_len`` resolved. The wrapper keeps NLTK's signature (not ``functools.wraps``,
    whose ``__wrapped__`` would show the body's to ``inspect.signature``).
    """

    def method(
        self: Any,
        p_n: list[Any],
        references: Any,
        hypothesis: Any,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        return body(self, p_n, references, hypothesis, hyp_len if hyp_len else len(hypothesis))

    method.__name__, method.__qualname__ = body.__name__, body.__qualname__
    method.__doc__ = body.__doc__
    return method


class SmoothingFunction:
    """Chen and Cherry (2014)'s smoothing techniques, as NLTK implements them.

    Parameters
    ----------
    epsilon
        Added to zero numerators by method1.
    alpha
        Interpolation weight of method6.
    k
        The constant of method4.
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def __repr__(self) -> str:
        return f"SmoothingFunction(epsilon={self.epsilon}, alpha={self.alpha}, k={self.k})"

    def method0(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """No smoothing: zero precisions become ``sys.float_info.min`` (with a UserWarning)."""
        p_n_new: list[Any] = []
        for i, p_i in enumerate(p_n):
            if p_i.numerator != 0:
                p_n_new.append(p_i)
            else:
                _warn_zero_order(i + 1)
                p_n_new.append(sys.float_info.min)
        return p_n_new

    def method1(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Add ``epsilon`` to zero numerators."""
        return [
            (p_i.numerator + self.epsilon) / p_i.denominator if p_i.numerator == 0 else p_i
            for p_i in p_n
        ]

    def method2(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Add 1 to numerator and denominator of every order but the first (Lin and Och)."""
        return [
            Fraction(p_n[i].numerator + 1, p_n[i].denominator + 1, _normalize=False)
            if i != 0
            else p_n[0]
            for i in range(len(p_n))
        ]

    def method3(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """NIST geometric sequence: the k-th zero order gets ``1 / (2**k * denominator)``."""
        incvnt = 1
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0:
                p_n[i] = 1 / (2**incvnt * p_i.denominator)
                incvnt += 1
        return p_n

    @_segment_method
    def method4(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int) -> list[Any]:
        """Zero orders get ``1 / (2**k * K / ln(hyp_len)) / denominator`` (hyp_len > 1 only)."""
        incvnt = 1
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0 and hyp_len > 1:
                numerator = 1 / (2**incvnt * self.k / math.log(hyp_len))
                p_n[i] = numerator / p_i.denominator
                incvnt += 1
        return p_n

    @_segment_method
    def method5(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int) -> list[Any]:
        """Average of the n-1, n and n+1 precisions (n+1: the 5-gram precision of the segment)."""
        m: dict[int, Any] = {}
        p_n_plus1 = [*p_n, modified_precision(references, hypothesis, 5)]
        m[-1] = p_n[0] + 1
        for i, p_i in enumerate(p_n):
            p_n[i] = (m[i - 1] + p_i + p_n_plus1[i + 1]) / 3
            m[i] = p_n[i]
        return p_n

    @_segment_method
    def method6(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int) -> list[Any]:
        """Interpolation with a prior from the two lower orders (Gao and He)."""
        if not p_n[2]:
            raise flavor_error(
                FLAVOR,
                "smoothing method6 needs a non-zero trigram precision (NLTK: AssertionError: "
                "This smoothing method requires non-zero precision for bigrams.)",
                AssertionError,
            )
        for i, p_i in enumerate(p_n):
            if i in [0, 1]:
                continue
            pi0 = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
            m = p_i.numerator
            length = max(0, len(hypothesis) - i)
            p_n[i] = (m + self.alpha * pi0) / (length + self.alpha)
        return p_n

    @_segment_method
    def method7(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int) -> list[Any]:
        """method4, then method5."""
        p_n = self.method4(p_n, references, hypothesis, hyp_len)
        p_n = self.method5(p_n, references, hypothesis, hyp_len)
        return p_n


#: Smoothing functions with a closed form on the counts (the core's ``method`` codes); ``None``
#: is method0. Subclasses and other callables take NLTK's own path.
_FAST_METHODS: dict[Any, int] = {
    None: 0,
    SmoothingFunction.method0: 0,
    SmoothingFunction.method1: 1,
    SmoothingFunction.method2: 2,
    SmoothingFunction.method3: 3,
}
