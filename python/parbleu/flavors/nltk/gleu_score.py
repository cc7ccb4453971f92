"""NLTK 3.10.4's ``nltk.translate.gleu_score``, exactly (see :mod:`parbleu.flavors.nltk`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from ... import _core
from .._common import token_stats
from .bleu_score import _check_sizes


def sentence_gleu(
    references: Sequence[Sequence[Any]],
    hypothesis: Sequence[Any],
    min_len: int = 1,
    max_len: int = 4,
) -> float:
    """Sentence-level GLEU (Google BLEU): ``corpus_gleu([references], [hypothesis])``."""
    if type(min_len) is int and type(max_len) is int and 1 <= min_len <= max_len:
        r = _core.flavor_nltk_sentence_gleu(references, hypothesis, min_len, max_len)
        if r is not None:
            return r
    return corpus_gleu([references], [hypothesis], min_len=min_len, max_len=max_len)


def corpus_gleu(
    list_of_references: Sequence[Sequence[Sequence[Any]]],
    hypotheses: Sequence[Sequence[Any]],
    min_len: int = 1,
    max_len: int = 4,
) -> float:
    """Corpus-level GLEU as ``nltk.translate.gleu_score.corpus_gleu`` (also HF ``google_bleu``).

    Per segment, the reference with the highest ``tp / max(tpfp, tpfn)`` over all n-grams of
    orders ``min_len..max_len`` (first on ties); the corpus score is ``Σtp / Σn_all``.
    """
    _check_sizes(list_of_references, hypotheses)
    if type(min_len) is int and type(max_len) is int and 1 <= min_len <= max_len:
        # Lists or tuples of str tokens: counted and scored in one core call.
        r = _core.flavor_nltk_corpus_gleu(list_of_references, hypotheses, min_len, max_len)
        if r is not None:
            return r
    if min_len < 1:
        return _corpus_gleu_py(list_of_references, hypotheses, min_len, max_len)
    corpus_n_match = 0
    corpus_n_all = 0
    if max_len < min_len or not hypotheses:
        return 0.0
    single = all(len(refs) == 1 for refs in list_of_references)
    if single:
        pair_hyps: Sequence[Any] = hypotheses
        pair_refs: Sequence[Any] = list_of_references
        owner: list[int] = []
    else:
        pair_hyps, pair_refs, owner = [], [], []
        for i, (refs, hyp) in enumerate(zip(list_of_references, hypotheses)):
            for ref in refs:
                pair_hyps.append(hyp)
                pair_refs.append([ref])
                owner.append(i)
        if not owner:
            return 0.0
    st = token_stats(pair_hyps, pair_refs, max_len, workers=None)
    tp_a = st.matches[:, min_len - 1 : max_len].sum(axis=1)
    tpfp_a = st.totals[:, min_len - 1 : max_len].sum(axis=1)
    tpfn_a = sum(np.maximum(st.ref_lens - n + 1, 0) for n in range(min_len, max_len + 1))
    n_all_a = np.maximum(tpfp_a, tpfn_a)
    if single:
        keep = n_all_a > 0
        corpus_n_match = int(tp_a[keep].sum())
        corpus_n_all = int(n_all_a[keep].sum())
    else:
        best: dict[int, list[tuple[int, int]]] = {}
        for seg, tp, n_all in zip(owner, tp_a.tolist(), n_all_a.tolist()):
            if n_all > 0:
                best.setdefault(seg, []).append((int(tp), int(n_all)))
        for seg in sorted(best):
            n_match, n_all = max(best[seg], key=lambda hc: hc[0] / hc[1])
            corpus_n_match += n_match
            corpus_n_all += n_all
    if corpus_n_all == 0:
        return 0.0
    return corpus_n_match / corpus_n_all


def _everygrams(seq: Sequence[Any], min_len: int, max_len: int) -> list[tuple[Any, ...]]:
    s = list(seq)
    out = []
    for start in range(len(s)):
        history = s[start : start + max_len]
        for n in range(min_len, len(history) + 1):
            out.append(tuple(history[:n]))
    return out


def _corpus_gleu_py(
    list_of_references: Sequence[Sequence[Sequence[Any]]],
    hypotheses: Sequence[Sequence[Any]],
    min_len: int,
    max_len: int,
) -> float:
    # NLTK's own loop, for parameters the core does not count (min_len < 1).
    corpus_n_match = 0
    corpus_n_all = 0
    for references, hypothesis in zip(list_of_references, hypotheses):
        hyp_ngrams = Counter(_everygrams(hypothesis, min_len, max_len))
        tpfp = sum(hyp_ngrams.values())
        hyp_counts = []
        for reference in references:
            ref_ngrams = Counter(_everygrams(reference, min_len, max_len))
            tpfn = sum(ref_ngrams.values())
            tp = sum((ref_ngrams & hyp_ngrams).values())
            n_all = max(tpfp, tpfn)
            if n_all > 0:
                hyp_counts.append((tp, n_all))
        if hyp_counts:
            n_match, n_all = max(hyp_counts, key=lambda hc: hc[0] / hc[1])
            corpus_n_match += n_match
            corpus_n_all += n_all
    return 0.0 if corpus_n_all == 0 else corpus_n_match / corpus_n_all
