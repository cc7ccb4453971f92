"""One local Dask cluster (2 worker processes on 127.0.0.1) per test module."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest


def require_dask() -> None:
    """Skip without the dask extra, except in the CI step that installs it (then fail)."""
    if os.environ.get("PARBLEU_REQUIRE_DASK"):
        import distributed  # noqa: F401
        import pyarrow  # noqa: F401
    else:
        pytest.importorskip("distributed")
        pytest.importorskip("pyarrow")
        pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    require_dask()
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    with cluster, Client(cluster) as c:
        yield c
