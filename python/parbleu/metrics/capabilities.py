"""A metric's core objects and capabilities: what significance, pairwise and streaming ask.

Other modules never test a metric's type ("is this BLEU?"); they read these attributes and
call these methods, which each metric overrides (``metrics/bleu.py``, ``chrf.py``, ``ter.py``).
The defaults say "not supported" in one clear error naming the metric.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ..errors import InvalidOptionError
from .schema import Capabilities, lacks

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
    #: Whether scores are on SacreBLEU's 0-100 scale, so the report draws sentence-score
    #: histograms over 0-100 (TER's overflow above 100 gets its own bar); imported scores
    #: (COMET near 0-1, MetricX 0-25) are not, and the report draws their data's range.
    percent_scale: ClassVar[bool] = True
    #: Whether statistics rows may hold negative values: the checks that statistics are
    #: counts (>= 0) then refuse only NaN and infinities. Imported scores (a mean of any
    #: real numbers: COMET-QE, negated error counts) are; every built-in metric counts.
    signed_rows: ClassVar[bool] = False

    #: Name of the metric in the registry, statistics keys and messages.
    metric_name = "metric"
    #: Capabilities of a metric that is not registered (a subclass under a new name): none of
    #: the optional ones, so every surface refuses it by name instead of guessing.
    unregistered_capabilities: ClassVar[Capabilities] = Capabilities(
        sentence_scores=True, streaming=True, merge=True
    )

    _force: bool

    def entry(self) -> Any:
        """Return this metric's ``registry.MetricEntry`` (by ``metric_name``), or ``None``."""
        from . import _table

        return _table.find(self.metric_name)

    @property
    def title(self) -> str:
        """Display name: the registry entry's title, else the class name."""
        entry = self.entry()
        return entry.title if entry is not None else type(self).__name__

    @property
    def capabilities(self) -> Capabilities:
        """What this metric can do: its registry entry's declared :class:`Capabilities`."""
        entry = self.entry()
        return entry.capabilities if entry is not None else self.unregistered_capabilities

    def require(self, capability: str, surface: str) -> None:
        """Raise the one-line refusal if this metric lacks ``capability`` (see ``Capabilities``).

        Parameters
        ----------
        capability
            A :class:`Capabilities` field (``"resample"``, ``"pairwise"``, ...).
        surface
            What asks, for the message (``--paired-bs``, ``parbleu.significance``).

        Raises
        ------
        InvalidOptionError
            The metric lacks it.
        """
        if not getattr(self.capabilities, capability):
            raise lacks(self.title, capability, surface)

    def _unsupported(self, capability: str, surface: str) -> InvalidOptionError:
        # A metric that declares a capability must implement its method: say so by name.
        if getattr(self.capabilities, capability):
            return InvalidOptionError(
                f"{surface}: metric {self.title} declares the {capability!r} capability but "
                f"does not implement it"
            )
        return lacks(self.title, capability, surface)

    def core_options(self) -> Any:
        """Return this metric's typed options object for the core, built once.

        The options, validated by :mod:`parbleu._options` when the metric was made, converted
        once into ``_core.BleuOptions``, ``_core.ChrfOptions``, ``_core.TerOptions`` or (ROUGE's
        pair table) ``_core.RougeOptions``; every
        ``_core`` call of the metric takes that object instead of a positional list. It is
        cached on the option values (a copy whose options change builds its own) and is not
        pickled (see ``__getstate__``).

        Returns
        -------
        parbleu._core.BleuOptions, ChrfOptions, TerOptions or RougeOptions
            The options object.

        Raises
        ------
        InvalidOptionError
            The metric has no core options (a metric other than BLEU, chrF, TER and ROUGE).
        """
        raise InvalidOptionError(f"metric: {self.title} has no core options")

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
        raise self._unsupported("resample", "parbleu.significance")

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
        raise self._unsupported("pairwise", "pairwise")

    def columns(self) -> list[Any]:
        """Return the metrics this one reports as columns: itself, or one per sub-score.

        A table, a significance test and the report show one column per returned metric,
        each with its own scores, intervals and pairs (ROUGE: one per rouge type).

        Returns
        -------
        list of Metric
            ``[self]`` unless the metric has several reported scores.
        """
        return [self]

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
