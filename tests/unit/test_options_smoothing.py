"""BLEU's smoothing options are checked in one place, ``parbleu._options``, for every entry."""

from __future__ import annotations

from typing import Any

import pytest

from parbleu import BLEU
from parbleu._options import (
    MAX_SMOOTH_VALUE,
    SMOOTH_DEFAULTS,
    check_smooth_method,
    check_smooth_value,
)
from parbleu.errors import InvalidOptionError
from parbleu.metrics.options import SMOOTH_METHODS


def test_one_list_of_methods() -> None:
    assert BLEU.SMOOTH_DEFAULTS is SMOOTH_DEFAULTS
    assert SMOOTH_METHODS == ("none", "floor", "add-k", "exp")  # SacreBLEU's -s choices


@pytest.mark.parametrize("method", ["nope", None, 3, "EXP"])
def test_bad_methods_get_one_message_everywhere(method: Any) -> None:
    with pytest.raises(InvalidOptionError) as checked:
        check_smooth_method(method)
    assert str(checked.value).startswith(f"smooth_method={method!r}: expected one of 'none'")
    for entry in (
        lambda: BLEU(smooth_method=method),
        lambda: BLEU.compute_bleu([1], [1], 1, 1, smooth_method=method, max_ngram_order=1),
    ):
        with pytest.raises(InvalidOptionError) as e:
            entry()
        assert str(e.value) == str(checked.value)


@pytest.mark.parametrize(
    "value", [-1, float("nan"), float("inf"), True, "0.1", MAX_SMOOTH_VALUE * 2]
)
def test_bad_values(value: Any) -> None:
    with pytest.raises(InvalidOptionError, match=r"^smooth_value="):
        check_smooth_value(value)
    with pytest.raises(InvalidOptionError, match=r"^smooth_value="):
        BLEU(smooth_method="floor", smooth_value=value)


def test_good_values_are_kept_as_given() -> None:
    assert check_smooth_value(None) is None
    assert check_smooth_value(1) == 1 and isinstance(check_smooth_value(1), int)
    assert check_smooth_value(MAX_SMOOTH_VALUE) == MAX_SMOOTH_VALUE
    assert BLEU(smooth_method="add-k", smooth_value=2).smooth_value == 2
