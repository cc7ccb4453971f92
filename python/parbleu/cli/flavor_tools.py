"""``parbleu --flavor NAME``: the runners of the flavors whose originals are command-line tools.

Each keeps its tool's own arguments and prints what the tool prints (see ``parbleu.cli.flavor``);
the flavor registry (:mod:`parbleu.flavors.registry`) names them as each entry's ``runner``.
"""

from __future__ import annotations

import argparse
import io
import sys
from functools import partial
from typing import Callable

from .errors import CliError, ExitCode
from .flavor import write_raw
from .io import hint_if_terminal

__all__ = ["TOOL_HELP", "run_fairseq", "run_moses", "run_mteval", "run_t2t"]


#: A tool's work: ``body(name, argv, out, err)`` -> exit status.
_Body = Callable[[str, list[str], io.StringIO, io.StringIO], int]

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


def _tool(name: str, argv: list[str], body: _Body) -> int:
    """Help, the tool's output streams and its errors around ``body(name, argv, out, err)``."""
    if any(a in _HELP for a in argv):
        write_raw(TOOL_HELP[name], sys.stdout)
        return ExitCode.OK
    out = io.StringIO()
    err = io.StringIO()
    try:
        code = body(name, argv, out, err)
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
    write_raw(out.getvalue(), sys.stdout)
    write_raw(err.getvalue(), sys.stderr)
    return code


def _moses(name: str, argv: list[str], out: io.StringIO, err: io.StringIO) -> int:
    from ..flavors import moses

    args, hyp = _moses_args(name, argv)
    stdin = None
    if hyp is not None:
        try:
            with open(hyp, "rb") as f:
                stdin = f.read()
        except OSError as e:
            raise CliError(f"cannot read {hyp!r}: {e.strerror}") from None
    else:
        hint_if_terminal()
    return moses.main(args, name == "multi-bleu-detok", stdin, out, err)


def _mteval(name: str, argv: list[str], out: io.StringIO, err: io.StringIO) -> int:
    from ..flavors import mteval

    bad = [a for a in argv if a in ("-i", "--input") or a.startswith("--input=")]
    if bad:
        raise CliError(
            f"--flavor {name}: {bad[0].split('=')[0]} is not an option of {name}.pl: give "
            "the SGML/XML files as -r REF -s SRC -t TST (plain-text files: "
            "parbleu.flavors.mteval.score_lines)",
            ExitCode.USAGE,
        )
    return mteval.main(argv, name.split("-")[1], out, err)


def _fairseq_sys(args: list[str]) -> str:
    """Return the value of fairseq-score's ``-s/--sys`` (the last one given; ``-`` by default)."""
    value = "-"
    for i, a in enumerate(args):
        if a in ("-s", "--sys") and i + 1 < len(args):
            value = args[i + 1]
        elif a.startswith("--sys="):
            value = a.split("=", 1)[1]
        elif a.startswith("-s") and not a.startswith("--"):
            value = a[2:]
    return value


def _fairseq(name: str, argv: list[str], out: io.StringIO, err: io.StringIO) -> int:
    from ..flavors import fairseq

    args = ["--sys" if a == "-i" else a for a in argv]
    args = ["--sys=" + a.split("=", 1)[1] if a.startswith("--input=") else a for a in args]
    args = ["--sys" if a == "--input" else a for a in args]
    if _fairseq_sys(args) == "-":
        hint_if_terminal()  # fairseq-score's -s defaults to "-", standard input
    return fairseq.main(args, out)


def _t2t(name: str, argv: list[str], out: io.StringIO, err: io.StringIO) -> int:
    from ..flavors import t2t

    p = argparse.ArgumentParser(prog="parbleu --flavor t2t", add_help=False)
    p.add_argument("--translation", "-i", "--input", required=True)
    p.add_argument("--reference", required=True)
    a = p.parse_args(argv)
    out.write(t2t.t2t_bleu(a.translation, a.reference))
    return 0


#: ``parbleu --flavor NAME ...`` of the command-line tools (the registry's runners).
run_moses = partial(_tool, body=_moses)
run_mteval = partial(_tool, body=_mteval)
run_fairseq = partial(_tool, body=_fairseq)
run_t2t = partial(_tool, body=_t2t)
