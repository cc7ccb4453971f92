"""Argument types and groups the commands share (``parbleu`` and its sub-commands).

Each builder adds one argument (or group) with the same flags, destination and default in every
command; what a command says differently (its help text, a default) is a parameter.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from .._argtypes import int_at_least
from ..metrics.registry import metric_names
from .errors import CliError, ExitCode
from .io import check_encoding, same_files

__all__ = [
    "MAX_WIDTH",
    "add_encoding",
    "add_language_pair",
    "add_metrics",
    "add_num_refs",
    "add_refs",
    "add_refs_and_inputs",
    "add_significance",
    "add_width",
    "alpha",
    "check_metric_options",
    "hyp_encoding",
    "int_at_least",
    "parse_or_exit",
    "ref_encoding",
    "seed",
]

#: Highest ``-w``: a double has 17 significant digits, and Python refuses precisions near
#: 2**31 with an error of its own.
MAX_WIDTH = 100

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


def add_refs(p: _Adder) -> None:
    """``REF ...``: the reference files, given before ``-i``."""
    p.add_argument(
        "refs",
        nargs="*",
        default=[],
        metavar="REF",
        help="Reference files. Give them before -i/--input, which takes every file after it.",
    )


def add_refs_and_inputs(p: _Adder, inputs_help: str) -> None:
    """``REF ...`` then ``-i/--input SYS ...`` (required)."""
    add_refs(p)
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


def add_encoding(p: _Adder, what: str = "input files", per_file: bool = False) -> None:
    """Add ``-e/--encoding`` (default utf-8); with ``per_file``, ``--ref/--hyp-encoding``."""
    p.add_argument(
        "--encoding", "-e", default="utf-8", help=f"Encoding of the {what}. (Default: utf-8)"
    )
    if not per_file:
        return
    p.add_argument(
        "--ref-encoding",
        default=None,
        metavar="ENCODING",
        help="Encoding of the reference files only, for references and hypotheses in different "
        "encodings (utf-8-sig drops a byte order mark). (Default: --encoding)",
    )
    p.add_argument(
        "--hyp-encoding",
        default=None,
        metavar="ENCODING",
        help="Encoding of the hypothesis files"
        + (" (and of standard input)" if "standard input" in what else "")
        + " only. (Default: --encoding)",
    )


def ref_encoding(args: argparse.Namespace) -> str:
    """Return the encoding of the reference files: ``--ref-encoding``, else ``-e``."""
    return str(getattr(args, "ref_encoding", None) or args.encoding)


def hyp_encoding(args: argparse.Namespace) -> str:
    """Return the encoding of the hypotheses: ``--hyp-encoding``, else ``-e``."""
    return str(getattr(args, "hyp_encoding", None) or args.encoding)


def add_language_pair(p: _Adder, main_command: bool = True, help_text: str | None = None) -> None:
    """``-l/--language-pair SRC-TRG``: the target language picks BLEU's tokenizer.

    The help says so (and, with ``main_command``, that it works as in the main command) unless
    ``help_text`` is given.
    """
    p.add_argument(
        "--language-pair",
        "-l",
        dest="langpair",
        default=None,
        metavar="SRC-TRG",
        help=help_text
        or "Source-target language pair; the target language picks BLEU's default "
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


def add_width(p: _Adder, default: int, help_text: str) -> None:
    """``-w/--width N``: decimal places of the scores, 0 to :data:`MAX_WIDTH`."""
    p.add_argument(
        "--width",
        "-w",
        type=int_at_least(0, MAX_WIDTH),
        default=default,
        metavar="N",
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


# --- option checks the subcommands share (each one clear message, before any file is read) ---


def check_num_refs(args: argparse.Namespace) -> None:
    """``--num-refs`` N > 1 reads N tab-separated references from one file, not from several."""
    if args.num_refs != 1 and len(args.refs) > 1:
        raise CliError(
            "--num-refs: give the tab-separated references in one file, not "
            f"{len(args.refs)} reference files"
        )


def check_refs_and_systems(args: argparse.Namespace, command: str) -> None:
    """Check that references are given, ``--num-refs`` fits them, and no system repeats."""
    if getattr(args, "coco_refs", None) is not None:
        from .coco_json import check_coco_args  # COCO's caption JSON: only with --coco-refs

        check_coco_args(args, f"{command}: ")
    elif not args.refs:
        raise CliError(f"{command}: no reference file: give reference files before -i/--input")
    check_num_refs(args)
    if len(set(args.input)) != len(args.input):
        raise CliError(f"{command}: a system file is given twice; each system needs its own file")
    check_same_files(args.input, command)


def check_same_files(paths: list[str], command: str) -> None:
    """Refuse one file given under two spellings (``hyp.de ./hyp.de``) as two systems."""
    same = same_files(paths)
    if same is not None:
        raise CliError(
            f"{command}: {same[0]!r} and {same[1]!r} are the same file; each system needs "
            "its own file"
        )


def check_metric_names(names: Sequence[str], needs: Sequence[tuple[str, str]] = ()) -> None:
    """Check each ``-m`` name once, and that it has the capabilities the command needs.

    Parameters
    ----------
    names
        The ``-m`` names (an unknown one raises the metric registry's error).
    needs
        ``(capability, surface)`` pairs (``("resample", "--paired-bs")``): a metric without
        one is refused in one line naming it, before anything is read or scored.
    """
    from ..metrics.registry import get_metric
    from .score import metric_class

    for name in dict.fromkeys(m.upper() for m in names):
        metric_class(name)
        for capability, surface in needs:
            get_metric(name, "-m/--metrics").require(capability, surface)


def check_metric_options(
    args: argparse.Namespace, needs: Sequence[tuple[str, str]] = ()
) -> str | None:
    """Check ``-m`` (with the capabilities ``needs``), ``-l`` and ``-e``.

    Returns
    -------
    str or None
        The target language of ``-l`` (``None`` without ``-l``).
    """
    check_metric_names(args.metrics, needs)
    trg_lang = target_language(args)
    check_encoding(args.encoding)
    for option in ("ref_encoding", "hyp_encoding"):
        value = getattr(args, option, None)
        if value is not None:
            check_encoding(value, "--" + option.replace("_", "-"))
    return trg_lang


def target_language(args: argparse.Namespace) -> str | None:
    """Return the target language of ``-l SRC-TRG`` (``None`` without ``-l``)."""
    if args.langpair is None:
        return None
    parts = args.langpair.split("-")
    if len(parts) < 2:
        raise CliError(f"-l/--language-pair: expected SRC-TRG such as en-de, got {args.langpair!r}")
    return str(parts[1])


def add_coco_refs(p: argparse.ArgumentParser) -> None:
    """``--coco-refs ANN.json``: COCO caption annotations as the references, ``-i``: results JSON.

    The reading is :mod:`parbleu.cli.coco_json`, imported only when the option is given.
    """
    g = p.add_argument_group("COCO caption JSON (see docs/captioning.md)")
    g.add_argument(
        "--coco-refs",
        default=None,
        metavar="ANN.json",
        help='Read the references from a COCO caption annotation file ({"annotations": '
        '[{"image_id", "caption"}, ...]}, as captions_val2017.json), instead of REF files; '
        'each -i file is then a results file as COCOEvalCap takes it ([{"image_id", '
        '"caption"}, ...], one system each). Images are aligned by image_id: the images of '
        "the results are scored, each with all its captions, so -m bleu-coco cider rouge-l "
        "meteor give COCOEvalCap's numbers.",
    )
