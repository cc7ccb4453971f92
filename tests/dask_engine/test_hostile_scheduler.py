"""Hostile schedulers and bad command lines for the Dask path (issue 28), Ctrl-C (issue 25).

A port that accepts and stays silent, an HTTP server, refused and impossible ports, huge
``local:N``, Ctrl-C while a local cluster starts or while a job runs, and the exit codes of
``parbleu distributed``: one clear message each, never a hang, a traceback or exit 70.
"""

from __future__ import annotations

import gzip
import http.server
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dask_support import require_dask

import parbleu
from helpers import default_sigint
from parbleu.cli import main
from parbleu.streaming import FileFormatError

require_dask()

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from parbleu import distributed as dist  # noqa: E402
from parbleu.distributed import cluster  # noqa: E402

# The children import the parbleu that this test imports.
PYTHONPATH = str(Path(parbleu.__file__).resolve().parents[1])


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts connections and never says a word."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        srv.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(srv.accept()[0])
            except OSError:
                continue

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    try:
        yield srv.getsockname()[1]
    finally:
        stop.set()
        t.join()
        for c in held:
            c.close()
        srv.close()


@pytest.fixture
def http_port() -> Iterator[int]:
    """A real HTTP server on 127.0.0.1 (as the Dask dashboard is)."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield srv.server_address[1]
    finally:
        srv.shutdown()
        srv.server_close()


def _files(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "h").write_text("a b c\nd e f\n", encoding="utf-8")
    (tmp_path / "r").write_text("a b c\nd e g\n", encoding="utf-8")
    return str(tmp_path / "h"), str(tmp_path / "r")


def test_silent_port_times_out_and_says_so(silent_port: int, tmp_path: Path) -> None:
    h, r = _files(tmp_path)
    t0 = time.monotonic()
    with pytest.raises(parbleu.InvalidOptionError) as e:
        dist.score_files(h, r, scheduler=f"tcp://127.0.0.1:{silent_port}")
    elapsed = time.monotonic() - t0
    assert "nothing answered within 3 s (connect timeout" in str(e.value)
    assert elapsed < 3 * cluster.LOOPBACK_TIMEOUT, elapsed  # Dask alone waits for ever


def test_http_server_is_named(
    http_port: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    h, r = _files(tmp_path)
    assert main([r, "-i", h, "--scheduler", f"127.0.0.1:{http_port}"]) == 1
    err = capsys.readouterr().err
    assert "an HTTP server answers on port" in err and "not a Dask scheduler" in err
    assert "memory" not in err


@pytest.mark.parametrize(
    ("port", "message"),
    [
        ("refused", "connection refused (nothing listens on port"),
        ("99999", "port 99999 is not a TCP port"),
        ("0", "port 0 is not a TCP port"),
    ],
)
def test_refused_and_invalid_ports_fail_fast(
    port: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if port == "refused":
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])
        s.close()  # bound once, nothing listens now
    h, r = _files(tmp_path)
    t0 = time.monotonic()
    assert main(["distributed", "--hyp", h, "--ref", r, "--scheduler", f"127.0.0.1:{port}"]) == 1
    assert time.monotonic() - t0 < 5  # was 21 s (20 s of retries)
    assert message in capsys.readouterr().err


def test_the_real_scheduler_still_answers(client: Any, tmp_path: Path) -> None:
    h, r = _files(tmp_path)
    got = dist.score_files(h, r, "chrf", scheduler=client.scheduler.address)
    assert str(got["chrf"]) == str(
        parbleu.CHRF().corpus_score(["a b c", "d e f"], [["a b c", "d e g"]])
    )


def test_local_workers_bounded_like_workers() -> None:
    from parbleu import _core

    cores = _core.available_workers()
    assert cluster.local_workers("local:100000", "100000") == cores
    assert cluster.local_workers("local:" + "9" * 500, "9" * 500) == cores
    assert cluster.local_workers("local", "") == cores
    assert cluster.local_workers("local:1", "1") == 1
    for bad in ("0", "-1", "x", "1.5"):
        with pytest.raises(parbleu.InvalidOptionError, match="local:N"):
            cluster.local_workers(f"local:{bad}", bad)


def test_cli_distributed_bad_input_exit_codes(
    client: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    h, r = _files(tmp_path)
    address = client.scheduler.address
    base = ["distributed", "--scheduler", address]
    (tmp_path / "bad.gz").write_bytes(b"\x1f\x8b\x08\x00garbage and more garbage")
    full = gzip.compress(b"a b c\nd e f\n")
    (tmp_path / "cut.gz").write_bytes(full[: len(full) // 2])
    for name in ("bad.gz", "cut.gz"):
        assert main([*base, "--hyp", str(tmp_path / name), "--ref", r]) == 1
        err = capsys.readouterr().err
        assert f"hypothesis file '{tmp_path / name}': not a valid gzip file" in err, err
        assert "Traceback" not in err
    pq.write_table(pa.table({"mt": ["a b"], "ref": ["a b"]}), tmp_path / "p.parquet")
    (tmp_path / "taken").write_text("a file\n", encoding="utf-8")
    argv = [*base, "--parquet", str(tmp_path / "p.parquet"), "--hyp-column", "mt"]
    argv += ["--ref-column", "ref", "--sentence-out", str(tmp_path / "taken")]
    assert main(argv) == 1
    assert "exists and is not a directory" in capsys.readouterr().err
    for width, message in (("-1", "expected an integer >= 0"), ("1000000", "from 0 to 100")):
        assert main([*base, "--hyp", h, "--ref", r, "-w", width]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err) < 2000
    assert main([*base, "--hyp", h, "--ref", r, "-w", "100", "-f", "text", "-b"]) == 0
    assert len(capsys.readouterr().out.strip()) == len("0.") + 100


def test_corrupt_gzip_in_the_streaming_api(tmp_path: Path) -> None:
    # The sibling in one process: the workers and parbleu.score_files share LineReader.
    _, r = _files(tmp_path)
    bad = tmp_path / "bad.gz"
    bad.write_bytes(gzip.compress(b"a b c\nd e f\n")[:-12])
    with pytest.raises(FileFormatError, match=r"hypothesis file '.*bad\.gz': not a valid gzip"):
        parbleu.score_files(str(bad), r)


def test_test_set_with_scheduler_names_t(client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["-t", "wmt21", "-l", "en-de", "-i", "x", "--scheduler", client.scheduler.address]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "-t/--test-set" in err and "no reference file" not in err


def test_missing_file_on_a_worker_is_named(client: Any, tmp_path: Path) -> None:
    from parbleu.distributed.sources import FileRange, range_partial

    h, _ = _files(tmp_path)
    gone = str(tmp_path / "gone")
    part = FileRange(((h, 0, None), (gone, 0, None)), 1, -1)
    with pytest.raises(FileFormatError, match=r"reference file '.*gone': cannot be read"):
        client.submit(range_partial, part, [parbleu.BLEU()], 1, "utf-8", 10, 1).result()


START_CHILD = textwrap.dedent(
    """
    import os, signal, sys, threading, time
    from distributed.deploy.spec import SpecCluster
    from parbleu.cli import main

    def interrupt_when_starting():
        # Ctrl-C (a real SIGINT) once the cluster has created its workers, while they start.
        while not any(getattr(c, "_created", None) for c in list(SpecCluster._instances)):
            time.sleep(0.001)
        time.sleep(float(sys.argv[3]))
        os.kill(os.getpid(), signal.SIGINT)

    if __name__ == "__main__":
        threading.Thread(target=interrupt_when_starting, daemon=True).start()
        code = main([sys.argv[1], "-i", sys.argv[2], "--scheduler", "local:2"])
        print("exit", code, flush=True)
        sys.exit(code)
    """
)


@pytest.mark.parametrize("delay", [0.0, 0.2])
def test_ctrl_c_while_local_cluster_starts(tmp_path: Path, delay: float) -> None:
    h, r = _files(tmp_path)
    p = subprocess.run(
        [sys.executable, "-c", START_CHILD, r, h, str(delay)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": PYTHONPATH},
        preexec_fn=default_sigint,
    )
    assert p.returncode == 130, (p.stdout, p.stderr)
    # Was: "Exception ignored in atexit callback ... AssertionError: Status.init".
    assert "Traceback" not in p.stderr and "Exception ignored" not in p.stderr, p.stderr


RUN_CHILD = textwrap.dedent(
    """
    import sys
    from parbleu.cli import main

    if __name__ == "__main__":
        sys.exit(main(sys.argv[1:]))
    """
)


def test_ctrl_c_mid_job_leaves_no_output(tmp_path: Path) -> None:
    rows = 40_000
    words = [" ".join(f"w{(i * 7 + k) % 97}" for k in range(12)) for i in range(rows)]
    table = pa.table({"mt": words, "ref": words[1:] + words[:1]})
    (tmp_path / "in").mkdir()
    for k in range(6):
        pq.write_table(table, tmp_path / "in" / f"{k}.parquet", row_group_size=5000)
    out = tmp_path / "out"
    (tmp_path / "run.py").write_text(RUN_CHILD, encoding="utf-8")
    argv = ["distributed", "--parquet", str(tmp_path / "in"), "--hyp-column", "mt"]
    argv += ["--ref-column", "ref", "-m", "chrf", "--sentence-out", str(out)]
    argv += ["--scheduler", "local:1", "--block-lines", "500"]
    with subprocess.Popen(
        [sys.executable, str(tmp_path / "run.py"), *argv],
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": PYTHONPATH},
        preexec_fn=default_sigint,
    ) as p:
        try:
            deadline = time.monotonic() + 120
            # Interrupt once a task has started writing a file.
            while time.monotonic() < deadline and p.poll() is None:
                if out.exists() and any(f.is_file() for f in out.rglob("*")):
                    break
                time.sleep(0.02)
            assert p.poll() is None, "the job ended before it could be interrupted"
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=120)
        finally:
            p.kill()
    assert p.returncode == 130, err
    assert "Traceback" not in err, err
    assert not out.exists() or list(out.iterdir()) == []


def test_failed_job_leaves_no_output(client: Any, tmp_path: Path) -> None:
    good = pa.table({"mt": ["a b", "c d"] * 50, "ref": ["a b", "c e"] * 50})
    (tmp_path / "in").mkdir()
    pq.write_table(good, tmp_path / "in" / "0.parquet")
    pq.write_table(good, tmp_path / "in" / "1.parquet")
    bad = pa.table({"mt": ["a b", None], "ref": ["a b", "c"]})
    pq.write_table(bad, tmp_path / "in" / "2.parquet")
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine\n", encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"2\.parquet'?: row 2: column 'mt' is null"):
        dist.sentence_scores_parquet(tmp_path / "in", str(out), "mt", "ref", scheduler=client)
    assert sorted(os.listdir(out)) == ["keep.txt"]  # the good files are not left either


SETTINGS_CHILD = textwrap.dedent(
    """
    import os, dask
    from parbleu import distributed as dist

    def settings():
        import dask
        return os.environ.get("MALLOC_TRIM_THRESHOLD_"), dask.config.get(
            "distributed.worker.profile.enabled"
        )

    if __name__ == "__main__":
        # As a default Dask cluster started earlier in this process leaves it.
        os.environ["MALLOC_TRIM_THRESHOLD_"] = "65536"
        with dist.connect("local:1") as c:
            print(list(c.run(settings).values()))
        print(os.environ.get("MALLOC_TRIM_THRESHOLD_"))
    """
)


def test_local_cluster_workers_settings(tmp_path: Path) -> None:
    # Measured in docs/performance.md: Dask's MALLOC_TRIM_THRESHOLD_ (7x the page faults of a
    # task) and the workers' profiler cost 25-35 % and 10-15 % of a task's CPU time.
    p = subprocess.run(
        [sys.executable, "-c", SETTINGS_CHILD],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": PYTHONPATH},
    )
    assert p.stdout.splitlines() == ["[(None, False)]", "65536"], p.stderr
