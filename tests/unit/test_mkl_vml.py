"""parbleu.flavors._mkl: MKL's float32 log/exp through ctypes (optional ``mkl`` wheel)."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from helpers import is_required
from parbleu.flavors import _mkl


def _run(code: str, **env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def test_not_loaded_at_import() -> None:
    code = (
        "import sys, parbleu, parbleu.flavors, parbleu.flavors.torchmetrics\n"
        "print('parbleu.flavors._mkl' in sys.modules, "
        "any('mkl_rt' in l for l in open('/proc/self/maps')) if sys.platform == 'linux' "
        "else False)"
    )
    assert _run(code) == "False False"


def test_opt_out() -> None:
    assert _run("from parbleu.flavors import _mkl; print(_mkl.load())", PARBLEU_NO_MKL="1") == (
        "None"
    )


def test_values() -> None:
    vml = _mkl.load()
    if vml is None:
        if is_required("torchmetrics-exact", "mkl"):
            pytest.fail("PARBLEU_REQUIRE names torchmetrics-exact but the mkl wheel did not load")
        pytest.skip("the mkl wheel is not installed (pip install -e '.[torchmetrics-exact]')")
    assert vml.log32(np.float32(1.0)) == 0.0
    assert vml.log32(np.float32(0.0)) == -math.inf
    assert vml.exp32(np.float32(0.0)) == 1.0
    assert vml.exp32(np.float32(-math.inf)) == 0.0
    xs = np.linspace(0.01, 1.0, 1001, dtype=np.float32)
    for x in xs:
        ln = vml.log32(x)
        assert isinstance(ln, np.float32)
        # Within an ulp of the correctly rounded values.
        assert abs(float(ln) - math.log(float(x))) <= abs(float(np.spacing(ln)))
        ex = vml.exp32(np.float32(-x))
        assert abs(float(ex) - math.exp(-float(x))) <= float(np.spacing(ex))
    # Not correctly rounded (why parbleu calls MKL at all): vmsLn(HA) of these differs.
    n_diff = sum(vml.log32(x) != np.float32(math.log(float(x))) for x in xs)
    assert n_diff > 0
