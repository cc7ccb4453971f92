"""WordNet for :mod:`parbleu.flavors.nltk.meteor_score`: the user's NLTK WordNet, else parbleu's.

``meteor_score`` needs ``wordnet.synsets(word)``'s lemma names. Where NLTK's WordNet is
installed (``nltk_data/corpora/wordnet`` or ``wordnet.zip``, found as NLTK finds it), its files
are read, so the numbers are those of the user's NLTK. Otherwise parbleu's own table is used:
``wordnet30.txt.xz``, Princeton WordNet 3.0 reduced to what ``synsets()`` needs (built by
``tools/build_meteor_wordnet.py``; WordNet's licence is ``WORDNET_LICENSE`` beside it). It
gives the same lemma names as NLTK's reader for every word (``tests/flavors/``).
"""

from __future__ import annotations

import lzma
import os
import sys
import threading
import zipfile
from pathlib import Path
from typing import Any, Union

from ... import _core
from ...errors import FlavorError

FLAVOR = "nltk"
TABLE = Path(__file__).with_name("wordnet30.txt.xz")
#: The dict files ``synsets()`` reads.
FILES = [f"{k}.{s}" for s in ("noun", "verb", "adj", "adv") for k in ("index", "data")] + [
    f"{s}.exc" for s in ("noun", "verb", "adj", "adv")
]

Source = Union[str, "os.PathLike[str]", None]


class WordNet:
    """WordNet as NLTK's ``wordnet.synsets()`` sees it, loaded once.

    Parameters
    ----------
    core
        The core's reader.
    source
        Where it was read from (a folder, a zip file, or ``"parbleu"`` for the shipped table).
    """

    def __init__(self, core: _core.NltkWordnet, source: str) -> None:
        self.core = core
        self.source = source

    def synonyms(self, word: str) -> list[str]:
        """Lemma names without ``_`` of ``wordnet.synsets(word)``, sorted, without repeats."""
        return self.core.synonyms(word)

    def __repr__(self) -> str:
        return f"WordNet(source={self.source!r})"


_CACHE: dict[str, WordNet] = {}
_LOCK = threading.Lock()


def _error(reason: str, original: type[BaseException] = LookupError) -> FlavorError:
    from .._common import flavor_error

    return flavor_error(FLAVOR, reason, original)


def nltk_data_paths() -> list[str]:
    """NLTK's ``nltk.data.path`` (read from NLTK when it is imported, else its defaults)."""
    nltk_data = sys.modules.get("nltk.data")
    if nltk_data is not None:
        return [str(p) for p in getattr(nltk_data, "path", [])]
    paths = [d for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
    home = os.path.expanduser("~/")
    if home != "~/":
        paths.append(os.path.join(home, "nltk_data"))
    if sys.platform.startswith("win"):
        paths += [
            os.path.join(sys.prefix, "nltk_data"),
            os.path.join(sys.prefix, "share", "nltk_data"),
            os.path.join(sys.prefix, "lib", "nltk_data"),
            os.path.join(os.environ.get("APPDATA", "C:\\"), "nltk_data"),
            r"C:\nltk_data",
            r"D:\nltk_data",
            r"E:\nltk_data",
        ]
    else:
        paths += [
            os.path.join(sys.prefix, "nltk_data"),
            os.path.join(sys.prefix, "share", "nltk_data"),
            os.path.join(sys.prefix, "lib", "nltk_data"),
            "/usr/share/nltk_data",
            "/usr/local/share/nltk_data",
            "/usr/lib/nltk_data",
            "/usr/local/lib/nltk_data",
        ]
    return paths


def find_nltk_wordnet() -> str | None:
    """NLTK's ``corpora/wordnet``: a folder first, then ``wordnet.zip``, as NLTK looks."""
    paths = nltk_data_paths()
    for p in paths:
        d = Path(p, "corpora", "wordnet")
        if (d / "index.noun").is_file():
            return str(d)
    for p in paths:
        z = Path(p, "corpora", "wordnet.zip")
        if z.is_file():
            return str(z)
    return None


def _read_folder(folder: Path) -> dict[str, str]:
    out = {}
    for name in FILES:
        try:
            out[name] = (folder / name).read_text("utf-8", errors="replace")
        except OSError as e:
            raise _error(f"WordNet folder {folder}: cannot read {name} ({e})", OSError) from None
    return out


def _read_zip(path: Path) -> dict[str, str]:
    try:
        with zipfile.ZipFile(path) as z:
            names = {n.rsplit("/", 1)[-1]: n for n in z.namelist() if n.startswith("wordnet/")}
            missing = [f for f in FILES if f not in names]
            if missing:
                raise _error(f"WordNet zip {path}: no wordnet/{missing[0]}", OSError)
            return {f: z.read(names[f]).decode("utf-8", errors="replace") for f in FILES}
    except (OSError, zipfile.BadZipFile) as e:
        raise _error(f"WordNet zip {path}: cannot read it ({e})", OSError) from None


def _read_table() -> dict[str, str]:
    try:
        text = lzma.decompress(TABLE.read_bytes()).decode("ascii")
    except (OSError, lzma.LZMAError, UnicodeDecodeError) as e:
        raise _error(f"parbleu's WordNet table {TABLE} cannot be read ({e})", OSError) from None
    files: dict[str, str] = {}
    for part in text.split("## ")[1:]:
        name, _, body = part.partition("\n")
        files[name] = body
    return files


def _build(key: str, read: Any) -> WordNet:
    with _LOCK:
        wn = _CACHE.get(key)
        if wn is None:
            from ...errors import InvalidOptionError

            try:
                core = _core.NltkWordnet.from_files(read())
            except InvalidOptionError as e:
                raise _error(f"WordNet from {key}: {e}", OSError) from None
            wn = _CACHE[key] = WordNet(core, key)
        return wn


def load_wordnet(source: Source = None) -> WordNet:
    """Load WordNet for ``meteor_score`` (cached: each source is read once per process).

    Parameters
    ----------
    source
        ``None``: NLTK's ``corpora/wordnet`` from nltk_data when installed (the numbers of the
        user's NLTK), else parbleu's table. ``"parbleu"``: parbleu's WordNet 3.0 table. A path:
        a WordNet dict folder, or a zip holding ``wordnet/`` as nltk_data's ``wordnet.zip``.

    Returns
    -------
    WordNet
        The loaded WordNet; ``.source`` says where from.
    """
    if source is None:
        found = find_nltk_wordnet()
        source = found if found is not None else "parbleu"
    if isinstance(source, str) and source == "parbleu":
        return _build("parbleu", _read_table)
    path = Path(os.fspath(source)).resolve()
    if path.is_dir():
        return _build(str(path), lambda: _read_folder(path))
    if path.is_file() and zipfile.is_zipfile(path):
        return _build(str(path), lambda: _read_zip(path))
    raise _error(f"WordNet source {str(path)!r}: not a dict folder nor a wordnet zip", OSError)


def from_reader(reader: Any) -> WordNet:
    """Load the WordNet an NLTK ``WordNetCorpusReader`` reads (its files, via ``reader.open``)."""
    root = getattr(reader, "root", None)
    key = f"nltk reader at {root}"

    def read() -> dict[str, str]:
        out = {}
        for name in FILES:
            with reader.open(name) as f:
                data = f.read()
            out[name] = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        return out

    return _build(key, read)
