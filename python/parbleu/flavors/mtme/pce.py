"""MTME's ``pce``: pairwise permutation p-values between systems and 1 - PCE (Thompson 2024)."""

from __future__ import annotations

import numpy as np


def compute_pairwise_p_values(
    seg_scores: np.ndarray, num_permutations: int = 1000, seed: int = 4
) -> np.ndarray:
    """p-values of "system i beats system j" by a paired permutation test (upper triangle).

    Parameters
    ----------
    seg_scores : numpy.ndarray
        Segment scores, systems × segments.
    num_permutations : int
        Number of sign-flip draws (one set shared by every pair).
    seed : int
        Seed of ``numpy.random.default_rng``: MTME's draws.

    Returns
    -------
    numpy.ndarray
        systems × systems, NaN outside the upper triangle.
    """
    num_systems, num_segments = seg_scores.shape
    rng = np.random.default_rng(seed)
    signs = rng.random(size=(num_permutations, num_segments), dtype=np.float32)
    np.rint(signs, out=signs, casting="same_kind")
    signs *= 2.0
    signs -= 1.0
    seg = seg_scores.astype(np.float32)
    sys_scores = np.sum(seg, axis=1)
    partial = np.matmul(signs, seg.T)
    p_vals = np.full((num_systems, num_systems), np.nan)
    for i in range(num_systems):
        for j in range(i + 1, num_systems):
            null = partial[:, i] - partial[:, j]
            p_vals[i, j] = np.sum(null >= sys_scores[i] - sys_scores[j]) / num_permutations
    return p_vals


def compute_one_minus_pce(
    human_pairwise_p_vals: np.ndarray, metric_pairwise_p_vals: np.ndarray
) -> float:
    """1 - the mean absolute difference of the two p-value triangles."""
    n = human_pairwise_p_vals.shape[0]
    upper = np.triu_indices(n, 1)
    return float(1.0 - np.mean(np.abs(human_pairwise_p_vals - metric_pairwise_p_vals)[upper]))
