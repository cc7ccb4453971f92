"""TER (Snover et al., 2006) exactly as SacreBLEU 2.6 computes it."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .. import _core
from ..score import Score
from ..signature import Signature
from .base import Metric
from .options import TER_OPTIONS
from .schema import abbreviations

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


class TERSignature(Signature):
    """TER's signature: ``nrefs|case|tok|norm|punct|asian|version``."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self.abbreviate({**abbreviations(TER_OPTIONS), "tok": "t"})
        self.info.update(
            {
                "case": "mixed" if args["case_sensitive"] else "lc",
                "tok": args["tokenizer_signature"],
                "norm": args["normalized"],
                "punct": not args["no_punct"],
                "asian": args["asian_support"],
            }
        )


class TERScore(Score):
    """A TER score, as SacreBLEU's ``TERScore``.

    Parameters
    ----------
    score
        TER, 0-100 (may exceed 100).
    num_edits
        Total edits (stored as an int).
    ref_length
        Total of the per-segment mean reference lengths.
    """

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TercomTokenizer:
    """SacreBLEU's ``TercomTokenizer`` (Tercom's normalizer), implemented in the core.

    Parameters
    ----------
    normalized, no_punct, asian_support, case_sensitive
        As :class:`TER`.
    """

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        self._normalized = bool(normalized)
        self._no_punct = bool(no_punct)
        self._asian_support = bool(asian_support)
        self._case_sensitive = bool(case_sensitive)

    def options(self) -> tuple[bool, bool, bool, bool]:
        """Return ``(normalized, no_punct, asian_support, case_sensitive)``."""
        return (self._normalized, self._no_punct, self._asian_support, self._case_sensitive)

    def core_options(self) -> Any:
        """Return the options as one ``_core.TerOptions`` (built on first use, then kept).

        Returns
        -------
        parbleu._core.TerOptions
            The options every ``_core`` call of TER takes.
        """
        # Not pickled with the tokenizer (a core object): see `__getstate__`.
        opts = self.__dict__.get("_core_options")
        if opts is None:
            opts = self.__dict__["_core_options"] = _core.TerOptions(*self.options())
        return opts

    def __getstate__(self) -> dict[str, Any]:
        """Return the state to pickle or copy, without the cached core options.

        Returns
        -------
        dict
            The instance attributes less :meth:`core_options`'s cache.
        """
        state = dict(self.__dict__)
        state.pop("_core_options", None)
        return state

    def __call__(self, sent: str) -> str:
        """Tokenize one line (no ``rstrip``: TER strips before calling)."""
        out: list[str] = _core.tercom_tokenize([sent], self.core_options())
        return out[0]

    def signature(self) -> str:
        """``tercom``."""
        return "tercom"


class TER(Metric[TERScore]):
    """Translation edit rate with SacreBLEU's constructor arguments and results.

    Each segment contributes the fewest edits over its references (shifts, insertions,
    deletions, substitutions; the first reference wins ties) and the mean length of its
    references. Shifts follow SacreBLEU's Tercom-like beam search exactly.

    Parameters
    ----------
    normalized
        Tercom normalization (XML entities, punctuation tokenization; with
        ``asian_support``, CJK characters split one by one).
    no_punct
        Remove punctuation (with ``asian_support``, CJK and full-width punctuation too).
    asian_support
        Special treatment of Asian characters (only with ``normalized`` or ``no_punct``).
    case_sensitive
        Do not lowercase.
    references
        Reference streams to tokenize once and reuse in every ``corpus_score`` call.
    """

    _SIGNATURE_TYPE = TERSignature
    metric_name = "ter"

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        super().__init__()
        self.no_punct = no_punct
        self.normalized = normalized
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.tokenizer = TercomTokenizer(
            normalized=self.normalized,
            no_punct=self.no_punct,
            asian_support=self.asian_support,
            case_sensitive=self.case_sensitive,
        )
        self.tokenizer_signature = self.tokenizer.signature()
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _preprocess_segment(self, sent: str) -> str:
        """Tokenize one segment as TER does (``rstrip``, then the Tercom tokenizer)."""
        return self.tokenizer(sent.rstrip())

    # --- statistics ---------------------------------------------------------------------
    @property
    def stats_width(self) -> int:
        """2: fewest edits over the references, mean reference length (float64)."""
        return 2

    def stats_key(self) -> tuple[Any, ...]:
        """Return the tokenizer options: what the rows depend on."""
        return ("ter", *self.tokenizer.options())

    # --- the core objects and capabilities ----------------------------------------------
    higher_is_better: ClassVar[bool] = False
    symmetric_pairs: ClassVar[bool] = False
    pair_cost: ClassVar[int] = 256
    aggregates_references: ClassVar[bool] = False

    def core_scorer(self) -> Any:
        """Return the core's TER finalize step, for float rows (see :meth:`Metric.core_scorer`)."""
        return _core.Scorer.ter()

    def core_options(self) -> Any:
        """Return the tokenizer's options as one ``_core.TerOptions``.

        See :meth:`Metric.core_options`.

        Returns
        -------
        parbleu._core.TerOptions
            The options every ``_core`` call of this metric takes (kept by the tokenizer).
        """
        return self.tokenizer.core_options()

    def pair_table(self, strings: list[str], workers: int) -> Any:
        """Return the core's TER pair table of ``strings`` (see :meth:`Metric.pair_table`)."""
        return _core.PairTable.ter(strings, self.core_options(), workers)

    def add_rows(self, total: list[Any] | None, rows: npt.NDArray[Any]) -> list[Any]:
        """Add a block of rows to a running total, floats in SacreBLEU's order.

        Parameters
        ----------
        total
            The total so far, or ``None``.
        rows
            An ``(n, 2)`` statistics matrix.

        Returns
        -------
        list
            ``[edits, ref_length]``.
        """
        import numpy as np

        prev = np.zeros((1, 2)) if total is None else np.asarray([total])
        return list(_core.ter_sum(np.ascontiguousarray(np.vstack([prev, rows]))))

    def _prepare_refs(self, streams: list[list[Any]], workers: int) -> Any:
        return _core.TerRefs(streams, self.core_options(), workers)

    _ROW_DTYPE = "<f8"

    def _extract_raw(self, prepared: Any, hyps: list[str], workers: int) -> bytes:
        data: bytes = prepared.extract(hyps, workers)
        return data

    def _sum_raw(self, data: bytes, n_rows: int) -> list[Any]:
        if sys.byteorder != "little":
            return super()._sum_raw(data, n_rows)
        if n_rows == 1:
            return [float(x) for x in memoryview(data).cast("d")]
        # The Rust sum of _sum_rows reads any float64 buffer: no numpy needed.
        edits, ref_len = _core.ter_sum(memoryview(data).cast("d"))
        return [edits, ref_len]

    def _sum_rows(self, rows: npt.NDArray[Any]) -> list[Any]:
        # SacreBLEU adds segment rows one after the other; a pairwise sum would differ in the
        # last bits of the (fractional) mean reference lengths.
        import numpy as np

        if len(rows) == 1:
            return [float(x) for x in rows[0]]
        arr = np.ascontiguousarray(rows, dtype=np.float64)
        edits, ref_len = _core.ter_sum(arr)
        return [edits, ref_len]

    def _score_row(self, row: Sequence[Any]) -> TERScore:
        total_edits, sum_ref_lengths = float(row[0]), float(row[1])
        if sum_ref_lengths > 0:
            score = total_edits / sum_ref_lengths
        elif total_edits > 0:
            score = 1.0  # empty reference(s) and non-empty hypothesis
        else:
            score = 0.0  # both reference(s) and hypothesis are empty
        return TERScore(100 * score, total_edits, sum_ref_lengths)

    def _score_rows(self, rows: npt.NDArray[Any], workers: int) -> npt.NDArray[np.float64]:
        import numpy as np

        arr = np.ascontiguousarray(rows, dtype=np.float64)
        data = _core.ter_scores(arr, workers)
        return np.frombuffer(data, dtype="<f8").copy()
