"""rouge-score 0.1.2's ``rouge_scorer`` module: ``RougeScorer``, its numbers, in the core.

``RougeScorer(rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None)`` with
``score(target, prediction)`` and ``score_multi(targets, prediction)``, returning
``{rouge_type: Score(precision, recall, fmeasure)}`` with rouge-score's bits. Invalid rouge
types raise ``ValueError`` (:class:`parbleu.errors.InvalidOptionError`) when scoring, with
rouge-score's messages. A tokenizer object other than :class:`.tokenizers.DefaultTokenizer`
is called in Python, its tokens scored in the core. For many pairs at once use
:func:`.engine.score_batch`.

The private helpers rouge-score's own tests call (``_lcs_table``, ``_backtrack_norec``,
``_find_union``, ``_union_lcs``, ``lcs_ind``, ``_summary_level_lcs``, ``_create_ngrams``,
``_score_lcs``, ``_score_ngrams``) are here too, on token lists.
"""

from __future__ import annotations

import collections
import re
from collections.abc import Hashable, Sequence
from typing import Any

from parbleu import _core
from parbleu.errors import InvalidOptionError

from . import engine, scoring, tokenizers

_ROUGE_N = re.compile(r"rouge[0-9]$")


def _engine_type(rouge_type: str) -> str:
    """Return the engine's name for ``rouge_type``, checked as rouge-score checks it.

    rouge-score matches ``re.match(r"rouge[0-9]$", t)``, which also accepts a trailing newline
    (``"rouge1"`` followed by a newline scores as ``rouge1``): so does this.
    """
    if rouge_type in ("rougeL", "rougeLsum"):
        return rouge_type
    if isinstance(rouge_type, str) and _ROUGE_N.match(rouge_type):
        n = int(rouge_type[5:])
        if n <= 0:
            raise InvalidOptionError(f"rougen requires positive n: {rouge_type}")
        return f"rouge{n}"
    raise InvalidOptionError(f"Invalid rouge type: {rouge_type}")


class RougeScorer(scoring.BaseScorer):
    """Calculate ROUGE scores between two blobs of text, as rouge-score 0.1.2 does.

    Parameters
    ----------
    rouge_types : list of str
        ``rouge1`` .. ``rouge9``, ``rougeL``, ``rougeLsum``.
    use_stemmer : bool, default False
        NLTK's Porter stemmer on tokens longer than 3 characters (default tokenizer only).
    split_summaries : bool, default False
        ``rougeLsum`` sentences from ``nltk.sent_tokenize`` instead of newlines (needs NLTK's
        punkt data, else :class:`parbleu.errors.MissingDependencyError`).
    tokenizer : object, optional
        An object with a ``tokenize(text)`` method; default: rouge-score's tokenizer.
    """

    def __init__(
        self,
        rouge_types: Sequence[str],
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenizer: Any = None,
    ) -> None:
        self.rouge_types = rouge_types
        self._tokenizer: Any = tokenizer or tokenizers.DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries
        self._pair_key: tuple[Any, ...] | None = None
        self._pair: _core.RougePairScorer | None = None

    def score(self, target: str, prediction: str) -> dict[str, scoring.Score]:
        """Score ``prediction`` against ``target``: :meth:`score_multi` with one target.

        Raises ``ValueError`` for an invalid rouge type, as rouge-score does.
        """
        return self.score_multi([target], prediction)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without the core's scorer (rebuilt on the next call), as before it existed."""
        state = dict(self.__dict__)
        state["_pair"] = state["_pair_key"] = None
        return state

    def _pair_scorer(self) -> _core.RougePairScorer | None:
        """Return the core's one-pair scorer for these options (None: only the batch applies).

        Kept while ``rouge_types`` and the tokenizer are unchanged (both are attributes a
        caller may set), so a ``score`` loop pays one key comparison for its set-up.
        """
        tok = self._tokenizer
        if type(tok) is not tokenizers.DefaultTokenizer or self._split_summaries:
            return None
        key = (tuple(self.rouge_types), tok.use_stemmer)
        if key != getattr(self, "_pair_key", None):
            names = list(key[0])
            types = [_engine_type(t) for t in names]
            self._pair = (
                _core.RougePairScorer(types, names, "default", key[1], scoring.Score)
                if types
                else None
            )
            self._pair_key = key
        return self._pair

    def score_multi(self, targets: Sequence[str], prediction: str) -> dict[str, scoring.Score]:
        """Score against each target and keep, per rouge type, the best fmeasure's scores.

        Parameters
        ----------
        targets : list of str
            The reference texts (at least one).
        prediction : str
            The predicted text.

        Returns
        -------
        dict
            Rouge type -> :class:`.scoring.Score` of the target with the highest fmeasure
            (the first of equal ones).

        Raises
        ------
        ValueError
            An invalid rouge type, or no target.
        """
        pair = self._pair_scorer()
        if pair is not None and type(prediction) is str:
            try:
                return pair.score_multi(targets, prediction)
            except (TypeError, UnicodeEncodeError, InvalidOptionError):
                pass  # the batch path below gives the error its message
        names = list(self.rouge_types)
        types = [_engine_type(t) for t in names]
        if not types:
            return {}
        batch = self._batch(list(targets), prediction, types)
        row = batch.scores[0].tolist()
        return {name: scoring.Score(*row[k]) for k, name in enumerate(names)}

    def _batch(self, targets: list[str], prediction: str, types: list[str]) -> engine.RougeBatch:
        tok = self._tokenizer
        if type(tok) is tokenizers.DefaultTokenizer:
            return engine.score_batch(
                [prediction],
                [targets],
                types,
                use_stemmer=tok.use_stemmer,
                split_summaries=self._split_summaries,
            )
        return self._custom_batch(targets, prediction, types)

    def _custom_batch(
        self, targets: list[str], prediction: str, types: list[str]
    ) -> engine.RougeBatch:
        """Score with a tokenizer object: its tokens become id words the core splits on spaces.

        rougeN and rougeL tokenize whole texts, rougeLsum each sentence (as rouge-score does:
        with an arbitrary tokenizer the two need not agree), so each is scored apart.
        """
        ids: dict[Hashable, str] = {}
        tokenize = self._tokenizer.tokenize

        def whole(text: str) -> str:
            return _id_text([tokenize(text)], ids)

        def by_sentence(text: str) -> str:
            if self._split_summaries:
                sents = engine.sentence_splitter()(text).split("\n")
            else:
                sents = [s for s in text.split("\n") if len(s)]
            return _id_text([tokenize(s) for s in sents], ids)

        parts = []
        others = [t for t in types if t != "rougeLsum"]
        if others:
            parts.append(
                engine.score_batch(
                    [whole(prediction)], [[whole(t) for t in targets]], others, tokenizer="none"
                )
            )
        if "rougeLsum" in types:
            parts.append(
                engine.score_batch(
                    [by_sentence(prediction)],
                    [[by_sentence(t) for t in targets]],
                    ["rougeLsum"],
                    tokenizer="none",
                )
            )
        return engine.merge_types(parts, tuple(types))


def _create_ngrams(tokens: Sequence[Hashable], n: int) -> collections.Counter[tuple[Any, ...]]:
    """Count the n-grams of ``tokens`` (rouge-score's helper)."""
    ngrams: collections.Counter[tuple[Any, ...]] = collections.Counter()
    for ngram in (tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)):
        ngrams[ngram] += 1
    return ngrams


def _score_ngrams(
    target_ngrams: collections.Counter[Any], prediction_ngrams: collections.Counter[Any]
) -> scoring.Score:
    """Score clipped n-gram overlap (rouge-score's helper)."""
    intersection = sum(min(c, prediction_ngrams[g]) for g, c in target_ngrams.items())
    precision = intersection / max(sum(prediction_ngrams.values()), 1)
    recall = intersection / max(sum(target_ngrams.values()), 1)
    return scoring.Score(precision, recall, scoring.fmeasure(precision, recall))


def _lcs_table(ref: Sequence[Hashable], can: Sequence[Hashable]) -> list[list[int]]:
    """Create the 2-d LCS table (rouge-score's helper)."""
    rows, cols = len(ref), len(can)
    table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            if ref[i - 1] == can[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table


def _backtrack_norec(
    t: list[list[int]], ref: Sequence[Hashable], can: Sequence[Hashable]
) -> list[int]:
    """Read out the indices of ``ref`` in one LCS (rouge-score's helper and tie-breaking)."""
    i, j = len(ref), len(can)
    lcs: list[int] = []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            lcs.insert(0, i - 1)
            i -= 1
            j -= 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return lcs


def lcs_ind(ref: Sequence[Hashable], can: Sequence[Hashable]) -> list[int]:
    """Return the indices of ``ref`` in one of the longest common subsequences."""
    return _backtrack_norec(_lcs_table(ref, can), ref, can)


def _find_union(lcs_list: Sequence[Sequence[int]]) -> list[int]:
    """Return the sorted union of LCS index lists."""
    return sorted(set().union(*lcs_list))


def _union_lcs(ref: Sequence[Hashable], c_list: Sequence[Sequence[Hashable]]) -> list[Any]:
    """Return the tokens of ``ref`` in the union LCS over candidate sentences."""
    return [ref[i] for i in _find_union([lcs_ind(ref, c) for c in c_list])]


def _id_text(sents: Sequence[Sequence[Hashable]], ids: dict[Hashable, str]) -> str:
    """Token lists as lines of id words, for the core's ``none`` tokenizer."""
    return "\n".join(" ".join(ids.setdefault(t, str(len(ids))) for t in s) for s in sents)


def _tokens_score(
    ref: Sequence[Sequence[Hashable]], can: Sequence[Sequence[Hashable]], rouge_type: str
) -> scoring.Score:
    ids: dict[Hashable, str] = {}
    pred, target = _id_text(can, ids), _id_text(ref, ids)
    batch = engine.score_batch([pred], [[target]], [rouge_type], tokenizer="none")
    return scoring.Score(*batch.scores[0, 0].tolist())


def _score_lcs(
    target_tokens: Sequence[Hashable], prediction_tokens: Sequence[Hashable]
) -> scoring.Score:
    """Score the LCS of two token lists (rouge-score's rougeL), in the core."""
    return _tokens_score([target_tokens], [prediction_tokens], "rougeL")


def _summary_level_lcs(
    ref_sent: Sequence[Sequence[Hashable]], can_sent: Sequence[Sequence[Hashable]]
) -> scoring.Score:
    """Score summary-level LCS of tokenized sentences (rouge-score's rougeLsum), in the core."""
    return _tokens_score(ref_sent, can_sent, "rougeLsum")
