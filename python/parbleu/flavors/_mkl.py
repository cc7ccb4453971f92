"""Intel MKL's float32 ``log`` and ``exp``, as torch's CPU build calls them, through ctypes.

torch computes float32 ``torch.log``/``torch.exp`` on CPU with MKL's vector math:
``vmsLn``/``vmsExp`` with ``VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE``
(``aten/src/ATen/cpu/vml.h``). Those are not correctly rounded, so the ``torchmetrics`` flavor
calls the same functions from the ``mkl`` wheel (``pip install parbleu[torchmetrics-exact]``)
when it is installed. Loaded lazily, on the first float32 score computed without torch; never
at ``import parbleu``.

The ILP64 entry points (``vmsLn_64``/``vmsExp_64``) are used, so the result does not depend on
``MKL_INTERFACE_LAYER``. Their results do not depend on the array length (torch passes whole
tensors, parbleu one value at a time).

The bits depend on the CPU, through MKL's dispatch, exactly as torch's do: the extra pins the
wheel to torch's MKL (2024.2), so the flavor gives what torch gives on the user's CPU. On an
AVX-512-FP16 CPU (measured 2026-12, torch 2.15) live torch and the 2024.2 wheel agree on 4
million values, both differ from the goldens' CPU on about 5% of them, and an unpinned 2026.2
wheel differs from torch on about 2%. ``MKL_CBWR=COMPATIBLE`` gives the goldens' bits in both
torch and the wheel; CI's golden step sets it, and ``tests/integrations/test_mkl_matches_torch``
checks the default dispatch against live torch.
"""

from __future__ import annotations

import ctypes
import os
import re
from typing import Any

import numpy as np

__all__ = ["MklVml", "load"]

# mkl_vml_defines.h
VML_HA = 0x00000002
VML_FTZDAZ_OFF = 0x00140000
VML_ERRMODE_IGNORE = 0x00000100
#: The mode torch passes (``aten/src/ATen/cpu/vml.h``).
TORCH_MODE = VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE

_LIB_RE = re.compile(r"^(lib)?mkl_rt(\.\d+)?\.(so(\.\d+)*|dylib|dll)$")


class MklVml:
    """``vmsLn``/``vmsExp`` of one loaded ``libmkl_rt``, one float32 at a time."""

    def __init__(self, lib: Any, path: str) -> None:
        self.path = path
        fp = ctypes.POINTER(ctypes.c_float)
        args = [ctypes.c_int64, fp, fp, ctypes.c_int64]
        self._ln = lib.vmsLn_64
        self._exp = lib.vmsExp_64
        for fn in (self._ln, self._exp):
            fn.restype = None
            fn.argtypes = args

    def _call(self, fn: Any, x: np.float32) -> np.float32:
        a = ctypes.c_float(float(x))
        r = ctypes.c_float()
        fn(1, ctypes.byref(a), ctypes.byref(r), TORCH_MODE)
        return np.float32(r.value)

    def log32(self, x: np.float32) -> np.float32:
        """``torch.log`` of a float32 on CPU."""
        return self._call(self._ln, x)

    def exp32(self, x: np.float32) -> np.float32:
        """``torch.exp`` of a float32 on CPU."""
        return self._call(self._exp, x)


def _candidates() -> list[str]:
    """``libmkl_rt`` files of the installed ``mkl`` distribution (the PyPI wheel)."""
    from importlib import metadata

    try:
        dist = metadata.distribution("mkl")
    except metadata.PackageNotFoundError:
        return []
    out = []
    for f in dist.files or []:
        if _LIB_RE.match(f.name):
            out.append(os.path.normpath(str(dist.locate_file(f))))
    # The versioned names first (libmkl_rt.so.2 before a libmkl_rt.so link).
    return sorted(out, key=lambda p: (os.path.basename(p).count("."), p), reverse=True)


_LOADED: list[MklVml | None] = []


def load() -> MklVml | None:
    """MKL's vector math from the ``mkl`` wheel, loaded once; None if it is not installed.

    Set ``PARBLEU_NO_MKL=1`` to never load it (the ``torchmetrics`` flavor then falls back to
    correctly rounded ``log``/``exp``).
    """
    if not _LOADED:
        vml = None
        if not os.environ.get("PARBLEU_NO_MKL"):
            for path in _candidates():
                try:
                    vml = MklVml(ctypes.CDLL(path), path)
                except (OSError, AttributeError):  # pragma: no cover - a broken install
                    continue
                break
        _LOADED.append(vml)
    return _LOADED[0]
