r"""``parbleu --flavor NAME ...`` and ``parbleu explain ...``: other BLEU implementations.

The command-line tools keep their own command lines and print what they print:

    parbleu --flavor multi-bleu [-lc] REF [REF ...] < HYP          (multi-bleu.perl)
    parbleu --flavor multi-bleu-detok [-lc] REF [REF ...] < HYP    (multi-bleu-detok.perl)
    parbleu --flavor mteval-v13a -r REF.sgm -s SRC.sgm -t TST.sgm [-c] [-b|-n] ...
    parbleu --flavor t2t --translation HYP --reference REF          (t2t-bleu)
    parbleu --flavor fairseq -s HYP -r REF [-o N] [--ignore-case]  (fairseq-score)

parbleu's ``-i HYP`` is accepted where the tool has a hypothesis (multi-bleu: instead of
standard input; t2t: ``--translation``; fairseq: ``-s``) and refused by mteval (its system
output is an SGML/XML test set). ``--flavor NAME --help`` prints the tool's usage
(``parbleu.cli.flavor_tools.TOOL_HELP``); each built-in flavor's runner is in :data:`RUNNERS`.

The libraries score plain-text files (references first, hypotheses after ``-i``, read as UTF-8,
split on ``\n``) with their defaults and print their result:

    parbleu --flavor nltk|tfnmt|hf-bleu|coco|torchmetrics|torchmetrics-sacre REF [REF ...] -i HYP

``parbleu explain REF [REF ...] -i HYP --flavor NAME`` decomposes the difference between
SacreBLEU and a flavor (:func:`parbleu.flavors.explain`).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import warnings
from collections.abc import Sequence
from functools import partial
from typing import Any, Callable

from .._options import MAX_ORDER
from ..errors import FlavorError, InvalidOptionError
from ..flavors import get_flavor
from .errors import CliError, ExitCode

__all__ = [
    "LibraryArgs",
    "build_explain_parser",
    "build_library_parser",
    "read_text_lines",
    "run_coco",
    "run_explain",
    "run_flavor",
    "run_hf_bleu",
    "run_library",
    "run_nltk",
    "run_tfnmt",
    "run_torchmetrics",
    "run_torchmetrics_sacre",
    "split_flavor",
    "write_raw",
]


def split_flavor(argv: Sequence[str]) -> tuple[str, list[str]] | None:
    """``(name, other arguments)`` if ``argv`` asks for ``--flavor NAME``, else None."""
    args = list(argv)
    for i, a in enumerate(args):
        if a == "--flavor":
            if i + 1 >= len(args):
                raise CliError("--flavor: expected a flavor name", ExitCode.USAGE)
            return args[i + 1], args[:i] + args[i + 2 :]
        if a.startswith("--flavor="):
            return a.split("=", 1)[1], args[:i] + args[i + 1 :]
    return None


def read_text_lines(path: str) -> list[str]:
    r"""Lines of a UTF-8 file split on ``\n`` (as the flavors read them); errors as CliError."""
    from ..flavors import read_lines

    try:
        return read_lines(path)
    except OSError as e:
        raise CliError(f"cannot read {path!r}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise CliError(f"{path!r} is not valid UTF-8 ({e.reason} at byte {e.start})") from None


def _order(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if not 1 <= value <= MAX_ORDER:
        raise argparse.ArgumentTypeError(f"expected an integer from 1 to {MAX_ORDER}, got {value}")
    return value


def build_library_parser(name: str = "nltk") -> argparse.ArgumentParser:
    """Parser of ``parbleu --flavor NAME REF [REF ...] -i HYP [options]`` for library flavors."""
    p = argparse.ArgumentParser(
        prog=f"parbleu --flavor {name}",
        description="Score plain-text files as the library would (UTF-8, one segment per line).",
    )
    p.add_argument("refs", nargs="+", metavar="REF", help="Reference files (one per reference).")
    p.add_argument("--input", "-i", required=True, metavar="HYP", help="Hypothesis file.")
    p.add_argument(
        "--tokenize",
        choices=("split", "13a"),
        default="split",
        help="Token lists given to token-based libraries (nltk, tfnmt): str.split() or "
        "SacreBLEU's 13a. (Default: %(default)s)",
    )
    p.add_argument(
        "--smooth",
        default=None,
        metavar="S",
        help="nltk: smoothing method 0-7; tfnmt, hf-bleu, torchmetrics: any value turns "
        "smoothing on.",
    )
    p.add_argument(
        "--max-order",
        type=_order,
        default=4,
        metavar="N",
        help=f"Highest n-gram order, 1 to {MAX_ORDER}.",
    )
    p.add_argument(
        "--reflen",
        choices=("closest", "shortest", "average"),
        default="closest",
        help="coco: reference length option. (Default: %(default)s)",
    )
    p.add_argument("--sentence-level", action="store_true", help="One score per line (nltk).")
    return p


class LibraryArgs:
    """A library flavor's parsed command line and its files, read and checked aligned."""

    def __init__(self, name: str, argv: list[str]) -> None:
        a = build_library_parser(name).parse_args(argv)
        self.args = a
        self.order: int = a.max_order
        self.hyps = read_text_lines(a.input)
        streams = [read_text_lines(r) for r in a.refs]
        for r, s in zip(a.refs, streams):
            if len(s) != len(self.hyps):
                raise CliError(
                    f"hypothesis file {a.input!r} has {len(self.hyps)} lines but reference file "
                    f"{r!r} has {len(s)}; the files must be aligned line by line"
                )
        #: ``segs[i]``: the references of line ``i``.
        self.segs = [[s[i] for s in streams] for i in range(len(self.hyps))]

    def toks(self, lines: list[str]) -> list[list[str]]:
        """Token lists of ``lines`` under ``--tokenize``."""
        if self.args.tokenize == "13a":
            from ..flavors import tokens

            out: list[list[str]] = tokens(lines, ("13a", "keep", "python"))
            return out
        return [x.split() for x in lines]

    def seg_toks(self) -> list[list[list[str]]]:
        """Token lists of every line's references."""
        flat = iter(self.toks([r for rs in self.segs for r in rs]))
        return [[next(flat) for _ in rs] for rs in self.segs]


def run_library(name: str, argv: list[str], body: Callable[[LibraryArgs, Any], None]) -> int:
    """Run a library flavor: ``body(args, out)`` prints its result; usage errors exit 2."""
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            body(LibraryArgs(name, argv), buf)
    except SystemExit as e:
        write_raw(buf.getvalue(), sys.stdout)
        return e.code if isinstance(e.code, int) else ExitCode.USAGE
    except FlavorError:
        write_raw(buf.getvalue(), sys.stdout)
        raise
    write_raw(buf.getvalue(), sys.stdout)
    return ExitCode.OK


def _nltk(a: LibraryArgs, out: Any) -> None:
    from ..flavors import nltk

    n = a.order
    weights = tuple([1.0 / n] * n)
    sf = None
    smooth = a.args.smooth
    if smooth is not None:
        if smooth not in [str(k) for k in range(8)]:
            raise CliError(f"--smooth: expected an NLTK smoothing method 0-7, got {smooth!r}")
        sf = getattr(nltk.SmoothingFunction(), f"method{smooth}")
    h, r = a.toks(a.hyps), a.seg_toks()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if a.args.sentence_level:
            for hh, rr in zip(h, r):
                out.write(f"{nltk.sentence_bleu(rr, hh, weights, sf)!r}\n")
            return
        out.write(f"{nltk.corpus_bleu(r, h, weights, sf)!r}\n")


def _tfnmt(a: LibraryArgs, out: Any) -> None:
    from ..flavors import tfnmt

    res = tfnmt.compute_bleu(a.seg_toks(), a.toks(a.hyps), a.order, a.args.smooth is not None)
    out.write(f"{res!r}\n")


def _hf_bleu(a: LibraryArgs, out: Any) -> None:
    from ..flavors import tfnmt

    d = tfnmt.hf_bleu(a.hyps, a.segs, max_order=a.order, smooth=a.args.smooth is not None)
    out.write(json.dumps(d) + "\n")


def _coco(a: LibraryArgs, out: Any) -> None:
    from ..flavors import coco

    scorer = coco.BleuScorer(n=a.order)
    for h1, rs in zip(a.hyps, a.segs):
        scorer += (h1, rs)
    score, _ = scorer.compute_score(option=a.args.reflen, verbose=1)
    for k, sc in enumerate(score, 1):
        out.write(f"Bleu_{k}: {sc:0.3f}\n")


def _torchmetrics(sacre: bool) -> Callable[[LibraryArgs, Any], None]:
    def body(a: LibraryArgs, out: Any) -> None:
        from ..flavors import torchmetrics

        fn = torchmetrics.sacre_bleu_score if sacre else torchmetrics.bleu_score
        v = fn(a.hyps, a.segs, n_gram=a.order, smooth=a.args.smooth is not None)
        out.write(f"{float(v)!r}\n")

    return body


#: ``parbleu --flavor NAME REF [REF ...] -i HYP [options]`` of the library flavors.
run_nltk = partial(run_library, body=_nltk)
run_tfnmt = partial(run_library, body=_tfnmt)
run_hf_bleu = partial(run_library, body=_hf_bleu)
run_coco = partial(run_library, body=_coco)
run_torchmetrics = partial(run_library, body=_torchmetrics(sacre=False))
run_torchmetrics_sacre = partial(run_library, body=_torchmetrics(sacre=True))


def write_raw(text: str, stream: Any) -> None:
    """Write ``text`` to ``stream`` as UTF-8 bytes (lone surrogates kept), then flush."""
    if not text:
        return
    buf = getattr(stream, "buffer", None)
    if buf is None:
        stream.write(text)
    else:
        stream.flush()
        buf.write(text.encode("utf-8", "surrogateescape"))
    stream.flush()


#: ``parbleu --flavor NAME``: each built-in flavor's runner, ``"module:attr"`` imported when it
#: runs (the command line names the flavors, not the other way round). A flavor registered
#: from outside parbleu brings its own (``FlavorInfo.runner``).
RUNNERS: dict[str, str] = {
    "mteval-v13a": "parbleu.cli.flavor_tools:run_mteval",
    "mteval-v14": "parbleu.cli.flavor_tools:run_mteval",
    "nltk": "parbleu.cli.flavor:run_nltk",
    "multi-bleu": "parbleu.cli.flavor_tools:run_moses",
    "multi-bleu-detok": "parbleu.cli.flavor_tools:run_moses",
    "coco": "parbleu.cli.flavor:run_coco",
    "tfnmt": "parbleu.cli.flavor:run_tfnmt",
    "hf-bleu": "parbleu.cli.flavor:run_hf_bleu",
    "t2t": "parbleu.cli.flavor_tools:run_t2t",
    "fairseq": "parbleu.cli.flavor_tools:run_fairseq",
    "torchmetrics": "parbleu.cli.flavor:run_torchmetrics",
    "torchmetrics-sacre": "parbleu.cli.flavor:run_torchmetrics_sacre",
}


def run_flavor(name: str, argv: list[str]) -> int:
    """Run ``parbleu --flavor NAME ARGV...`` through the registry; returns the exit code."""
    import importlib

    try:
        info = get_flavor(name)
    except InvalidOptionError as e:
        raise CliError(f"--flavor: {e}", ExitCode.USAGE) from None
    runner: Any = info.runner
    if runner is None:
        target = RUNNERS.get(info.name)
        if target is None:
            raise CliError(
                f"--flavor: {info.name!r} has no command-line runner (FlavorInfo.runner)",
                ExitCode.USAGE,
            )
        module, _, attr = target.partition(":")
        runner = getattr(importlib.import_module(module), attr)
    return int(runner(info.name, argv))


def build_explain_parser() -> argparse.ArgumentParser:
    """Parser of ``parbleu explain``."""
    from ..flavors import flavor_names

    p = argparse.ArgumentParser(
        prog="parbleu explain",
        description="Why SacreBLEU and another BLEU implementation disagree on these files: "
        "one factor changed at a time, with the score after each step.",
    )
    p.add_argument("refs", nargs="+", metavar="REF", help="Reference files (one per reference).")
    p.add_argument("--input", "-i", required=True, metavar="HYP", help="Hypothesis file.")
    p.add_argument(
        "--flavor",
        required=True,
        choices=flavor_names(),
        help="The other implementation (its default options).",
    )
    p.add_argument(
        "--examples",
        type=int,
        default=3,
        metavar="N",
        help="Segments with differing tokens to show. (Default: %(default)s)",
    )
    return p


def run_explain(argv: list[str]) -> int:
    """Run ``parbleu explain ARGV...``; returns the exit code (errors raise)."""
    from ..flavors import explain

    try:
        a = build_explain_parser().parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else ExitCode.USAGE
    hyps = read_text_lines(a.input)
    streams = [read_text_lines(r) for r in a.refs]
    for r, s in zip(a.refs, streams):
        if len(s) != len(hyps):
            raise CliError(
                f"hypothesis file {a.input!r} has {len(hyps)} lines but reference file {r!r} has "
                f"{len(s)}; the files must be aligned line by line"
            )
    with contextlib.redirect_stdout(io.StringIO()):
        expl = explain(hyps, streams, a.flavor, examples=a.examples)
    write_raw(expl.render() + "\n", sys.stdout)
    return ExitCode.OK
