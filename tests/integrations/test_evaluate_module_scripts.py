"""The evaluate module scripts under ``evaluate_modules/``, loaded as ``evaluate.load`` loads them
(by path, the first ``EvaluationModule`` subclass in the namespace), on stand-ins for
``evaluate`` and ``datasets`` so that this runs without them (the live test is in
test_evaluate_modules.py)."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from parbleu.integrations import evaluate as pe

CLASS_NAMES = {
    "bleu": "Bleu",
    "chrf": "ChrF",
    "meteor": "Meteor",
    "rouge": "Rouge",
    "sacrebleu": "Sacrebleu",
    "ter": "Ter",
}


class _EvaluationModule:
    """evaluate's base: ``compute`` is the Arrow-cache path (recorded here)."""

    def __init__(self) -> None:
        self.info = self._info()  # type: ignore[attr-defined]
        self.full_calls: list[dict[str, Any]] = []

    def compute(self, **kwargs: Any) -> Any:
        self.full_calls.append(kwargs)
        return "full"


@pytest.fixture
def fake_evaluate(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    evaluate = types.ModuleType("evaluate")
    datasets = types.ModuleType("datasets")
    evaluate.EvaluationModule = _EvaluationModule  # type: ignore[attr-defined]
    evaluate.Metric = type("Metric", (_EvaluationModule,), {})  # type: ignore[attr-defined]
    evaluate.MetricInfo = lambda **kw: kw  # type: ignore[attr-defined]
    datasets.Value = lambda dtype, id=None: (dtype, id)  # type: ignore[attr-defined]
    datasets.Sequence = lambda feature, id=None: ("seq", feature, id)  # type: ignore[attr-defined]
    datasets.Features = dict  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "evaluate", evaluate)
    monkeypatch.setitem(sys.modules, "datasets", datasets)
    return evaluate


def _load_script(name: str) -> types.ModuleType:
    path = Path(pe.module_path(name)) / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"evaluate_test_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _main_class(module: types.ModuleType, base: type) -> type:
    """evaluate.loading.import_main_class: the first subclass of the base in the namespace."""
    for obj in module.__dict__.values():
        if isinstance(obj, type) and issubclass(obj, base):
            return obj
    raise AssertionError(f"{module.__name__}: no {base.__name__} subclass")


@pytest.mark.parametrize("name", pe.MODULES)
def test_script_defines_the_module_class(name: str, fake_evaluate: Any) -> None:
    script = _load_script(name)
    cls = _main_class(script, fake_evaluate.EvaluationModule)
    assert issubclass(cls, fake_evaluate.Metric)
    assert cls.__name__ == cls.__qualname__ == CLASS_NAMES[name]
    assert cls.__module__ == script.__name__
    assert getattr(script, CLASS_NAMES[name]) is cls
    module = cls()
    assert module.info["description"] == pe._DESCRIPTIONS[name]
    assert module.info["inputs_description"] == pe.compute.__doc__
    assert len(module.info["features"]) == 2


@pytest.mark.parametrize("name", ["sacrebleu", "chrf", "ter", "bleu"])
def test_script_class_scores_as_compute(name: str, fake_evaluate: Any) -> None:
    cls = _main_class(_load_script(name), fake_evaluate.EvaluationModule)
    hyp = ["the cat sat on the mat", "a dog ."]
    refs = [["the cat sat on a mat"], ["a dog barked ."]]
    want = pe.compute(name, hyp, refs)
    module = cls()
    assert module._compute(hyp, refs) == want
    assert module.compute(predictions=hyp, references=refs) == want
    assert module.full_calls == []
    # Several processes: evaluate's own compute gathers them.
    module.num_process = 2
    assert module.compute(predictions=hyp, references=refs) == "full"
    assert module.full_calls == [{"predictions": hyp, "references": refs}]


def test_module_class_rejects_an_unknown_name(fake_evaluate: Any) -> None:
    with pytest.raises(pe.InvalidOptionError, match="module 'nope'"):
        pe.module_class("nope", "Nope", __name__)
