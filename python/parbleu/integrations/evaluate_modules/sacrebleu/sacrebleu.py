"""parbleu's offline stand-in for the hub's ``sacrebleu`` module (``evaluate.load(path)``)."""

from parbleu.integrations.evaluate import module_class

Sacrebleu = module_class("sacrebleu", "Sacrebleu", __name__)
