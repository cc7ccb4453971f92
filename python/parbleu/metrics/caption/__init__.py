"""COCO's caption metrics: the engines of ``bleu-coco``, ``cider``, ``rouge-l`` and ``meteor``.

Below both the metric registry and the ``parbleu.flavors.coco`` drop-in (pycocoevalcap's API),
so that neither imports the other's package:

- ``checks``: pycocoevalcap's ``assert`` checks of ``{image_id: [caption]}`` dicts, as parbleu
  errors; ``java``: where the original's jars and ``java`` are;
- ``ptb``: COCO's PTB tokenization without Java;
- ``bleu``, ``cider``, ``rouge``, ``meteor``: pycocoevalcap's ``Bleu``/``BleuScorer``,
  ``Cider``, ``Rouge`` and ``Meteor`` (the jar, or the native METEOR of ``_meteor_native``),
  bit for bit;
- ``registered``: the registered metrics over them (``make_metric("cider")``, ``-m cider``).

Nothing is imported here: a plain BLEU command never loads the caption code.
"""
