"""Bad input to the MTME drop-in: the original's exception type, one message naming it."""

from __future__ import annotations

import pytest

from parbleu.errors import FlavorError
from parbleu.flavors.mtme import stats

G = [1.0, 2.0, 3.0, 4.0]


@pytest.mark.parametrize(
    ("num_sys", "metric", "original", "match"),
    [
        (0, G, ZeroDivisionError, "num_sys=0: expected >= 1"),
        (-1, G, ZeroDivisionError, "num_sys=-1"),
        (1.5, G, TypeError, "num_sys=1.5: expected an integer"),
        (True, G, TypeError, "num_sys=True"),
        (3, G, AssertionError, "4 gold and 4 metric scores; .* num_sys=3"),
        (2**63, G, AssertionError, "multiple of num_sys"),
        (2, G[:3], AssertionError, "4 gold and 3 metric scores"),
    ],
)
def test_correlation_layout_is_checked(
    num_sys: object, metric: list[float], original: type[BaseException], match: str
) -> None:
    with pytest.raises(FlavorError, match=match) as info:
        stats.Correlation(num_sys, G, metric)  # type: ignore[arg-type]
    assert isinstance(info.value, original)
