"""NLTK 3.10.4's BLEU, GLEU and chrF, exactly (``nltk.translate.{bleu,gleu,chrf}_score``).

Replace ``from nltk.translate.bleu_score import corpus_bleu, SmoothingFunction`` by
``from parbleu.flavors.nltk import corpus_bleu, SmoothingFunction``: same functions, parameters,
defaults, return types (``int`` 0, ``float``, or a list for a list of weight tuples), same
``UserWarning`` (method0), same numbers to the last bit. The n-gram counting runs in Rust;
``sentence_bleu`` (methods 0-3), ``sentence_gleu``, ``corpus_gleu`` and ``sentence_chrf`` on
plain ``str`` inputs are one core call each, with NLTK's float operations done in the same
order there; elsewhere the arithmetic after the counting (``Fraction`` precisions, smoothing,
``math.fsum``) is NLTK's, operation for operation.

Where NLTK crashes, a :class:`~parbleu.errors.FlavorError` is raised that is also an instance of
NLTK's exception (``AssertionError`` for a length mismatch or method6 without trigram matches,
``ZeroDivisionError`` for an empty corpus, ``KeyError``/``ValueError`` for a segment without
references), so ``except`` clauses written for NLTK keep working.

Inputs are token lists, as for NLTK (a ``str`` is iterated character by character, as NLTK
does). Quirks kept on purpose (see ``docs/flavors.md``): the per-sentence denominator floor
``max(1, count)``, ``sys.float_info.min`` for zero precisions without smoothing, corpus-level
smoothing methods 4-7 looking at the *last* segment only, method6's trigram assertion.
"""

from __future__ import annotations

import math
import re
import sys
import warnings
from collections import Counter, defaultdict
from collections.abc import Sequence
from fractions import Fraction as _Fraction
from typing import Any, Callable, Union, cast

import numpy as np

from .. import _core
from ..errors import InvalidTextError
from ._common import (
    SegStats,
    closest_ref_lens,
    flavor_error,
    has_py_only_space,
    token_stats,
    token_stats_small,
)

__all__ = [
    "Fraction",
    "SmoothingFunction",
    "brevity_penalty",
    "chrf_precision_recall_fscore_support",
    "closest_ref_length",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_gleu",
    "modified_precision",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_gleu",
]

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
    if len(list_of_references) != len(hypotheses):
        raise flavor_error(
            FLAVOR,
            f"{len(list_of_references)} reference lists for {len(hypotheses)} hypotheses (NLTK: "
            "AssertionError: The number of hypotheses and their reference(s) should be the same)",
            AssertionError,
        )
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

    def method4(
        self,
        p_n: list[Any],
        references: Any,
        hypothesis: Any,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Zero orders get ``1 / (2**k * K / ln(hyp_len)) / denominator`` (hyp_len > 1 only)."""
        incvnt = 1
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0 and hyp_len > 1:
                numerator = 1 / (2**incvnt * self.k / math.log(hyp_len))
                p_n[i] = numerator / p_i.denominator
                incvnt += 1
        return p_n

    def method5(
        self,
        p_n: list[Any],
        references: Any,
        hypothesis: Any,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Average of the n-1, n and n+1 precisions (n+1: the 5-gram precision of the segment)."""
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        m: dict[int, Any] = {}
        p_n_plus1 = [*p_n, modified_precision(references, hypothesis, 5)]
        m[-1] = p_n[0] + 1
        for i, p_i in enumerate(p_n):
            p_n[i] = (m[i - 1] + p_i + p_n_plus1[i + 1]) / 3
            m[i] = p_n[i]
        return p_n

    def method6(
        self,
        p_n: list[Any],
        references: Any,
        hypothesis: Any,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Interpolation with a prior from the two lower orders (Gao and He)."""
        hyp_len = hyp_len if hyp_len else len(hypothesis)
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

    def method7(
        self,
        p_n: list[Any],
        references: Any,
        hypothesis: Any,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """method4, then method5."""
        hyp_len = hyp_len if hyp_len else len(hypothesis)
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


# --- GLEU ---------------------------------------------------------------------------------


def sentence_gleu(
    references: Sequence[Sequence[Any]],
    hypothesis: Sequence[Any],
    min_len: int = 1,
    max_len: int = 4,
) -> float:
    """Sentence-level GLEU (Google BLEU): ``corpus_gleu([references], [hypothesis])``."""
    if type(min_len) is int and type(max_len) is int and 1 <= min_len <= max_len:
        r = _core.flavor_nltk_sentence_gleu(references, hypothesis, min_len, max_len)
        if r is not None:
            return r
    return corpus_gleu([references], [hypothesis], min_len=min_len, max_len=max_len)


def corpus_gleu(
    list_of_references: Sequence[Sequence[Sequence[Any]]],
    hypotheses: Sequence[Sequence[Any]],
    min_len: int = 1,
    max_len: int = 4,
) -> float:
    """Corpus-level GLEU as ``nltk.translate.gleu_score.corpus_gleu`` (also HF ``google_bleu``).

    Per segment, the reference with the highest ``tp / max(tpfp, tpfn)`` over all n-grams of
    orders ``min_len..max_len`` (first on ties); the corpus score is ``Σtp / Σn_all``.
    """
    if len(list_of_references) != len(hypotheses):
        raise flavor_error(
            FLAVOR,
            f"{len(list_of_references)} reference lists for {len(hypotheses)} hypotheses (NLTK: "
            "AssertionError: The number of hypotheses and their reference(s) should be the same)",
            AssertionError,
        )
    if type(min_len) is int and type(max_len) is int and 1 <= min_len <= max_len:
        # Lists or tuples of str tokens: counted and scored in one core call.
        r = _core.flavor_nltk_corpus_gleu(list_of_references, hypotheses, min_len, max_len)
        if r is not None:
            return r
    if min_len < 1:
        return _corpus_gleu_py(list_of_references, hypotheses, min_len, max_len)
    corpus_n_match = 0
    corpus_n_all = 0
    if max_len < min_len or not hypotheses:
        return 0.0
    single = all(len(refs) == 1 for refs in list_of_references)
    if single:
        pair_hyps: Sequence[Any] = hypotheses
        pair_refs: Sequence[Any] = list_of_references
        owner: list[int] = []
    else:
        pair_hyps, pair_refs, owner = [], [], []
        for i, (refs, hyp) in enumerate(zip(list_of_references, hypotheses)):
            for ref in refs:
                pair_hyps.append(hyp)
                pair_refs.append([ref])
                owner.append(i)
        if not owner:
            return 0.0
    st = token_stats(pair_hyps, pair_refs, max_len, workers=None)
    tp_a = st.matches[:, min_len - 1 : max_len].sum(axis=1)
    tpfp_a = st.totals[:, min_len - 1 : max_len].sum(axis=1)
    tpfn_a = sum(np.maximum(st.ref_lens - n + 1, 0) for n in range(min_len, max_len + 1))
    n_all_a = np.maximum(tpfp_a, tpfn_a)
    if single:
        keep = n_all_a > 0
        corpus_n_match = int(tp_a[keep].sum())
        corpus_n_all = int(n_all_a[keep].sum())
    else:
        best: dict[int, list[tuple[int, int]]] = {}
        for seg, tp, n_all in zip(owner, tp_a.tolist(), n_all_a.tolist()):
            if n_all > 0:
                best.setdefault(seg, []).append((int(tp), int(n_all)))
        for seg in sorted(best):
            n_match, n_all = max(best[seg], key=lambda hc: hc[0] / hc[1])
            corpus_n_match += n_match
            corpus_n_all += n_all
    if corpus_n_all == 0:
        return 0.0
    return corpus_n_match / corpus_n_all


def _everygrams(seq: Sequence[Any], min_len: int, max_len: int) -> list[tuple[Any, ...]]:
    s = list(seq)
    out = []
    for start in range(len(s)):
        history = s[start : start + max_len]
        for n in range(min_len, len(history) + 1):
            out.append(tuple(history[:n]))
    return out


def _corpus_gleu_py(
    list_of_references: Sequence[Sequence[Sequence[Any]]],
    hypotheses: Sequence[Sequence[Any]],
    min_len: int,
    max_len: int,
) -> float:
    # NLTK's own loop, for parameters the core does not count (min_len < 1).
    corpus_n_match = 0
    corpus_n_all = 0
    for references, hypothesis in zip(list_of_references, hypotheses):
        hyp_ngrams = Counter(_everygrams(hypothesis, min_len, max_len))
        tpfp = sum(hyp_ngrams.values())
        hyp_counts = []
        for reference in references:
            ref_ngrams = Counter(_everygrams(reference, min_len, max_len))
            tpfn = sum(ref_ngrams.values())
            tp = sum((ref_ngrams & hyp_ngrams).values())
            n_all = max(tpfp, tpfn)
            if n_all > 0:
                hyp_counts.append((tp, n_all))
        if hyp_counts:
            n_match, n_all = max(hyp_counts, key=lambda hc: hc[0] / hc[1])
            corpus_n_match += n_match
            corpus_n_all += n_all
    return 0.0 if corpus_n_all == 0 else corpus_n_match / corpus_n_all


# --- chrF ---------------------------------------------------------------------------------

#: What NLTK's ``redos.sub(r"\s+", "", s)`` (the ``regex`` module's ``\s``, Unicode
#: White_Space) removes; unlike ``str.split()`` it keeps U+001C..U+001F.
_WHITE_SPACE = dict.fromkeys(
    map(
        ord,
        "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
        "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000",
    )
)


_WHITE_SPACE_RE = re.compile("[" + "".join(chr(c) for c in _WHITE_SPACE) + "]+")


def _preprocess(sent: Any, ignore_whitespace: bool) -> str:
    if type(sent) is not str:
        sent = " ".join(sent)
    if ignore_whitespace:
        # Without U+001C..U+001F, Python's whitespace is the regex's \s (and split is faster).
        sent = _WHITE_SPACE_RE.sub("", sent) if has_py_only_space(sent) else "".join(sent.split())
    return str(sent)


def chrf_precision_recall_fscore_support(
    reference: Sequence[Any],
    hypothesis: Sequence[Any],
    n: int,
    beta: float = 3.0,
    epsilon: float = 1e-16,
) -> tuple[float, float, float, int]:
    """Precision, recall, F-score and true positives of the order-``n`` n-grams."""
    ref_ngrams = Counter(_ngrams(reference, n))
    hyp_ngrams = Counter(_ngrams(hypothesis, n))
    tp = sum((ref_ngrams & hyp_ngrams).values())
    tpfp = sum(hyp_ngrams.values())
    tpfn = sum(ref_ngrams.values())
    return _prf(tp, tpfp, tpfn, beta, epsilon)


def _prf(tp: int, tpfp: int, tpfn: int, beta: float, epsilon: float) -> tuple[Any, Any, Any, int]:
    try:
        prec = tp / tpfp
        rec = tp / tpfn
        factor = beta**2
        fscore = (1 + factor) * (prec * rec) / (factor * prec + rec)
    except ZeroDivisionError:
        prec = rec = fscore = epsilon
    return prec, rec, fscore, tp


def _char_matches(hyps: list[str], refs: list[str], max_len: int) -> SegStats:
    from ..metrics import CHRF

    rows = CHRF(char_order=max_len, word_order=0).extract_stats(hyps, [refs], workers=None)
    matches = np.ascontiguousarray(np.asarray(rows, dtype=np.int64)[:, 2::3])
    n = len(hyps)
    return SegStats(
        max_len,
        matches,
        np.zeros_like(matches),
        np.fromiter(map(len, hyps), dtype=np.int64, count=n),
        np.fromiter(map(len, refs), dtype=np.int64, count=n),
        np.arange(n + 1, dtype=np.int64),
    )


def _fscores(st: SegStats, n: int, beta: Any) -> list[Any]:
    """Per-sentence F-scores of order ``n``, ``_prf`` vectorized (same IEEE operations)."""
    tp = st.matches[:, n - 1].astype(np.float64)
    tpfp = np.maximum(st.hyp_lens - n + 1, 0)
    tpfn = np.maximum(st.ref_lens - n + 1, 0)
    factor = beta**2
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = tp / tpfp
        rec = tp / tpfn
        denom = factor * prec + rec
        f = (1 + factor) * (prec * rec) / denom
    bad = (tpfp == 0) | (tpfn == 0) | (denom == 0)
    f[bad] = 1e-16
    out: list[Any] = f.tolist()
    return out


def sentence_chrf(
    reference: Any,
    hypothesis: Any,
    min_len: int = 1,
    max_len: int = 6,
    beta: float = 3.0,
    ignore_whitespace: bool = True,
) -> float:
    """Sentence-level chrF (one reference; a list of strings is joined with spaces)."""
    if (
        type(reference) is str
        and type(hypothesis) is str
        and type(min_len) is int
        and type(max_len) is int
        and 1 <= min_len <= max_len
        and type(ignore_whitespace) is bool
    ):
        # NLTK's arithmetic takes ``beta**2`` as Python computes it; the core does the rest.
        factor: Any = None
        if type(beta) is float and abs(beta) < 1e100:
            factor = beta**2
        elif type(beta) is int and abs(beta) < 1 << 26:
            factor = float(beta**2)
        if factor is not None:
            r = _core.flavor_nltk_sentence_chrf(
                reference, hypothesis, min_len, max_len, factor, ignore_whitespace
            )
            if r is not None:
                return r
    return corpus_chrf(
        [reference], [hypothesis], min_len, max_len, beta=beta, ignore_whitespace=ignore_whitespace
    )


def corpus_chrf(
    references: Sequence[Any],
    hypotheses: Sequence[Any],
    min_len: int = 1,
    max_len: int = 6,
    beta: float = 3.0,
    ignore_whitespace: bool = True,
) -> float:
    """Corpus chrF as NLTK: the macro average of sentence-level per-order F-scores."""
    if len(references) != len(hypotheses):
        raise flavor_error(
            FLAVOR,
            f"{len(references)} references for {len(hypotheses)} hypotheses (NLTK: "
            "AssertionError: The number of hypotheses and their references should be the same)",
            AssertionError,
        )
    num_sents = len(hypotheses)
    refs = [_preprocess(r, ignore_whitespace) for r in references]
    hyps = [_preprocess(h, ignore_whitespace) for h in hypotheses]
    ngram_fscores: dict[int, list[Any]] = defaultdict(list)
    st: SegStats | None = None
    if min_len >= 1 and max_len >= min_len and num_sents:
        try:
            if ignore_whitespace and not any(map(has_py_only_space, hyps + refs)):
                # No whitespace is left in the strings: the core's chrF extraction gives the
                # same clipped character n-gram matches per order (its hypothesis totals are
                # not used).
                st = _char_matches(hyps, refs, max_len)
            else:
                st = token_stats([list(h) for h in hyps], [[list(r)] for r in refs], max_len, None)
        except (UnicodeEncodeError, InvalidTextError):
            st = None  # a lone surrogate (not UTF-8): NLTK's own loop below
    if st is not None:
        for n in range(min_len, max_len + 1):
            ngram_fscores[n] = _fscores(st, n, beta)
    else:
        for reference, hypothesis in zip(refs, hyps):
            for n in range(min_len, max_len + 1):
                ngram_fscores[n].append(
                    chrf_precision_recall_fscore_support(reference, hypothesis, n, beta=beta)[2]
                )
    num_ngram_sizes = len(ngram_fscores)
    total_scores = [sum(fscores) for n, fscores in ngram_fscores.items()]
    try:
        result: float = (sum(total_scores) / num_ngram_sizes) / num_sents
        return result
    except ZeroDivisionError:
        raise flavor_error(
            FLAVOR,
            "empty corpus or no n-gram order (NLTK: ZeroDivisionError: division by zero)",
            ZeroDivisionError,
        ) from None
