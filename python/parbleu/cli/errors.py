"""Exit codes of the ``parbleu`` command and the one exception that carries them."""

from __future__ import annotations

import enum

__all__ = ["CliError", "ExitCode"]


class ExitCode(enum.IntEnum):
    """What ``parbleu`` returns; ``docs/cli.md`` documents the same table."""

    #: Scores were printed.
    OK = 0
    #: Invalid input or option combination: a missing or unreadable file, a file that does not
    #: decode, hypothesis and reference files of different lengths, an option value the
    #: metric rejects (any ``ParbleuError``). SacreBLEU also exits with 1 for these.
    ERROR = 1
    #: The command line does not parse (argparse's own usage message).
    USAGE = 2
    #: A SacreBLEU feature parbleu does not provide (yet): test-set download, significance
    #: tests before ``parbleu.significance`` exists, a metric class this build lacks.
    NOT_IMPLEMENTED = 3
    #: Tab-separated input with the wrong number of fields (``--num-refs``, several systems on
    #: standard input): SacreBLEU's own code for this, kept.
    BAD_FIELDS = 17
    #: An unexpected internal error (a bug: please report it).
    INTERNAL = 70
    #: Interrupted with Ctrl-C (128 + SIGINT).
    INTERRUPTED = 130
    #: The reader of standard output went away (``parbleu ... | head -0``): 128 + SIGPIPE,
    #: what a shell reports for SacreBLEU, which dies of the signal.
    BROKEN_PIPE = 141


class CliError(Exception):
    """An error to report as one line on standard error, with its exit code.

    Parameters
    ----------
    message
        What went wrong; newlines are folded so the report stays on one line.
    code
        The exit code.
    """

    def __init__(self, message: str, code: ExitCode = ExitCode.ERROR) -> None:
        super().__init__(message)
        self.message = " ".join(message.splitlines())
        self.code = code
