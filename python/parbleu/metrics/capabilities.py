"""A metric's core objects and capabilities: what significance, pairwise and streaming ask.

Other modules never test a metric's type ("is this BLEU?"); they read these attributes and
call these methods, which each metric overrides (``metrics/bleu.py``, ``chrf.py``, ``ter.py``).
The defaults say "not supported" in one clear error naming the metric.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ..errors import InvalidOptionError

__all__ = ["MetricCapabilities"]


class MetricCapabilities:
    """The capability attributes and core-object methods of :class:`~.base.Metric`."""

    #: Whether a larger score is better (TER, an edit rate, is lower-is-better).
    higher_is_better: ClassVar[bool] = True
    #: Whether a pair's score is symmetric, so a core pair table scores each unordered pair
    #: once (TER's edit rate is not: it is normalised by the reference length).
    symmetric_pairs: ClassVar[bool] = True
    #: Relative cost of scoring one pair in the core's pair table (sizes pairwise blocks
    #: between progress reports; TER aligns, about 256 times BLEU's cost).
    pair_cost: ClassVar[int] = 1
    #: Whether reference aggregation (``mbr(..., aggregate=True)``) is defined: mean n-gram
    #: counts are (BLEU, chrF); a mean alignment is not (TER).
    aggregates_references: ClassVar[bool] = True
    #: Whether the statistics are word n-gram matches in BLEU's column layout, so that
    #: reports can break them down by word (:meth:`word_tokenization` then applies).
    word_ngram_stats: ClassVar[bool] = False

    _force: bool

    def _unsupported(self, lacks: str) -> InvalidOptionError:
        # The metrics with core objects; a registered metric without them says so by name.
        return InvalidOptionError(
            f"metric: {type(self).__name__} {lacks}; expected a parbleu BLEU, CHRF or TER object"
        )

    def core_options(self) -> Any:
        """Return this metric's typed options object for the core, built once.

        The options, validated by :mod:`parbleu._options` when the metric was made, converted
        once into ``_core.BleuOptions``, ``_core.ChrfOptions`` or ``_core.TerOptions``; every
        ``_core`` call of the metric takes that object instead of a positional list. It is
        cached on the option values (a copy whose options change builds its own) and is not
        pickled (see ``__getstate__``).

        Returns
        -------
        parbleu._core.BleuOptions or parbleu._core.ChrfOptions or parbleu._core.TerOptions
            The options object.

        Raises
        ------
        InvalidOptionError
            The metric has no core options (a metric other than BLEU, chrF and TER).
        """
        raise self._unsupported("has no core options")

    def _cached_core_options(self, cls: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        # Keyed on the values: options are plain attributes that a caller (or a copy made by
        # `sentence_metric`) may change after the first call.
        cached = self.__dict__.get("_core_options_cache")
        if cached is not None and cached[0] is cls and cached[1] == args:
            return cached[2]
        opts = cls(*args)
        self.__dict__["_core_options_cache"] = (cls, args, opts)
        return opts

    def __getstate__(self) -> dict[str, Any]:
        """Return the state to pickle or copy, without the cached core options.

        Returns
        -------
        dict
            The instance attributes less ``core_options()``'s cache (a core object, which
            does not pickle; it is rebuilt on first use).
        """
        state = dict(self.__dict__)
        state.pop("_core_options_cache", None)
        return state

    def core_scorer(self) -> Any:
        """Return the core's finalize step (``_core.Scorer``) for this metric's options.

        Significance tests resample statistics rows and finalize them in the core with it.

        Returns
        -------
        parbleu._core.Scorer
            The scorer (``width`` columns; ``float_rows`` for TER's float statistics).

        Raises
        ------
        InvalidOptionError
            The metric has no core scorer (a metric other than BLEU, chrF and TER).
        """
        raise self._unsupported("is not supported by parbleu.significance")

    def pair_table(self, strings: list[str], workers: int) -> Any:
        """Return the core's pair table of ``strings`` (every string against every other).

        Parameters
        ----------
        strings
            The hypotheses, then (if any) the references, checked to be strings.
        workers
            Threads (resolved: >= 1).

        Returns
        -------
        parbleu._core.PairTable
            The table (``score_symmetric``, ``score_rect``, ``score_aggregate``).

        Raises
        ------
        InvalidOptionError
            The metric has no pair table.
        """
        raise self._unsupported("has no pairwise scoring")

    def word_tokenization(self) -> tuple[Callable[[str], str], bool]:
        """Return the word tokenizer and lowercasing of metrics with ``word_ngram_stats``.

        Returns
        -------
        tuple
            ``(tokenizer, lowercase)``: ``tokenizer(line)`` gives space-separated tokens.

        Raises
        ------
        InvalidOptionError
            The metric does not count words (``word_ngram_stats`` is false).
        """
        raise InvalidOptionError(f"metric: {type(self).__name__} does not count word n-grams")

    @property
    def checks_tokenized_period(self) -> bool:
        """Whether scoring warns about 100+ lines ending in a tokenized period (BLEU, unforced).

        Set it to ``False`` to suspend the check (streaming checks once for a whole file).
        """
        return not self._force

    @checks_tokenized_period.setter
    def checks_tokenized_period(self, value: bool) -> None:
        self._force = not value
