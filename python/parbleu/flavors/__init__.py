"""Exact reproductions of other BLEU implementations ("flavors"), on the Rust core.

Each module offers the original's own public API, so existing code runs after changing the
import:

=================  ====================================================================
module             reproduces
=================  ====================================================================
``nltk``           NLTK 3.10.4 ``corpus_bleu``, ``sentence_bleu``, ``SmoothingFunction``
                   (method0-7), ``modified_precision``, ..., ``corpus_gleu``, ``corpus_chrf``
``moses``          Moses ``multi-bleu.perl`` and ``multi-bleu-detok.perl`` (printed line,
                   exit status)
``mteval``         NIST ``mteval-v13a.pl`` / ``mteval-v14.pl``: BLEU and NIST, system,
                   document and segment level, SGML/XML
``coco``           pycocoevalcap 1.2 ``Bleu(4).compute_score``, ``BleuScorer``
``tfnmt``          tensorflow/nmt ``compute_bleu``; HF ``evaluate`` ``bleu``/``google_bleu``
``t2t``            tensor2tensor ``bleu_hook`` (``compute_bleu``, ``bleu_tokenize``,
                   ``bleu_wrapper``)
``torchmetrics``   torchmetrics 1.9 ``bleu_score``, ``sacre_bleu_score``, ``BLEUScore``,
                   ``SacreBLEUScore`` (float32, without torch)
``fairseq``        fairseq 0.12.2 ``fairseq-score`` (libbleu's hashed n-gram matching)
=================  ====================================================================

:func:`explain` decomposes the gap between SacreBLEU and one of them on your data; the
command line is ``parbleu --flavor NAME ...`` and ``parbleu explain ...``. Where an original
crashes, a :class:`~parbleu.errors.FlavorError` names the flavor and the reason.
``docs/flavors.md`` lists what each does differently (generated from the registry,
:mod:`parbleu.flavors.registry`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .registry import (
    FLAVORS,
    ExplainProfile,
    FlavorInfo,
    flavor_names,
    get_flavor,
    register_flavor,
    unregister_flavor,
)

if TYPE_CHECKING:
    from ._common import read_lines, tokens

#: Helpers the command line shares with the flavors (public names for ``parbleu.flavors._common``).
_HELPERS = ("read_lines", "tokens")

__all__ = [
    "FLAVORS",
    "ExplainProfile",
    "Explanation",
    "FlavorInfo",
    "explain",
    "flavor_names",
    "get_flavor",
    "read_lines",
    "register_flavor",
    "tokens",
    "unregister_flavor",
    # The flavor modules, from the registry (lazily imported: some need extras).
    *sorted({f.module for f in FLAVORS}),
]


def _modules() -> set[str]:
    # Read when asked, so a flavor registered later is found too.
    return {get_flavor(n).module for n in flavor_names()}


def __getattr__(name: str) -> Any:
    if name in _modules():
        return importlib.import_module(f"{__name__}.{name}")
    if name in ("explain", "Explanation"):
        from . import _explain

        return getattr(_explain, name)
    if name in _HELPERS:
        from . import _common

        return getattr(_common, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
