"""Pearson's p-value: scipy's bits where scipy is installed (MTME's own tests compare with ``==``).

Without scipy the continued fraction of ``flavors/mtme/_special.py`` gives it to about 1e-15
(the golden tests); with scipy, ``pearson_pvalue`` calls scipy's incomplete beta in
``scipy.stats.pearsonr``'s form, and must then equal ``pearsonr`` exactly.
"""

from __future__ import annotations

import importlib
import importlib.util

import numpy as np
import pytest

from parbleu.flavors.mtme import _special

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("scipy") is None,
    reason="scipy is not installed (MTME's dependency; pip install scipy)",
)


@pytest.mark.parametrize("n", [3, 4, 6, 15, 100, 1315])
def test_equals_scipy_pearsonr(n: int) -> None:
    stats = importlib.import_module("scipy.stats")

    rng = np.random.default_rng(n)
    for _ in range(50):
        x = rng.normal(size=n)
        y = x * rng.uniform(-1, 1) + rng.normal(size=n)
        r, p = stats.pearsonr(x, y)
        assert _special.pearson_pvalue(float(r), n) == float(p)
