"""System names for tables: the common prefix and suffix of file-like names dropped.

``newstest2021.en-de.hyp.Facebook-AI.de`` and ``newstest2021.en-de.hyp.UEdin.de`` read as
``Facebook-AI`` and ``UEdin``: at 14-50 WMT systems the shared part is most of each name, and
it is what makes tables wider than the window. ``parbleu compare`` and ``parbleu report``
shorten names the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

_SEPARATORS = "/\\._-"


def _common_prefix(strings: Sequence[str]) -> str:
    # Character by character (file names, not path components: "hyp.a.de", "hyp.b.de").
    first, last = min(strings), max(strings)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n]


def common_affixes(names: Sequence[str]) -> tuple[str, str]:
    """Return the common prefix and suffix of ``names``, each cut at a separator.

    Parameters
    ----------
    names
        One or more names (file names, system names).

    Returns
    -------
    tuple of str
        ``(prefix, suffix)``; each ends (starts) at a separator (``/``, ``.``, ...) or is empty.
    """
    prefix = _common_prefix(names)
    cut = max((prefix.rfind(c) for c in _SEPARATORS), default=-1)
    prefix = prefix[: cut + 1]
    suffix = _common_prefix([p[::-1] for p in names])[::-1]
    cut = max((suffix[::-1].rfind(c) for c in _SEPARATORS), default=-1)
    suffix = suffix[len(suffix) - cut - 1 :] if cut >= 0 else ""
    return prefix, suffix


def short_names(names: Sequence[str]) -> list[str]:
    """Return the names without their common prefix and suffix.

    ``a/hyp.sys1.de`` and ``a/hyp.sys2.de`` become ``sys1`` and ``sys2``; the full names are
    kept when shortening would leave an empty or a repeated name, or there is one name.

    Parameters
    ----------
    names
        The names, as given.

    Returns
    -------
    list of str
        One name per input name, in order.
    """
    if len(names) < 2:
        return list(names)
    prefix, suffix = common_affixes(names)
    out = [p[len(prefix) : len(p) - len(suffix)] for p in names]
    if any(not n for n in out) or len(set(out)) != len(out):
        return list(names)
    return out


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def display_names(keys: Sequence[str], names: Sequence[str] | None) -> list[str]:
    """Return the names to show for systems given as ``keys``.

    Parameters
    ----------
    keys
        The systems' names as given (file names, mapping keys).
    names
        ``None`` for ``keys`` without their common prefix and suffix (:func:`short_names`);
        else one name per system, in order: non-empty strings, all different.

    Returns
    -------
    list of str
        One name per key.

    Raises
    ------
    InvalidOptionError
        ``names`` is not a list of distinct non-empty strings.
    LengthMismatchError
        ``names`` has another length than ``keys``.
    """
    from .errors import InvalidOptionError, LengthMismatchError

    if names is None:
        return short_names(keys)
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise InvalidOptionError(
            f"names: got a {type(names).__name__}; expected a list of {len(keys)} system names"
        )
    out = list(names)
    if len(out) != len(keys):
        raise LengthMismatchError(
            f"names: {_count(len(out), 'name')} for {_count(len(keys), 'system')}; give one "
            "name per system, in order"
        )
    for k, n in enumerate(out, 1):
        if not isinstance(n, str) or not n.strip():
            raise InvalidOptionError(
                f"names: name {k} is {n!r}; expected a non-empty string for {keys[k - 1]!r}"
            )
    seen: dict[str, int] = {}
    for k, n in enumerate(out, 1):
        if n in seen:
            raise InvalidOptionError(
                f"names: {n!r} is given twice (names {seen[n]} and {k}); system names must differ"
            )
        seen[n] = k
    return out
