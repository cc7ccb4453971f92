"""Resolution of the ``workers`` argument shared by every parallel entry point."""

from __future__ import annotations

import operator
import os

from .errors import InvalidOptionError

ENV_VAR = "PARBLEU_WORKERS"

#: Inputs with fewer segments than this are processed serially (threads cost more than they save).
SERIAL_BELOW = 256


def resolve_workers(workers: int | None, n_items: int) -> int:
    """Turn a user's ``workers`` value into a thread count for the core.

    Parameters
    ----------
    workers
        ``1`` serial, ``-1`` (or any value < 1) all cores, ``None`` the library default: the
        ``PARBLEU_WORKERS`` environment variable if set, else all cores. Values above the
        machine's cores are capped at that number.
    n_items
        Size of the job; small jobs always run serially.

    Returns
    -------
    int
        ``1`` for serial work, ``-1`` for all cores, else the requested thread count (the
        binding caps it at the number of cores).
    """
    if workers is None:
        env = os.environ.get(ENV_VAR, "").strip()
        if env:
            try:
                workers = int(env)
            except ValueError:
                raise InvalidOptionError(
                    f"environment variable {ENV_VAR}={env!r}: expected an integer "
                    "(1 = serial, -1 = all cores)"
                ) from None
        else:
            workers = -1
    try:
        if isinstance(workers, bool):
            raise TypeError
        workers = operator.index(workers)  # int and numpy integers, never a float
    except TypeError:
        raise InvalidOptionError(
            f"workers={workers!r}: expected an integer (1 = serial, -1 = all cores)"
        ) from None
    if n_items < SERIAL_BELOW:
        return 1
    if workers < 1:
        return -1
    # The thread count itself (capped at the cores: more only add switching, and 10**6 would
    # exhaust the process) is taken by the binding's `Workers`, the one place that resolves it.
    return workers
