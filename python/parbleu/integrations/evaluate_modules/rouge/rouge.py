"""parbleu's offline stand-in for the hub's ``rouge`` module (``evaluate.load(path)``)."""

from parbleu.integrations.evaluate import module_class

Rouge = module_class("rouge", "Rouge", __name__)
