"""coco.Meteor leaves no pipe of its jar open (pycocoevalcap's own Meteor leaves two).

Open pipes are a ResourceWarning when the scorer is collected, which the test suite turns into
a failure: every test or doc snippet that ran ``coco.evaluate`` with METEOR failed that way.
"""

from __future__ import annotations

import gc
import shutil
import warnings

import pytest

from helpers import is_required, require
from parbleu.flavors import coco

GTS = {1: ["a dog runs on the grass", "a brown dog is running"]}
RES = {1: ["a dog runs on grass"]}


@pytest.fixture(autouse=True)
def _jar() -> None:
    require("pycocoevalcap", "coco")
    if shutil.which("java") is None:
        if is_required("coco"):
            pytest.fail("java is required here (PARBLEU_REQUIRE=coco) but not on PATH")
        pytest.skip("no java on PATH (METEOR runs pycocoevalcap's jar)")


def test_close_closes_every_pipe() -> None:
    m = coco.Meteor(backend="jar")
    score, per_image = m.compute_score(GTS, RES)
    assert 0.0 < score < 1.0 and per_image == [score]
    m.close()
    p = m.meteor_p
    assert p.poll() is not None
    assert all(f is not None and f.closed for f in (p.stdin, p.stdout, p.stderr))
    m.close()  # twice is harmless


@pytest.mark.parametrize("how", ["collected", "evaluate"])
def test_no_resource_warning(how: str) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        if how == "collected":
            m = coco.Meteor(backend="jar")
            m.compute_score(GTS, RES)
            del m
        else:
            coco.evaluate(GTS, RES, metrics=["METEOR"], tokenize=False)
        gc.collect()
    assert not [w for w in seen if issubclass(w.category, ResourceWarning)], [
        str(w.message) for w in seen
    ]
