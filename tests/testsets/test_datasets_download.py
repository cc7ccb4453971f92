"""Downloads from a local server (127.0.0.1): cache hits, resume, checksums, unsafe archives,
no server, an unwritable cache, and two processes downloading the same test set at once."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from datasets_support import Server, archives, md5, registry, tar_gz, write_registry, zip_bytes
from hypothesis import given
from hypothesis import strategies as st

from parbleu import datasets
from parbleu.datasets._download import _safe_name
from parbleu.errors import DownloadError


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    server = Server(archives()).start()
    reg = registry(server.base, server.files)
    monkeypatch.setenv(datasets.ENV_REGISTRY, str(write_registry(tmp_path / "reg.json", reg)))
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "cache"))
    try:
        yield server
    finally:
        server.stop()


def _set_registry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: Server, **edit: dict[str, object]
) -> None:
    reg = registry(server.base, server.files)
    for name, changes in edit.items():
        reg["datasets"][name].update(changes)
    path = write_registry(tmp_path / f"reg{len(server.requests)}-{len(edit)}.json", reg)
    monkeypatch.setenv(datasets.ENV_REGISTRY, str(path))


def _cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def _all_files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def test_download_then_cache_hit(served: Server, tmp_path: Path) -> None:
    files = datasets.download("tx", "en-de")
    assert all(os.path.getsize(f) > 0 for f in files)
    assert served.requests == [("/xml.tar.gz", None)]
    assert (_cache(tmp_path) / "tx" / "raw" / "tx.xml.tar.gz").read_bytes() == served.files[
        "/xml.tar.gz"
    ]
    # Second time: everything comes from the cache.
    assert datasets.source("tx", "en-de")[0] == "Source 0.1 text"
    assert datasets.references("tx", "en-de")[0][0] == "Ref B 0.1 & so"
    assert len(served.requests) == 1
    leftovers = [p for p in _all_files(_cache(tmp_path)) if ".part" in p or "unpack" in p]
    assert leftovers == []


def test_resume_after_a_cut_connection(served: Server, tmp_path: Path) -> None:
    served.cut["/xml.tar.gz"] = 100
    with pytest.raises(DownloadError, match="run again to resume"):
        datasets.download("tx", "en-de")
    raw = _cache(tmp_path) / "tx" / "raw"
    assert (raw / "tx.xml.tar.gz.part").stat().st_size == 100
    assert not (raw / "tx.xml.tar.gz").exists()
    datasets.download("tx", "en-de")
    assert served.requests[-1] == ("/xml.tar.gz", "bytes=100-")
    assert md5((raw / "tx.xml.tar.gz").read_bytes()) == md5(served.files["/xml.tar.gz"])
    assert not (raw / "tx.xml.tar.gz.part").exists()


def test_wrong_checksum_keeps_nothing_and_deletes_nothing(
    served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _set_registry(tmp_path, monkeypatch, served, tt={"md5": ["0" * 32]})
    mine = _cache(tmp_path) / "tt" / "raw" / "my-notes.txt"
    mine.parent.mkdir(parents=True)
    mine.write_text("mine")
    with pytest.raises(DownloadError, match=r"MD5 .* expected 0{32}.*nothing was kept") as e:
        datasets.download("tt", "de-en")
    assert served.base + "/text.zip" in str(e.value)
    assert str(_cache(tmp_path) / "tt" / "raw" / "tt.text.zip") in str(e.value)
    assert _all_files(_cache(tmp_path)) == {"tt/raw/my-notes.txt", "tt/raw/tt.text.zip.lock"}
    assert mine.read_text() == "mine"


@pytest.mark.parametrize(
    ("url_path", "data", "message"),
    [
        ("/text.zip", archives()["/text.zip"][:-30], "truncated or corrupt"),
        ("/xml.tar.gz", archives()["/xml.tar.gz"][:200], "truncated or corrupt"),
        ("/xml.tar.gz", tar_gz({"../escape.txt": b"x"}), "unsafe path"),
        ("/xml.tar.gz", tar_gz({"/abs/escape.txt": b"x"}), "unsafe path"),
        ("/text.zip", zip_bytes({"ok.txt": b"y", "a/../../escape.txt": b"x"}), "unsafe path"),
    ],
)
def test_bad_archives_leave_nothing(
    served: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    url_path: str,
    data: bytes,
    message: str,
) -> None:
    served.files[url_path] = data  # with its own (matching) checksum: the archive is the problem
    name = "tt" if url_path == "/text.zip" else "tx"
    _set_registry(tmp_path, monkeypatch, served, **{name: {"md5": [md5(data)]}})
    with pytest.raises(DownloadError, match=message):
        datasets.download(name)
    assert {p for p in _all_files(tmp_path) if "escape" in p} == set()
    assert {p for p in _all_files(_cache(tmp_path)) if not p.endswith(".lock")} == set()


def test_symlink_member_is_refused(
    served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("link")
        info.type = tarfile.SYMTYPE
        info.linkname = "/etc/passwd"
        tar.addfile(info)
    served.files["/xml.tar.gz"] = buf.getvalue()
    _set_registry(tmp_path, monkeypatch, served, tx={"md5": [md5(buf.getvalue())]})
    with pytest.raises(DownloadError, match="link or special file"):
        datasets.download("tx")


def test_server_down_names_url_and_cache_path(served: Server, tmp_path: Path) -> None:
    url = served.base + "/sgm.tgz"
    served.stop()
    with pytest.raises(DownloadError) as e:
        datasets.download("ts", "de-en")
    msg = str(e.value)
    assert url in msg
    assert str(_cache(tmp_path) / "ts" / "raw" / "ts.sgm.tgz") in msg


def test_http_error_names_url(served: Server) -> None:
    served.fail.add("/sgm.tgz")
    with pytest.raises(DownloadError, match="HTTP error 500"):
        datasets.download("ts", "de-en")


def test_unwritable_cache(served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SACREBLEU", str(blocker / "cache"))
    with pytest.raises(DownloadError, match="cannot write to the test-set cache"):
        datasets.download("ts", "de-en")


def test_read_only_cache_is_read(served: Server, tmp_path: Path) -> None:
    datasets.download("ts", "de-en")
    expected = datasets.references("ts", "de-en")
    served.stop()
    for p in sorted(_cache(tmp_path).rglob("*"), reverse=True):
        p.chmod(0o555 if p.is_dir() else 0o444)
    try:
        assert datasets.references("ts", "de-en") == expected
    finally:
        for p in _cache(tmp_path).rglob("*"):
            p.chmod(0o755 if p.is_dir() else 0o644)


def test_two_processes_at_once(served: Server, tmp_path: Path) -> None:
    served.delay = 0.5
    code = "from parbleu import datasets; print(datasets.references('tx', 'en-de')[0][0])"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code], stdout=subprocess.PIPE, env=os.environ.copy()
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert outs == [b"Ref B 0.1 & so\n"] * 2
    assert served.requests == [("/xml.tar.gz", None)]


def test_unknown_names(served: Server) -> None:
    with pytest.raises(datasets.DatasetError, match="unknown test set 'nope'"):
        datasets.download("nope")
    with pytest.raises(datasets.DatasetError, match="no language pair 'xx-yy'"):
        datasets.references("tx", "xx-yy")
    with pytest.raises(datasets.DatasetError, match="no field 'zzz'"):
        datasets.field("tx", "en-de", "zzz")


def test_progress_bar_when_asked(served: Server, capsys: pytest.CaptureFixture[str]) -> None:
    datasets.download("tt", "de-en", progress=True)
    err = capsys.readouterr().err
    assert "tt.text.zip" in err and "B/s" in err


def test_gzipped_bare_file(served: Server) -> None:
    assert datasets.source("tg", "de-en") == ["Eins", "Zwei", "", "Vier"]


@given(st.lists(st.sampled_from(["a", "..", ".", "/", "b\\", "c:", "d"]), min_size=1, max_size=6))
def test_unpacked_paths_stay_inside(parts: list[str]) -> None:
    name = "".join(parts)
    try:
        rel = _safe_name(name, "archive")
    except DownloadError:
        return
    root = "/cache/raw"
    assert os.path.normpath(os.path.join(root, rel)).startswith(root)
