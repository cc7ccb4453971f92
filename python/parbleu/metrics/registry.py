"""The metric registry: the one place a metric's name, factory, options, help and profile live.

Every consumer reads it when it needs the names (the command line's ``-m`` choices when the
parser is built, error messages when they are worded, ``pairwise``/``streaming``/``report``/
``distributed`` when a name is resolved), so a metric registered later is found everywhere.
This module imports nothing heavy and no consumer: an entry refers to its class and to its
command-line options by ``"module:attr"`` strings (or callables), resolved on first use.

>>> get_metric("chrf++").name
'chrf'
>>> metric_names()[:3]
('bleu', 'chrf', 'ter')
>>> get_metric("rouge").capabilities.rows
'float'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .._record import field, record
from ..errors import InvalidOptionError
from . import _table
from .schema import Capabilities, MetricOption, add_option_group, check_option, lacks

if TYPE_CHECKING:
    import argparse

    from .base import Metric

__all__ = [
    "Capabilities",
    "MetricEntry",
    "MetricOption",
    "MetricProfile",
    "find_metric",
    "get_metric",
    "make_metric",
    "metric_aliases",
    "metric_names",
    "register_metric",
    "unregister_metric",
]


@record
class MetricProfile:
    """What docs, the report and the command line show of a metric.

    Parameters
    ----------
    higher_is_better
        Direction of the score (``False`` for TER); the class's ``higher_is_better`` agrees
        (tests/unit/test_metric_registry.py checks it).
    in_report_default
        Part of ``parbleu report``'s and ``parbleu.report``'s default metrics.
    title
        Display name (``BLEU``, ``chrF``, ``TER``).
    """

    higher_is_better: bool = True
    in_report_default: bool = False
    title: str = ""


@record
class MetricEntry:
    """One metric: its names, how to build it, its command-line options and its profile.

    Parameters
    ----------
    name
        Lower-case name: a ``-m`` choice and a name the APIs take.
    factory
        The class (or any callable returning a ``Metric``), or ``"module:attr"`` naming it,
        imported on first use.
    help
        One line: what the metric is.
    profile
        Facts shown by docs and the report.
    aliases
        Other names the APIs take (not ``-m`` choices), each with the constructor options it
        stands for: ``{"chrf++": {"word_order": 2}}``.
    corpus_defaults
        Constructor options of a corpus-level metric made from the name (``BLEU()``: none).
    sentence_defaults
        Constructor options of a sentence-level metric made from the name, as SacreBLEU's
        ``sentence_*`` functions and ``--sentence-level`` (BLEU: ``effective_order=True``).
    add_arguments
        ``(parser) -> None`` adding the metric's command-line options, or ``"module:attr"``
        naming it; every destination starts with :attr:`option_prefix`. ``None``: no option.
    language_option
        Constructor option that receives the target language of ``-l SRC-TRG`` (BLEU:
        ``trg_lang``), or ``None``.
    capabilities
        What the metric can do (:class:`~.schema.Capabilities`): every surface reads these
        before it does any work.
    options
        The option schema (:class:`~.schema.MetricOption` each), or ``"module:attr"`` naming
        it: the command-line group, the option checks and the signature's field names are
        generated from it.
    option_group
        The title of the command-line group (default ``"<title> related arguments"``).
    """

    name: str
    factory: str | Callable[..., Metric[Any]]
    help: str
    profile: MetricProfile = field(default_factory=MetricProfile)
    aliases: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    corpus_defaults: Mapping[str, Any] = field(default_factory=dict)
    sentence_defaults: Mapping[str, Any] = field(default_factory=dict)
    add_arguments: str | Callable[[argparse.ArgumentParser], None] | None = None
    language_option: str | None = None
    capabilities: Capabilities = field(default_factory=Capabilities)
    options: str | tuple[MetricOption, ...] = ()
    option_group: str = ""

    @property
    def title(self) -> str:
        """The display name (``BLEU``): the profile's title, else the name."""
        return self.profile.title or self.name

    def option_schema(self) -> tuple[MetricOption, ...]:
        """Return the option schema, imported if given as ``"module:attr"``."""
        opts: tuple[MetricOption, ...] = tuple(_resolve(self.options))
        return opts

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return constructor options checked against the schema (unknown names pass through).

        Parameters
        ----------
        options
            ``{name: value}`` as the constructor takes them.

        Returns
        -------
        dict
            The values in their checked types.

        Raises
        ------
        InvalidOptionError
            A value outside its option's domain (the message names the option).
        """
        schema = {o.name: o for o in self.option_schema()}
        return {k: check_option(schema[k], v) if k in schema else v for k, v in options.items()}

    def require(self, capability: str, surface: str) -> None:
        """Raise the one-line refusal if the metric lacks ``capability`` (a field name).

        Parameters
        ----------
        capability
            ``"resample"``, ``"pairwise"``, ``"sentence_scores"``, ``"streaming"``, ``"merge"``.
        surface
            What asks (``--paired-bs``), for the message.

        Raises
        ------
        InvalidOptionError
            ``<surface>: metric <title> lacks the '<capability>' capability (...)``.
        """
        if not getattr(self.capabilities, capability):
            raise lacks(self.title, capability, surface)

    @property
    def option_prefix(self) -> str:
        """Prefix of the metric's command-line destinations (``bleu_``): SacreBLEU's."""
        return self.name + "_"

    def metric_class(self) -> Callable[..., Metric[Any]]:
        """Return the factory, imported if given as ``"module:attr"``."""
        made: Callable[..., Metric[Any]] = _resolve(self.factory)
        return made

    def create(
        self, *, sentence: bool = False, alias: str | None = None, **options: Any
    ) -> Metric[Any]:
        """Return a new metric: the defaults, then the alias's options, then ``options``.

        Parameters
        ----------
        sentence
            Use :attr:`sentence_defaults` instead of :attr:`corpus_defaults`.
        alias
            One of :attr:`aliases`, whose options apply.
        **options
            Constructor options (they win).

        Returns
        -------
        Metric
            The metric object.
        """
        kwargs = dict(self.sentence_defaults if sentence else self.corpus_defaults)
        if alias is not None:
            kwargs.update(self.aliases[alias])
        kwargs.update(options)
        return self.metric_class()(**kwargs)

    def add_cli_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the metric's command-line options to ``parser`` (nothing if it has none).

        A hand-written ``add_arguments`` wins; otherwise the group is generated from the
        option schema.
        """
        if self.add_arguments is not None:
            _resolve(self.add_arguments)(parser)
            return
        schema = self.option_schema()
        if any(o.flags for o in schema):
            from .options import option_help

            title = self.option_group or f"{self.title} related arguments"
            add_option_group(parser, title, schema, option_help)


def _resolve(target: Any) -> Any:
    if not isinstance(target, str):
        return target
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


_ENTRIES: dict[str, MetricEntry] = _table.ENTRIES
#: Alias (and name) -> the entry's name.
_LOOKUP: dict[str, str] = _table.LOOKUP


def register_metric(entry: MetricEntry) -> None:
    """Add a metric to the registry.

    Parameters
    ----------
    entry
        The metric. Its name and aliases must be lower case and new.

    Raises
    ------
    InvalidOptionError
        A name or alias is taken, or not lower case.
    """
    names = [entry.name, *entry.aliases]
    for n in names:
        if n != n.lower() or not n:
            raise InvalidOptionError(f"register_metric: name {n!r} must be non-empty lower case")
        if n in _LOOKUP:
            raise InvalidOptionError(
                f"register_metric: {n!r} is already the name of metric {_LOOKUP[n]!r}"
            )
    _ENTRIES[entry.name] = entry
    for n in names:
        _LOOKUP[n] = entry.name


def unregister_metric(name: str) -> None:
    """Remove a metric and its aliases (for tests that register a toy metric).

    Parameters
    ----------
    name
        The entry's name.
    """
    entry = _ENTRIES.pop(name)
    for n in [entry.name, *entry.aliases]:
        del _LOOKUP[n]


def metric_names() -> tuple[str, ...]:
    """Names of the registered metrics, in registration order (the ``-m`` choices)."""
    return tuple(_ENTRIES)


def metric_aliases() -> tuple[str, ...]:
    """Every name the APIs take: each metric's name followed by its aliases."""
    return tuple(n for e in _ENTRIES.values() for n in (e.name, *e.aliases))


def _unknown(name: object, what: str) -> InvalidOptionError:
    return InvalidOptionError(
        f"{what}: unknown metric {name!r}; expected one of " + ", ".join(metric_aliases())
    )


def get_metric(name: str, what: str = "metric") -> MetricEntry:
    """Return the entry of a metric name or alias (any case).

    Parameters
    ----------
    name
        ``"bleu"``, ``"chrf"``, ``"chrf++"``, ...
    what
        The argument that gave it, for the message.

    Returns
    -------
    MetricEntry
        The entry (an alias gives its metric's entry).

    Raises
    ------
    InvalidOptionError
        An unknown name; the message lists the names.
    """
    key = name.lower() if isinstance(name, str) else None
    if key is None or key not in _LOOKUP:
        raise _unknown(name, what)
    return _ENTRIES[_LOOKUP[key]]


def find_metric(name: str) -> MetricEntry | None:
    """Return the entry of a metric name or alias, or ``None`` if none is registered."""
    found: MetricEntry | None = _table.find(name)
    return found


def make_metric(name: str, *, sentence: bool = False, what: str = "metric") -> Metric[Any]:
    """Return a new metric object for a name or alias, with the entry's defaults.

    Parameters
    ----------
    name
        A name of :func:`metric_aliases` (any case).
    sentence
        SacreBLEU's sentence-level defaults (``sentence_bleu``: effective order); else the
        corpus defaults (``BLEU()``).
    what
        The argument that gave it, for the message.

    Returns
    -------
    Metric
        The metric.

    Raises
    ------
    InvalidOptionError
        An unknown name.
    """
    entry = get_metric(name, what)
    key = name.lower()
    return entry.create(sentence=sentence, alias=key if key != entry.name else None)


_OPTS = "parbleu.metrics.options:"
#: BLEU, chrF: integer counts that add exactly, a core scorer and a core pair table.
_COUNTS = Capabilities(resample=True, pairwise=True, rows="int")

# The built-in metrics, in SacreBLEU's order (its ``-m`` choices).
register_metric(
    MetricEntry(
        name="bleu",
        factory="parbleu.metrics.bleu:BLEU",
        help="BLEU (Papineni et al. 2002), as SacreBLEU computes it",
        profile=MetricProfile(higher_is_better=True, in_report_default=True, title="BLEU"),
        sentence_defaults={"effective_order": True},
        language_option="trg_lang",
        capabilities=_COUNTS,
        options=_OPTS + "BLEU_OPTIONS",
    )
)
register_metric(
    MetricEntry(
        name="chrf",
        factory="parbleu.metrics.chrf:CHRF",
        help="chrF (Popović 2015) and chrF++ (word order 2), as SacreBLEU computes them",
        profile=MetricProfile(higher_is_better=True, in_report_default=True, title="chrF"),
        aliases={"chrf++": {"word_order": 2}, "chrfpp": {"word_order": 2}},
        capabilities=_COUNTS,
        options=_OPTS + "CHRF_OPTIONS",
    )
)
register_metric(
    MetricEntry(
        name="ter",
        factory="parbleu.metrics.ter:TER",
        help="TER (Snover et al. 2006), as SacreBLEU (TERCOM) computes it",
        profile=MetricProfile(higher_is_better=False, in_report_default=True, title="TER"),
        # Float rows added in SacreBLEU's order; an edit rate's pairs are asymmetric.
        capabilities=Capabilities(resample=True, pairwise=True, rows="float"),
        options=_OPTS + "TER_OPTIONS",
        option_group="TER related arguments (The defaults replicate TERCOM's behavior)",
    )
)
# ROUGE (issue 27): a mean of per-pair scores; float rows that add (streaming, corpus_scores)
# and resample in the core (Scorer.mean), one column per rouge type (ROUGE.columns()); a core
# pair table of the first type's pair_measure (F by default; rectangles only: precision and
# recall swap with the roles).
register_metric(
    MetricEntry(
        name="rouge",
        factory="parbleu.metrics.rouge:ROUGE",
        help="ROUGE-N/L/Lsum (Lin 2004), as Google's rouge-score 0.1.2 computes them "
        "(each type its own column; pairwise and mbr: the first type's F-measure)",
        profile=MetricProfile(higher_is_better=True, in_report_default=False, title="ROUGE"),
        capabilities=Capabilities(resample=True, pairwise=True, rows="float"),
        options=_OPTS + "ROUGE_OPTIONS",
    )
)


def _caption_options(name: str) -> tuple[MetricOption, ...]:
    return (
        MetricOption(
            name="tokenize",
            type="str",
            default="ptb",
            flags=(f"--{name}-tokenize",),
            dest=f"{name}_tokenize",
            choices=("ptb", "none"),
            signature=("tok", "tok"),
            help="ptb: COCO's PTB tokenization first, as COCOEvalCap (parbleu's native one); "
            "none: the captions are tokenized already. (Default: %(default)s)",
        ),
    )


# COCO's caption metrics (issue 33): image scores as float rows [score, 1.0]; pycocoevalcap's
# corpus numbers (0-1, printed with at least its 3 decimals). CIDEr-D's document frequencies
# come from the whole call, so its rows of separate calls do not add; METEOR's corpus score is
# the jar's aggregate, not a mean of image scores, so it is not resampled.
_CAPTION = Capabilities(resample=True, pairwise=False, rows="float", streaming=False, merge=False)
register_metric(
    MetricEntry(
        name="cider",
        factory="parbleu.metrics.caption.registered:CIDEr",
        help="CIDEr-D (Vedantam et al. 2015), as pycocoevalcap 1.2 computes it (after COCO's "
        "PTB tokenization)",
        profile=MetricProfile(higher_is_better=True, in_report_default=False, title="CIDEr"),
        capabilities=_CAPTION,
        options=_caption_options("cider"),
    )
)
register_metric(
    MetricEntry(
        name="rouge-l",
        factory="parbleu.metrics.caption.registered:COCORougeL",
        help="COCO's ROUGE-L (beta 1.2), as pycocoevalcap 1.2 computes it (after COCO's PTB "
        "tokenization; `rouge` is Google's rouge-score)",
        profile=MetricProfile(higher_is_better=True, in_report_default=False, title="ROUGE_L"),
        capabilities=Capabilities(resample=True, pairwise=False, rows="float"),
        options=_caption_options("rouge-l"),
    )
)
register_metric(
    MetricEntry(
        name="meteor",
        factory="parbleu.metrics.caption.registered:Meteor",
        help="METEOR 1.5, as pycocoevalcap 1.2 runs it (its jar: Java, extra coco)",
        profile=MetricProfile(higher_is_better=True, in_report_default=False, title="METEOR"),
        capabilities=Capabilities(
            resample=False, pairwise=False, rows="float", streaming=False, merge=False
        ),
        options=_caption_options("meteor"),
    )
)
# pycocoevalcap's BLEU-1..4 (issue 33): its corpus scores come from the summed n-gram counts of
# all images (not a mean of the image rows), so it is neither resampled nor streamed.
register_metric(
    MetricEntry(
        name="bleu-coco",
        factory="parbleu.metrics.caption.registered:COCOBleu",
        help="COCOEvalCap's Bleu_1..Bleu_4, as pycocoevalcap 1.2 computes them (after COCO's "
        "PTB tokenization; `bleu` is SacreBLEU's BLEU)",
        profile=MetricProfile(higher_is_better=True, in_report_default=False, title="Bleu_4"),
        capabilities=Capabilities(
            resample=False, pairwise=False, rows="float", streaming=False, merge=False
        ),
        options=_caption_options("bleu-coco"),
        option_group="COCO's Bleu (bleu-coco) related arguments",
    )
)
