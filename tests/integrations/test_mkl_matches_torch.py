"""The ``mkl`` wheel's float32 log/exp (``parbleu.flavors._mkl``) give live torch's bits on
this CPU, with MKL's default dispatch (no ``MKL_CBWR``).

The torchmetrics goldens were made on a CPU whose default dispatch equals MKL's compatible
path; on an AVX-512-FP16 CPU torch 2.x (MKL 2024.2, linked in) gives other bits, and so does
the pinned wheel: the flavor follows torch on the user's CPU, which is what this checks. An
unpinned wheel (MKL 2026.2) differs from torch there on about 2% of values (measured).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from helpers import is_required, require
from parbleu.flavors import _mkl


def test_mkl_wheel_gives_torchs_bits() -> None:
    require("torch", "torch")
    import torch

    if os.environ.get("MKL_CBWR"):
        pytest.skip("MKL_CBWR is set: this test checks MKL's default dispatch")
    vml = _mkl.load()
    if vml is None:
        if is_required("torchmetrics-exact", "mkl"):
            pytest.fail("PARBLEU_REQUIRE names mkl but the mkl wheel did not load")
        pytest.skip("the mkl wheel is not installed (pip install -e '.[torchmetrics-exact]')")
    rng = np.random.default_rng(7)
    # BLEU's precisions and their weighted log sums live in these ranges.
    xs = rng.uniform(1e-6, 1.0, 20_000).astype(np.float32)
    es = rng.uniform(-30.0, 0.5, 20_000).astype(np.float32)
    t_log = torch.log(torch.from_numpy(xs)).numpy()
    t_exp = torch.exp(torch.from_numpy(es)).numpy()
    ours_log = np.array([vml.log32(x) for x in xs], dtype=np.float32)
    ours_exp = np.array([vml.exp32(x) for x in es], dtype=np.float32)
    bad_log = np.flatnonzero(t_log.view(np.uint32) != ours_log.view(np.uint32))
    bad_exp = np.flatnonzero(t_exp.view(np.uint32) != ours_exp.view(np.uint32))
    assert bad_log.size == 0, f"log differs on {bad_log.size} values, first x={xs[bad_log[0]]!r}"
    assert bad_exp.size == 0, f"exp differs on {bad_exp.size} values, first x={es[bad_exp[0]]!r}"
