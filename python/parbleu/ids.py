"""BLEU on integer token ids: score a training batch without detokenizing.

A sequence of ids is treated as a tokenized segment whose tokens are the ids, so every score
equals BLEU with ``tokenize="none"`` on the ids written as space-separated numbers (the
tokenizer and ``lowercase`` of the ``BLEU`` object do not apply; smoothing, effective order
and the n-gram order do). Matching runs in Rust on the integers; nothing is formatted.

Accepted layouts for a batch of sequences:

* a 2-D array (numpy, or anything with ``__array__`` or ``__dlpack__``, e.g. a CPU torch
  tensor) of shape ``(batch, length)``, usually padded: pass ``pad_id`` to drop padding;
* a sequence of 1-D sequences (lists of ints, 1-D arrays or tensors) of any lengths.

References are a list of reference *streams* (as for strings): ``[refs_a]`` or
``[refs_a, refs_b]``, each stream a batch as above; ``None`` entries in a list stream mean
"no reference in this stream for that segment". ``pad_id`` is dropped wherever it occurs in
hypotheses and references (left or right padding, or label padding such as ``-100``).

Ids are integers from ``-2**63`` to ``2**64 - 1``, held in 64 bits: ids from ``2**63`` up
(uint64 arrays, or Python ints) and negative ids (signed arrays, Python ints, ``pad_id``) have
the same bits (``2**64 - 1`` and ``-1``), so one call may have either but not both: a call with
both is refused (``InputTypeError``) rather than scoring ``2**64 - 1`` as ``-1``, which
``BLEU(tokenize="none")`` on the numbers written out would not do.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from . import _core
from ._options import check_order
from ._workers import resolve_workers
from .errors import (
    EmptyInputError,
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["IdOptions", "extract_stats_ids", "ref_stream_count"]

_I64_MAX = (1 << 63) - 1
_I64_MIN = -(1 << 63)
_U64_MAX = (1 << 64) - 1


class IdOptions(TypedDict, total=False):
    """The keyword options of ``BLEU``'s token-id methods, as :func:`extract_stats_ids` takes.

    ``pad_id`` (``int`` or ``None``), ``workers`` (``int`` or ``None``), ``lengths`` and
    ``ref_lengths`` (a sequence of per-stream lengths, or ``None``).
    """

    pad_id: int | None
    workers: int | None
    lengths: Any
    ref_lengths: Sequence[Any] | None


class _Signs:
    """Which of the two ranges sharing bits a call's ids fall in: ``>= 2**63`` and ``< 0``."""

    def __init__(self) -> None:
        self.high: str | None = None
        self.negative: str | None = None

    def saw(self, what: str, *, high: bool = False, negative: bool = False) -> None:
        if high and self.high is None:
            self.high = what
        if negative and self.negative is None:
            self.negative = what
        if self.high is not None and self.negative is not None:
            raise InputTypeError(
                f"{self.high} has token ids from 2**63 to 2**64 - 1 (uint64) and "
                f"{self.negative} has negative ids: in 64 bits 2**64 - 1 and -1 are the same "
                "id, so one call takes one or the other (e.g. give every array one signedness)"
            )

    def saw_ids(self, ids: npt.NDArray[np.int64], wrapped: bool, what: str) -> None:
        """Record converted ids: negative values are wrapped uint64 ids if ``wrapped``."""
        if ids.size and int(ids.min()) < 0:
            self.saw(what, high=wrapped, negative=not wrapped)


def _as_array(x: Any) -> npt.NDArray[Any] | None:
    """``x`` as a numpy array if it is array-like (numpy, ``__array__``, DLPack), else None."""
    import numpy as np

    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        try:
            return np.from_dlpack(x)
        except (TypeError, BufferError, RuntimeError, ValueError):
            pass  # e.g. a tensor on an accelerator: fall back to __array__
    if hasattr(x, "__array__"):
        return np.asarray(x)
    return None


def _int64(arr: npt.NDArray[Any], what: str) -> tuple[npt.NDArray[np.int64], bool]:
    """Return the ids as int64, and whether they were uint64 ids ``>= 2**63`` reinterpreted."""
    import numpy as np

    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        raise InputTypeError(
            f"{what}: token ids must be integers, got an array of dtype {arr.dtype}"
        )
    if arr.dtype.kind == "u" and arr.size and int(arr.max()) > _I64_MAX:
        # Reinterpret: distinct ids stay distinct, which is all matching needs.
        return np.ascontiguousarray(arr, dtype=np.uint64).view(np.int64), True
    return np.ascontiguousarray(arr, dtype=np.int64), False


def _lengths(lengths: Any, n: int, width: int, what: str) -> npt.NDArray[np.int64]:
    """Return the valid lengths of the rows of an ``(n, width)`` array, checked."""
    import numpy as np

    arr = _as_array(lengths)
    if arr is None:
        try:
            arr = np.asarray(list(lengths))
        except TypeError:
            raise InputTypeError(
                f"{what} lengths: got {type(lengths).__name__}; expected one integer per row"
            ) from None
    if arr.ndim != 1 or arr.shape[0] != n:
        raise LengthMismatchError(
            f"{what} lengths: expected {n} lengths (one per row), got shape {arr.shape}"
        )
    if arr.size and (arr.dtype.kind not in "iu" or arr.dtype == np.bool_):
        raise InputTypeError(f"{what} lengths: expected integers, got dtype {arr.dtype}")
    out = np.asarray(arr, dtype=np.int64)
    bad = np.flatnonzero((out < 0) | (out > width))
    if bad.size:
        i = int(bad[0])
        raise InputTypeError(
            f"{what} lengths[{i}] = {int(out[i])}: expected 0 <= length <= {width} (the row width)"
        )
    return out


def _batch(
    obj: Any, what: str, allow_none: bool, signs: _Signs, lengths: Any = None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.uint8] | None]:
    """Flat ids, offsets (n + 1) and a presence mask (None if every segment has one)."""
    import numpy as np

    if isinstance(obj, (str, bytes)):
        raise InputTypeError(f"{what}: got a string; expected a batch of token-id sequences")
    arr = _as_array(obj)
    if arr is not None:
        if arr.ndim != 2:
            raise InputTypeError(
                f"{what}: expected a 2-D (batch, length) array or a sequence of 1-D sequences, "
                f"got an array of shape {arr.shape}"
            )
        n, width = arr.shape
        # No copy for a C-contiguous int64 array (e.g. a CPU tensor through DLPack).
        ids, wrapped = _int64(arr, what)
        if lengths is None:
            signs.saw_ids(ids, wrapped, what)
            return ids.reshape(-1), np.arange(n + 1, dtype=np.int64) * width, None
        lens = _lengths(lengths, n, width, what)
        keep = np.arange(width, dtype=np.int64)[None, :] < lens[:, None]
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(lens, out=offsets[1:])
        kept = ids[keep]
        signs.saw_ids(kept, wrapped, what)
        return kept, offsets, None
    if lengths is not None:
        raise InputTypeError(
            f"{what} lengths: only for a 2-D array; a list of sequences has its own lengths"
        )
    try:
        items = list(obj)
    except TypeError:
        raise InputTypeError(
            f"{what}: got {type(obj).__name__}; expected a batch of token-id sequences"
        ) from None
    present = np.ones(len(items), dtype=np.uint8)
    lengths = np.zeros(len(items), dtype=np.int64)
    parts: list[npt.NDArray[np.int64]] = []
    plain: list[Any] = []
    all_plain = True
    for i, x in enumerate(items):
        if x is None:
            if not allow_none:
                raise InputTypeError(f"{what}[{i}] is None; expected a sequence of token ids")
            present[i] = 0
            continue
        if isinstance(x, (list, tuple)) and all_plain:
            if x and (not isinstance(x[0], (int, np.integer)) or isinstance(x[0], bool)):
                raise InputTypeError(
                    f"{what}[{i}] is a {type(x).__name__} of {type(x[0]).__name__}; expected "
                    "token ids (integers). References are a list of streams: [refs], not refs"
                )
            plain.append(x)
            lengths[i] = len(x)
            continue
        if isinstance(x, (int, np.integer)):
            raise InputTypeError(
                f"{what}[{i}] is an integer; expected a sequence of token ids per segment "
                "(references are a list of streams: [refs], not refs)"
            )
        a = _as_array(x)
        if a is not None and a.size == 0:
            continue
        if a is None:
            raise InputTypeError(
                f"{what}[{i}] is a {type(x).__name__}; expected a sequence of token ids"
            )
        if a.ndim != 1:
            raise InputTypeError(f"{what}[{i}]: expected a 1-D sequence, got shape {a.shape}")
        if all_plain and plain:
            parts.append(_plain(plain, what, signs))
            plain = []
        all_plain = False
        ids, wrapped = _int64(a, f"{what}[{i}]")
        signs.saw_ids(ids, wrapped, f"{what}[{i}]")
        parts.append(ids)
        lengths[i] = a.shape[0]
    if plain:
        parts.append(_plain(plain, what, signs))
    flat = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    offsets = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return flat, offsets, (None if present.all() else present)


def _wrap(x: Any) -> int:
    """Return a Python int id as the int64 with the same 64 bits (as a uint64 array id)."""
    if isinstance(x, bool):
        raise TypeError(x)
    v = operator.index(x)
    if not _I64_MIN <= v <= _U64_MAX:
        raise OverflowError(v)
    return v - (1 << 64) if v > _I64_MAX else v


def _plain(seqs: list[Any], what: str, signs: _Signs) -> npt.NDArray[np.int64]:
    import numpy as np

    try:
        ids = np.fromiter(itertools.chain.from_iterable(seqs), dtype=np.int64)
    except OverflowError:
        pass  # ids from 2**63 to 2**64 - 1 (uint64 ids): wrapped one by one below
    except (TypeError, ValueError):
        raise InputTypeError(f"{what}: token ids must be integers that fit in 64 bits") from None
    else:
        signs.saw_ids(ids, False, what)
        return ids
    try:
        values = [operator.index(v) for v in itertools.chain.from_iterable(seqs)]
        ids = np.fromiter(map(_wrap, values), dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise InputTypeError(
            f"{what}: token ids must be integers from -2**63 to 2**64 - 1"
        ) from None
    signs.saw(what, high=max(values) > _I64_MAX, negative=min(values) < 0)
    return ids


def _pad_id(pad_id: Any) -> int | None:
    if pad_id is None:
        return None
    try:
        return _wrap(pad_id)
    except TypeError:
        raise InvalidOptionError(
            f"pad_id={pad_id!r}: expected an integer token id (or None); floats are not truncated"
        ) from None
    except OverflowError:
        raise InvalidOptionError(
            f"pad_id={pad_id!r}: expected an integer from -2**63 to 2**64 - 1"
        ) from None


def _ref_streams(ref_ids: Any) -> list[Any]:
    if isinstance(ref_ids, (str, bytes)) or _as_array(ref_ids) is not None:
        raise InputTypeError(
            "references: expected a list of reference streams ([refs] for one reference per "
            "segment), each a batch of token-id sequences"
        )
    try:
        streams = list(ref_ids)
    except TypeError:
        raise InputTypeError(
            f"references: got {type(ref_ids).__name__}; expected a list of reference streams"
        ) from None
    if not streams:
        raise InputTypeError("references: no reference stream given")
    return streams


def ref_stream_count(ref_ids: Any) -> int:
    """Return the number of reference streams of ``ref_ids`` (a BLEU signature's ``nrefs``).

    Parameters
    ----------
    ref_ids
        A list of reference streams, as :func:`extract_stats_ids` takes.

    Returns
    -------
    int
        The number of streams.
    """
    return len(_ref_streams(ref_ids))


def extract_stats_ids(
    hyp_ids: Any,
    ref_ids: Sequence[Any],
    *,
    pad_id: int | None = None,
    max_ngram_order: int = 4,
    workers: int | None = None,
    lengths: Any = None,
    ref_lengths: Sequence[Any] | None = None,
) -> npt.NDArray[np.int64]:
    """BLEU statistics of token-id sequences, SacreBLEU's column order.

    Parameters
    ----------
    hyp_ids
        A batch of hypotheses (see the module docstring for accepted layouts).
    ref_ids
        A list of reference streams, each a batch of the same size.
    pad_id
        Id to drop wherever it occurs (padding), or ``None``: an integer from ``-2**63`` to
        ``2**64 - 1`` (a float is refused, not truncated).
    max_ngram_order
        Highest n-gram order, 1 to 100.
    workers
        Threads, as elsewhere.
    lengths
        For a 2-D ``hyp_ids``: the valid length of each row (the rest is ignored), e.g. the
        lengths a generator returns; ``None`` keeps whole rows.
    ref_lengths
        The same per reference stream (a list with one entry, possibly ``None``, per stream).

    Returns
    -------
    numpy.ndarray
        int64, shape ``(batch, 2 + 2 * max_ngram_order)``; equal to ``BLEU(tokenize="none")``
        statistics of the ids written as space-separated numbers.
    """
    import numpy as np

    max_ngram_order = check_order("max_ngram_order", max_ngram_order)
    pad = _pad_id(pad_id)
    signs = _Signs()
    if pad_id is not None:
        # pad_id is dropped by its bits: it is an id of the call like the others.
        given = operator.index(pad_id)
        signs.saw("pad_id", high=given > _I64_MAX, negative=given < 0)
    hflat, hoffs, _ = _batch(hyp_ids, "hypotheses", allow_none=False, signs=signs, lengths=lengths)
    n = len(hoffs) - 1
    if n == 0:
        raise EmptyInputError("hypotheses: empty batch; expected at least one segment")
    streams = []
    present_any = np.zeros(n, dtype=bool)
    ref_streams = _ref_streams(ref_ids)
    if ref_lengths is not None and len(ref_lengths) != len(ref_streams):
        raise LengthMismatchError(
            f"ref_lengths: {len(ref_lengths)} entries for {len(ref_streams)} reference streams"
        )
    for k, s in enumerate(ref_streams):
        rlen = None if ref_lengths is None else ref_lengths[k]
        flat, offs, present = _batch(
            s, f"references[{k}]", allow_none=True, signs=signs, lengths=rlen
        )
        if len(offs) - 1 != n:
            raise LengthMismatchError(
                f"references[{k}] has {len(offs) - 1} sequences but there are {n} hypotheses; "
                "nothing is truncated"
            )
        present_any |= True if present is None else present.astype(bool)
        streams.append((flat, offs, present))
    if not present_any.all():
        i = int(np.argmin(present_any))
        raise InputTypeError(
            f"references: segment {i} has no reference (None in every stream); every segment "
            "needs at least one"
        )
    w = resolve_workers(workers, n)
    data = _core.bleu_ids_extract(hflat, hoffs, streams, pad, max_ngram_order, w)
    return np.frombuffer(data, dtype="<i8").reshape(n, 2 + 2 * max_ngram_order).copy()
