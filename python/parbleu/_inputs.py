"""Checks that turn silent misuse into one clear error (users.md item 1).

SacreBLEU zips hypotheses with reference streams, so a wrong layout is truncated or scored
character by character without a word. Here every layout problem raises a ``ParbleuError``
that says what was passed and what was expected.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Optional

from .errors import (
    InputTypeError,
    LengthMismatchError,
    ParbleuError,
    TransposedReferencesError,
)

RefStreams = Sequence[Sequence[Optional[str]]]


def _type_name(x: object) -> str:
    return type(x).__name__


def as_lines(obj: Any, what: str) -> list[str]:
    """Return ``obj`` as a list of strings (one per segment) or raise.

    Parameters
    ----------
    obj
        A sequence or iterable of strings.
    what
        Argument name for the message.

    Returns
    -------
    list of str
        The strings; a list is returned as is (not copied).
    """
    if isinstance(obj, (str, bytes)):
        raise InputTypeError(
            f"{what}: got a single {_type_name(obj)} ({_preview(obj)}); expected a sequence of "
            f"strings, one per segment (wrap a single sentence as [sentence])"
        )
    if not isinstance(obj, Iterable):
        raise InputTypeError(f"{what}: got {_type_name(obj)}; expected a sequence of strings")
    lines = obj if isinstance(obj, list) else list(obj)
    return lines


def check_items(lines: Sequence[Any], what: str, allow_none: bool = False) -> None:
    """Raise for the first item that is not a string (``None`` allowed if ``allow_none``)."""
    for i, x in enumerate(lines):
        if isinstance(x, str) or (allow_none and x is None):
            continue
        if x is None:
            raise InputTypeError(
                f"{what}[{i}] is None; every item of {what} must be a string "
                "(use '' for an empty output)"
            )
        hint = ""
        if isinstance(x, (list, tuple)):
            hint = " (pre-tokenized input? join the tokens with spaces and use tokenize='none')"
        raise InputTypeError(f"{what}[{i}] is a {_type_name(x)}; expected a string{hint}")


def _preview(s: Any, n: int = 40) -> str:
    r = repr(s)
    return r if len(r) <= n else r[: n - 3] + "..."


def as_ref_streams(refs: Any, n_hyps: int | None, what: str = "references") -> list[list[Any]]:
    """Validate the SacreBLEU reference layout: a list of streams, each one string per segment.

    Parameters
    ----------
    refs
        ``[stream_1, stream_2, ...]`` where ``stream_k[i]`` is the k-th reference of segment i
        (``None`` or ``''`` where a segment has fewer references).
    n_hyps
        Number of hypotheses, or ``None`` when unknown (reference caching).
    what
        Argument name for the message.

    Returns
    -------
    list of list
        The streams.
    """
    if isinstance(refs, (str, bytes)):
        raise InputTypeError(
            f"{what}: got a single string ({_preview(refs)}); expected a list of reference "
            f"streams, e.g. [refs] for one reference per segment"
        )
    if not isinstance(refs, Iterable):
        raise InputTypeError(
            f"{what}: got {_type_name(refs)}; expected a list of reference streams"
        )
    streams = refs if isinstance(refs, list) else list(refs)
    if not streams:
        raise InputTypeError(f"{what}: empty; expected at least one reference stream")
    if all(isinstance(s, str) for s in streams):
        raise InputTypeError(
            f"{what}: got a flat list of {len(streams)} strings; expected a list of reference "
            f"streams (a list of lists of strings): pass [references] for one reference per "
            f"segment"
        )
    out: list[list[Any]] = []
    for k, s in enumerate(streams):
        if isinstance(s, (str, bytes)) or not isinstance(s, Iterable):
            raise InputTypeError(
                f"{what}[{k}]: got {_type_name(s)} ({_preview(s)}); expected a sequence of "
                f"strings (one reference stream)"
            )
        out.append(s if isinstance(s, list) else list(s))
    lengths = [len(s) for s in out]
    if n_hyps is not None:
        if all(n == n_hyps for n in lengths):
            return out
        if len(out) == n_hyps and n_hyps > 1 and n_hyps not in lengths:
            raise TransposedReferencesError(
                f"{what}: got {len(out)} lists of lengths {_lengths(lengths)}, one per hypothesis; "
                f"parbleu (like SacreBLEU) expects one list per reference stream, each with "
                f"{n_hyps} strings. If you have one list of references per segment, pass "
                f"[list(s) for s in itertools.zip_longest(*refs)] instead"
            )
        bad = next(k for k, n in enumerate(lengths) if n != n_hyps)
        raise LengthMismatchError(
            f"{what}[{bad}] has {lengths[bad]} lines but there are {n_hyps} hypotheses; "
            f"every reference stream must have one line per hypothesis (nothing is truncated)"
        )
    if len(set(lengths)) > 1:
        raise LengthMismatchError(
            f"{what}: reference streams differ in length ({_lengths(lengths)}); "
            f"every stream must have one line per segment"
        )
    return out


def _lengths(lengths: list[int]) -> str:
    if len(lengths) <= 6:
        return ", ".join(map(str, lengths))
    return ", ".join(map(str, lengths[:5])) + f", ... ({len(lengths)} streams)"


def diagnose_refs(streams: list[list[Any]], what: str = "references") -> ParbleuError:
    """Find the first invalid reference item (called after a fast path failed)."""
    for k, s in enumerate(streams):
        for i, x in enumerate(s):
            if x is not None and not isinstance(x, str):
                hint = ""
                if isinstance(x, (list, tuple)):
                    hint = " (pre-tokenized? join tokens with spaces and use tokenize='none')"
                return InputTypeError(
                    f"{what}[{k}][{i}] is a {_type_name(x)}; expected a string or None{hint}"
                )
    return InputTypeError(f"{what}: invalid item")


def check_every_segment_has_ref(counts: Sequence[int], what: str = "references") -> None:
    """Raise if some segment has no reference at all (every stream gives ``None`` there)."""
    for i, c in enumerate(counts):
        if c == 0:
            raise InputTypeError(
                f"{what}: segment {i} has no reference (None in every stream); "
                "every segment needs at least one"
            )


def diagnose_unencodable(streams: Sequence[Sequence[Any]], what: str) -> ParbleuError:
    """Name the first string that is not valid Unicode text (a lone surrogate)."""
    from .errors import InvalidTextError

    for k, s in enumerate(streams):
        for i, x in enumerate(s):
            if isinstance(x, str):
                try:
                    x.encode("utf-8")
                except UnicodeEncodeError as e:
                    where = (
                        f"{what}[{k}][{i}]"
                        if len(streams) > 1 or what == "references"
                        else (f"{what}[{i}]")
                    )
                    return InvalidTextError(
                        f"{where}: lone surrogate U+{ord(x[e.start]):04X} at position {e.start} "
                        "cannot be encoded as UTF-8 (was the text decoded with "
                        "errors='surrogateescape'?)"
                    )
    return InvalidTextError(f"{what}: a string cannot be encoded as UTF-8")
