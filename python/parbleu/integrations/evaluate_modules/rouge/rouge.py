"""parbleu's offline stand-in for the hub's ``rouge`` module (``evaluate.load(path)``)."""

from typing import Any

import datasets
import evaluate

from parbleu.integrations import evaluate as parbleu_evaluate


class Rouge(evaluate.Metric):  # type: ignore[misc]
    """The hub module's inputs, options and outputs (:mod:`parbleu.integrations.evaluate`)."""

    def _info(self) -> Any:
        return parbleu_evaluate._info(evaluate, datasets, "rouge")

    def _compute(self, predictions: Any, references: Any, **options: Any) -> dict[str, Any]:
        return parbleu_evaluate.compute("rouge", predictions, references, **options)

    def compute(self, *, predictions: Any = None, references: Any = None, **options: Any) -> Any:
        """Score as evaluate's ``compute``; one process given its inputs skips the Arrow cache."""
        return parbleu_evaluate.module_compute(
            self, "rouge", predictions, references, options, super().compute
        )
