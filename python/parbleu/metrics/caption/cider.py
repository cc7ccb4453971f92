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
from ...errors import flavor_error
from .checks import FLAVOR, captions, check_sigma, check_workers

__all__ = ["Cider"]

#: The n-gram orders the original counts (``precook(s, n=4)``, never given ``n``).
_COOKED = 4


class Cider:
    """pycocoevalcap's ``Cider``: CIDEr-D over ``{image_id: [caption]}`` dicts.

    Parameters
    ----------
    test, refs
        Ignored, as in the original.
    n
        Number of orders averaged (4). The original counts 1- to 4-grams whatever ``n`` is
        (``precook``'s default), so orders above 4 add 0 to the mean, and a caption longer
        than ``n`` words fails with ``IndexError`` when ``n < 4``: both reproduced.
    sigma
        Standard deviation of the length penalty (6.0): a finite number > 0 (the original
        fails at 0 and treats a negative value as its absolute value).
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
        self._sigma = check_sigma(sigma)
        self._workers = check_workers(workers)

    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
    ) -> tuple[np.float64, np.ndarray[Any, np.dtype[np.float64]]]:
        """CIDEr-D of ``res`` (one caption per image) against ``gts``: ``(mean, per image)``."""
        _, hyps, refs = captions(gts, res, "CIDEr")
        if not any(r.strip() for rs in refs for r in rs):
            # No reference word: no document frequency at all (strip() and split() agree on
            # what whitespace is).
            raise flavor_error(
                FLAVOR,
                "CIDEr: every reference caption is empty, so there are no document frequencies "
                "(the original: ValueError: max() arg is an empty sequence)",
                ValueError,
            )
        # The original cooks 1..4-grams whatever n is: orders above 4 stay empty (zeros), and
        # below 4 an (n+1)-gram has no vector to go to.
        cooked = min(self._n, _COOKED)
        if self._n < _COOKED:
            longest = max(len(c.split()) for c in (*hyps, *(r for rs in refs for r in rs)))
            if longest > self._n:
                raise flavor_error(
                    FLAVOR,
                    f"CIDEr: n={self._n}, but the original counts n-grams up to 4 whatever n is, "
                    f"so a caption of {longest} words has no place for its {self._n + 1}-grams "
                    "(the original: IndexError: list index out of range)",
                    IndexError,
                )
        count = len(hyps)
        # The original's logs, computed by numpy as it computes them (np.log of a float).
        ref_len = float(np.log(float(count)))
        log_df = [float(np.log(max(1.0, float(k)))) for k in range(count + 1)]
        sums = _core.caption_cider_sums(
            hyps, refs, cooked, self._sigma, ref_len, log_df, self._workers
        )
        per_order = np.zeros((count, self._n), dtype=np.float64)
        per_order[:, :cooked] = np.asarray(sums, dtype=np.float64).reshape(count, cooked)
        # score_avg = np.mean(score); /= len(refs); *= 10.0 - numpy's own operations, on all
        # images at once: a mean along axis 1 is the same bits as np.mean of each row (tested
        # against the original in tests/flavors/test_coco_metrics.py).
        per_image = np.mean(per_order, axis=1)
        per_image /= np.array([len(r) for r in refs], dtype=np.float64)
        per_image *= 10.0
        return np.float64(np.mean(per_image)), per_image

    def method(self) -> str:
        """Return the metric's name."""
        return "CIDEr"
