"""rouge-score 0.1.2, exact and fast: ``rouge_scorer``, ``scoring``, ``tokenize``, ``tokenizers``.

A drop-in for Google's ``rouge_score`` package (``from parbleu.flavors.rouge_score import
rouge_scorer``), and :mod:`.engine`, the batch engine the other ROUGE surfaces build on.
"""
