"""ROUGE's engine: rouge-score 0.1.2's numbers, computed in the Rust core.

This is the one entry point every ROUGE surface builds on (``parbleu.ROUGE``, ``-m rouge``, the
evaluate module, torchmetrics' ``ROUGEScore`` and the ``rouge_score`` drop-in of this package).

Contract
--------
* Inputs: ``predictions[i]`` is scored against every reference in ``references[i]`` (at least
  one per prediction), as rouge-score's ``RougeScorer.score_multi(references[i],
  predictions[i])``; with one reference that is ``RougeScorer.score(reference, prediction)``.
* ``rouge_types``: ``"rouge1"`` .. ``"rouge9"`` (n-gram overlap), ``"rougeL"`` (LCS over the
  whole text) and ``"rougeLsum"`` (summary-level union LCS over the text's newline-separated
  sentences). Anything else (``"rouge0"``, ``"rouge10"``, ``"rougeX"``) raises
  :class:`parbleu.errors.InvalidOptionError` before any scoring. Duplicates are kept, in order.
* ``tokenizer``:

  - ``"default"``: rouge-score's ``tokenize.tokenize`` exactly: Python's ``str.lower()``, every
    run of characters outside ``[a-z0-9]`` becomes a space (so every non-ASCII letter is
    dropped), then with ``use_stemmer`` NLTK 3.10.4's ``PorterStemmer()`` on tokens longer than
    3 characters, then only tokens matching ``^[a-z0-9]+$`` are kept.
  - ``"unicode"``: Python's ``str.lower()``; characters of Unicode categories L* (letters),
    M* (marks: Devanagari vowel signs are part of their word) and N* (digits and numbers) of
    every script are kept, every other character separates tokens; each CJK ideograph, kana and
    Hangul syllable is a token of its own (those scripts do not separate words by spaces).
    With ``use_stemmer`` only tokens made only of ``[a-z0-9]`` (longer than 3 characters) are
    stemmed: Porter's suffix rules are English rules, and applied to other languages' words
    they remove endings that are not suffixes at all (Czech ``ženy``, Spanish ``ciudades``)
    or, for other scripts, treat every letter as a consonant.
  - ``"none"``: pre-tokenized text: Python's ``str.split()`` (whitespace only), no lowercasing,
    nothing dropped; ``use_stemmer`` stems as for ``"unicode"`` (only ``[a-z0-9]+`` tokens).

  An unknown name raises :class:`parbleu.errors.InvalidOptionError`.
* ``split_summaries``: for ``rougeLsum`` only, sentences come from ``nltk.sent_tokenize``
  (NLTK's punkt data) instead of newlines, as rouge-score does. Without NLTK or its punkt data
  this raises :class:`parbleu.errors.MissingDependencyError` naming what to install (never a
  different split).
* Statistics: for each pair and rouge type, three integers ``(matches, prediction_count,
  reference_count)`` of the chosen reference: n-gram overlap (clipped counts) and n-gram totals
  for ``rougeN``; LCS length and token counts for ``rougeL``; union-LCS hits (deduplicated as
  rouge-score does) and token counts over all sentences for ``rougeLsum``. Then ``precision =
  matches / max(prediction_count, 1)``, ``recall = matches / max(reference_count, 1)`` and
  ``fmeasure = 2 * precision * recall / (precision + recall)`` (0.0 when both are 0), in that
  float order: the very bits rouge-score returns.
* Multiple references: per rouge type, the reference with the highest fmeasure is chosen
  (numpy ``argmax``: the first of equal ones), as ``score_multi`` does. The index of the chosen
  reference is in :attr:`RougeBatch.best_reference`.
* ``workers``: threads (``None``: all cores, as elsewhere in parbleu); the numbers do not depend
  on it. The GIL is released while the core scores.
* Errors: a prediction count different from the reference-list count raises
  :class:`parbleu.errors.LengthMismatchError`; a prediction with no reference raises
  :class:`parbleu.errors.EmptyInputError`; a non-``str`` text raises
  :class:`parbleu.errors.InputTypeError`. Empty strings are valid (all scores 0.0, as
  rouge-score). Zero pairs give an empty batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

#: The tokenizer names :func:`score_batch` accepts.
TokenizerName = Literal["default", "unicode", "none"]

#: Every rouge type rouge-score 0.1.2 can compute.
ROUGE_TYPES: tuple[str, ...] = (*(f"rouge{n}" for n in range(1, 10)), "rougeL", "rougeLsum")

#: Column order of :attr:`RougeBatch.stats`.
STAT_FIELDS: tuple[str, str, str] = ("matches", "prediction_count", "reference_count")

#: Column order of :attr:`RougeBatch.scores` (rouge-score's ``Score`` fields).
SCORE_FIELDS: tuple[str, str, str] = ("precision", "recall", "fmeasure")


@dataclass(frozen=True)
class RougeBatch:
    """Scores of many (prediction, references) pairs.

    Attributes
    ----------
    rouge_types : tuple of str
        The rouge types, in the order asked for (the middle axis of the arrays).
    stats : numpy.ndarray
        ``int64`` array of shape ``(pairs, len(rouge_types), 3)``: ``matches``,
        ``prediction_count`` and ``reference_count`` of the chosen reference
        (see :data:`STAT_FIELDS`).
    scores : numpy.ndarray
        ``float64`` array of shape ``(pairs, len(rouge_types), 3)``: ``precision``, ``recall``
        and ``fmeasure`` (see :data:`SCORE_FIELDS`), bit-equal to rouge-score's.
    best_reference : numpy.ndarray
        ``int64`` array of shape ``(pairs, len(rouge_types))``: index into ``references[i]`` of
        the reference chosen for each pair and type.
    """

    rouge_types: tuple[str, ...]
    stats: npt.NDArray[np.int64]
    scores: npt.NDArray[np.float64]
    best_reference: npt.NDArray[np.int64]

    def __len__(self) -> int:
        """Return the number of pairs."""
        return int(self.stats.shape[0])

    def score_dicts(self) -> list[dict[str, tuple[float, float, float]]]:
        """Return per pair ``{rouge_type: (precision, recall, fmeasure)}`` as rouge-score's dicts.

        Returns
        -------
        list of dict
            One dict per pair, keyed by rouge type (a duplicated type appears once).
        """
        raise NotImplementedError


@dataclass(frozen=True)
class DiscardShare:
    """How much of some text rouge-score's default tokenizer throws away.

    Attributes
    ----------
    kept : int
        Letters and digits (Unicode categories L*, N*) the default tokenizer keeps (after
        ``str.lower()``, those in ``[a-z0-9]``).
    discarded : int
        Letters and digits it drops (every other letter or digit: ``é``, ``ж``, ``中``, ...).
    """

    kept: int
    discarded: int

    @property
    def fraction(self) -> float:
        """Share discarded, ``discarded / (kept + discarded)`` (0.0 when there is none)."""
        total = self.kept + self.discarded
        return self.discarded / total if total else 0.0


def check_rouge_types(rouge_types: Sequence[str]) -> tuple[str, ...]:
    """Check rouge type names and return them as a tuple.

    Parameters
    ----------
    rouge_types : sequence of str
        Names such as ``"rouge1"``, ``"rougeL"``, ``"rougeLsum"``.

    Returns
    -------
    tuple of str
        The names, in order.

    Raises
    ------
    parbleu.errors.InvalidOptionError
        A name is not in :data:`ROUGE_TYPES`, or there is none.
    """
    raise NotImplementedError


def score_batch(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    rouge_types: Sequence[str],
    *,
    use_stemmer: bool = False,
    split_summaries: bool = False,
    tokenizer: TokenizerName = "default",
    workers: int | None = None,
) -> RougeBatch:
    """Score each prediction against its references (rouge-score's ``score_multi``).

    Parameters
    ----------
    predictions : sequence of str
        One text per pair.
    references : sequence of sequence of str
        ``references[i]``: the reference texts of ``predictions[i]`` (at least one).
    rouge_types : sequence of str
        See :data:`ROUGE_TYPES`.
    use_stemmer : bool, default False
        NLTK's Porter stemmer on tokens longer than 3 characters (see the module docstring).
    split_summaries : bool, default False
        ``rougeLsum`` sentences from ``nltk.sent_tokenize`` instead of newlines.
    tokenizer : {"default", "unicode", "none"}, default "default"
        See the module docstring.
    workers : int or None, default None
        Threads; the result does not depend on it.

    Returns
    -------
    RougeBatch
        Integer statistics, scores and chosen references per pair and type.

    Raises
    ------
    parbleu.errors.InvalidOptionError
        Unknown rouge type or tokenizer.
    parbleu.errors.LengthMismatchError
        ``len(predictions) != len(references)``.
    parbleu.errors.EmptyInputError
        A prediction has no reference.
    parbleu.errors.InputTypeError
        A text is not a ``str``.
    parbleu.errors.MissingDependencyError
        ``split_summaries`` without NLTK's punkt data.
    """
    raise NotImplementedError


def tokenize(
    texts: Sequence[str], *, use_stemmer: bool = False, tokenizer: TokenizerName = "default"
) -> list[list[str]]:
    """Tokenize texts as :func:`score_batch` does (rouge-score's ``tokenize.tokenize``).

    Parameters
    ----------
    texts : sequence of str
        Texts to tokenize.
    use_stemmer : bool, default False
        Porter-stem tokens longer than 3 characters.
    tokenizer : {"default", "unicode", "none"}, default "default"
        See the module docstring.

    Returns
    -------
    list of list of str
        The tokens of each text.
    """
    raise NotImplementedError


def discarded_share(texts: Sequence[str]) -> DiscardShare:
    """Count the letters and digits rouge-score's default tokenizer drops from ``texts``.

    For the warning "the default tokenizer discards most of this input": a Chinese, Russian or
    Greek text gives a fraction near 1.0, an English one 0.0, a Czech one a few percent.

    Parameters
    ----------
    texts : sequence of str
        Texts (predictions and references alike).

    Returns
    -------
    DiscardShare
        Kept and discarded letter/digit counts over all texts.
    """
    raise NotImplementedError


def bootstrap_compat(
    scores: npt.NDArray[np.float64],
    *,
    confidence_interval: float = 0.95,
    n_samples: int = 1000,
) -> npt.NDArray[np.float64]:
    """Return rouge-score's ``BootstrapAggregator`` bounds, drawing from numpy's global RNG.

    The same numpy calls in the same order as rouge-score 0.1.2's ``_bootstrap_resample``, so
    after ``np.random.seed(s)`` the result is bit-equal to rouge-score's after the same seed
    (and it advances numpy's global RNG as rouge-score does).

    Parameters
    ----------
    scores : numpy.ndarray
        ``(pairs, 3)`` float64 matrix of per-pair (precision, recall, fmeasure) of one type,
        e.g. ``batch.scores[:, k, :]``.
    confidence_interval : float, default 0.95
        In ``[0, 1]``.
    n_samples : int, default 1000
        Bootstrap samples, positive.

    Returns
    -------
    numpy.ndarray
        ``(3, 3)``: rows low, mid, high; columns precision, recall, fmeasure.
    """
    raise NotImplementedError


def bootstrap_stats(
    batch: RougeBatch,
    *,
    confidence_interval: float = 0.95,
    n_samples: int = 1000,
    seed: int = 12345,
    workers: int | None = None,
) -> npt.NDArray[np.float64]:
    """Bootstrap the mean per-pair scores of every type with the core's RNG.

    parbleu's own path: per-pair scores are recomputed from the integer statistics, resample
    ``i`` draws its pair indices from its own stream of the core's counter-based RNG under
    ``seed``, so the result does not depend on ``workers``. Bounds are numpy's ``'linear'``
    percentiles of the resampled means. Not equal to rouge-score's numbers (a different RNG):
    use :func:`bootstrap_compat` for those.

    Parameters
    ----------
    batch : RougeBatch
        Result of :func:`score_batch` (at least one pair).
    confidence_interval : float, default 0.95
        In ``[0, 1]``.
    n_samples : int, default 1000
        Bootstrap samples, positive.
    seed : int, default 12345
        Seed of the core RNG.
    workers : int or None, default None
        Threads; the result does not depend on it.

    Returns
    -------
    numpy.ndarray
        ``(len(rouge_types), 3, 3)``: per type, rows low, mid, high; columns precision,
        recall, fmeasure.
    """
    raise NotImplementedError
