"""SacreBLEU's functional API (``corpus_bleu``, ``raw_corpus_bleu``, ``sentence_bleu``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from .metrics.bleu import BLEU
from .score import BLEUScore


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = False,
) -> BLEUScore:
    """Corpus BLEU, as ``sacrebleu.corpus_bleu``.

    Parameters
    ----------
    hypotheses
        One string per segment.
    references
        Reference streams.
    smooth_method, smooth_value, force, lowercase, tokenize, use_effective_order
        As :class:`parbleu.BLEU`.

    Returns
    -------
    BLEUScore
        The score.
    """
    metric = BLEU(
        lowercase=lowercase,
        force=force,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=use_effective_order,
    )
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    smooth_value: Optional[float] = BLEU.SMOOTH_DEFAULTS["floor"],
) -> BLEUScore:
    """Corpus BLEU without tokenization, floor smoothing and effective order.

    Parameters
    ----------
    hypotheses
        One string per segment.
    references
        Reference streams.
    smooth_value
        Floor value (default 0.1).

    Returns
    -------
    BLEUScore
        The score.
    """
    return corpus_bleu(
        hypotheses,
        references,
        smooth_method="floor",
        smooth_value=smooth_value,
        force=True,
        tokenize="none",
        use_effective_order=True,
    )


def sentence_bleu(
    hypothesis: str,
    references: Sequence[Optional[str]],
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = True,
) -> BLEUScore:
    """Sentence BLEU, as ``sacrebleu.sentence_bleu`` (effective order on by default).

    Parameters
    ----------
    hypothesis
        The hypothesis.
    references
        Its references.
    smooth_method, smooth_value, lowercase, tokenize, use_effective_order
        As :class:`parbleu.BLEU`.

    Returns
    -------
    BLEUScore
        The score.
    """
    metric = BLEU(
        lowercase=lowercase,
        tokenize=tokenize,
        force=False,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=use_effective_order,
    )
    return metric.sentence_score(hypothesis, references)
