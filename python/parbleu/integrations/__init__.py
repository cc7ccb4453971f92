"""Integrations with training frameworks (each needs its framework; nothing is imported here).

* :mod:`parbleu.integrations.torchmetrics`: ``torchmetrics.Metric`` subclasses (``pip install
  'parbleu[torch]'``).
* :mod:`parbleu.integrations.evaluate`: Hugging Face ``evaluate`` modules that load offline, and
  ``compute_metrics`` for the ``Trainer``.
* :mod:`parbleu.integrations.torch_ids`: sentence BLEU of token-id tensors on the tensors'
  device (TensorBLEU-style counting), exact through parbleu's core.
"""
