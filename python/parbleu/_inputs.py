"""Checks that turn silent misuse into one clear error (users.md item 1).

SacreBLEU zips hypotheses with reference streams, so a wrong layout is truncated or scored
character by character without a word. Here every layout problem raises a ``ParbleuError``
that says what was passed and what was expected.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .errors import (
    InputTypeError,
    LengthMismatchError,
    ParbleuError,
    TransposedReferencesError,
)


def _type_name(x: object) -> str:
    return type(x).__name__


def _columnar(obj: Any, what: str) -> list[Any] | None:
    """Return the items of a pyarrow ``Array``/``ChunkedArray`` or polars ``Series``, or None.

    Neither library is imported here (the caller's object shows it is loaded). Both convert
    in compiled code, one Python ``str`` per item: the strings the core reads anyway (it
    takes Python strings, so Arrow buffers are not read in place). Nulls become ``None``.
    """
    module = type(obj).__module__
    if module.startswith("pyarrow") and hasattr(obj, "to_pylist") and hasattr(obj, "type"):
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

        kind = obj.type.value_type if pa.types.is_dictionary(obj.type) else obj.type
        is_view = getattr(pa.types, "is_string_view", lambda _: False)
        if not (pa.types.is_string(kind) or pa.types.is_large_string(kind) or is_view(kind)):
            raise InputTypeError(
                f"{what}: a pyarrow array of {obj.type}; expected strings "
                "(convert with .cast(pyarrow.string()))"
            )
        items: list[Any] = obj.to_pylist()
        return items
    if module.startswith("polars") and hasattr(obj, "to_list") and hasattr(obj, "dtype"):
        items = obj.to_list()
        return items
    return None


def missing_kind(x: Any) -> str | None:
    """How a missing value of pandas, polars or Arrow shows (``None``, ``NaN``, ...), if it is one.

    Parameters
    ----------
    x
        An item that is not a string.

    Returns
    -------
    str or None
        A short name for messages, or ``None`` when ``x`` is not a missing-value marker.
    """
    if x is None:
        return "None"
    if isinstance(x, float) and x != x:
        return "NaN"
    name = type(x).__name__
    if name in ("NAType", "NaTType"):  # pandas.NA, pandas.NaT
        return f"pandas.{name[:-4]}"
    return None


def missing_message(where: str, kind: str, reference: bool = False) -> str:
    """Say that ``where`` (such as ``hypotheses[3]``) is a missing value, and what to do.

    Parameters
    ----------
    where
        Argument and index.
    kind
        What :func:`missing_kind` returned.
    reference
        Whether the item is a reference (``None`` is allowed there).

    Returns
    -------
    str
        What is wrong, and how to drop or fill such rows.
    """
    if reference:
        fix = "use None where a segment has no reference in this stream, or drop the row or fill it"
    else:
        fix = "every item must be a string: drop the row or fill it"
    return (
        f"{where} is {kind}, a missing value; {fix} (pandas: df.dropna(subset=[column]) or "
        "df[column].fillna(''); polars: df.drop_nulls(column) or pl.col(column).fill_null(''))"
    )


def as_lines(obj: Any, what: str) -> list[str]:
    """Return ``obj`` as a list of strings (one per segment) or raise.

    Parameters
    ----------
    obj
        A sequence or iterable of strings: also a pyarrow ``Array``/``ChunkedArray`` of
        strings, a pandas or polars ``Series``.
    what
        Argument name for the message.

    Returns
    -------
    list of str
        The strings; a list is returned as is (not copied).
    """
    columnar = _columnar(obj, what)
    if columnar is not None:
        return columnar
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
        kind = missing_kind(x)
        if kind is not None:
            raise InputTypeError(missing_message(f"{what}[{i}]", kind))
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
    if _columnar(refs, what) is not None:
        raise InputTypeError(
            f"{what}: got one {type(refs).__module__.split('.')[0]} column; expected a list of "
            f"reference streams: pass [column] for one reference per segment"
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
        columnar = _columnar(s, f"{what}[{k}]")
        if columnar is not None:
            out.append(columnar)
            continue
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
                kind = missing_kind(x)
                if kind is not None:
                    return InputTypeError(missing_message(f"{what}[{k}][{i}]", kind, True))
                hint = ""
                if isinstance(x, (list, tuple)):
                    hint = " (pre-tokenized? join tokens with spaces and use tokenize='none')"
                return InputTypeError(
                    f"{what}[{k}][{i}] is a {_type_name(x)}; expected a string or None{hint}"
                )
    return InputTypeError(f"{what}: invalid item")


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
