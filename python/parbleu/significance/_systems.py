"""Statistics of the systems a test compares: hypotheses or matrices, references prepared once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from .._resampling import as_stats_rows
from .._text import plural
from ..errors import InputTypeError, InvalidOptionError, LengthMismatchError

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..metrics.base import Metric


Test = Literal["bootstrap", "ar"]


def check_systems(systems: object, values: str) -> None:
    """Raise unless ``systems`` is a non-empty mapping ``{system name: values}``.

    Parameters
    ----------
    systems
        What the user passed as ``systems``.
    values
        What each value should be, for the message.
    """
    if isinstance(systems, (str, bytes)) or not isinstance(systems, Mapping):
        raise InputTypeError(
            f"systems: got a {type(systems).__name__}; expected a mapping {{system name: {values}}}"
        )
    if not systems:
        raise InvalidOptionError("systems: empty; expected at least one system")


Systems = Mapping[str, Union[Sequence[str], "npt.NDArray[Any]"]]


References = Optional[Sequence[Sequence[Optional[str]]]]


def _system_rows(
    metric: Metric[Any],
    systems: Systems,
    references: References,
    workers: int | None,
) -> tuple[list[str], list[npt.NDArray[Any]]]:
    """Names and statistics of every system; references are prepared once for all."""
    import numpy as np

    check_systems(systems, "hypotheses (list of str) or statistics matrix")
    names = [str(k) for k in systems]
    metric.require("resample", "parbleu.significance")
    scorer = metric.core_scorer()
    # Hypotheses are scored in one call for all systems (chrF probes each segment's
    # references with every system while they are in the cache); matrices are used as given.
    texts: dict[str, list[str]] = {}
    for name, value in systems.items():
        if not (isinstance(value, np.ndarray) and value.dtype.kind in "iuf"):
            texts[name] = metric.check_hypotheses(value)
    text_rows: dict[str, npt.NDArray[Any]] = {}
    if texts:
        text_rows = _text_rows(metric, texts, references, workers)
    out: list[npt.NDArray[Any]] = []
    n_first: int | None = None
    for name, value in systems.items():
        rows = as_stats_rows(
            scorer, text_rows.get(name, value), f"systems[{name!r}]", metric.signed_rows
        )
        if n_first is None:
            n_first = len(rows)
        elif len(rows) != n_first:
            raise LengthMismatchError(
                f"systems[{name!r}]: {len(rows)} segments but systems[{names[0]!r}] has "
                f"{n_first}; paired tests need the same segments"
            )
        out.append(rows)
    return names, out


def _text_rows(
    metric: Metric[Any],
    texts: dict[str, list[str]],
    references: References,
    workers: int | None,
) -> dict[str, npt.NDArray[Any]]:
    """Statistics of the systems given as hypotheses, in one multi-system call."""
    lengths = {len(h) for h in texts.values()}
    if references is None:
        if len(lengths) > 1:
            # Different lengths: let each system's own call name what the cache expects.
            return {n: metric.extract_stats(h, None, workers=workers) for n, h in texts.items()}
        return dict(zip(texts, metric.extract_stats_many(texts, None, workers=workers)))
    first = next(iter(texts.values()))
    prepared = metric.prepare(references, len(first), workers=workers)
    for name, hyps in texts.items():
        if len(hyps) != len(prepared):
            raise LengthMismatchError(
                f"systems[{name!r}]: {plural(len(hyps), 'hypothesis', 'hypotheses')} but the "
                "references have "
                f"{len(prepared)} segments; nothing is truncated"
            )
    # Prepared references are cached: extract_stats_many finds them again.
    return dict(zip(texts, metric.extract_stats_many(texts, references, workers=workers)))


def _rows(
    metric: Metric[Any], hyps: Any, references: References, workers: int | None
) -> npt.NDArray[Any]:
    _, rows = _system_rows(metric, {"system": hyps}, references, workers)
    return rows[0]


def other_systems(names: list[str], baseline: int) -> list[tuple[int, str]]:
    """``(index, name)`` of every system but the baseline (a paired test's), in order."""
    return [(i, name) for i, name in enumerate(names) if i != baseline]
