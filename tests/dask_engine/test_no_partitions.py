"""A bag of no partitions is the empty-input error, not an IndexError.

``score_parquet`` and ``score_arrow`` always said "nothing to score" for an input without
partitions; ``score_bag`` reached into an empty reduction tree (``IndexError: list index out
of range``). Every corpus score now merges through ``partials.merged_partial``, which gives
the partial of no segments. (A Dask dataframe always has a partition.)
"""

from __future__ import annotations

from typing import Any

import pytest
from dask_support import require_dask

import parbleu

require_dask()

import dask.bag as db  # noqa: E402

from parbleu import distributed as dist  # noqa: E402


def test_bag_of_no_partitions(client: Any) -> None:
    bag = db.from_delayed([])
    assert bag.npartitions == 0
    with pytest.raises(parbleu.EmptyInputError, match="bag: no segments; there is nothing"):
        dist.score_bag(bag, scheduler=client)
