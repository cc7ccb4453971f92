"""Connecting to a Dask cluster, the reduction tree, and progress fed by finished tasks."""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Iterator, Sequence
from typing import Any, Callable

from ..errors import InvalidOptionError, MissingDependencyError
from ..progress import ProgressArg, make_progress
from ._main_guard import refuse_unguarded_main

__all__ = ["SchedulerArg", "connect", "import_dask", "reduce_tree"]

#: ``"local:N"`` (a local cluster of N worker processes), ``"local"`` (one per core), an
#: address (``"tcp://host:8786"``), a ``distributed.Client``, or ``None`` (the current client).
SchedulerArg = Any

#: Partials merged by one task of the reduction tree.
SPLIT_EVERY = 8


def import_dask(module: str = "distributed") -> Any:
    """Import a module of the ``dask`` extra, or say how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise MissingDependencyError(
            f"parbleu.distributed needs the optional dependencies of parbleu[dask] ({e}); "
            "install them with: pip install 'parbleu[dask]'"
        ) from None


@contextlib.contextmanager
def connect(scheduler: SchedulerArg = None) -> Iterator[Any]:
    """Yield a ``distributed.Client`` for ``scheduler`` (a cluster started here is closed after).

    Parameters
    ----------
    scheduler
        ``"local:N"``: N worker processes of one thread on this machine (127.0.0.1);
        ``"local"``: one per core; an address such as ``"tcp://10.0.0.5:8786"``; a
        ``distributed.Client`` (used as it is); ``None``: the client already made in this
        process (``distributed.Client(...)``).

    Yields
    ------
    distributed.Client
        The client.
    """
    dist = import_dask()
    if isinstance(scheduler, dist.Client):
        yield scheduler
        return
    if scheduler is None:
        try:
            yield dist.get_client()
        except ValueError:
            raise InvalidOptionError(
                "scheduler: None, and no Dask client exists in this process; pass an address "
                "(tcp://HOST:8786), 'local:N', or a distributed.Client"
            ) from None
        return
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise InvalidOptionError(
            f"scheduler={scheduler!r}: expected an address (tcp://HOST:8786), 'local', "
            "'local:N' or a distributed.Client"
        )
    spec = scheduler.strip()
    if spec == "local" or spec.startswith("local:"):
        raw = spec[6:] or str(os.cpu_count() or 1)
        if not raw.isdigit() or int(raw) < 1:
            raise InvalidOptionError(
                f"scheduler={scheduler!r}: expected 'local:N' with N >= 1 worker processes"
            )
        refuse_unguarded_main(scheduler)
        cluster = dist.LocalCluster(
            n_workers=int(raw),
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
        try:
            with dist.Client(cluster) as client:
                yield client
        finally:
            cluster.close()
        return
    try:
        client = dist.Client(spec, timeout="20s")
    except (OSError, TimeoutError, ValueError) as e:
        raise InvalidOptionError(
            f"scheduler={scheduler!r}: cannot reach a Dask scheduler there ({e})"
        ) from None
    with client:
        yield client


def reduce_tree(
    client: Any,
    leaves: Sequence[Any],
    combine: Callable[..., Any],
    *,
    weights: Sequence[int] | None = None,
    progress: ProgressArg = None,
    unit: str = "lines",
) -> Any:
    """Merge the results of ``leaves`` (futures) on the workers, ``SPLIT_EVERY`` at a time.

    Order is kept: ``combine(*results)`` receives neighbours in the order of ``leaves``.

    Parameters
    ----------
    client
        The Dask client.
    leaves
        Futures of the partitions' results, in corpus order.
    combine
        Merges several results in order.
    weights
        Work of each leaf, for progress (default 1 each).
    progress
        ``True`` for a bar on standard error, a callable ``progress(done, total)``, or
        ``None``; advanced as leaves finish on the cluster.
    unit
        Unit of the weights, for the bar.

    Returns
    -------
    Any
        The merged result (brought to this process).
    """
    dist = import_dask()
    level = list(leaves)
    while len(level) > 1:
        level = [
            client.submit(combine, *level[i : i + SPLIT_EVERY], pure=False)
            for i in range(0, len(level), SPLIT_EVERY)
        ]
    w = list(weights) if weights is not None else [1] * len(leaves)
    report, bar = make_progress(progress, sum(w), unit, "parbleu")
    try:
        if report is not None:
            index = {f.key: k for k, f in enumerate(leaves)}
            done = 0
            for fut in dist.as_completed(list(leaves)):
                done += w[index[fut.key]]
                report(done, sum(w))
        return level[0].result()
    finally:
        if bar is not None:
            bar.close(clear=True)
