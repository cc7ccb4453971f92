"""METEOR 1.5 without Java: the core's re-implementation, fed the data of the installed jar.

The data (function words, WordNet synsets and exceptions, non-breaking prefixes inside
``meteor-1.5.jar``; ``data/paraphrase-en.gz`` beside it) are read from the user's
pycocoevalcap at run time and never shipped with parbleu. They are parsed once per process.
"""

from __future__ import annotations

import gzip
import threading
import zipfile
import zlib
from pathlib import Path

from ... import _core
from ...errors import FlavorError, InvalidOptionError, MissingDependencyError
from .checks import FLAVOR
from .java import package_dir

__all__ = ["JAR_ENTRIES", "load_scorer", "meteor_dir"]

#: The jar's entries the native scorer reads.
JAR_ENTRIES = (
    "function/english.words",
    "synonym/english.synsets",
    "synonym/english.exceptions",
    "nonbreaking/english.prefixes",
)
PARAPHRASE = Path("data") / "paraphrase-en.gz"

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


def _read(base: Path, paraphrase: bool) -> list[bytes]:
    jar = base / "meteor-1.5.jar"
    if not jar.is_file():
        raise _missing(jar)
    try:
        with zipfile.ZipFile(jar) as z:
            parts = [z.read(name) for name in JAR_ENTRIES]
    except KeyError as e:
        raise _damaged(jar, f"no entry {e.args[0]}") from None
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as e:
        raise _damaged(jar, str(e)) from None
    para = b""
    if paraphrase:
        path = base / PARAPHRASE
        if not path.is_file():
            raise _missing(path)
        try:
            para = gzip.decompress(path.read_bytes())
        except (OSError, EOFError, zlib.error) as e:
            raise _damaged(path, str(e)) from None
    return [*parts, para]


def load_scorer(paraphrase: bool = True) -> _core.MeteorScorer:
    """Return the core's scorer with the installed data, built once per process and option."""
    base = meteor_dir()
    key = (str(base), paraphrase)
    with _lock:
        scorer = _cache.get(key)
        if scorer is None:
            function, synsets, exceptions, prefixes, para = _read(base, paraphrase)
            try:
                scorer = _core.MeteorScorer(function, synsets, exceptions, prefixes, para)
            except InvalidOptionError as e:  # the core's error for a damaged file
                raise _damaged(base, str(e)) from None
            _cache[key] = scorer
        return scorer
