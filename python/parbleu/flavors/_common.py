"""Machinery the flavors share: the Rust n-gram statistics, errors, reading files.

Every flavor gets its per-segment counts from the core (``_core.flavor_token_stats`` for token
lists, ``_core.flavor_line_stats`` for raw lines prepared as the original tool prepares them) and
does its own arithmetic in Python, operation for operation as the original, so that floats are
bit-identical.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence, Sized
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from .._options import check_order
from .._segstats import SegStats, closest_ref_lens, decode_stats, line_stats, shortest_ref_lens
from .._workers import resolve_workers
from ..errors import flavor_error

__all__ = [
    "Prep",
    "SegStats",
    "closest_ref_lens",
    "flavor_error",
    "line_stats",
    "read_lines",
    "shortest_ref_lens",
    "token_stats",
    "tokens",
]

#: ``(tokenizer, case, split)`` names understood by the core (``parbleu_core::flavors::Prep``):
#: tokenizer ``none``, ``t2t``, ``mteval-intl`` or a SacreBLEU tokenizer (``13a``, ``intl``,
#: ``zh``, ``char``); case ``keep``, ``ascii``, ``python``, ``perl`` (applied to the tokenizer's
#: output); split ``python``, ``ascii``, ``perl``, ``perl-regex``, ``space``.
Prep = tuple[str, str, str]

#: Whitespace of Perl's ``\s`` that Python's ``str.split()`` also splits on, and the four
#: characters only Python splits on.
PY_ONLY_SPACE = "\x1c\x1d\x1e\x1f"


def _intern(seq: Any, table: dict[Hashable, str]) -> list[str]:
    out = []
    for tok in seq:
        key = table.get(tok)
        if key is None:
            key = table[tok] = f"\x00{len(table)}"
        out.append(key)
    return out


def token_stats(
    hyps: Sequence[Any],
    refs: Sequence[Sequence[Any]],
    max_order: int,
    workers: int | None = 1,
) -> SegStats:
    """Statistics of tokenized segments: ``refs[i]`` is the list of references of ``hyps[i]``.

    Tokens are strings; any other hashable tokens (or a string given where a token list is
    expected, which Python iterates character by character, or a string with a lone surrogate)
    are mapped to strings first, with
    Python's ``==``/``hash`` deciding which are equal, exactly as ``collections.Counter`` does.
    """
    max_order = check_order("max_order", max_order, minimum=0)
    w = resolve_workers(workers, len(hyps))
    try:
        raw = _core.flavor_token_stats(hyps, refs, max_order, w)
    except (TypeError, UnicodeEncodeError):  # other tokens, or text without UTF-8 form
        table: dict[Hashable, str] = {}
        ih = [_intern(h, table) for h in hyps]
        ir = [[_intern(r, table) for r in rs] for rs in refs]
        raw = _core.flavor_token_stats(ih, ir, max_order, w)
    return decode_stats(raw, max_order)


@dataclass(frozen=True)
class SmallStats:
    """Statistics of a few segments as Python lists (no numpy overhead for sentence scores)."""

    max_order: int
    matches: list[list[int]]
    totals: list[list[int]]
    hyp_lens: list[int]
    ref_lens: list[list[int]]


def token_stats_small(
    hyps: Sequence[Any], refs: Sequence[Sequence[Any]], max_order: int
) -> SmallStats:
    """:func:`token_stats` for a handful of segments, as lists."""
    max_order = check_order("max_order", max_order, minimum=0)
    try:
        m, t, h, rl = _core.flavor_token_stats_lists(hyps, refs, max_order)
    except (TypeError, UnicodeEncodeError):  # other tokens, or text without UTF-8 form
        table: dict[Hashable, str] = {}
        ih = [_intern(h, table) for h in hyps]
        ir = [[_intern(r, table) for r in rs] for rs in refs]
        m, t, h, rl = _core.flavor_token_stats_lists(ih, ir, max_order)
    return SmallStats(max_order, m, t, h, rl)


def tokens(lines: Sequence[str], prep: Prep) -> list[list[str]]:
    """Tokens of each line under ``prep``."""
    out: list[list[str]] = _core.flavor_tokens(list(lines), prep)
    return out


def check_sizes(
    flavor: str,
    first: Sized,
    second: Sized,
    reason: str,
    original: type[BaseException],
) -> None:
    """Refuse inputs of two lengths, as the original's assertion or check does.

    Parameters
    ----------
    flavor
        Name of the flavor.
    first, second
        The two inputs that must have the same length.
    reason
        The message, with ``{0}`` and ``{1}`` for the two lengths.
    original
        The exception type the original raises.
    """
    if len(first) != len(second):
        raise flavor_error(flavor, reason.format(len(first), len(second)), original)


def check_refs(refs: Sequence[Sequence[Any]], flavor: str, original: str) -> None:
    """Refuse a segment without references, where the original's ``min()`` of no lengths fails.

    Parameters
    ----------
    refs
        Per segment, its references.
    flavor
        Name of the flavor.
    original
        How the original fails there (the end of the message).
    """
    for i, r in enumerate(refs):
        if len(r) == 0:
            raise flavor_error(flavor, f"segment {i} has no reference ({original})", ValueError)


def read_lines(path: str, encoding: str = "utf-8") -> list[str]:
    r"""Lines of a text file split on ``\\n`` only, the final empty piece dropped, not stripped."""
    with open(path, encoding=encoding, newline="") as f:
        text = f.read()
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return parts


# --- Perl semantics --------------------------------------------------------------------------

#: Perl's ``\s`` on character strings (Unicode White_Space).
PERL_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_PERL_SPACE_RUN = re.compile(f"[{PERL_SPACE}]+")
_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
_P13A = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]


def perl_lc(text: str) -> str:
    """Perl's ``lc`` of a character string: Python's ``lower()`` without the final-sigma rule."""
    return text.replace("\u03a3", "\u03c3").lower() if "\u03a3" in text else text.lower()


def ascii_lower(text: str) -> str:
    """``tr/[A-Z]/[a-z]/``: only ASCII letters."""
    return text.translate(_ASCII_LOWER)


def perl_split(text: str) -> list[str]:
    """Perl's ``split ' '`` of a character string."""
    return [t for t in _PERL_SPACE_RUN.split(text) if t]


def perl_13a(text: str, lower_ascii: bool = False) -> str:
    r"""mteval-v13a's ``tokenization`` (and multi-bleu-detok.perl's), in Perl's own terms.

    The core's ``13a`` gives the same tokens except on lines holding U+001C..U+001F, which
    Python's ``str.split()`` treats as whitespace and Perl's ``\\s`` does not; those lines go
    through this function.
    """
    text = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    text = (
        text.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    )
    text = f" {text} "
    if lower_ascii:
        text = ascii_lower(text)
    for pat, repl in _P13A:
        text = pat.sub(repl, text)
    return " ".join(perl_split(text))


def has_py_only_space(text: str) -> bool:
    """Whether ``text`` holds a character only Python counts as whitespace (U+001C..U+001F)."""
    return any(c in text for c in PY_ONLY_SPACE)


def merge_stats(base: SegStats, idx: list[int], part: SegStats) -> SegStats:
    """Return ``base`` with the segments ``idx`` replaced by those of ``part`` (same order)."""
    if not idx:
        return base
    matches = base.matches.copy()
    totals = base.totals.copy()
    hyp_lens = base.hyp_lens.copy()
    matches[idx] = part.matches
    totals[idx] = part.totals
    hyp_lens[idx] = part.hyp_lens
    lists = base.ref_len_lists()
    for j, i in enumerate(idx):
        lists[i] = part.refs_of(j)
    flat = [x for rl in lists for x in rl]
    offsets = np.cumsum([0] + [len(rl) for rl in lists])
    return SegStats(
        base.max_order,
        matches,
        totals,
        hyp_lens,
        np.asarray(flat, dtype=np.int64),
        np.asarray(offsets, dtype=np.int64),
    )
