"""Refuse a local cluster that each worker process would start again (no ``__main__`` guard).

Dask starts the worker processes of ``scheduler="local:N"`` with multiprocessing's ``spawn``
method: each one imports the parent's main module again (as ``__mp_main__``). A script that
scores at its top level, outside ``if __name__ == "__main__":``, so starts a cluster inside
every worker while it boots; multiprocessing refuses that, and Dask reports pages of
"Nanny failed to start" tracebacks. This module says it in one line instead, before any
process starts (the parent) or as soon as a child gets there.
"""

from __future__ import annotations

import ast
import multiprocessing
import sys
import tokenize
from types import FrameType

from ..errors import InvalidOptionError

__all__ = ["refuse_unguarded_main"]


def _message(scheduler: str) -> str:
    return (
        f"scheduler={scheduler!r} starts worker processes that import the main module again, "
        "and this call runs at the main module's top level: put the code that scores under "
        '`if __name__ == "__main__":` (see docs/distributed.md)'
    )


def _is_main_guard(node: ast.stmt) -> bool:
    """Whether ``node`` is ``if __name__ == "__main__":`` (either operand order)."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    values = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and values == ["__main__"]


def _main_frame() -> FrameType | None:
    """Return the frame running the main module's top-level code, if this call comes from it."""
    main = sys.modules.get("__main__")
    if main is None or not getattr(main, "__file__", None):
        return None  # an interactive session, python -c, a notebook: nothing is re-imported
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_globals is vars(main) and frame.f_code.co_name == "<module>":
            return frame
        frame = frame.f_back  # type: ignore[assignment]
    return None


def _called_outside_guard() -> bool:
    """Whether this call runs in top-level code of a main script that is not guarded."""
    frame = _main_frame()
    if frame is None:
        return False
    try:
        with tokenize.open(frame.f_code.co_filename) as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return False  # no source to read: let Dask try
    line = frame.f_lineno
    for node in tree.body:
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            return not _is_main_guard(node)
    return False


def refuse_unguarded_main(scheduler: str) -> None:
    """Raise where a local cluster of processes would be started again by its own workers.

    Parameters
    ----------
    scheduler
        The ``scheduler`` argument, for the message.

    Raises
    ------
    InvalidOptionError
        In a spawned child that is still importing its parent's main module (multiprocessing's
        bootstrapping phase), or when called from unguarded top-level code of the main script
        while Dask starts its workers with ``spawn`` or ``forkserver`` (its default).
    """
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise InvalidOptionError(_message(scheduler))
    import dask

    method = dask.config.get("distributed.worker.multiprocessing-method", "spawn")
    if method != "fork" and _called_outside_guard():
        raise InvalidOptionError(_message(scheduler))
