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


def filter_rows(
    gold_rows: np.ndarray, metric_rows: np.ndarray, min_len: int = 1, metric_nones: bool = False
) -> tuple[FloatArray, FloatArray, list[int]]:
    """Rows without the entries whose gold score is ``None``, concatenated, with their lengths.

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
    gold: list[Any] = []
    metric: list[Any] = []
    lens: list[int] = []
    for g, m in zip(gold_rows, metric_rows):
        keep = [(a, b) for a, b in zip(g, m) if a is not None and not (metric_nones and b is None)]
        if len(keep) < min_len:
            continue
        lens.append(len(keep))
        gold.extend(a for a, _ in keep)
        metric.extend(b for _, b in keep)
    return to_floats(gold, "gold scores"), to_floats(metric, "metric scores"), lens


def floats_of(data: bytes) -> FloatArray:
    """float64 values from the core's little-endian bytes."""
    return np.frombuffer(data, dtype="<f8").astype(np.float64)
