"""parbleu's offline stand-in for the hub's ``meteor`` module (``evaluate.load(path)``)."""

from parbleu.integrations.evaluate import module_class

Meteor = module_class("meteor", "Meteor", __name__)
