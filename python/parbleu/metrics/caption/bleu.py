"""pycocoevalcap 1.2's BLEU (``pycocoevalcap/bleu/bleu.py`` and ``bleu_scorer.py``), exactly.

``Bleu(4).compute_score(gts, res)`` with ``gts = {image_id: [ref, ...]}`` and
``res = {image_id: [hyp]}`` returns ``([B1, B2, B3, B4], [[per-image B1], ..., [per-image
B4]])`` as the original, with its constants (``tiny = 1e-15`` added to every match count,
``small = 1e-9`` to every guess count, so scores are never exactly 0 or 1), cumulative B1..B4,
the brevity penalty applied whenever ``testlen < reflen`` after the same constants (so even at
equal lengths), and the closest reference length (ties to the shorter). :class:`BleuScorer`
also offers the ``shortest`` and ``average`` reference lengths. ``compute_score`` prints what
the original prints (``verbose=1``: the aggregate counts and the ratio).

Captions are split on whitespace, as the scorer does. COCO's evaluation first runs the Stanford
PTB tokenizer (Java; parbleu's native one: :mod:`.ptb`). The engine of the registered metric
``bleu-coco`` (:mod:`.registered`); ``parbleu.flavors.coco.Bleu`` is this class.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..._segstats import closest_ref_lens, line_stats, shortest_ref_lens
from ...errors import InvalidOptionError, flavor_error
from .checks import FLAVOR, captions

__all__ = ["Bleu", "BleuScorer"]

#: The n-gram orders the original counts (``cook_test``/``cook_refs``' default, never given n).
_COOKED = 4

Scores = tuple[list[float], list[list[float]]]


def _check_reflen(value: Any) -> float | int | None:
    """``special_reflen``: ``None`` or a finite number >= 0 (ints kept, as the original sums)."""
    if value is None:
        return None
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise InvalidOptionError(f"special_reflen={value!r}: expected a number >= 0 or None")
    try:
        ok = math.isfinite(float(value)) and float(value) >= 0.0
    except OverflowError:
        ok = False
    if not ok:
        raise InvalidOptionError(
            f"special_reflen={value!r}: expected a finite number >= 0 (the original: "
            "ZeroDivisionError at infinity)"
        )
    return float(value) if not isinstance(value, int) else value


class BleuScorer:
    """pycocoevalcap's ``BleuScorer``: add ``(hypothesis, [references])`` pairs, then score.

    Parameters
    ----------
    test, refs
        A first hypothesis and its references (optional).
    n
        Highest n-gram order.
    special_reflen
        A reference length to use for every segment instead of the computed one: a finite
        number >= 0 (the original divides by zero at infinity).
    """

    def __init__(
        self,
        test: str | None = None,
        refs: Sequence[str] | None = None,
        n: int = 4,
        special_reflen: float | None = None,
    ) -> None:
        from ..._options import check_order

        self.n = check_order("n", n)
        self.crefs: list[list[str]] = []
        self.ctest: list[str | None] = []
        self.special_reflen = _check_reflen(special_reflen)
        self._score: list[float] | None = None
        self._testlen: float = 0
        self._reflen: float = 0
        self._ratio: float = 0.0
        self.cook_append(test, refs)

    def cook_append(self, test: str | None, refs: Sequence[str] | None) -> None:
        """Add one hypothesis (or ``None``) and its references."""
        if refs is not None:
            self.crefs.append(list(refs))
            self.ctest.append(test)
        self._score = None

    def __iadd__(self, other: tuple[str, Sequence[str]] | BleuScorer) -> BleuScorer:
        if isinstance(other, tuple):
            self.cook_append(other[0], other[1])
        else:
            if not self.compatible(other):
                raise flavor_error(FLAVOR, "incompatible BLEUs.", AssertionError)
            self.ctest.extend(other.ctest)
            self.crefs.extend(other.crefs)
            self._score = None
        return self

    def compatible(self, other: object) -> bool:
        """Whether ``other`` is a ``BleuScorer`` of the same order (``+=`` accepts it)."""
        return isinstance(other, BleuScorer) and self.n == other.n

    def retest(self, new_test: str | Sequence[str]) -> BleuScorer:
        """Replace the hypotheses (one per segment; a ``str`` is one segment)."""
        tests = [new_test] if isinstance(new_test, str) else list(new_test)
        if len(tests) != len(self.crefs):
            raise flavor_error(
                FLAVOR, f"{len(tests)} hypotheses for {len(self.crefs)} segments", AssertionError
            )
        self.ctest = list(tests)
        self._score = None
        return self

    def rescore(self, new_test: str | Sequence[str]) -> Any:
        """:meth:`retest`, then :meth:`compute_score`."""
        return self.retest(new_test).compute_score()

    def recompute_score(self, option: str | None = None, verbose: int = 0) -> Any:
        """:meth:`compute_score` again, the cached score dropped."""
        self._score = None
        return self.compute_score(option, verbose)

    def single_reflen(self, option: str = "average") -> float:
        """Return the first segment's reference length under ``option`` (shortest, average)."""
        return self._single_reflen([len(r.split()) for r in self.crefs[0]], option, None)

    def size(self) -> int:
        """Return the number of segments."""
        if len(self.crefs) != len(self.ctest):
            raise flavor_error(
                FLAVOR,
                f"refs/test mismatch! {len(self.crefs)}<>{len(self.ctest)}",
                AssertionError,
            )
        return len(self.crefs)

    def ratio(self, option: str | None = None) -> float:
        """``(testlen + tiny) / (reflen + small)`` of the last scoring."""
        self.compute_score(option=option)
        return self._ratio

    def reflen(self, option: str | None = None) -> float:
        """Total reference length."""
        self.compute_score(option=option)
        return self._reflen

    def testlen(self, option: str | None = None) -> float:
        """Total hypothesis length."""
        self.compute_score(option=option)
        return self._testlen

    @staticmethod
    def _single_reflen(reflens: Sequence[int], option: str | None, testlen: int | None) -> float:
        if option == "shortest":
            if not reflens:
                raise flavor_error(
                    FLAVOR,
                    "a segment has no reference (min() arg is an empty sequence)",
                    ValueError,
                )
            return min(reflens)
        if option == "average":
            if not reflens:
                raise flavor_error(
                    FLAVOR, "a segment has no reference (float division by zero)", ZeroDivisionError
                )
            return float(sum(reflens)) / len(reflens)
        if option == "closest":
            if not reflens:
                raise flavor_error(
                    FLAVOR,
                    "a segment has no reference (min() arg is an empty sequence)",
                    ValueError,
                )
            if testlen is None:
                raise flavor_error(
                    FLAVOR,
                    "'closest' needs a hypothesis length (the original: TypeError)",
                    TypeError,
                )
            return min((abs(r - testlen), r) for r in reflens)[1]
        raise flavor_error(FLAVOR, f"unsupported reflen option {option}", AssertionError)

    def _reflens(self, st: Any, option: str, testlens: list[int]) -> list[Any]:
        if self.special_reflen is not None:
            return [self.special_reflen] * len(testlens)
        if option in ("closest", "shortest") and len(st) and int(np.diff(st.ref_offsets).min()) > 0:
            arr = closest_ref_lens(st) if option == "closest" else shortest_ref_lens(st)
            return [int(x) for x in arr]
        lists = st.ref_len_lists()
        return [self._single_reflen(rl, option, t) for rl, t in zip(lists, testlens)]

    def compute_score(self, option: str | None = None, verbose: int = 0) -> Any:
        """Corpus BLEU-1..n and per-segment BLEU-1..n (the original's return values).

        Parameters
        ----------
        option
            ``"closest"``, ``"shortest"`` or ``"average"`` reference length (default:
            ``"average"`` for a single segment, else ``"closest"``).
        verbose
            ``1``: print the aggregate counts and the ratio; ``2``: also every segment.
        """
        n = self.n
        small = 1e-9
        tiny = 1e-15
        bleu_list: list[list[float]] = [[] for _ in range(n)]
        if self._score is not None:
            return self._score
        if n > _COOKED and self.ctest:
            # The original cooks 1..4-grams whatever n is (cook_test's default n=4), then
            # sums n orders of those four counts.
            raise flavor_error(
                FLAVOR,
                f"BLEU: n={n}, but the original counts n-grams up to 4 whatever n is (the "
                "original: IndexError: list index out of range)",
                IndexError,
            )
        if option is None:
            option = "average" if len(self.crefs) == 1 else "closest"
        tests = [t if t is not None else "" for t in self.ctest]
        prep = ("none", "keep", "python")
        st = line_stats(tests, self.crefs, prep, prep, n)
        testlens = st.hyp_lens.tolist()
        reflens = self._reflens(st, option, testlens)
        self._testlen = 0
        self._reflen = 0
        for t, r in zip(testlens, reflens):
            self._testlen += t
            self._reflen += r
        totalcomps: dict[str, Any] = {
            "testlen": 0,
            "reflen": 0,
            "guess": [int(x) for x in st.totals.sum(axis=0)] if len(st) else [0] * n,
            "correct": [int(x) for x in st.matches.sum(axis=0)] if len(st) else [0] * n,
        }
        if len(st):
            # The per-image products, with the original's operations: (float(c) + tiny) /
            # (float(g) + small) multiplied left to right (an accumulate is sequential).
            fac = (st.matches.astype(np.float64) + tiny) / (st.totals.astype(np.float64) + small)
            cum = np.cumprod(fac, axis=1)
            ratios = (st.hyp_lens.astype(np.float64) + tiny) / (
                np.asarray(reflens, dtype=np.float64) + small
            )
            bps = [math.exp(1 - 1 / r) if r < 1 else None for r in ratios.tolist()]
            for k in range(n):
                e = 1.0 / (k + 1)
                vals = [x**e for x in cum[:, k].tolist()]
                bleu_list[k] = [v if bp is None else v * bp for v, bp in zip(vals, bps)]
        if verbose > 1:
            guesses, matches, reflists = st.totals.tolist(), st.matches.tolist(), st.ref_len_lists()
            for i in range(len(tests)):
                comps = {
                    "reflen": reflists[i],
                    "testlen": testlens[i],
                    "guess": guesses[i],
                    "correct": matches[i],
                }
                print(comps, reflens[i])

        totalcomps["reflen"] = self._reflen
        totalcomps["testlen"] = self._testlen
        bleus: list[float] = []
        bleu = 1.0
        for k in range(n):
            bleu *= float(totalcomps["correct"][k] + tiny) / (totalcomps["guess"][k] + small)
            bleus.append(bleu ** (1.0 / (k + 1)))
        ratio = (self._testlen + tiny) / (self._reflen + small)
        if ratio < 1:
            for k in range(n):
                bleus[k] *= math.exp(1 - 1 / ratio)
        if verbose > 0:
            print(totalcomps)
            print("ratio:", ratio)
        self._ratio = ratio
        self._score = bleus
        return self._score, bleu_list


class Bleu:
    """pycocoevalcap's ``Bleu(n)``: ``compute_score(gts, res)``, closest reference length."""

    def __init__(self, n: int = 4) -> None:
        from ..._options import check_order

        self._n = check_order("n", n)
        self._hypo_for_image: dict[Any, Any] = {}
        self.ref_for_image: dict[Any, Any] = {}

    def compute_score(
        self,
        gts: Mapping[Any, Sequence[str]],
        res: Mapping[Any, Sequence[str]],
        verbose: int = 1,
    ) -> Scores:
        """Score ``res`` (one hypothesis per image) against ``gts`` (references per image).

        ``verbose`` as pycocoevalcap's: ``1`` (default) prints the aggregate counts and the
        ratio, ``0`` nothing, ``2`` also every image.
        """
        _, hyps, refs = captions(gts, res, "Bleu", allow_empty=True)
        bleu_scorer = BleuScorer(n=self._n)
        bleu_scorer.crefs = refs
        bleu_scorer.ctest = list(hyps)
        score, scores = bleu_scorer.compute_score(option="closest", verbose=verbose)
        return score, scores

    def method(self) -> str:
        """Return the metric's name."""
        return "Bleu"
