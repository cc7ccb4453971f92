"""COCO's Stanford PTB tokenization, through pycocoevalcap's own wrapper (Java).

parbleu does not re-implement the Stanford tokenizer: :class:`PTBTokenizer` runs pycocoevalcap's
(an optional extra, ``pip install 'parbleu[coco]'``, and Java) and raises
:class:`~parbleu.errors.TokenizerNotAvailableError` when either is missing.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import MissingDependencyError, TokenizerNotAvailableError
from ._java import java

__all__ = ["PTBTokenizer"]


class PTBTokenizer:
    """COCO's Stanford PTB tokenization, through pycocoevalcap (optional extra, needs Java)."""

    def tokenize(
        self, captions_for_image: Mapping[Any, Sequence[Mapping[str, str]]]
    ) -> dict[Any, list[str]]:
        """``{image_id: [{"caption": str}, ...]}`` -> ``{image_id: [tokenized caption, ...]}``."""
        try:
            ptb: Any = importlib.import_module("pycocoevalcap.tokenizer.ptbtokenizer")
        except ImportError as e:
            raise TokenizerNotAvailableError(
                "coco: the PTB tokenizer runs pycocoevalcap's Stanford CoreNLP jar; install it "
                "with `pip install parbleu[coco]` (and Java), or score captions that are already "
                "tokenized with evaluate(..., tokenize=False) or the scorers' compute_score"
            ) from e
        try:
            java("the PTB tokenizer")
        except MissingDependencyError as e:
            raise TokenizerNotAvailableError(str(e)) from None
        out: dict[Any, list[str]] = ptb.PTBTokenizer().tokenize(captions_for_image)
        return out
