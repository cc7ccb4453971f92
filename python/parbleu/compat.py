"""SacreBLEU's functional API (``corpus_bleu``, ``raw_corpus_bleu``, ``sentence_bleu``, ...).

Each function builds the metric from SacreBLEU's keyword names (one builder per metric, shared
by its corpus and sentence functions) and scores with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .metrics.bleu import BLEU
from .metrics.chrf import CHRF, CHRFScore
from .metrics.ter import TER, TERScore
from .score import BLEUScore


def make_bleu(
    smooth_method: str,
    smooth_value: float | None,
    force: bool,
    lowercase: bool,
    tokenize: str | None,
    use_effective_order: bool,
) -> BLEU:
    """Return the BLEU of SacreBLEU's functional keywords (also the ``evaluate`` module's).

    Parameters
    ----------
    smooth_method, smooth_value, force, lowercase, tokenize, use_effective_order
        As :func:`corpus_bleu` (``use_effective_order``: BLEU's ``effective_order``).

    Returns
    -------
    BLEU
        The metric.
    """
    return BLEU(
        lowercase=lowercase,
        force=force,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=use_effective_order,
    )


def _chrf(
    char_order: int, word_order: int, beta: int, remove_whitespace: bool, eps_smoothing: bool
) -> CHRF:
    # SacreBLEU's functional API says remove_whitespace where the class says whitespace.
    return CHRF(
        char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing
    )


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
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
        As :class:`parbleu.BLEU` (``use_effective_order``: its ``effective_order``).

    Returns
    -------
    BLEUScore
        The score.
    """
    metric = make_bleu(smooth_method, smooth_value, force, lowercase, tokenize, use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_value: float | None = BLEU.SMOOTH_DEFAULTS["floor"],
) -> BLEUScore:
    """Corpus BLEU without tokenization, floor smoothing and effective order.

    Parameters
    ----------
    hypotheses, references
        As in :func:`corpus_bleu`.
    smooth_value
        Floor value (default 0.1).

    Returns
    -------
    BLEUScore
        The score.
    """
    return make_bleu("floor", smooth_value, True, False, "none", True).corpus_score(
        hypotheses, references
    )


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str | None],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = True,
) -> BLEUScore:
    """Sentence BLEU, as ``sacrebleu.sentence_bleu`` (:func:`corpus_bleu`'s options)."""
    metric = make_bleu(smooth_method, smooth_value, False, lowercase, tokenize, use_effective_order)
    return metric.sentence_score(hypothesis, references)


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Corpus chrF, as ``sacrebleu.corpus_chrf`` (``word_order=2`` gives chrF++).

    Parameters
    ----------
    hypotheses, references
        As in :func:`corpus_bleu`.
    char_order, word_order, beta
        As :class:`parbleu.CHRF`.
    remove_whitespace
        Drop whitespace before extracting character n-grams (``whitespace=False``).
    eps_smoothing
        As :class:`parbleu.CHRF`.

    Returns
    -------
    CHRFScore
        The score.
    """
    metric = _chrf(char_order, word_order, beta, remove_whitespace, eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str | None],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Sentence chrF, as ``sacrebleu.sentence_chrf`` (:func:`corpus_chrf`'s options)."""
    metric = _chrf(char_order, word_order, beta, remove_whitespace, eps_smoothing)
    return metric.sentence_score(hypothesis, references)


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Corpus TER, as ``sacrebleu.corpus_ter``.

    Parameters
    ----------
    hypotheses, references
        As in :func:`corpus_bleu`.
    normalized, no_punct, asian_support, case_sensitive
        As :class:`parbleu.TER`.

    Returns
    -------
    TERScore
        The score.
    """
    metric = TER(normalized, no_punct, asian_support, case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(
    hypothesis: str,
    references: Sequence[str | None],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Sentence TER, as ``sacrebleu.sentence_ter`` (:func:`corpus_ter`'s options)."""
    return TER(normalized, no_punct, asian_support, case_sensitive).sentence_score(
        hypothesis, references
    )
