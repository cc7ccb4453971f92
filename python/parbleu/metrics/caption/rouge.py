"""pycocoevalcap 1.2's ROUGE-L (``rouge/rouge.py``, β = 1.2), exactly.

Captions are split on single spaces (``str.split(" ")``, empty tokens kept, as the original);
each image scores the F-measure of the best LCS precision and the best LCS recall over its
references. The core computes the per-image scores; the mean is numpy's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ... import _core
from ...errors import flavor_error
from .checks import FLAVOR, captions, check_workers

__all__ = ["Rouge"]


class Rouge:
    """pycocoevalcap's ``Rouge``: ROUGE-L with ``beta = 1.2``.

    Parameters
    ----------
    workers
        Threads for the core (``-1``: all cores); the result does not depend on it.
    """

    def __init__(self, workers: int = -1) -> None:
        self.beta = 1.2
        self._workers = check_workers(workers)

    def calc_score(self, candidate: Sequence[str], refs: Sequence[str]) -> float:
        """One image's ROUGE-L: ``candidate`` is a one-caption list, ``refs`` its references."""
        if not isinstance(candidate, Sequence) or len(candidate) != 1:
            raise flavor_error(
                FLAVOR, "ROUGE_L: candidate must hold one caption (AssertionError)", AssertionError
            )
        if len(refs) < 1:
            raise flavor_error(
                FLAVOR, "ROUGE_L: refs must hold a caption (AssertionError)", AssertionError
            )
        _, hyps, rs = captions({0: list(refs)}, {0: list(candidate)}, "ROUGE_L")
        out: list[float] = _core.caption_rouge_scores(hyps, rs, self.beta**2, 1)
        return out[0]

    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
    ) -> tuple[np.float64, np.ndarray[Any, np.dtype[np.float64]]]:
        """ROUGE-L of ``res`` against ``gts``: ``(mean, per-image array)``."""
        _, hyps, refs = captions(gts, res, "ROUGE_L")
        score = _core.caption_rouge_scores(hyps, refs, self.beta**2, self._workers)
        return np.mean(np.array(score)), np.array(score)

    def method(self) -> str:
        """Return the metric's name."""
        return "Rouge"
