"""``parbleu._record``: the registries' frozen records behave as frozen dataclasses."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from parbleu._record import FrozenRecordError, field, record, record_dict, record_fields
from parbleu.metrics.registry import MetricProfile, get_metric
from parbleu.metrics.schema import Capabilities, MetricOption


@record
class Point:
    x: int
    y: int = 2
    tags: dict[str, Any] = field(default_factory=dict)


@record(kw_only=True)
class Named:
    name: str
    size: int = 0


def test_construction_defaults_and_factories() -> None:
    p = Point(1)
    assert (p.x, p.y, p.tags) == (1, 2, {})
    assert Point(1).tags is not p.tags  # a new default per record
    assert Point(x=1, y=3) == Point(1, 3) != Point(1, 4)
    assert record_fields(Point) == record_fields(p) == ("x", "y", "tags")
    assert record_dict(Point(5)) == {"x": 5, "y": 2, "tags": {}}
    assert repr(Point(1)) == "Point(x=1, y=2, tags={})"
    assert Named(name="a") == Named(name="a", size=0)
    assert Point(1) != (1, 2, {}) and Point(1) != Named(name="a")


@pytest.mark.parametrize(
    "make",
    [
        lambda: Point(),
        lambda: Point(1, 2, {}, 4),
        lambda: Point(1, x=1),
        lambda: Point(1, z=3),
        lambda: Named("a"),
    ],
)
def test_bad_arguments_are_type_errors(make: Any) -> None:
    with pytest.raises(TypeError):
        make()


def test_frozen_hashable_and_copyable() -> None:
    c = Capabilities(resample=True)
    with pytest.raises(FrozenRecordError):
        c.resample = False  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del c.rows  # type: ignore[misc]
    assert hash(c) == hash(Capabilities(resample=True))
    assert {c, Capabilities(resample=True)} == {c}
    assert pickle.loads(pickle.dumps(c)) == c
    assert copy.deepcopy(get_metric("chrf")) == get_metric("chrf")
    assert copy.copy(MetricProfile(title="X")) == MetricProfile(title="X")
    assert c.names() == ("resample", "sentence_scores", "streaming", "merge")
    with pytest.raises(TypeError):
        MetricOption("x", "int")  # type: ignore[misc]  # keyword only, as before
