"""Small wording helpers shared by messages and pages (no imports: cheap to load)."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, word: str, many: str | None = None, fmt: str = "") -> str:
    """``1 segment``, ``2 segments``: the count and the word in its number.

    Parameters
    ----------
    count
        How many.
    word
        The singular.
    many
        The plural when it is not ``word + "s"`` (``"trials per pair"``).
    fmt
        Format spec of the count (``","`` for thousands separators).

    Returns
    -------
    str
        ``"<count> <word>"``.
    """
    return f"{count:{fmt}} {word if count == 1 else (many or word + 's')}"
