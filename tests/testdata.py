"""The golden outputs and sample data of the tests: ``tests/data/testdata.tar.xz``, extracted once.

The archive holds the part of the shared data tree (``golden/``, ``data/``) that the tests read,
with the same relative paths, so golden records (whose ``hyp``/``refs`` are relative to that
tree) and recorded command lines (run from its root) work unchanged. It is extracted on first
use into ``.testdata/<digest>/`` at the repository root (ignored by git), atomically, so
concurrent test processes share one copy and a changed archive gets a fresh one.
``PARBLEU_TESTDATA=DIR`` uses a directory instead (e.g. the uncompressed shared tree).

Standard library only: benchmarks and ``tools/pack_test_data.py`` import it too.
"""

from __future__ import annotations

import hashlib
import io
import lzma
import os
import shutil
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
ARCHIVE = DATA / "testdata.tar.xz"
MANIFEST = DATA / "MANIFEST.sha256"
CACHE = REPO / ".testdata"


class TestDataError(RuntimeError):
    """The archive is missing or does not match its manifest."""


def digest(path: Path) -> str:
    """SHA-256 of a file, hex."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_manifest(path: Path = MANIFEST) -> dict[str, str]:
    """``{relative path: sha256}`` of ``MANIFEST.sha256`` (``sha256sum`` format)."""
    out: dict[str, str] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            sha, sep, rel = line.partition("  ")
            if not sep or len(sha) != 64:
                raise TestDataError(f"{path}:{n}: not a 'sha256  path' line: {line!r}")
            out[rel] = sha
    return out


def archive_members(archive: Path = ARCHIVE) -> dict[str, bytes]:
    """``{relative path: content}`` of every file in the archive."""
    out: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(lzma.decompress(archive.read_bytes()))) as tar:
        for m in tar.getmembers():
            f = tar.extractfile(m) if m.isfile() else None
            if f is None:
                raise TestDataError(f"{archive}: {m.name!r} is not a regular file")
            out[m.name] = f.read()
    return out


def _extract(archive: Path, dest: Path) -> None:
    with tarfile.open(archive, "r:xz") as tar:
        if hasattr(tarfile, "data_filter"):  # 3.12, and 3.9.17+ / 3.10.12+ / 3.11.4+
            tar.extractall(dest, filter="data")
        else:  # pragma: no cover - older patch releases; the archive is ours
            tar.extractall(dest)


def root() -> Path:
    """The directory holding ``golden/`` and ``data/``: extracted from the archive if needed."""
    override = os.environ.get("PARBLEU_TESTDATA")
    if override:
        path = Path(override).resolve()
        if not (path / "golden").is_dir():
            raise TestDataError(f"PARBLEU_TESTDATA={override}: no golden/ directory there")
        return path
    if not ARCHIVE.is_file():
        raise TestDataError(f"{ARCHIVE} is missing (see tests/data/README.md)")
    target = CACHE / digest(ARCHIVE)[:16]
    if (target / ".complete").is_file():
        return target
    CACHE.mkdir(exist_ok=True)
    # Extract beside the target, then rename: another process never sees half a tree.
    tmp = Path(tempfile.mkdtemp(prefix="extract-", dir=CACHE))
    try:
        _extract(ARCHIVE, tmp)
        (tmp / ".complete").touch()
        try:
            tmp.rename(target)
        except OSError:
            if not (target / ".complete").is_file():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    # Trees of earlier archives are no longer needed.
    for old in CACHE.iterdir():
        if old != target and not old.name.startswith("extract-"):
            shutil.rmtree(old, ignore_errors=True)
    return target
