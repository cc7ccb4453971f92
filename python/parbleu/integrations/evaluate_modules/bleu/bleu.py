"""parbleu's offline stand-in for the hub's ``bleu`` module (``evaluate.load(path)``)."""

from parbleu.integrations.evaluate import module_class

Bleu = module_class("bleu", "Bleu", __name__)
