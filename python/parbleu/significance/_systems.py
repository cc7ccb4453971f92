"""Statistics of the systems a test compares: hypotheses or matrices, references prepared once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from .._resampling import _as_rows
from ..errors import InputTypeError, InvalidOptionError, LengthMismatchError

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..metrics.base import Metric


Test = Literal["bootstrap", "ar"]


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

    if isinstance(systems, (str, bytes)) or not isinstance(systems, Mapping):
        raise InputTypeError(
            f"systems: got a {type(systems).__name__}; expected a mapping "
            "{system name: hypotheses (list of str) or statistics matrix}"
        )
    if not systems:
        raise InvalidOptionError("systems: empty; expected at least one system")
    names = [str(k) for k in systems]
    scorer = metric.core_scorer()
    prepared: Any = None
    out: list[npt.NDArray[Any]] = []
    n_first: int | None = None
    for name, value in systems.items():
        if isinstance(value, np.ndarray) and value.dtype.kind in "iuf":
            rows = _as_rows(scorer, value, f"systems[{name!r}]")
        else:
            hyps = metric.check_hypotheses(value)
            if references is None:
                rows = metric.extract_stats(hyps, None, workers=workers)
            else:
                if prepared is None:
                    prepared = metric.prepare(references, len(hyps), workers=workers)
                if len(hyps) != len(prepared):
                    raise LengthMismatchError(
                        f"systems[{name!r}]: {len(hyps)} hypotheses but the references have "
                        f"{len(prepared)} segments; nothing is truncated"
                    )
                try:
                    rows = metric.extract_prepared(prepared, hyps, workers)
                except TypeError:
                    from .._inputs import check_items

                    check_items(hyps, f"systems[{name!r}]")
                    raise
            rows = _as_rows(scorer, rows, f"systems[{name!r}]")
        if n_first is None:
            n_first = len(rows)
        elif len(rows) != n_first:
            raise LengthMismatchError(
                f"systems[{name!r}]: {len(rows)} segments but systems[{names[0]!r}] has "
                f"{n_first}; paired tests need the same segments"
            )
        out.append(rows)
    return names, out


def _rows(
    metric: Metric[Any], hyps: Any, references: References, workers: int | None
) -> npt.NDArray[Any]:
    _, rows = _system_rows(metric, {"system": hyps}, references, workers)
    return rows[0]
