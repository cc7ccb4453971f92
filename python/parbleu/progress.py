r"""A tiny progress bar (rate, time left) and the ``progress=`` argument of long-running calls.

No dependency: one line on standard error, redrawn at most ten times a second with ``\\r``.
The command line shows it only when standard error is a terminal and ``--quiet`` is not
given; the Python API shows it only when asked (``progress=True``) or calls the user's
function (``progress=callable``).
"""

from __future__ import annotations

import sys
import time
from typing import Callable, TextIO, Union

__all__ = ["ProgressArg", "ProgressBar", "ProgressCallback", "make_progress"]

#: ``progress(done, total)``: called as work advances (``total`` may be 0 when unknown).
ProgressCallback = Callable[[int, int], None]
#: What ``progress=`` accepts: ``None``/``False`` (off), ``True`` (a bar on stderr), a callable.
ProgressArg = Union[None, bool, ProgressCallback]


def _si(x: float) -> str:
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(x) >= div:
            return f"{x / div:.1f}{unit}"
    return f"{x:.0f}"


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


class ProgressBar:
    """One self-redrawing line: ``desc [#####     ] 48% 1.2M/2.5M lines 3.1M lines/s 00:04 left``.

    Parameters
    ----------
    total
        Amount of work (0 when unknown: no percentage or time left is shown).
    unit
        Name of one unit of work, shown after the counts.
    desc
        Text in front of the bar.
    stream
        Where to draw (default: ``sys.stderr`` at the time of each draw).
    min_interval
        Least seconds between two redraws.
    """

    WIDTH = 24

    def __init__(
        self,
        total: int,
        unit: str = "items",
        desc: str = "",
        stream: TextIO | None = None,
        min_interval: float = 0.1,
    ) -> None:
        self.total = max(int(total), 0)
        self.unit = unit
        self.desc = desc
        self._stream = stream
        self.min_interval = min_interval
        self.start = time.monotonic()
        self._last = -1.0
        self._drawn = 0
        self.done = 0

    @property
    def stream(self) -> TextIO:
        """The stream drawn to."""
        return self._stream if self._stream is not None else sys.stderr

    def render(self, done: int, now: float | None = None) -> str:
        """Return the text of the bar for ``done`` units of work (no carriage return)."""
        elapsed = max((time.monotonic() if now is None else now) - self.start, 1e-9)
        rate = done / elapsed
        head = f"{self.desc} " if self.desc else ""
        if self.total > 0:
            frac = min(done / self.total, 1.0)
            fill = int(frac * self.WIDTH)
            bar = "#" * fill + " " * (self.WIDTH - fill)
            left = (self.total - done) / rate if rate > 0 else float("inf")
            eta = _clock(left) + " left" if left != float("inf") else "--:-- left"
            return (
                f"{head}[{bar}] {frac * 100:3.0f}% {_si(done)}/{_si(self.total)} {self.unit} "
                f"{_si(rate)} {self.unit}/s {eta}"
            )
        return f"{head}{_si(done)} {self.unit} {_si(rate)} {self.unit}/s {_clock(elapsed)}"

    def update(self, done: int, total: int | None = None) -> None:
        """Record progress and redraw if the last redraw is old enough."""
        if total is not None:
            self.total = max(int(total), 0)
        self.done = done
        now = time.monotonic()
        if now - self._last < self.min_interval and done < self.total:
            return
        self._last = now
        self._draw(self.render(done, now))

    __call__ = update

    def _draw(self, text: str) -> None:
        pad = max(self._drawn - len(text), 0)
        try:
            self.stream.write("\r" + text + " " * pad)
            self.stream.flush()
        except (OSError, ValueError):  # closed or broken stream: progress is best effort
            return
        self._drawn = len(text)

    def close(self, clear: bool = False) -> None:
        """Draw the final state and end the line (or erase it with ``clear=True``)."""
        if self._drawn == 0 and clear:
            return
        try:
            if clear:
                self.stream.write("\r" + " " * self._drawn + "\r")
            else:
                self._draw(self.render(self.done))
                self.stream.write("\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass


def make_progress(
    progress: ProgressArg, total: int, unit: str, desc: str = ""
) -> tuple[ProgressCallback | None, ProgressBar | None]:
    """Turn a ``progress=`` argument into a callback (and the bar to close, if one was made).

    Parameters
    ----------
    progress
        ``None``/``False``: no progress; ``True``: a :class:`ProgressBar` on standard error;
        a callable: called as ``progress(done, total)``.
    total
        Amount of work.
    unit
        Unit name for the bar.
    desc
        Text in front of the bar.

    Returns
    -------
    tuple
        ``(callback or None, bar or None)``.
    """
    if progress is None or progress is False:
        return None, None
    if progress is True:
        bar = ProgressBar(total, unit, desc)
        return bar.update, bar
    if callable(progress):
        return progress, None
    from .errors import InvalidOptionError

    raise InvalidOptionError(
        f"progress={progress!r}: expected None, True/False or a callable progress(done, total)"
    )
