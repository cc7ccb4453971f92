"""ROUGE's engine: rouge-score 0.1.2's numbers, computed in the Rust core.

This is the one entry point every ROUGE surface builds on (``parbleu.ROUGE``, ``-m rouge``, the
evaluate module, torchmetrics' ``ROUGEScore`` and the ``parbleu.flavors.rouge_score`` drop-in).

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from parbleu import _core
from parbleu._workers import resolve_workers
from parbleu.errors import (
    EmptyInputError,
    InputTypeError,
    InvalidOptionError,
    InvalidTextError,
    LengthMismatchError,
    MissingDependencyError,
)

#: The tokenizer names :func:`score_batch` accepts.
TokenizerName = Literal["default", "unicode", "none"]

#: Every rouge type rouge-score 0.1.2 can compute.
ROUGE_TYPES: tuple[str, ...] = (*(f"rouge{n}" for n in range(1, 10)), "rougeL", "rougeLsum")

#: The tokenizer names, in the order of :data:`TokenizerName`.
TOKENIZERS: tuple[str, ...] = ("default", "unicode", "none")

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
        return [
            {t: (r[0], r[1], r[2]) for t, r in zip(self.rouge_types, row)}
            for row in self.scores.tolist()
        ]


@dataclass(frozen=True)
class DiscardShare:
    """How much of some text rouge-score's default tokenizer throws away.

    Attributes
    ----------
    kept : int
        Letters, marks and numbers (Unicode categories L*, M*, N*) the default tokenizer
        keeps (after ``str.lower()``, those in ``[a-z0-9]``).
    discarded : int
        Those it drops (every other one: ``é``, ``ж``, ``中``, a Devanagari vowel sign, ...).
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
    if isinstance(rouge_types, str):
        raise InputTypeError(
            f"rouge_types={rouge_types!r}: expected a list of names such as ['rouge1', 'rougeL']"
        )
    names = tuple(rouge_types)
    if not names:
        raise InvalidOptionError("rouge_types: expected at least one of " + ", ".join(ROUGE_TYPES))
    for name in names:
        if name not in ROUGE_TYPES:
            why = (
                "rouge-score: 'rougen requires positive n'"
                if name == "rouge0"
                else ("rouge-score: 'Invalid rouge type'")
            )
            raise InvalidOptionError(
                f"rouge type {name!r}: expected one of {', '.join(ROUGE_TYPES)} ({why})"
            )
    return names


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
    types = check_rouge_types(rouge_types)
    kind = _check_tokenizer(tokenizer)
    preds = _texts("predictions", predictions)
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputTypeError(
            "references: expected one list of reference texts per prediction, "
            f"got {type(references).__name__}"
        )
    if len(references) != len(preds):
        raise LengthMismatchError(
            f"predictions and references differ in length: {len(preds)} predictions, "
            f"{len(references)} reference lists"
        )
    refs = [_texts(f"references[{i}]", r) for i, r in enumerate(references)]
    for i, r in enumerate(refs):
        if not r:
            raise EmptyInputError(f"references[{i}] is empty: each prediction needs a reference")
    threads = resolve_workers(workers, len(preds))
    if not (split_summaries and "rougeLsum" in types):
        return _run(preds, refs, types, kind, use_stemmer, threads)
    # rougeLsum's sentences come from NLTK: its lines are given to the core, the other types
    # still see the original texts.
    split = sentence_splitter()
    parts = [
        _run(
            [split(p) for p in preds],
            [[split(r) for r in rs] for rs in refs],
            ("rougeLsum",),
            kind,
            use_stemmer,
            threads,
        )
    ]
    others = tuple(t for t in types if t != "rougeLsum")
    if others:
        parts.append(_run(preds, refs, others, kind, use_stemmer, threads))
    return merge_types(parts, types)


def merge_types(parts: Sequence[RougeBatch], rouge_types: Sequence[str]) -> RougeBatch:
    """Put batches of the same pairs but different rouge types together.

    Parameters
    ----------
    parts : sequence of RougeBatch
        Batches over the same pairs; each type of ``rouge_types`` is in one of them.
    rouge_types : sequence of str
        The types of the result, in order (duplicates allowed).

    Returns
    -------
    RougeBatch
        One batch with the columns of ``rouge_types``.
    """
    where = {t: (b, k) for b in parts for k, t in enumerate(b.rouge_types)}
    cols = [where[t] for t in rouge_types]
    return RougeBatch(
        tuple(rouge_types),
        np.stack([b.stats[:, k] for b, k in cols], axis=1),
        np.stack([b.scores[:, k] for b, k in cols], axis=1),
        np.stack([b.best_reference[:, k] for b, k in cols], axis=1),
    )


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
    kind = _check_tokenizer(tokenizer)
    texts = _texts("texts", texts)
    return _core.rouge_tokenize(_encodable(texts), kind, bool(use_stemmer))


def discarded_share(texts: Sequence[str]) -> DiscardShare:
    """Count the letters, marks and numbers rouge-score's default tokenizer drops from ``texts``.

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
    kept, discarded = _core.rouge_discarded(_encodable(_texts("texts", texts)))
    return DiscardShare(kept, discarded)


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
    check_bootstrap(confidence_interval, n_samples)
    matrix = np.asarray(scores, dtype=np.float64)
    # rouge-score 0.1.2's `_bootstrap_resample`, call for call (numpy's global RNG).
    sample_mean = np.zeros((n_samples, matrix.shape[1]))
    for i in range(n_samples):
        sample_idx = np.random.choice(np.arange(matrix.shape[0]), size=matrix.shape[0])
        sample = matrix[sample_idx, :]
        sample_mean[i, :] = np.mean(sample, axis=0)
    percentile_delta = (1 - confidence_interval) / 2
    q = 100 * np.array([percentile_delta, 0.5, 1 - percentile_delta])
    out: npt.NDArray[np.float64] = np.percentile(sample_mean, q, axis=0)
    return out


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
    check_bootstrap(confidence_interval, n_samples)
    if len(batch) == 0:
        raise EmptyInputError("bootstrap_stats: the batch has no pairs")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise InvalidOptionError(f"seed={seed!r}: expected an integer from 0 to 2**64 - 1")
    threads = resolve_workers(workers, n_samples)
    out = np.empty((len(batch.rouge_types), 3, 3), dtype=np.float64)
    for k in range(len(batch.rouge_types)):
        rows = np.ascontiguousarray(batch.stats[:, k, :], dtype=np.int64)
        out[k] = _core.rouge_bootstrap(
            rows, int(n_samples), float(confidence_interval), int(seed), threads
        )
    return out


def _check_tokenizer(name: object) -> str:
    if not isinstance(name, str) or name not in TOKENIZERS:
        raise InvalidOptionError(f"tokenizer={name!r}: expected one of {', '.join(TOKENIZERS)}")
    return name


def _texts(what: str, texts: object) -> list[str]:
    """``texts`` as a list of ``str``, or one clear error naming ``what`` and the item."""
    if isinstance(texts, str) or not isinstance(texts, Sequence):
        raise InputTypeError(f"{what}: expected a list of strings, got {type(texts).__name__}")
    out = list(texts)
    for i, t in enumerate(out):
        if not isinstance(t, str):
            raise InputTypeError(f"{what}[{i}]: expected a str, got {type(t).__name__}")
    return out


def _encodable(texts: list[str]) -> list[str]:
    """``texts``, checked to be UTF-8 encodable (a lone surrogate is not)."""
    for i, t in enumerate(texts):
        try:
            t.encode("utf-8")
        except UnicodeEncodeError as e:
            raise InvalidTextError(
                f"text {i}: {e.reason} at character {e.start} ({t[e.start]!r}): a lone "
                "surrogate cannot be encoded as UTF-8"
            ) from None
    return texts


def _run(
    preds: list[str],
    refs: list[list[str]],
    types: tuple[str, ...],
    kind: str,
    use_stemmer: bool,
    threads: int,
) -> RougeBatch:
    try:
        raw = _core.rouge_score_batch(preds, refs, list(types), kind, bool(use_stemmer), threads)
    except UnicodeEncodeError:
        # Find which text, for the message (only on this failure path).
        _encodable(preds)
        for r in refs:
            _encodable(r)
        raise
    shape = (len(preds), len(types))
    return RougeBatch(
        types,
        np.frombuffer(raw[0], dtype="<i8").astype(np.int64).reshape(*shape, 3),
        np.frombuffer(raw[1], dtype="<f8").astype(np.float64).reshape(*shape, 3),
        np.frombuffer(raw[2], dtype="<i8").astype(np.int64).reshape(shape),
    )


def sentence_splitter() -> Callable[[str], str]:
    """Return rouge-score's ``split_summaries`` splitter, giving newline-separated lines.

    ``nltk.sent_tokenize`` is looked up at each call (as rouge-score does), so the split is
    NLTK's own. A newline inside one of its sentences becomes a space: every tokenizer splits
    tokens there anyway, and the core would otherwise split the sentence in two.

    Returns
    -------
    callable
        ``text`` -> its sentences joined by newlines.

    Raises
    ------
    parbleu.errors.MissingDependencyError
        NLTK or its punkt data is not installed.
    """
    try:
        import nltk  # type: ignore[import-untyped]
    except ImportError:
        raise MissingDependencyError(
            "split_summaries=True splits sentences with NLTK as rouge-score does: "
            "pip install nltk, then python -m nltk.downloader punkt_tab"
        ) from None
    try:
        nltk.sent_tokenize("Probe. Sentence.")
    except LookupError:
        raise MissingDependencyError(
            "split_summaries=True needs NLTK's punkt sentence tokenizer data, which is not "
            "installed: python -m nltk.downloader punkt_tab"
        ) from None

    def split(text: str) -> str:
        sents = [s for s in nltk.sent_tokenize(text) if len(s)]
        return "\n".join(s.replace("\n", " ") for s in sents)

    return split


def check_bootstrap(confidence_interval: float, n_samples: int) -> None:
    """Check bootstrap options as rouge-score's ``BootstrapAggregator`` does.

    Parameters
    ----------
    confidence_interval : float
        Must be in ``[0, 1]``.
    n_samples : int
        Must be a positive integer.

    Raises
    ------
    parbleu.errors.InvalidOptionError
        Either is out of range (a ``ValueError``, as rouge-score raises).
    """
    if not 0 <= confidence_interval <= 1:
        raise InvalidOptionError(
            f"confidence_interval={confidence_interval!r}: must be in range [0, 1]"
        )
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)):
        raise InvalidOptionError(f"n_samples={n_samples!r}: expected a positive integer")
    if n_samples <= 0:
        raise InvalidOptionError(f"n_samples={n_samples!r}: must be positive")
