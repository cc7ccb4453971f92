"""NLTK 3.10.4's BLEU, GLEU and chrF, exactly (``nltk.translate.{bleu,gleu,chrf}_score``).

Replace ``from nltk.translate.bleu_score import corpus_bleu, SmoothingFunction`` by
``from parbleu.flavors.nltk import corpus_bleu, SmoothingFunction``: same functions, parameters,
defaults, return types (``int`` 0, ``float``, or a list for a list of weight tuples), same
``UserWarning`` (method0), same numbers to the last bit. The n-gram counting runs in Rust;
``sentence_bleu`` (methods 0-3), ``sentence_gleu``, ``corpus_gleu`` and ``sentence_chrf`` on
plain ``str`` inputs are one core call each, with NLTK's float operations done in the same
order there; elsewhere the arithmetic after the counting (``Fraction`` precisions, smoothing,
``math.fsum``) is NLTK's, operation for operation.

Where NLTK crashes, a :class:`~parbleu.errors.FlavorError` is raised that is also an instance of
NLTK's exception (``AssertionError`` for a length mismatch or method6 without trigram matches,
``ZeroDivisionError`` for an empty corpus, ``KeyError``/``ValueError`` for a segment without
references), so ``except`` clauses written for NLTK keep working.

Inputs are token lists, as for NLTK (a ``str`` is iterated character by character, as NLTK
does). Quirks kept on purpose (see ``docs/flavors.md``): the per-sentence denominator floor
``max(1, count)``, ``sys.float_info.min`` for zero precisions without smoothing, corpus-level
smoothing methods 4-7 looking at the *last* segment only, method6's trigram assertion.

Modules as NLTK's: :mod:`.bleu_score`, :mod:`.gleu_score`, :mod:`.chrf_score`; this package
re-exports their public names.
"""

from __future__ import annotations

from .bleu_score import (
    FLAVOR,
    Fraction,
    SmoothingFunction,
    brevity_penalty,
    closest_ref_length,
    corpus_bleu,
    modified_precision,
    sentence_bleu,
)
from .chrf_score import chrf_precision_recall_fscore_support, corpus_chrf, sentence_chrf
from .gleu_score import corpus_gleu, sentence_gleu

__all__ = [
    "FLAVOR",
    "Fraction",
    "SmoothingFunction",
    "brevity_penalty",
    "chrf_precision_recall_fscore_support",
    "closest_ref_length",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_gleu",
    "modified_precision",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_gleu",
]
