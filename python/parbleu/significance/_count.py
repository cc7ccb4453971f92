"""How many resamples an all-pairs comparison needs, and how many segments the bootstrap needs.

A resampling p-value is at least ``1 / (n + 1)`` and Holm multiplies the smallest of ``m``
p-values by ``m``: with ``n`` resamples no pair can be significant once ``m / (n + 1) > alpha``
(1,000 resamples: beyond 50 pairs, 11 systems). The default count of :func:`compare_all` (and
of ``parbleu report``) is therefore the usual one (1,000 resamples, 10,000 AR trials) or, with
more pairs, the smallest ``n`` with ``m / (n + 1) <= alpha / FLOOR_FACTOR``. With that floor
every pair none of whose resamples crosses zero is significant, and a pair whose exact p-value
is half of Holm's first threshold (``alpha / (2 m)``) is found with probability about 0.9
despite the resampling noise (Poisson(2.5) <= 4); a factor of 10 would make it 0.97 at twice
the time (16 systems x 1,000 segments: about 4 s instead of 2.3 s on two cores).
"""

from __future__ import annotations

import math

#: The smallest reachable Holm-adjusted p-value of the default count is ``alpha / FLOOR_FACTOR``.
FLOOR_FACTOR = 5

#: The usual counts, kept while the number of pairs asks for no more.
DEFAULT_N = {"bootstrap": 1000, "ar": 10000}


def needed_resamples(pairs: int, alpha: float) -> int:
    """Return the smallest ``n`` with ``pairs / (n + 1) <= alpha / FLOOR_FACTOR``."""
    n = math.ceil(FLOOR_FACTOR * pairs / alpha) - 1
    # The float quotient's ceiling may land one off the exact bound: step to it.
    while n > 0 and pairs * FLOOR_FACTOR <= alpha * n:
        n -= 1
    while pairs * FLOOR_FACTOR > alpha * (n + 1):
        n += 1
    return max(n, 0)


def default_resamples(test: str, pairs: int, alpha: float) -> int:
    """Return the default count: the usual one, or more for many pairs (before any cap)."""
    return max(DEFAULT_N[test], needed_resamples(pairs, alpha))


#: Fewest segments for bootstrap p-values and intervals. Measured false-positive rate of the
#: two-sided paired bootstrap at alpha = 0.05 (two WMT21 en-de systems with their outputs
#: swapped at random per segment, so that neither is better; 1,000 draws of N segments, 999
#: resamples each; BLEU / chrF / TER): N = 10: 0.100 / 0.112 / 0.104; 20: 0.078 / 0.076 /
#: 0.077; 30: 0.074 / 0.067 / 0.082; 50: 0.058 / 0.064 / 0.069; 75: 0.053 / 0.055 / 0.054;
#: 100: 0.060 / 0.049 / 0.055 (standard error about 0.007). From 50 segments the rate stays
#: within 1.4 times alpha; below it climbs towards twice alpha (and to 0.8 at one segment).
MIN_SEGMENTS = 50
