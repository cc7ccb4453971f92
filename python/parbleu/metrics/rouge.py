"""ROUGE (Lin 2004) exactly as Google's ``rouge-score`` 0.1.2 computes it, in parbleu's API.

The numbers come from the core's engine (:mod:`parbleu.metrics.rouge_engine`); this
module fits them into :class:`~parbleu.metrics.base.Metric`. rouge-score's corpus number is an
average of per-pair scores, not a ratio of summed counts, so a statistics row is one pair's
precision, recall and F-measure of every type plus a pair count of 1 (float64, like TER's
rows): rows add, and a summed row divided by its count is the mean. Pairwise tables and MBR
score each (hypothesis, reference) pair in the core: ``100 *`` the first rouge type's
``pair_measure`` (F-measure by default, as the reported column), rouge-score's
``RougeScorer([type]).score(reference, hypothesis)``.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Optional

from .. import _core
from .._options import MAX_RESAMPLES, check_count
from ..errors import InputTypeError, InvalidOptionError
from ..signature import Signature
from .base import Metric
from .options import ROUGE_OPTIONS
from .rouge_results import RougeAggregate, RougeMeasures, RougeScore
from .schema import abbreviations, check_option

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .rouge_engine import RougeBatch

__all__ = ["ROUGE", "ROUGESignature", "RougeScore"]

#: Reference streams, or ``None`` for the constructor's.
_Streams = Optional[Sequence[Sequence[Optional[str]]]]

logger = logging.getLogger("parbleu")

#: ``pair_measure`` choices: rouge-score's ``Score`` fields.
_PAIR_MEASURES = ("fmeasure", "precision", "recall")

#: Share of letters and digits the default tokenizer may drop before ROUGE warns.
_DISCARD_WARN = 0.5
#: Pairs looked at for that warning (the share of a large input is stable long before).
_DISCARD_SAMPLE = 2000


class ROUGESignature(Signature):
    """ROUGE's signature: ``nrefs|types|tok|stem|split|version`` (+ ``bs|boot|rs``)."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self.abbreviate(abbreviations(ROUGE_OPTIONS))
        boot = args.get("n_bootstrap")
        self.info.update(
            {
                "types": "+".join(args["rouge_types"]),
                "tok": args["tokenize"],
                "stem": bool(args["use_stemmer"]),
                "split": bool(args["split_summaries"]),
                "boot": args["bootstrap"] if boot else None,
                "ci": args["confidence_interval"] if boot else None,
                "nl": args["newline"],
            }
        )


class _RougeRefs:
    """References per segment, as the engine takes them (``None`` entries dropped)."""

    def __init__(self, streams: list[list[Any]], newline: str | None) -> None:
        self.per_segment = [[r for r in refs if r is not None] for refs in zip(*streams)]
        if newline is not None:
            self.per_segment = [[_breaks(r, newline) for r in refs] for refs in self.per_segment]

    def __len__(self) -> int:
        return len(self.per_segment)

    def first_segment_without_refs(self) -> int | None:
        return next((i for i, r in enumerate(self.per_segment) if not r), None)

    def ref_counts(self) -> list[int]:
        return sorted({len(r) for r in self.per_segment})


class ROUGE(Metric[RougeScore]):
    """ROUGE-N, ROUGE-L and ROUGE-Lsum with rouge-score 0.1.2's numbers.

    Parameters
    ----------
    rouge_types
        Among ``rouge1`` .. ``rouge9``, ``rougeL`` and ``rougeLsum`` (summary-level LCS over
        newline-separated sentences). The first one is the printed ``score``.
    use_stemmer
        NLTK's Porter stemmer on tokens longer than 3 characters, as rouge-score.
    split_summaries
        ``rougeLsum`` sentences from ``nltk.sent_tokenize`` (needs NLTK's punkt data) instead
        of newlines, as rouge-score.
    tokenize
        ``"default"``: rouge-score's tokenizer (lowercase, ``[a-z0-9]`` runs only: every
        non-ASCII letter is dropped); ``"unicode"``: letters and digits of every script, CJK
        characters one by one (not in rouge-score); ``"none"``: pre-tokenized text, split on
        whitespace (not in rouge-score).
    bootstrap
        With ``n_bootstrap > 1``: ``"parbleu"`` resamples with the core's RNG under ``seed``
        (the same bounds for every thread count); ``"rouge-score"`` draws from numpy's global
        RNG exactly as ``BootstrapAggregator`` (bit-equal after ``np.random.seed(seed)``; with
        ``seed`` given the global RNG is seeded for the draw and restored after).
    confidence_interval
        The bootstrap interval's coverage, in ``[0, 1]``.
    seed
        The bootstrap seed (``None``: 12345 for ``"parbleu"``, numpy's current state for
        ``"rouge-score"``).
    newline
        Text that stands for a sentence break in one-line summaries (``"<n>"`` as PEGASUS
        writes it, or a backslash and an ``n``): replaced by a newline before scoring, so that
        ``rougeLsum`` sees the sentences (not in rouge-score; ``None``: nothing replaced).
    pair_measure
        What :func:`parbleu.pairwise` and :func:`parbleu.mbr` score for each pair:
        ``"fmeasure"`` (the default, as the reported column), ``"precision"`` or ``"recall"``
        of the first rouge type, times 100 (precision is the hypothesis's, as rouge-score's
        ``score(reference, hypothesis)``). Corpus and sentence scores do not depend on it.
    references
        Reference streams to keep for every ``corpus_score`` call.
    """

    _SIGNATURE_TYPE = ROUGESignature
    metric_name = "rouge"
    higher_is_better: ClassVar[bool] = True
    # The core's ROUGE pair table declares rectangles only: precision and recall swap with the
    # roles, and a mean reference has no LCS.
    symmetric_pairs: ClassVar[bool] = False
    aggregates_references: ClassVar[bool] = False
    # An LCS or n-gram count per pair, about 16 times a BLEU pair (sizes progress blocks).
    pair_cost: ClassVar[int] = 16

    def __init__(
        self,
        rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenize: str = "default",
        bootstrap: str = "parbleu",
        confidence_interval: float = 0.95,
        seed: int | None = None,
        newline: str | None = None,
        pair_measure: str = "fmeasure",
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        super().__init__()
        from .rouge_engine import check_rouge_types

        if isinstance(rouge_types, str):
            rouge_types = rouge_types.replace("+", " ").replace(",", " ").split()
        self.rouge_types = check_rouge_types(rouge_types)
        # The option checks come from the schema (metrics/options.py), as the CLI flags do.
        opts = {o.name: o for o in ROUGE_OPTIONS}
        self.use_stemmer = check_option(opts["use_stemmer"], use_stemmer)
        self.split_summaries = check_option(opts["split_summaries"], split_summaries)
        self.tokenize = check_option(opts["tokenize"], tokenize)
        self.bootstrap = check_option(opts["bootstrap"], bootstrap)
        self.confidence_interval = check_option(opts["confidence_interval"], confidence_interval)
        self.seed = check_option(opts["seed"], seed)
        if newline is not None and (not isinstance(newline, str) or not newline):
            raise InvalidOptionError(f"newline={newline!r}: expected a non-empty string or None")
        self.newline = newline
        if pair_measure not in _PAIR_MEASURES:
            raise InvalidOptionError(
                f"pair_measure={pair_measure!r}: expected one of "
                f"{', '.join(map(repr, _PAIR_MEASURES))}"
            )
        self.pair_measure = pair_measure
        self._warned_discard = False
        if references is not None:
            self._ref_cache = self._cache_references(references)

    # --- statistics -----------------------------------------------------------------------
    @property
    def stats_width(self) -> int:
        """``3 * len(rouge_types) + 1``: per type precision, recall, F-measure; then 1.0."""
        return 3 * len(self.rouge_types) + 1

    def stats_key(self) -> tuple[Any, ...]:
        """Return the options the rows depend on."""
        return (
            "rouge",
            "+".join(self.rouge_types),
            self.use_stemmer,
            self.split_summaries,
            self.tokenize,
            self.newline,
        )

    _ROW_DTYPE = "<f8"

    def _prepare_refs(self, streams: list[list[Any]], workers: int) -> Any:
        return _RougeRefs(streams, self.newline)

    def _batch(self, prepared: Any, hyps: list[str], workers: int) -> RougeBatch:
        """Score every pair in the engine (warning once about a discarding tokenizer)."""
        from . import rouge_engine as engine

        refs: list[list[str]] = prepared.per_segment
        if self.newline is not None:
            hyps = [_breaks(h, self.newline) for h in hyps]
        if self.tokenize == "default" and not self._warned_discard:
            sample = hyps[:_DISCARD_SAMPLE] + [r for rs in refs[:_DISCARD_SAMPLE] for r in rs]
            if all(isinstance(t, str) for t in sample):
                share = engine.discarded_share(sample)
                if share.fraction > _DISCARD_WARN:
                    self._warned_discard = True
                    logger.warning(
                        "ROUGE: the default tokenizer (rouge-score's) discards %.0f%% of the "
                        "letters and digits of this input (it keeps only a-z and 0-9); use "
                        'tokenize="unicode" (--rouge-tokenize unicode) for non-Latin text',
                        100 * share.fraction,
                        # SacreBLEU has no ROUGE: the command line prints "parbleu:".
                        extra={"parbleu_own": True},
                    )
        return engine.score_batch(
            hyps,
            refs,
            self.rouge_types,
            use_stemmer=self.use_stemmer,
            split_summaries=self.split_summaries,
            tokenizer=self.tokenize,
            workers=workers,
        )

    @staticmethod
    def _batch_rows(batch: RougeBatch) -> npt.NDArray[np.float64]:
        import numpy as np

        n = len(batch)
        rows = np.ones((n, 3 * len(batch.rouge_types) + 1), dtype=np.float64)
        rows[:, :-1] = batch.scores.reshape(n, -1)
        return rows

    def _extract_raw(self, prepared: Any, hyps: list[str], workers: int) -> bytes:
        return self._batch_rows(self._batch(prepared, hyps, workers)).tobytes()

    def _sum_raw(self, data: bytes, n_rows: int) -> list[Any]:
        import numpy as np

        return self._sum_rows(np.frombuffer(data, dtype="<f8").reshape(n_rows, -1))

    def _sum_rows(self, rows: npt.NDArray[Any]) -> list[Any]:
        # Along axis 0 of a C-ordered matrix numpy adds row after row, in index order: the
        # same bits as np.mean(per_pair_scores, axis=0), rouge-score's mean of a sample.
        import numpy as np

        return np.ascontiguousarray(rows, dtype=np.float64).sum(axis=0).tolist()  # type: ignore[no-any-return]

    def add_rows(self, total: list[Any] | None, rows: npt.NDArray[Any]) -> list[Any]:
        """Return ``total`` (``None`` before the first block) plus the rows' column sums.

        Floats added row after row in index order, as :meth:`corpus_score` adds them (the base
        class's integer cast would truncate them).
        """
        import numpy as np

        if total is None:
            return self._sum_rows(rows)
        return self._sum_rows(np.vstack([np.asarray([total], dtype=np.float64), rows]))

    # --- one column per rouge type, resampled in the core --------------------------------
    #: The rouge type this object is the column of (``columns()``), else ``None``.
    _column: str | None = None

    def columns(self) -> list[Any]:
        """Return one single-type ROUGE per rouge type (itself with a single type).

        Each column's score is its type's mean F-measure x 100, named after the type
        (``rouge1``): tables, significance and the report show every type with its own
        intervals and pairs.

        Returns
        -------
        list of ROUGE
            One per distinct type, in order.
        """
        types = tuple(dict.fromkeys(self.rouge_types))
        if len(types) == 1 and self._column is not None:
            return [self]
        out = []
        for t in types:
            col = copy.copy(self)
            col.rouge_types = (t,)
            col._column = t
            out.append(col)
        return out

    @property
    def title(self) -> str:
        """``ROUGE``, or a column's rouge type (``rouge1``)."""
        return self._column if self._column is not None else "ROUGE"

    def core_scorer(self) -> Any:
        """Return the core's mean scorer: the first type's F-measure x 100, resampled.

        A row is per type precision, recall, F-measure, then a count of 1.0; a summed row
        scores ``100 * row[2] / row[-1]`` (``_core.Scorer.mean``), the mean of the resampled
        segments' F-measures.

        Returns
        -------
        parbleu._core.Scorer
            The scorer (float rows).
        """
        return _core.Scorer.mean(self.stats_width, 2, 100.0)

    def core_options(self) -> Any:
        """Return the first rouge type's options with ``pair_measure``, built once.

        See :meth:`Metric.core_options`.

        Returns
        -------
        parbleu._core.RougeOptions
            The options of this metric's pair table.
        """
        args = (self.rouge_types[0], self.tokenize, bool(self.use_stemmer), self.pair_measure)
        return self._cached_core_options(_core.RougeOptions, args)

    def pair_table(self, strings: list[str], workers: int) -> Any:
        """Return the core's ROUGE pair table of ``strings`` (see :meth:`Metric.pair_table`).

        Each pair scores ``100 *`` ``pair_measure`` of the first rouge type, as
        ``rouge_scorer.RougeScorer([type]).score(reference, hypothesis)``; ``newline`` and
        ``split_summaries`` apply to every string first, as in :meth:`corpus_score`.

        Parameters
        ----------
        strings
            The hypotheses, then (if any) the references.
        workers
            Threads (resolved: >= 1).

        Returns
        -------
        parbleu._core.PairTable
            The table (``score_rect`` only).
        """
        from .rouge_engine import sentence_splitter

        texts = strings
        if self.newline is not None:
            texts = [_breaks(t, self.newline) for t in texts]
        if self.split_summaries and self.rouge_types[0] == "rougeLsum":
            split = sentence_splitter()
            texts = [split(t) for t in texts]
        return _core.PairTable(texts, self.core_options(), workers)

    def _score_row(self, row: Sequence[Any]) -> RougeScore:
        n = float(row[-1])
        if n <= 0:
            from ..errors import StatisticsError

            raise StatisticsError("ROUGE: the statistics row counts no pair (last column 0)")
        mean = {
            t: RougeMeasures(*(float(row[3 * k + j]) / n for j in range(3)))
            for k, t in enumerate(self.rouge_types)
        }
        score = RougeScore(self.rouge_types, mean, int(n))
        if self._column is not None:
            score.name = self._column
        return score

    def _score_rows(self, rows: npt.NDArray[Any], workers: int) -> npt.NDArray[np.float64]:
        import numpy as np

        arr = np.asarray(rows, dtype=np.float64)
        return 100 * arr[:, 2] / arr[:, -1]

    # --- SacreBLEU's API, with rouge-score's bootstrap -------------------------------------
    def corpus_score(
        self, hypotheses: Sequence[str], references: _Streams, n_bootstrap: int = 1, **kw: Any
    ) -> RougeScore:
        """Mean per-pair ROUGE of a corpus; with ``n_bootstrap > 1`` also its bootstrap bounds.

        Parameters
        ----------
        hypotheses
            One string per segment (multi-sentence summaries: sentences separated by newlines
            for ``rougeLsum``).
        references
            Reference streams, or ``None`` for the cached ones. With several, each type takes
            the best reference by F-measure (rouge-score's ``score_multi``).
        n_bootstrap
            If > 1, the number of bootstrap samples (rouge-score's ``n_samples``): the result's
            ``aggregate`` holds low/mid/high per type.
        **kw
            ``workers``: threads; the numbers do not depend on it.

        Returns
        -------
        RougeScore
            The means (``mean``), the first type's F-measure x 100 (``score``) and, with a
            bootstrap, ``aggregate``.
        """
        workers = _workers(kw)
        n_bootstrap = check_count("n_bootstrap", n_bootstrap, 0, MAX_RESAMPLES)
        if n_bootstrap <= 1:
            return super().corpus_score(hypotheses, references, workers=workers)
        batch = self._per_segment(hypotheses, references, workers, self._batch)
        score = self._score_row(self._sum_rows(self._batch_rows(batch)))
        score.set_aggregate(self._bootstrap(batch, n_bootstrap, workers))
        self.n_bootstrap = n_bootstrap
        return score

    def _bootstrap(
        self, batch: RougeBatch, n_samples: int, workers: int | None
    ) -> dict[str, RougeAggregate]:
        from . import rouge_engine as engine

        bounds: list[Any]
        if self.bootstrap == "parbleu":
            seed = 12345 if self.seed is None else self.seed
            bounds = list(
                engine.bootstrap_stats(
                    batch,
                    confidence_interval=self.confidence_interval,
                    n_samples=n_samples,
                    seed=seed,
                    workers=workers,
                )
            )
        else:
            bounds = _numpy_bootstrap(batch, n_samples, self.confidence_interval, self.seed)
        out: dict[str, RougeAggregate] = {}
        for t, b in zip(batch.rouge_types, bounds):
            if t not in out:  # a repeated type is one entry, as rouge-score's dicts
                out[t] = RougeAggregate(*(RougeMeasures(*map(float, b[i])) for i in range(3)))
        return out


def _workers(kw: dict[str, Any]) -> int | None:
    """``workers`` of ``corpus_score``'s keywords (the only one it takes)."""
    workers = kw.pop("workers", None)
    if kw:
        raise InputTypeError(f"corpus_score: unexpected keyword {next(iter(kw))!r}")
    return workers  # type: ignore[no-any-return]


def _breaks(text: Any, newline: str) -> Any:
    """``text`` with ``newline`` replaced by newlines (a non-string is left to the engine)."""
    return text.replace(newline, "\n") if isinstance(text, str) else text


def _numpy_bootstrap(
    batch: RougeBatch, n_samples: int, confidence_interval: float, seed: int | None
) -> list[Any]:
    """rouge-score's draws from numpy's global RNG, one type after the other as it does."""
    import numpy as np

    from . import rouge_engine as engine

    state = None
    if seed is not None:
        state = np.random.get_state()
        np.random.seed(seed)
    try:
        seen: dict[str, Any] = {}
        for k, t in enumerate(batch.rouge_types):
            if t not in seen:  # rouge-score's dict holds a repeated type once: one draw
                seen[t] = engine.bootstrap_compat(
                    np.ascontiguousarray(batch.scores[:, k, :]),
                    confidence_interval=confidence_interval,
                    n_samples=n_samples,
                )
        return [seen[t] for t in batch.rouge_types]
    finally:
        if state is not None:
            np.random.set_state(state)
