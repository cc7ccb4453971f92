"""Checks of option values shared by every public entry point (docs/reliability.md lists them).

Options are checked where they are given (constructors, function arguments, the CLI), so a
value outside its domain is one ``InvalidOptionError`` naming the argument, never a number the
Rust core sizes an allocation with.

Each ``check_*(name, value, ...)`` takes the argument's name (for the message) and the user's
value, and returns the value in its checked type (``check_smooth_*`` take the value only).
"""

from __future__ import annotations

import math
import operator
from typing import Any

from .errors import InvalidOptionError

#: Highest n-gram order (BLEU ``max_ngram_order``, chrF ``char_order``/``word_order``, the
#: flavors' orders). A statistics row has one column per order and kind (``2 + 2 * N`` for
#: BLEU), so the order sizes every row: the cap keeps a row at most a few kB. Orders above a
#: corpus' longest segment are legal: the extra columns are zero and cost nothing else.
MAX_ORDER = 100

#: Highest resample count (bootstrap, approximate randomization): one float per resample and
#: system is kept, and a million resamples already take minutes on a large test set.
MAX_RESAMPLES = 1_000_000


#: BLEU's smoothing methods and their default values (SacreBLEU's ``BLEU.SMOOTH_DEFAULTS``),
#: in SacreBLEU's order (the command line's ``-s`` choices).
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

#: Largest ``smooth_value``: above it ``100 * smooth_value`` (floor's and add-k's precision)
#: overflows a double and BLEU is ``inf``, as in SacreBLEU; refused instead of scored.
MAX_SMOOTH_VALUE = 1.7976931348623157e308 / 100


def _int(name: str, value: Any, expected: str) -> int:
    if isinstance(value, bool):
        raise InvalidOptionError(f"{name}={value!r}: expected {expected}, not a bool")
    try:
        return operator.index(value)  # int and numpy integers; never a float or a str
    except TypeError:
        raise InvalidOptionError(f"{name}={value!r}: expected {expected}") from None


def check_order(name: str, value: Any, minimum: int = 1) -> int:
    """Return ``value`` as an n-gram order in ``[minimum, MAX_ORDER]``, or raise.

    Parameters
    ----------
    minimum
        Smallest legal order (0 where an order may be switched off, as chrF's word order).

    Returns
    -------
    int
        The order.
    """
    return check_count(name, value, minimum, MAX_ORDER)


def check_count(name: str, value: Any, minimum: int, maximum: int) -> int:
    """Return ``value`` as an integer in ``[minimum, maximum]`` (resamples, ...), or raise.

    Parameters
    ----------
    minimum, maximum
        The bounds, inclusive.

    Returns
    -------
    int
        The count.
    """
    expected = f"an integer from {minimum:,} to {maximum:,}"
    n = _int(name, value, expected)
    if not minimum <= n <= maximum:
        raise InvalidOptionError(f"{name}={value!r}: expected {expected}")
    return n


def check_flag(name: str, value: Any) -> bool:
    """Return a boolean option as a ``bool``: ``True``/``False`` or the integers 1/0.

    SacreBLEU only tests such options for truth, so ``lowercase=1`` works there; 1 and 0 are
    accepted here too, and anything else (``"yes"``, 2, ``None``) is refused by name rather
    than guessed at.

    Returns
    -------
    bool
        The flag.
    """
    if isinstance(value, bool):
        return value
    if type(value).__module__ == "numpy" and type(value).__name__ in ("bool_", "bool"):
        return bool(value)  # numpy's bool (np.True_): not an int, but a bool all the same
    try:
        n = operator.index(value)
    except TypeError:
        n = None
    if n in (0, 1):
        return bool(n)
    raise InvalidOptionError(f"{name}={value!r}: expected True or False (or 1 or 0)")


def check_probability(name: str, value: Any) -> float:
    """Return ``value`` as a float in ``[0, 1]`` (a p-value), or raise.

    Returns
    -------
    float
        The probability.
    """
    try:
        p = float(value)
    except (TypeError, ValueError):
        raise InvalidOptionError(f"{name}={value!r}: expected a number from 0 to 1") from None
    if isinstance(value, (bool, str, bytes)) or math.isnan(p) or not 0.0 <= p <= 1.0:
        raise InvalidOptionError(f"{name}={value!r}: expected a number from 0 to 1")
    return p


def check_real(name: str, value: Any, minimum: float | None, maximum: float | None) -> float:
    """Return ``value`` as a finite float in ``[minimum, maximum]`` (``None``: open), or raise.

    Returns
    -------
    float
        The number.
    """
    lo = "-inf" if minimum is None else f"{minimum:g}"
    hi = "inf" if maximum is None else f"{maximum:g}"
    expected = f"a finite number from {lo} to {hi}"
    if isinstance(value, (bool, str, bytes)):
        raise InvalidOptionError(f"{name}={value!r}: expected {expected}")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise InvalidOptionError(f"{name}={value!r}: expected {expected}") from None
    if (
        not math.isfinite(x)
        or (minimum is not None and x < minimum)
        or (maximum is not None and x > maximum)
    ):
        raise InvalidOptionError(f"{name}={value!r}: expected {expected}")
    return x


def check_smooth_method(value: Any) -> str:
    """Return a BLEU smoothing method, one of :data:`SMOOTH_DEFAULTS`, or raise.

    The Rust core keeps its own guard (``Smooth::from_name``) for callers of the binding;
    this is the check every Python entry point (``BLEU``, ``BLEU.compute_bleu``) makes first,
    so the message names the argument.

    Returns
    -------
    str
        The method.
    """
    if not isinstance(value, str) or value not in SMOOTH_DEFAULTS:
        raise InvalidOptionError(
            f"smooth_method={value!r}: expected one of "
            + ", ".join(repr(k) for k in SMOOTH_DEFAULTS)
        )
    return value


def check_smooth_value(value: Any) -> float | None:
    """Return a BLEU ``smooth_value``: ``None`` or a finite number from 0 to the maximum.

    Returns
    -------
    float or None
        The value, unchanged (an ``int`` stays an ``int``, as SacreBLEU formats it).
    """
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 0
    ):
        raise InvalidOptionError(f"smooth_value={value!r}: expected a finite number >= 0 (or None)")
    if value > MAX_SMOOTH_VALUE:
        raise InvalidOptionError(
            f"smooth_value={value!r}: expected at most {MAX_SMOOTH_VALUE:.4g} "
            "(100 x smooth_value must be finite, or BLEU is inf)"
        )
    return value
