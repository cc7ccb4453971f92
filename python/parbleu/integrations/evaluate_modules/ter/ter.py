"""parbleu's offline stand-in for the hub's ``ter`` module (``evaluate.load(path)``)."""

from parbleu.integrations.evaluate import module_class

Ter = module_class("ter", "Ter", __name__)
