"""What a report computes (no heavy imports: ``import parbleu`` loads this module)."""

from __future__ import annotations

from dataclasses import dataclass

#: Reference-length buckets (tokens): below 10, 10-19, ..., 60 and more (compare-mt's).
LENGTH_EDGES = (10, 20, 30, 40, 50, 60)
#: Word-frequency buckets: 0, 1, 2, 3-4, 5-9, 10-99, 100-999, 1000 and more.
FREQ_EDGES = (1, 2, 3, 5, 10, 100, 1000)
#: Length-difference buckets (hypothesis minus reference tokens): compare-mt's cut-offs.
LENGTH_DIFF_EDGES = (-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 10, 20)


@dataclass(frozen=True)
class Options:
    """What a report computes (see :func:`parbleu.report.report` for each field)."""

    baseline: str | None = None
    test: str = "bootstrap"
    n: int | None = None
    seed: int = 12345
    alpha: float = 0.05
    confidence: float = 0.95
    max_order: int = 4
    length_edges: tuple[int, ...] = LENGTH_EDGES
    freq_edges: tuple[int, ...] = FREQ_EDGES
    length_diff_edges: tuple[int, ...] = LENGTH_DIFF_EDGES
    top_ngrams: int = 10
    top_segments: int = 5
    all_pairs_up_to: int = 8
    flavors: tuple[str, ...] | None = None
    flavor_systems: int | None = None
    explain: bool = False
    workers: int | None = None
    order: str = "score"
