"""The checks of a report's inputs and options: one clear message naming the argument."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import InputTypeError, InvalidOptionError, LengthMismatchError
from ..significance import check_systems
from ._options import Options


def check_edges(name: str, edges: Sequence[int], low: int | None = 1) -> tuple[int, ...]:
    """Return bucket edges as a tuple: increasing integers, none below ``low`` (if given)."""
    out = tuple(edges)
    if (
        not out
        or any(isinstance(e, bool) or not isinstance(e, int) for e in out)
        or (low is not None and any(e < low for e in out))
        or any(b <= a for a, b in zip(out, out[1:]))
    ):
        at_least = f" >= {low}" if low is not None else ""
        raise InvalidOptionError(f"{name}={edges!r}: expected increasing integers{at_least}")
    return out


def check_max_order(max_order: int) -> None:
    """Refuse a longest n-gram outside 1-8."""
    if isinstance(max_order, bool) or not isinstance(max_order, int) or not (1 <= max_order <= 8):
        raise InvalidOptionError(f"max_order={max_order!r}: expected an integer 1-8")


def check_inputs(
    references: Sequence[Sequence[str | None]], systems: Mapping[str, Sequence[str]]
) -> tuple[list[list[str | None]], dict[str, list[str]]]:
    """Validate and copy the inputs: reference streams and ``{name: hypotheses}``."""
    check_systems(systems, "list of hypothesis strings")
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence):
        raise InputTypeError(
            f"references: got a {type(references).__name__}; expected a list of reference "
            "streams (lists of strings)"
        )
    streams = [list(s) for s in references]
    if not streams or any(isinstance(s, (str, bytes)) for s in references):
        raise InputTypeError("references: expected a non-empty list of reference streams")
    n = len(streams[0])
    out: dict[str, list[str]] = {}
    for name, hyps in systems.items():
        if not isinstance(name, str):
            raise InputTypeError(f"systems: the name {name!r} is not a string")
        if isinstance(hyps, (str, bytes)):
            raise InputTypeError(f"systems[{name!r}]: a single string; expected a list of lines")
        lines = list(hyps)
        if len(lines) != n:
            raise LengthMismatchError(
                f"systems[{name!r}]: {len(lines)} hypotheses but the references have {n} "
                "segments; nothing is truncated"
            )
        out[name] = lines
    if n == 0:
        raise InvalidOptionError("references: no segments; there is nothing to report")
    for k, s in enumerate(streams[1:], 2):
        if len(s) != n:
            raise LengthMismatchError(
                f"references: stream {k} has {len(s)} segments but stream 1 has {n}"
            )
    return streams, out


def check_source(src: Sequence[str] | None, n_segments: int) -> list[str] | None:
    """Validate the source sentences shown with the examples (one per segment)."""
    if src is None:
        return None
    if isinstance(src, (str, bytes)) or not isinstance(src, Sequence):
        raise InputTypeError(
            f"src: got a {type(src).__name__}; expected a list of source sentences, one per segment"
        )
    lines = list(src)
    if len(lines) != n_segments:
        raise LengthMismatchError(
            f"src: {len(lines)} source sentences but the references have {n_segments} "
            "segments; nothing is truncated"
        )
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise InputTypeError(
                f"src[{i}]: got a {type(line).__name__}; expected a string (line {i + 1})"
            )
    return lines


def check_test_options(opts: Options) -> None:
    """Refuse a bad test, count, seed, alpha or confidence with the significance API's words."""
    from ..significance import check_confidence, check_n, check_seed

    if opts.test not in ("bootstrap", "ar"):
        raise InvalidOptionError(f"test={opts.test!r}: expected 'bootstrap' or 'ar'")
    if opts.n is not None:
        check_n(opts.n)
    check_seed(opts.seed)
    check_confidence(opts.confidence)
    if (
        isinstance(opts.alpha, bool)
        or not isinstance(opts.alpha, (int, float))
        or not 0 < opts.alpha < 1
    ):
        raise InvalidOptionError(f"alpha={opts.alpha!r}: expected a number in (0, 1)")
