"""Checks of statistics arrays (shape, dtype, finite counts), below every metric.

They sit under :mod:`parbleu.metrics` so that metrics, significance and the accumulator of
:mod:`parbleu.stats` share them without importing one another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import StatisticsError

if TYPE_CHECKING:
    import numpy.typing as npt


def check_stats_array(
    arr: npt.NDArray[Any],
    width: int,
    owner: str,
    method: str = "score_from_stats",
    signed: bool = False,
) -> npt.NDArray[Any]:
    """Check that ``arr`` is a statistics row or matrix of ``width`` columns.

    Parameters
    ----------
    arr
        The array.
    width
        Expected number of columns.
    owner
        Metric name for the message.
    method
        Method name for the message.

    Returns
    -------
    numpy.ndarray
        ``arr`` itself.
    """
    if arr.dtype.kind not in "iuf":
        raise StatisticsError(f"{owner}.{method}: expected numbers, got dtype {arr.dtype}")
    if arr.ndim not in (1, 2) or arr.shape[-1] != width:
        raise StatisticsError(
            f"{owner}.{method}: expected a row of {width} statistics or an (n, {width}) "
            f"matrix, got shape {arr.shape}"
        )
    check_counts(arr, f"{owner}.{method}", signed)
    return arr


def check_counts(arr: npt.NDArray[Any], what: str, signed: bool = False) -> None:
    """Raise ``StatisticsError`` for a NaN, an infinity or a negative value in statistics.

    Every built-in metric's statistics are counts or lengths: such a value would be scored
    into a plausible-looking number (BLEU 100 from negative rows) instead of an error.

    Parameters
    ----------
    arr
        The statistics (any shape, numeric dtype).
    what
        Where they were passed, for the message.
    signed
        The metric's rows may be negative (``Metric.signed_rows``: imported scores, whose
        mean is of any real numbers): only NaN and infinities are refused.
    """
    import numpy as np

    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        where = tuple(np.argwhere(~np.isfinite(arr))[0].tolist())
        raise StatisticsError(f"{what}: statistics must be finite, found {arr[where]} at {where}")
    if not signed and arr.dtype.kind != "u" and arr.size and (arr < 0).any():
        where = tuple(np.argwhere(arr < 0)[0].tolist())
        raise StatisticsError(
            f"{what}: statistics are counts and must be >= 0, found {arr[where]} at {where}"
        )
