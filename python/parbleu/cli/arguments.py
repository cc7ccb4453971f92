"""Argument types and groups the sub-commands share (``compare``, ``report``, ``distributed``).

Each builder adds one argument (or group) with the same flags, destination and default in every
sub-command; what a sub-command says differently (its help text) is a parameter.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from .._argtypes import int_at_least
from ..metrics.registry import metric_names
from .errors import ExitCode

__all__ = [
    "add_encoding",
    "add_language_pair",
    "add_metrics",
    "add_num_refs",
    "add_refs_and_inputs",
    "add_significance",
    "alpha",
    "int_at_least",
    "parse_or_exit",
    "seed",
]

_Adder = Any  # an ArgumentParser or an argument group


def seed(text: str) -> int:
    """Argparse type of ``--seed``: an integer from 0 to 2**64-1."""
    value = int_at_least(0)(text)
    if value >= 2**64:
        raise argparse.ArgumentTypeError(f"expected an integer below 2**64, got {value}")
    return value


def alpha(text: str) -> float:
    """Argparse type of ``--alpha``: a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid float value: {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {value}")
    return value


def add_refs_and_inputs(p: _Adder, inputs_help: str) -> None:
    """``REF ...`` then ``-i/--input SYS ...`` (required)."""
    p.add_argument(
        "refs",
        nargs="*",
        default=[],
        metavar="REF",
        help="Reference files. Give them before -i/--input, which takes every file after it.",
    )
    p.add_argument("--input", "-i", nargs="+", required=True, metavar="SYS", help=inputs_help)


def add_num_refs(
    p: _Adder, what: str = "the single reference file", kind: Callable[[str], int] | None = None
) -> None:
    """``-nr/--num-refs N``: tab-separated references per line of ``what``."""
    p.add_argument(
        "--num-refs",
        "-nr",
        type=kind or int_at_least(1),
        default=1,
        metavar="N",
        help=f"Split {what} on tabs into this many references per line. (Default: %(default)s)",
    )


def add_encoding(p: _Adder, what: str = "input files") -> None:
    """``-e/--encoding`` (default utf-8)."""
    p.add_argument(
        "--encoding", "-e", default="utf-8", help=f"Encoding of the {what}. (Default: utf-8)"
    )


def add_language_pair(p: _Adder, main_command: bool = True) -> None:
    """``-l/--language-pair SRC-TRG``: the target language picks BLEU's tokenizer."""
    p.add_argument(
        "--language-pair",
        "-l",
        dest="langpair",
        default=None,
        metavar="SRC-TRG",
        help="Source-target language pair; the target language picks BLEU's default "
        + ("tokenizer, as in the main command." if main_command else "tokenizer."),
    )


def add_metrics(p: _Adder, default: Sequence[str], help_text: str) -> None:
    """``-m/--metrics NAME ...`` among the metric names."""
    p.add_argument(
        "--metrics",
        "-m",
        choices=metric_names(),
        nargs="+",
        default=list(default),
        help=help_text,
    )


def add_significance(
    p: argparse.ArgumentParser,
    *,
    bs_help: str,
    ar_help: str,
    n_help: str,
    seed_help: str,
    alpha_help: str,
) -> Any:
    """Add the "Significance testing" group and return it.

    ``-pbs | -par``, ``--n``, ``--seed``, ``--alpha`` and ``--workers``, with the help texts
    given.
    """
    sig = p.add_argument_group("Significance testing")
    test = sig.add_mutually_exclusive_group()
    test.add_argument("--paired-bs", "-pbs", action="store_true", help=bs_help)
    test.add_argument("--paired-ar", "-par", action="store_true", help=ar_help)
    sig.add_argument("--n", type=int_at_least(1), default=None, metavar="N", help=n_help)
    sig.add_argument("--seed", type=seed, default=12345, metavar="S", help=seed_help)
    sig.add_argument("--alpha", type=alpha, default=0.05, metavar="A", help=alpha_help)
    sig.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="Threads: 1 serial, -1 all cores. (Default: PARBLEU_WORKERS, else all cores)",
    )
    return sig


def parse_or_exit(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace | int:
    """Parse ``argv``; on ``--help`` or a usage error, the exit code instead."""
    try:
        return parser.parse_args(list(argv))
    except SystemExit as e:  # --help, or argparse's usage error
        return e.code if isinstance(e.code, int) else ExitCode.USAGE
