"""The command line's log output: records of the ``parbleu`` logger on standard error.

Imported only once :mod:`logging` is (``parbleu._lazylog.when_logging_loads``): most commands
log nothing.
"""

from __future__ import annotations

import logging
import sys
from typing import Callable

__all__ = ["install"]


class _StderrHandler(logging.Handler):
    """Writes records to whatever ``sys.stderr`` is when they are emitted."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:  # pragma: no cover - logging's own convention
            self.handleError(record)


class _PrefixFormatter(logging.Formatter):
    """``prefix`` before each message, or ``own`` for records logged with ``parbleu_own``."""

    def __init__(self, prefix: str, own: str) -> None:
        super().__init__("%(message)s")
        self.prefix = prefix
        self.own = own

    def format(self, record: logging.LogRecord) -> str:
        mine = getattr(record, "parbleu_own", False)
        return (self.own if mine and self.prefix else self.prefix) + super().format(record)


def install(quiet: bool, prefix: str, own: str) -> Callable[[], None]:
    """Send the ``parbleu`` logger's records to standard error; return what undoes it.

    Parameters
    ----------
    quiet
        ``-q``: warnings and errors only, bare (Python's last-resort handler's format).
    prefix
        Before each message (``sacreBLEU: ``, or ``parbleu: `` for the subcommands).
    own
        Before the messages of parbleu's own features inside the SacreBLEU command.

    Returns
    -------
    callable
        Removes the handler and restores the logger's level and propagation.
    """
    logger = logging.getLogger("parbleu")
    handler = _StderrHandler(logging.WARNING if quiet else logging.INFO)
    handler.setFormatter(_PrefixFormatter("" if quiet else prefix, own))
    saved = (logger.level, logger.propagate)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False

    def restore() -> None:
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]

    return restore
