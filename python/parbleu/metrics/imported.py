"""Imported segment scores (COMET, BLEURT, MetricX, ...) as a metric.

The corpus score of a system is the mean of its segment scores; statistics rows are
``[score, 1.0]`` (float64), so resampling, ``compare`` and the clusters draw the same segment
indices for imported scores as for BLEU, chrF and TER, and finalize each resample in the core
(``_core.Scorer.mean``). References are not used. Which system a hypothesis list is follows
from the texts given with the scores (``hypotheses=``), or from its length when that is
unambiguous; otherwise the metric refuses to guess.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .. import _core
from ..errors import InvalidOptionError
from ..score import Score
from ..signature import Signature
from .base import Metric
from .schema import Capabilities

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


class ImportedSignature(Signature):
    """``name|direction|info|files|version``: provenance of imported scores.

    References are not used, so there is no ``nrefs`` field. User text (the name, ``info``,
    file names) is percent-encoded where it holds ``%``, ``|``, ``:`` or a line break, so that
    the signature stays ``key:value`` fields that SacreBLEU's JSON output splits on ``|`` and
    ``:`` (``Unbabel/wmt22-comet-da`` stays as it is; ``https://x`` becomes ``https%3A//x``).
    """

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self.info["nrefs"] = None  # references are not used
        self._abbr.update({"name": "n", "direction": "d", "info": "i", "files": "f"})
        self.info.update(
            {
                "name": signature_text(args["name"]),
                "direction": "higher" if args["higher_is_better"] else "lower",
                "info": signature_text(args["info"]) if args["info"] else None,
                "files": signature_text(",".join(args["files"])) if args["files"] else None,
            }
        )


_SIG_ESCAPES = {"%": "%25", "|": "%7C", ":": "%3A", "\n": "%0A", "\r": "%0D"}


def signature_text(text: str) -> str:
    """Return user text as one signature value: ``%``, ``|``, ``:``, line breaks percent-encoded.

    >>> signature_text("comet:22|xl")
    'comet%3A22%7Cxl'
    """
    return "".join(_SIG_ESCAPES.get(c, c) for c in str(text))


def score_value(raw: Any, where: str) -> float:
    """Return one imported score as a finite float, or raise one error naming ``where``.

    ``None``, a bool, an empty string and the string ``None`` are a missing score (never
    skipped); anything ``float()`` refuses is not a number; NaN and infinities are refused.
    Used by :class:`ImportedScores` and by every reader of score files.
    """
    if (
        isinstance(raw, bool)
        or raw is None
        or (isinstance(raw, str) and raw.strip() in ("", "None"))
    ):
        raise InvalidOptionError(f"{where}: missing score ({raw!r})")
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise InvalidOptionError(f"{where}: {raw!r} is not a number") from None
    if not math.isfinite(value):
        raise InvalidOptionError(f"{where}: {raw!r} is not a finite number")
    return value


class ImportedScore(Score):
    """The mean of imported scores: its interval shows whatever the sign of the mean.

    SacreBLEU shows an interval only for a mean above 0 (a BLEU of 0 has none); imported
    scores may be negative (COMET-QE, negated error counts), so the test is whether an
    interval was estimated.
    """

    def _shows_interval(self) -> bool:
        return self._ci >= 0


class _NoRefs:
    """The prepared references of imported scores: only their number of segments."""

    def __init__(self, n: int) -> None:
        self._n = n

    def __len__(self) -> int:
        return self._n

    def first_segment_without_refs(self) -> None:
        return None  # references are not used

    def ref_counts(self) -> list[int]:
        return [0]


class ImportedScores(Metric[Score]):
    """Segment scores computed elsewhere, used as a metric (mean aggregation).

    Parameters
    ----------
    name : str
        Metric name (column title, e.g. ``COMET-22``).
    scores : sequence of float, or mapping of system name to sequence of float
        Segment scores of one system or of several.
    higher_is_better : bool
        Direction; required (MetricX, TER-like and error counts are lower-is-better).
    info : str
        Provenance for the signature (model, version, command).
    hypotheses : mapping of system name to list of str, optional
        Each system's hypothesis texts, to tell systems apart when scoring.
    files : sequence of str
        The score files, named (base names) in the signature.

    Notes
    -----
    Not a registry entry, on purpose: a registered metric is one name that ``-m NAME`` builds
    from command-line options and references, while each ImportedScores is its own metric
    (its name, direction, provenance and numbers come with the instance, from ``--scores``).
    Registered, it would be an ``-m imported`` choice that can only fail, and a registered
    metric named ``imported`` would lend it its capabilities. So it declares its
    capabilities and title itself (:meth:`entry` is ``None``); every surface reads them
    through ``capabilities``/``require`` as for registered metrics, with no special case.
    """

    _SIGNATURE_TYPE = ImportedSignature
    metric_name = "imported"
    #: Declared on the class (see Notes). Rows are float segment scores plus a count,
    #: resampled by the core's mean scorer; ``sentence_scores`` of a whole system are its
    #: imported scores (one segment alone cannot be told to belong to a system: its
    #: ``sentence_score`` needs a system with one segment); rows do not stream or merge
    #: (the scores are held in memory, keyed by system).
    unregistered_capabilities: ClassVar[Capabilities] = Capabilities(
        resample=True, rows="float", sentence_scores=True, streaming=False, merge=False
    )
    #: Any scale (COMET near 0-1, MetricX 0-25): the report draws the range of the data.
    percent_scale: ClassVar[bool] = False
    #: Scores are any finite numbers: rows may be negative (not counts).
    signed_rows: ClassVar[bool] = True
    _ROW_DTYPE = "<f8"

    def __init__(
        self,
        name: str,
        scores: Sequence[float] | Mapping[str, Sequence[float]],
        higher_is_better: bool | None = None,
        info: str = "",
        hypotheses: Mapping[str, Sequence[str]] | None = None,
        files: Sequence[str] = (),
    ) -> None:
        super().__init__()
        if not name:
            raise InvalidOptionError("ImportedScores: name must not be empty")
        if higher_is_better is None:
            raise InvalidOptionError(
                f"ImportedScores {name!r}: higher_is_better must be given (the direction of "
                "imported scores cannot be known)"
            )
        systems = scores if isinstance(scores, Mapping) else {"": scores}
        self.name = name
        self.higher_is_better = bool(higher_is_better)  # type: ignore[misc]
        self.info = info
        self.files = [Path(f).name for f in files]
        self.num_refs = 0
        self.scores: OrderedDict[str, list[float]] = OrderedDict()
        for system, values in systems.items():
            vals = list(values)
            if not vals:
                raise InvalidOptionError(
                    f"ImportedScores {name!r}: system {system!r} has no scores"
                )
            self.scores[str(system)] = [
                score_value(v, f"ImportedScores {name!r}: system {system!r} segment {i}")
                for i, v in enumerate(vals)
            ]
        self._by_text: dict[tuple[str, ...], str] = {}
        for system, hyps in (hypotheses or {}).items():
            if system not in self.scores:
                raise InvalidOptionError(
                    f"ImportedScores {name!r}: no scores for system {system!r}"
                )
            if len(hyps) != len(self.scores[system]):
                raise InvalidOptionError(
                    f"ImportedScores {name!r}: system {system!r} has {len(self.scores[system])} "
                    f"scores for {len(hyps)} hypotheses"
                )
            key = tuple(hyps)
            other = self._by_text.get(key)
            if other is not None and self.scores[other] != self.scores[system]:
                # Identical outputs with different scores: which one is meant is unknowable.
                raise InvalidOptionError(
                    f"ImportedScores {name!r}: systems {other!r} and {system!r} have the same "
                    "hypotheses but different scores; their rows cannot be told apart"
                )
            self._by_text[key] = system

    # --- what it is (not a registry entry: see the class notes) -----------------------------
    def entry(self) -> None:
        """Return ``None``: imported scores are not a registry entry (see the class notes)."""
        return None

    @property
    def title(self) -> str:
        """The name given (``COMET-22``)."""
        return self.name

    # --- which system -----------------------------------------------------------------------
    def system_for(self, hyps: Sequence[str]) -> str:
        """Return the system whose scores belong to these hypotheses.

        Raises
        ------
        InvalidOptionError
            No system, or more than one, fits.
        """
        found = self._by_text.get(tuple(hyps))
        if found is not None:
            return found
        fits = [s for s, v in self.scores.items() if len(v) == len(hyps)]
        if len(fits) == 1 and (not self._by_text or len(self.scores) == 1):
            return fits[0]
        if not fits:
            counts = ", ".join(f"{s or 'scores'}: {len(v)}" for s, v in self.scores.items())
            raise InvalidOptionError(
                f"{self.name}: {len(hyps)} hypotheses, but the imported scores have {counts}"
            )
        raise InvalidOptionError(
            f"{self.name}: cannot tell which system's imported scores belong to these "
            "hypotheses (give hypotheses= with the scores)"
        )

    def system_scores(self) -> dict[str, float]:
        """Return each system's mean segment score."""
        return {s: _in_order(v) / len(v) for s, v in self.scores.items()}

    def oriented(self) -> OrderedDict[str, list[float]]:
        """Return the scores with higher meaning better (negated when lower is better)."""
        sign = 1.0 if self.higher_is_better else -1.0
        return OrderedDict((s, [sign * x for x in v]) for s, v in self.scores.items())

    def signature(self) -> str:
        """``name|imported|direction|info``: provenance for tables and JSON."""
        direction = "higher" if self.higher_is_better else "lower"
        return f"{self.name}|imported|{direction}-is-better|{self.info or 'unknown source'}"

    # --- the Metric API ---------------------------------------------------------------------
    @property
    def stats_width(self) -> int:
        """Score and count."""
        return 2

    def stats_key(self) -> tuple[Any, ...]:
        """Rows merge only with rows of the same imported scores."""
        return ("imported", self.name, self.info, self.higher_is_better)

    def core_scorer(self) -> Any:
        """Return the core's mean scorer over ``[score, 1.0]`` rows."""
        return _core.Scorer.mean(2, 0, 1.0)

    def _prepare_refs(self, streams: list[list[Any]], workers: int) -> Any:
        return _NoRefs(len(streams[0]) if streams else 0)

    def _refs_for(
        self, references: Sequence[Sequence[str | None]] | None, n_hyps: int, workers: int
    ) -> Any:
        # Imported scores do not depend on the references: none are needed.
        return _NoRefs(n_hyps)

    def _extract_raw(self, prepared: Any, hyps: list[str], workers: int) -> bytes:
        import numpy as np

        vals = self.scores[self.system_for(hyps)]
        rows = np.column_stack([np.asarray(vals, dtype=np.float64), np.ones(len(vals))])
        return np.ascontiguousarray(rows, dtype="<f8").tobytes()

    def _sum_raw(self, data: bytes, n_rows: int) -> list[Any]:
        import numpy as np

        return self._sum_rows(np.frombuffer(data, dtype="<f8").reshape(n_rows, 2))

    def _sum_rows(self, rows: npt.NDArray[Any]) -> list[Any]:
        # In segment order, as the core's mean scorer adds resampled rows.
        return [_in_order(rows[:, 0].tolist()), float(rows[:, 1].sum())]

    def _score_row(self, row: Sequence[Any]) -> Score:
        count = float(row[1])
        return ImportedScore(self.name, float(row[0]) / count if count else 0.0)

    def _score_rows(self, rows: npt.NDArray[Any], workers: int) -> npt.NDArray[np.float64]:
        import numpy as np

        arr = np.asarray(rows, dtype=np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            out: npt.NDArray[np.float64] = np.where(arr[:, 1] > 0, arr[:, 0] / arr[:, 1], 0.0)
        return out


def _in_order(values: Sequence[float]) -> float:
    """Add ``values`` one after another, as the core adds rows.

    Not ``sum()``: since Python 3.12 it compensates rounding, so its last bits would differ from
    the core's and from those on Python 3.11 (a report's column and ``system_scores()`` disagreed
    in the last bit on Python 3.13).
    """
    total = 0.0
    for v in values:
        total += v
    return total
