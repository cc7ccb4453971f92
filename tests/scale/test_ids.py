"""BLEU on token ids equals BLEU with tokenize="none" on the ids written as text."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parbleu
from parbleu.ids import extract_stats_ids

seqs = st.lists(st.integers(-3, 9), min_size=0, max_size=12)


def text(seq: Any, pad: Any = None) -> str:
    return " ".join(str(int(x)) for x in seq if pad is None or int(x) != pad)


def none_bleu(**kw: Any) -> parbleu.BLEU:
    return parbleu.BLEU(tokenize="none", **kw)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(seqs, seqs, st.one_of(st.none(), seqs)), min_size=1, max_size=8),
    st.one_of(st.none(), st.integers(-3, 1)),
    st.integers(1, 5),
)
def test_equals_tokenize_none(rows: list[Any], pad: Any, order: int) -> None:
    hyps = [h for h, _, _ in rows]
    ref_a = [a for _, a, _ in rows]
    ref_b = [b for _, _, b in rows]
    for kw in ({"effective_order": True}, {"smooth_method": "floor"}, {}):
        bleu = none_bleu(max_ngram_order=order, **kw)
        t_h = [text(h, pad) for h in hyps]
        t_refs = [
            [text(a, pad) for a in ref_a],
            [None if b is None else text(b, pad) for b in ref_b],
        ]
        want_rows = bleu.extract_stats(t_h, t_refs)
        got_rows = bleu.extract_stats_ids(hyps, [ref_a, ref_b], pad_id=pad)
        assert np.array_equal(got_rows, want_rows)
        assert np.array_equal(
            bleu.sentence_scores_ids(hyps, [ref_a, ref_b], pad_id=pad),
            bleu.sentence_scores(t_h, t_refs),
        )
        got = bleu.corpus_score_ids(hyps, [ref_a, ref_b], pad_id=pad)
        want = bleu.corpus_score(t_h, t_refs)
        assert (got.score, got.counts, got.totals) == (want.score, want.counts, want.totals)


class DLPackOnly:
    """An object that exposes only DLPack (like a CPU tensor of another library)."""

    def __init__(self, arr: np.ndarray) -> None:
        self._arr = arr

    def __dlpack__(self, **kw: Any) -> Any:
        return self._arr.__dlpack__(**kw)

    def __dlpack_device__(self) -> Any:
        return self._arr.__dlpack_device__()


class ArrayOnly:
    def __init__(self, arr: np.ndarray) -> None:
        self._arr = arr

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._arr if dtype is None else self._arr.astype(dtype)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint16, np.uint64])
def test_padded_arrays_and_protocols(dtype: Any) -> None:
    pad = 0
    hyp = np.array([[5, 6, 7, 8, 0, 0], [9, 9, 4, 1, 2, 0], [3, 0, 0, 0, 0, 0]], dtype=dtype)
    ref = np.array([[0, 5, 6, 7, 9, 0], [9, 9, 4, 1, 2, 3], [3, 3, 0, 0, 0, 0]], dtype=dtype)
    bleu = none_bleu(effective_order=True)
    want = bleu.sentence_scores([text(r, pad) for r in hyp], [[text(r, pad) for r in ref]])
    for wrap in (lambda a: a, DLPackOnly, ArrayOnly, lambda a: [row for row in a]):
        got = bleu.sentence_scores_ids(wrap(hyp), [wrap(ref)], pad_id=pad)
        assert np.array_equal(got, want)
    rows = extract_stats_ids(hyp, [ref], pad_id=pad, max_ngram_order=2)
    assert rows.shape == (3, 6)


def test_big_unsigned_ids_stay_distinct() -> None:
    big = np.array([[2**64 - 1, 2**63, 5]], dtype=np.uint64)
    other = np.array([[2**64 - 2, 2**63, 5]], dtype=np.uint64)
    rows = extract_stats_ids(big, [other], max_ngram_order=2)
    assert rows.tolist() == [[3, 3, 2, 1, 3, 2]]


def test_layout_errors() -> None:
    bleu = parbleu.BLEU()
    with pytest.raises(parbleu.InputTypeError, match="list of reference streams"):
        bleu.corpus_score_ids([[1, 2]], np.array([[1, 2]]))
    with pytest.raises(parbleu.InputTypeError, match="streams"):
        bleu.corpus_score_ids([[1, 2]], [[1, 2]])  # one stream passed bare
    with pytest.raises(parbleu.InputTypeError, match="integers"):
        bleu.corpus_score_ids(np.array([[1.0, 2.0]]), [np.array([[1, 2]])])
    with pytest.raises(parbleu.LengthMismatchError):
        bleu.corpus_score_ids([[1], [2]], [[[1]]])
    with pytest.raises(parbleu.InputTypeError, match="no reference"):
        bleu.corpus_score_ids([[1], [2]], [[[1], None]])
    with pytest.raises(parbleu.EmptyInputError):
        bleu.corpus_score_ids([], [[]])
    with pytest.raises(parbleu.InputTypeError):
        bleu.corpus_score_ids(["1 2"], [[[1]]])
