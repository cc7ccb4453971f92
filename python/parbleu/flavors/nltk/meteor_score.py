"""NLTK 3.10.4's ``nltk.translate.meteor_score``, exactly, without NLTK or a download.

Replace ``from nltk.translate.meteor_score import meteor_score`` by
``from parbleu.flavors.nltk.meteor_score import meteor_score``: same parameters and defaults,
same floats to the last bit. This is NLTK's METEOR (exact, Porter-stem and WordNet-synonym
matches, one fragmentation penalty), not METEOR 1.5's jar (see ``docs/meteor.md``).

* Inputs are pre-tokenized, as for NLTK: a ``str`` hypothesis or reference raises NLTK's
  ``TypeError``; ``meteor_score`` takes the best score over its references.
* ``preprocess`` (default ``str.lower``), ``stemmer`` (default NLTK's ``PorterStemmer()``; any
  object with ``.stem(word)`` is called for each word) and ``wordnet`` (default: NLTK's
  WordNet from nltk_data when installed, else parbleu's WordNet 3.0 table; also a path, an
  NLTK ``WordNetCorpusReader`` or :func:`load_wordnet`'s result) are NLTK's hooks.
* :func:`meteor_scores` scores many segments in one core call, on several threads.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Callable

from ... import _core
from ...errors import FlavorError, InvalidOptionError
from .._common import flavor_error
from ._wordnet import WordNet, from_reader, load_wordnet

FLAVOR = "nltk"

__all__ = [
    "FLAVOR",
    "WordNet",
    "load_wordnet",
    "meteor_score",
    "meteor_scores",
    "single_meteor_score",
]


def _tokens(x: Any, what: str) -> list[str]:
    """Return a token list as NLTK's ``_generate_enums`` takes it (an iterable of ``str``)."""
    if isinstance(x, str):
        raise flavor_error(
            FLAVOR,
            f'"{what}" expects pre-tokenized {what} (Iterable[str]): {x}',
            TypeError,
        )
    try:
        out = list(x)
    except TypeError:
        raise flavor_error(
            FLAVOR, f"{what}: expected an iterable of str tokens, got {type(x).__name__}", TypeError
        ) from None
    for t in out:
        if not isinstance(t, str):
            raise flavor_error(
                FLAVOR,
                f"{what}: token {t!r} is a {type(t).__name__}, not a str "
                "(NLTK: str.lower does not apply to it)",
                TypeError,
            )
    return out


def _real(x: Any, name: str) -> float:
    if isinstance(x, (str, bytes)) or not hasattr(x, "__float__"):
        raise flavor_error(FLAVOR, f"{name}={x!r}: expected a real number", TypeError)
    try:
        return float(x)
    except (TypeError, ValueError, OverflowError) as e:
        raise flavor_error(FLAVOR, f"{name}={x!r}: not a float ({e})", type(e)) from None


def _is_default_stemmer(stemmer: Any) -> bool:
    if stemmer is None:
        return True
    cls = type(stemmer)
    return (
        cls.__name__ == "PorterStemmer"
        and cls.__module__ == "nltk.stem.porter"
        and getattr(stemmer, "mode", None) == "NLTK_EXTENSIONS"
    )


def _wordnet(wordnet: Any) -> WordNet:
    if wordnet is None or isinstance(wordnet, str) or hasattr(wordnet, "__fspath__"):
        return load_wordnet(wordnet)
    if isinstance(wordnet, WordNet):
        return wordnet
    # NLTK's reader, including the LazyCorpusLoader nltk.corpus.wordnet.
    if hasattr(wordnet, "open") and hasattr(wordnet, "synsets"):
        return from_reader(wordnet)
    raise flavor_error(
        FLAVOR,
        f"wordnet={type(wordnet).__name__}: expected None, a path, an NLTK WordNetCorpusReader "
        "or parbleu.flavors.nltk.meteor_score.load_wordnet(...)",
        TypeError,
    )


def _preprocessed(segments: list[list[str]], preprocess: Callable[[str], str]) -> None:
    for seg in segments:
        for k, w in enumerate(seg):
            out = preprocess(w)
            if not isinstance(out, str):
                raise flavor_error(
                    FLAVOR, f"preprocess({w!r}) returned {type(out).__name__}, not str", TypeError
                )
            seg[k] = out


def _stems(segments: list[list[str]], stemmer: Any) -> list[list[str]]:
    out = []
    for seg in segments:
        stems = [stemmer.stem(w) for w in seg]
        for s in stems:
            if not isinstance(s, str):
                raise flavor_error(
                    FLAVOR, f"stemmer.stem returned {type(s).__name__}, not str", TypeError
                )
        out.append(stems)
    return out


def _score_batch(
    hyps: list[list[str]],
    refs: list[list[list[str]]],
    preprocess: Callable[[str], str],
    stemmer: Any,
    wordnet: Any,
    alpha: Any,
    beta: Any,
    gamma: Any,
    workers: int | None,
) -> list[float]:
    from ..._workers import resolve_workers

    a, b, g = _real(alpha, "alpha"), _real(beta, "beta"), _real(gamma, "gamma")
    wn = _wordnet(wordnet)
    lower = preprocess is str.lower
    if not lower:
        _preprocessed(hyps, preprocess)
        for rs in refs:
            _preprocessed(rs, preprocess)
    hyp_stems = ref_stems = None
    if not _is_default_stemmer(stemmer):
        if not hasattr(stemmer, "stem"):
            raise flavor_error(FLAVOR, "stemmer: expected an object with .stem(word)", TypeError)
        # NLTK stems the preprocessed words.
        if lower:
            hyp_lower = [[w.lower() for w in s] for s in hyps]
            ref_lower = [[[w.lower() for w in r] for r in rs] for rs in refs]
        else:
            hyp_lower, ref_lower = hyps, refs
        hyp_stems = _stems(hyp_lower, stemmer)
        ref_stems = [_stems(rs, stemmer) for rs in ref_lower]
    try:
        return _core.flavor_nltk_meteor(
            wn.core,
            hyps,
            refs,
            a,
            b,
            g,
            resolve_workers(workers, len(hyps)),
            lower,
            hyp_stems,
            ref_stems,
        )
    except InvalidOptionError as e:
        if "beta" in str(e):
            raise flavor_error(
                FLAVOR, f"frag_frac ** beta overflows ({e})", OverflowError
            ) from None
        if "references" in str(e):
            raise flavor_error(
                FLAVOR,
                f"a segment has no reference (NLTK: max() arg is an empty sequence): {e}",
                ValueError,
            ) from None
        raise
    except UnicodeEncodeError:
        from ..._inputs import diagnose_unencodable

        raise diagnose_unencodable(
            [[t for s in hyps for t in s], [t for rs in refs for r in rs for t in r]], "tokens"
        ) from None


def single_meteor_score(
    reference: Iterable[str],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: Any = None,
    wordnet: Any = None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """METEOR of one tokenized hypothesis against one tokenized reference, as NLTK's.

    Parameters
    ----------
    reference, hypothesis
        Token lists (a ``str`` raises NLTK's ``TypeError``).
    preprocess
        Applied to each token first (NLTK's default ``str.lower``).
    stemmer
        ``None`` (NLTK's ``PorterStemmer()``) or an object with ``.stem(word)``.
    wordnet
        ``None`` (NLTK's WordNet from nltk_data, else parbleu's WordNet 3.0), a path, an NLTK
        ``WordNetCorpusReader``, or :func:`load_wordnet`'s result.
    alpha, beta, gamma
        NLTK's parameters (precision/recall weight, penalty shape, penalty weight).

    Returns
    -------
    float
        NLTK's score (0.0 where NLTK divides by zero).
    """
    ref = _tokens(reference, "reference")
    hyp = _tokens(hypothesis, "hypothesis")
    args = (preprocess, stemmer, wordnet, alpha, beta, gamma, 1)
    return _score_batch([hyp], [[ref]], *args)[0]


def meteor_score(
    references: Iterable[Iterable[str]],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: Any = None,
    wordnet: Any = None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """METEOR of one tokenized hypothesis: NLTK's best over its references.

    Parameters
    ----------
    references
        Token lists, at least one (none is NLTK's ``max()`` ``ValueError``).
    hypothesis
        A token list.
    preprocess, stemmer, wordnet, alpha, beta, gamma
        As in :func:`single_meteor_score`.

    Returns
    -------
    float
        The largest single score (the first of equal ones, as Python's ``max``).
    """
    hyp = _tokens(hypothesis, "hypothesis")
    refs = _reference_list(references, None)
    args = (preprocess, stemmer, wordnet, alpha, beta, gamma, 1)
    return _score_batch([hyp], [refs], *args)[0]


def _reference_list(references: Any, segment: int | None) -> list[list[str]]:
    where = "" if segment is None else f" (segment {segment})"
    if isinstance(references, str):
        raise flavor_error(
            FLAVOR, f"references{where}: expected a list of token lists, got a str", TypeError
        )
    refs = [_tokens(r, "reference") for r in references]
    if not refs:
        raise flavor_error(
            FLAVOR,
            f"references{where}: none given (NLTK: max() arg is an empty sequence)",
            ValueError,
        )
    return refs


def meteor_scores(
    references: Sequence[Iterable[Iterable[str]]],
    hypotheses: Sequence[Iterable[str]],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: Any = None,
    wordnet: Any = None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
    workers: int | None = None,
) -> list[float]:
    """``[meteor_score(references[i], hypotheses[i]) for i ...]`` in one core call.

    Parameters
    ----------
    references
        For each segment, its token-list references.
    hypotheses
        One token list per segment.
    preprocess, stemmer, wordnet, alpha, beta, gamma
        As in :func:`single_meteor_score`.
    workers
        Threads (``None``: all cores); the numbers do not depend on it.

    Returns
    -------
    list of float
        One NLTK score per segment.
    """
    if len(references) != len(hypotheses):
        raise flavor_error(
            FLAVOR,
            f"{len(hypotheses)} hypotheses but {len(references)} reference lists",
            ValueError,
        )
    args = (preprocess, stemmer, wordnet, alpha, beta, gamma, workers)
    if preprocess is str.lower and _is_default_stemmer(stemmer) and _plain(hypotheses, references):
        # Lists as given: the binding reads them (tokens that are not str raise TypeError there,
        # and the checks below then name them); nothing in Python touches each token.
        try:
            return _score_batch(list(hypotheses), list(references), *args)  # type: ignore[arg-type]
        except TypeError as e:
            if isinstance(e, FlavorError):
                raise
    hyps = [_tokens(h, "hypothesis") for h in hypotheses]
    refs = [_reference_list(r, i) for i, r in enumerate(references)]
    return _score_batch(hyps, refs, *args)


_SEQ = (list, tuple)


def _plain(hypotheses: Sequence[Any], references: Sequence[Any]) -> bool:
    """Whether every hypothesis and reference is a list or tuple (the binding's fast path)."""
    return all(type(h) in _SEQ for h in hypotheses) and all(
        type(rs) in _SEQ and all(type(r) in _SEQ for r in rs) for rs in references
    )
