"""``--origlang`` and ``--subset``: which segments of WMT test sets to keep, as SacreBLEU 2.6.

Only WMT SGML (``.sgm``) and WMT XML test sets carry the annotations. ``origlang`` keeps the
documents originally written in that language (``non-xx``: all others); ``subset`` is a regular
expression searched in the XML ``domain`` of a document, or, for SGML, in SacreBLEU's
annotation table (``country-domain``; ``country:XX`` searches the country).
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator, Sequence
from typing import TypeVar

from ..errors import DatasetError, LengthMismatchError
from . import _readers
from ._registry import get_test_set, subsets_of
from ._testset import TestSet

__all__ = ["available_origlangs", "available_subsets", "check_filter", "filter_subset"]

T = TypeVar("T")
_RE_ORIGLANG = re.compile(r'.* origlang="([^"]+)".*\n')
_RE_DOCID = re.compile(r'.* docid="([^"]+)".*\n')


def _raw_file(test_set: str, langpair: str) -> str:
    ts = get_test_set(test_set)
    ts.check_langpair(langpair)
    return ts.raw_paths(langpair)[0]


def _raw_lines(raw: str, ts: TestSet) -> list[str]:
    """Return the lines of a raw ``.sgm`` file (what the archive unpacked), or fail clearly."""
    try:
        with _readers.open_text(raw) as f:
            return list(f)
    except _readers.RAW_FILE_ERRORS as e:
        # The text files may be there without the raw ones (deleted since): say what to redo.
        why = e.strerror if isinstance(e, OSError) and e.strerror else _readers.describe(e)
        raise DatasetError(
            f"--origlang/--subset: cannot read {raw}, the raw file of test set {ts.name!r} "
            f"({why}); delete {ts.outdir} and run again to download it anew"
        ) from None


def _pattern(subset: str) -> re.Pattern[str]:
    try:
        return re.compile(subset)
    except (re.error, RecursionError, OverflowError) as e:
        raise DatasetError(
            f"--subset: {subset!r} is not a valid regular expression ({e})"
        ) from None


def _keep(doc_origlang: str, origlang: str | None) -> bool:
    if origlang is None:
        return True
    if origlang.startswith("non-"):
        return doc_origlang != origlang[4:]
    return doc_origlang == origlang


def keep_mask(
    test_sets: str, langpair: str, origlang: str | None, subset: str | None
) -> list[bool]:
    """Return one flag per segment of the (comma-separated) test sets: keep it or not."""
    if subset is not None and subset.startswith("country:"):
        subset = subset[8:]
    pattern = _pattern(subset) if subset is not None else None
    keep: list[bool] = []
    for name in test_sets.split(","):
        ts = get_test_set(name)
        raw = _raw_file(name, langpair)
        if ts.layout == "wmt-xml":
            fields = ts._xml(langpair)
            domains = fields["domain"] if "domain" in fields else itertools.repeat(None)
            for doc_origlang, domain in zip(fields["origlang"], domains):
                ok = _keep(doc_origlang, origlang)
                if pattern is not None and (domain is None or not pattern.search(domain)):
                    ok = False
                keep.append(ok)
        elif raw.endswith(".sgm"):
            tags: dict[str, str] = {}
            if subset is not None:
                table = subsets_of(name)
                if table is None:
                    raise DatasetError(f"--subset: no subset annotation for test set {name!r}")
                tags = table
            ok = False
            for line in _raw_lines(raw, ts):
                if line.startswith("<doc "):
                    ok = _keep(_RE_ORIGLANG.sub(r"\1", line), origlang)
                    if pattern is not None:
                        doc_id = _RE_DOCID.sub(r"\1", line)
                        if not pattern.search(tags.get(doc_id, "")):
                            ok = False
                if line.startswith("<seg "):
                    keep.append(ok)
        else:
            raise DatasetError(
                f"--origlang and --subset work only with WMT *.xml and *.sgm test sets, not "
                f"{os.path.basename(raw)!r} of {name!r}"
            )
    return keep


def filter_subset(
    streams: Sequence[Sequence[T]],
    test_sets: str | None,
    langpair: str | None,
    origlang: str | None,
    subset: str | None = None,
    names: Sequence[str] | None = None,
) -> list[list[T]]:
    """Keep the segments of every stream that match ``origlang`` and ``subset``.

    Parameters
    ----------
    streams
        Parallel streams (systems, references) over the concatenated test sets.
    test_sets
        Comma-separated test-set names.
    langpair
        The language pair.
    origlang
        Original language to keep (``non-xx`` for the others), or ``None``.
    subset
        Regular expression on the document's domain (or ``country:XX``), or ``None``.
    names
        What each stream is, for messages (default: ``stream 1``, ...).

    Returns
    -------
    list
        The filtered streams (the streams themselves when there is nothing to filter).

    Raises
    ------
    LengthMismatchError
        When a stream does not have one line per segment of the test sets.
    DatasetError
        For an invalid ``subset`` regular expression, or raw files that cannot be read.
    """
    if origlang is None and subset is None:
        return [list(s) for s in streams]
    check_filter(test_sets, langpair, origlang, subset)
    assert test_sets is not None and langpair is not None  # checked just above
    keep = keep_mask(test_sets, langpair, origlang, subset)
    for i, stream in enumerate(streams):
        if len(stream) != len(keep):
            # zip() would cut a longer stream short silently (SacreBLEU does).
            what = names[i] if names is not None else f"stream {i + 1}"
            raise LengthMismatchError(
                f"{what} has {len(stream)} lines but test set {test_sets}/{langpair} has "
                f"{len(keep)} segments; --origlang/--subset need them aligned"
            )
    return [[x for x, k in zip(s, keep) if k] for s in streams]


def check_filter(
    test_sets: str | None, langpair: str | None, origlang: str | None, subset: str | None
) -> None:
    """Refuse ``--origlang``/``--subset`` without a test set and a language pair.

    The documents' original languages and domains come from the test set's own files, so
    reference files given by name cannot be filtered. Checked before any file is read, so
    that every scoring path (in memory, streamed, on a cluster) refuses it alike.

    Parameters
    ----------
    test_sets
        Comma-separated test-set names (``-t``), or ``None``.
    langpair
        The language pair (``-l``), or ``None``.
    origlang
        ``--origlang``, or ``None``.
    subset
        ``--subset``, or ``None``.
    """
    if (origlang is not None or subset is not None) and (test_sets is None or langpair is None):
        raise DatasetError(
            "filtering with --origlang or --subset needs a test set (-t) and a language pair (-l)"
        )


def _each_test_set(test_sets: str | None) -> Iterator[tuple[str, TestSet]]:
    """``(name, test set)`` of each comma-separated name of ``test_sets``, one at a time."""
    for name in [] if test_sets is None else test_sets.split(","):
        yield name, get_test_set(name)


def available_origlangs(test_sets: str | None, langpair: str) -> list[str]:
    """Return the original languages of the documents of the test sets (sorted)."""
    found: set[str] = set()
    for name, ts in _each_test_set(test_sets):
        raw = _raw_file(name, langpair)
        if ts.layout == "wmt-xml":
            found.update(ts._xml(langpair)["origlang"])
        if raw.endswith(".sgm"):
            for line in _raw_lines(raw, ts):
                if line.startswith("<doc "):
                    found.add(_RE_ORIGLANG.sub(r"\1", line))
    return sorted(found)


def available_subsets(test_sets: str | None, langpair: str) -> list[str]:
    """Return the domains (XML) or countries and domains (annotated SGML) of the sets."""
    found: set[str] = set()
    for name, ts in _each_test_set(test_sets):
        table = subsets_of(name)
        if ts.layout == "wmt-xml":
            fields = ts._xml(langpair)
            if "domain" in fields:
                found.update(fields["domain"])
        elif table is not None:
            found.update("country:" + v.split("-")[0] for v in table.values())
            found.update(v.split("-")[1] for v in table.values())
    return sorted(found)
