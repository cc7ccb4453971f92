"""What a metric declares: its capabilities and its option schema (one place, read everywhere).

A :class:`~.registry.MetricEntry` holds a :class:`Capabilities` and a tuple of
:class:`MetricOption`. From the options come the metric's command-line group
(:func:`add_option_group`: flags, defaults, destinations, help, so ``docs/cli.md`` too, which
``tools/gen_cli_docs.py`` renders from the parser), the value checks (:func:`check_option`,
through :mod:`parbleu._options`) and the signature abbreviations (:func:`abbreviations`). Every
surface asks :func:`require` before it does any work, so a metric it cannot serve is one line
naming the metric and the missing capability.

This module imports nothing heavy and no metric.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from .._options import check_count, check_flag, check_probability, check_real
from .._record import record, record_fields
from ..errors import InvalidOptionError

if TYPE_CHECKING:
    import argparse

__all__ = [
    "CAPABILITY_HELP",
    "Capabilities",
    "MetricOption",
    "abbreviations",
    "add_option_group",
    "check_option",
    "lacks",
]

#: What each capability lets a surface do (the one-line refusals and ``parbleu metrics`` say it).
CAPABILITY_HELP = {
    "resample": "paired significance tests and confidence intervals (a core scorer of rows)",
    "pairwise": "pairwise tables and MBR (a core pair table)",
    "sentence_scores": "one score per segment",
    "streaming": "statistics rows that add (streaming files, accumulators)",
    "merge": "partial sums that merge across processes (Dask, parbleu distributed)",
}


@record
class Capabilities:
    """What a metric can do; every surface branches on these, never on a type or an error.

    Parameters
    ----------
    resample
        Significance can resample its statistics rows and finalize them in the core
        (``Metric.core_scorer()``): paired tests, intervals, the report's clusters.
    pairwise
        A core pair table (``Metric.pair_table()``): ``pairwise`` and ``mbr``.
    rows
        ``"int"``: counts that add exactly; ``"float"``: float rows added in index order
        (TER, and the mean-of-segments metrics whose last column counts segments).
    sentence_scores
        One score per segment (``Metric.sentence_scores``): histograms, examples, sentence
        columns of frames.
    streaming
        Rows add: a statistics accumulator scores files of any length.
    merge
        An accumulator's partial sums merge across processes (Dask, ``parbleu distributed``).
    """

    resample: bool = False
    pairwise: bool = False
    rows: Literal["int", "float"] = "int"
    sentence_scores: bool = True
    streaming: bool = True
    merge: bool = True

    def names(self) -> tuple[str, ...]:
        """Return the capabilities this metric has (``rows`` aside), in declaration order."""
        return tuple(n for n in record_fields(self) if n != "rows" and getattr(self, n))


def lacks(title: str, capability: str, surface: str) -> InvalidOptionError:
    """Return the one-line refusal of a surface that needs ``capability`` of ``title``.

    Parameters
    ----------
    title
        The metric's display name (``ROUGE``).
    capability
        A :class:`Capabilities` field.
    surface
        What refused (``--paired-bs``, ``parbleu.significance``, ``pairwise``, ...).

    Returns
    -------
    InvalidOptionError
        The error to raise.
    """
    return InvalidOptionError(
        f"{surface}: metric {title} lacks the {capability!r} capability "
        f"({CAPABILITY_HELP[capability]}); `parbleu metrics` lists what each metric supports"
    )


OptionType = Literal["int", "float", "str", "bool", "list"]


@record(kw_only=True)
class MetricOption:
    """One constructor option of a metric, and its command-line flag.

    Parameters
    ----------
    name
        The constructor keyword (``smooth_method``).
    type
        ``"int"``, ``"float"``, ``"str"``, ``"bool"`` (a ``store_true`` flag) or ``"list"``
        (of strings, ``nargs="+"``).
    default
        The command line's default (``None``: the constructor's own default applies).
    flags
        Command-line flags, long first (``("--smooth-method", "-s")``); empty: no flag.
    dest
        The argparse destination; ``None``: argparse's own from the first flag. Every
        destination starts with the metric's prefix (``bleu_``): the command line passes it to
        the constructor with the prefix stripped, so ``dest`` is ``prefix + name``.
    help
        The flag's help (argparse's ``%(default)s`` allowed).
    choices
        Legal values, or a callable returning them when the parser is built (tokenizers).
    minimum, maximum
        Bounds of a number (inclusive); ``None``: unbounded.
    metavar
        The flag's metavar.
    signature
        ``(field, abbreviation)`` of the signature field the option sets (``("case", "c")``),
        or ``None`` if the signature does not show it.
    cli_bounds
        The command line refuses an integer below ``minimum`` as a usage error (argparse's);
        otherwise the constructor's check names it.
    """

    name: str
    type: OptionType
    default: Any = None
    flags: tuple[str, ...] = ()
    dest: str | None = None
    help: str = ""
    choices: Sequence[Any] | Callable[[], Sequence[Any]] | None = None
    minimum: float | None = None
    maximum: float | None = None
    metavar: str | None = None
    signature: tuple[str, str] | None = None
    cli_bounds: bool = False

    def legal(self) -> Sequence[Any] | None:
        """Return the choices, called if given as a callable."""
        return self.choices() if callable(self.choices) else self.choices


def add_option_group(
    parser: argparse.ArgumentParser,
    title: str,
    options: Sequence[MetricOption],
    help_of: Callable[[MetricOption], str] | None = None,
) -> None:
    """Add one metric's command-line group, generated from its option schema.

    Parameters
    ----------
    parser
        The parser to extend.
    title
        The group's title (``BLEU related arguments``).
    options
        The schema; options without flags are skipped.
    help_of
        The help of an option when it is computed (``-tok``'s list of tokenizers).
    """
    group = parser.add_argument_group(title)
    for opt in options:
        if not opt.flags:
            continue
        kw: dict[str, Any] = {"help": help_of(opt) if help_of is not None else opt.help}
        if opt.dest is not None:
            kw["dest"] = opt.dest
        if opt.type == "bool":
            kw["action"] = "store_true"
            if opt.default is not None:
                kw["default"] = opt.default
        else:
            kw["default"] = opt.default
            choices = opt.legal()
            if choices is not None:
                kw["choices"] = tuple(choices)
            if opt.cli_bounds and opt.type == "int" and opt.minimum is not None:
                from .._argtypes import int_at_least

                kw["type"] = int_at_least(int(opt.minimum))
            elif opt.type in ("int", "float"):
                kw["type"] = int if opt.type == "int" else float
            if opt.type == "list":
                kw["nargs"] = "+"
                kw["default"] = list(opt.default) if opt.default is not None else None
            if opt.metavar is not None:
                kw["metavar"] = opt.metavar
        group.add_argument(*opt.flags, **kw)


def check_option(opt: MetricOption, value: Any) -> Any:
    """Return ``value`` checked against ``opt``'s type, bounds and choices, or raise.

    ``None`` passes when the default is ``None`` (the metric then picks its own).

    Returns
    -------
    object
        The value in its checked type.

    Raises
    ------
    InvalidOptionError
        A value outside the option's domain; the message names the option.
    """
    if value is None and opt.default is None:
        return None
    if opt.type == "bool":
        return check_flag(opt.name, value)
    if opt.type == "int":
        lo = -(2**63) if opt.minimum is None else int(opt.minimum)
        hi = 2**63 - 1 if opt.maximum is None else int(opt.maximum)
        out: Any = check_count(opt.name, value, lo, hi)
    elif opt.type == "float" and (opt.minimum, opt.maximum) == (0.0, 1.0):
        out = check_probability(opt.name, value)
    elif opt.type == "float":
        out = check_real(opt.name, value, opt.minimum, opt.maximum)
    elif opt.type == "list":
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise InvalidOptionError(f"{opt.name}={value!r}: expected a sequence of strings")
        out = tuple(value)
        for v in out:
            _check_choice(opt, v)
        return out
    else:
        out = value
        if not isinstance(value, str):
            raise InvalidOptionError(f"{opt.name}={value!r}: expected a string")
    _check_choice(opt, out)
    return out


def _check_choice(opt: MetricOption, value: Any) -> None:
    choices = opt.legal()
    if choices is not None and value not in choices:
        raise InvalidOptionError(
            f"{opt.name}={value!r}: expected one of " + ", ".join(repr(c) for c in choices)
        )


def abbreviations(options: Sequence[MetricOption]) -> dict[str, str]:
    """``{signature field: abbreviation}`` of the options the signature shows."""
    return dict(o.signature for o in options if o.signature is not None)
