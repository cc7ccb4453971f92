r"""``parbleu --flavor NAME ...`` and ``parbleu explain ...``: other BLEU implementations.

The command-line tools keep their own command lines and print what they print:

    parbleu --flavor multi-bleu [-lc] REF [REF ...] < HYP          (multi-bleu.perl)
    parbleu --flavor multi-bleu-detok [-lc] REF [REF ...] < HYP    (multi-bleu-detok.perl)
    parbleu --flavor mteval-v13a -r REF.sgm -s SRC.sgm -t TST.sgm [-c] [-b|-n] ...
    parbleu --flavor t2t --translation HYP --reference REF          (t2t-bleu)
    parbleu --flavor fairseq -s HYP -r REF [-o N] [--ignore-case]  (fairseq-score)

parbleu's ``-i HYP`` is accepted where the tool has a hypothesis (multi-bleu: instead of
standard input; t2t: ``--translation``; fairseq: ``-s``) and refused by mteval (its system
output is an SGML/XML test set). ``--flavor NAME --help`` prints :data:`TOOL_HELP`.

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
from typing import Any

from .._options import MAX_ORDER
from ..errors import FlavorError
from ..flavors import flavor_names
from .errors import CliError, ExitCode

__all__ = [
    "LIBRARY_FLAVORS",
    "TOOL_FLAVORS",
    "TOOL_HELP",
    "build_explain_parser",
    "build_library_parser",
    "run_explain",
    "run_flavor",
    "split_flavor",
]

#: Flavors whose originals are command-line tools: their own arguments are passed through.
TOOL_FLAVORS = ("multi-bleu", "multi-bleu-detok", "mteval-v13a", "mteval-v14", "t2t", "fairseq")
#: Flavors whose originals are Python libraries: ``REF ... -i HYP`` plus a few options.
LIBRARY_FLAVORS = tuple(n for n in flavor_names() if n not in TOOL_FLAVORS)


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


def _read(path: str) -> list[str]:
    from ..flavors._common import read_lines

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


def _library(name: str, argv: list[str], out: Any) -> int:
    from ..flavors import _common

    a = build_library_parser(name).parse_args(argv)
    hyps = _read(a.input)
    streams = [_read(r) for r in a.refs]
    for r, s in zip(a.refs, streams):
        if len(s) != len(hyps):
            raise CliError(
                f"hypothesis file {a.input!r} has {len(hyps)} lines but reference file {r!r} has "
                f"{len(s)}; the files must be aligned line by line"
            )
    segs = [[s[i] for s in streams] for i in range(len(hyps))]

    def toks(lines: list[str]) -> list[list[str]]:
        if a.tokenize == "13a":
            return _common.tokens(lines, ("13a", "keep", "python"))
        return [x.split() for x in lines]

    def seg_toks() -> list[list[list[str]]]:
        flat = iter(toks([r for rs in segs for r in rs]))
        return [[next(flat) for _ in rs] for rs in segs]

    n = a.max_order
    if name == "nltk":
        from ..flavors import nltk

        weights = tuple([1.0 / n] * n)
        sf = None
        if a.smooth is not None:
            if a.smooth not in [str(k) for k in range(8)]:
                raise CliError(f"--smooth: expected an NLTK smoothing method 0-7, got {a.smooth!r}")
            sf = getattr(nltk.SmoothingFunction(), f"method{a.smooth}")
        h, r = toks(hyps), seg_toks()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if a.sentence_level:
                for hh, rr in zip(h, r):
                    out.write(f"{nltk.sentence_bleu(rr, hh, weights, sf)!r}\n")
                return ExitCode.OK
            out.write(f"{nltk.corpus_bleu(r, h, weights, sf)!r}\n")
    elif name == "tfnmt":
        from ..flavors import tfnmt

        res = tfnmt.compute_bleu(seg_toks(), toks(hyps), n, a.smooth is not None)
        out.write(f"{res!r}\n")
    elif name == "hf-bleu":
        from ..flavors import tfnmt

        d = tfnmt.hf_bleu(hyps, segs, max_order=n, smooth=a.smooth is not None)
        out.write(json.dumps(d) + "\n")
    elif name == "coco":
        from ..flavors import coco

        scorer = coco.BleuScorer(n=n)
        for h1, rs in zip(hyps, segs):
            scorer += (h1, rs)
        score, _ = scorer.compute_score(option=a.reflen, verbose=1)
        for k, sc in enumerate(score, 1):
            out.write(f"Bleu_{k}: {sc:0.3f}\n")
    else:
        from ..flavors import torchmetrics

        kw: dict[str, Any] = {"n_gram": n, "smooth": a.smooth is not None}
        if name == "torchmetrics":
            v = torchmetrics.bleu_score(hyps, segs, **kw)
        else:
            v = torchmetrics.sacre_bleu_score(hyps, segs, **kw)
        out.write(f"{float(v)!r}\n")
    return ExitCode.OK


#: ``parbleu --flavor NAME --help`` of the command-line tools: their command line, and what
#: parbleu's own ``-i HYP`` means there (accepted where the tool has a hypothesis argument or
#: reads standard input; refused where it takes SGML/XML files).
TOOL_HELP = {
    "multi-bleu": """\
usage: parbleu --flavor multi-bleu [-lc] REF [REF ...] < HYP
       parbleu --flavor multi-bleu [-lc] REF [REF ...] -i HYP

Score as Moses' multi-bleu.perl (mosesdecoder 34452895): its output, stderr and exit status.
REF is the script's reference argument: REF0, REF1, ... while they exist, then REF itself.
Further REF arguments are more reference files.

  -lc       lower-case A-Z (first argument only, as the script reads it)
  -i HYP    read the hypotheses from HYP instead of standard input (parbleu's -i; the script
            itself would take HYP as one more reference file)
  -h, --help  show this help and exit

Option-like arguments other than these, and further reference files that do not exist (the
script skips both silently), are refused.
""",
    "mteval-v13a": """\
usage: parbleu --flavor mteval-v13a -r REF -s SRC -t TST [-c] [-b | -n] [-d [N]]
                                    [-x "document info"] [--brevity-penalty closest|shortest]
                                    [--international-tokenization] [--no-smoothing]
                                    [--metricsMATR]

Score as NIST's mteval-v13a.pl (Moses copy, 34452895): its report, byte for byte but for the
dates. REF, SRC and TST are SGML files (or XML files, named *.xml).

  -r REF    reference sets           -c   keep case
  -s SRC    source set               -b   BLEU only; -n NIST only
  -t TST    test (system) sets       -d N detail: 1 documents, 2 segments, 3 n-grams
  -x "document info"  per-document n-gram counts
  --brevity-penalty closest|shortest, --international-tokenization, --no-smoothing
  --metricsMATR  also write {BLEU,NIST}-{sys,doc,seg}.scr in the current directory
  -h, --help  show this help and exit

-i is refused: the system output must be an SGML/XML test set (-t); for plain-text files use
parbleu.flavors.mteval.score_lines.
""",
    "t2t": """\
usage: parbleu --flavor t2t --translation HYP --reference REF

Score as tensor2tensor's t2t-bleu: prints BLEU_uncased and BLEU_cased.

  --translation HYP, -i HYP   the hypothesis file (-i is parbleu's name for it)
  --reference REF             the reference file
  -h, --help  show this help and exit
""",
    "fairseq": """\
usage: parbleu --flavor fairseq [-s HYP | -i HYP] -r REF [-o N] [--ignore-case]

Score as fairseq 0.12.2's fairseq-score: prints its Namespace(...) line and its BLEU line.

  -s HYP, --sys HYP, -i HYP   the system output (default: standard input; -i is parbleu's
                              name for it)
  -r REF, --ref REF           the reference file
  -o N, --order N             n-gram order (at most 4)
  --ignore-case               lower-case both sides
  -h, --help  show this help and exit
""",
}
TOOL_HELP["multi-bleu-detok"] = (
    TOOL_HELP["multi-bleu"]
    .replace("multi-bleu ", "multi-bleu-detok ")
    .replace("multi-bleu.perl", "multi-bleu-detok.perl")
)
TOOL_HELP["mteval-v14"] = (
    TOOL_HELP["mteval-v13a"].replace("v13a", "v14").replace("\n" + " " * 36, "\n" + " " * 35)
)

_HELP = ("-h", "--help")


def _moses_args(name: str, argv: list[str]) -> tuple[list[str], str | None]:
    """Split the script's own arguments from ``-i HYP``; refuse what the script would skip."""
    import os

    args: list[str] = []
    hyp: str | None = None
    it = iter(enumerate(argv))
    for k, a in it:
        if a in ("-i", "--input"):
            nxt = next(it, None)
            if nxt is None:
                raise CliError(f"--flavor {name}: {a}: expected a hypothesis file", ExitCode.USAGE)
            hyp = nxt[1]
        elif a.startswith("--input="):
            hyp = a.split("=", 1)[1]
        elif a == "-lc" and k == 0:
            args.append(a)
        elif a == "-lc":
            raise CliError(
                f"--flavor {name}: -lc must be the first argument (the script reads it only "
                "there and would take it for a reference file)",
                ExitCode.USAGE,
            )
        elif a.startswith("-") and a != "-":
            raise CliError(
                f"--flavor {name}: unknown option {a!r}; the command line is [-lc] REF [REF ...] "
                "with the hypotheses on standard input or in -i HYP (see --help)",
                ExitCode.USAGE,
            )
        else:
            args.append(a)
    refs = args[1:] if args[:1] == ["-lc"] else args
    for extra in refs[1:]:
        if not os.path.exists(extra):
            raise CliError(
                f"--flavor {name}: reference file {extra!r} does not exist (the script would "
                "skip it silently)"
            )
    return args, hyp


def _tool(name: str, argv: list[str]) -> int:
    if any(a in _HELP for a in argv):
        _write(TOOL_HELP[name], sys.stdout)
        return ExitCode.OK
    try:
        return _run_tool(name, argv)
    except SystemExit as e:  # the tool's own argparse usage error (or --help)
        return e.code if isinstance(e.code, int) else ExitCode.USAGE
    except OSError as e:
        # A file the tool reads itself (t2t's --translation, fairseq's -s/-r, ...).
        where = f" {e.filename!r}" if e.filename is not None else ""
        raise CliError(f"--flavor {name}: cannot read{where}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise CliError(
            f"--flavor {name}: input is not valid {e.encoding} ({e.reason} at byte {e.start})"
        ) from None


def _run_tool(name: str, argv: list[str]) -> int:
    out = io.StringIO()
    err = io.StringIO()
    if name in ("multi-bleu", "multi-bleu-detok"):
        from ..flavors import moses

        args, hyp = _moses_args(name, argv)
        stdin = None
        if hyp is not None:
            try:
                with open(hyp, "rb") as f:
                    stdin = f.read()
            except OSError as e:
                raise CliError(f"cannot read {hyp!r}: {e.strerror}") from None
        code = moses.main(args, name == "multi-bleu-detok", stdin, out, err)
    elif name.startswith("mteval"):
        from ..flavors import mteval

        bad = [a for a in argv if a in ("-i", "--input") or a.startswith("--input=")]
        if bad:
            raise CliError(
                f"--flavor {name}: {bad[0].split('=')[0]} is not an option of {name}.pl: give "
                "the SGML/XML files as -r REF -s SRC -t TST (plain-text files: "
                "parbleu.flavors.mteval.score_lines)",
                ExitCode.USAGE,
            )
        code = mteval.main(argv, name.split("-")[1], out, err)
    elif name == "fairseq":
        from ..flavors import fairseq

        args = ["--sys" if a == "-i" else a for a in argv]
        args = ["--sys=" + a.split("=", 1)[1] if a.startswith("--input=") else a for a in args]
        args = ["--sys" if a == "--input" else a for a in args]
        try:
            code = fairseq.main(args, out)
        except SystemExit as e:
            return e.code if isinstance(e.code, int) else ExitCode.USAGE
    else:
        from ..flavors import t2t

        p = argparse.ArgumentParser(prog="parbleu --flavor t2t", add_help=False)
        p.add_argument("--translation", "-i", "--input", required=True)
        p.add_argument("--reference", required=True)
        try:
            a = p.parse_args(argv)
        except SystemExit as e:
            return e.code if isinstance(e.code, int) else ExitCode.USAGE
        out.write(t2t.t2t_bleu(a.translation, a.reference))
        code = 0
    _write(out.getvalue(), sys.stdout)
    _write(err.getvalue(), sys.stderr)
    return code


def _write(text: str, stream: Any) -> None:
    if not text:
        return
    buf = getattr(stream, "buffer", None)
    if buf is None:
        stream.write(text)
    else:
        stream.flush()
        buf.write(text.encode("utf-8", "surrogateescape"))
    stream.flush()


def run_flavor(name: str, argv: list[str]) -> int:
    """Run ``parbleu --flavor NAME ARGV...``; returns the exit code (errors raise)."""
    if name in TOOL_FLAVORS:
        return _tool(name, argv)
    if name in LIBRARY_FLAVORS:
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                code = _library(name, argv, buf)
        except SystemExit as e:
            _write(buf.getvalue(), sys.stdout)
            return e.code if isinstance(e.code, int) else ExitCode.USAGE
        except FlavorError:
            _write(buf.getvalue(), sys.stdout)
            raise
        _write(buf.getvalue(), sys.stdout)
        return code
    raise CliError(
        f"--flavor: unknown flavor {name!r}; expected one of "
        + ", ".join(TOOL_FLAVORS + LIBRARY_FLAVORS),
        ExitCode.USAGE,
    )


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
    hyps = _read(a.input)
    streams = [_read(r) for r in a.refs]
    for r, s in zip(a.refs, streams):
        if len(s) != len(hyps):
            raise CliError(
                f"hypothesis file {a.input!r} has {len(hyps)} lines but reference file {r!r} has "
                f"{len(s)}; the files must be aligned line by line"
            )
    with contextlib.redirect_stdout(io.StringIO()):
        expl = explain(hyps, streams, a.flavor, examples=a.examples)
    _write(expl.render() + "\n", sys.stdout)
    return ExitCode.OK
