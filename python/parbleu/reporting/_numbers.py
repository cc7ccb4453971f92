"""Numbers of a report's data as JSON takes them."""

from __future__ import annotations

import math


def json_number(x: float) -> float | None:
    """Return a JSON-safe number (``None`` for NaN or infinity)."""
    x = float(x)
    return x if math.isfinite(x) else None
