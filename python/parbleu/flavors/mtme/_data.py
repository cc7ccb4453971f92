"""Grouped float vectors for the core: None filtering, reshaping, buffers."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from parbleu.errors import InvalidOptionError

FloatArray = npt.NDArray[np.float64]


def reshape(vector: Any, num_sys: int, average_by: str) -> np.ndarray:
    """MTME's ``_Reshape``: a packed vector as the matrix whose rows are averaged.

    Parameters
    ----------
    vector : array_like
        Scores grouped by system (``None`` allowed).
    num_sys : int
        Number of systems (rows of the packed matrix).
    average_by : str
        ``'none'``, ``'sys'`` or ``'item'``.

    Returns
    -------
    numpy.ndarray
        One row per group.
    """
    if average_by == "none":
        return np.asarray(vector).reshape(1, -1)
    if average_by == "sys":
        return np.asarray(vector).reshape(num_sys, -1)
    if average_by == "item":
        return np.asarray(vector).reshape(num_sys, -1).transpose()
    raise ValueError(f"Unknown averaging option: {average_by}")


def to_floats(values: Any, what: str) -> FloatArray:
    """Return a contiguous float64 copy, refusing NaN and infinite values (MTME assumes none)."""
    try:
        arr = np.ascontiguousarray(np.asarray(values, dtype=np.float64))
    except (TypeError, ValueError) as e:
        raise InvalidOptionError(f"{what}: not a vector of numbers ({e})") from None
    if arr.size and not np.isfinite(arr).all():
        raise InvalidOptionError(
            f"{what}: NaN or infinite value at position {int(np.argmin(np.isfinite(arr)))}"
        )
    return arr


def none_mask(rows: np.ndarray) -> npt.NDArray[np.bool_]:
    """Where ``rows`` holds ``None`` (only object arrays can)."""
    if rows.dtype != object:
        return np.zeros(rows.shape, dtype=bool)
    return np.asarray(rows == None, dtype=bool)  # noqa: E711  (elementwise on object arrays)


def filter_rows(
    gold_rows: np.ndarray, metric_rows: np.ndarray, min_len: int = 1, metric_nones: bool = False
) -> tuple[FloatArray, FloatArray, list[int]]:
    """Rows without the entries whose gold score is ``None``, concatenated, with their lengths.

    Vectorised: one ``None`` mask per matrix and one boolean selection, in row-major order (the
    order of MTME's loop over rows).

    Parameters
    ----------
    gold_rows, metric_rows : numpy.ndarray
        Parallel matrices (object arrays when ``None`` occurs).
    min_len : int
        Rows left with fewer entries are dropped.
    metric_nones : bool
        Also drop entries whose metric score is ``None`` (``tau_optimization``).

    Returns
    -------
    tuple
        Gold values, metric values, row lengths.
    """
    gold_rows, metric_rows = np.asarray(gold_rows), np.asarray(metric_rows)
    if gold_rows.ndim != 2 or gold_rows.shape != metric_rows.shape:
        raise InvalidOptionError(
            f"gold and metric scores: shapes {gold_rows.shape} and {metric_rows.shape} differ"
        )
    keep = ~none_mask(gold_rows)
    if metric_nones:
        keep &= ~none_mask(metric_rows)
    counts = keep.sum(axis=1)
    rows_kept = counts >= min_len
    keep &= rows_kept[:, np.newaxis]
    gold = to_floats(gold_rows[keep], "gold scores")
    metric = to_floats(metric_rows[keep], "metric scores")
    return gold, metric, [int(c) for c in counts[rows_kept]]


def floats_of(data: bytes) -> FloatArray:
    """float64 values from the core's little-endian bytes."""
    return np.frombuffer(data, dtype="<f8").astype(np.float64)
