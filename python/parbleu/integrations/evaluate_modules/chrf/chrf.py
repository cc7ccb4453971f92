"""parbleu's offline stand-in for the hub's ``chrf`` module (``evaluate.load(path)``)."""

from parbleu.integrations.evaluate import module_class

ChrF = module_class("chrf", "ChrF", __name__)
