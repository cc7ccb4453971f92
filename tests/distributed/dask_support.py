"""What the distributed tests share: the dask extra is required in its CI step only."""

from __future__ import annotations

import os

import pytest


def require_dask() -> None:
    """Skip without the dask extra, except in the CI step that installs it (then fail).

    The README test command (the first CI step) runs without the extra, so ``CI`` alone
    cannot mean "installed" here; ``.ci/run`` sets ``PARBLEU_REQUIRE_DASK`` in its dask step.
    """
    if os.environ.get("PARBLEU_REQUIRE_DASK"):
        import pandas  # noqa: F401
        import pyarrow  # noqa: F401

        import distributed  # noqa: F401
    else:
        pytest.importorskip("distributed")
        pytest.importorskip("pyarrow")
        pytest.importorskip("pandas")
