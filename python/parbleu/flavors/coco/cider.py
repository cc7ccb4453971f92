"""pycocoevalcap 1.2's CIDEr-D (``cider/cider.py`` and ``cider_scorer.py``), exactly.

``Cider().compute_score(gts, res)`` returns ``(mean, per-image array)`` as the original: document
frequencies from the evaluated set's references, ``log(max(1, df))``, σ = 6, clipped tf-idf
vectors, the length penalty over *bigram* counts (the original's ``length``), ×10, the mean
over references. The core computes each image's per-order sums with the original's float
operations in its order; the logs and the final means are numpy's own, so the numbers are the
same bits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ... import _core
from ..._options import check_order
from ._input import captions

__all__ = ["Cider"]


class Cider:
    """pycocoevalcap's ``Cider``: CIDEr-D over ``{image_id: [caption]}`` dicts.

    Parameters
    ----------
    test, refs
        Ignored, as in the original.
    n
        Highest n-gram order (4).
    sigma
        Standard deviation of the length penalty (6.0).
    workers
        Threads for the core (``-1``: all cores); the result does not depend on it.
    """

    def __init__(
        self,
        test: Any = None,
        refs: Any = None,
        n: int = 4,
        sigma: float = 6.0,
        workers: int = -1,
    ) -> None:
        self._n = check_order("n", n)
        self._sigma = float(sigma)
        self._workers = workers

    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
    ) -> tuple[np.float64, np.ndarray[Any, np.dtype[np.float64]]]:
        """CIDEr-D of ``res`` (one caption per image) against ``gts``: ``(mean, per image)``."""
        _, hyps, refs = captions(gts, res, "CIDEr")
        count = len(hyps)
        # The original's logs, computed by numpy as it computes them (np.log of a float).
        ref_len = float(np.log(float(count)))
        log_df = [float(np.log(max(1.0, float(k)))) for k in range(count + 1)]
        sums = _core.caption_cider_sums(
            hyps, refs, self._n, self._sigma, ref_len, log_df, self._workers
        )
        per_order = np.asarray(sums, dtype=np.float64).reshape(count, self._n)
        scores = []
        for row, r in zip(per_order, refs):
            # score_avg = np.mean(score); /= len(refs); *= 10.0 - numpy's own operations.
            avg = np.mean(row)
            avg /= len(r)
            avg *= 10.0
            scores.append(avg)
        return np.mean(np.array(scores)), np.array(scores)

    def method(self) -> str:
        """Return the metric's name."""
        return "CIDEr"
