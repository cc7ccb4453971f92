"""METEOR 1.5 without Java: the core's re-implementation, fed the data of the installed jar.

The data (function words, WordNet synsets and exceptions, non-breaking prefixes inside
``meteor-1.5.jar``; ``data/paraphrase-en.gz`` beside it) are read from the user's
pycocoevalcap at run time and never shipped with parbleu. They are parsed once per process.

Parsing the paraphrase table takes seconds, so its parsed form is saved once in a cache
folder (``$PARBLEU_METEOR_CACHE``, else ``$SACREBLEU/meteor``, else ``~/.sacrebleu/meteor``;
``PARBLEU_METEOR_CACHE=off`` turns it off) and loaded from there in a fraction of a second.
The file is labelled with the table's path, size and modification time, written atomically
and checksummed: a stale or damaged one is rebuilt, and a folder that cannot be written just
means no cache.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import os
import tempfile
import threading
import zipfile
import zlib
from pathlib import Path

from ... import _core
from ...errors import FlavorError, InvalidOptionError, MissingDependencyError
from .checks import FLAVOR
from .java import package_dir

__all__ = ["ENV_CACHE", "JAR_ENTRIES", "cache_path", "load_scorer", "meteor_dir"]

#: The jar's entries the native scorer reads.
JAR_ENTRIES = (
    "function/english.words",
    "synonym/english.synsets",
    "synonym/english.exceptions",
    "nonbreaking/english.prefixes",
)
PARAPHRASE = Path("data") / "paraphrase-en.gz"
#: Environment variable: the compiled paraphrase table's folder, or ``off``.
ENV_CACHE = "PARBLEU_METEOR_CACHE"
_OFF = frozenset({"", "0", "off", "no", "false", "none"})

_lock = threading.Lock()
_cache: dict[tuple[str, bool], _core.MeteorScorer] = {}


def meteor_dir() -> Path:
    """Return the installed pycocoevalcap's ``meteor`` directory."""
    return package_dir("METEOR") / "meteor"


def _missing(path: Path) -> MissingDependencyError:
    return MissingDependencyError(
        f"coco: METEOR's data file {path} is missing; the native METEOR reads the data of "
        "pycocoevalcap 1.2's METEOR (not shipped with parbleu): reinstall it with "
        "`pip install --force-reinstall pycocoevalcap==1.2`"
    )


def _damaged(path: Path, why: str) -> FlavorError:
    return FlavorError(
        FLAVOR,
        f"coco: METEOR's data file {path} is damaged ({why}); reinstall it with "
        "`pip install --force-reinstall pycocoevalcap==1.2`",
    )


def _read_jar(base: Path) -> list[bytes]:
    jar = base / "meteor-1.5.jar"
    if not jar.is_file():
        raise _missing(jar)
    try:
        with zipfile.ZipFile(jar) as z:
            return [z.read(name) for name in JAR_ENTRIES]
    except KeyError as e:
        raise _damaged(jar, f"no entry {e.args[0]}") from None
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as e:
        raise _damaged(jar, str(e)) from None


def cache_path(source: Path) -> Path | None:
    """Return where the compiled form of the paraphrase table ``source`` is kept, or ``None``.

    ``$PARBLEU_METEOR_CACHE`` names the folder (``off`` or empty: no cache); by default it is
    ``meteor`` in parbleu's (SacreBLEU's) cache folder. One file per source path and format.
    """
    folder = os.environ.get(ENV_CACHE)
    if folder is None:
        from ...datasets import cache_dir

        folder = os.path.join(cache_dir(), "meteor")
    elif folder.strip().lower() in _OFF:
        return None
    name = hashlib.sha256(os.fsencode(source.resolve())).hexdigest()[:16]
    return Path(folder) / f"paraphrase-en.{name}.v{_core.MeteorParaphrases.FORMAT}.bin"


def _key(source: Path) -> str:
    """Return the source file's identity: a compiled table made from another is stale."""
    st = source.stat()
    return f"{source.resolve()}|{st.st_size}|{st.st_mtime_ns}"


def _save(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically; a failure only means no cache."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".paraphrase-", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _paraphrases(base: Path) -> _core.MeteorParaphrases:
    """Return the paraphrase table: from the cache if it holds this file's, else parsed."""
    source = base / PARAPHRASE
    if not source.is_file():
        raise _missing(source)
    key = _key(source)
    cached = cache_path(source)
    if cached is not None:
        try:
            return _core.MeteorParaphrases.from_compiled(cached.read_bytes(), key)
        except (OSError, InvalidOptionError):
            pass  # absent, unreadable, stale or damaged: rebuilt below
    try:
        text = gzip.decompress(source.read_bytes())
    except (OSError, EOFError, zlib.error) as e:
        raise _damaged(source, str(e)) from None
    try:
        table = _core.MeteorParaphrases(text)
    except InvalidOptionError as e:  # the core's error for a damaged file
        raise _damaged(source, str(e)) from None
    del text
    if cached is not None:
        _save(cached, table.compiled(key))
    return table


def load_scorer(paraphrase: bool = True) -> _core.MeteorScorer:
    """Return the core's scorer with the installed data, built once per process and option."""
    base = meteor_dir()
    key = (str(base), paraphrase)
    with _lock:
        scorer = _cache.get(key)
        if scorer is None:
            function, synsets, exceptions, prefixes = _read_jar(base)
            para = _paraphrases(base) if paraphrase else None
            try:
                scorer = _core.MeteorScorer(function, synsets, exceptions, prefixes, para)
            except InvalidOptionError as e:  # the core's error for a damaged file
                raise _damaged(base, str(e)) from None
            _cache[key] = scorer
        return scorer
