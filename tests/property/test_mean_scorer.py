"""`_core.Scorer.mean`: resampling of metrics whose corpus score is a mean of segment scores.

A segment's row is its score columns plus a count column of 1.0; a resample's score is
``scale * sum(column) / count``. Checked against numpy on the same resample indices: the mean
numpy computes (pairwise summation) to 1e-12, and bit for bit against the sum in drawn order,
which is the order the core adds rows in.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parbleu import _core
from parbleu.errors import InvalidOptionError


def _rows(scores: np.ndarray) -> np.ndarray:
    """Score columns plus the count column of 1.0, C-contiguous float64."""
    count = np.ones((scores.shape[0], 1))
    return np.ascontiguousarray(np.hstack([scores, count]), dtype=np.float64)


@settings(max_examples=60, deadline=None)
@given(
    n_seg=st.integers(1, 60),
    n_cols=st.integers(1, 3),
    n=st.integers(1, 12),
    scale=st.sampled_from([1.0, 100.0, 0.5]),
    seed=st.integers(0, 2**32 - 1),
    workers=st.integers(1, 3),
)
def test_bootstrap_of_mean_is_numpys_mean_on_the_same_indices(
    n_seg: int, n_cols: int, n: int, scale: float, seed: int, workers: int
) -> None:
    rng = np.random.default_rng(seed)
    scores = rng.random((n_seg, n_cols)) * rng.choice([1.0, 10.0, 1e-3])
    rows = _rows(scores)
    idxs = rng.integers(0, n_seg, size=(n, n_seg), dtype=np.int64)
    for column in range(n_cols):
        scorer = _core.Scorer.mean(n_cols + 1, column, scale)
        assert scorer.float_rows and scorer.width == n_cols + 1
        got = np.frombuffer(
            _core.sig_bootstrap_indices(scorer, [rows], n_seg, idxs, workers), "<f8"
        )
        want = scale * scores[idxs, column].mean(axis=1)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
        sequential = []
        for idx in idxs:
            total = 0.0
            for i in idx:
                total += float(scores[i, column])
            sequential.append(scale * total / n_seg)
        assert got.tolist() == sequential


def test_identity_resample_and_seeded_bootstrap() -> None:
    scores = np.array([[0.25], [0.5], [1.0], [0.0]])
    rows = _rows(scores)
    scorer = _core.Scorer.mean(2, 0, 100.0)
    ident = np.arange(4, dtype=np.int64).reshape(1, -1)
    got = np.frombuffer(_core.sig_bootstrap_indices(scorer, [rows], 4, ident, 1), "<f8")
    assert got.tolist() == [100.0 * 1.75 / 4]
    one = _core.sig_bootstrap(scorer, [rows, rows[::-1].copy()], 4, 50, 7, 1)
    assert one == _core.sig_bootstrap(scorer, [rows, rows[::-1].copy()], 4, 50, 7, 3)
    values = np.frombuffer(one, "<f8")
    assert values.min() >= 0.0 and values.max() <= 100.0 and len(set(values)) > 1


@pytest.mark.parametrize(
    ("width", "column", "scale", "name"),
    [(1, 0, 1.0, "width"), (3, 2, 1.0, "column"), (3, 7, 1.0, "column"), (2, 0, np.nan, "scale")],
)
def test_bad_options_name_the_argument(width: int, column: int, scale: float, name: str) -> None:
    with pytest.raises(InvalidOptionError, match=name):
        _core.Scorer.mean(width, column, scale)
