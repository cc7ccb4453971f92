"""Downloads into SacreBLEU's cache: atomic, resumable, verified, safely unpacked.

A file is downloaded to ``<dest>.part`` (resumed with an HTTP ``Range`` request when a
``.part`` is already there), checked against its MD5 (or recorded SHA-256), unpacked (archives)
into a temporary folder beside the destination, and only then renamed into place. So the cache
never holds a file that failed its check, nor half of an archive: what SacreBLEU finds there it
can use, and what SacreBLEU left there (a file that exists and is not empty) is used as it is,
without downloading or checking again, as SacreBLEU does.

Two processes downloading the same file take turns on ``<dest>.lock`` (``flock``, the lock
SacreBLEU's ``portalocker`` takes on the same file).
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import logging
import os
import shutil
import stat
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import IO, Callable

from ..errors import DownloadError
from ..progress import ProgressBar

__all__ = [
    "MAX_ARCHIVE_BYTES",
    "MAX_ARCHIVE_MEMBERS",
    "download_file",
    "file_digest",
    "is_archive",
]

#: Most bytes an archive may unpack to (the largest SacreBLEU archive unpacks to ~1 GB).
MAX_ARCHIVE_BYTES = 8 << 30
#: Most members an archive may have.
MAX_ARCHIVE_MEMBERS = 200_000
#: Seconds without data before a download is given up.
TIMEOUT_S = 60
_CHUNK = 1 << 16
_log = logging.getLogger("parbleu.datasets")


def is_archive(path: str) -> bool:
    """Whether SacreBLEU unpacks a file of this name (``.tar.gz``, ``.tgz``, ``.zip``)."""
    return path.endswith((".tar.gz", ".tgz", ".zip"))


def file_digest(path: str, algorithm: str = "md5") -> str:
    """Hex digest of a file (``md5`` or ``sha256``)."""
    h = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _where(url: str, dest: str) -> str:
    return f"download it by hand from {url} and place it at {dest}"


@contextlib.contextmanager
def _locked(dest: str) -> Iterator[None]:
    """Hold ``<dest>.lock`` exclusively (as SacreBLEU's ``portalocker.Lock`` does)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock (SacreBLEU's is advisory too)
        yield
        return
    with open(dest + ".lock", "a") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def download_file(
    url: str,
    dest: str,
    extract_to: str | None = None,
    md5: str | None = None,
    sha256: str | None = None,
    progress: bool | None = None,
    check: Callable[[str], None] | None = None,
) -> bool:
    """Make sure ``dest`` exists: download ``url`` there unless a non-empty file is there.

    Parameters
    ----------
    url
        What to download (``http``, ``https`` or ``file`` URL).
    dest
        Where the file goes in the cache.
    extract_to
        For archives: the folder to unpack into (before ``dest`` appears).
    md5, sha256
        Expected checksum (hex), or ``None`` for none.
    progress
        Draw a progress bar on standard error; ``None``: when standard error is a terminal.
    check
        Called with the downloaded file after its checksum, before it is renamed into place;
        it raises ``ValueError`` for a file it cannot use, which is then deleted rather than
        kept (a model cut short by a server that sent no length, with no checksum to tell).

    Returns
    -------
    bool
        Whether a download happened (``False``: the file was already there).

    Raises
    ------
    DownloadError
        Network failure, checksum mismatch, unreadable or unsafe archive, unwritable cache.
        Nothing the user had is deleted and nothing that failed is kept (but a partial
        ``.part`` file after a network failure, which the next attempt resumes).
    """
    if _present(dest):
        return False
    folder = os.path.dirname(dest)
    try:
        os.makedirs(folder, exist_ok=True)
        lock = _locked(dest)
        lock.__enter__()
    except OSError as e:
        raise DownloadError(
            f"cannot write to the test-set cache {folder!r} ({e.strerror or e}); set SACREBLEU "
            f"to a writable folder, or {_where(url, dest)}"
        ) from None
    try:
        if _present(dest):  # another process finished it while we waited for the lock
            return False
        part = dest + ".part"
        _log.info(f"Downloading {url} to {dest}")
        _fetch(url, part, dest, progress)
        _verify(part, url, dest, md5, sha256)
        if check is not None:
            _check(check, part, url, dest)
        if extract_to is not None and is_archive(dest):
            _log.info(f"Extracting {dest} to {extract_to}")
            try:
                extract(part, extract_to, dest)
            except BaseException:
                _remove(part)
                raise
        os.replace(part, dest)
        return True
    finally:
        lock.__exit__(None, None, None)


def _present(path: str) -> bool:
    try:
        return os.path.getsize(path) > 0
    except OSError:
        return False


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)


def _check(check: Callable[[str], None], part: str, url: str, dest: str) -> None:
    try:
        check(part)
    except ValueError as e:
        _remove(part)
        raise DownloadError(
            f"{url}: the downloaded file is not usable ({e}); nothing was kept. The download "
            f"may have been cut short; run again, or {_where(url, dest)}"
        ) from None


def _part_offset(part: str, url: str, dest: str) -> int:
    """Size of the ``.part`` to resume from (0: none); anything but a file there is an error."""
    try:
        st = os.stat(part)
    except FileNotFoundError:
        return 0
    except OSError as e:
        raise DownloadError(f"cannot use {part} ({e.strerror or e}); {_where(url, dest)}") from None
    if not stat.S_ISREG(st.st_mode):
        # A folder here would be "resumed" from its size forever (HTTP 416, start over, ...).
        raise DownloadError(
            f"{part} is in the way of the download of {url} and is not a file; remove it and "
            "run again"
        )
    return st.st_size


def _open(url: str, offset: int) -> tuple[IO[bytes], int, bool]:
    """Open ``url`` from byte ``offset``: (response, total size or 0, whether it resumed)."""
    req = urllib.request.Request(url, headers={"User-Agent": "parbleu"})
    if offset:
        req.add_header("Range", f"bytes={offset}-")
    resp = urllib.request.urlopen(req, timeout=TIMEOUT_S)
    status = getattr(resp, "status", 200)
    resumed = offset > 0 and status == 206
    try:
        length = max(int(resp.headers.get("Content-Length") or 0), 0)
    except ValueError:  # as http.client: an unreadable length is no length (read to the end)
        length = 0
    total = length + (offset if resumed else 0) if length else 0
    return resp, total, resumed


def _fetch(url: str, part: str, dest: str, progress: bool | None) -> None:
    offset = _part_offset(part, url, dest)
    try:
        try:
            resp, total, resumed = _open(url, offset)
        except urllib.error.HTTPError as e:
            if e.code != 416 or not offset:
                raise
            # The .part is complete already (or bigger): start over, once.
            e.close()
            _remove(part)
            if os.path.exists(part):
                raise DownloadError(
                    f"cannot remove {part} to restart the download of {url}; remove it by hand"
                ) from None
            offset = 0
            resp, total, resumed = _open(url, offset)
    except urllib.error.HTTPError as e:
        e.close()  # its body holds the connection open
        raise DownloadError(f"{url}: HTTP error {e.code} {e.reason}; {_where(url, dest)}") from None
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as e:
        # HTTPException: a garbage status line, too many headers, a header line too long.
        reason = getattr(e, "reason", None) or _describe(e)
        raise DownloadError(f"cannot download {url} ({reason}); {_where(url, dest)}") from None
    show = sys.stderr.isatty() if progress is None else progress
    bar = ProgressBar(total, "B", os.path.basename(dest)) if show else None
    done = offset if resumed else 0
    try:
        with resp, open(part, "ab" if resumed else "wb") as out:
            while True:
                try:
                    chunk = resp.read(_CHUNK)
                except http.client.IncompleteRead as e:
                    # What came of a chunk cut short is kept too: the next run resumes after it.
                    out.write(e.partial)
                    done += len(e.partial)
                    raise
                if not chunk:
                    break
                out.write(chunk)
                done += len(chunk)
                if bar is not None:
                    bar.update(done)
    except (OSError, http.client.HTTPException) as e:
        # The .part stays: the next attempt resumes from where this one stopped.
        # HTTPException: a chunked body cut short (IncompleteRead), a broken chunk size.
        raise DownloadError(
            f"download of {url} stopped after {done} bytes ({_describe(e)}); run again to "
            f"resume, or {_where(url, dest)}"
        ) from None
    finally:
        if bar is not None:
            bar.close(clear=True)
    if total and done < total:
        raise DownloadError(
            f"download of {url} stopped after {done} of {total} bytes; run again to resume, or "
            f"{_where(url, dest)}"
        )
    return None


def _describe(e: BaseException) -> str:
    """Describe an error briefly, on one line: its class and text (cut at 200 characters)."""
    if isinstance(e, http.client.IncompleteRead):
        return "the body ended before its announced end: a chunk or its length cut short"
    text = " ".join(str(e).split())
    if len(text) > 200:  # a 64 KiB header line would be quoted in full
        text = text[:200] + "..."
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _verify(part: str, url: str, dest: str, md5: str | None, sha256: str | None) -> None:
    for algorithm, expected in (("md5", md5), ("sha256", sha256)):
        if expected is None:
            continue
        got = file_digest(part, algorithm)
        if got != expected:
            _remove(part)
            raise DownloadError(
                f"{url}: {algorithm.upper()} of the downloaded file is {got}, expected "
                f"{expected}; nothing was kept. The file at the URL may have changed; "
                f"{_where(url, dest)} once you trust it"
            )


def _safe_name(name: str, archive: str) -> PurePosixPath:
    p = PurePosixPath(name.replace("\\", "/"))
    if p.is_absolute() or ".." in p.parts or (p.parts and ":" in p.parts[0]):
        raise DownloadError(
            f"{archive}: unsafe path {name!r} in the archive (outside the cache); not unpacked"
        )
    return p


def extract(archive: str, folder: str, label: str | None = None) -> None:
    """Unpack a ``.tar.gz``/``.tgz``/``.zip`` into ``folder``, safely.

    Members are checked first (no absolute path, no ``..``, no link or device, at most
    ``MAX_ARCHIVE_MEMBERS`` members and ``MAX_ARCHIVE_BYTES`` bytes), unpacked into a
    temporary folder beside ``folder``, then moved into place: a truncated or unsafe archive
    leaves nothing behind.

    Parameters
    ----------
    archive
        The archive file.
    folder
        Where its members go.
    label
        Name of the archive in messages (default: ``archive``); its suffix picks the format.
    """
    label = label or archive
    os.makedirs(folder, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".parbleu-unpack-", dir=folder)
    try:
        try:
            if label.endswith(".zip"):
                _unzip(archive, tmp, label)
            else:
                _untar(archive, tmp, label)
        except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError, ValueError) as e:
            if isinstance(e, DownloadError):
                raise
            raise DownloadError(
                f"{label}: the archive is truncated or corrupt ({e}); nothing was kept"
            ) from None
        _move_into(tmp, folder, label)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _move_into(tmp: str, folder: str, label: str) -> None:
    """Move what was unpacked into ``tmp`` to the same places under ``folder``."""
    for root, _dirs, files in os.walk(tmp):
        rel = os.path.relpath(root, tmp)
        target = os.path.normpath(os.path.join(folder, rel))
        for f in [None, *files]:
            path = target if f is None else os.path.join(target, f)
            try:
                if f is None:
                    os.makedirs(target, exist_ok=True)
                else:
                    os.replace(os.path.join(root, f), path)
            except OSError as e:
                # A folder where a member goes (or a file where a folder goes): the cache
                # holds something else at that path; it is not ours to delete.
                raise DownloadError(
                    f"{label}: cannot unpack to {path} ({e.strerror or e}): something else is "
                    "in the way in the cache; remove it and run again"
                ) from None


def _budget(label: str) -> Callable[[int], None]:
    state = {"bytes": 0, "members": 0}

    def spend(size: int) -> None:
        state["bytes"] += max(size, 0)
        state["members"] += 1
        if state["bytes"] > MAX_ARCHIVE_BYTES or state["members"] > MAX_ARCHIVE_MEMBERS:
            raise DownloadError(
                f"{label}: the archive unpacks to more than {MAX_ARCHIVE_BYTES} bytes or "
                f"{MAX_ARCHIVE_MEMBERS} members; not unpacked"
            )

    return spend


def _copy_bounded(src: IO[bytes], dst_path: str, size: int, label: str) -> None:
    written = 0
    with open(dst_path, "wb") as out:
        for chunk in iter(lambda: src.read(_CHUNK), b""):
            written += len(chunk)
            if written > size:
                raise DownloadError(f"{label}: a member is larger than it says; not unpacked")
            out.write(chunk)


def _untar(archive: str, tmp: str, label: str) -> None:
    spend = _budget(label)
    with tarfile.open(archive, "r:*") as tar:
        for m in tar:
            rel = _safe_name(m.name, label)
            if m.isdir():
                spend(0)
                os.makedirs(os.path.join(tmp, rel), exist_ok=True)
                continue
            if not m.isfile():
                raise DownloadError(
                    f"{label}: member {m.name!r} is a link or special file; not unpacked"
                )
            spend(m.size)
            src = tar.extractfile(m)
            assert src is not None  # a regular file always has data
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with src:
                _copy_bounded(src, path, m.size, label)


def _unzip(archive: str, tmp: str, label: str) -> None:
    spend = _budget(label)
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            rel = _safe_name(info.filename, label)
            mode = info.external_attr >> 16
            if mode and (mode & 0o170000) not in (0, 0o100000, 0o040000):
                raise DownloadError(
                    f"{label}: member {info.filename!r} is a link or special file; not unpacked"
                )
            if info.is_dir():
                spend(0)
                os.makedirs(os.path.join(tmp, rel), exist_ok=True)
                continue
            spend(info.file_size)
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with zf.open(info) as src:
                _copy_bounded(src, path, info.file_size, label)
