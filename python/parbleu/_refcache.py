"""The most recently prepared references, reused when the same references come again.

Scoring several systems against one test set (``metric.corpus_score(system, refs)`` in a loop)
passes the same references every time; tokenizing them and building their n-gram tables again
would be most of the work. One entry is kept, and it is used only when the new references are
the same exact ``str`` objects or equal to them character by character (a comparison that is
nearly free when they are the same objects), so a hit can never change a score. References
holding ``str`` subclasses are never kept: their ``__eq__`` may say anything.
"""

from __future__ import annotations

import operator
from typing import Any

#: References with more strings than this are not kept (bounded memory after a call)...
MAX_STRINGS = 100_000

#: ...unless identical segments share one preparation (a test set repeated once per system, an
#: N-best list) and at most ``MAX_STRINGS`` of them are distinct: then up to this many strings
#: (what stays is the tables of the distinct segments plus about 40 bytes per string).
MAX_SHARED_STRINGS = 2_000_000

_last: tuple[tuple[Any, ...], list[list[Any]], Any] | None = None


_PLAIN = frozenset({str, type(None)})


def _plain(stream: list[Any]) -> bool:
    """Whether every item is an exact ``str`` or ``None`` (C-level loops: fast on 2M items)."""
    return set(map(type, stream)) <= _PLAIN


def _same(kept: list[list[Any]], streams: list[list[Any]]) -> bool:
    """Whether ``streams`` holds exactly the kept strings: same types, same characters.

    Never through the items' own ``__eq__`` (a ``str`` subclass may override it and make
    different references look equal): the kept items are exact ``str``/``None`` (see
    :func:`put`), and the new ones must be too before ``list ==`` compares them.
    """
    if len(kept) != len(streams):
        return False
    for a, b in zip(kept, streams):
        if len(a) != len(b):
            return False
        if all(map(operator.is_, a, b)):
            continue  # the same objects: nearly free
        if not _plain(b) or a != b:
            return False
    return True


def get(key: tuple[Any, ...], streams: list[list[Any]]) -> Any:
    """Return the prepared references of ``streams`` under ``key``, or ``None``."""
    last = _last
    if last is None or last[0] != key:
        return None
    return last[2] if _same(last[1], streams) else None


def put(key: tuple[Any, ...], streams: list[list[Any]], prepared: Any) -> None:
    """Remember ``prepared`` as the preparation of ``streams`` (a shallow copy is kept)."""
    global _last
    total = sum(len(s) for s in streams)
    distinct = getattr(prepared, "distinct_segments", None)
    small = total <= MAX_STRINGS or (
        total <= MAX_SHARED_STRINGS and distinct is not None and distinct() <= MAX_STRINGS
    )
    if not small:
        _last = None
        return
    if not all(_plain(s) for s in streams):
        # str subclasses (and anything else) are not kept: their equality is theirs to define.
        _last = None
        return
    # Copies: a caller mutating its lists afterwards must not make a stale entry look equal.
    _last = (key, [list(s) for s in streams], prepared)


def clear() -> None:
    """Forget the kept references."""
    global _last
    _last = None
