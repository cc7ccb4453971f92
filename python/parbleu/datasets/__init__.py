"""SacreBLEU's test sets: list, download into SacreBLEU's cache, read sources and references.

Every test set SacreBLEU 2.6 lists is in the registry (``registry.json``, generated from
SacreBLEU's own by ``tools/gen_datasets.py``). Files are downloaded into the cache folder
``$SACREBLEU`` (default ``~/.sacrebleu``) with SacreBLEU's layout and contents, so both tools
share one cache. See ``docs/datasets.md``.

>>> from parbleu import datasets
>>> refs = datasets.references("wmt22", "en-de")  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import DatasetError, DownloadError
from ._registry import ENV_REGISTRY, get_test_set, registry, spm_model
from ._subsets import available_origlangs, available_subsets, check_filter, filter_subset
from ._testset import TestSet, cache_dir

if TYPE_CHECKING:
    from ._download import download_file, file_digest

__all__ = [
    "ENV_REGISTRY",
    "DatasetError",
    "DownloadError",
    "TestSet",
    "available_origlangs",
    "available_subsets",
    "cache_dir",
    "check_filter",
    "describe",
    "download",
    "download_file",
    "field",
    "fieldnames",
    "file_digest",
    "files",
    "filter_subset",
    "get_test_set",
    "langpairs",
    "list_test_sets",
    "read_lines",
    "references",
    "source",
    "spm_model",
]


def list_test_sets(langpair: str | None = None) -> list[str]:
    """Names of the test sets (sorted), optionally those with ``langpair`` in either direction.

    Parameters
    ----------
    langpair
        ``SRC-TRG``; a test set qualifies when it has ``SRC-TRG`` or ``TRG-SRC``.

    Returns
    -------
    list of str
        Test-set names.
    """
    names = registry()["datasets"]
    if langpair is None:
        return sorted(names)
    parts = langpair.split("-")
    if len(parts) < 2:
        raise DatasetError(f"langpair={langpair!r}: expected SRC-TRG such as en-de")
    pairs = {f"{parts[0]}-{parts[1]}", f"{parts[1]}-{parts[0]}"}
    return sorted(n for n, e in names.items() if pairs & set(e["langpairs"]))


def describe(name: str) -> dict[str, Any]:
    """Return the registry entry of a test set (description, citation, URLs, MD5s, pairs).

    Parameters
    ----------
    name
        The test set.

    Returns
    -------
    dict
        A copy of its registry entry.
    """
    get_test_set(name)
    return dict(registry()["datasets"][name])


def langpairs(name: str) -> list[str]:
    """Return the language pairs of a test set, in registry order."""
    return list(get_test_set(name).langpairs)


def fieldnames(name: str, langpair: str) -> list[str]:
    """Return the fields of a language pair (``src``, ``ref``..., ``docid``, ...).

    WMT XML test sets are downloaded first: their fields are read from the file.
    """
    return get_test_set(name).fieldnames(langpair)


def download(name: str, langpair: str | None = None, progress: bool | None = None) -> list[str]:
    """Download a test set (if needed) and write its text files; return their paths.

    Parameters
    ----------
    name
        The test set.
    langpair
        One language pair, or ``None`` for all of them.
    progress
        Progress bar on standard error (``None``: when it is a terminal).

    Returns
    -------
    list of str
        The text file of every field (of every language pair for ``langpair=None``).

    Raises
    ------
    DownloadError
        When the files are not in the cache and cannot be downloaded (the message names the
        URL and the path to place the file at by hand).
    """
    ts = get_test_set(name)
    ts.download(progress)
    out: list[str] = []
    for lp in ts.check_langpair(langpair):
        out += ts.files(lp)
    return out


def files(name: str, langpair: str) -> list[str]:
    """Return the text file of every field of a language pair (downloaded if needed)."""
    return get_test_set(name).files(langpair)


def read_lines(path: str, encoding: str = "utf-8") -> list[str]:
    r"""Return the lines of a test-set text file, right-stripped (``\n`` is the only line end).

    Raises
    ------
    DatasetError
        When the file cannot be read (missing, a folder, unreadable), does not decode (the
        message names the line), or is empty: a text file of the cache always has one line per
        segment, so an empty one was damaged (SacreBLEU reads it as a test set of no segments).
    """
    redo = "delete it and run again to have it written anew from the raw files"
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise DatasetError(
            f"cannot read the test-set file {path} ({e.strerror or e}); {redo}"
        ) from None
    if not data:
        raise DatasetError(f"the test-set file {path} is empty; {redo}")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise DatasetError(
            f"{path}: line {line}: not valid {encoding} ({e.reason} at byte offset {e.start}); "
            f"the test-set file is damaged: {redo}"
        ) from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def source(name: str, langpair: str) -> list[str]:
    """Return the source segments of a test set's language pair."""
    return [line.strip() for line in read_lines(get_test_set(name).source_file(langpair))]


def references(name: str, langpair: str) -> list[list[str]]:
    """Return the reference streams used for scoring (one list per reference).

    For test sets with several references, the registry's default ones (``refA`` for wmt23,
    ...); :func:`field` reads any other (``ref:B``).
    """
    return [read_lines(p) for p in get_test_set(name).reference_files(langpair)]


def field(name: str, langpair: str, fieldname: str) -> list[str]:
    """Return one field of a test set's language pair (``docid``, ``origlang``, ``ref:B``, ...)."""
    ts = get_test_set(name)
    names = ts.fieldnames(langpair)
    if fieldname not in names:
        raise DatasetError(
            f"no field {fieldname!r} in {name}/{langpair}; available: {', '.join(names)}"
        )
    return read_lines(ts.files(langpair)[names.index(fieldname)])


def __getattr__(name: str) -> Any:
    """``download_file`` and ``file_digest``, imported on first use (they pull in http.client)."""
    if name in ("download_file", "file_digest"):
        from . import _download

        return getattr(_download, name)
    raise AttributeError(f"module 'parbleu.datasets' has no attribute {name!r}")
