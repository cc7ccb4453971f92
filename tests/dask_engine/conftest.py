"""One local Dask cluster (2 worker processes on 127.0.0.1) per test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from dask_support import require_dask


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    require_dask()
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    with cluster, Client(cluster) as c:
        yield c
