"""What the subcommands ``compare``, ``report`` and ``distributed`` share.

Their parser's frame, the scoring options of ``compare`` and ``report`` (``-nr``, ``-e``, ``-l``,
``-m``, every metric's group, ``--coco-refs``), the reading of their systems (text files, or
COCO's caption JSON), and ``run``: parse, then execute, with the same ``(exit code, text)``
contract for :func:`parbleu.cli.main`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import cast

from .._text import plural
from .arguments import (
    add_coco_refs,
    add_encoding,
    add_language_pair,
    add_metrics,
    add_num_refs,
    hyp_encoding,
    parse_or_exit,
    ref_encoding,
)
from .errors import CliError
from .io import read_file_lines, read_ref_streams
from .parser import add_metric_arguments

__all__ = ["add_scoring_options", "new_parser", "read_systems", "run_subcommand"]


def new_parser(prog: str, description: str) -> argparse.ArgumentParser:
    """Return an empty parser for a subcommand, its description shown as written.

    Parameters
    ----------
    prog
        Program name shown in usage (``parbleu compare``, ...).
    description
        The ``--help`` text above the options, line breaks kept.

    Returns
    -------
    argparse.ArgumentParser
        A fresh parser.
    """
    return argparse.ArgumentParser(
        prog=prog, description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )


def add_scoring_options(
    p: argparse.ArgumentParser, metrics: Sequence[str], metrics_help: str, main_command: bool
) -> None:
    """Add ``-nr``, ``-e``, ``-l``, ``-m`` and every registered metric's option group.

    Parameters
    ----------
    p
        The subcommand's parser.
    metrics
        Default of ``-m``.
    metrics_help
        Help text of ``-m``.
    main_command
        Whether ``-l``'s help says that it works as in the main command.
    """
    add_num_refs(p)
    add_encoding(p, per_file=True)
    add_language_pair(p, main_command)
    add_metrics(p, metrics, metrics_help)
    add_metric_arguments(p)
    add_coco_refs(p)


def read_systems(
    args: argparse.Namespace, nonempty: bool
) -> tuple[list[list[str]], dict[str, list[str]]]:
    """Read the references and every ``-i`` system, each aligned with the references.

    Parameters
    ----------
    args
        Parsed command line (``refs``, ``num_refs``, ``encoding``, ``input``).
    nonempty
        Refuse an empty system file and empty references (each one clear message) before the
        alignment check.

    Returns
    -------
    tuple
        ``(reference streams, {system file: hypotheses})``, files in ``-i`` order.
    """
    if getattr(args, "coco_refs", None) is not None:
        from .coco_json import read_coco  # COCO's caption JSON: only with --coco-refs

        streams, by_image = read_coco(args.coco_refs, list(args.input))
        # None marks an image with fewer references: every metric's reference streams take it.
        return cast("list[list[str]]", streams), by_image
    refs = read_ref_streams(args.refs, args.num_refs, ref_encoding(args))
    systems = {}
    for path in args.input:
        lines = read_file_lines(path, hyp_encoding(args), "hypothesis file")
        if nonempty and not lines:
            raise CliError(f"hypothesis file {path!r} is empty: there is nothing to score")
        if nonempty and not refs[0]:
            raise CliError("the references are empty: there is nothing to score against")
        if len(lines) != len(refs[0]):
            raise CliError(
                f"hypothesis file {path!r} has {plural(len(lines), 'line')} but the references "
                "have "
                f"{len(refs[0])}; the files must be aligned line by line"
            )
        systems[path] = lines
    return refs, systems


def run_subcommand(
    parser: argparse.ArgumentParser,
    execute: Callable[[argparse.Namespace], tuple[int, str]],
    argv: Sequence[str],
) -> tuple[int, str]:
    """Parse ``argv`` with ``parser`` and execute the subcommand.

    Parameters
    ----------
    parser
        The subcommand's parser.
    execute
        Runs the subcommand on the parsed arguments.
    argv
        Arguments after the subcommand's name.

    Returns
    -------
    tuple
        ``(exit code, text to print)``; after ``--help`` or a usage error, argparse's exit code
        and no text. Errors raise :class:`CliError` or ``ParbleuError``.
    """
    args = parse_or_exit(parser, argv)
    if isinstance(args, int):
        return args, ""
    return execute(args)
