"""Argparse value types shared by the metrics' options and the command line's (below both)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["int_at_least"]


def int_at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    """Return an argparse type: an integer ``>= low`` (and ``<= high``)."""

    def conv(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected an integer >= {low}, got {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(
                f"expected an integer from {low} to {high}, got {value}"
            )
        return value

    return conv
