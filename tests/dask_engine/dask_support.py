"""What the distributed tests share: the dask extra is required in its CI step only."""

from __future__ import annotations

from helpers import require


def require_dask() -> None:
    """Skip without the dask extra, except in the CI step that installs it (then fail).

    ``.ci/run`` sets ``PARBLEU_REQUIRE=dask`` in its dask step (``helpers.require``).
    """
    for module in ("distributed", "pyarrow", "pandas"):
        require(module, "dask")
