"""Connecting to a Dask cluster, the reduction tree, and progress fed by finished tasks."""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import warnings
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

#: Seconds to connect to a scheduler and get its greeting (another machine; this one:
#: ``LOOPBACK_TIMEOUT``). Dask's default, 30 s of retries, is long for a typo.
CONNECT_TIMEOUT = 10.0
LOOPBACK_TIMEOUT = 3.0

#: Dask settings of the local clusters started here (``local:N``), measured with
#: benchmarks/bench_distributed.py and one task timed inside a worker (200k lines, BLEU +
#: chrF):
#:
#: * Dask starts worker processes with ``MALLOC_TRIM_THRESHOLD_=65536`` so that they give
#:   memory back to the OS at once. Setting it also freezes glibc's mmap threshold at
#:   128 KiB, so every block's large buffers (the 1 MiB reads, the decoded text, the lists of
#:   65,536 lines) are mapped and unmapped again: 7 times the page faults of the same task in
#:   this process (142k against 19-30k) and 25-35 % more CPU time. A task's memory is
#:   bounded by ``block_lines`` anyway; ``None`` leaves the variable unset.
#: * The workers' statistical profiler samples the running task's stack every 10 ms: 10-15 %
#:   more CPU time on a task that runs Python code; nothing here reads its profiles.
LOCAL_CONFIG: dict[str, Any] = {
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    "distributed.worker.profile.enabled": False,
}

_log = logging.getLogger("parbleu")


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
        with _local_cluster(dist, scheduler, spec[6:]) as client:
            yield client
        return
    timeout = probe_scheduler(spec, scheduler)
    try:
        client = dist.Client(spec, timeout=f"{timeout}s")
    except (OSError, TimeoutError, ValueError, MemoryError) as e:
        # MemoryError: Dask took the first bytes of something else for a message length.
        raise InvalidOptionError(
            f"scheduler={scheduler!r}: cannot reach a Dask scheduler there within {timeout:g} s "
            f"({type(e).__name__}: {e})"
        ) from None
    with client:
        yield client


def local_workers(scheduler: str, raw: str) -> int:
    """Worker processes of ``local:N`` (``local``: one per core), capped at the cores.

    Capped as ``workers=`` is (:func:`parbleu._workers.resolve_workers`): more processes
    than cores only add switching, and ``local:100000`` would exhaust the machine.
    """
    from .. import _core

    cores = max(1, _core.available_workers())
    if not raw:
        return cores
    if not raw.isdigit() or int(raw) < 1:
        raise InvalidOptionError(
            f"scheduler={scheduler!r}: expected 'local:N' with N >= 1 worker processes"
        )
    if len(raw) > 6 or int(raw) > cores:
        _log.info(
            f"scheduler={scheduler!r}: {cores} worker processes (the cores available)",
            extra={"parbleu_own": True},  # a parbleu feature: "parbleu:" in the command line
        )
        return cores
    return int(raw)


@contextlib.contextmanager
def _local_cluster(dist: Any, scheduler: str, raw: str) -> Iterator[Any]:
    """Yield a client of a local cluster of worker processes; close it after, even on Ctrl-C."""
    import dask
    from distributed.deploy.spec import SpecCluster

    n = local_workers(scheduler, raw)
    refuse_unguarded_main(scheduler)
    before = set(SpecCluster._instances)
    try:
        with warnings.catch_warnings(), _without_dask_trim(dask), dask.config.set(LOCAL_CONFIG):
            # The scheduler's HTTP server (health checks) moves to a free port when 8787 is
            # taken, with a warning; nothing here uses that port.
            warnings.filterwarnings("ignore", message=r"Port \d+ is already in use")
            cluster = dist.LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                # A failed task's error reaches the caller; the workers' own log of it (a
                # traceback on standard error) would only repeat it.
                silence_logs=logging.CRITICAL,
            )
    except BaseException:
        # Interrupted half-way (Ctrl-C while the workers start): close what was started and
        # forget it, or Dask's exit hook closes it again and prints an AssertionError.
        new = set(SpecCluster._instances) - before
        if new:
            # Workers whose start was cut short fail in tasks nobody awaits any more; asyncio
            # would log each as "Task exception was never retrieved" when it is collected.
            logging.getLogger("asyncio").addFilter(_DropUnstartedWorkers())
        for c in new:
            with contextlib.suppress(BaseException):
                _wait_started(c, 10.0)
                c.close(timeout=5)
            SpecCluster._instances.discard(c)
        raise
    try:
        with dist.Client(cluster) as client:
            yield client
    finally:
        cluster.close()


@contextlib.contextmanager
def _without_dask_trim(dask: Any) -> Iterator[None]:
    """Keep Dask's ``MALLOC_TRIM_THRESHOLD_`` out of the worker processes started inside.

    A Dask nanny copies its start-up variables into this process's ``os.environ`` and leaves
    them there, so after any default Dask cluster in this process the workers would inherit
    the variable whatever ``LOCAL_CONFIG`` says. A value other than Dask's default (one the
    user set) is kept.
    """
    key = "MALLOC_TRIM_THRESHOLD_"
    dask_value = dask.config.get("distributed.nanny.pre-spawn-environ", {}).get(key)
    found = os.environ.get(key)
    ours = found is not None and dask_value is not None and found == str(dask_value)
    if ours:
        del os.environ[key]
    try:
        yield
    finally:
        if ours and found is not None:
            os.environ.setdefault(key, found)


def _wait_started(cluster: Any, timeout: float) -> None:
    """Wait until the workers a cluster created have started (or failed), at most ``timeout``.

    Closing a worker whose process is still reading its start-up state from this process
    makes that child print a traceback of its own (``SemLock._rebuild``: FileNotFoundError).
    """
    import time

    from distributed.core import Status

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(
        getattr(w, "status", None) in (Status.init, Status.starting)
        for w in list(getattr(cluster, "_created", ()))
    ):
        time.sleep(0.02)


class _DropUnstartedWorkers(logging.Filter):
    """Drop asyncio's log of a worker (nanny) whose start was interrupted."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not (
            record.getMessage().startswith("Task exception was never retrieved")
            and "failed to start" in str(exc)
        )


def probe_scheduler(spec: str, scheduler: str) -> float:
    """Check that a Dask scheduler answers at ``spec``; return the timeout to use.

    Dask's own connection waits for the scheduler's greeting without a time limit (a port
    that accepts and stays silent hangs it), reads an HTTP server's reply as a message length
    (an "out of memory" error for the dashboard's port), and retries a refused port for its
    whole timeout. This opens one TCP connection with ``CONNECT_TIMEOUT`` (``LOOPBACK_TIMEOUT``
    on this machine) and reads the greeting every Dask scheduler sends at once; anything else
    raises ``InvalidOptionError`` saying what was found. Schemes other than ``tcp`` and
    ``tls`` are left to Dask (with the same timeout).
    """
    import ipaddress
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, loc = parse_address(spec)
        host, port = parse_host_port(loc, 8786) if scheme in ("tcp", "tls") else ("", 0)
    except (ValueError, TypeError) as e:
        raise InvalidOptionError(
            f"scheduler={scheduler!r}: not a scheduler address (tcp://HOST:8786) ({e})"
        ) from None
    if scheme not in ("tcp", "tls"):
        return CONNECT_TIMEOUT
    where = f"scheduler={scheduler!r}"
    if not 0 < port < 65536:
        raise InvalidOptionError(f"{where}: port {port} is not a TCP port (1-65535)")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise InvalidOptionError(f"{where}: cannot resolve host {host!r} ({e})") from None
    loopback = all(ipaddress.ip_address(str(i[4][0]).split("%")[0]).is_loopback for i in infos)
    timeout = LOOPBACK_TIMEOUT if loopback else CONNECT_TIMEOUT
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        raise InvalidOptionError(
            f"{where}: connection refused (nothing listens on port {port} of {host})"
        ) from None
    except (TimeoutError, socket.timeout):
        raise InvalidOptionError(
            f"{where}: no answer to a connection within {timeout:g} s (connect timeout)"
        ) from None
    except OSError as e:
        raise InvalidOptionError(f"{where}: cannot connect ({e})") from None
    with sock:
        if scheme == "tls":
            return timeout
        sock.settimeout(timeout)
        head = _recv_some(sock, 8)
        if head is None:
            # Silent: an HTTP server waits for a request; anything else stays silent.
            with contextlib.suppress(OSError):
                sock.sendall(
                    b"GET / HTTP/1.0\r\nHost: " + host.encode("ascii", "replace") + b"\r\n\r\n"
                )
            sock.settimeout(timeout / 3)  # an HTTP server answers at once
            head = _recv_some(sock, 8)
            if head is not None and head.startswith(b"HTTP/"):
                raise InvalidOptionError(
                    f"{where}: an HTTP server answers on port {port}, not a Dask scheduler (the "
                    "dashboard, usually port 8787?); give the scheduler's port, which `dask "
                    "scheduler` prints as 'Scheduler at: tcp://HOST:8786'"
                )
            raise InvalidOptionError(
                f"{where}: the connection was accepted but nothing answered within "
                f"{timeout:g} s (connect timeout; a Dask scheduler greets at once)"
            )
        if head == b"":
            raise InvalidOptionError(
                f"{where}: the connection was closed at once; not a Dask scheduler"
            )
        if head.startswith(b"HTTP/") or len(head) < 8 or int.from_bytes(head, "little") > 1 << 20:
            raise InvalidOptionError(
                f"{where}: something that is not a Dask scheduler answers on port {port} "
                f"(it sent {head!r})"
            )
    return timeout


def _recv_some(sock: Any, n: int) -> bytes | None:
    """Up to ``n`` bytes (``b""``: closed), or ``None`` when nothing came before the timeout."""
    import socket

    data = b""
    try:
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                break
            data += chunk
    except (TimeoutError, socket.timeout):
        return data or None
    except OSError:
        return data
    return data


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
