"""chrF (Popović 2015) and chrF++ (Popović 2017) exactly as SacreBLEU 2.6 computes them."""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .. import _core
from .._options import check_flag, check_order
from ..errors import InvalidOptionError
from ..score import Score
from ..signature import Signature
from .base import Metric
from .options import CHRF_OPTIONS
from .schema import abbreviations

#: Integers below this (in magnitude) are exact in a float: Python divides them as floats,
#: so the core's float arithmetic is SacreBLEU's operation for operation.
_EXACT_BELOW = 2**52

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


class CHRFSignature(Signature):
    """chrF's signature: ``nrefs|case|eff|nc|nw|space|version``."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self.abbreviate(abbreviations(CHRF_OPTIONS))
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "eff": "yes" if not args["eps_smoothing"] else "no",
                "nc": args["char_order"],
                "nw": args["word_order"],
                "space": "yes" if args["whitespace"] else "no",
            }
        )


class CHRFScore(Score):
    """A chrF (chrF+, chrF++) score, as SacreBLEU's ``CHRFScore``.

    Parameters
    ----------
    score
        chrF, 0-100.
    char_order
        Character n-gram order.
    word_order
        Word n-gram order (2 for chrF++).
    beta
        Weight of recall relative to precision.
    """

    def __init__(self, score: float, char_order: int, word_order: int, beta: int | float) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{self.beta}" + "+" * self.word_order, score)


def _finite_square(beta: Any) -> bool:
    if isinstance(beta, bool) or not isinstance(beta, (int, float)):
        return False
    try:
        return math.isfinite(beta**2) and math.isfinite(1 + beta**2)
    except OverflowError:
        return False


class CHRF(Metric[CHRFScore]):
    """chrF / chrF++ with SacreBLEU's constructor arguments and results.

    With several references, each segment's statistics come from the reference with the best
    sentence-level chrF (computed with this object's ``beta`` and ``eps_smoothing``); ties go
    to the first reference in the order the streams are given. So ``beta`` and
    ``eps_smoothing`` change the statistics, not only the final score.

    Parameters
    ----------
    char_order
        Character n-gram order (default 6).
    word_order
        Word n-gram order (default 0; 2 gives chrF++).
    beta
        Weight of recall relative to precision (default 2).
    lowercase
        Lowercase hypotheses and references (Python's full Unicode ``str.lower``).
    whitespace
        Keep whitespace in character n-grams.
    eps_smoothing
        Average per-order F-scores with epsilon smoothing (chrF++.py, NLTK, Moses) instead of
        SacreBLEU's default effective-order averaging of precision and recall.
    references
        Reference streams to preprocess once and reuse in every ``corpus_score`` call.
    """

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2
    _PUNCTS: ClassVar[frozenset[str]] = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    _SIGNATURE_TYPE = CHRFSignature
    metric_name = "chrf"

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: int | float = BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        super().__init__()
        char_order = check_order("char_order", char_order, minimum=0)
        word_order = check_order("word_order", word_order, minimum=0)
        if char_order + word_order < 1:
            raise InvalidOptionError(
                f"char_order={char_order}, word_order={word_order}: expected at least one "
                "n-gram order"
            )
        if not _finite_square(beta):
            raise InvalidOptionError(f"beta={beta!r}: expected a finite number")
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.order = self.char_order + self.word_order
        self.lowercase = check_flag("lowercase", lowercase)
        self.whitespace = check_flag("whitespace", whitespace)
        self.eps_smoothing = check_flag("eps_smoothing", eps_smoothing)
        # beta ** 2 and 1 + beta ** 2 exactly as Python evaluates them (int for an int beta),
        # converted to float the way Python's int * float does.
        self._factor = beta**2
        if references is not None:
            self._ref_cache = self._cache_references(references)

    # --- statistics ---------------------------------------------------------------------
    @property
    def stats_width(self) -> int:
        """``3 * (char_order + word_order)``: ``hyp, ref, match`` per order."""
        return 3 * self.order

    def stats_key(self) -> tuple[Any, ...]:
        """Orders, case, whitespace, and beta and smoothing (they pick the best reference)."""
        return (
            "chrf",
            self.char_order,
            self.word_order,
            bool(self.lowercase),
            bool(self.whitespace),
            self.beta,
            bool(self.eps_smoothing),
        )

    # --- the core objects -----------------------------------------------------------------
    def core_scorer(self) -> Any:
        """Return the core's chrF finalize step (see :meth:`Metric.core_scorer`)."""
        return _core.Scorer.chrf(self.core_options())

    def pair_table(self, strings: list[str], workers: int) -> Any:
        """Return the core's chrF pair table of ``strings`` (see :meth:`Metric.pair_table`)."""
        return _core.PairTable.chrf(strings, self.core_options(), workers)

    def core_options(self) -> Any:
        """Return this object's options as one ``_core.ChrfOptions``, built once.

        Orders, ``beta ** 2`` and ``1 + beta ** 2`` (computed here, then converted to float,
        so integer and float betas give exactly SacreBLEU's arithmetic), smoothing, case and
        whitespace, validated by :mod:`parbleu._options`; cached on their values (see
        :meth:`Metric.core_options`).

        Returns
        -------
        parbleu._core.ChrfOptions
            The options every ``_core`` call of this metric takes.
        """
        args = (
            self.char_order,
            self.word_order,
            float(self._factor),
            float(1 + self._factor),
            bool(self.eps_smoothing),
            bool(self.lowercase),
            bool(self.whitespace),
        )
        return self._cached_core_options(_core.ChrfOptions, args)

    def _prepare_refs(self, streams: list[list[Any]], workers: int) -> Any:
        return _core.ChrfRefs(streams, self.core_options(), workers)

    def _extract_raw(self, prepared: Any, hyps: list[str], workers: int) -> bytes:
        data: bytes = prepared.extract(hyps, workers)
        return data

    def _extract_many_rows(
        self, prepared: Any, systems: list[list[str]], workers: int
    ) -> list[npt.NDArray[Any]]:
        import numpy as np

        # One core call: each segment's reference tables are probed by every system.
        data = prepared.extract_many(systems, workers, False)
        rows = np.frombuffer(data, dtype="<i8").reshape(len(systems), len(prepared), -1)
        return [r.copy() for r in rows]

    def _extract_many_sums(
        self, prepared: Any, systems: list[list[str]], workers: int
    ) -> list[list[Any]]:
        data = prepared.extract_many(systems, workers, True)
        w = self.stats_width
        if sys.byteorder != "little":
            import numpy as np

            return np.frombuffer(data, dtype="<i8").reshape(-1, w).tolist()
        # Without numpy (not imported by plain scoring): the sums are the core's.
        cells = memoryview(data).cast("q")
        return [cells[k * w : (k + 1) * w].tolist() for k in range(len(systems))]

    def _sentence_scores(
        self, prepared: Any, hyps: list[str], workers: int
    ) -> npt.NDArray[np.float64]:
        import numpy as np

        # Scored where the statistics are made: no rows go through Python.
        return np.frombuffer(prepared.sentence_scores(hyps, workers), dtype="<f8").copy()

    def _score_row(self, row: Sequence[Any]) -> CHRFScore:
        return CHRFScore(
            self._compute_f_score([int(x) for x in row]),
            self.char_order,
            self.word_order,
            self.beta,
        )

    def _score_rows(self, rows: npt.NDArray[Any], workers: int) -> npt.NDArray[np.float64]:
        import numpy as np

        arr = np.ascontiguousarray(rows, dtype=np.int64)
        data = _core.chrf_scores(arr, self.stats_width, self.core_options(), workers)
        return np.frombuffer(data, dtype="<f8").copy()

    # --- SacreBLEU's scorer -------------------------------------------------------------
    def _compute_f_score(self, statistics: Sequence[int]) -> float:
        """ChrF of summed statistics, as SacreBLEU's ``CHRF._compute_f_score``.

        Parameters
        ----------
        statistics
            ``3 * (char_order + word_order)`` counts: ``hyp, ref, match`` per order.

        Returns
        -------
        float
            The F-score, 0-100.
        """
        w = 3 * self.order
        head = list(statistics[:w])
        # C-level loops (this runs once per sentence score): exact ints only, within range.
        if (
            len(head) == w
            and set(map(type, head)) == {int}
            and min(head) > -_EXACT_BELOW
            and max(head) < _EXACT_BELOW
        ):
            # Integers exact in a float: the core's one chrF finalize, bit for bit SacreBLEU's.
            f: float = _core.chrf_f_score(head, self.core_options())
            return f
        return self._compute_f_score_python(statistics)

    def _compute_f_score_python(self, statistics: Sequence[Any]) -> float:
        """SacreBLEU's ``_compute_f_score`` in Python, for what the core does not take exactly.

        Floats, integers of 2**53 or more (Python divides them exactly; a float cannot hold
        them), numpy scalars and short rows keep SacreBLEU's Python semantics, errors included.
        """
        eps = 1e-16
        score = 0.0
        effective_order = 0
        factor = self._factor
        avg_prec, avg_rec = 0.0, 0.0
        for i in range(self.order):
            n_hyp, n_ref, n_match = statistics[3 * i : 3 * i + 3]
            # chrF++.py style EPS smoothing (also used by Moses and NLTK)
            prec = n_match / n_hyp if n_hyp > 0 else eps
            rec = n_match / n_ref if n_ref > 0 else eps
            denom = factor * prec + rec
            score += ((1 + factor) * prec * rec / denom) if denom > 0 else eps
            # sacreBLEU <2.0.0 style effective order smoothing
            if n_hyp > 0 and n_ref > 0:
                avg_prec += prec
                avg_rec += rec
                effective_order += 1
        if self.eps_smoothing:
            return 100 * score / self.order
        if effective_order == 0:
            avg_prec = avg_rec = 0.0
        else:
            avg_prec /= effective_order
            avg_rec /= effective_order
        if avg_prec + avg_rec:
            score = (1 + factor) * avg_prec * avg_rec
            score /= (factor * avg_prec) + avg_rec
            return 100 * score
        return 0.0

    def _remove_punctuation(self, sent: str) -> list[str]:
        """Split one punctuation character off word edges, as SacreBLEU's chrF++ does.

        A token longer than one character loses its last character if that is ASCII
        punctuation, else its first if that is (so ``(hi)`` becomes ``(hi`` and ``)``).
        """
        tokenized = []
        for w in sent.split():
            if len(w) == 1:
                tokenized.append(w)
            elif w[-1] in self._PUNCTS:
                tokenized += [w[:-1], w[-1]]
            elif w[0] in self._PUNCTS:
                tokenized += [w[0], w[1:]]
            else:
                tokenized.append(w)
        return tokenized
